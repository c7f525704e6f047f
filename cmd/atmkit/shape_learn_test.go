package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/shape"
)

// TestShapeLearnFromAHostileDeployment: a deployment whose ?WSDL answer
// never ends, a gateway whose error page echoes the key it was sent (a
// header with quotes, spaces and non-ASCII, from --header or
// ATMKIT_HEADER), and one whose answer trickles past ATMKIT_TIMEOUT stop
// shape learn with exit 2 (a target that could not be read), saying
// what was answered, the key masked everywhere, and the shape file
// learned before left as it was. The endless answer was cut at 16 MiB and
// learned from: exit 1, "the WSDL does not parse".
func TestShapeLearnFromAHostileDeployment(t *testing.T) {
	t.Parallel()
	const key = `"sé cret" Key-9`
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><!--`)
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<html><head><title>Forbidden: the key %s is not subscribed</title></head></html>", r.Header.Get("X-Api-Key"))
	}))
	defer gateway.Close()
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for r.Context().Err() == nil {
			if _, err := w.Write([]byte("<")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	defer trickle.Close()
	out := filepath.Join(t.TempDir(), "learned.yaml")
	const before = "# the shape learned last week\n"
	if err := os.WriteFile(out, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--wsdl", endless.URL + "/service/service.asmx", "--header", "X-Api-Key: " + key},
			"an answer over 16 MiB, larger than any WSDL"},
		{nil, []string{"--wsdl", gateway.URL + "/service/service.asmx", "--header", "X-Api-Key: " + key},
			"HTTP 403 (an HTML page: Forbidden: the key \"s"},
		{map[string]string{"ATMKIT_HEADER": "X-Api-Key: " + key}, []string{"--wsdl", gateway.URL + "/service/service.asmx"},
			"HTTP 403 (an HTML page: Forbidden: the key \"s"},
		{map[string]string{"ATMKIT_TIMEOUT": "300ms"}, []string{"--wsdl", trickle.URL + "/service/service.asmx"},
			"the answer did not end within --timeout (300ms)"},
	} {
		code, stdout, errOut := runAtmkit(tc.env, append([]string{"shape", "learn", "--out", out}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 saying %q", tc.env, tc.args, code, errOut, tc.want)
		}
		if s := stdout + errOut; strings.Contains(s, "cret") || strings.Contains(s, "Key-9") {
			t.Errorf("%v %v: the key shows:\n%s", tc.env, tc.args, s)
		}
		if data, err := os.ReadFile(out); err != nil || string(data) != before {
			t.Errorf("%v %v: the shape learned before is now %q (%v)", tc.env, tc.args, data, err)
		}
	}
}

// TestShapeLearnOutIsASource: --out naming a file learned from (the
// cassette, however spelt, or the --wsdl file), or another cassette, is refused with exit 2
// before anything is read, the file left as it was. The recording, which
// only the deployment could make again, was replaced by the shape.
func TestShapeLearnOutIsASource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec.yaml")
	recorded, err := os.ReadFile("../../cassettes/testdata/reference-attrs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wsdl := filepath.Join(dir, "service.wsdl")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cassette", rec, "--out", rec}, "--out " + rec + ": the cassette " + rec + " learned from; give another file"},
		{[]string{"--cassette", dir, "--out", filepath.Join(dir, "sub", "..", "rec.yaml")}, "learned from; give another file"},
		{[]string{"--wsdl", wsdl, "--out", wsdl}, "--out " + wsdl + ": the WSDL file learned from; give another file"},
		// A cassette not learned from (wsdl holds one here): it was replaced.
		{[]string{"--cassette", rec, "--out", wsdl}, "--out " + wsdl + ": a cassette (recorded interactions), not a shape file; give another file"},
	} {
		for _, f := range []string{rec, wsdl} {
			if err := os.WriteFile(f, recorded, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		code, stdout, errOut := runAtmkit(nil, append([]string{"shape", "learn"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 saying %q\n%s", tc.args, code, errOut, tc.want, stdout)
		}
		for _, f := range []string{rec, wsdl} {
			if data, err := os.ReadFile(f); err != nil || string(data) != string(recorded) {
				t.Errorf("%v: %s was overwritten (%d bytes, %v)", tc.args, f, len(data), err)
			}
		}
	}
}

// TestShapeLearnTimeoutMustBePositive: --timeout 0 or below (ATMKIT_TIMEOUT
// too) is a wrong setting, named before anything is fetched, as serve's
// is. It was taken, and every fetch failed "no answer within --timeout
// (0s)", blaming the deployment.
func TestShapeLearnTimeoutMustBePositive(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "x.yaml")
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--timeout", "0"}},
		{nil, []string{"--timeout", "-1s"}},
		{map[string]string{"ATMKIT_TIMEOUT": "0s"}, nil},
	} {
		args := append([]string{"shape", "learn", "--wsdl", "http://127.0.0.1:1/service/service.asmx", "--out", out}, tc.args...)
		code, _, errOut := runAtmkit(tc.env, args...)
		if code != exitUsage || !strings.Contains(errOut, "--timeout") || !strings.Contains(errOut, "must be positive") || strings.Contains(errOut, "no answer") {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 saying --timeout must be positive", tc.env, tc.args, code, errOut)
		}
	}
}

// TestShapeLearnCassetteNotReadable: a cassette that cannot be read (a
// format version atmkit does not read, broken YAML) stops shape learn with
// exit 2, as it stops cassette list and serve --replay, naming the file.
// It was exit 1, the code of a shape that could not be learned.
func TestShapeLearnCassetteNotReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"v1.yaml":     "version: 1\ninteractions: []\n",
		"broken.yaml": "version: 2\ninteractions: [\n",
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"shape", "learn", "--cassette", file, "--out", filepath.Join(dir, "x.yaml")}, {"cassette", "list", file}} {
			code, _, errOut := runAtmkit(nil, args...)
			if code != exitUsage || !strings.Contains(errOut, file) {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %s", args, code, errOut, file)
			}
		}
	}
}

// TestShapeLearnSummarySaysWhatWasLearned: shape learn's last line counts
// what the report above it lists (mapped, guessed, written with generated
// values), so that a guess to check is not lost above a long report. It
// named only the sources and the file written.
func TestShapeLearnSummarySaysWhatWasLearned(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "learned.yaml")
	code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--cassette", "../../cassettes/testdata/reference-attrs.yaml", "--out", out)
	if code != exitOK {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, stdout, errOut)
	}
	count := func(title string) int {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(title) + ` \((\d+)\):$`).FindStringSubmatch(stdout)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	mapped, guessed, generated := count("Mapped"), count("Guessed (check these)"), count("Could not map (written with generated values)")
	if mapped == 0 || generated == 0 {
		t.Fatalf("the report lists %d mapped, %d written with generated values; want some of each:\n%s", mapped, generated, stdout)
	}
	want := fmt.Sprintf("atmkit: learned from 15 recorded answers in 1 cassette, the WSDL recorded in reference-attrs.yaml#15: %d fields mapped", mapped)
	if guessed > 0 {
		want += fmt.Sprintf(", %d guessed (check them above)", guessed)
	}
	want += fmt.Sprintf(", %d written with generated values; wrote %s\n", generated, out)
	if !strings.Contains(stdout, want) {
		t.Errorf("shape learn's last lines:\n%s\nwant %q", stdout[max(0, len(stdout)-400):], want)
	}
}

// TestShapeLearnKeepsKeysOut: a shape learned through a gateway's key (in
// --wsdl's query, its user info and --header, with quotes, spaces and
// non-ASCII) holds none of them, nor do shape learn's outputs. A URL whose
// user info does not parse (a password beyond ASCII, not percent-encoded)
// is exit 2 without the URL: it was read as a file name, and the error
// ("open http://me:Pass-wörd-77@…?subscription-key=…: no such file")
// showed the password and the key.
func TestShapeLearnKeepsKeysOut(t *testing.T) {
	t.Parallel()
	base := startMock(t, "k", nil) // shape learn reads the WSDL, which needs no key
	out := filepath.Join(t.TempDir(), "learned.yaml")
	const query = "/service/service.asmx?subscription-key=%22Qu%C3%A9ry%20Key-55%22"
	for _, tc := range []struct {
		user string
		code int
	}{{"me:Pass-w%C3%B6rd-77", exitOK}, {"me:Pass-wörd-77", exitUsage}} {
		wsdl := strings.Replace(base, "http://", "http://"+tc.user+"@", 1) + query
		code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--wsdl", wsdl, "--header", `X-Api-Key: "Héader Key-66"`, "--out", out)
		if code != tc.code {
			t.Errorf("%s: shape learn: exit %d, want %d\n%s\n%s", tc.user, code, tc.code, stdout, errOut)
		}
		outputs := map[string]string{"stdout": stdout, "stderr": errOut}
		if code == exitOK {
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			outputs["the shape file"] = string(data)
		}
		for where, s := range outputs {
			for _, k := range []string{"Key-55", "Key-66", "Pass-", "Qu%C3%A9ry", "Query"} {
				if strings.Contains(s, k) {
					t.Errorf("%s: %s holds %q:\n%s", tc.user, where, k, s)
				}
			}
		}
	}
}

// TestShapeLearnSaysItIsFetching: shape learn --wsdl URL says on stderr,
// before it fetches, where from (the query's values and the password
// masked) and for how long at most, so that a slow deployment is not a
// silent wait of up to --timeout; stdout, which may be piped, holds no
// such line. It said nothing until the WSDL was in ("learning from").
func TestShapeLearnSaysItIsFetching(t *testing.T) {
	t.Parallel()
	base := startMock(t, "k", nil)
	wsdl := strings.Replace(base, "http://", "http://me:Pass-Word-77@", 1) + "/service/service.asmx?subscription-key=Query-Key-55"
	code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--wsdl", wsdl, "--timeout", "40s", "--out", filepath.Join(t.TempDir(), "learned.yaml"))
	if code != exitOK {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, stdout, errOut)
	}
	want := "atmkit: shape learn: fetching the WSDL from " + strings.Replace(base, "http://", "http://me:xxxxx@", 1) +
		"/service/service.asmx?subscription-key=xxxxx&WSDL (up to --timeout 40s; Ctrl-C stops it)\n"
	at := strings.Index(errOut, want)
	if at < 0 || at > strings.Index(errOut, "learning from") {
		t.Errorf("stderr:\n%s\nwant %q before the learning line", errOut, want)
	}
	if strings.Contains(stdout, "fetching") || strings.Contains(stdout+errOut, "Key-55") || strings.Contains(stdout+errOut, "Word-77") {
		t.Errorf("stdout holds the fetching line, or a key shows:\n%s\n%s", stdout, errOut)
	}
}

// TestShapeLearnOutDashIsStdout: --out - writes the learned shape to
// standard output, as a file would hold it (atmkit serve --shape reads
// it back), and the report and the last lines to stderr, so that
// `atmkit shape learn … --out - > shape.yaml` holds the shape alone. It
// wrote a file named "-".
func TestShapeLearnOutDashIsStdout(t *testing.T) {
	t.Parallel()
	code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--cassette", "../../cassettes/testdata/reference-attrs.yaml", "--out", "-")
	if code != exitOK {
		t.Fatalf("shape learn --out -: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if _, err := os.Lstat("-"); err == nil {
		os.Remove("-")
		t.Errorf("shape learn --out - wrote a file named -")
	}
	if !strings.HasPrefix(stdout, "# Learned by atmkit shape learn from ") || !strings.Contains(stdout, "Serve it with: atmkit serve --shape FILE") {
		t.Errorf("stdout does not start as a learned shape file does:\n%s", stdout[:min(len(stdout), 400)])
	}
	if _, err := shape.Parse([]byte(stdout)); err != nil {
		t.Errorf("stdout is no shape: %v\n%s", err, stdout)
	}
	if code, _, errOut := runAtmkit(nil, "shape", "learn", "--cassette", "../../cassettes/testdata/reference-attrs.yaml", "--out", "/dev/null"); code != exitUsage ||
		!strings.Contains(errOut, "--out /dev/null: a device, not a file") || !strings.Contains(errOut, "--out - writes the shape to standard output") {
		t.Errorf("shape learn --out /dev/null: exit %d, stderr %q; want exit 2 naming a device and --out -", code, errOut)
	}
	for _, want := range []string{"Mapped (", "; wrote the shape to standard output\n  serve it: atmkit serve --shape FILE ", " (the file you saved it in)\n"} {
		if !strings.Contains(errOut, want) || strings.Contains(stdout, want) {
			t.Errorf("stderr does not hold %q, or stdout does:\nstderr:\n%s", want, errOut)
		}
	}
}

// TestShapeLearnWSDLFromStdin: --wsdl - reads the WSDL from standard
// input (curl -s 'https://…?WSDL' | atmkit shape learn --wsdl - …), as
// a WSDL file is read, and says so. It looked for a file named "-".
func TestShapeLearnWSDLFromStdin(t *testing.T) {
	t.Parallel()
	resp, err := http.Get(startMock(t, "k", nil) + "/service/service.asmx?WSDL")
	if err != nil {
		t.Fatal(err)
	}
	wsdl, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "learned.yaml")
	cmd := exec.Command(os.Args[0], "shape", "learn", "--wsdl", "-", "--out", out)
	cmd.Env = append(cleanEnv(), testMainVar+"=1")
	cmd.Stdin = strings.NewReader(string(wsdl))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("shape learn --wsdl -: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	// The first line says where it waits for the WSDL (a terminal's
	// standard input waits for typing).
	for _, want := range []string{"atmkit: shape learn: reading the WSDL from standard input (Ctrl-C stops it)\n", "learning from the WSDL on standard input"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q, want %q", stderr.String(), want)
		}
	}
	if _, err := shape.Load(out); err != nil {
		t.Errorf("the shape written: %v", err)
	}
}
