package verify_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// TestVerifyShowsValuesInRequestEncoding: a call recorded from a
// deployment whose requestEncoding is iso-8859-1, its strAddress in a
// Latin-1 escape (rue+de+l%27%C9glise), is named with the value that
// deployment read when Options.RequestEncoding is iso-8859-1, and with
// U+FFFD by default (UTF-8); either way it is sent again byte for byte, so
// the deployment reads the value it read when recorded, and the answer is
// the same. Result.Name read every recorded query in UTF-8.
func TestVerifyShowsValuesInRequestEncoding(t *testing.T) {
	t.Parallel()
	const address = "rue de l'Église"
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey), mockserver.WithRequestEncoding("iso-8859-1"))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	path := filepath.Join(t.TempDir(), "latin1.yaml")
	rec, proxy := recordingProxy(t, up.URL, path)
	q := "?strAtmServiceKey=" + testKey + "&strAddress=rue+de+l%27%C9glise&strCity=" + strings.ReplaceAll(ds.ATMs[0].Address.City, " ", "+") + "&strProvince=&strPostalCode=&bytRadius=10"
	if status, body := do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"/"+asmx.OpReturnAtmSearchByAddress+q)); status != http.StatusOK {
		t.Fatalf("record: %d %.300s", status, body)
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		enc  asmx.RequestEncoding
		want string
	}{
		{"the default, UTF-8", asmx.RequestEncoding{}, "strAddress=\"rue de l'\uFFFDglise\""},
		{"iso-8859-1", latin1, "strAddress=\"" + address + "\""},
	} {
		report := mustRun(t, path, up.URL, verify.Options{RequestEncoding: c.enc})
		if len(report.Results) != 1 {
			t.Fatalf("%s: %d results, want 1", c.name, len(report.Results))
		}
		res := report.Results[0]
		if !strings.Contains(res.Name(), c.want) || res.Verdict != verify.Same {
			t.Errorf("%s: %s: %s; want %s in the name, and same", c.name, res.Name(), res.Summary(), c.want)
		}
		if !res.NotUTF8 {
			t.Errorf("%s: NotUTF8 false, want true", c.name)
		}
	}
	journal := h.Journal(mockserver.RequestFilter{})
	if len(journal) != 3 {
		t.Fatalf("the deployment got %d calls, want 3", len(journal))
	}
	for _, e := range journal {
		if e.Params[asmx.ParamAddress] != address {
			t.Errorf("the deployment read strAddress %q, want %q (the recorded bytes)", e.Params[asmx.ParamAddress], address)
		}
	}
}
