package asmx

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAppendXMLDouble: doubles and floats as XmlConvert.ToString writes
// them; every row is what Mono's XmlConvert printed (negative zero -0,
// XmlConvert.ToString's IsNegativeZero case in .NET's reference source).
func TestAppendXMLDouble(t *testing.T) {
	t.Parallel()
	tenth, seventh, fifth := 0.1, 0.7, 0.2 // summed at run time, not as exact constants
	doubles := []struct {
		in   float64
		want string
	}{
		{1e-6, "1E-06"},
		{1e21, "1E+21"},
		{0.0001, "0.0001"},
		{0.00001, "1E-05"},
		{-1.5e-5, "-1.5E-05"},
		{123456789012345, "123456789012345"},
		{1e14, "100000000000000"},
		{1e15, "1E+15"},
		{1e16, "1E+16"},
		{1234567890123456, "1234567890123456"}, // 15 digits do not read back: 17, and the point within them
		{tenth + seventh, "0.79999999999999993"},
		{tenth + fifth, "0.30000000000000004"},
		{46.1368, "46.1368"},
		{46.13680000000001, "46.136800000000008"},
		{12345678901234567890.0, "1.2345678901234567E+19"},
		{5e-324, "4.94065645841247E-324"},
		{math.MaxFloat64, "1.7976931348623157E+308"},
		{100, "100"},
		{-60.1942, "-60.1942"},
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{math.Inf(1), "INF"},
		{math.Inf(-1), "-INF"},
		{math.NaN(), "NaN"},
	}
	for _, tt := range doubles {
		if got := string(AppendXMLDouble(nil, tt.in)); got != tt.want {
			t.Errorf("AppendXMLDouble(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	floats := []struct {
		in   float32
		want string
	}{
		{1e7, "1E+07"},
		{1234567, "1234567"},
		{12345678, "12345678"},
		{0.1, "0.1"},
		{1e-5, "1E-05"},
		{math.MaxFloat32, "3.40282347E+38"},
		{0.0001, "0.0001"},
		{float32(math.Copysign(0, -1)), "-0"},
	}
	// Mono's XmlConvert.ToString((decimal)d): 15 digits, plain.
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{1e-6, "0.000001"},
		{0.00001, "0.00001"},
		{46.13680000000001, "46.1368"},
		{tenth + seventh, "0.8"},
		{123456789012345.6, "123456789012346"},
		{1.5e20, "150000000000000000000"},
		{-63.5, "-63.5"},
		{1e-20, "0.00000000000000000001"},
		{math.Copysign(0, -1), "0"}, // not Mono's: the cast's sign is native code, left as 0
	} {
		if got := string(AppendDecimalOfDouble(nil, tt.in)); got != tt.want {
			t.Errorf("AppendDecimalOfDouble(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, tt := range floats {
		if got := string(AppendXMLFloat(nil, tt.in)); got != tt.want {
			t.Errorf("AppendXMLFloat(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// xmlDoubleForm is the form of every finite value XmlConvert writes: a
// plain decimal, or one digit, maybe a fraction, and a signed exponent of
// at least two digits.
var xmlDoubleForm = regexp.MustCompile(`^-?(?:[0-9]+(?:\.[0-9]*[1-9])?|[1-9](?:\.[0-9]*[1-9])?E[+-][0-9]{2,3})$`)

// FuzzAppendXMLDouble: every double is written in XmlConvert's form, reads
// back as itself, with the 15 significant digits that read back as it
// when there are such, else 17.
func FuzzAppendXMLDouble(f *testing.F) {
	for _, x := range []float64{1e-6, 0.1 + 0.7, 46.13680000000001, 5e-324, 1e15, 123.456, 260656468772983.625, 2.2250738585072014e-308, 1e-310} {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		got := string(AppendXMLDouble(nil, x))
		if math.IsInf(x, 0) || math.IsNaN(x) || x == 0 {
			return // the table's rows
		}
		if !xmlDoubleForm.MatchString(got) {
			t.Fatalf("AppendXMLDouble(%v) = %q: not XmlConvert's form", x, got)
		}
		back, err := strconv.ParseFloat(got, 64)
		if err != nil || back != x {
			t.Fatalf("AppendXMLDouble(%v) = %q reads back as %v (%v)", x, got, back, err)
		}
		want := 17
		if y, _ := strconv.ParseFloat(string(appendDigits(nil, x, 15, 64)), 64); y == x {
			want = 15
		}
		if slow := xmlForm(x, want); got != slow {
			t.Fatalf("AppendXMLDouble(%v) = %q, want %q (%d digits, the slow way)", x, got, slow, want)
		}
		mant, _, _ := strings.Cut(strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(got, "-"), ".", ""), "0"), "E")
		if n := len(strings.TrimRight(mant, "0")); n > want {
			t.Fatalf("AppendXMLDouble(%v) = %q: %d significant digits, want at most %d", x, got, n, want)
		}
	})
}

// monoFormatter prints XmlConvert.ToString of each double whose bits it
// reads, one a line, in hexadecimal.
const monoFormatter = `using System; using System.Xml;
public class P {
  public static void Main() {
    string line;
    while ((line = Console.ReadLine()) != null) {
      long bits = Convert.ToInt64(line, 16);
      Console.WriteLine(XmlConvert.ToString(BitConverter.Int64BitsToDouble(bits)));
    }
  }
}
`

// TestXMLDoubleAsMonoWritesIt: 3,000 doubles of every magnitude, and
// sums and quotients as a program computes them, are written as Mono's
// XmlConvert.ToString writes them (it formats "R" as .NET Framework: 15
// digits, else 17). Needs mcs and mono (CI=true: required).
func TestXMLDoubleAsMonoWritesIt(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"mcs", "mono"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s: %v (Debian: apt-get install mono-devel)", p, err)
			}
			t.Skipf("%s: %v", p, err)
		}
	}
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "xmldouble.cs"), filepath.Join(dir, "xmldouble.exe")
	if err := os.WriteFile(src, []byte(monoFormatter), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mcs", "-nologo", "-r:System.Xml", "-out:"+exe, src).CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, out)
	}
	r := rand.New(rand.NewPCG(28, 11))
	var xs []float64
	for range 1000 {
		xs = append(xs, math.Float64frombits(r.Uint64())) // any bits: every exponent
	}
	for range 1000 {
		xs = append(xs, (r.Float64()*180-90)*math.Pow(10, float64(r.IntN(40)-20)))
	}
	for range 1000 { // coordinates as an app computes them
		xs = append(xs, float64(r.IntN(180_000_000)-90_000_000)/1e6+float64(r.IntN(1000))/1e9, r.Float64()/3)
	}
	var in strings.Builder
	var kept []float64
	for _, x := range xs {
		if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			continue // Mono writes -0 (.NET Framework 0); the table has these
		}
		kept = append(kept, x)
		fmt.Fprintf(&in, "%x\n", math.Float64bits(x))
	}
	cmd := exec.Command("mono", exe)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mono: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(kept) {
		t.Fatalf("mono wrote %d lines for %d doubles", len(lines), len(kept))
	}
	// Mono decides whether 15 digits read back with its own digits and
	// parser, which are off by a unit in the last place at times (most at
	// extreme exponents): there it writes 17 digits where 15 read back, or
	// 15 that read back as another double. .NET Framework's are its own
	// (the C runtime's); the mock takes the correctly rounded ones. Such
	// differences are allowed, one in 200 at most; any other fails.
	precisionOnly := 0
	for i, x := range kept {
		got := string(AppendXMLDouble(nil, x))
		if got == lines[i] {
			continue
		}
		if sameButPrecision(x, got, lines[i]) && precisionOnly < len(kept)/200 {
			precisionOnly++
			t.Logf("%x (%v): %s, Mono %s (its 15-digit round trip differs)", math.Float64bits(x), x, got, lines[i])
			continue
		}
		t.Errorf("%x (%v): got %s, Mono's XmlConvert writes %s", math.Float64bits(x), x, got, lines[i])
	}
	t.Logf("%d doubles as Mono writes them, %d differing only in Mono's choice of 15 or 17 digits", len(kept)-precisionOnly, precisionOnly)
}

// sameButPrecision reports whether a and b, two forms of x, differ only in
// XmlConvert's choice of 15 or 17 significant digits: one is x's correctly
// rounded 15 digits, the other its 17, as AppendXMLDouble writes either.
func sameButPrecision(x float64, a, b string) bool {
	forms := map[string]bool{}
	for _, prec := range []int{15, 17} {
		forms[xmlForm(x, prec)] = true
	}
	return a != b && forms[a] && forms[b]
}

// xmlForm is x written as XmlConvert writes it with prec significant
// digits, correctly rounded, whether or not they read back as x.
func xmlForm(x float64, prec int) string {
	return string(formatDigits(nil, appendDigits(nil, x, prec, 64), prec))
}
