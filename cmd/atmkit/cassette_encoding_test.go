package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCassetteRequestEncoding: a cassette recorded (atmkit record) from a
// mock served with --request-encoding iso-8859-1, its GET query and POST
// form holding Latin-1 escapes (strCity=Montr%E9al, Qu%E9bec), is listed,
// and named by cassette verify, with the values that deployment read when
// --request-encoding iso-8859-1 (or ATMKIT_REQUEST_ENCODING) says so, as
// serve --replay with it finds them; without it, with U+FFFD, and one
// line on stderr names the calls and the flag. A UTF-8 query (the JSON
// call's Montr%C3%A9al) needs no note. A name .NET does not know, or
// UTF-16, exits 2 with serve's words. Both read every query and form as
// UTF-8 and had no such flag.
func TestCassetteRequestEncoding(t *testing.T) {
	t.Parallel()
	up, _, _ := startServe(t, nil, "--key", leakKey, "--request-encoding", "iso-8859-1")
	cassette := filepath.Join(t.TempDir(), "atm")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0")
	const rest = "&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5"
	montreal := "/service/service.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=" + leakKey + "&strCity=Montr%E9al" + rest
	if code, body := get(t, r.base+montreal, ""); code != http.StatusOK {
		t.Fatalf("GET through record: %d %.300s", code, body)
	}
	resp, err := http.Post(r.base+"/service/service.asmx/ReturnAtmSearchByAddress", "application/x-www-form-urlencoded",
		strings.NewReader("strAtmServiceKey="+leakKey+"&strCity=Qu%E9bec"+rest))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST through record: %d", resp.StatusCode)
	}
	if code, body := get(t, r.base+"/service-v2.asmx/ReturnAtmSearchByAddress?strAtmServiceKey="+leakKey+"&strCity=Montr%C3%A9al"+rest, ""); code != http.StatusOK {
		t.Fatalf("JSON GET through record: %d %.300s", code, body)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, r.stderr)
	}
	path := cassette + ".yaml"

	latin1 := []string{"strCity=Montréal", "strCity=Québec", "strCity=MontrÃ©al"}
	asUTF8 := []string{"strCity=Montr\uFFFDal", "strCity=Qu\uFFFDbec", "strCity=Montréal"}
	note := func(cmd string) string {
		return "atmkit: " + cmd + ": atm.yaml#0 and 1 more call hold bytes in their queries or forms that are not UTF-8, read as U+FFFD (utf-8 is the default --request-encoding); " +
			"--request-encoding iso-8859-1, or the requestEncoding of the deployment's web.config, reads them as that deployment did\n"
	}
	for _, c := range []struct {
		name   string
		env    map[string]string
		args   []string
		values []string
		noted  bool
	}{
		{"the default", nil, nil, asUTF8, true},
		{"the flag", nil, []string{"--request-encoding", "ISO-8859-1"}, latin1, false},
		{"the variable", map[string]string{"ATMKIT_REQUEST_ENCODING": "iso-8859-1"}, nil, latin1, false},
		{"utf-8, given", nil, []string{"--request-encoding", "utf-8"}, asUTF8, false},
	} {
		for _, cmd := range []string{"cassette list", "cassette verify"} {
			args := append(strings.Fields(cmd), c.args...)
			env := c.env
			if cmd == "cassette verify" {
				args = append(args, "--upstream", up)
				env = map[string]string{"ATMKIT_KEY": leakKey}
				for k, v := range c.env {
					env[k] = v
				}
			}
			code, stdout, stderr := runAtmkit(env, append(args, path)...)
			if code != exitOK {
				t.Errorf("%s, %s: exit %d: %s%s", cmd, c.name, code, stdout, stderr)
				continue
			}
			for _, v := range c.values {
				if !strings.Contains(stdout, v) {
					t.Errorf("%s, %s: stdout lacks %q:\n%s", cmd, c.name, v, stdout)
				}
			}
			if want := note(cmd); c.noted && stderr != want || !c.noted && stderr != "" {
				t.Errorf("%s, %s: stderr %q; want the note: %v", cmd, c.name, stderr, c.noted)
			}
			noLeak(t, cmd+", "+c.name, stdout+stderr)
		}
	}

	// serve --replay with the same encoding answers the call as listed.
	base, _, _ := startServe(t, nil, "--replay", path, "--request-encoding", "iso-8859-1")
	if code, body := get(t, base+montreal, ""); code != http.StatusOK {
		t.Errorf("serve --replay --request-encoding iso-8859-1: %d %.300s", code, body)
	}

	for _, c := range badRequestEncodings {
		for _, cmd := range [][]string{{"cassette", "list"}, {"cassette", "verify", "--upstream", up, "--key", leakKey}} {
			code, stdout, stderr := runAtmkit(c.env, append(append(cmd, c.args...), path)...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, "cassette "+cmd[1]+": "+c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%v %v %v: got exit %d, %q and %q; want exit %d and one line with %q", c.env, cmd[:2], c.args, code, stdout, stderr, exitUsage, c.want)
			}
		}
	}
}

// TestShapeLearnRequestEncoding: shape learn reads the cassettes' recorded
// calls as cassette list does: --request-encoding iso-8859-1 (or
// ATMKIT_REQUEST_ENCODING) reads a legacy deployment's Latin-1 escapes as
// it did; without it, one line on stderr names the calls read with U+FFFD
// and the flag. A name .NET does not know, or UTF-16, exits 2 with serve's
// words, nothing written. shape learn had no such flag and read them all
// in UTF-8.
func TestShapeLearnRequestEncoding(t *testing.T) {
	t.Parallel()
	const rest = "&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5"
	_, path := recordLatin1Calls(t, "ReturnAtmSearchByAddress?strCity=Montr%E9al"+rest,
		"ReturnAtmSearchByAddress?strCity=Qu%E9bec"+rest, "ReturnAtmSearchByAddress?strCity=L%E9vis"+rest)
	const note = "atmkit: shape learn: atm.yaml#0 and 2 more calls hold bytes in their queries or forms that are not UTF-8, read as U+FFFD (utf-8 is the default --request-encoding); " +
		"--request-encoding iso-8859-1, or the requestEncoding of the deployment's web.config, reads them as that deployment did\n"
	for _, c := range []struct {
		name  string
		env   map[string]string
		args  []string
		noted bool
	}{
		{"the default", nil, nil, true},
		{"the flag", nil, []string{"--request-encoding", "ISO-8859-1"}, false},
		{"the variable", map[string]string{"ATMKIT_REQUEST_ENCODING": "iso-8859-1"}, nil, false},
	} {
		out := filepath.Join(t.TempDir(), "shape.yaml")
		code, stdout, stderr := runAtmkit(c.env, append([]string{"shape", "learn", "--cassette", path, "--out", out}, c.args...)...)
		if code != exitOK {
			t.Errorf("%s: exit %d: %s%s", c.name, code, stdout, stderr)
			continue
		}
		if got := strings.Contains(stderr, note); got != c.noted || !c.noted && strings.Contains(stderr, "U+FFFD") {
			t.Errorf("%s: the note on stderr: %v, want %v:\n%s", c.name, got, c.noted, stderr)
		}
		noLeak(t, "shape learn, "+c.name, stdout+stderr)
	}
	for _, c := range badRequestEncodings {
		out := filepath.Join(t.TempDir(), "shape.yaml")
		code, stdout, stderr := runAtmkit(c.env, append([]string{"shape", "learn", "--cassette", path, "--out", out}, c.args...)...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, "shape learn: "+c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v %v: got exit %d, %q and %q; want exit %d and one line with %q", c.env, c.args, code, stdout, stderr, exitUsage, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v %v: --out written: %v", c.env, c.args, err)
		}
	}
}

// TestVerifyQuietNotUTF8Note: cassette verify --quiet prints only the
// interactions that drifted, and its note on the calls whose Latin-1
// escapes it read as U+FFFD names only those it printed, counting the
// others as not printed; with nothing printed it names none. It named
// atm.yaml#0, which --quiet had not printed, as if it had.
func TestVerifyQuietNotUTF8Note(t *testing.T) {
	t.Parallel()
	const rest = "&strAddress=x&strProvince=QC&strPostalCode=&bytRadius=5"
	up, path := recordLatin1Calls(t, "ReturnAtmSearchByAddress?strCity=Montr%E9al"+rest,
		"ReturnProvinces?", "ReturnAtmSearchByAddress?strCity=Qu%E9bec"+rest)
	const rest2 = " that are not UTF-8, read as U+FFFD (utf-8 is the default --request-encoding); " +
		"--request-encoding iso-8859-1, or the requestEncoding of the deployment's web.config, reads them as that deployment did\n"
	verifyQuiet := func() (int, string, string) {
		return runAtmkit(map[string]string{"ATMKIT_KEY": leakKey}, "cassette", "verify", "--quiet", "--upstream", up, path)
	}
	code, stdout, stderr := verifyQuiet()
	if want := "atmkit: cassette verify: 2 calls not printed (--quiet) hold bytes in their queries or forms" + rest2; code != exitOK || stderr != want {
		t.Errorf("nothing drifted: exit %d, stderr %q; want 0 and %q\n%s", code, stderr, want, stdout)
	}
	// The first call's recorded answer edited: it drifts, and is printed.
	if err := os.WriteFile(path, []byte(strings.Replace(readText(t, path), "<count>0</count>", "<count>7</count>", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = verifyQuiet()
	if !strings.Contains(stdout, "  #0 get ReturnAtmSearchByAddress(") || strings.Contains(stdout, "  #2 ") {
		t.Errorf("--quiet after an edit: want #0 printed, not #2:\n%s", stdout)
	}
	if want := "atmkit: cassette verify: atm.yaml#0 and 1 more call (not printed: --quiet) hold bytes in their queries or forms" + rest2; code != exitFailure || !strings.HasPrefix(stderr, want) {
		t.Errorf("#0 drifted: exit %d, stderr %q; want 1 and %q first", code, stderr, want)
	}
}

// recordLatin1Calls records, through atmkit record in front of a mock
// whose requestEncoding is iso-8859-1, a GET of each query (an operation
// and its parameters after /service/service.asmx/, the key added), and
// returns the mock's URL and the cassette's path.
func recordLatin1Calls(t *testing.T, queries ...string) (up, path string) {
	t.Helper()
	up, _, _ = startServe(t, nil, "--key", leakKey, "--request-encoding", "iso-8859-1")
	cassette := filepath.Join(t.TempDir(), "atm")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0")
	for _, q := range queries {
		if code, body := get(t, r.base+"/service/service.asmx/"+q+"&strAtmServiceKey="+leakKey, ""); code != http.StatusOK {
			t.Fatalf("GET %s through record: %d %.300s", q, code, body)
		}
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, r.stderr)
	}
	return up, cassette + ".yaml"
}
