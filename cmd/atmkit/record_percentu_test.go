package main

import (
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestRecordPercentUCalls: GET and POST calls written with %uXXXX escapes
// (JavaScript's escape(), classic ASP), which net/http cannot parse and
// ASMX reads, the key among them and, in the POST, the key's name, go
// through atmkit record and are recorded; cassette list shows them as the
// calls they are; cassette scrub --check finds nothing; serve --replay
// answers them, and the same parameters written with UTF-8 escapes, with
// the recorded answers; cassette verify re-sends them as recorded, the key
// in place of the placeholder. They used to be forwarded unrecorded.
func TestRecordPercentUCalls(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var received []string // what the mock got: method, request URI and body
	mock := startMock(t, leakKey, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			received = append(received, r.Method+" "+r.RequestURI+" "+string(b))
			mu.Unlock()
			r.Body = io.NopCloser(strings.NewReader(string(b)))
			h.ServeHTTP(w, r)
		})
	})
	target := asmx.ServicePath + "/" + asmx.OpReturnAtmSearchByAddress
	rest := func(city string) string {
		return "&strAddress=&strCity=" + city + "&strProvince=NS&strPostalCode=&bytRadius=5"
	}
	calls := []struct {
		method, raw, utf8 string
	}{
		{http.MethodGet, "strAtmServiceKey=" + mocktest.PercentUAll(leakKey) + rest(mocktest.PercentUAll("Halifax")), "strAtmServiceKey=x" + rest("Halifax")},
		{http.MethodPost, "strAtm%u0053erviceKey=" + mocktest.PercentUAll(leakKey) + rest("Hali%u0066ax"), "strAtmServiceKey=x" + rest("Hali%66ax")},
	}
	send := func(base, method, q string) (int, string) {
		t.Helper()
		if method == http.MethodGet {
			return statusAndBody(t)(http.Get(base + target + "?" + q))
		}
		return statusAndBody(t)(http.Post(base+target, asmx.ContentTypeForm, strings.NewReader(q)))
	}
	path := filepath.Join(t.TempDir(), "percent-u.yaml")
	r := startCmd(t, nil, "record", "--upstream", mock, "--cassette", path, "--addr", "127.0.0.1:0")
	answers := make([]string, len(calls))
	for n, c := range calls {
		status, want := send(mock, c.method, c.raw)
		if status != http.StatusOK || !strings.Contains(want, "<count>") || strings.Contains(want, "<count>0</count>") {
			t.Fatalf("%s %s: the mock answers %d, want ATMs: %.300s", c.method, c.raw, status, want)
		}
		if status, got := send(r.base, c.method, c.raw); status != http.StatusOK || got != want {
			t.Errorf("%s %s through the proxy: %d %.300q, want 200 %.300q", c.method, c.raw, status, got, want)
		}
		answers[n] = want
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s%s", code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr.String(), "forwarded without recording") {
		t.Errorf("record warned of a call forwarded unrecorded:\n%s", r.stderr)
	}
	text := readText(t, path)
	noLeak(t, "the cassette", text)
	noLeak(t, "record's output", r.stdout.String()+r.stderr.String())
	if strings.Contains(text, mocktest.PercentUAll(leakKey)) {
		t.Errorf("the cassette holds the key as %%u escapes:\n%s", text)
	}
	list, err := cassettes.ReadFile(path)
	if err != nil || len(list) != len(calls) {
		t.Fatalf("the cassette holds %d interactions (%v), want the %d calls:\n%s", len(list), err, len(calls), text)
	}

	code, out, errOut := runAtmkit(nil, "cassette", "list", path)
	if code != exitOK || strings.Count(out, "ReturnAtmSearchByAddress") != 2 || !strings.Contains(out, " get ") || !strings.Contains(out, " post ") ||
		strings.Count(out, "strCity=Halifax") != 2 {
		t.Errorf("cassette list: exit %d, want both calls of ReturnAtmSearchByAddress in Halifax:\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runAtmkit(nil, "cassette", "scrub", "--check", path); code != exitOK {
		t.Errorf("cassette scrub --check: exit %d, want 0:\n%s%s", code, out, errOut)
	}

	s := startCmd(t, nil, "serve", "--replay", path, "--addr", "127.0.0.1:0")
	for n, c := range calls {
		for _, q := range []string{c.raw, c.utf8} {
			if status, got := send(s.base, c.method, q); status != http.StatusOK || got != answers[n] {
				t.Errorf("%s %s replayed: %d %.300q, want the recorded %.300q", c.method, q, status, got, answers[n])
			}
		}
	}
	s.stop()

	mu.Lock()
	received = nil
	mu.Unlock()
	code, out, errOut = runAtmkit(map[string]string{"ATMKIT_KEY": leakKey}, "cassette", "verify", "--upstream", mock, path)
	if code != exitOK || strings.Count(out, ": same\n") != 2 {
		t.Errorf("cassette verify: exit %d, want 0 and both calls the same:\n%s%s", code, out, errOut)
	}
	noLeak(t, "verify's output", out+errOut)
	mu.Lock()
	defer mu.Unlock()
	if len(received) != len(list) {
		t.Fatalf("verify sent %d requests, want %d: %q", len(received), len(list), received)
	}
	for n, i := range list {
		u, err := url.Parse(i.Request.URL)
		if err != nil {
			t.Fatal(err)
		}
		want := i.Request.Method + " " + u.RequestURI() + " " + i.Request.Body
		if want = strings.Replace(want, "="+cassettes.Placeholder, "="+leakKey, 1); received[n] != want {
			t.Errorf("verify re-sent\n%q\nwant as recorded, with the key\n%q", received[n], want)
		}
	}
}
