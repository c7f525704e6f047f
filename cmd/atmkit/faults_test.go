package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// refusedSpecs are --fault values that cannot work, each with the one line
// that says why, naming the field.
var refusedSpecs = []struct{ spec, why string }{
	{"status=503,probability=0", "probability 0: want more than 0 and at most 1"},
	{"status=503,probability=1.5", "probability 1.5: want more than 0 and at most 1"},
	{"status=503,probability=-1", "probability -1: want more than 0 and at most 1"},
	{"delayDistribution.type=lognormal,delayDistribution.median=80ms,delayDistribution.sigma=0", "delayDistribution sigma 0: want a number more than 0"},
	{"delayDistribution.type=lognormal,delayDistribution.median=80ms", "delayDistribution sigma 0: want a number more than 0"},
	{"delayDistribution.type=uniform,delayDistribution.lower=2s,delayDistribution.upper=1s", "delayDistribution lower 2s is above upper 1s"},
	{"delayDistribution.type=gamma", `delayDistribution type "gamma": want lognormal or uniform`},
	{"dribble.chunks=0,dribble.duration=1s", "dribble chunks 0: want 1 or more"},
	{"dribble.duration=1s", "dribble chunks 0: want 1 or more"},
	{"dribble.chunks=2,dribble.duration=1m30s,delay=31s", "dribble duration 1m30s: with the delay (up to 31s) it exceeds the server's write timeout 2m0s"},
	{"reset.afterBytes=-1", "reset afterBytes -1 is negative"},
	{"garbage,status=503", "garbage cannot be combined with status"},
	{"garbage,code=Client", "garbage cannot be combined with soapFault"},
	{"garbage,drop", "garbage cannot be combined with drop"},
	{"garbage,malformed", "garbage cannot be combined with malformed"},
	{"garbage,dribble.chunks=2", "garbage cannot be combined with dribble"},
	{"reset,status=503", "reset cannot be combined with status"},
	{"reset,text=oops", "reset cannot be combined with soapFault"},
	{"reset,drop", "reset cannot be combined with drop"},
	{"reset,malformed", "reset cannot be combined with malformed"},
	{"reset,dribble.chunks=2", "reset cannot be combined with dribble"},
	{"garbage,reset.afterBytes=3", "garbage cannot be combined with reset"},
	{"drop,dribble.chunks=2", "dribble cannot be combined with drop"},
	{"op=WSDL,code=Client", "soapFault cannot be given with operation WSDL"},
	{"op=WSDL,binding=soap12,status=503", "binding cannot be given with operation WSDL"},
	{"skip=-2,status=503", "skip -2 is negative"},
	{"status=503,id=", "id= has no value: want 1 to 64 ASCII letters, digits, '.', '_' or '-', or leave id out and the mock gives one (f1, f2, …)"}, // id=$UNSET
	{"delay=", "delay= has no value: want a duration such as 300ms, or leave delay out"},
	{`op=ReturnProvinces,delay=""`, `delay="" has no value: want a duration such as 300ms, or leave delay out`},
	{"op=,status=503", "op= has no value: want an operation such as ReturnProvinces (or WSDL), or leave op out and every operation is faulted"},
	{"", "no fault given; want one such as op=ReturnProvinces,delay=300ms"}, // --fault "$UNSET"
	{" ; ", "no fault given"},
}

// TestServeFaultRefusals: atmkit serve refuses each fault that cannot work
// at start, with exit 2 and one line naming the field; so does a config
// file's fault. (The admin API's 400 says the same: mockserver's
// TestFaultRefusals.)
func TestServeFaultRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range refusedSpecs {
		code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--fault", tt.spec)
		wantUsageLine(t, fmt.Sprintf("--fault %q", tt.spec), code, stdout, stderr, tt.why)
	}
	cfg := writeConfig(t, "faults:\n  - {operation: ReturnProvinces, garbage: true, reset: {afterBytes: 1}}\n")
	code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", cfg)
	if want := "garbage cannot be combined with reset"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("config fault: got exit %d and %q, want exit %d and %q", code, stderr, exitUsage, want)
	}
}

// TestServeFaultIDHoldingAKey: a fault whose id holds one of --key's keys
// is a wrong setting, exit 2 naming where it came from (flag, variable,
// config file), and the key is in none of the refusal's forms; it was
// exit 1, "mock server fault: ...", as for a server that failed.
func TestServeFaultIDHoldingAKey(t *testing.T) {
	t.Parallel()
	const key = "Fault-Key-4711"
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"flags", []string{"--key", key, "--fault", "id=x" + key + ",status=500"}, nil, "atmkit serve: --fault "},
		{"variables", nil, map[string]string{"ATMKIT_KEY": key, "ATMKIT_FAULT": "id=" + key + ",status=503"}, "atmkit serve: ATMKIT_FAULT="},
		{"config file", []string{"--config", writeConfig(t, "keys: ["+key+"]\nfaults:\n  - {id: "+key+".1, status: 500}\n")}, nil, "faults in config file "},
	} {
		code, stdout, stderr := runAtmkit(tt.env, append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)...)
		wantUsageLine(t, tt.name, code, stdout, stderr, tt.want)
		if !strings.Contains(stderr, "fault id: it holds a service key") {
			t.Errorf("%s: got %q, want it to say the fault id holds a key", tt.name, stderr)
		}
		if strings.Contains(stdout+stderr, key) {
			t.Errorf("%s: the output holds the key: %s%s", tt.name, stdout, stderr)
		}
	}
}

// TestServeFaultRefusalHoldingAKey: a refused fault whose text holds one
// of the keys (or the admin token) is echoed in its refusal with the key
// masked, wherever the fault and the key came from: the refusal stopped
// the reading of the settings before the keys were taken to be masked (a
// --key after the --fault, ATMKIT_KEYS, a config file's keys, which come
// after its faults), and printed the fault, key and all.
func TestServeFaultRefusalHoldingAKey(t *testing.T) {
	t.Parallel()
	const key, token = "Fault-Key-4712", "Fault-Token-4713"
	spec := `text="the key ` + key + ` and the token ` + token + `",status=9999`
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"key before", []string{"--key", key, "--admin-token", token, "--fault", spec}, nil},
		{"key after", []string{"--fault", spec, "--key=" + key, "-admin-token", token}, nil},
		{"variables", nil, map[string]string{"ATMKIT_KEYS": "k1," + key, "ATMKIT_ADMIN_TOKEN": token, "ATMKIT_FAULT": spec}},
		{"flag, keys in variables", []string{"--fault", spec}, map[string]string{"ATMKIT_KEY": key, "ATMKIT_ADMIN_TOKEN": token}},
		{"config file", []string{"--config", writeConfig(t, "admin-token: "+token+"\nkeys: ["+key+"]\nfaults:\n  - '"+spec+"'\n")}, nil},
		{"config file, mapping", []string{"--config", writeConfig(t, "keys: ["+key+"]\nadmin_token: "+token+
			"\nfaults:\n  - {soapFault: {text: \"the key "+key+" and the token "+token+"\"}, status: 9999}\n")}, nil},
	} {
		code, stdout, stderr := runAtmkit(tt.env, append([]string{"serve", "--addr", "127.0.0.1:0"}, tt.args...)...)
		wantUsageLine(t, tt.name, code, stdout, stderr, "status 9999: want 200 to 599")
		if strings.Contains(stdout+stderr, key) || strings.Contains(stdout+stderr, token) {
			t.Errorf("%s: the output holds the key or the token: %s%s", tt.name, stdout, stderr)
		}
	}
}

// TestServeConfigFaultRefusalsInItsTerms: a config file's fault that YAML
// reads into what JSON cannot hold (a mapping with a key that is no
// string, a number that is not finite) is refused in the fault's terms,
// naming the field, never with encoding/json's words or Go's types.
func TestServeConfigFaultRefusalsInItsTerms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ yaml, why string }{
		{"faults:\n  - {status: 500, soapFault: {1: 2}}\n", `unknown field "1" in soapFault`},
		{"faults:\n  - {status: 500, 7: x}\n", `unknown field "7" (want operation,`},
		{"fault: {status: 500, 7: x}\n", `unknown field "7" (want operation,`},
		{"faults:\n  - {status: 500, probability: .nan}\n", "probability: .nan is not a number; want a finite number"},
		{"faults:\n  - {status: 500, dribble: {chunks: 2, duration: 1s}, probability: -.inf}\n", "probability: -.inf is not a number; want a finite number"},
		// A line left unfinished was skipped without a word: one fault
		// fewer than the file seems to set.
		{"faults:\n  - {operation: ReturnProvinces, status: 503}\n  -\n", "item 2 of the list is empty (--fault)"},
		{"keys:\n  -\n  - k1\n", "item 1 of the list is empty (--key)"},
		// An empty string is quoted in the fault quoted back, as YAML
		// writes it: times: (nothing) would be a null.
		{"faults:\n  - {status: 500, times: \"\"}\n", `"[{status: 500, times: \"\"}]": fault times: want an integer, not a string`},
	} {
		code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, tt.yaml))
		wantUsageLine(t, fmt.Sprintf("%q", tt.yaml), code, stdout, stderr, tt.why)
		for _, internal := range []string{"json:", "interface {}", "map[", "+Inf", "NaN"} {
			if strings.Contains(stderr, internal) {
				t.Errorf("%q: the refusal says %q: %s", tt.yaml, internal, stderr)
			}
		}
	}
}

// TestServeConfigFaultNumbersAsAdminJSON: a config file's fault reads its
// numbers as the admin API's JSON does: an integer field (times, seed,
// skip, status, dribble.chunks) written with an exponent or a fraction
// (times: 1e3, times: 1000.0) is refused with the admin API's words, as
// {"times":1e3} is; a number field (probability) takes either. YAML read
// 1e3 as 1000 and the file's fault was accepted where the admin API
// refused the same one. (YAML's other integer spellings, 0x10 and +5:
// TestServeConfigFaultIntegerSpellings.)
func TestServeConfigFaultNumbersAsAdminJSON(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, nil)
	for _, tt := range []struct {
		yaml, json string // the same fault
		why        string // the refusal of both; "" when both accept it
	}{
		{"{status: 503, times: 1e3}", `{"status":503,"times":1e3}`, "fault times: want an integer, not a number"},
		{"{status: 503, times: 1000.0}", `{"status":503,"times":1000.0}`, "fault times: want an integer, not a number"},
		{"{status: 503, times: 1.5}", `{"status":503,"times":1.5}`, "fault times: want an integer, not a number"},
		{"{status: 5.03e2}", `{"status":5.03e2}`, "fault status: want an integer, not a number"},
		{"{status: 503, seed: 1E2, probability: 0.5}", `{"status":503,"seed":1E2,"probability":0.5}`, "fault seed: want an integer, not a number"},
		{"{dribble: {chunks: 2e0, duration: 1s}}", `{"dribble":{"chunks":2e0,"duration":"1s"}}`, "fault dribble.chunks: want an integer, not a number"},
		{"{status: 503, times: 1000}", `{"status":503,"times":1000}`, ""},
		{"{status: 503, probability: 5e-1}", `{"status":503,"probability":5e-1}`, ""},
		{"{status: 503, probability: 1.0}", `{"status":503,"probability":1.0}`, ""},
	} {
		// A fault it takes, it serves until the second is up (exit 0); one
		// it refuses stops it at once.
		code, _, stderr := runAtmkitWithin(time.Second, nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, "faults:\n  - "+tt.yaml+"\n"))
		refused := code == exitUsage && strings.Contains(stderr, ": "+tt.why+" (--fault)") && strings.Count(stderr, "\n") == 1
		if tt.why == "" && code == exitUsage || tt.why != "" && !refused {
			t.Errorf("config file %s: got exit %d and %q, want %s", tt.yaml, code, stderr, cmp.Or(tt.why, "it served"))
		}
		resp, err := http.Post(base+"/__admin/faults", "application/json", strings.NewReader(tt.json))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if tt.why == "" && resp.StatusCode != http.StatusCreated || tt.why != "" && (resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), tt.why)) {
			t.Errorf("admin API %s: got %d %s, want %s", tt.json, resp.StatusCode, body, cmp.Or(tt.why, "201"))
		}
	}
}

// TestServeConfigFaultIntegerSpellings: a config file's fault refuses,
// in every integer field, the integers YAML reads but JSON does not
// (0x10, +5, 1_000, 0o17, 017, 0b101, -0x2), as the admin API refuses the
// same fault in JSON: exit 2, one line naming the file, the fault, the
// field and the spelling. YAML read them as 16, 5, 1000, 15 (017 too),
// 5 and -2, and the file's fault was accepted. A text-form fault in the
// same list keeps its own notation, and JSON's spelling is taken.
func TestServeConfigFaultIntegerSpellings(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, nil)
	fields := []struct{ field, yaml, json string }{ // each fault with %s where the field's value goes
		{"status", "{status: %s}", `{"status":%s}`},
		{"times", "{status: 503, times: %s}", `{"status":503,"times":%s}`},
		{"seed", "{status: 503, probability: 0.5, seed: %s}", `{"status":503,"probability":0.5,"seed":%s}`},
		{"skip", "{status: 503, skip: %s}", `{"status":503,"skip":%s}`},
		{"dribble.chunks", "{dribble: {chunks: %s, duration: 1s}}", `{"dribble":{"chunks":%s,"duration":"1s"}}`},
		{"reset.afterBytes", "{reset: {afterBytes: %s}}", `{"reset":{"afterBytes":%s}}`},
	}
	spellings := []struct {
		spelling string
		yamlRead int
	}{{"0x10", 16}, {"+5", 5}, {"1_000", 1000}, {"0o17", 15}, {"017", 15}, {"0b101", 5}, {"-0x2", -2}}
	for _, f := range fields {
		for _, sp := range spellings {
			cfg := writeConfig(t, "faults:\n  - op=ReturnProvinces,times=16\n  - "+fmt.Sprintf(f.yaml, sp.spelling)+"\n")
			code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", cfg)
			want := fmt.Sprintf("config file %s: faults: fault 2: %s: %s is not an integer as JSON writes one, which the admin API refuses (YAML reads it as %d); "+
				"want plain decimal digits, with a minus at most (--fault)", cfg, f.field, sp.spelling, sp.yamlRead)
			wantUsageLine(t, f.field+": "+sp.spelling, code, stdout, stderr, want)
			body := fmt.Sprintf(f.json, sp.spelling)
			resp, err := http.Post(base+"/__admin/faults", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("admin API %s: got %d, want 400", body, resp.StatusCode)
			}
		}
	}
	for _, tt := range []struct{ yaml, why string }{
		// One fault, not a list; an alias's and a merged mapping's values.
		{"fault: {status: 503, times: +5}\n", ": fault: times: +5 is not an integer as JSON writes one"},
		{"faults:\n  - {status: 503, times: &n 0x10}\n  - {status: 500, times: *n}\n", ": faults: fault 1: times: 0x10 is not"},
		{"faults:\n  - &base {status: 503, times: 1_000}\n  - {<<: *base, skip: 1}\n", ": faults: fault 1: times: 1_000 is not"},
		{"faults:\n  - {status: 503}\n  - {<<: {status: 0x1F4}, times: 2}\n", ": faults: fault 2: status: 0x1F4 is not"},
	} {
		code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, tt.yaml))
		wantUsageLine(t, fmt.Sprintf("%q", tt.yaml), code, stdout, stderr, tt.why)
	}
	// JSON's spellings, and a negative one, are read as they are (skip -2
	// refused by the fault's own check, as the admin API refuses it).
	for _, tt := range []struct{ yaml, why string }{
		{"faults:\n  - {status: 503, times: 16, seed: 0, probability: 1}\n", ""},
		{"faults:\n  - {status: 503, skip: -2}\n", "skip -2 is negative"},
	} {
		code, _, stderr := runAtmkitWithin(time.Second, nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, tt.yaml))
		if tt.why == "" && code == exitUsage || tt.why != "" && (code != exitUsage || !strings.Contains(stderr, tt.why)) {
			t.Errorf("%q: got exit %d and %q, want %s", tt.yaml, code, stderr, cmp.Or(tt.why, "it served"))
		}
	}
	// A text field written as a YAML number in a spelling JSON has not is
	// no misspelt number: it wants a string, as the admin API does (id: 017
	// was told to write plain decimal digits, and id: 17 then that it
	// wants a string).
	for _, tt := range []struct{ yaml, why string }{
		{"faults:\n  - {id: 017, status: 503}\n", "fault id: want a string, not a number"},
		{"faults:\n  - {status: 503, soapFault: {code: Client, text: 0x1F}}\n", "fault soapFault.text: want a string, not a number"},
		{"faults:\n  - {operation: +5, status: 503}\n", "fault operation: want a string, not a number"},
	} {
		code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, tt.yaml))
		wantUsageLine(t, fmt.Sprintf("%q", tt.yaml), code, stdout, stderr, tt.why)
		if strings.Contains(stderr, "decimal digits") {
			t.Errorf("%q: the refusal asks for digits: %q", tt.yaml, stderr)
		}
	}
}

// TestServeFaultNumberSpellingsEverywhere: one rule for a fault's numbers
// wherever it is given: spelled as JSON writes them. The text form on the
// command line, in ATMKIT_FAULT and in a config file's list read +5 and
// 017 as 5 and 17 (strconv's integers) and served the fault, and a config
// mapping's probability took YAML's .5 and +0.5, where the admin API
// refuses {"times":+5} and {"probability":.5}. Each is now exit 2 with one
// line naming the field and the spelling.
func TestServeFaultNumberSpellingsEverywhere(t *testing.T) {
	t.Parallel()
	const timesWhy = "times: 017 is not an integer as JSON writes one"
	code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--fault", "status=503,times=017")
	wantUsageLine(t, "--fault times=017", code, stdout, stderr, timesWhy)
	code, stdout, stderr = runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--fault", "status=503,times=+5")
	wantUsageLine(t, "--fault times=+5", code, stdout, stderr, "times: +5 is not an integer as JSON writes one")
	code, stdout, stderr = runAtmkit(map[string]string{"ATMKIT_FAULT": "status=503,times=017"}, "serve", "--addr", "127.0.0.1:0")
	wantUsageLine(t, "ATMKIT_FAULT times=017", code, stdout, stderr, timesWhy)
	code, stdout, stderr = runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, "faults:\n  - status=503,times=017\n"))
	wantUsageLine(t, "config text form times=017", code, stdout, stderr, timesWhy)
	code, stdout, stderr = runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--fault", "status=503,probability=.5")
	wantUsageLine(t, "--fault probability=.5", code, stdout, stderr, "probability: .5 is not a number as JSON writes one")
	for _, sp := range []struct{ spelling, read string }{{".5", "0.5"}, {"+0.5", "0.5"}, {"5.", "5"}} {
		cfg := writeConfig(t, "faults:\n  - {status: 503}\n  - {status: 503, probability: "+sp.spelling+"}\n")
		code, stdout, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", cfg)
		want := fmt.Sprintf("config file %s: faults: fault 2: probability: %s is not a number as JSON writes one, which the admin API refuses (YAML reads it as %s); "+
			"want decimal digits with a minus, a fraction and an exponent at most, such as 0.25 (--fault)", cfg, sp.spelling, sp.read)
		wantUsageLine(t, "config probability: "+sp.spelling, code, stdout, stderr, want)
	}
}

// TestServeResilienceFaults: the faults for retry and timeout tests,
// given on the command line and through the admin API of atmkit serve, as a Go client sees them; the journal names each
// fault's kind.
func TestServeResilienceFaults(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, nil,
		"--fault", "op=ReturnAtmSearchByCity,status=503,skip=1,times=1",
		"--fault", "op=ReturnInstitutions,dribble.chunks=3,dribble.duration=300ms",
		"--fault", "op=WSDL,status=503",
		"--fault", "op=ReturnProvinces,reset.afterBytes=10,times=1",
		"--fault", "op=ReturnAllAtms,garbage,times=1")
	req, err := http.NewRequest(http.MethodPost, base+"/__admin/faults",
		strings.NewReader(`{"operation":"ReturnAtmSearchByInstitution","delayDistribution":{"type":"uniform","lower":"100ms","upper":"120ms"},"times":1}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /__admin/faults: %d, want 201", resp.StatusCode)
	}
	svc := base + "/service/service.asmx/"

	wantGet(t, "WSDL", base+"/service/service.asmx?wsdl", "", 503)
	wantGet(t, "help page", base+"/service/service.asmx", "", 200)

	resp, err = http.Get(svc + "ReturnProvinces?strAtmServiceKey=k")
	if err != nil {
		t.Fatalf("reset: %v, want a 200 then a reset", err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(b) != 10 || !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("reset: got %d, %d bytes, %v; want 200, 10 bytes, connection reset by peer", resp.StatusCode, len(b), err)
	}

	if resp, err := http.Get(svc + "ReturnAllAtms?strAtmServiceKey=k"); err == nil {
		resp.Body.Close()
		t.Errorf("garbage: got status %d, want a protocol error", resp.StatusCode)
	} else if !strings.Contains(err.Error(), "malformed HTTP") {
		t.Errorf("garbage: got %v, want a malformed HTTP response", err)
	}

	start := time.Now()
	body := wantGet(t, "dribble", svc+"ReturnInstitutions?strAtmServiceKey=k", "", 200)
	if d := time.Since(start); d < 300*time.Millisecond || !strings.Contains(body, "</") {
		t.Errorf("dribble: whole after %s: %.80q; want the whole answer after at least 300ms", d, body)
	}

	var statuses []int
	for range 3 {
		code, _ := get(t, svc+"ReturnAtmSearchByCity?strAtmServiceKey=k&intCityID=101", "")
		statuses = append(statuses, code)
	}
	if statuses[0] != 200 || statuses[1] != 503 || statuses[2] != 200 {
		t.Errorf("skip 1, times 1: statuses %v, want [200 503 200]", statuses)
	}

	start = time.Now()
	code, body := get(t, svc+"ReturnAtmSearchByInstitution?strAtmServiceKey=k&intInstitutionID=1", "")
	if d := time.Since(start); d < 100*time.Millisecond || code != 200 || !strings.Contains(body, "</") {
		t.Errorf("uniform delay: answered %d after %s: %.80q; want the whole answer after at least 100ms", code, d, body)
	}

	body = wantGet(t, "journal", base+"/__admin/requests", "", 200)
	var j struct {
		Requests []struct {
			Path      string `json:"path"`
			Status    int    `json:"status"`
			Error     string `json:"error"`
			Fault     string `json:"fault"`
			FaultKind string `json:"faultKind"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(body), &j); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, r := range j.Requests {
		if r.Fault != "" {
			kinds[r.Path[strings.LastIndex(r.Path, "/")+1:]+" "+r.Error] = r.Fault + " " + r.FaultKind
		}
	}
	want := map[string]string{
		"service.asmx ":                 "f3 status",
		"ReturnProvinces Reset":         "f4 reset",
		"ReturnAllAtms ":                "f5 garbage",
		"ReturnInstitutions ":           "f2 dribble",
		"ReturnAtmSearchByCity ":        "f1 status",
		"ReturnAtmSearchByInstitution ": "f6 delay",
	}
	for k, v := range want {
		if kinds[k] != v {
			t.Errorf("journal: %s: got fault %q, want %q (all: %v)", k, kinds[k], v, kinds)
		}
	}
}

// TestServeResilienceFaultsConfig: the config file takes the new fields,
// nested objects as YAML mappings, and the admin API lists them back.
func TestServeResilienceFaultsConfig(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "faults:\n"+
		"  - {operation: ReturnInstitutions, dribble: {chunks: 3, duration: 300ms}, probability: 0.5, seed: 9}\n"+
		"  - operation: WSDL\n    reset: {afterBytes: 0}\n    skip: 1\n"+
		"  - op=ReturnProvinces,delayDistribution.type=lognormal,delayDistribution.median=80ms,delayDistribution.sigma=0.5\n")
	base, _, _ := startServe(t, nil, "--config", cfg)
	body := wantGet(t, "GET /__admin/faults", base+"/__admin/faults", "", 200)
	want := `{"faults":[` +
		`{"id":"f1","operation":"ReturnInstitutions","dribble":{"chunks":3,"duration":"300ms"},"probability":0.5,"seed":9},` +
		`{"id":"f2","operation":"WSDL","reset":{"afterBytes":0},"skip":1},` +
		`{"id":"f3","operation":"ReturnProvinces","delayDistribution":{"type":"lognormal","median":"80ms","sigma":0.5}}]}`
	if strings.TrimSpace(body) != want {
		t.Errorf("faults:\n got %s\nwant %s", body, want)
	}
}
