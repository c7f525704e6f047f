package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
)

// The texts a SOAP fault given none gets: Server's, and the other codes'.
const (
	serverFaultText = "Server was unable to process request. ---> Injected fault."
	clientFaultText = "Injected fault."
)

func TestParseFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec string
		want mockserver.Fault
	}{
		{"op=ReturnProvinces,binding=soap12,delay=300ms",
			mockserver.Fault{Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12, Delay: 300 * time.Millisecond}},
		{"operation=returninstitutions, status=503, times=2",
			mockserver.Fault{Operation: asmx.OpReturnInstitutions, Status: 503, Times: 2}},
		{"code=client,text=Bad things", mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Client", Text: "Bad things"}}},
		{"code=soap:Receiver", mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: serverFaultText}}},
		{"text=Boom,status=502", mockserver.Fault{Status: 502, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "Boom"}}},
		{"drop,binding=JSON", mockserver.Fault{Drop: true, Binding: asmx.JSON}},
		{"malformed=true,jitter=1s", mockserver.Fault{Malformed: true, Jitter: time.Second}},
		{`{"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`,
			mockserver.Fault{Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12, Delay: 400 * time.Millisecond}},
		{`{"operation":"ReturnInstitutions","status":503}`, mockserver.Fault{Operation: asmx.OpReturnInstitutions, Status: 503}},
		{`{"soapFault":{"code":"Sender","text":"no"},"times":1}`, mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Client", Text: "no"}, Times: 1}},
		{`code=Client,text="Bad request, try again"`, mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Client", Text: "Bad request, try again"}}},
		{`text = "a; b, c" , status=503`, mockserver.Fault{Status: 503, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "a; b, c"}}},
		{`text="say \"no\", then \\ go"`, mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: `say "no", then \ go`}}},
		{`text="",code=Client`, mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Client", Text: clientFaultText}}},
		{`op="ReturnProvinces",delay="1s"`, mockserver.Fault{Operation: asmx.OpReturnProvinces, Delay: time.Second}},
		{`text=C:\path,code=Client`, mockserver.Fault{SOAPFault: &mockserver.SOAPFault{Code: "Client", Text: `C:\path`}}},
		{"op=ReturnProvinces,status=503,probability=0.3,seed=42",
			mockserver.Fault{Operation: asmx.OpReturnProvinces, Status: 503, Probability: 0.3, Seed: 42}},
		{"status=503,skip=2,times=1,seed=-9", mockserver.Fault{Status: 503, Skip: 2, Times: 1, Seed: -9}},
		{"delayDistribution.type=lognormal,delayDistribution.median=80ms,delayDistribution.sigma=0.5",
			mockserver.Fault{DelayDistribution: &mockserver.DelayDistribution{Type: "lognormal", Median: 80 * time.Millisecond, Sigma: 0.5}}},
		{"DELAYDISTRIBUTION.TYPE=Uniform,delaydistribution.lower=50ms,delayDistribution.upper=150ms,delay=1s",
			mockserver.Fault{Delay: time.Second, DelayDistribution: &mockserver.DelayDistribution{Type: "uniform", Lower: 50 * time.Millisecond, Upper: 150 * time.Millisecond}}},
		{"dribble.chunks=5,dribble.duration=1s", mockserver.Fault{Dribble: &mockserver.Dribble{Chunks: 5, Duration: time.Second}}},
		{"dribble.chunks=2,dribble.duration=1s,status=503", mockserver.Fault{Status: 503, Dribble: &mockserver.Dribble{Chunks: 2, Duration: time.Second}}},
		{"reset.afterBytes=0", mockserver.Fault{Reset: &mockserver.Reset{}}},
		{"reset", mockserver.Fault{Reset: &mockserver.Reset{}}},
		{"reset.afterBytes=100,reset", mockserver.Fault{Reset: &mockserver.Reset{AfterBytes: 100}}},
		{"garbage,probability=1", mockserver.Fault{Garbage: true, Probability: 1}},
		{"op=wsdl,status=503", mockserver.Fault{Operation: "WSDL", Status: 503}},
		{`{"operation":"WSDL","reset":{"afterBytes":7},"probability":0.5,"seed":3}`,
			mockserver.Fault{Operation: "WSDL", Reset: &mockserver.Reset{AfterBytes: 7}, Probability: 0.5, Seed: 3}},
	}
	for _, tt := range tests {
		got, err := parseFault(tt.spec)
		if err != nil {
			t.Errorf("parseFault(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseFault(%q): got %+v, want %+v", tt.spec, got, tt.want)
		}
	}
}

func TestParseFaultErrors(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{
		"",
		"op=ReturnProvinces",
		"op=NoSuchOp,delay=1s",
		"binding=soap13,delay=1s",
		"delay=fast",
		"delay=-1s",
		"status=abc",
		"status=99",
		"status=600",
		"times=-1,status=500",
		"drop,status=500",
		"drop,code=Server",
		"malformed,status=500",
		"code=Nope",
		"colour=red,delay=1s",
		"drop=maybe",
		`{"operation":"ReturnProvinces","delay":400}`,
		`{"opration":"ReturnProvinces","delay":"1s"}`,
		`{"delay":"1s"`,
		`text="unclosed, code=Client`,
		`text="a"b,code=Client`,
		`text=a"b",code=Client`,
		`text="ends with escape\",code=Client`,
		"probability=half,status=500",
		"probability=NaN,status=500",
		"delayDistribution.sigma=inf,delayDistribution.type=lognormal",
		"reset=true",
		"dribble=5",
		"seed=1.5,status=500",
		"dribble.chunk=5",
	} {
		if f, err := parseFault(spec); err == nil {
			t.Errorf("parseFault(%q): got %+v, want an error", spec, f)
		}
	}
}

// TestParseFaultJSONErrors: a --fault value in the JSON form that is not
// JSON says so, and what the flag takes; a field of the wrong type is named
// as the JSON form names it.
func TestParseFaultJSONErrors(t *testing.T) {
	t.Parallel()
	for spec, want := range map[string]string{
		`{bad`:           `not JSON (invalid character 'b' looking for beginning of object key string); want a JSON object such as {"operation":"ReturnProvinces","delay":"400ms"}, or name=value pairs such as op=ReturnProvinces,delay=400ms`,
		`{"delay":"1s"`:  "not JSON (unexpected end of JSON input); want a JSON object",
		`{"delay":400}`:  `fault delay: want a string (durations are Go text such as "400ms"), not a number`,
		`{"op":"x"}`:     `fault: unknown field "op" (want operation, binding,`,
		`{"times":"2"}`:  "fault times: want an integer, not a string",
		`{"reset":true}`: "fault reset: want an object, not true or false",
		// Given twice, the last would win without a word.
		`{"status":503,"status":200}`:                              `fault: field "status" given twice`,
		"op=ReturnProvinces,op=ReturnInstitutions,delay=1s":        "op given twice",
		"op=ReturnProvinces,operation=ReturnInstitutions,delay=1s": "op and operation given both; they set the same field (operation)",
		"code=Client,soapFault.code=Server":                        "code and soapfault.code given both",
		"status=503,times=1,times=2":                               "times given twice",
	} {
		_, err := parseFault(spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseFault(%s): got %v, want %q", spec, err, want)
		}
	}
}

func TestParseFaults(t *testing.T) {
	t.Parallel()
	got, err := parseFaults(`op=ReturnProvinces,text="a; b";{"operation":"ReturnInstitutions","soapFault":{"text":"c; d"}}; ;drop`)
	if err != nil {
		t.Fatal(err)
	}
	want := []mockserver.Fault{
		{Operation: asmx.OpReturnProvinces, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "a; b"}},
		{Operation: asmx.OpReturnInstitutions, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "c; d"}},
		{Drop: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, err := parseFaults(`text="open;drop`); err == nil {
		t.Error(`parseFaults with an unclosed quote: got nil, want an error`)
	}
}

// TestFaultIDs: --fault takes a fault's id (id=slow, or the JSON form's
// "id"), which the mock keeps; an id given twice, in one value or two,
// or one no URL path carries as it is, is refused naming it. The JSON
// form's id was dropped without a word.
func TestFaultIDs(t *testing.T) {
	t.Parallel()
	var l Faults
	if err := l.Set(`id=slow,delay=1s;{"id":"down","status":503}`); err != nil {
		t.Fatal(err)
	}
	if len(l) != 2 || l[0].ID != "slow" || l[1].ID != "down" {
		t.Errorf("got %+v, want the ids slow and down", l)
	}
	for _, v := range []string{"id=slow,drop", "id=x,drop;id=x,garbage", `{"id":"a/b","drop":true}`, "id=✓,drop"} {
		before := len(l)
		if err := l.Set(v); err == nil || !strings.Contains(err.Error(), "fault id") {
			t.Errorf("Set(%q): got error %v, want one naming the fault id", v, err)
		}
		if len(l) != before {
			t.Errorf("Set(%q) refused added faults: %d, want %d", v, len(l), before)
		}
	}
}

// FuzzParseFault reads fault specs in the text and JSON forms, alone and
// several separated by semicolons. Whatever the input, it must not panic,
// and a fault it reads must come back the same from its JSON form.
func FuzzParseFault(f *testing.F) {
	for _, s := range []string{
		"op=ReturnProvinces,binding=soap12,delay=300ms",
		"operation=ReturnInstitutions,status=503,times=1",
		`code=Client,text="Bad request, try again"`,
		`text="say \"no\"; then \\ go",status=502`,
		"drop",
		"malformed=true,jitter=1s",
		`{"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`,
		`op=ReturnProvinces,status=503;{"soapFault":{"code":"Sender","text":"a; b"}}`,
		"op=ReturnProvinces,status=503,probability=0.3,seed=42,skip=1",
		"delayDistribution.type=lognormal,delayDistribution.median=80ms,delayDistribution.sigma=0.5",
		"delayDistribution.type=uniform,delayDistribution.lower=50ms,delayDistribution.upper=150ms",
		"dribble.chunks=5,dribble.duration=1s,malformed",
		"reset.afterBytes=10",
		"op=WSDL,garbage",
		`{"delayDistribution":{"type":"uniform","upper":"1s"},"dribble":{"chunks":2,"duration":"0s"},"probability":0.5}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		_, _ = parseFaults(spec)
		got, err := parseFault(spec)
		if err != nil || !utf8.ValidString(spec) { // JSON writes invalid UTF-8 as U+FFFD
			return
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("marshal %+v: %v", got, err)
		}
		back, err := parseFault(string(b))
		if err != nil {
			t.Fatalf("parseFault(%q) read %+v, whose JSON %s does not parse: %v", spec, got, b, err)
		}
		if !reflect.DeepEqual(back, got) {
			t.Fatalf("parseFault(%q): got %+v, and %+v from its JSON %s", spec, got, back, b)
		}
	})
}

// TestParseFaultNumberSpellings: the text form's numbers are spelled as
// the JSON form's, the one rule of every place a fault is given (the
// admin API, the config file, the admin page): an integer field refuses
// +5, 017, 0x10, 1_000, 0b101, 0o17 and -0x2, which strconv read as 5,
// 17, 16, ... where the admin API refuses {"times":+5} and the config
// file times: +5; a number field refuses .5, +0.5, 5., 00.5 and 0x1p-1.
// The refusal names the field and the spelling. A JSON number that is no
// integer gets the JSON form's words, as {"times":1e3} does.
func TestParseFaultNumberSpellings(t *testing.T) {
	t.Parallel()
	ints := []struct{ name, spec string }{ // %s where the value goes
		{"status", "status=%s"},
		{"times", "status=503,times=%s"},
		{"seed", "status=503,seed=%s"},
		{"skip", "status=503,skip=%s"},
		{"dribble.chunks", "dribble.chunks=%s,dribble.duration=1s"},
		{"reset.afterBytes", "reset.afterBytes=%s"},
	}
	for _, f := range ints {
		// An empty value has a refusal of its own: TestParseFaultEmptyValues.
		for _, sp := range []string{"+5", "017", "0x10", "1_000", "0b101", "0o17", "-0x2", "00", "-05"} {
			spec := fmt.Sprintf(f.spec, sp)
			want := fmt.Sprintf("%s: %s is not an integer as JSON writes one, which the admin API refuses; want plain decimal digits, with a minus at most", f.name, quoteValue(sp))
			if _, err := parseFault(spec); err == nil || err.Error() != want {
				t.Errorf("parseFault(%q): got %v, want %q", spec, err, want)
			}
		}
		for sp, want := range map[string]string{"1e3": "want an integer, not a number", "1.0": "want an integer, not a number",
			"99999999999999999999": "out of range, want an integer"} {
			spec := fmt.Sprintf(f.spec, sp)
			if _, err := parseFault(spec); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("parseFault(%q): got %v, want %q", spec, err, want)
			}
		}
	}
	nums := []struct{ name, spec string }{
		{"probability", "status=503,probability=%s"},
		{"delayDistribution.sigma", "delayDistribution.type=lognormal,delayDistribution.median=1ms,delayDistribution.sigma=%s"},
	}
	for _, f := range nums {
		for _, sp := range []string{".5", "+0.5", "5.", "00.5", "0x1p-1", "0.5e", "Inf", "NaN", "1_0.0"} {
			spec := fmt.Sprintf(f.spec, sp)
			want := fmt.Sprintf("%s: %s is not a number as JSON writes one, which the admin API refuses; want decimal digits with a minus, a fraction and an exponent at most, such as 0.25", f.name, quoteValue(sp))
			if _, err := parseFault(spec); err == nil || err.Error() != want {
				t.Errorf("parseFault(%q): got %v, want %q", spec, err, want)
			}
		}
	}
	// Booleans too: strconv read 1, t and TRUE as true and 0 as false,
	// which the admin API, and a config file's mapping, refuse.
	for _, name := range []string{"drop", "malformed", "garbage"} {
		for _, sp := range []string{"1", "0", "t", "F", "TRUE", "True", "yes"} {
			spec := "delay=1ms," + name + "=" + sp
			want := fmt.Sprintf("%s: %q is not true or false", name, sp)
			if _, err := parseFault(spec); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("parseFault(%q): got %v, want %q", spec, err, want)
			}
		}
	}
	// JSON's spellings are read.
	for spec, want := range map[string]mockserver.Fault{
		"drop=false,malformed=false,garbage=false,status=503": {Status: 503},
		"drop=true": {Drop: true},
		"status=503,times=0,seed=-0,skip=10,probability=5e-1": {Status: 503, Skip: 10, Probability: 0.5},
		"status=503,seed=-12,probability=1E0":                 {Status: 503, Seed: -12, Probability: 1},
		"delayDistribution.type=lognormal,delayDistribution.median=1ms,delayDistribution.sigma=0.25": {
			DelayDistribution: &mockserver.DelayDistribution{Type: "lognormal", Median: time.Millisecond, Sigma: 0.25}},
	} {
		got, err := parseFault(spec)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseFault(%q): got %+v, %v, want %+v", spec, got, err, want)
		}
	}
}

// TestParseFaultEmptyValues: a field of the text form written with no
// value (id=, delay=, an unset variable's $X), or with "" where the JSON
// form's "" is no value, is refused naming the field, what it takes and
// that it may be left out. id= was taken as no id, and delay= read as no
// delay, refused as "a fault needs at least one of ..."; text="" and
// code="" still mean the default text and code.
func TestParseFaultEmptyValues(t *testing.T) {
	t.Parallel()
	for name, field := range faultFields {
		if field.kind == objectValue || field.kind == flagValue {
			continue // drop= is refused as "" is not true or false; reset= takes no value
		}
		for _, spec := range []string{name + "=", name + "= ", name + `=""`} {
			if field.path == "soapFault.text" || field.path == "soapFault.code" {
				if strings.HasSuffix(spec, `""`) {
					if _, err := parseFault(spec); err != nil {
						t.Errorf("parseFault(%s): %v, want the default %s", spec, err, field.path)
					}
					continue
				}
			}
			_, err := parseFault(spec)
			shown := strings.TrimSpace(spec)
			if err == nil || !strings.HasPrefix(err.Error(), shown+" has no value: want ") || !strings.Contains(err.Error(), "leave "+name+" out") {
				t.Errorf("parseFault(%s): got %v, want %q naming what it takes", spec, err, shown+" has no value: want ..., or leave "+name+" out")
			}
		}
	}
}
