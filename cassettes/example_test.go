package cassettes_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// A Go test records its client's calls once, then replays them on every
// later run, with no network and no service key in the cassette.
func Example() {
	live, _ := mockserver.New() // stands in for the real deployment here
	srv := httptest.NewServer(live)
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "provinces") // .yaml is appended

	get := func(rec *cassettes.Recorder) string {
		resp, err := rec.Client().Get(srv.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=my-secret-key")
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, b)
	}

	rec, _ := cassettes.New(path) // ModeRecordOnce: no cassette yet, so it records
	recorded := get(rec)
	_ = rec.Stop()
	fmt.Println("recorded:", recorded[:3])

	srv.Close() // from now on only the cassette answers
	rec, _ = cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	defer rec.Stop()
	fmt.Println("replayed the same answer:", get(rec) == recorded)

	b, _ := os.ReadFile(path + ".yaml")
	fmt.Println("key in cassette:", strings.Contains(string(b), "my-secret-key"))
	// Output:
	// recorded: 200
	// replayed the same answer: true
	// key in cassette: false
}

// An Index serves a mock server's calls from cassettes, in any XML binding.
func ExampleLoadIndex() {
	idx, err := cassettes.LoadIndex([]string{"testdata/golden.yaml"})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	rr := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=k&intCityID=202", nil)
	srv.ServeHTTP(rr, req)
	fmt.Println(rr.Code, rr.Header().Get("Content-Type"))
	// Output:
	// 200 text/xml; charset=utf-8
}

// List prints what a cassette holds.
func ExampleList() {
	entries, _ := cassettes.List("testdata/golden")
	for _, e := range entries {
		fmt.Println(e.ID, e.Binding, e.Operation, e.Params, e.Status)
	}
	// Output:
	// 0 soap12 ReturnAtmSearchByCity [[intCityID 202]] 200
	// 1 json ReturnAtmSearchByCoordinates [[strPostalCode ] [dblLatitude 44.709777] [dblLongitude -63.571423] [bytRadius 1]] 200
	// 2 get ReturnProvinces [] 200
}

// The recording proxy of atmkit record: an app calls the deployment through
// it, in any binding, and every exchange lands in the cassette, scrubbed.
func ExampleNewProxy() {
	live, _ := mockserver.New() // stands in for the real deployment here
	upstream := httptest.NewServer(live)
	defer upstream.Close()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "session")

	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := url.Parse(upstream.URL)
	proxy := httptest.NewServer(cassettes.NewProxy(u, rec, nil))
	defer proxy.Close()

	body := `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>
<ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>my-secret-key</strAtmServiceKey></ReturnProvinces>
</soap:Body></soap:Envelope>`
	req, _ := http.NewRequest(http.MethodPost, proxy.URL+"/service/service.asmx", strings.NewReader(body))
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnProvinces"`)
	resp, err := proxy.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	fmt.Println("answer:", resp.StatusCode)
	if err := rec.Stop(); err != nil {
		fmt.Println(err)
		return
	}

	entries, _ := cassettes.List(path)
	for _, e := range entries {
		fmt.Println(e.Binding, e.Operation, e.Status)
	}
	b, _ := os.ReadFile(path + ".yaml")
	fmt.Println("key in cassette:", strings.Contains(string(b), "my-secret-key"))
	// Output:
	// answer: 200
	// soap11 ReturnProvinces 200
	// key in cassette: false
}
