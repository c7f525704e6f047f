package mockserver

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// serveHelpOracle writes the help page of op ("" for the list) as the
// server wrote it before it cut pages (help_cut.go): rendered for the
// request.
func (s *Server) serveHelpOracle(w http.ResponseWriter, r *http.Request, name string) {
	if name == "" {
		s.writeHelp(w, http.StatusOK, "index", map[string]any{
			"Service": s.helpServiceName(),
			"Self":    selfRef(r),
			"NS":      s.cfg.namespace,
			"Ops":     asmx.Operations(),
		})
		return
	}
	op, _ := asmx.LookupOperation(name)
	params := make([]helpParam, 0, len(op.Params))
	for _, p := range op.Params {
		params = append(params, helpParam{p.Name, p.Type.XSD()})
	}
	s.writeHelp(w, http.StatusOK, "operation", map[string]any{
		"Service": s.helpServiceName(),
		"Self":    selfRef(r),
		"Op":      op,
		"Params":  params,
		"Samples": samples(op, s.cfg.namespace, withoutPort(hostOf(r)), s.enc.shape.Result(op.Name)),
	})
}

// TestHelpPagesCutAsRendered: for random hosts and paths, plain and
// hostile (quotes, '<', '&', '+', ſ, a namespace holding a mark), every
// help page the server splices is the page it rendered before, header and
// body.
func TestHelpPagesCutAsRendered(t *testing.T) {
	t.Parallel()
	plain, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	marked, err := New(WithDataset(smallDataset()), WithNamespace("urn:"+helpMarks[0][0]+":"+helpMarks[0][1]), WithServiceName("Atm_x0020_"+helpMarks[0][0]))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(170, 2))
	hostBytes := []string{"a", "Z", "0", "9", ".", ":", "[", "]", "-", "_", "'", `"`, "<", ">", "&", "+", " ", "ſ", "%", "é"}
	segs := []string{"service.asmx", "Service.ASMX", "ſervice.asmx", "other.asmx", "service.asmx/", "x"}
	names := []string{""}
	for _, op := range asmx.Operations() {
		names = append(names, op.Name)
	}
	for i := range 3000 {
		var host bytes.Buffer
		for range rng.IntN(12) {
			host.WriteString(hostBytes[rng.IntN(len(hostBytes))])
		}
		s := plain
		if i%5 == 0 {
			s = marked
		}
		r := httptest.NewRequest(http.MethodGet, "http://h/service/"+segs[rng.IntN(len(segs))], nil)
		r.Host = host.String()
		name := names[rng.IntN(len(names))]
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		if name == "" {
			s.serveHelpIndex(got, r)
		} else {
			op, _ := asmx.LookupOperation(name)
			s.serveOperationHelp(got, r, op.Name)
		}
		s.serveHelpOracle(want, r, name)
		if got.Code != want.Code || fmt.Sprint(got.Header()) != fmt.Sprint(want.Header()) || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
			t.Fatalf("op %q, host %q, path %q: got %d %v\n%s\nwant %d %v\n%s", name, r.Host, r.URL.Path,
				got.Code, got.Header(), got.Body, want.Code, want.Header(), want.Body)
		}
	}
}
