package cassettes_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestRecordNameSpellings records calls that name the key's parameter
// with a dotless ı (strAtmServıceKey) or a long s (ſtrAtmServiceKey),
// percent-encoded in a query or raw in a form: the mock, as ASMX's
// OrdinalIgnoreCase does, reads either as strAtmServiceKey and answers
// 200. The cassette holds no key: the ı spelling was kept as sent, in the
// request and in the answer that echoed it.
func TestRecordNameSpellings(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "spellings.yaml")
	rec, proxy := recordingProxy(t, up.URL, path)
	base := proxy.URL + asmx.ServicePath + "/ReturnProvinces"
	var reqs []*http.Request
	for _, q := range []string{"strAtmServ%C4%B1ceKey=", "%C5%BFtrAtmServiceKey=", "strAtmServ%u0131ceKey=", "STRATM%C5%BFERV%C4%B1CEKEY="} {
		reqs = append(reqs, mustGet(t, base+"?"+q+testKey))
	}
	form, err := http.NewRequest("POST", base, strings.NewReader("strAtmServ\u0131ceKey="+testKey))
	if err != nil {
		t.Fatal(err)
	}
	form.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// A path that names the parameter: the mock's error echoes it.
	echo := mustGet(t, base+"/strAtmServ%C4%B1ceKey="+testKey)
	reqs = append(reqs, form, echo)
	for _, req := range reqs {
		status, body := do(t, proxy.Client(), req)
		if req != echo && status != http.StatusOK {
			t.Errorf("%s %s: status %d, want 200 (the mock reads the name as the key's): %.200s", req.Method, req.URL, status, body)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "REDACTED"); n < len(reqs) {
		t.Errorf("the cassette holds %d placeholders, want %d or more:\n%s", n, len(reqs), b)
	}
}
