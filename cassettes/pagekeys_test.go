package cassettes_test

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/wire"
)

// TestRecordedPageEchoingKeyWithEntities: a deployment's HTML page (a help
// page, an error page) that echoes the key it was asked with, its ', &, ",
// < or > written as an entity or raw, reaches the cassette without any
// part of the key: the key's parameter in the page is replaced whole, not
// up to the first & or ' of an entity. Keys of four characters or more
// are also swept wherever else they stand; shorter ones only where the
// page names the parameter.
func TestRecordedPageEchoingKeyWithEntities(t *testing.T) {
	t.Parallel()
	// Each key's parts after a character a page escapes are named (tails):
	// none may reach the cassette.
	keys := []struct {
		key   string
		tails []string
	}{
		{`k3y'apos9&amp9"quot9<lt9>gt9`, []string{"apos9", "amp9", "quot9", "lt9", "gt9"}},
		{`q'zz`, []string{"'zz", "#39;zz", "apos;zz"}},
		{`q'z`, []string{"'z<", "#39;z<", "apos;z<"}},
	}
	// How a page may write the key: ASP.NET's HtmlEncode (&quot; &#39;),
	// Go's (&#34; &#39;), every XML escape (&apos;), and, for a key
	// without " & < >, raw (.NET 2.0's HtmlEncode leaves ' alone).
	page := func(key string) string {
		var b strings.Builder
		b.WriteString("<html><body>")
		forms := []string{wire.HTMLEncode(key), html.EscapeString(key),
			strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(key)}
		if !strings.ContainsAny(key, `"&<>`) {
			forms = append(forms, key)
		}
		for _, f := range forms {
			b.WriteString("<p>Requested: service.asmx?op=ReturnProvinces&amp;strAtmServiceKey=" + f + "</p>")
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page(r.URL.Query().Get(asmx.ParamKey)))
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for j, k := range keys { // asked of a page each: scrubbed, the short keys' would be one
			got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+"?op="+asmx.Operations()[j].Name+"&"+asmx.ParamKey+"="+url.QueryEscape(k.key))
			if got.body != page(k.key) {
				t.Fatalf("recording: got %q", got.body)
			}
		}
	})
	b, err := os.ReadFile(path + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		for _, tail := range k.tails {
			if strings.Contains(string(b), tail) {
				t.Errorf("key %q: the cassette holds its part %q:\n%s", k.key, tail, b)
			}
		}
	}
	if n := strings.Count(string(b), "strAtmServiceKey=REDACTED</p>"); n != 11 {
		t.Errorf("%d keys replaced whole in the pages, want 11:\n%s", n, b)
	}
}
