package mockserver

import (
	"net/http"
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
	b = d.appendLocationsHeadJSON(b, l)
	b = d.appendLocationItemsJSON(b, l, 0, len(l.atms))
	return append(b, "]}"...)
}

// appendLocationsHeadJSON and appendLocationItemsJSON write a JSON location
// list in parts, as appendLocationsJSON does whole: the count, the search
// point and the list's start; the locations from position from to to. The
// end is "]}".
func (d *data) appendLocationsHeadJSON(b []byte, l locationList) []byte {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(len(l.atms)), 10)
	b = append(b, `,"coordinates":`...)
	b = appendJSONCoordinates(b, l.point)
	return append(b, `,"locations":[`...)
}

func (d *data) appendLocationItemsJSON(b []byte, l locationList, from, to int) []byte {
	for k := from; k < to; k++ {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, locationHeadJSON...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = d.appendFragment(b, l.atms[k], true)
	}
	return b
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

// isLocationList reports whether op answers a location list.
func isLocationList(op string) bool {
	return op != asmx.OpReturnInstitutions && op != asmx.OpReturnProvinces
}

// encodeResponse appends the whole response body of c in its binding. The
// XML result is written in place, inside the SOAP envelope when there is
// one, so the body is built in one buffer with no copy of the result.
func (s *Server) encodeResponse(dst []byte, c *asmx.Call) []byte {
	d := s.data
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		dst = d.appendInstitutionsNode(s.appendResponseHead(dst, c), c.Binding.IsSOAP())
		return s.appendResponseTail(dst, c)
	case asmx.OpReturnProvinces:
		dst = d.appendProvincesNode(s.appendResponseHead(dst, c), c.Binding.IsSOAP())
		return s.appendResponseTail(dst, c)
	}
	sc := getScratch()
	defer sc.release()
	return s.appendList(dst, c, d.locations(c, sc))
}

// appendList appends the whole response body of c answered with l.
func (s *Server) appendList(dst []byte, c *asmx.Call, l locationList) []byte {
	dst = slices.Grow(dst, 1024+len(l.atms)*locationSize(c))
	dst = s.appendListHead(dst, c, l)
	dst = s.appendListItems(dst, c, l, 0, len(l.atms))
	return s.appendListTail(dst, c, l)
}

// locationSize is the typical size of a location in c's answer.
func locationSize(c *asmx.Call) int {
	if c.Binding == asmx.JSON {
		return jsonLocationSize
	}
	return xmlLocationSize
}

// appendListHead, appendListItems and appendListTail write the response
// body of a location list in c's binding in parts: all that comes before
// the first location; the locations from position from to to; all that
// comes after the last.
func (s *Server) appendListHead(dst []byte, c *asmx.Call, l locationList) []byte {
	if c.Binding == asmx.JSON {
		return s.data.appendLocationsHeadJSON(dst, l)
	}
	return s.data.appendLocationsHead(s.appendResponseHead(dst, c), l, c.Binding.IsSOAP())
}

func (s *Server) appendListItems(dst []byte, c *asmx.Call, l locationList, from, to int) []byte {
	if c.Binding == asmx.JSON {
		return s.data.appendLocationItemsJSON(dst, l, from, to)
	}
	return s.data.appendLocationItems(dst, l, from, to)
}

func (s *Server) appendListTail(dst []byte, c *asmx.Call, l locationList) []byte {
	if c.Binding == asmx.JSON {
		return append(dst, "]}"...)
	}
	return s.appendResponseTail(s.data.appendLocationsTail(dst, l), c)
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

// streamChunk is about how many bytes a response written in pieces gathers
// before handing them on; a location list longer than that (typically) is
// written in pieces.
const streamChunk = 256 << 10

// streams reports whether the answer l to c is long enough to be written in
// pieces.
func streams(c *asmx.Call, l locationList) bool {
	return len(l.atms)*locationSize(c) > streamChunk
}

// writeAnswer writes the answer to c from the data set. A location list
// long enough (over streamChunk, typically) is written in pieces from one
// pooled buffer, with its Content-Length computed first, so that no answer
// is held whole; any other is built whole in a pooled buffer.
func (s *Server) writeAnswer(w http.ResponseWriter, c *asmx.Call) {
	bp := bodyPool.Get().(*[]byte)
	defer recycleBuffer(bp)
	if !isLocationList(c.Op.Name) {
		*bp = s.encodeResponse((*bp)[:0], c)
		asmx.WriteBody(w, c.Binding, *bp)
		return
	}
	sc := getScratch()
	defer sc.release()
	l := s.data.locations(c, sc)
	if !streams(c, l) {
		*bp = s.appendList((*bp)[:0], c, l)
		asmx.WriteBody(w, c.Binding, *bp)
		return
	}
	asmx.WriteHeaderLength(w, c.Binding, []string{strconv.Itoa(s.listLength(c, l, bp))})
	_ = s.emitList(c, l, bp, func(p []byte) error {
		_, err := w.Write(p)
		return err // the client went away: stop encoding
	})
}

// encodeChunked encodes the response body of c, the very bytes
// encodeResponse writes, and hands it to emit in pieces of about streamChunk
// bytes from one pooled buffer, so that a body of any size (ReturnAllAtms
// at a million ATMs is over a gigabyte) is never held whole. emit must not
// keep the slice; an error from emit stops the encoding and is returned.
func (s *Server) encodeChunked(c *asmx.Call, emit func([]byte) error) error {
	bp := bodyPool.Get().(*[]byte)
	defer recycleBuffer(bp)
	if !isLocationList(c.Op.Name) {
		*bp = s.encodeResponse((*bp)[:0], c)
		return emit(*bp)
	}
	sc := getScratch()
	defer sc.release()
	return s.emitList(c, s.data.locations(c, sc), bp, emit)
}

// emitList encodes the response body of c answered with l, handing it to
// emit in pieces built in *bp (see encodeChunked).
func (s *Server) emitList(c *asmx.Call, l locationList, bp *[]byte, emit func([]byte) error) error {
	buf := s.appendListHead((*bp)[:0], c, l)
	for k := 0; k < len(l.atms); {
		// Whole batches of locations, then a look at the buffer's length.
		to := min(k+64, len(l.atms))
		buf = s.appendListItems(buf, c, l, k, to)
		k = to
		if len(buf) >= streamChunk {
			if err := emit(buf); err != nil {
				*bp = buf
				return err
			}
			buf = buf[:0]
		}
	}
	buf = s.appendListTail(buf, c, l)
	*bp = buf
	return emit(buf)
}

// listLength is the length of the response body of c answered with l,
// computed without writing it: the head and tail are written into *bp, the
// locations' lengths are known from the fragment cache (or their fragments
// written into *bp once, to learn them).
func (s *Server) listLength(c *asmx.Call, l locationList, bp *[]byte) int {
	d := s.data
	buf := s.appendListHead((*bp)[:0], c, l)
	n := len(buf)
	buf = s.appendListTail(buf[:0], c, l)
	n += len(buf)
	json := c.Binding == asmx.JSON
	count := len(l.atms)
	if json {
		n += count * len(locationHeadJSON)
		n += max(count-1, 0) // the commas between
	} else {
		n += count * len(locationHeadXML)
	}
	n += digitsUpTo(count)
	for _, i := range l.atms {
		f := d.frags.length(i, json)
		if f == 0 {
			buf = d.appendFragment(buf[:0], i, json)
			f = len(buf)
		}
		n += f
	}
	*bp = buf
	return n
}

// digitsUpTo is the number of decimal digits in the numbers 0 to n-1.
func digitsUpTo(n int) int {
	total := 0
	for lo, hi, digits := 0, 10, 1; lo < n; lo, hi, digits = hi, hi*10, digits+1 {
		total += (min(n, hi) - lo) * digits
	}
	return total
}
