package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
)

// Data-set scale (issue 14): at 1,000,000 ATMs the 10 nearest ATMs within
// 25 km of a Halifax postal code answer at least atmsScaleTarget of their
// throughput at 10,000, and the serving process's peak resident memory
// (VmHWM) under that load stays under atmsScaleRSSTargetMB. DefaultAtmsSizes
// are the sizes of AtmsSizes when it is empty.
const (
	DefaultAtmsSizes = "10000,1000000"
	atmsScaleTarget  = 0.8
	// atmsScaleRSSTargetMB applies to the servers of data sets of up to
	// atmsScaleRSSUpTo ATMs.
	atmsScaleRSSTargetMB = 1000
	atmsScaleRSSUpTo     = 1_000_000
	// atmsScaleConns is -c unless given: the 16 connections.
	atmsScaleConns = 16
	// atmsScaleStart bounds how long a server may take to load its data set.
	atmsScaleStart = 10 * time.Minute
)

// The city the --atms-scale searches look around: Halifax, where the
// generated ATMs are densest.
const scaleCity, scaleProvince = "Halifax", "NS"

// runAtmsScale is atmkit bench --atms-scale: it generates a data set
// of each size (--seed) into a temporary directory, serves each from its
// own atmkit serve process (as a user would run it, so that each process's
// memory is its own), asks every one the same question in alternating
// rounds, and reports each larger against the smallest, and each server's
// resident memory after loading and at its peak.
func runAtmsScale(ctx context.Context, cfg Config) (*Report, error) {
	sizes, err := parseSizes("--atms-sizes", cfg.AtmsSizes, DefaultAtmsSizes, "numbers of ATMs", fixtures.MaxATMs)
	if err != nil {
		return nil, err
	}
	if cfg.Op == "" {
		cfg.Op = asmx.OpReturnAtmSearchByAddressWithMaximum
	}
	if cfg.Connections == 0 {
		cfg.Connections = atmsScaleConns
	}
	op, b, err := cfg.operation()
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Target != "" || len(cfg.Replay) > 0 || cfg.ReplayScale || cfg.ReplaySizes != "" || cfg.WireMock || cfg.CopyCeiling:
		return nil, usagef("--atms-scale serves its own generated data sets; not with --target, --replay, --replay-scale, --wiremock or --copy-ceiling")
	case cfg.Fixtures != "" || cfg.ATMs > 0:
		return nil, usagef("--atms-scale generates data sets of --atms-sizes ATMs; not with --fixtures or --atms")
	case cfg.CPUProfile != "":
		return nil, usagef("--cpuprofile profiles this process; --atms-scale serves from processes of their own")
	}
	if err := cfg.checkLoad(); err != nil {
		return nil, err
	}

	var cleanup cleanups
	defer cleanup.run()
	dir, err := os.MkdirTemp("", "atmkit-bench-atms-")
	if err != nil {
		return nil, fmt.Errorf("bench: directory for the data sets: %w", err)
	}
	cleanup.add(func() { _ = os.RemoveAll(dir) })
	sets, err := generateScaleSets(ctx, dir, sizes, cfg.Seed, cfg.Log)
	if err != nil {
		return nil, err
	}
	params, err := callParams(op, scaleDefaults(sets.place, cfg.Key), cfg.Params)
	if err != nil {
		return nil, err
	}
	counts := make([]string, len(sizes))
	for i, n := range sizes {
		counts[i] = strconv.Itoa(n)
	}
	report := newReport(cfg, op, b, params, fmt.Sprintf("generated, seed %d (%s ATMs)", cfg.Seed, strings.Join(counts, ", ")))
	req := callRequest(b, cfg.Namespace, op.Name, params)

	// One atmkit serve per data set; each is asked the question once to learn
	// its answer, which its rounds check.
	exe := cfg.Exe
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("bench: find the atmkit executable: %w", err)
		}
	}
	var targets []*target
	var want *loadgen.Response
	for _, n := range sizes {
		name := fmt.Sprintf("atms-%d", n)
		start := time.Now()
		child, err := startServeChild(ctx, exe, filepath.Join(dir, name), cfg.Namespace)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", name, err)
		}
		cleanup.add(child.stop)
		fmt.Fprintf(cfg.Log, "atmkit bench: %s serving after %s\n", name, time.Since(start).Round(100*time.Millisecond))
		t := &target{name: name, url: child.url, warmup: cfg.Warmup, pid: child.pid(), atms: n}
		t.rssLoaded, _, _ = procMemory(t.pid)
		got, err := fetch(ctx, name, at(req, child.url))
		if err != nil {
			return nil, err
		}
		if want == nil {
			want = got
		}
		t.body = got.Body
		targets = append(targets, t)
	}
	report.ResponseBytes = len(want.Body)
	report.Locations = countLocations(want.Body)

	fmt.Fprintf(cfg.Log, "atmkit bench: %s %s; %s, %s per server in %s\n",
		b, op.Name, plural(cfg.Connections, "connection"), cfg.Duration, plural(cfg.Rounds, "round"))
	interrupted := measure(ctx, cfg, req, want.Body, targets)
	if interrupted != nil && !errors.Is(interrupted, ErrInterrupted) {
		return nil, interrupted
	}

	rps := map[string]float64{}
	for _, t := range targets {
		r := t.total()
		rps[t.name] = r.RPS()
		res := resultOf(t, r)
		res.ATMs, res.ResponseBytes = t.atms, len(t.body)
		if rss, peak, err := procMemory(t.pid); err == nil {
			// The kernel's resident counts are approximate (kept per
			// thread and summed now and then): VmHWM read at the end
			// was seen 0.1 MB below VmRSS read earlier. The peak is at
			// least every reading.
			peak = max(peak, rss, t.rssLoaded)
			res.RSSMB, res.PeakRSSMB = megabytes(rss), megabytes(peak)
			res.RSSLoadedMB = megabytes(t.rssLoaded)
			if t.atms <= atmsScaleRSSUpTo {
				report.PeakRSSTargets[t.name] = atmsScaleRSSTargetMB
			}
		}
		report.Results = append(report.Results, res)
	}
	small := targets[0].name
	for _, t := range targets[1:] {
		if rps[small] > 0 {
			report.Ratios[t.name+"/"+small] = ratio(rps[t.name], rps[small])
			report.Targets[t.name+"/"+small] = atmsScaleTarget
		}
	}
	report.addRoundRatios(targets)
	return report.interrupted(interrupted)
}

// scaleDefaults are the default values of the parameters of --atms-scale:
// around Halifax, at most 10 ATMs; the address searches by a postal code
// alone (city and province empty) when every set knows one in Halifax, else
// by the city (whose centre is the same in every set).
func scaleDefaults(place *fixtures.Dataset, key string) map[string]string {
	d := defaultParams(place, scaleCity, scaleProvince, key)
	d[asmx.ParamMaximumAtms] = "10"
	if len(place.ATMs) > 0 {
		d[asmx.ParamPostalCode] = place.ATMs[0].Address.PostalCode
		d[asmx.ParamCity], d[asmx.ParamProvince] = "", ""
	}
	return d
}

// scaleSets are the data sets --atms-scale generated, and the place its
// searches look around.
type scaleSets struct {
	// place holds the reference lists of the smallest set (the same in
	// every set: the generator makes them whatever the size), and as its
	// only ATM the one whose postal code the address searches use, if any:
	// in Halifax, and known in every set.
	place *fixtures.Dataset
}

// generateScaleSets generates a data set of each size into dir/atms-N
// (N the size) as atmkit fixtures generate does, one at a time, and picks
// the postal code the address searches geocode: that of the first ATM (by
// id) in Halifax of the smallest set whose postal code every set knows.
func generateScaleSets(ctx context.Context, dir string, sizes []int, seed uint64, progress io.Writer) (*scaleSets, error) {
	var place *fixtures.Dataset
	var candidates []fixtures.ATM // of the smallest set, in id order
	for _, n := range sizes {
		start := time.Now()
		ds, err := fixtures.GenerateContext(ctx, fixtures.GenerateOptions{Seed: seed, ATMs: n})
		if err != nil {
			return nil, fmt.Errorf("bench: generate %d ATMs: %w", n, err)
		}
		if err := fixtures.SaveContext(ctx, filepath.Join(dir, fmt.Sprintf("atms-%d", n)), ds); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		if d := time.Since(start); d >= time.Second {
			fmt.Fprintf(progress, "atmkit bench: generated and wrote %d ATMs in %s\n", n, d.Round(100*time.Millisecond))
		}
		if place == nil {
			place = &fixtures.Dataset{Provinces: ds.Provinces, Institutions: ds.Institutions, Cities: ds.Cities}
			for _, a := range ds.ATMs {
				if a.Address.City == scaleCity && a.Address.Province == scaleProvince && strings.TrimSpace(a.Address.PostalCode) != "" {
					candidates = append(candidates, a)
				}
			}
			continue
		}
		known := map[string]bool{}
		for i := range ds.ATMs {
			known[ds.ATMs[i].Address.PostalCode] = true
		}
		candidates = slices.DeleteFunc(candidates, func(a fixtures.ATM) bool { return !known[a.Address.PostalCode] })
	}
	if len(candidates) > 0 {
		place.ATMs = candidates[:1]
	} else {
		fmt.Fprintf(progress, "atmkit bench: no postal code of %s, %s is known in every data set: the address searches look around the city\n",
			scaleCity, scaleProvince)
	}
	return &scaleSets{place: place}, nil
}

// serveChild is an atmkit serve process started by --atms-scale.
type serveChild struct {
	cmd    *exec.Cmd
	url    string
	stderr *tailWriter
	done   chan struct{} // closed when the process has exited
	// input, when set, is the child's standard input, whose end stops
	// it (stop closes it rather than send SIGINT).
	input io.Closer
}

// startServeChild runs "atmkit serve" (exe) on the data set in dir on a
// free loopback port, with no ATMKIT_* variable of this process (only the
// flags given here apply), and waits until it listens.
func startServeChild(ctx context.Context, exe, dir, ns string) (*serveChild, error) {
	cmd := exec.Command(exe, "serve", "--fixtures", dir, "--addr", "127.0.0.1:0", "--namespace", ns)
	return startChild(ctx, cmd, false, "listening on ", atmsScaleStart, "atmkit serve --fixtures "+dir, nil)
}

// startChild starts cmd, an atmkit process that serves, with no ATMKIT_*
// variable of this process but those cmd.Env already has, and waits at
// most limit until it writes a line holding listen followed by its base
// URL: on stdout, or with onStderr on stderr (the other is kept in the
// child's stderr tail or discarded). name names it in errors. input, if
// not nil, is the child's standard input: stop closes it.
func startChild(ctx context.Context, cmd *exec.Cmd, onStderr bool, listen string, limit time.Duration, name string, input io.Closer) (*serveChild, error) {
	env := cmd.Env
	cmd.Env = nil
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ATMKIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	c := &serveChild{cmd: cmd, stderr: &tailWriter{max: 4 << 10}, done: make(chan struct{}), input: input}
	var out io.ReadCloser
	var err error
	if onStderr {
		cmd.Stdout = io.Discard
		out, err = cmd.StderrPipe()
	} else {
		cmd.Stderr = c.stderr
		out, err = cmd.StdoutPipe()
	}
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	urls := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if _, u, ok := strings.Cut(lines.Text(), listen); ok {
				urls <- strings.TrimSpace(u)
				break
			}
			if onStderr {
				fmt.Fprintln(c.stderr, lines.Text())
			}
		}
		rest := io.Discard
		if onStderr {
			rest = c.stderr
		}
		_, _ = io.Copy(rest, out)
		_ = cmd.Wait()
		close(c.done)
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case c.url = <-urls:
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("%s exited: %s", name, c.stderr.String())
	case <-timer.C:
		err = fmt.Errorf("%s: not listening after %s", name, limit)
	case <-ctx.Done():
		err = ctx.Err()
	}
	c.stop()
	return nil, err
}

func (c *serveChild) pid() int { return c.cmd.Process.Pid }

// stop ends the process: SIGINT (a graceful shutdown), then a kill if it
// has not exited within 5 s. Where no SIGINT can be sent (Windows, whose
// Process.Signal takes only Kill), it kills at once instead of waiting 5 s
// for each process.
func (c *serveChild) stop() {
	select {
	case <-c.done:
		return
	default:
	}
	if c.input != nil {
		_ = c.input.Close()
	} else if err := c.cmd.Process.Signal(os.Interrupt); err != nil {
		_ = c.cmd.Process.Kill()
	}
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	mu  sync.Mutex // guards b
	b   []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if over := len(w.b) - w.max; over > 0 {
		w.b = append(w.b[:0], w.b[over:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.b))
}

// errNoProc is procMemory's error where /proc does not tell.
var errNoProc = errors.New("resident memory is read from /proc, on Linux only")

// procMemory reads a process's resident memory (VmRSS) and its peak
// (VmHWM), in bytes, from /proc.
func procMemory(pid int) (rss, peak int64, err error) {
	if runtime.GOOS != "linux" {
		return 0, 0, errNoProc
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("resident memory of process %d: %w", pid, err)
	}
	for line := range bytes.Lines(status) {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "VmRSS":
			dst = &rss
		case "VmHWM":
			dst = &peak
		default:
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(value), []byte("kB")))), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("resident memory of process %d: %q: %w", pid, line, err)
		}
		*dst = kb << 10
	}
	if peak == 0 {
		return 0, 0, fmt.Errorf("resident memory of process %d: no VmHWM in its status", pid)
	}
	return rss, peak, nil
}

// megabytes is n bytes in MB (10^6 bytes), to one decimal.
func megabytes(n int64) float64 { return round1(float64(n) / 1e6) }
