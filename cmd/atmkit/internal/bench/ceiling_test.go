package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
)

// TestCeilingWritesTheMocksBytes: for every binding, a search, ReturnAllAtms
// (2.2 MB over GET) and ReturnProvinces, on the embedded data set, a
// --fixtures directory and an --atms data set, the ceiling (the copying
// ceiling, and a --target run's ceiling process, given the answer as its
// input) answer the very request the load generator sends with
// the bytes the mock answers it with: status line, headers (names, values,
// order, Content-Length rather than chunked), body; all but the Date's
// value.
func TestCeilingWritesTheMocksBytes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	gen, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 3, ATMs: 400})
	if err != nil {
		t.Fatal(err)
	}
	if err := fixtures.Save(dir, gen); err != nil {
		t.Fatal(err)
	}
	for _, data := range []Config{{}, {Fixtures: dir}, {ATMs: 300, Seed: 2}} {
		cfg := short(data)
		cfg.Log = io.Discard
		ds, dsName, err := cfg.dataset(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost, asmx.JSON} {
			for _, opName := range []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnAllAtms, asmx.OpReturnProvinces} {
				op, _ := asmx.LookupOperation(opName)
				if b == asmx.JSON && !op.JSON {
					continue
				}
				name := dsName + " " + b.String() + " " + opName
				params, err := callParams(op, defaultParams(ds, benchCity, benchProvince, cfg.Key), nil)
				if err != nil {
					t.Fatal(err)
				}
				req := callRequest(b, cfg.Namespace, op.Name, params)
				var cleanup cleanups
				targets, want, err := mockTargets(ctx, cfg, ds, req, &Report{}, &cleanup)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				ceiling, err := startCeiling(ctx, cfg, want, &cleanup)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				cc, err := startServer(loadgen.NewCopyingCeiling(want, max(1, countLocations(want.Body))))
				if err != nil {
					t.Fatal(err)
				}
				cleanup.add(func() { _ = cc.Close() })
				child := ceilingChildURL(t, want, &cleanup)
				mock := rawAnswer(t, at(req, targets[0].url))
				if !bytes.HasPrefix(mock, []byte("HTTP/1.1 200 OK\r\n")) {
					t.Fatalf("%s: the mock answered %.200q", name, mock)
				}
				for server, base := range map[string]string{"ceiling": ceiling, "copy-ceiling": cc.URL, "ceiling process": child} {
					if got := rawAnswer(t, at(req, base)); !bytes.Equal(got, mock) {
						i := 0
						for i < min(len(got), len(mock)) && got[i] == mock[i] {
							i++
						}
						t.Errorf("%s: the %s's %d bytes differ from the mock's %d at byte %d: %.300q, the mock %.300q",
							name, server, len(got), len(mock), i, got[max(0, i-100):], mock[max(0, i-100):])
					}
				}
				cleanup.run()
			}
		}
	}
}

// dateRE matches the value of a Date header, which changes each second.
var dateRE = regexp.MustCompile(`\r\nDate: [^\r\n]*\r\n`)

// rawAnswer sends req as the load generator writes it, on a connection of
// its own, and returns the whole response as read from the wire, its Date
// header's value blanked.
func rawAnswer(t *testing.T, req loadgen.Request) []byte {
	t.Helper()
	wire, err := req.Wire()
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(req.URL, "http://")
	host, _, _ = strings.Cut(host, "/")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write(wire); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	resp, err := http.ReadResponse(bufio.NewReader(io.TeeReader(c, &raw)), nil)
	if err != nil {
		t.Fatalf("read the answer of %s: %v", req.URL, err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatalf("read the answer of %s: %v", req.URL, err)
	}
	if n := len(dateRE.FindAll(raw.Bytes(), -1)); n != 1 {
		t.Errorf("%s: %d Date headers, want 1", req.URL, n)
	}
	return dateRE.ReplaceAll(raw.Bytes(), []byte("\r\nDate: (blanked)\r\n"))
}

// ceilingChildURL serves want as a --target run's ceiling process does
// (ServeCeilingChild, in this process), from the answer written to its
// input as startCeilingChild writes it, and returns its base URL.
func ceilingChildURL(t *testing.T, want *loadgen.Response, cleanup *cleanups) string {
	t.Helper()
	in, w := io.Pipe()
	logR, logW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeCeilingChild(context.Background(), in, logW) }()
	go func() {
		if err := json.NewEncoder(w).Encode(want); err != nil {
			t.Errorf("write the answer to the ceiling: %v", err)
		}
	}()
	line, err := bufio.NewReader(logR).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, ceilingListening) {
		t.Fatalf("ceiling process: got %q, %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, logR) }()
	cleanup.add(func() {
		_ = w.Close() // its input ends: it stops
		if err := <-done; err != nil {
			t.Errorf("ceiling process: %v", err)
		}
	})
	return strings.TrimSpace(strings.TrimPrefix(line, ceilingListening))
}
