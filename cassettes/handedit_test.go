package cassettes_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestReplayOfAnEditedBody: a Recorder replaying a cassette whose answer
// was edited by hand (a name made longer or shorter, its content_length
// and Content-Length header left as recorded, as a reviewer edits YAML)
// returns the body with its own length, as the replaying mock serves it.
// A client reading to Content-Length got the body cut short, and a reverse
// proxy with the Recorder as its transport (as atmkit record's proxy is)
// sent a body longer or shorter than the length it declared: the client
// got it cut, or an unexpected EOF.
func TestReplayOfAnEditedBody(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "edited.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	call := request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
	if status, body := do(t, rec.Client(), call); status != 200 || !strings.Contains(body, "Nova Scotia") {
		t.Fatalf("recording: %d %.300s", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Nouvelle-Écosse", "NS"} { // longer, shorter
		t.Run(name, func(t *testing.T) {
			edited := filepath.Join(t.TempDir(), "edited.yaml")
			if err := os.WriteFile(edited, []byte(strings.Replace(string(recorded), "Nova Scotia", name, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			rec, err := cassettes.New(edited, cassettes.WithMode(cassettes.ModeReplayOnly))
			if err != nil {
				t.Fatal(err)
			}
			defer rec.Stop()
			target, err := url.Parse(up.URL)
			if err != nil {
				t.Fatal(err)
			}
			rp := httputil.NewSingleHostReverseProxy(target)
			rp.Transport = rec
			proxy := httptest.NewServer(rp)
			defer proxy.Close()
			for _, c := range []struct {
				what   string
				client *http.Client
				base   string
			}{{"the Recorder's client", rec.Client(), up.URL}, {"through a proxy", proxy.Client(), proxy.URL}} {
				resp, err := c.client.Do(request(t, c.base, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
				if err != nil {
					t.Fatalf("%s: %v", c.what, err)
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					t.Errorf("%s: reading the body: %v", c.what, err)
				}
				if !strings.Contains(string(b), "<name>"+name+"</name>") || !strings.HasSuffix(strings.TrimSpace(string(b)), "</provinces>") {
					t.Errorf("%s: the body is not the edited one whole: %q", c.what, b)
				}
				if got, want := resp.Header.Get("Content-Length"), strconv.Itoa(len(b)); got != want || resp.ContentLength != int64(len(b)) {
					t.Errorf("%s: Content-Length %q (%d), want %s", c.what, got, resp.ContentLength, want)
				}
			}
		})
	}
}

// TestRewriteKeepsTheFilesStyle: a cassette saved with a byte order mark
// and CR LF line ends (Notepad, a checkout on Windows) keeps both when
// cassette scrub rewrites it and when a recording adds to it, so that its
// diff shows what changed: both wrote it with LF and no mark, every line
// changed. What it holds reads back the same.
func TestRewriteKeepsTheFilesStyle(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "windows.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
		t.Fatalf("recording: %d %.300s", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	lf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	windows := "\uFEFF" + strings.ReplaceAll(string(lf), "\n", "\r\n")
	// A raw key, for the scrub to replace.
	raw := strings.Replace(windows, "strAtmServiceKey=REDACTED", "strAtmServiceKey=Raw-Key-1234", 2)
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := cassettes.ScrubCassette(path, false); err != nil || res.Replaced == 0 {
		t.Fatalf("scrub: %+v, %v", res, err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != windows {
		t.Fatalf("scrubbed: got %.300q, want %.300q (%v)", got, windows, err)
	}

	rec, err = cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false)); status != 200 {
		t.Fatalf("recording: %d %.300s", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), windows[:len(windows)-len("\r\n")]) || strings.Count(string(got), "\n") != strings.Count(string(got), "\r\n") {
		t.Errorf("after recording onto it: not the file it was, then more lines ending CR LF:\n%.600q", got)
	}
	list := readCassette(t, path)
	if len(list) != 2 || !strings.Contains(list[1].Response.Body, "<institutions>") {
		t.Fatalf("%d interactions read back, want 2 (the second ReturnInstitutions)", len(list))
	}
	if want := readCassette(t, writeLF(t, lf)); list[0].Response.Body != want[0].Response.Body {
		t.Errorf("the first answer reads back otherwise: %q, want %q", list[0].Response.Body, want[0].Response.Body)
	}
}

// writeLF writes a cassette's text to a file of its own and returns its path.
func writeLF(t *testing.T, text []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "lf.yaml")
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIndexNamesUnreadCalls: a recorded call whose request a hand edit
// left unreadable as one (its Content-Type removed) is listed in the
// index's Unread, which atmkit serve warns of: it replays only to the
// same request as sent, and a call of its operation misses. An answer
// of ASP.NET AJAX's script proxy (.asmx/js), 200 and no call, is not.
func TestIndexNamesUnreadCalls(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "unread.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
		t.Fatalf("recording: %d %.300s", status, body)
	}
	// The mock writes no script proxy; a deployment's [ScriptService] does.
	proxyJS := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-javascript")
		_, _ = io.WriteString(w, "Type.registerNamespace('atm');")
	}))
	defer proxyJS.Close()
	if got := getPage(t, rec.Client(), proxyJS.URL+asmx.JSONPath+"/js"); got.status != 200 {
		t.Fatalf("the script proxy: %d %.300s", got.status, got.body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	list := readCassette(t, path)
	if st := loadStats(t, path); len(st.Unread) != 0 {
		t.Fatalf("as recorded: Unread %q, want none", st.Unread)
	}
	list[0].Request.Headers.Del("Content-Type")
	if err := cassettes.WriteFile(path, list); err != nil {
		t.Fatal(err)
	}
	if st, want := loadStats(t, path), []string{path + "#0"}; !slices.Equal(st.Unread, want) {
		t.Errorf("Content-Type removed: Unread %q, want %q", st.Unread, want)
	}
}

// loadStats loads an index of the cassette at path and returns its stats.
func loadStats(t *testing.T, path string) cassettes.IndexStats {
	t.Helper()
	ix, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	return ix.Stats()
}
