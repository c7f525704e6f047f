package mockserver

// The hand-written XML encoder atmkit served before result shapes were
// data: the reference the default shape's compiled encoder must match byte
// for byte (legacy_test.go).

import (
	"strconv"

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

// openRoot opens the root element of a result node, with xmlns="" when it
// goes inside a SOAP body (whose default namespace is the service's).
func (w *xmlWriter) openRoot(name string, noNamespace bool) {
	w.b = append(w.b, '<')
	w.b = append(w.b, name...)
	if noNamespace {
		w.b = append(w.b, ` xmlns=""`...)
	}
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

// Indentation of a location node in a location list (depth 2) and of its
// fields (depth 3), as the head that comes before the index value.
const (
	locationHeadXML = "\n    <" + xmlLocation + ">\n      <" + xmlIndex + ">"
)

// legacyLocationsXML appends the XML result node of a location list.
// noNamespace adds xmlns="" to the root, as a result inside a SOAP body
// needs.
func (d *data) legacyLocationsXML(dst []byte, l locationList) []byte {
	return d.legacyLocationsNode(dst, l, false)
}

func (d *data) legacyLocationsNode(dst []byte, l locationList, noNamespace bool) []byte {
	dst = d.legacyLocationsHead(dst, l, noNamespace)
	dst = d.legacyLocationItems(dst, l, 0, len(l.atms))
	return d.legacyLocationsTail(dst, l)
}

// legacyLocationsHead, legacyLocationItems and legacyLocationsTail write a
// location list's result node in parts (as legacyLocationsNode does whole),
// for writers that hand a long list on in pieces: the root, count and search
// point and the list's start tag; the locations from position from to to;
// the end tags.
func (d *data) legacyLocationsHead(dst []byte, l locationList, noNamespace bool) []byte {
	w := xmlWriter{b: dst}
	w.openRoot(xmlLocationsRoot, noNamespace)
	w.int(1, xmlCount, len(l.atms))
	if l.hasPoint {
		w.coordinates(1, xmlSearchPoint, l.point)
	}
	if len(l.atms) == 0 {
		w.empty(1, xmlLocationList)
	} else {
		w.open(1, xmlLocationList)
	}
	return w.b
}

func (d *data) legacyLocationItems(dst []byte, l locationList, from, to int) []byte {
	for k := from; k < to; k++ {
		dst = append(dst, locationHeadXML...)
		dst = strconv.AppendInt(dst, int64(k), 10)
		dst = d.legacyFragment(dst, l.atms[k])
	}
	return dst
}

func (d *data) legacyLocationsTail(dst []byte, l locationList) []byte {
	w := xmlWriter{b: dst}
	if len(l.atms) > 0 {
		w.close(1, xmlLocationList)
	}
	w.close(0, xmlLocationsRoot)
	return w.b
}

// legacyFragment appends what follows the index value in the XML of the
// ATM at position i (no cache: this is the reference the shaped encoder is
// compared with).
func (d *data) legacyFragment(dst []byte, i int32) []byte {
	w := xmlWriter{b: dst}
	d.legacyLocationTailXML(&w, 2, &d.ds.ATMs[i])
	return w.b
}

// legacyLocationTailXML appends a location node after its index value: the
// rest of the index element, the other fields and the end tag.
func (d *data) legacyLocationTailXML(w *xmlWriter, depth int, a *fixtures.ATM) {
	in := d.institution(a.InstitutionID)
	w.leafEnd(xmlIndex)
	f := depth + 1
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

// legacyInstitutionsXML appends the ReturnInstitutions result node.
func (d *data) legacyInstitutionsXML(dst []byte) []byte {
	return d.legacyInstitutionsNode(dst, false)
}

func (d *data) legacyInstitutionsNode(dst []byte, noNamespace bool) []byte {
	w := xmlWriter{b: dst}
	w.openRoot(xmlInstitutionsRoot, noNamespace)
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

// legacyProvincesXML appends the ReturnProvinces result node.
func (d *data) legacyProvincesXML(dst []byte) []byte {
	return d.legacyProvincesNode(dst, false)
}

func (d *data) legacyProvincesNode(dst []byte, noNamespace bool) []byte {
	w := xmlWriter{b: dst}
	w.openRoot(xmlProvincesRoot, noNamespace)
	for _, p := range d.ds.Provinces {
		w.open(1, xmlProvince)
		w.str(2, xmlProvinceCode, p.Code)
		w.str(2, xmlName, p.Name)
		w.close(1, xmlProvince)
	}
	w.close(0, xmlProvincesRoot)
	return w.b
}
