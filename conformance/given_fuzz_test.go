package conformance

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzSetValue sets any text as any query value flag (a flag of atmkit
// conform or go test ./conformance, or its ATMKIT_<NAME> variable):
// SetValue never panics, refuses a name outside ValueFlags, keeps an
// address part's text as given, and takes a number exactly when it is one
// of the parameter's type and range, stored as given.
func FuzzSetValue(f *testing.F) {
	for _, s := range []struct{ name, text string }{
		{"latitude", "44.65"}, {"longitude", " -63.57 "}, {"latitude", "NaN"}, {"latitude", "-91"}, {"longitude", "1e400"},
		{"radius", "255"}, {"radius", "256"}, {"maximum", "-1"}, {"institution-id", "-2147483648"}, {"institution-id", "2147483648"},
		{"city", " Halifax "}, {"address", ""}, {"postal-code", "B3H 1A1"}, {"province", "NS"}, {"strCity", "x"}, {"maximum", "0x10"},
	} {
		f.Add(s.name, s.text)
	}
	f.Fuzz(func(t *testing.T, name, text string) {
		var c Config
		err := c.SetValue(name, text)
		if !slices.Contains(ValueFlags, name) {
			if err == nil {
				t.Fatalf("SetValue(%q, %q): took a name no flag has", name, text)
			}
			return
		}
		if err == nil && c.checkValue(name) != nil {
			t.Fatalf("SetValue(%q, %q): took a value out of range: %v", name, text, c.checkValue(name))
		}
		num := strings.TrimSpace(text)
		switch name {
		case "address", "city", "province", "postal-code":
			p := map[string]*string{"address": c.Address, "city": c.City, "province": c.Province, "postal-code": c.PostalCode}[name]
			if err != nil || p == nil || *p != text {
				t.Fatalf("SetValue(%q, %q): %v; want the text as given", name, text, err)
			}
		case "latitude", "longitude":
			v, perr := strconv.ParseFloat(num, 64)
			limit := map[string]float64{"latitude": 90, "longitude": 180}[name]
			ok := perr == nil && v >= -limit && v <= limit
			p := map[string]*float64{"latitude": c.Latitude, "longitude": c.Longitude}[name]
			if (err == nil) != ok || ok && (p == nil || *p != v) {
				t.Fatalf("SetValue(%q, %q): %v", name, text, err)
			}
		default:
			v, perr := strconv.ParseInt(num, 10, 64)
			lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
			switch name {
			case "radius":
				lo, hi = 0, 255
			case "maximum":
				lo = 0
			}
			ok := perr == nil && v >= lo && v <= hi
			p := map[string]*int{"institution-id": c.InstitutionID, "radius": c.Radius, "maximum": c.Maximum}[name]
			if (err == nil) != ok || ok && (p == nil || int64(*p) != v) {
				t.Fatalf("SetValue(%q, %q): %v", name, text, err)
			}
		}
	})
}
