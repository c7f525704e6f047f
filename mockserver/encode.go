package mockserver

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// locationList is the result of ReturnAllAtms and the searches.
type locationList struct {
	atms []int32 // positions in ds.ATMs
	// point is the search point, written only when hasPoint.
	point    fixtures.Coordinates
	hasPoint bool
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
		f := d.frags.get(jsonVariant, i)
		if f == nil {
			head := []byte(`{"index":`)
			f = d.frags.put(jsonVariant, i, d.appendLocationTailJSON(head, &d.ds.ATMs[i]), len(head))
		}
		b = append(b, f.b[:f.off]...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, f.b[f.off:]...)
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

// Typical sizes of a location in a list, for sizing buffers once.
const (
	xmlLocationSize  = 1200
	jsonLocationSize = 700
)

// encodeResponse appends the whole response body of c in its binding. The
// XML result is written in place, inside the SOAP envelope when there is
// one, so the body is built in one buffer with no copy of the result.
func (s *Server) encodeResponse(dst []byte, c *asmx.Call) []byte {
	d := s.data
	if c.Binding == asmx.JSON {
		l := d.locations(c)
		return d.appendLocationsJSON(slices.Grow(dst, 256+len(l.atms)*jsonLocationSize), l)
	}
	rc := s.enc.code(c.Op.Name, c.Binding)
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		n := len(d.ds.Institutions)
		dst = s.enc.appendHead(s.appendResponseHead(dst, c), rc, n, fixtures.Coordinates{}, false)
		dst = s.enc.appendInstitutions(dst, d, rc.list)
		dst = s.enc.appendTail(dst, rc, n, fixtures.Coordinates{}, false)
	case asmx.OpReturnProvinces:
		n := len(d.ds.Provinces)
		dst = s.enc.appendHead(s.appendResponseHead(dst, c), rc, n, fixtures.Coordinates{}, false)
		dst = s.enc.appendProvinces(dst, d, rc.list)
		dst = s.enc.appendTail(dst, rc, n, fixtures.Coordinates{}, false)
	default:
		l := d.locations(c)
		dst = slices.Grow(dst, 1024+len(l.atms)*xmlLocationSize)
		dst = s.enc.appendHead(s.appendResponseHead(dst, c), rc, len(l.atms), l.point, l.hasPoint)
		dst = s.enc.appendLocations(dst, d, rc.list, l, 0, len(l.atms))
		dst = s.enc.appendTail(dst, rc, len(l.atms), l.point, l.hasPoint)
	}
	return s.appendResponseTail(dst, c)
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
	l := d.locations(c)
	rc := s.enc.code(c.Op.Name, c.Binding)
	buf = s.enc.appendHead(s.appendResponseHead(buf, c), rc, len(l.atms), l.point, l.hasPoint)
	for k := 0; k < len(l.atms); {
		// Whole batches of locations, then a look at the buffer's length.
		to := min(k+64, len(l.atms))
		buf = s.enc.appendLocations(buf, d, rc.list, l, k, to)
		k = to
		if len(buf) >= streamChunk {
			if err := emit(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = s.appendResponseTail(s.enc.appendTail(buf, rc, len(l.atms), l.point, l.hasPoint), c)
	return emit(buf)
}
