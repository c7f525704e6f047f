package main

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestRecordManyClients: 32 clients at once through atmkit record, each
// call distinct (three bindings, its own city) and each sent twice: every
// call is recorded once, none lost and none doubled; each progress line
// names the interaction the cassette holds at the ID it prints (under
// concurrency, a line used to take the ID of another call); go-vcr loads
// the file, and atmkit serve --replay answers every call as the upstream
// did.
func TestRecordManyClients(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	path := filepath.Join(t.TempDir(), "many.yaml")
	const clients, each = 32, 12
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0", "--progress", strconv.Itoa(clients*each), "--save-interval", "5ms")
	bindings := []string{"get", "post", "soap11"}
	call := func(base string, n int) (string, error) {
		var req *http.Request
		var err error
		switch bindings[n%len(bindings)] {
		case "get":
			req, err = http.NewRequest(http.MethodGet, fmt.Sprintf("%s/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=%s&intCityID=%d", base, leakKey, n), nil)
		case "post":
			req, err = http.NewRequest(http.MethodPost, base+"/service/service.asmx/ReturnAtmSearchByCity", strings.NewReader(fmt.Sprintf("strAtmServiceKey=%s&intCityID=%d", leakKey, n)))
			if err == nil {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
		default:
			req, err = http.NewRequest(http.MethodPost, base+"/service/service.asmx", strings.NewReader(fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?>`+
				`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnAtmSearchByCity xmlns="http://tempuri.org/atmService">`+
				`<strAtmServiceKey>%s</strAtmServiceKey><intCityID>%d</intCityID></ReturnAtmSearchByCity></soap:Body></soap:Envelope>`, leakKey, n)))
			if err == nil {
				req.Header.Set("Content-Type", "text/xml; charset=utf-8")
				req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnAtmSearchByCity"`)
			}
		}
		if err != nil {
			return "", err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, b), err
	}
	answers := make([]string, clients*each)
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 2 { // each call twice: the second is a repeat
				for k := range each {
					n := c*each + k
					got, err := call(r.base, n)
					if err == nil && round == 1 && got != answers[n] {
						err = fmt.Errorf("call %d answered otherwise the second time", n)
					}
					if err != nil {
						errs <- err
						return
					}
					answers[n] = got
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s", code, r.stderr)
	}
	c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatalf("go-vcr cannot load the cassette: %v", err)
	}
	if len(c.Interactions) != clients*each {
		t.Errorf("cassette: %d interactions, want %d (one per distinct call)", len(c.Interactions), clients*each)
	}
	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for j, i := range list {
		q := i.Request.Method + " " + i.Request.URL + " " + i.Request.Body
		if first, ok := seen[q]; ok {
			t.Errorf("interactions %d and %d are the same call: %s", first, j, q)
		}
		seen[q] = j
	}
	line := regexp.MustCompile(`atmkit: recorded #(\d+) (\S+) over (\S+): (\d+)`)
	printed := line.FindAllStringSubmatch(r.stderr.String(), -1)
	if len(printed) != len(list) {
		t.Errorf("%d progress lines, want one per interaction (%d)", len(printed), len(list))
	}
	wrong := 0
	for _, m := range printed {
		id, _ := strconv.Atoi(m[1])
		if id >= len(list) {
			t.Errorf("progress line %q: no interaction #%d", m[0], id)
			continue
		}
		if e := cassettes.EntryOf(list[id]); e.Operation != m[2] || e.Binding != m[3] || strconv.Itoa(e.Status) != m[4] {
			wrong++
			if wrong <= 3 {
				t.Errorf("progress line %q names interaction #%d, which is %s over %s: %d", m[0], id, e.Operation, e.Binding, e.Status)
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d progress lines name another interaction's ID", wrong, len(printed))
	}
	noLeak(t, "the cassette", readText(t, path))
	noLeak(t, "record's output", r.stdout.String()+r.stderr.String())

	s := startCmd(t, nil, "serve", "--replay", path, "--addr", "127.0.0.1:0")
	for n, want := range answers {
		if got, err := call(s.base, n); err != nil || got != want {
			t.Fatalf("call %d replayed: %v %.300q\nwant %.300q", n, err, got, want)
		}
	}
}
