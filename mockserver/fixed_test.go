package mockserver

import (
	"bytes"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

var fixedOps = []string{asmx.OpReturnAllAtms, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}

// serveFixed answers op in binding b from s, in process.
func serveFixed(t *testing.T, s *Server, b asmx.Binding, op string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, newBenchRequest(b, op).reset())
	if rec.Code != 200 {
		t.Fatalf("%s %s: got status %d, want 200: %.300s", b, op, rec.Code, rec.Body)
	}
	if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(rec.Body.Len()); got != want {
		t.Errorf("%s %s: Content-Length: got %q, want %q", b, op, got, want)
	}
	return rec
}

// TestFixedAnswersUncached checks that a fixed answer too large for the
// cache's budget, encoded and streamed on every request, is byte for byte
// the cached answer, in every XML binding.
func TestFixedAnswersUncached(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	cached, err := New(WithDataset(ds), WithNamespace(testNS))
	if err != nil {
		t.Fatal(err)
	}
	uncached, err := New(WithDataset(ds), WithNamespace(testNS))
	if err != nil {
		t.Fatal(err)
	}
	uncached.fixedLeft.Store(0) // nothing fits
	for _, op := range fixedOps {
		for _, b := range asmx.XMLBindings {
			want := serveFixed(t, cached, b, op)
			o, _ := asmx.LookupOperation(op)
			c, e := asmx.NewCall(o, b, map[string]string{asmx.ParamKey: "k"})
			if e != nil {
				t.Fatal(e.Fault)
			}
			if whole := cached.appendResponse(nil, c); !bytes.Equal(want.Body.Bytes(), whole) {
				t.Errorf("%s %s: the cached body (%d bytes) differs from the body encoded whole (%d bytes)",
					b, op, want.Body.Len(), len(whole))
			}
			for i := range 2 { // the first request learns the length
				got := serveFixed(t, uncached, b, op)
				if !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
					t.Errorf("%s %s, request %d: the uncached body (%d bytes) differs from the cached one (%d bytes)",
						b, op, i+1, got.Body.Len(), want.Body.Len())
				}
				for _, h := range []string{"Content-Type", "Content-Length"} {
					if g, w := got.Header().Get(h), want.Header().Get(h); g != w {
						t.Errorf("%s %s: %s: got %q, want %q", b, op, h, g, w)
					}
				}
			}
			if f := cached.fixed[fixedKey{op, b}]; f.body == nil {
				t.Errorf("%s %s: not cached with the whole budget", b, op)
			}
			if f := uncached.fixed[fixedKey{op, b}]; f.body != nil {
				t.Errorf("%s %s: cached with no budget", b, op)
			}
		}
	}
	if got := uncached.fixedLeft.Load(); got != 0 {
		t.Errorf("budget left: got %d, want 0", got)
	}
}

// TestFixedAnswersBudget checks that the budget keeps the small answers and
// streams the one that does not fit: ReturnAllAtms of the embedded data set
// (about 2 MB) with room for less than that.
func TestFixedAnswersBudget(t *testing.T) {
	t.Parallel()
	s, err := New(WithNamespace(testNS))
	if err != nil {
		t.Fatal(err)
	}
	const budget = 1 << 20
	s.fixedLeft.Store(budget)
	small := serveFixed(t, s, asmx.SOAP11, asmx.OpReturnProvinces)
	all := serveFixed(t, s, asmx.SOAP11, asmx.OpReturnAllAtms)
	if all.Body.Len() <= budget {
		t.Fatalf("ReturnAllAtms is %d bytes, want more than the budget %d for this test", all.Body.Len(), budget)
	}
	if f := s.fixed[fixedKey{asmx.OpReturnProvinces, asmx.SOAP11}]; f.body == nil {
		t.Errorf("ReturnProvinces (%d bytes): not cached", small.Body.Len())
	}
	if f := s.fixed[fixedKey{asmx.OpReturnAllAtms, asmx.SOAP11}]; f.body != nil {
		t.Errorf("ReturnAllAtms: cached (%d bytes) over a budget of %d", len(f.body), budget)
	}
	if left := s.fixedLeft.Load(); left < 0 || left > budget-int64(small.Body.Len()) {
		t.Errorf("budget left: got %d, want between 0 and %d", left, budget-small.Body.Len())
	}
}

// BenchmarkFixedUncached is ReturnAllAtms encoded and streamed per request,
// against BenchmarkHandler/AllAtms, which serves it from the cache.
func BenchmarkFixedUncached(b *testing.B) {
	s := benchServer(b, nil)
	s.fixedLeft.Store(0)
	br := newBenchRequest(asmx.SOAP11, asmx.OpReturnAllAtms)
	w := &discardWriter{h: map[string][]string{}}
	s.ServeHTTP(w, br.reset())
	b.SetBytes(int64(w.n))
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		s.ServeHTTP(w, br.reset())
	}
}
