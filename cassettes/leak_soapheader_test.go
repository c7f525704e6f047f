package cassettes_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestRecorderScrubsURLsInSOAPHeaders: a SOAP call whose header holds a
// URL carrying a key (WS-Addressing's To or Action,
// .../service.asmx?strAtmServiceKey=K, its & escaped or not) is recorded
// with that key swept from it, as a Referer's is, whether or not the body
// carries the key too: ASMX does not read it there, and the file kept it.
func TestRecorderScrubsURLsInSOAPHeaders(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const other = "Other-Key-9876"
	head := map[string]string{
		"To":     `<wsa:To>http://h/service/service.asmx?strAtmServiceKey=` + other + `</wsa:To>`,
		"To &":   `<wsa:To>http://h/service/service.asmx?strAtmServiceKey=` + other + `&amp;x=1</wsa:To>`,
		"Action": `<wsa:Action>http://tempuri.org/atmService/ReturnProvinces?strAtmServiceKey=` + other + `</wsa:Action>`,
	}
	for name, h := range head {
		for _, key := range []string{testKey, ""} {
			env := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsa="http://www.w3.org/2005/08/addressing"><soap:Header>` + h +
				`</soap:Header><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService/"><strAtmServiceKey>` + key + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
			path := filepath.Join(t.TempDir(), "header.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
			if err != nil {
				t.Fatal(err)
			}
			req, err := http.NewRequest(http.MethodPost, up.URL+asmx.ServicePath, strings.NewReader(env))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "text/xml; charset=utf-8")
			req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnProvinces"`)
			do(t, rec.Client(), req)
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{testKey, other} {
				if strings.Contains(string(b), k) {
					t.Errorf("%s, key %q: the cassette holds %q", name, key, k)
				}
			}
		}
	}
}
