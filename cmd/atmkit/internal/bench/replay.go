package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// Replay at scale (issue 6): a cassette of 10,000 interactions serves at
// least replayScaleTarget of the throughput of one of 10. DefaultReplaySizes
// are the sizes of ReplaySizes when it is empty.
const (
	DefaultReplaySizes = "10,10000"
	replayScaleTarget  = 0.8
	// maxReplaySize bounds --replay-sizes: the fillers' grid has a million
	// points, and a cassette holds about 1.8 KB per interaction.
	maxReplaySize = 1_000_000
)

// parseSizes reads a list of sizes (flag names it in errors): at least two
// different numbers from 1 to most, comma-separated, returned smallest
// first; def when s is empty. what says what they count.
func parseSizes(flag, s, def, what string, most int) ([]int, error) {
	if s == "" {
		s = def
	}
	var sizes []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > most {
			return nil, usagef("%s %q: want %s from 1 to %d, comma-separated", flag, s, what, most)
		}
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	if len(sizes) < 2 {
		return nil, usagef("%s %q: want at least two different sizes", flag, s)
	}
	return sizes, nil
}

// replayScale records a cassette of each size into a temporary
// directory, from a live in-process mock through a cassettes.Recorder, and
// starts a mock replaying each (as atmkit serve --replay does, misses
// answered with a fault). It returns one target per size, smallest first,
// and their answer to req, which must be the same from every one.
func replayScale(ctx context.Context, cfg Config, ds *fixtures.Dataset, op *asmx.Operation, b asmx.Binding,
	req loadgen.Request, sizes []int, report *Report, cleanup *cleanups) ([]*target, *loadgen.Response, error) {
	values := maps.Clone(report.Params)
	values[asmx.ParamKey] = cfg.Key
	measured, e := asmx.NewCall(op, b, values)
	if e != nil {
		return nil, nil, fmt.Errorf("bench: the call measured: %s", e.Fault)
	}
	dir, err := os.MkdirTemp("", "atmkit-bench-replay-")
	if err != nil {
		return nil, nil, fmt.Errorf("bench: directory for the cassettes: %w", err)
	}
	cleanup.add(func() { _ = os.RemoveAll(dir) })

	// The live mock the cassettes are recorded from; closed once they are.
	live, err := startMock(ctx, mockserver.WithDataset(ds), mockserver.WithNamespace(cfg.Namespace))
	if err != nil {
		return nil, nil, err
	}
	defer live.Close()

	var targets []*target
	var want *loadgen.Response
	for _, n := range sizes {
		name := fmt.Sprintf("replay-%d", n)
		path := filepath.Join(dir, name+".yaml")
		start := time.Now()
		if err := recordReplayCassette(ctx, path, live.URL, n, req, measured.Canonical(), cfg.Namespace, cfg.Log); err != nil {
			return nil, nil, fmt.Errorf("bench: %w", err)
		}
		recorded := time.Since(start)
		idx, err := cassettes.LoadIndexContext(ctx, []string{path})
		if err != nil {
			return nil, nil, fmt.Errorf("bench: %w", err)
		}
		cleanup.add(func() { _ = idx.Close() })
		st := idx.Stats()
		if st.Calls != n || st.Answers != n {
			return nil, nil, fmt.Errorf("bench: cassette of %d interactions: %d calls indexed, %d answers", n, st.Calls, st.Answers)
		}
		c := Cassette{Server: name, Files: st.Files, Interactions: st.Interactions, Calls: st.Calls,
			RecordSec: round1(recorded.Seconds())}
		if fi, err := os.Stat(path); err == nil {
			c.Bytes = fi.Size()
		}
		report.Cassettes = append(report.Cassettes, c)

		srv, err := startMock(ctx, mockserver.WithDataset(ds), mockserver.WithNamespace(cfg.Namespace),
			mockserver.WithReplay(idx, mockserver.MissFault))
		if err != nil {
			return nil, nil, err
		}
		cleanup.add(func() { _ = srv.Close() })
		got, err := fetch(ctx, name, at(req, srv.URL))
		if err != nil {
			return nil, nil, err
		}
		if want == nil {
			want = got
		} else if !bytes.Equal(got.Body, want.Body) {
			return nil, nil, fmt.Errorf("bench: %s and %s answer the call differently (%d and %d bytes)",
				targets[0].name, name, len(want.Body), len(got.Body))
		}
		targets = append(targets, &target{name: name, url: srv.URL, warmup: cfg.Warmup})
	}
	return targets, want, nil
}

// recordReplayCassette records a cassette of n interactions at path the way
// atmkit record does: through a cassettes.Recorder (every answer recorded,
// the key scrubbed, the file written atomically) whose transport reaches
// the live mock at base. Halfway through it holds the call measured, req;
// the others are distinct calls (fillers) in turn in the five bindings.
// Progress goes to progress once recording has taken a second.
func recordReplayCassette(ctx context.Context, path, base string, n int, req loadgen.Request, canonical, ns string, progress io.Writer) error {
	tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}
	defer tr.CloseIdleConnections()
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithTransport(tr),
		cassettes.WithSaveInterval(time.Hour)) // written once, by Stop
	if err != nil {
		return fmt.Errorf("record %s: %w", path, err)
	}
	client := rec.Client()
	start, shown := time.Now(), time.Now()
	fillers := newFillers(canonical, ns)
	for i := 0; i < n; i++ {
		r := req
		if i != n/2 {
			r = fillers.next()
		}
		if err := recordOne(ctx, client, at(r, base)); err != nil {
			_ = rec.Stop()
			return fmt.Errorf("record %s: interaction %d: %w", path, i, err)
		}
		if now := time.Now(); now.Sub(shown) >= time.Second {
			shown = now
			fmt.Fprintf(progress, "atmkit bench: recording a cassette of %d interactions: %d done\n", n, i+1)
		}
	}
	if time.Since(start) >= time.Second {
		fmt.Fprintf(progress, "atmkit bench: writing the cassette of %d interactions\n", n)
	}
	if err := rec.Stop(); err != nil {
		return fmt.Errorf("record %s: %w", path, err)
	}
	if got := rec.Len(); got != n {
		return fmt.Errorf("record %s: %d interactions kept of %d sent", path, got, n)
	}
	if d := time.Since(start); d >= time.Second {
		fmt.Fprintf(progress, "atmkit bench: recorded a cassette of %d interactions in %s\n", n, d.Round(100*time.Millisecond))
	}
	return nil
}

// recordOne sends req through client and reads the answer, which must be a 200.
func recordOne(ctx context.Context, client *http.Client, req loadgen.Request) error {
	hr, err := req.NewHTTPRequest()
	if err != nil {
		return err
	}
	resp, err := client.Do(hr.WithContext(ctx))
	if err != nil {
		return err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s answered %d: %.300s", req.Method, req.URL, resp.StatusCode, body)
	}
	return nil
}

// fillers makes the other calls of a --replay-scale cassette:
// coordinate searches within 1 km of points on a grid of a million (0.001°
// apart) in the South Atlantic, far from any ATM of a data set of Canada, so
// each has its own small answer (the point searched, no location). The
// bindings take turns. A filler asking the very question measured is skipped.
type fillers struct {
	op       *asmx.Operation
	ns       string
	measured string // Canonical of the call measured
	i        int
	bindings []asmx.Binding
}

func newFillers(measured, ns string) *fillers {
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)
	return &fillers{op: op, ns: ns, measured: measured,
		bindings: []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost, asmx.JSON}}
}

// next returns the next filler's request, its URL a path.
func (g *fillers) next() loadgen.Request {
	for {
		i := g.i
		g.i++
		lat, lon := 30_000+i/1000, 1_000+i%1000 // thousandths of a degree: 30°S to 31°S, 1°W to 2°W
		values := map[string]string{
			asmx.ParamKey:        "bench",
			asmx.ParamPostalCode: "",
			asmx.ParamLatitude:   fmt.Sprintf("-%d.%03d", lat/1000, lat%1000),
			asmx.ParamLongitude:  fmt.Sprintf("-%d.%03d", lon/1000, lon%1000),
			asmx.ParamRadius:     "1",
		}
		b := g.bindings[i%len(g.bindings)]
		if c, e := asmx.NewCall(g.op, b, values); e == nil && c.Canonical() == g.measured {
			continue
		}
		params := make([][2]string, len(g.op.Params))
		for j, p := range g.op.Params {
			params[j] = [2]string{p.Name, values[p.Name]}
		}
		return callRequest(b, g.ns, g.op.Name, params)
	}
}
