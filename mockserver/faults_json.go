package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// The JSON form of a fault: what the admin API reads and lists, --fault's
// JSON form and the config file's faults, and its refusals worded in its
// own terms.

// faultJSON is the JSON form of a Fault (the admin API, --fault, the config file).
type faultJSON struct {
	ID                string                 `json:"id,omitempty"`
	Operation         string                 `json:"operation,omitempty"`
	Binding           string                 `json:"binding,omitempty"`
	Delay             string                 `json:"delay,omitempty"`
	Jitter            string                 `json:"jitter,omitempty"`
	DelayDistribution *delayDistributionJSON `json:"delayDistribution,omitempty"`
	Status            int                    `json:"status,omitempty"`
	SOAPFault         *SOAPFault             `json:"soapFault,omitempty"`
	Drop              bool                   `json:"drop,omitempty"`
	Malformed         bool                   `json:"malformed,omitempty"`
	Dribble           *dribbleJSON           `json:"dribble,omitempty"`
	Reset             *Reset                 `json:"reset,omitempty"`
	Garbage           bool                   `json:"garbage,omitempty"`
	Probability       *float64               `json:"probability,omitempty"`
	Seed              int64                  `json:"seed,omitempty"`
	Skip              int                    `json:"skip,omitempty"`
	Times             int                    `json:"times,omitempty"`
}

// delayDistributionJSON is the JSON form of a DelayDistribution, WireMock's
// names with durations as Go text.
type delayDistributionJSON struct {
	Type   string  `json:"type"`
	Median string  `json:"median,omitempty"`
	Sigma  float64 `json:"sigma,omitempty"`
	Lower  string  `json:"lower,omitempty"`
	Upper  string  `json:"upper,omitempty"`
}

// dribbleJSON is the JSON form of a Dribble.
type dribbleJSON struct {
	Chunks   int    `json:"chunks"`
	Duration string `json:"duration"`
}

// MarshalJSON writes the fault as the admin API lists it: the binding by its
// short name ("soap12"), durations as Go text ("400ms"); a field at its
// default is left out, but a distribution's and a dribble's fields are
// always written.
func (f Fault) MarshalJSON() ([]byte, error) {
	j := faultJSON{ID: f.ID, Operation: f.Operation, Status: f.Status, SOAPFault: f.SOAPFault,
		Drop: f.Drop, Malformed: f.Malformed, Reset: f.Reset, Garbage: f.Garbage, Seed: f.Seed,
		Skip: f.Skip, Times: f.Times}
	if f.Binding != 0 {
		j.Binding = f.Binding.String()
	}
	j.Delay, j.Jitter = durationText(f.Delay), durationText(f.Jitter)
	if d := f.DelayDistribution; d != nil {
		j.DelayDistribution = &delayDistributionJSON{Type: d.Type, Sigma: d.Sigma,
			Median: durationText(d.Median), Lower: durationText(d.Lower), Upper: durationText(d.Upper)}
		switch d.Type {
		case distLogNormal:
			j.DelayDistribution.Median = d.Median.String()
		case distUniform:
			j.DelayDistribution.Lower, j.DelayDistribution.Upper = d.Lower.String(), d.Upper.String()
		}
	}
	if d := f.Dribble; d != nil {
		j.Dribble = &dribbleJSON{Chunks: d.Chunks, Duration: d.Duration.String()}
	}
	if f.Probability != 0 {
		p := f.Probability
		j.Probability = &p
	}
	return marshalText(j)
}

// marshalText is v's JSON with <, > and & as they are, not escaped as
// \u003c and so on: the journal's bodies and the faults' texts read as
// sent when the admin API is read with curl. (An encoder that escapes
// them, json.Marshal's, still does when it writes a Fault or an entry.)
func marshalText(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// durationText is d as Go text, or "" for 0 (left out of the JSON form).
func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// UnmarshalJSON reads a fault such as
// {"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}.
// Unknown fields are an error, so a misspelt field does not pass silently;
// names are exact, and one in another case ("Status") is an unknown field
// too, named with the one meant; so is an explicit "probability": 0,
// which a Fault could not tell from the default.
func (f *Fault) UnmarshalJSON(data []byte) error {
	var j faultJSON
	names := checkFieldNames(data)
	if names.given != "" {
		return fmt.Errorf("fault: unknown field %s (did you mean %s? names are case-sensitive)", names.given, names.want)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return faultJSONError(err, data)
	}
	if names.repeated != "" {
		return fmt.Errorf("fault: field %s given twice; give each field once", names.repeated)
	}
	out := Fault{ID: j.ID, Operation: j.Operation, Status: j.Status, SOAPFault: j.SOAPFault,
		Drop: j.Drop, Malformed: j.Malformed, Reset: j.Reset, Garbage: j.Garbage, Seed: j.Seed,
		Skip: j.Skip, Times: j.Times}
	var err error
	if j.Binding != "" {
		if out.Binding, err = asmx.ParseBinding(strings.ToLower(j.Binding)); err != nil {
			return fmt.Errorf("fault binding: %w", err)
		}
	}
	if out.Delay, err = parseFaultDuration("delay", j.Delay); err != nil {
		return err
	}
	if out.Jitter, err = parseFaultDuration("jitter", j.Jitter); err != nil {
		return err
	}
	if d := j.DelayDistribution; d != nil {
		dd := &DelayDistribution{Type: d.Type, Sigma: d.Sigma}
		if dd.Median, err = parseFaultDuration("delayDistribution median", d.Median); err != nil {
			return err
		}
		if dd.Lower, err = parseFaultDuration("delayDistribution lower", d.Lower); err != nil {
			return err
		}
		if dd.Upper, err = parseFaultDuration("delayDistribution upper", d.Upper); err != nil {
			return err
		}
		out.DelayDistribution = dd
	}
	if d := j.Dribble; d != nil {
		out.Dribble = &Dribble{Chunks: d.Chunks}
		if out.Dribble.Duration, err = parseFaultDuration("dribble duration", d.Duration); err != nil {
			return err
		}
	}
	if p := j.Probability; p != nil {
		if *p == 0 {
			return fmt.Errorf("fault %s", probabilityError(0))
		}
		out.Probability = *p
	}
	*f = out
	return nil
}

// fieldNames is what checkFieldNames found in a fault's JSON form: the
// first name in another case than the form spells it ("Status",
// "dribble.Duration") with the form's spelling, and the first field named
// twice in one object ("dribble.chunks"), each a quoted path; "" for none.
type fieldNames struct{ given, want, repeated string }

// checkFieldNames reads the names of data, a fault's JSON form, in one
// walk. encoding/json matches names ignoring case, so {"Status":500}
// would be read as status, and it keeps the last of a field given twice
// without a word ({"status":503,"status":200}): the form's names are
// exact, as the documentation and the listings spell them, and given once.
// A text that is no JSON is left to the decoder, which says what is wrong
// with it.
func checkFieldNames(data []byte) fieldNames {
	dec := json.NewDecoder(bytes.NewReader(data))
	var found fieldNames
	// walk reads one value, of Go type t (nil: no fault field, whose names
	// are not compared with the form's), and reports false when the walk
	// is over: a name in another case found, the text ended or no JSON.
	var walk func(t reflect.Type, path string) bool
	walk = func(t reflect.Type, path string) bool {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				name, _ := k.(string)
				full := joinPath(path, name)
				if seen[name] && found.repeated == "" {
					found.repeated = strconv.Quote(full)
				}
				seen[name] = true
				var ft reflect.Type
				if t != nil && t.Kind() == reflect.Struct {
					exact, folded := jsonField(t, name)
					if exact == nil && folded != "" {
						found.given, found.want = strconv.Quote(full), strconv.Quote(joinPath(path, folded))
						return false
					}
					if exact != nil {
						ft = exact.Type
					}
				}
				if !walk(ft, full) {
					return false
				}
			}
			if _, err := dec.Token(); err != nil { // '}'
				return false
			}
		case json.Delim('['):
			for dec.More() {
				if !walk(nil, path) {
					return false
				}
			}
			if _, err := dec.Token(); err != nil { // ']'
				return false
			}
		}
		return true
	}
	walk(reflect.TypeFor[faultJSON](), "")
	return found
}

// jsonField returns the field of struct type t that the JSON name names
// exactly, or else the name of the one it names in another case.
func jsonField(t reflect.Type, name string) (*reflect.StructField, string) {
	folded := ""
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		if tag == name {
			return &f, ""
		}
		if strings.EqualFold(tag, name) {
			folded = tag
		}
	}
	return nil, folded
}

// joinPath is the dotted path of a member name of the object at path.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// faultJSONError words an error of decoding the JSON form in its own
// terms: the field as the JSON form names it and the value it wants, not
// the Go types it is read into.
func faultJSONError(err error, data []byte) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Errorf("fault: want a JSON object such as {\"operation\":\"ReturnProvinces\",\"delay\":\"400ms\"}, not %s", aJSON(te.Value))
		}
		wants := faultFieldWants(te.Type)
		if wants == wantsString && !durationFields[te.Field] {
			wants = "a string"
		}
		if n, ok := strings.CutPrefix(te.Value, "number "); ok && outOfRange(n, te.Type) {
			return fmt.Errorf("fault %s: %s is out of range, want %s", te.Field, n, wants)
		}
		return fmt.Errorf("fault %s: want %s, not %s", te.Field, wants, aJSON(te.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil {
			if n, err := strconv.Unquote(name); err == nil && top[n] == nil {
				return fmt.Errorf("fault: unknown field %s in soapFault (code, text), dribble (chunks, duration), reset (afterBytes) "+
					"or delayDistribution (type, median, sigma, lower, upper)", name)
			}
		}
		return fmt.Errorf("fault: unknown field %s (want operation, binding, delay, jitter, delayDistribution, status, soapFault, drop, "+
			"malformed, dribble, reset, garbage, probability, seed, skip, times or id)", name)
	}
	return fmt.Errorf("fault: %w", err)
}

// outOfRange reports whether n, a JSON number that did not decode into
// a field of type t, is of t's kind but too large: an integer for an
// integer field, a finite-looking number for a float field.
func outOfRange(n string, t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return !strings.ContainsAny(n, ".eE")
	case reflect.Float64:
		return true
	}
	return false
}

// wantsString is what a text field of the JSON form takes, most of
// which are durations.
const wantsString = "a string (durations are Go text such as \"400ms\")"

// durationFields are the members of the JSON form that hold a duration,
// as a type error names them; the other text fields (operation, binding,
// soapFault.text, ...) are not said to want one.
var durationFields = map[string]bool{"delay": true, "jitter": true, "delayDistribution.median": true,
	"delayDistribution.lower": true, "delayDistribution.upper": true, "dribble.duration": true}

// faultFieldWants is what a field of Go type t takes, as the JSON form
// writes it.
func faultFieldWants(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return wantsString
	case reflect.Int, reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct:
		return "an object"
	}
	return "another value"
}

// aJSON names a JSON value's type with its article ("a number").
func aJSON(value string) string {
	switch {
	case value == "array" || value == "object":
		return "an " + value
	case strings.HasPrefix(value, "number"):
		return "a number"
	case value == "bool":
		return "true or false"
	}
	return "a " + value
}

func parseFaultDuration(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil && durationSyntax.MatchString(s) { // a duration, but too long for one
		return 0, fmt.Errorf("fault %s %q: out of range (Go durations go up to %s, about 292 years)", field, s, time.Duration(math.MaxInt64))
	}
	if err != nil {
		return 0, fmt.Errorf("fault %s %q: want a Go duration such as \"400ms\"", field, s)
	}
	return d, nil
}

// durationSyntax is the syntax of a Go duration (time.ParseDuration's),
// whatever its size.
var durationSyntax = regexp.MustCompile(`^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`)
