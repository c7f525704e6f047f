package asmx

import (
	"math"
	"strconv"
)

// AppendXMLDouble appends f as .NET Framework's XmlConvert.ToString writes
// a double, the form of every double in an ASMX answer (XmlSerializer, a
// DataSet, an XmlElement's text set from one): Double.ToString("R",
// InvariantCulture), then "Infinity" written INF. "R" on .NET Framework
// (COMNumber::FormatDouble) is not the shortest round-trip form: it takes
// the value's 15 significant digits (correctly rounded) when they read back
// as the same double, else its 17, and writes them as "G" does with that
// precision: trailing zeros dropped, in plain notation unless the decimal
// point falls more than the precision to the right of the first digit or
// more than three places to the left of it (1E+15, 1E-05, 0.0001,
// 1.2345678901234567E+19; the exponent signed, at least two digits).
// So 0.1+0.7 is 0.79999999999999993 (Go's shortest: 0.7999999999999999)
// and 46.13680000000001 is 46.136800000000008. Negative zero is -0
// (XmlConvert's own IsNegativeZero case: "R" alone writes it 0 on .NET
// Framework, as JavaScriptSerializer does). NaN is NaN, infinities INF
// and -INF.
func AppendXMLDouble(dst []byte, f float64) []byte {
	return appendRoundTrip(dst, f, 64)
}

// AppendXMLFloat appends f, a float (System.Single), as XmlConvert.ToString
// writes one: as AppendXMLDouble, with 7 significant digits when they read
// back as the same float, else 9 (3.40282347E+38, 1E+07, 12345678).
func AppendXMLFloat(dst []byte, f float32) []byte {
	return appendRoundTrip(dst, float64(f), 32)
}

// appendRoundTrip is AppendXMLDouble (bits 64) and AppendXMLFloat (32).
func appendRoundTrip(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "INF"...)
	case math.IsInf(f, -1):
		return append(dst, "-INF"...)
	case f == 0 && math.Signbit(f):
		return append(dst, "-0"...) // XmlConvert.ToString's IsNegativeZero
	case f == 0:
		return append(dst, '0')
	}
	short, long := 15, 17
	if bits == 32 {
		short, long = 7, 9
	}
	var buf [32]byte
	if bits == 64 && math.Abs(f) >= 0x1p-1022 { // normal: a subnormal's unit in the last place is wider
		// The shortest digits that read back, when they are 15 or fewer,
		// are the 15 correctly rounded ones without their trailing zeros:
		// x is within half a unit in the last place of them, less than
		// half a unit of the 15th digit, so no rounding and no tie.
		digits := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
		if significant(digits) <= short {
			return formatDigits(dst, digits, short)
		}
	}
	prec := short
	digits := appendDigits(buf[:0], f, prec, bits)
	if back, err := strconv.ParseFloat(string(digits), bits); err != nil || back != f {
		prec = long
		digits = appendDigits(buf[:0], f, prec, bits)
	}
	return formatDigits(dst, digits, prec)
}

// formatDigits appends digits, [-]d.ddde±XX, as .NET's "G" format writes
// them with precision prec: trailing zeros dropped, plain notation unless
// the decimal point falls more than prec places right of the first digit
// or more than three left of it; prec 0 writes plain notation always, as
// a decimal is written.
func formatDigits(dst, digits []byte, prec int) []byte {
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	e := len(digits) - 1
	for digits[e] != 'e' {
		e--
	}
	exp, _ := strconv.Atoi(string(digits[e+1:]))
	mant := make([]byte, 0, 17)
	mant = append(mant, digits[0])
	if e > 1 {
		mant = append(mant, digits[2:e]...)
	}
	for len(mant) > 1 && mant[len(mant)-1] == '0' {
		mant = mant[:len(mant)-1]
	}
	if neg {
		dst = append(dst, '-')
	}
	scale := exp + 1 // where the decimal point falls after the first digit: 0.001 is -2
	if prec > 0 && (scale > prec || scale < -3) {
		dst = append(dst, mant[0])
		if len(mant) > 1 {
			dst = append(dst, '.')
			dst = append(dst, mant[1:]...)
		}
		dst = append(dst, 'E')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	switch {
	case scale <= 0:
		dst = append(dst, '0', '.')
		for range -scale {
			dst = append(dst, '0')
		}
		return append(dst, mant...)
	case scale >= len(mant):
		dst = append(dst, mant...)
		for range scale - len(mant) {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, mant[:scale]...)
	dst = append(dst, '.')
	return append(dst, mant[scale:]...)
}

// appendDigits appends f in exponent form, [-]d.ddde±XX, with prec
// significant digits, rounded to nearest, a tie (the value exactly half way,
// as 260656468772983.625 is to 17 digits) away from zero, as .NET
// Framework's digit generation (the C runtime's _ecvt) and Mono's round it;
// strconv rounds a tie to even.
func appendDigits(dst []byte, f float64, prec, bits int) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', prec-1, bits)
	var probe [40]byte
	next := strconv.AppendFloat(probe[:0], math.Abs(f), 'e', prec, 64) // one digit more
	if next[prec+1] != '5' {
		return dst // no tie: a tie's next digit is 5, all after it 0
	}
	// A 5 next: a tie only if the exact expansion ends there (a double's
	// has at most 767 significant digits).
	exact := strconv.AppendFloat(nil, math.Abs(f), 'e', 800, 64)
	end := prec + 2
	for exact[end] == '0' {
		end++
	}
	if exact[end] != 'e' || exact[prec+1] != '5' {
		return dst
	}
	m := dst[start:]
	if m[0] == '-' {
		m = m[1:]
	}
	if string(m[:prec+1]) != string(exact[:prec+1]) {
		return dst // strconv rounded it up: away from zero already
	}
	// Round the kept digits up, carrying; 9.99…9 becomes 1.00…0 with the
	// exponent one higher.
	for i := prec; i >= 0; i-- {
		if m[i] == '.' {
			continue
		}
		if m[i] != '9' {
			m[i]++
			return dst
		}
		m[i] = '0'
	}
	m[0] = '1'
	exp, _ := strconv.Atoi(string(m[prec+2:]))
	dst = dst[:len(dst)-len(m)+prec+2]
	return strconv.AppendInt(dst, int64(exp+1), 10)
}

// significant is the number of digits of the mantissa of digits,
// [-]d[.ddd]e±XX.
func significant(digits []byte) int {
	n := 0
	for _, c := range digits {
		switch {
		case c == 'e':
			return n
		case c >= '0' && c <= '9':
			n++
		}
	}
	return n
}

// AppendDecimalOfDouble appends f as XmlConvert.ToString writes the
// System.Decimal a service makes of it ((decimal)f: VarDecFromR8 keeps 15
// significant digits, correctly rounded, without trailing zeros), in
// plain notation, as a decimal is always written: 46.13680000000001 is
// 46.1368, 1E-05 0.00001, 1.5E+20 150000000000000000000. Values a
// decimal cannot hold are the caller's (past ±7.9E+28 the cast throws;
// below 1E-28 it is 0: not modelled, written as the digits).
func AppendDecimalOfDouble(dst []byte, f float64) []byte {
	if f == 0 {
		return append(dst, '0') // -0 too: the source is silent on the cast's sign (native VarDecFromR8); left as it was
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendRoundTrip(dst, f, 64)
	}
	var buf [32]byte
	digits := appendDigits(buf[:0], f, 15, 64)
	return formatDigits(dst, digits, 0)
}
