package cassettes_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// latin1Address is a street a legacy deployment (requestEncoding
// iso-8859-1) reads from an app's Latin-1 escapes.
const latin1Address = "rue de l'Église"

// latin1Call is a call of ReturnAtmSearchByAddress whose strAddress is
// written in Latin-1 (%C9): in a GET's query, in a form naming no charset,
// or in a form naming charset=iso-8859-1.
type latin1Call struct {
	name, method, ct string
}

var latin1Calls = []latin1Call{
	{"GET", http.MethodGet, ""},
	{"POST, no charset", http.MethodPost, asmx.ContentTypeForm},
	{"POST, charset=iso-8859-1", http.MethodPost, asmx.ContentTypeForm + "; charset=iso-8859-1"},
}

// send sends c to the service at base for city.
func (c latin1Call) send(t *testing.T, base, city string) (int, string) {
	t.Helper()
	q := "strAtmServiceKey=" + testKey + "&strAddress=rue+de+l%27%C9glise&strCity=" + strings.ReplaceAll(city, " ", "+") + "&strProvince=&strPostalCode=&bytRadius=10"
	return do(t, http.DefaultClient, addressSearch(t, base, c.method, c.ct, q))
}

// latin1Deployment starts a stand-in deployment whose requestEncoding is
// iso-8859-1 (smallStandIn).
func latin1Deployment(t *testing.T) (*fixtures.Dataset, *mockserver.Server, *httptest.Server) {
	t.Helper()
	return smallStandIn(t, mockserver.WithKeys(testKey), mockserver.WithRequestEncoding("iso-8859-1"))
}

// recordLatin1Calls records latin1Calls, in their order, from a
// latin1Deployment into a new cassette at path, each for city, and
// returns their answers and the deployment (still serving). It fails
// unless the deployment read every strAddress as latin1Address.
func recordLatin1Calls(t *testing.T) (path, city string, answers []string, up *httptest.Server) {
	t.Helper()
	ds, h, up := latin1Deployment(t)
	city = ds.ATMs[0].Address.City
	path = filepath.Join(t.TempDir(), "latin1.yaml")
	rec, proxy := recordingProxy(t, up.URL, path)
	answers = make([]string, len(latin1Calls))
	for n, c := range latin1Calls {
		status, body := c.send(t, proxy.URL, city)
		if status != http.StatusOK {
			t.Fatalf("%s through the proxy: %d %.300s", c.name, status, body)
		}
		answers[n] = body
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, e := range h.Journal(mockserver.RequestFilter{}) {
		if e.Params[asmx.ParamAddress] != latin1Address {
			t.Fatalf("the stand-in read strAddress %q, want %q", e.Params[asmx.ParamAddress], latin1Address)
		}
	}
	return path, city, answers, up
}

// TestReplayInRequestEncoding: calls recorded from a deployment whose
// requestEncoding is iso-8859-1, with a value in Latin-1 escapes, are
// answered by a mock replaying them with the same requestEncoding
// (cassettes.WithRequestEncoding); a form naming its charset is found
// again by a mock of the default requestEncoding too. The cassettes read
// every recorded query and form as UTF-8: the Latin-1 value became U+FFFD
// and no replayed call matched the mock's reading.
func TestReplayInRequestEncoding(t *testing.T) {
	t.Parallel()
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	path, city, answers, up := recordLatin1Calls(t)
	up.Close() // from here on, answers can only come from the cassette

	legacy := replayServer(t, []string{path}, []cassettes.IndexOption{cassettes.WithRequestEncoding(latin1)}, mockserver.WithRequestEncoding("iso-8859-1"))
	plain := replayServer(t, []string{path}, nil)
	for n, c := range latin1Calls {
		if status, got := c.send(t, legacy.URL, city); status != http.StatusOK || got != answers[n] {
			t.Errorf("%s, replayed with iso-8859-1: %d %.300q, want the recorded answer", c.name, status, got)
		}
		if c.ct == latin1Calls[2].ct {
			if status, got := c.send(t, plain.URL, city); status != http.StatusOK || got != answers[n] {
				t.Errorf("%s, replayed with utf-8: %d %.300q, want the recorded answer (the form names its charset)", c.name, status, got)
			}
		}
	}
}

// TestOnMissUpstreamInRequestEncoding: a mock of requestEncoding
// iso-8859-1 that forwards its misses (WithUpstream) asks the deployment
// in that encoding, so the deployment reads the value the app sent: the
// call was written again with UTF-8 escapes, which the deployment read as
// "rue de l'Ã\u0089glise".
func TestOnMissUpstreamInRequestEncoding(t *testing.T) {
	t.Parallel()
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	ds, h, up := latin1Deployment(t)
	idx, err := cassettes.LoadIndex(nil, cassettes.WithRequestEncoding(latin1),
		cassettes.WithUpstream(cassettes.Upstream{URL: up.URL, Record: filepath.Join(t.TempDir(), "latin1.yaml")}))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	rh, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithRequestEncoding("iso-8859-1"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rh)
	defer srv.Close()
	for _, c := range latin1Calls[:2] {
		if status, body := c.send(t, srv.URL, ds.ATMs[0].Address.City); status != http.StatusOK {
			t.Errorf("%s: %d %.300s", c.name, status, body)
		}
	}
	got := h.Journal(mockserver.RequestFilter{})
	if len(got) == 0 {
		t.Fatal("the deployment got no call")
	}
	for _, e := range got {
		if e.Params[asmx.ParamAddress] != latin1Address {
			t.Errorf("the deployment read strAddress %q (%s), want %q", e.Params[asmx.ParamAddress], e.Method, latin1Address)
		}
	}
}

// TestListInRequestEncoding: List (and EntryOf) read the calls recorded
// from a deployment whose requestEncoding is iso-8859-1 as a mock
// replaying them with cassettes.WithRequestEncoding reads them: the
// strAddress the deployment read, rue de l'Église. By default they are
// read in UTF-8, the Latin-1 byte as U+FFFD, and Entry.NotUTF8 tells the
// calls whose query or form names no charset; the form naming
// charset=iso-8859-1 is read in it either way. List read every recorded
// query and form in UTF-8: "rue de l'\uFFFDglise", whatever the encoding.
// Recordings (shape learn's reading) reads them as List does; it took no
// encoding and read them in UTF-8.
func TestListInRequestEncoding(t *testing.T) {
	t.Parallel()
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	path, _, _, _ := recordLatin1Calls(t)
	replaced := strings.ReplaceAll(latin1Address, "É", "\uFFFD")
	for _, r := range []struct {
		name string
		opts []cassettes.IndexOption
		want []string // strAddress of each of latin1Calls
	}{
		{"the default, UTF-8", nil, []string{replaced, replaced, latin1Address}},
		{"utf-8", []cassettes.IndexOption{cassettes.WithRequestEncoding(asmx.RequestEncodingUTF8)}, []string{replaced, replaced, latin1Address}},
		{"iso-8859-1", []cassettes.IndexOption{cassettes.WithRequestEncoding(latin1)}, []string{latin1Address, latin1Address, latin1Address}},
	} {
		entries, err := cassettes.List(path, r.opts...)
		if err != nil {
			t.Fatal(err)
		}
		list := readCassette(t, path)
		recs, err := cassettes.Recordings(path, r.opts...) // shape learn's reading
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != len(latin1Calls) || len(list) != len(latin1Calls) || len(recs) != len(latin1Calls) {
			t.Fatalf("%s: %d entries, %d interactions, want %d", r.name, len(entries), len(list), len(latin1Calls))
		}
		for n, e := range entries {
			c := latin1Calls[n]
			got := ""
			for _, p := range e.Params {
				if p[0] == asmx.ParamAddress {
					got = p[1]
				}
			}
			if notUTF8 := c.ct != latin1Calls[2].ct; got != r.want[n] || e.NotUTF8 != notUTF8 {
				t.Errorf("%s: %s: strAddress %q, NotUTF8 %v; want %q and %v", r.name, c.name, got, e.NotUTF8, r.want[n], notUTF8)
			}
			if one := cassettes.EntryOf(list[n], r.opts...); !slices.Equal(one.Params, e.Params) || one.NotUTF8 != e.NotUTF8 {
				t.Errorf("%s: %s: EntryOf %v %v, List %v %v", r.name, c.name, one.Params, one.NotUTF8, e.Params, e.NotUTF8)
			}
			if rec := recs[n].Entry; !slices.Equal(rec.Params, e.Params) || rec.NotUTF8 != e.NotUTF8 {
				t.Errorf("%s: %s: Recordings %v %v, List %v %v", r.name, c.name, rec.Params, rec.NotUTF8, e.Params, e.NotUTF8)
			}
		}
	}
}
