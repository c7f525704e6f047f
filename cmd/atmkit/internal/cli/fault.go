package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/mockserver"
)

// Faults is the repeatable --fault flag: each value is a fault in the text
// form parseFault reads, or its JSON form. Several faults in one value (as
// ATMKIT_FAULT holds them) are separated by ";" (see parseFaults; quoted
// values may hold ";" and ",").
type Faults []mockserver.Fault

// String returns the faults as given (flag.Value).
func (l *Faults) String() string {
	if l == nil {
		return ""
	}
	parts := make([]string, len(*l))
	for i, f := range *l {
		b, _ := json.Marshal(f) // a Fault always marshals
		parts[i] = string(b)
	}
	return strings.Join(parts, ";")
}

// Set adds the faults in v; a value with none (empty, or only
// semicolons) is refused: --fault "$UNSET" would otherwise serve no fault
// without a word.
func (l *Faults) Set(v string) error {
	faults, err := parseFaults(v)
	if err != nil {
		return err
	}
	if len(faults) == 0 {
		return errors.New("no fault given; want one such as op=ReturnProvinces,delay=300ms or its JSON form")
	}
	for i, f := range faults {
		if f.ID == "" {
			continue
		}
		taken := slices.ContainsFunc(*l, func(g mockserver.Fault) bool { return g.ID == f.ID }) ||
			slices.ContainsFunc(faults[:i], func(g mockserver.Fault) bool { return g.ID == f.ID })
		if taken {
			return fmt.Errorf("fault id %q given twice: give each fault its own, or none (the mock gives f1, f2, …)", f.ID)
		}
	}
	*l = append(*l, faults...)
	return nil
}

// valueKind is the JSON type a value of the text form is written as.
type valueKind int

const (
	textValue   valueKind = iota // a JSON string
	intValue                     // a JSON number, read as an integer
	numberValue                  // a JSON number, read as a finite float
	flagValue                    // a JSON boolean; the name alone means true
	objectValue                  // a JSON object, empty unless dotted names fill it; the name alone
)

// faultField is one name of the text form: the member of mockserver.Fault's
// JSON form it sets, as a dotted path through nested objects
// ("soapFault.code"), the kind of its value, and what the value is, for
// the refusal of an empty one ("delay=": "a duration such as 300ms");
// empty when "" is a value (text="": the default text).
type faultField struct {
	path string
	kind valueKind
	want string
}

// What the fields' values are, for the refusal of an empty one.
const (
	wantDuration  = "a duration such as 300ms"
	wantOperation = "an operation such as ReturnProvinces (or WSDL), or leave %s out and every operation is faulted"
	wantCount     = "a count such as 2"
)

// faultFields maps the names of the text form, in lower case, to the JSON
// form's members. A field the JSON form gains is one line here.
var faultFields = map[string]faultField{
	"op":                       {"operation", textValue, wantOperation},
	"operation":                {"operation", textValue, wantOperation},
	"binding":                  {"binding", textValue, "soap11, soap12, get, post or json, or leave %s out and every binding is faulted"},
	"delay":                    {"delay", textValue, wantDuration},
	"jitter":                   {"jitter", textValue, wantDuration},
	"delaydistribution.type":   {"delayDistribution.type", textValue, "lognormal or uniform"},
	"delaydistribution.median": {"delayDistribution.median", textValue, wantDuration},
	"delaydistribution.sigma":  {"delayDistribution.sigma", numberValue, "a number such as 0.5"},
	"delaydistribution.lower":  {"delayDistribution.lower", textValue, wantDuration},
	"delaydistribution.upper":  {"delayDistribution.upper", textValue, wantDuration},
	"status":                   {"status", intValue, "an HTTP status such as 503"},
	"times":                    {"times", intValue, "a count such as 1, or leave %s out and the fault never runs out"},
	"code":                     {"soapFault.code", textValue, `Client or Server ("" is Server)`},
	"text":                     {"soapFault.text", textValue, `the fault's text ("" is the default text)`},
	"soapfault.code":           {"soapFault.code", textValue, `Client or Server ("" is Server)`},
	"soapfault.text":           {"soapFault.text", textValue, `the fault's text ("" is the default text)`},
	"drop":                     {"drop", flagValue, ""},
	"malformed":                {"malformed", flagValue, ""},
	"dribble.chunks":           {"dribble.chunks", intValue, wantCount},
	"dribble.duration":         {"dribble.duration", textValue, wantDuration},
	"reset":                    {"reset", objectValue, ""},
	"reset.afterbytes":         {"reset.afterBytes", intValue, "a byte count such as 100 (reset alone cuts at once)"},
	"garbage":                  {"garbage", flagValue, ""},
	"probability":              {"probability", numberValue, "a number from 0 to 1 such as 0.3"},
	"seed":                     {"seed", intValue, "an integer such as 42"},
	"skip":                     {"skip", intValue, wantCount},
	"id":                       {"id", textValue, "1 to 64 ASCII letters, digits, '.', '_' or '-', or leave %s out and the mock gives one (f1, f2, …)"},
}

// emptyValue is the refusal of field's value written empty as given
// (name=, or name="" where "" is no value in the JSON form either): an
// unset variable ($ID) would otherwise be taken as the field left out
// (id=), or refused as a fault that does nothing (delay=).
func emptyValue(field faultField, given, name string) error {
	want := field.want
	if strings.Contains(want, "%s") {
		want = fmt.Sprintf(want, name)
	} else {
		want += ", or leave " + name + " out"
	}
	return fmt.Errorf("%s has no value: want %s", given, want)
}

// faultFieldNames lists the text form's names for the unknown-field error.
const faultFieldNames = "op, binding, delay, jitter, delayDistribution.type, .median, .sigma, .lower, .upper, status, code, text, " +
	"drop, malformed, dribble.chunks, .duration, reset, reset.afterBytes, garbage, probability, seed, skip, times or id"

// parseFault reads a fault from the command line's text form,
// comma-separated name=value pairs:
//
//	op=ReturnProvinces,binding=soap12,delay=300ms
//	operation=ReturnInstitutions,status=503,times=1
//	code=Client,text=Bad request
//	code=Client,text="Bad request, try again"
//	drop   (or drop=true)   malformed   jitter=100ms   garbage
//	op=ReturnProvinces,status=503,probability=0.3,seed=42
//	delayDistribution.type=lognormal,delayDistribution.median=80ms,delayDistribution.sigma=0.5
//	dribble.chunks=5,dribble.duration=1s   reset.afterBytes=100   reset
//	op=WSDL,status=503,skip=2,times=1
//
// code and text make a SOAP fault; names are matched ignoring case, and a
// dotted name sets a member of a nested object (reset alone is
// reset.afterBytes=0); numbers are spelled as JSON spells them (times=5,
// not +5 or 05: see jsonNumberValue). A value holding a comma or a semicolon
// is written in double quotes; inside them a backslash takes the next
// character as it is (\" for a quote, \\ for a backslash). A spec starting
// with "{" is read as the JSON form instead.
//
// The text form is a notation for the JSON form: the pairs become a JSON
// object (a dotted name, a nested one), which mockserver.Fault reads and
// checks as the admin API and the config file's faults are read. The fault
// is returned as a server stores it (mockserver.Fault.Check).
func parseFault(spec string) (mockserver.Fault, error) {
	spec = strings.TrimSpace(spec)
	var f mockserver.Fault
	if strings.HasPrefix(spec, "{") {
		if err := json.Unmarshal([]byte(spec), &f); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return mockserver.Fault{}, fmt.Errorf("not JSON (%v); want a JSON object such as "+
					`{"operation":"ReturnProvinces","delay":"400ms"}, or name=value pairs such as op=ReturnProvinces,delay=400ms`, err)
			}
			return mockserver.Fault{}, err
		}
		return f.Check()
	}
	obj, err := faultObject(spec)
	if err != nil {
		return mockserver.Fault{}, err
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return mockserver.Fault{}, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return mockserver.Fault{}, err
	}
	if f, err = f.Check(); err != nil {
		return mockserver.Fault{}, err
	}
	return f, nil
}

// faultObject turns the name=value pairs of spec into the JSON form's object.
func faultObject(spec string) (map[string]any, error) {
	parts, err := splitQuoted(spec, ',')
	if err != nil {
		return nil, err
	}
	obj := map[string]any{}
	given := map[string]string{} // the name each field was set by
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		typed, text, hasValue := strings.Cut(part, "=")
		typed, text = strings.TrimSpace(typed), strings.TrimSpace(text)
		name := strings.ToLower(typed)
		field, ok := faultFields[name]
		if !ok {
			return nil, fmt.Errorf("unknown field %q (want %s)", name, faultFieldNames)
		}
		if hasValue && field.kind != flagValue && field.kind != objectValue &&
			(text == "" || text == `""` && !strings.HasPrefix(field.path, "soapFault.")) {
			return nil, emptyValue(field, typed+"="+text, typed)
		}
		// op=A,op=B (or code= and soapFault.code=) would keep the last
		// without a word.
		if first, twice := given[field.path]; twice {
			if first == name {
				return nil, fmt.Errorf("%s given twice; give each field once", name)
			}
			return nil, fmt.Errorf("%s and %s given both; they set the same field (%s)", first, name, field.path)
		}
		given[field.path] = name
		if text, err = unquote(text); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var v any = text
		switch field.kind {
		case intValue, numberValue:
			if v, err = jsonNumberValue(field, text); err != nil {
				return nil, err
			}
		case objectValue:
			if hasValue {
				return nil, fmt.Errorf("%s takes no value (set its fields: %s.<field>=...)", name, name)
			}
			if _, ok := obj[field.path].(map[string]any); !ok {
				obj[field.path] = map[string]any{}
			}
			continue
		case flagValue:
			v = true
			if hasValue {
				// As JSON writes them: strconv's 1, t and TRUE are no
				// value the admin API or a config file's mapping takes.
				switch text {
				case "true", "false":
					v = text == "true"
				default:
					err = fmt.Errorf("%q is not true or false, as JSON writes them, which the admin API takes", text)
				}
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		setPath(obj, field.path, v)
	}
	return obj, nil
}

// jsonNumberValue is the value of a number field of the text form, text
// read as the JSON form reads its numbers: spelled as JSON writes them
// (the rule of every place a fault is given: the admin API, the config
// file, the admin page), and then decoded by the JSON form itself, which
// refuses an integer field's 1e3 or 1.5 and a number out of range in its
// own words. strconv would read +5, 017 and 0x10 as 5, 17 and 16, where
// {"times":+5} is no JSON.
func jsonNumberValue(field faultField, text string) (json.Number, error) {
	switch {
	case jsonNumber.MatchString(text):
		return json.Number(text), nil
	case field.kind == intValue:
		return "", fmt.Errorf("%s: %s is not an integer as JSON writes one, which the admin API refuses; want plain decimal digits, with a minus at most",
			field.path, quoteValue(text))
	}
	return "", fmt.Errorf("%s: %s is not a number as JSON writes one, which the admin API refuses; "+
		"want decimal digits with a minus, a fraction and an exponent at most, such as 0.25", field.path, quoteValue(text))
}

// setPath sets the member at a dotted path of obj to v, making the objects
// on the way.
func setPath(obj map[string]any, path string, v any) {
	for {
		name, rest, nested := strings.Cut(path, ".")
		if !nested {
			obj[name] = v
			return
		}
		inner, ok := obj[name].(map[string]any)
		if !ok {
			inner = map[string]any{}
			obj[name] = inner
		}
		obj, path = inner, rest
	}
}

// parseFaults reads faults separated by semicolons (as ATMKIT_FAULT holds
// them), each in parseFault's text or JSON form. A semicolon inside double
// quotes (a quoted value, a JSON string) does not separate.
func parseFaults(specs string) ([]mockserver.Fault, error) {
	parts, err := splitQuoted(specs, ';')
	if err != nil {
		return nil, fmt.Errorf("faults %q: %w", specs, err)
	}
	var out []mockserver.Fault
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			continue
		}
		f, err := parseFault(p)
		if err != nil && len(parts) > 1 { // say which of them
			return nil, fmt.Errorf("fault %q: %w", strings.TrimSpace(p), err)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// splitQuoted splits s at every sep outside double quotes; inside them a
// backslash escapes the next character. The parts keep their quotes.
func splitQuoted(s string, sep byte) ([]string, error) {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++ // the escaped character, whatever it is
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	if quoted {
		return nil, errors.New("a double quote is not closed")
	}
	return append(parts, s[start:]), nil
}

// unquote returns a value in double quotes without them, its escapes
// resolved; other values are returned as they are.
func unquote(v string) (string, error) {
	if !strings.HasPrefix(v, `"`) {
		if strings.Contains(v, `"`) {
			return "", fmt.Errorf("value %s: quote the whole value (\"...\")", v)
		}
		return v, nil
	}
	var sb strings.Builder
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\' && i+1 < len(v):
			i++
			sb.WriteByte(v[i])
		case c == '"':
			if i != len(v)-1 {
				return "", fmt.Errorf("value %s: text after the closing quote", v)
			}
			return sb.String(), nil
		default:
			sb.WriteByte(c)
		}
	}
	return "", fmt.Errorf("value %s: no closing quote", v)
}
