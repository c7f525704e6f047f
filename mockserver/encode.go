package mockserver

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/wire"
)

// locationList is the result of ReturnAllAtms and the searches.
type locationList struct {
	atms []int32 // positions in ds.ATMs
	// point is the search point, written only when hasPoint.
	point    fixtures.Coordinates
	hasPoint bool
}

// locationHeadJSON is what comes before the index value of a JSON location.
const locationHeadJSON = `{"index":`

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
		f := d.jsonFragment(l.atms[k])
		b = append(b, f.b[:f.off]...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, f.b[f.off:]...)
	}
	return b
}

// jsonFragment returns the JSON location object of the ATM at position i
// without its index value: from the cache, or written now (and cached
// while the cache's budget lasts).
func (d *data) jsonFragment(i int32) *fragment {
	if f := d.frags.get(jsonVariant, i); f != nil {
		return f
	}
	b := append(make([]byte, 0, jsonLocationSize), locationHeadJSON...)
	return d.frags.put(jsonVariant, i, d.appendLocationTailJSON(b, &d.ds.ATMs[i]), len(locationHeadJSON))
}

// appendLocationTailJSON appends a location object after its index value.
func (d *data) appendLocationTailJSON(b []byte, a *fixtures.ATM) []byte {
	in := d.institution(a.InstitutionID)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(a.ID), 10)
	b = append(b, `,"atmIdentifier":`...)
	b = wire.ResultJSON.AppendString(b, a.ATMIdentifier)
	b = append(b, `,"institution":{"id":`...)
	b = strconv.AppendInt(b, int64(in.ID), 10)
	b = append(b, `,"name":`...)
	b = wire.ResultJSON.AppendString(b, in.Name)
	b = append(b, `,"url":`...)
	b = wire.ResultJSON.AppendString(b, in.URL)
	b = append(b, `,"isAtlanticCreditUnion":`...)
	b = strconv.AppendInt(b, int64(in.IsAtlanticCreditUnion), 10)
	b = append(b, `},"coordinates":`...)
	b = appendJSONCoordinates(b, a.Coordinates)
	b = append(b, `,"address":{"streetAddress":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.StreetAddress)
	b = append(b, `,"city":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.City)
	b = append(b, `,"province":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.Province)
	b = append(b, `,"postalCode":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.PostalCode)
	b = append(b, `,"landmark":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.Landmark)
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
		b = wire.ResultJSON.AppendString(b, lang)
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
	rc := s.enc.code(c.Op.Name, c.Binding)
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		n := len(d.ds.Institutions)
		dst = s.enc.appendHead(s.appendResponseHead(dst, c), rc, n, fixtures.Coordinates{}, false)
		dst = s.enc.appendInstitutions(dst, d, rc.list)
		return s.appendResponseTail(s.enc.appendTail(dst, rc, n, fixtures.Coordinates{}, false), c)
	case asmx.OpReturnProvinces:
		n := len(d.ds.Provinces)
		dst = s.enc.appendHead(s.appendResponseHead(dst, c), rc, n, fixtures.Coordinates{}, false)
		dst = s.enc.appendProvinces(dst, d, rc.list)
		return s.appendResponseTail(s.enc.appendTail(dst, rc, n, fixtures.Coordinates{}, false), c)
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
	rc := s.enc.code(c.Op.Name, c.Binding)
	return s.enc.appendHead(s.appendResponseHead(dst, c), rc, len(l.atms), l.point, l.hasPoint)
}

func (s *Server) appendListItems(dst []byte, c *asmx.Call, l locationList, from, to int) []byte {
	if c.Binding == asmx.JSON {
		return s.data.appendLocationItemsJSON(dst, l, from, to)
	}
	return s.enc.appendLocations(dst, s.data, s.enc.code(c.Op.Name, c.Binding).list, l, from, to)
}

func (s *Server) appendListTail(dst []byte, c *asmx.Call, l locationList) []byte {
	if c.Binding == asmx.JSON {
		return append(dst, "]}"...)
	}
	rc := s.enc.code(c.Op.Name, c.Binding)
	return s.appendResponseTail(s.enc.appendTail(dst, rc, len(l.atms), l.point, l.hasPoint), c)
}

// appendResponseHead appends what comes before the result of an XML
// response: the SOAP envelope's start up to <OpResult>, or the XML
// declaration.
func (s *Server) appendResponseHead(dst []byte, c *asmx.Call) []byte {
	if c.Binding.IsSOAP() {
		return asmx.AppendSOAPResponseHead(dst, c.Binding, s.cfg.namespace, c.Op.Name)
	}
	return asmx.AppendXMLDeclaration(dst)
}

// appendResponseTail appends what comes after the result of an XML
// response: the SOAP envelope's end from </OpResult> on, if any.
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
	count := len(l.atms)
	variant, index := jsonVariant, true
	if c.Binding == asmx.JSON {
		n += max(count-1, 0) // the commas between
	} else {
		lc := s.enc.code(c.Op.Name, c.Binding).list
		variant, index = lc.variant, lc.hasIndex
	}
	if index {
		n += digitsUpTo(count)
		if c.Binding != asmx.JSON {
			if lc := s.enc.code(c.Op.Name, c.Binding).list; lc.index.fixed > 0 {
				n += count * (lc.index.fixed + 1) // the point and the decimals
			}
		}
	}
	for _, i := range l.atms {
		f := d.frags.length(variant, i)
		if f == 0 {
			if variant == jsonVariant {
				f = len(d.jsonFragment(i).b)
			} else {
				f = len(s.enc.buildLocation(d, s.enc.code(c.Op.Name, c.Binding).list, i).b)
			}
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
