package mockserver

import (
	"slices"
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
	w.b = asmx.AppendXMLDouble(w.b, v)
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
	atms []int32 // positions in ds.ATMs
	// point is the search point, written only when hasPoint.
	point    fixtures.Coordinates
	hasPoint bool
}

// Indentation of a location node in a location list (depth 2) and of its
// fields (depth 3), as the head that comes before the index value.
const (
	locationHeadXML  = "\n    <" + xmlLocation + ">\n      <" + xmlIndex + ">"
	locationHeadJSON = `{"index":`
)

// appendLocationsXML appends the XML result node of a location list.
// noNamespace adds xmlns="" to the root, as a result inside a SOAP body
// needs.
func (d *data) appendLocationsXML(dst []byte, l locationList) []byte {
	return d.appendLocationsNode(dst, l, false)
}

func (d *data) appendLocationsNode(dst []byte, l locationList, noNamespace bool) []byte {
	dst = d.appendLocationsHead(dst, l, noNamespace)
	dst = d.appendLocationItems(dst, l, 0, len(l.atms))
	return d.appendLocationsTail(dst, l)
}

// appendLocationsHead, appendLocationItems and appendLocationsTail write a
// location list's result node in parts (as appendLocationsNode does whole),
// for writers that hand a long list on in pieces: the root, count and search
// point and the list's start tag; the locations from position from to to;
// the end tags.
func (d *data) appendLocationsHead(dst []byte, l locationList, noNamespace bool) []byte {
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

func (d *data) appendLocationItems(dst []byte, l locationList, from, to int) []byte {
	for k := from; k < to; k++ {
		dst = append(dst, locationHeadXML...)
		dst = strconv.AppendInt(dst, int64(k), 10)
		dst = d.appendFragment(dst, l.atms[k], false)
	}
	return dst
}

func (d *data) appendLocationsTail(dst []byte, l locationList) []byte {
	w := xmlWriter{b: dst}
	if len(l.atms) > 0 {
		w.close(1, xmlLocationList)
	}
	w.close(0, xmlLocationsRoot)
	return w.b
}

// appendFragment appends what follows the index value in the XML (or JSON)
// of the ATM at position i: from the cache, or written now (and cached while
// the cache's budget lasts).
func (d *data) appendFragment(dst []byte, i int32, json bool) []byte {
	if f := d.frags.get(i, json); f != nil {
		return append(dst, f...)
	}
	start := len(dst)
	a := &d.ds.ATMs[i]
	if json {
		dst = d.appendLocationTailJSON(dst, a)
	} else {
		w := xmlWriter{b: dst}
		d.appendLocationTailXML(&w, 2, a)
		dst = w.b
	}
	d.frags.put(i, json, dst[start:])
	return dst
}

// appendLocationTailXML appends a location node after its index value: the
// rest of the index element, the other fields and the end tag.
func (d *data) appendLocationTailXML(w *xmlWriter, depth int, a *fixtures.ATM) {
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

// appendInstitutionsXML appends the ReturnInstitutions result node.
func (d *data) appendInstitutionsXML(dst []byte) []byte {
	return d.appendInstitutionsNode(dst, false)
}

func (d *data) appendInstitutionsNode(dst []byte, noNamespace bool) []byte {
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

// appendProvincesXML appends the ReturnProvinces result node.
func (d *data) appendProvincesXML(dst []byte) []byte {
	return d.appendProvincesNode(dst, false)
}

func (d *data) appendProvincesNode(dst []byte, noNamespace bool) []byte {
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

// appendLocationsJSON appends the JSON result object of a search, in the
// document's field order.
func (d *data) appendLocationsJSON(b []byte, l locationList) []byte {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(len(l.atms)), 10)
	b = append(b, `,"coordinates":`...)
	b = appendJSONCoordinates(b, l.point)
	b = append(b, `,"locations":[`...)
	for k, i := range l.atms {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, locationHeadJSON...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = d.appendFragment(b, i, true)
	}
	return append(b, "]}"...)
}

// appendLocationTailJSON appends a location object after its index value.
func (d *data) appendLocationTailJSON(b []byte, a *fixtures.ATM) []byte {
	in := d.institution(a.InstitutionID)
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
	return asmx.AppendJSONDouble(b, f) // a searched point may be INF or NaN, as ASMX reads them
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

// Typical sizes of a location in a list, for sizing buffers once.
const (
	xmlLocationSize  = 1200
	jsonLocationSize = 700
)

// searchLocations answers a location-list operation. A coordinate search
// around a point that is no place on Earth (a latitude beyond ±90, a
// longitude beyond ±180, or not a finite number, all of which ASMX reads)
// finds nothing, and the answer shows the point as given.
func (d *data) searchLocations(c *asmx.Call) locationList {
	if c.Op.Name == asmx.OpReturnAtmSearchByCoordinates && !onEarth(c.Latitude, c.Longitude) {
		return locationList{point: fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}, hasPoint: true}
	}
	return d.locations(c)
}

// onEarth reports whether a latitude and longitude name a point on Earth.
// The comparisons are false for NaN.
func onEarth(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}

// encodeResponse appends the whole response body of c in its binding. The
// XML result is written in place, inside the SOAP envelope when there is
// one, so the body is built in one buffer with no copy of the result.
func (s *Server) encodeResponse(dst []byte, c *asmx.Call) []byte {
	d := s.data
	if c.Binding == asmx.JSON {
		l := d.searchLocations(c)
		return d.appendLocationsJSON(slices.Grow(dst, 256+len(l.atms)*jsonLocationSize), l)
	}
	soap := c.Binding.IsSOAP()
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		dst = d.appendInstitutionsNode(s.appendResponseHead(dst, c), soap)
	case asmx.OpReturnProvinces:
		dst = d.appendProvincesNode(s.appendResponseHead(dst, c), soap)
	default:
		l := d.searchLocations(c)
		dst = slices.Grow(dst, 1024+len(l.atms)*xmlLocationSize)
		dst = d.appendLocationsNode(s.appendResponseHead(dst, c), l, soap)
	}
	return s.appendResponseTail(dst, c)
}

// appendResponseHead appends what comes before the result node of an XML
// response: the SOAP envelope's start, or the XML declaration.
func (s *Server) appendResponseHead(dst []byte, c *asmx.Call) []byte {
	if c.Binding.IsSOAP() {
		return asmx.AppendSOAPResponseHead(dst, c.Binding, s.cfg.namespace, c.Op.Name)
	}
	return asmx.AppendXMLDeclaration(dst)
}

// appendResponseTail appends what comes after the result node of an XML
// response: the SOAP envelope's end, if any.
func (s *Server) appendResponseTail(dst []byte, c *asmx.Call) []byte {
	if c.Binding.IsSOAP() {
		return asmx.AppendSOAPResponseTail(dst, c.Op.Name)
	}
	return dst
}

// streamChunk is about how many bytes encodeChunked gathers before handing
// them on.
const streamChunk = 256 << 10

// encodeChunked encodes the response body of c, the very bytes
// encodeResponse writes, and hands it to emit in pieces of about streamChunk
// bytes from one pooled buffer, so that a body of any size (ReturnAllAtms
// at a million ATMs is over a gigabyte) is never held whole. emit must not
// keep the slice; an error from emit stops the encoding and is returned.
func (s *Server) encodeChunked(c *asmx.Call, emit func([]byte) error) error {
	bp := bodyPool.Get().(*[]byte)
	buf := (*bp)[:0]
	defer func() {
		if cap(buf) <= 4<<20 {
			*bp = buf[:0]
			bodyPool.Put(bp)
		}
	}()
	if c.Binding == asmx.JSON || c.Op.Name == asmx.OpReturnInstitutions || c.Op.Name == asmx.OpReturnProvinces {
		buf = s.encodeResponse(buf, c)
		return emit(buf)
	}
	d := s.data
	l := d.searchLocations(c)
	buf = d.appendLocationsHead(s.appendResponseHead(buf, c), l, c.Binding.IsSOAP())
	for k := 0; k < len(l.atms); {
		// Whole batches of locations, then a look at the buffer's length.
		to := min(k+64, len(l.atms))
		buf = d.appendLocationItems(buf, l, k, to)
		k = to
		if len(buf) >= streamChunk {
			if err := emit(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = s.appendResponseTail(d.appendLocationsTail(buf, l), c)
	return emit(buf)
}
