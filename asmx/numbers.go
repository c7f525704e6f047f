package asmx

import (
	"math"
	"strconv"
	"strings"
)

// Numbers are read as .NET Framework reads them. A SOAP body is read by
// XmlSerializer with XmlConvert (ToByte, ToInt32, ToDouble), a GET or POST
// value by Convert.ChangeType with the invariant culture; the two accept
// different forms (NumberStyles):
//
//	              SOAP (XmlConvert)              GET/POST (Convert)
//	unsignedByte  white space                    white space, sign
//	int           white space, sign              white space, sign
//	double        white space, sign, decimal     white space, sign, decimal
//	              point, exponent; INF, -INF     point, exponent, thousands
//	                                             separators
//
// and both take "Infinity", "-Infinity" and "NaN" for a double (the
// invariant culture's symbols; case matters). A double that overflows is an
// error (.NET Framework's Double.Parse), one that underflows is 0.

// numberStyle is a set of .NET NumberStyles flags.
type numberStyle uint8

const (
	styleLeadingWhite numberStyle = 1 << iota
	styleTrailingWhite
	styleLeadingSign
	styleDecimalPoint
	styleExponent
	styleThousands

	styleInteger   = styleLeadingWhite | styleTrailingWhite | styleLeadingSign
	styleFloat     = styleInteger | styleDecimalPoint | styleExponent
	styleXMLByte   = styleLeadingWhite | styleTrailingWhite
	styleXMLInt    = styleInteger
	styleXMLDouble = styleFloat
	styleConvDbl   = styleFloat | styleThousands
)

// Messages of the exceptions number parsing throws.
const (
	msgFormat         = "Input string was not in a correct format."
	msgOverflowByte   = "Value was either too large or too small for an unsigned byte."
	msgOverflowInt32  = "Value was either too large or too small for an Int32."
	msgOverflowDouble = "Value was either too large or too small for a Double."
)

// isDotNetWhite is .NET's number white space: space and \t to \r.
func isDotNetWhite(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// scanNumber checks s against style as .NET's Number.ParseNumber does and
// returns the number in a form strconv reads (sign, digits, '.', exponent;
// no white space or separators). ok is false for a string .NET rejects.
// It copies s only when it holds thousands separators.
func scanNumber(s string, style numberStyle) (num string, ok bool) {
	i, n := 0, len(s)
	if style&styleLeadingWhite != 0 {
		for i < n && isDotNetWhite(s[i]) {
			i++
		}
	}
	start := i
	if style&styleLeadingSign != 0 && i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits, point, separators := false, false, false
loop:
	for ; i < n; i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' && style&styleDecimalPoint != 0 && !point:
			point = true
		case c == ',' && style&styleThousands != 0 && digits && !point:
			separators = true
		default:
			break loop
		}
	}
	if !digits {
		return "", false
	}
	if style&styleExponent != 0 && i < n && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < n && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < n && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j { // an exponent without digits is not part of the number
			i = k
		}
	}
	end := i
	if style&styleTrailingWhite != 0 {
		for i < n && isDotNetWhite(s[i]) {
			i++
		}
	}
	for i < n && s[i] == 0 { // .NET ignores trailing NULs
		i++
	}
	if i != n {
		return "", false
	}
	num = s[start:end]
	if separators {
		num = strings.ReplaceAll(num, ",", "")
	}
	return num, true
}

// Kinds of number parsing failure.
const (
	numOK          = iota
	numFormat      // FormatException
	numOverflow    // OverflowException
	numOverflowInt // a byte beyond Int32: OverflowException wrapping Int32's
)

// parseInt32 reads s as Int32.Parse(s, style) does.
func parseInt32(s string, style numberStyle) (int32, int) {
	num, ok := scanNumber(s, style)
	if !ok {
		return 0, numFormat
	}
	n, err := strconv.ParseInt(num, 10, 32)
	if err != nil {
		return 0, numOverflow
	}
	return int32(n), numOK
}

// parseByte reads s as Byte.Parse(s, style) does: as an Int32 first, then
// checked for 0 to 255.
func parseByte(s string, style numberStyle) (uint8, int) {
	n, fail := parseInt32(s, style)
	switch {
	case fail == numOverflow:
		return 0, numOverflowInt
	case fail != numOK:
		return 0, fail
	case n < 0 || n > 255:
		return 0, numOverflow
	}
	return uint8(n), numOK
}

// parseDouble reads s as Double.Parse(s, style) with the invariant culture
// does in .NET Framework.
func parseDouble(s string, style numberStyle) (float64, int) {
	num, ok := scanNumber(s, style)
	if !ok {
		switch strings.TrimSpace(s) {
		case "Infinity":
			return math.Inf(1), numOK
		case "-Infinity":
			return math.Inf(-1), numOK
		case "NaN":
			return math.NaN(), numOK
		}
		return 0, numFormat
	}
	f, exact := shortDecimal(num)
	var err error
	if !exact {
		f, err = strconv.ParseFloat(num, 64)
	}
	if err != nil && math.IsInf(f, 0) {
		return 0, numOverflow
	}
	if f == 0 {
		f = 0 // .NET Framework's Double.Parse gives +0 for "-0"
	}
	return f, numOK
}

// shortDecimal reads num, as scanNumber returns it, when it is a short
// decimal: an optional sign, then at most 15 digits in all with an optional
// point among them, no exponent (as "46.1368" or "-60.1942"). Its digits
// then make an integer below 2^53 and its point a power of ten up to 1e15,
// both exact in a float64, so their quotient is the correctly rounded
// value strconv.ParseFloat returns, for less work. ok is false for any
// other form, which ParseFloat reads.
func shortDecimal(num string) (f float64, ok bool) {
	i, neg := 0, false
	if i < len(num) && (num[i] == '+' || num[i] == '-') {
		neg = num[i] == '-'
		i++
	}
	var m uint64
	digits, frac, point := 0, 0, false
	for ; i < len(num); i++ {
		c := num[i]
		switch {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if point {
				frac++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	f = float64(m) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// pow10 are the powers of ten shortDecimal divides by, each exact.
var pow10 = [16]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// numberException is the exception a failed parse of a value of type typ
// throws; frames are the callers' frames, innermost first.
func numberException(typ ParamType, fail int, frames []string) *Exception {
	var parse []string
	switch typ {
	case Double:
		parse = []string{"System.Number.ParseDouble(String value, NumberStyles options, NumberFormatInfo numfmt)",
			"System.Double.Parse(String s, NumberStyles style, NumberFormatInfo info)"}
	case UnsignedByte:
		parse = []string{"System.Number.ParseInt32(String s, NumberStyles style, NumberFormatInfo info)",
			"System.Byte.Parse(String s, NumberStyles style, NumberFormatInfo info)"}
	default:
		parse = []string{"System.Number.ParseInt32(String s, NumberStyles style, NumberFormatInfo info)"}
	}
	switch fail {
	case numFormat:
		return &Exception{Type: typeFormat, Message: msgFormat, Stack: concat(
			[]string{"System.Number.StringToNumber(String str, NumberStyles options, NumberBuffer& number, NumberFormatInfo info, Boolean parseDecimal)"}, parse, frames)}
	case numOverflowInt:
		return &Exception{Type: typeOverflow, Message: msgOverflowByte, Stack: concat(parse[1:], frames),
			Inner: &Exception{Type: typeOverflow, Message: msgOverflowInt32, Stack: concat(parse, frames)}}
	}
	msg := msgOverflowInt32
	switch typ {
	case Double:
		msg = msgOverflowDouble
	case UnsignedByte:
		msg = msgOverflowByte
		parse = parse[1:]
	}
	return &Exception{Type: typeOverflow, Message: msg, Stack: concat(parse, frames)}
}

// xmlTrim trims XML white space, as XmlConvert does: strings.Trim(s,
// " \t\n\r"), without building the set of bytes each call.
func xmlTrim(s string) string {
	for len(s) > 0 && isXMLSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isXMLSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// parseXMLDouble reads s as XmlConvert.ToDouble does.
func parseXMLDouble(s string) (float64, int) {
	t := xmlTrim(s)
	switch t {
	case "INF":
		return math.Inf(1), numOK
	case "-INF":
		return math.Inf(-1), numOK
	}
	f, fail := parseDouble(t, styleXMLDouble)
	if fail == numOK && f == 0 && strings.HasPrefix(t, "-") {
		f = math.Copysign(0, -1)
	}
	return f, fail
}
