package asmx

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Call is a decoded request: the operation, the binding it came in on, and its
// parameters converted to their types. Parameters an operation does not take
// stay at their zero values.
type Call struct {
	Op      *Operation
	Binding Binding

	// Values holds each parameter's text as received (trimmed for numeric
	// types), aligned with Op.Params; Present says which were sent at all.
	Values  []string
	Present []bool

	Key                             string
	Address, City, Province, Postal string
	Radius                          int // 0 to 255
	Latitude, Longitude             float64
	MaximumAtms                     int
	InstitutionID                   int
	CityID                          int

	// MustUnderstand lists the SOAP headers the request marks
	// mustUnderstand (local names): ASMX refuses the call with a
	// MustUnderstand fault once the operation has run, as no header is
	// understood.
	MustUnderstand []string

	// pooled: the call is a callWithParams's, which Recycle may reuse.
	pooled bool
}

// Canonical is the call's identity for matching recordings: the operation and
// every parameter but the key, in the document's order, numbers in canonical
// form and strings trimmed. Two calls that ask the same question in different
// bindings, with different whitespace, order or key, have the same Canonical.
func (c *Call) Canonical() string {
	var b strings.Builder
	b.WriteString(c.Op.Name)
	for _, p := range c.Op.Params {
		if p.Name == ParamKey {
			continue
		}
		b.WriteByte('&')
		b.WriteString(p.Name)
		b.WriteByte('=')
		b.WriteString(c.Text(p.Name))
	}
	return b.String()
}

// Text returns a parameter's value as canonical text ("25", "44.6488", "Halifax").
func (c *Call) Text(name string) string {
	switch name {
	case ParamKey:
		return c.Key
	case ParamAddress:
		return strings.TrimSpace(c.Address)
	case ParamCity:
		return strings.TrimSpace(c.City)
	case ParamProvince:
		return strings.TrimSpace(c.Province)
	case ParamPostalCode:
		return strings.TrimSpace(c.Postal)
	case ParamRadius:
		return strconv.Itoa(c.Radius)
	case ParamLatitude:
		return FormatDouble(c.Latitude)
	case ParamLongitude:
		return FormatDouble(c.Longitude)
	case ParamMaximumAtms:
		return strconv.Itoa(c.MaximumAtms)
	case ParamInstitutionID:
		return strconv.Itoa(c.InstitutionID)
	case ParamCityID:
		return strconv.Itoa(c.CityID)
	}
	return ""
}

// Params returns the parameters but the key as name/value pairs in the
// document's order, for journals and messages.
func (c *Call) Params() [][2]string {
	out := make([][2]string, 0, len(c.Op.Params))
	for _, p := range c.Op.Params {
		if p.Name == ParamKey {
			continue
		}
		out = append(out, [2]string{p.Name, c.Text(p.Name)})
	}
	return out
}

// FormatDouble writes a double the way atmkit writes every number: shortest
// round-trip form without an exponent.
func FormatDouble(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// set stores one parameter's text, converting it to its type as ASMX
// does: with XmlConvert for the SOAP bindings, with Convert (the invariant
// culture) for the others (numbers.go). It returns the exception the
// conversion throws, if any.
func (c *Call) set(i int, text string) *Exception {
	p := c.Op.Params[i]
	c.Present[i] = true
	soap := c.Binding.IsSOAP()
	if p.Type != String {
		c.Values[i] = strings.TrimSpace(text)
	} else {
		c.Values[i] = text
	}
	switch p.Type {
	case String:
		switch p.Name {
		case ParamKey:
			c.Key = text
		case ParamAddress:
			c.Address = text
		case ParamCity:
			c.City = text
		case ParamProvince:
			c.Province = text
		case ParamPostalCode:
			c.Postal = text
		}
	case UnsignedByte:
		style := styleInteger
		if soap {
			style = styleXMLByte
		}
		n, fail := parseByte(text, style)
		if fail != numOK {
			return numberException(p.Type, fail, conversionFrames(p, soap))
		}
		c.Radius = int(n)
	case Int:
		n, fail := parseInt32(text, styleInteger)
		if fail != numOK {
			return numberException(p.Type, fail, conversionFrames(p, soap))
		}
		switch p.Name {
		case ParamMaximumAtms:
			c.MaximumAtms = int(n)
		case ParamInstitutionID:
			c.InstitutionID = int(n)
		default:
			c.CityID = int(n)
		}
	case Double:
		var f float64
		var fail int
		if soap {
			f, fail = parseXMLDouble(text)
		} else {
			f, fail = parseDouble(text, styleConvDbl)
		}
		if fail != numOK {
			return numberException(p.Type, fail, conversionFrames(p, soap))
		}
		if p.Name == ParamLatitude {
			c.Latitude = f
		} else {
			c.Longitude = f
		}
	}
	return nil
}

// conversionFrames are the frames between a number parser and ASMX's
// reader, for the detailed form.
func conversionFrames(p Param, soap bool) []string {
	if soap {
		switch p.Type {
		case UnsignedByte:
			return []string{"System.Xml.XmlConvert.ToByte(String s)"}
		case Int:
			return []string{"System.Xml.XmlConvert.ToInt32(String s)"}
		}
		return []string{"System.Xml.XmlConvert.ToDouble(String s)"}
	}
	switch p.Type {
	case UnsignedByte:
		return []string{"System.String.System.IConvertible.ToByte(IFormatProvider provider)"}
	case Int:
		return []string{"System.Int32.Parse(String s, NumberStyles style, IFormatProvider provider)", "System.String.System.IConvertible.ToInt32(IFormatProvider provider)"}
	}
	return []string{"System.String.System.IConvertible.ToDouble(IFormatProvider provider)"}
}

// maxParams is the most parameters an operation takes.
const maxParams = 7

// callWithParams is a call and the arrays its Values and Present use,
// allocated at once.
type callWithParams struct {
	c       Call
	values  [maxParams]string
	present [maxParams]bool
}

// newCall prepares an empty call of op in binding b: one object, its
// Values and Present slices included (at capacity, so an append copies),
// a recycled one (Recycle) when there is one.
func newCall(op *Operation, b Binding) *Call {
	n := len(op.Params)
	if n > maxParams {
		return &Call{Op: op, Binding: b, Values: make([]string, n), Present: make([]bool, n)}
	}
	cw := callPool.Get().(*callWithParams)
	cw.c = Call{Op: op, Binding: b, pooled: true}
	cw.c.Values, cw.c.Present = cw.values[:n:n], cw.present[:n:n]
	return &cw.c
}

// callPool holds calls given back by Recycle.
var callPool = sync.Pool{New: func() any { return new(callWithParams) }}

// Recycle gives c back for a later decoded call to reuse, so that a server
// that holds each call for a while (a journal) allocates none once it
// drops as many as it takes. Only the one holder of c may recycle it,
// and nothing may use c afterwards: its fields are cleared and it becomes
// another request's call. The strings it held are not touched. A call
// not made by this package's decoders is left alone.
func (c *Call) Recycle() {
	if c == nil || !c.pooled {
		return
	}
	cw := (*callWithParams)(unsafe.Pointer(c)) // c is the first field of a callWithParams
	*cw = callWithParams{}
	callPool.Put(cw)
}

// NewCall builds a call from name/value pairs (as a form or a recorded
// request gives them), for callers outside this package that already hold
// parameters, such as the cassette index. Missing parameters take their zero
// values; unknown names are ignored.
func NewCall(op *Operation, b Binding, values map[string]string) (*Call, *Error) {
	c := newCall(op, b)
	for i, p := range op.Params {
		if v, ok := values[p.Name]; ok {
			if x := c.set(i, v); x != nil {
				return nil, newConvertValueError(b, p, v, x)
			}
		}
	}
	return c, nil
}
