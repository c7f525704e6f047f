package cassettes_test

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestListSweepsKeysAcrossInteractions lists a raw cassette (recorded
// elsewhere, never scrubbed) in which one call carries the key and other
// interactions hold it where they carry no key: a request to
// .../service.asmx/KEY and a call sending it as another parameter's value.
// What List returns (what `atmkit cassette list` prints) holds no form of
// it: List scrubbed each request alone, which found no key in those, and
// printed them as recorded.
func TestListSweepsKeysAcrossInteractions(t *testing.T) {
	t.Parallel()
	svc := "http://h" + asmx.ServicePath
	call := interaction("GET", svc+"/ReturnProvinces?strAtmServiceKey="+url.QueryEscape(testKey), "", "")
	call.Response = cassette.Response{Code: 200, Body: "<ArrayOfProvince/>", Headers: http.Header{}}
	beside := interaction("GET", svc+"/"+url.PathEscape(testKey), "", "")
	param := interaction("GET", svc+"/ReturnAtmSearchByCoordinates?strAtmServiceKey=wrong-key-77&strPostalCode="+url.QueryEscape(testKey)+
		"&dblLatitude=44.6&dblLongitude=-63.5&bytRadius=5", "", "")
	path := filepath.Join(t.TempDir(), "raw.yaml")
	writeCassette(t, path, []*cassette.Interaction{beside, param, call}) // the key's call last: swept all the same
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("List: got %d entries, want 3", len(entries))
	}
	for _, e := range entries {
		shown := fmt.Sprint(e.Operation, e.Params)
		for _, f := range []string{testKey, url.QueryEscape(testKey), url.PathEscape(testKey), "s3cr3t"} {
			if strings.Contains(shown, f) {
				t.Errorf("entry %s shows the key as %q: %s", e.Name, f, shown)
			}
		}
	}
	if got, want := entries[0].Operation, "GET "+asmx.ServicePath+"/"+cassettes.Placeholder; got != want {
		t.Errorf("the request beside: got %q, want %q", got, want)
	}
	if got, want := fmt.Sprint(entries[1].Params), "[[strPostalCode "+cassettes.Placeholder+"] [dblLatitude 44.6] [dblLongitude -63.5] [bytRadius 5]]"; got != want {
		t.Errorf("the parameters: got %s, want %s", got, want)
	}
}

// TestListMasksPathKeys lists a cassette whose requests carry a key in the
// path after the .asmx file where no call carries it (no call answered
// 200 with it): each segment there that names no operation shows as
// REDACTED, as atmkit record's progress lines and cassette verify show it;
// a segment naming an operation, the script proxy's js and the query stay.
func TestListMasksPathKeys(t *testing.T) {
	t.Parallel()
	const pathKey = "s3cr3t-KEY-4242"
	svc := "http://h" + asmx.ServicePath
	path := filepath.Join(t.TempDir(), "pathkeys.yaml")
	writeCassette(t, path, []*cassette.Interaction{
		interaction("GET", svc+"/"+pathKey, "", ""),
		interaction("GET", svc+"/ReturnProvinces/"+url.PathEscape(pathKey)+"?x=1", "", ""),
		interaction("GET", svc+"/js", "", ""),
		interaction("GET", svc+"?WSDL", "", ""),
	})
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Operation)
	}
	want := []string{
		"GET " + asmx.ServicePath + "/" + cassettes.Placeholder,
		"GET " + asmx.ServicePath + "/ReturnProvinces/" + cassettes.Placeholder + "?x=1",
		"GET " + asmx.ServicePath + "/js",
		"GET " + asmx.ServicePath + "?WSDL",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("List shows %q, want %q", got, want)
	}
}
