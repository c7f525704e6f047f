package mockserver

import (
	"strconv"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// xmlWriter appends an indented XML node (two spaces, as XmlSerializer writes).
type xmlWriter struct{ b []byte }

func (w *xmlWriter) indent(depth int) {
	w.b = append(w.b, '\n')
	for i := 0; i < depth; i++ {
		w.b = append(w.b, ' ', ' ')
	}
}

func (w *xmlWriter) open(depth int, name string) {
	if depth > 0 {
		w.indent(depth)
	}
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

func (w *xmlWriter) close(depth int, name string) {
	w.indent(depth)
	w.b = append(w.b, '<', '/')
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

func (w *xmlWriter) empty(depth int, name string) {
	w.indent(depth)
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	w.b = append(w.b, " />"...)
}

func (w *xmlWriter) leafStart(depth int, name string) {
	w.indent(depth)
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

func (w *xmlWriter) leafEnd(name string) {
	w.b = append(w.b, '<', '/')
	w.b = append(w.b, name...)
	w.b = append(w.b, '>')
}

func (w *xmlWriter) str(depth int, name, v string) {
	if v == "" {
		w.empty(depth, name)
		return
	}
	w.leafStart(depth, name)
	w.b = asmx.AppendEscaped(w.b, v)
	w.leafEnd(name)
}

func (w *xmlWriter) int(depth int, name string, v int) {
	w.leafStart(depth, name)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
	w.leafEnd(name)
}

func (w *xmlWriter) float(depth int, name string, v float64) {
	w.leafStart(depth, name)
	w.b = asmx.AppendDouble(w.b, v)
	w.leafEnd(name)
}

func (w *xmlWriter) coordinates(depth int, name string, c fixtures.Coordinates) {
	w.open(depth, name)
	w.float(depth+1, xmlLatitude, c.Latitude)
	w.float(depth+1, xmlLongitude, c.Longitude)
	w.close(depth, name)
}

// locationList is the result of ReturnAllAtms and the searches.
type locationList struct {
	atms []*fixtures.ATM
	// point is the search point, written only when hasPoint.
	point    fixtures.Coordinates
	hasPoint bool
}

// appendLocationsXML appends the XML result node of a location list.
func (d *data) appendLocationsXML(dst []byte, l locationList) []byte {
	w := xmlWriter{b: dst}
	w.open(0, xmlLocationsRoot)
	w.int(1, xmlCount, len(l.atms))
	if l.hasPoint {
		w.coordinates(1, xmlSearchPoint, l.point)
	}
	if len(l.atms) == 0 {
		w.empty(1, xmlLocationList)
	} else {
		w.open(1, xmlLocationList)
		for i, a := range l.atms {
			d.appendLocationXML(&w, 2, i, a)
		}
		w.close(1, xmlLocationList)
	}
	w.close(0, xmlLocationsRoot)
	return w.b
}

func (d *data) appendLocationXML(w *xmlWriter, depth, index int, a *fixtures.ATM) {
	in := d.institution(a.InstitutionID)
	w.open(depth, xmlLocation)
	f := depth + 1
	w.int(f, xmlIndex, index)
	w.int(f, xmlID, a.ID)
	w.str(f, xmlATMIdentifier, a.ATMIdentifier)
	w.open(f, xmlInstitution)
	w.int(f+1, xmlID, in.ID)
	w.str(f+1, xmlName, in.Name)
	w.str(f+1, xmlURL, in.URL)
	w.int(f+1, xmlIsAtlanticCU, in.IsAtlanticCreditUnion)
	w.close(f, xmlInstitution)
	w.coordinates(f, xmlCoordinates, a.Coordinates)
	w.open(f, xmlAddress)
	w.str(f+1, xmlStreetAddress, a.Address.StreetAddress)
	w.str(f+1, xmlCity, a.Address.City)
	w.str(f+1, xmlProvince, a.Address.Province)
	w.str(f+1, xmlPostalCode, a.Address.PostalCode)
	w.str(f+1, xmlLandmark, a.Address.Landmark)
	w.close(f, xmlAddress)
	w.open(f, xmlFeatures)
	w.int(f+1, xmlDeposits, a.Features.Deposits)
	w.int(f+1, xmlHours, a.Features.Hours)
	w.int(f+1, xmlDriveThru, a.Features.DriveThru)
	w.int(f+1, xmlPinChange, a.Features.PinChange)
	w.int(f+1, xmlVoiceGuidance, a.Features.VoiceGuidance)
	w.close(f, xmlFeatures)
	w.open(f, xmlCreditCards)
	w.int(f+1, xmlVisa, a.CreditCards.Visa)
	w.int(f+1, xmlPlus, a.CreditCards.Plus)
	w.int(f+1, xmlMastercard, a.CreditCards.Mastercard)
	w.int(f+1, xmlCirrus, a.CreditCards.Cirrus)
	w.close(f, xmlCreditCards)
	if len(a.Languages) == 0 {
		w.empty(f, xmlLanguages)
	} else {
		w.open(f, xmlLanguages)
		for _, l := range a.Languages {
			w.str(f+1, xmlLanguage, l)
		}
		w.close(f, xmlLanguages)
	}
	w.close(depth, xmlLocation)
}

// appendInstitutionsXML appends the ReturnInstitutions result node.
func (d *data) appendInstitutionsXML(dst []byte) []byte {
	w := xmlWriter{b: dst}
	w.open(0, xmlInstitutionsRoot)
	for _, in := range d.ds.Institutions {
		w.open(1, xmlInstitution)
		w.int(2, xmlID, in.ID)
		w.str(2, xmlName, in.Name)
		w.str(2, xmlURL, in.URL)
		w.int(2, xmlIsAtlanticCU, in.IsAtlanticCreditUnion)
		w.close(1, xmlInstitution)
	}
	w.close(0, xmlInstitutionsRoot)
	return w.b
}

// appendProvincesXML appends the ReturnProvinces result node.
func (d *data) appendProvincesXML(dst []byte) []byte {
	w := xmlWriter{b: dst}
	w.open(0, xmlProvincesRoot)
	for _, p := range d.ds.Provinces {
		w.open(1, xmlProvince)
		w.str(2, xmlProvinceCode, p.Code)
		w.str(2, xmlName, p.Name)
		w.close(1, xmlProvince)
	}
	w.close(0, xmlProvincesRoot)
	return w.b
}

// appendLocationsJSON appends the JSON result object of a search, in the
// document's field order.
func (d *data) appendLocationsJSON(b []byte, l locationList) []byte {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(len(l.atms)), 10)
	b = append(b, `,"coordinates":`...)
	b = appendJSONCoordinates(b, l.point)
	b = append(b, `,"locations":[`...)
	for i, a := range l.atms {
		if i > 0 {
			b = append(b, ',')
		}
		in := d.institution(a.InstitutionID)
		b = append(b, `{"index":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, int64(a.ID), 10)
		b = append(b, `,"atmIdentifier":`...)
		b = appendJSONString(b, a.ATMIdentifier)
		b = append(b, `,"institution":{"id":`...)
		b = strconv.AppendInt(b, int64(in.ID), 10)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, in.Name)
		b = append(b, `,"url":`...)
		b = appendJSONString(b, in.URL)
		b = append(b, `,"isAtlanticCreditUnion":`...)
		b = strconv.AppendInt(b, int64(in.IsAtlanticCreditUnion), 10)
		b = append(b, `},"coordinates":`...)
		b = appendJSONCoordinates(b, a.Coordinates)
		b = append(b, `,"address":{"streetAddress":`...)
		b = appendJSONString(b, a.Address.StreetAddress)
		b = append(b, `,"city":`...)
		b = appendJSONString(b, a.Address.City)
		b = append(b, `,"province":`...)
		b = appendJSONString(b, a.Address.Province)
		b = append(b, `,"postalCode":`...)
		b = appendJSONString(b, a.Address.PostalCode)
		b = append(b, `,"landmark":`...)
		b = appendJSONString(b, a.Address.Landmark)
		b = append(b, `},"features":{"deposits":`...)
		b = strconv.AppendInt(b, int64(a.Features.Deposits), 10)
		b = append(b, `,"hours":`...)
		b = strconv.AppendInt(b, int64(a.Features.Hours), 10)
		b = append(b, `,"driveThru":`...)
		b = strconv.AppendInt(b, int64(a.Features.DriveThru), 10)
		b = append(b, `,"pinChange":`...)
		b = strconv.AppendInt(b, int64(a.Features.PinChange), 10)
		b = append(b, `,"voiceGuidance":`...)
		b = strconv.AppendInt(b, int64(a.Features.VoiceGuidance), 10)
		b = append(b, `},"creditCards":{"visa":`...)
		b = strconv.AppendInt(b, int64(a.CreditCards.Visa), 10)
		b = append(b, `,"plus":`...)
		b = strconv.AppendInt(b, int64(a.CreditCards.Plus), 10)
		b = append(b, `,"mastercard":`...)
		b = strconv.AppendInt(b, int64(a.CreditCards.Mastercard), 10)
		b = append(b, `,"cirrus":`...)
		b = strconv.AppendInt(b, int64(a.CreditCards.Cirrus), 10)
		b = append(b, `},"languages":[`...)
		for j, lang := range a.Languages {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, lang)
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}"...)
}

func appendJSONCoordinates(b []byte, c fixtures.Coordinates) []byte {
	b = append(b, `{"latitude":`...)
	b = appendJSONNumber(b, c.Latitude)
	b = append(b, `,"longitude":`...)
	b = appendJSONNumber(b, c.Longitude)
	return append(b, '}')
}

func appendJSONNumber(b []byte, f float64) []byte {
	return asmx.AppendDouble(b, f) // coordinates are always finite (validated)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[last:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			last = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[last:i]...)
			b = append(b, `\ufffd`...)
			i += size
			last = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[last:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			last = i
			continue
		}
		i += size
	}
	b = append(b, s[last:]...)
	return append(b, '"')
}
