package cassettes_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestRecorderSweepsKeysAndSecretsTogether: a WithSecrets value that
// holds the service key (a gateway header "Key K", or K-partner9), a key
// that holds one, and the two overlapping in a text that holds both (a
// path's segment K-partner9 for the key K and the secret KEY-4242-partner9),
// are swept whole wherever an
// upstream echoes them (its body as they are, percent-, JSON- and
// XML-escaped; its headers; its status line), in an interaction recorded
// before the key's first 200 call as in that call: the key was swept
// first, the secret then no longer matched, and its rest stayed in the
// file (and conversely). No part of either reaches the file but as the
// mask; nor does the spool beside it, where the first interaction was
// saved before the key's call.
func TestRecorderSweepsKeysAndSecretsTogether(t *testing.T) {
	t.Parallel()
	// Each fragment is in the key or a secret and nowhere else.
	fragments := []string{"s3cr3t", "4242", "partner9"}
	for _, tc := range []struct {
		name    string
		key     string
		secrets []string
		seg     string // the path's last segment before the key's call
		saved   bool   // that call saved before the key's
	}{
		{"the secret holds the key", "s3cr3t-KEY-4242", []string{"s3cr3t-KEY-4242-partner9", "Key s3cr3t-KEY-4242"}, "s3cr3t-KEY-4242", false},
		{"the key holds the secret", "s3cr3t-KEY-4242-partner9", []string{"KEY-4242"}, "s3cr3t-KEY-4242-partner9", false},
		{"the key holds the secret, saved first", "s3cr3t-KEY-4242-partner9", []string{"KEY-4242"}, "s3cr3t-KEY-4242-partner9", true},
		{"they overlap", "s3cr3t-KEY-4242", []string{"KEY-4242-partner9"}, "s3cr3t-KEY-4242-partner9", false},
		{"they overlap, saved first", "s3cr3t-KEY-4242", []string{"KEY-4242-partner9"}, "s3cr3t-KEY-4242-partner9", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// The key the request carries (its query's, or its
				// path's last segment), and its X-Partner-Id values.
				key := r.URL.Query().Get("strAtmServiceKey")
				status := "200 OK " + key
				if key == "" {
					key, status = path.Base(r.URL.Path), "404 No such method "+path.Base(r.URL.Path)
				}
				vals := append([]string{key}, r.Header.Values("X-Partner-Id")...)
				var head, body strings.Builder
				for n, v := range vals {
					status += " " + v
					for m, f := range echoForms(v) {
						fmt.Fprintf(&head, "X-Echo-%d-%d: %s\r\n", n, m, f)
						body.WriteString(f + "\n")
					}
				}
				c, buf, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Error(err)
					return
				}
				defer c.Close()
				_, _ = fmt.Fprintf(buf, "HTTP/1.1 %s\r\n%sContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", status, head.String(), body.Len(), body.String())
				_ = buf.Flush()
			}))
			defer up.Close()
			file := filepath.Join(t.TempDir(), "overlap.yaml")
			rec, err := cassettes.New(file, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSecrets(tc.secrets...))
			if err != nil {
				t.Fatal(err)
			}
			for n, u := range []string{
				up.URL + asmx.ServicePath + "/" + url.PathEscape(tc.seg), // before the key's 200 call
				up.URL + asmx.ServicePath + "/" + asmx.OpReturnProvinces + "?strAtmServiceKey=" + url.QueryEscape(tc.key),
			} {
				if n == 1 && tc.saved {
					if err := rec.Save(); err != nil { // swept from the spool
						t.Fatal(err)
					}
				}
				req, err := http.NewRequest(http.MethodGet, u, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range tc.secrets {
					req.Header.Add("X-Partner-Id", s)
				}
				resp, err := rec.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if !strings.Contains(resp.Status, tc.key) {
					t.Errorf("the client got the status %q, want it as it came", resp.Status)
				}
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			others, err := filepath.Glob(filepath.Join(filepath.Dir(file), ".*"))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range append(others, file) {
				b, err := os.ReadFile(o)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range fragments {
					if strings.Contains(string(b), f) {
						t.Errorf("%s holds %q, a part of the key or a secret:\n%s", filepath.Base(o), f, b)
					}
				}
			}
			if !strings.Contains(string(b), "200 OK "+cassettes.Placeholder) {
				t.Errorf("the cassette's status is not the one that came swept:\n%s", b)
			}
		})
	}
}

// echoForms are the forms an upstream may write v in: as it is,
// percent-encoded (a '-' as %2d), HTML-escaped, JSON-escaped (a '-' as
// \u002d) and with XML character references (a '-' as &#x2D;, a space as
// &#32;).
func echoForms(v string) []string {
	j, _ := json.Marshal(v)
	return []string{
		v,
		strings.ReplaceAll(url.QueryEscape(v), "-", "%2d"),
		html.EscapeString(v),
		strings.ReplaceAll(strings.Trim(string(j), `"`), "-", `\u002d`),
		strings.NewReplacer("-", "&#x2D;", " ", "&#32;").Replace(v),
	}
}
