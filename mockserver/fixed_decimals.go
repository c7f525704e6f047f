package mockserver

import "strconv"

// appendFixed appends f with decimals digits after the point, as .NET
// Framework's ToString("F<decimals>") writes a double (bits 64; a decimal
// made from a double too) or a float (bits 32): number.cpp's DoubleToNumber
// takes 15 significant digits (a float's 7), RoundNumber rounds them half
// away from zero at the place asked for, and a number every digit of
// which rounds away writes no sign: -0.001 and negative zero are "0.00",
// -0.005 is "-0.01", 0.125 "0.13" and 1e17+1 "100000000000000000.00".
// (Go's exact 'f' form writes "-0.00", "0.12" and "100000000000000001.00".)
// f is finite; decimals is 0 to 15.
func appendFixed(dst []byte, f float64, decimals, bits int) []byte {
	prec := 15
	if bits == 32 {
		prec = 7
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', prec-1, bits) // [-]d.dddde±dd
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	var digits [16]byte
	nd := 0
	i := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digits[nd] = e[i]
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	scale := exp + 1 // the digits before the point, number.cpp's scale
	for nd > 0 && digits[nd-1] == '0' {
		nd--
	}
	// RoundNumber(number, scale + decimals).
	pos := scale + decimals
	k := 0
	for k < pos && k < nd {
		k++
	}
	if k == pos && k < nd && digits[k] >= '5' {
		for k > 0 && digits[k-1] == '9' {
			k--
		}
		if k > 0 {
			digits[k-1]++
		} else {
			scale++
			digits[0] = '1'
			k = 1
		}
	} else {
		for k > 0 && digits[k-1] == '0' {
			k--
		}
	}
	if k == 0 {
		scale, neg = 0, false
	}
	nd = k
	// FormatFixed.
	if neg {
		dst = append(dst, '-')
	}
	d := 0
	if scale > 0 {
		for ; d < scale; d++ {
			if d < nd {
				dst = append(dst, digits[d])
			} else {
				dst = append(dst, '0')
			}
		}
	} else {
		dst = append(dst, '0')
	}
	if decimals > 0 {
		dst = append(dst, '.')
		for p := scale; p < scale+decimals; p++ {
			if p >= 0 && p < nd {
				dst = append(dst, digits[p])
			} else {
				dst = append(dst, '0')
			}
		}
	}
	return dst
}
