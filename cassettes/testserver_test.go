package cassettes_test

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestReplayOption: a test server started with cassettes.Replay answers the
// recorded call in every XML binding and faults on a call never recorded.
func TestReplayOption(t *testing.T) {
	t.Parallel()
	ts := mockserver.NewTestServer(t, cassettes.Replay(t, mockserver.MissFault, "testdata/golden.yaml"))
	recorded := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "202"}}}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost} {
		status, body := do(t, http.DefaultClient, request(t, ts.URL, b, recorded, "any-key", false))
		if status != 200 || len(values(t, b, body)) == 0 {
			t.Errorf("%s recorded call: got %d %.200q, want 200 with the recorded locations", b, status, body)
		}
	}
	missing := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "999"}}}
	status, body := do(t, http.DefaultClient, request(t, ts.URL, asmx.SOAP11, missing, "any-key", false))
	if status != 500 || !strings.Contains(body, "intCityID") || !strings.Contains(body, "golden.yaml") {
		t.Errorf("call never recorded: got %d %.300q, want a fault naming the call and the nearest recording", status, body)
	}
}

// fatalTB records the first Fatalf and ends its goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestReplayOptionFailsTheTest: a missing cassette, or a file holding no
// call of the service, fails the test with the path in the message.
func TestReplayOptionFailsTheTest(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"testdata/no-such-cassette.yaml", "testdata/fuzz"} {
		tb := &fatalTB{TB: t}
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			cassettes.Replay(tb, mockserver.MissFault, path)
		}()
		wg.Wait()
		if !strings.Contains(tb.msg, path) {
			t.Errorf("Replay(%q): Fatalf %q, want it to name the problem", path, tb.msg)
		}
	}
}
