package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/internal/redact"
)

// Report is the outcome of a run; it is also atmkit bench --json's output.
type Report struct {
	Operation     string            `json:"operation"`
	Binding       string            `json:"binding"`
	Params        map[string]string `json:"params"`
	Locations     int               `json:"locations,omitempty"`
	ResponseBytes int               `json:"responseBytes"`
	DataSet       string            `json:"dataSet"`
	Connections   int               `json:"connections"`
	DurationSec   float64           `json:"durationSeconds"`
	Rounds        int               `json:"rounds"`
	CPUs          int               `json:"cpus"`
	// CeilingProcess says the ceiling ran in a process of its own, as the
	// target of a --target run does.
	CeilingProcess bool `json:"ceilingProcess,omitempty"`
	// Interrupted marks the partial report of a run stopped (Ctrl-C)
	// before it measured every round: the figures of the rounds until then.
	Interrupted bool               `json:"interrupted,omitempty"`
	Cassettes   []Cassette         `json:"cassettes,omitempty"`
	Results     []Result           `json:"results"`
	Ratios      map[string]float64 `json:"ratios"`
	// RoundRatios are each ratio's values round by round (the two servers
	// of a round measured one right after the other): their spread is the
	// machine's noise.
	RoundRatios map[string][]float64 `json:"roundRatios,omitempty"`
	Targets     map[string]float64   `json:"targets"`
	// PeakRSSTargets bounds servers' peak resident memory, in MB
	// (AtmsScale).
	PeakRSSTargets map[string]float64 `json:"peakRssTargetsMB,omitempty"`
}

// Cassette describes cassettes a mock replays: one recorded by
// ReplayScale, or those given with Replay.
type Cassette struct {
	Server       string  `json:"server"`
	Path         string  `json:"path,omitempty"` // Replay only: the temporary ones are gone
	Files        int     `json:"files"`
	Interactions int     `json:"interactions"`
	Calls        int     `json:"calls"`
	Bytes        int64   `json:"bytes,omitempty"`
	RecordSec    float64 `json:"recordSeconds,omitempty"`
}

// Result is one server's combined figures.
type Result struct {
	Server     string  `json:"server"`
	URL        string  `json:"url"`
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	RPS        float64 `json:"requestsPerSecond"`
	P50ms      float64 `json:"p50Ms"`
	P99ms      float64 `json:"p99Ms"`
	MaxMs      float64 `json:"maxMs"`
	FirstError string  `json:"firstError,omitempty"`

	// Of an atmkit serve process (AtmsScale): its data set's size, its
	// answer's length, and its resident memory in MB (10^6 bytes) once it
	// listened, at the end, and at its peak (VmHWM).
	ATMs          int     `json:"atms,omitempty"`
	ResponseBytes int     `json:"responseBytes,omitempty"`
	RSSLoadedMB   float64 `json:"rssLoadedMB,omitempty"`
	RSSMB         float64 `json:"rssMB,omitempty"`
	PeakRSSMB     float64 `json:"peakRssMB,omitempty"`
}

// addRoundRatios sets RoundRatios for every ratio between two of targets.
func (r *Report) addRoundRatios(targets []*target) {
	byName := map[string]*target{}
	for _, t := range targets {
		byName[t.name] = t
	}
	for k := range r.Ratios {
		a, b, _ := strings.Cut(k, "/")
		ta, tb := byName[a], byName[b]
		if ta == nil || tb == nil {
			continue
		}
		var rs []float64
		for i := range min(len(ta.runs), len(tb.runs)) {
			if d := tb.runs[i].RPS(); d > 0 {
				rs = append(rs, ratio(ta.runs[i].RPS(), d))
			}
		}
		if len(rs) > 0 {
			if r.RoundRatios == nil {
				r.RoundRatios = map[string][]float64{}
			}
			r.RoundRatios[k] = rs
		}
	}
}

// newReport starts the report of a run: what is measured, and how.
func newReport(cfg Config, op *asmx.Operation, b asmx.Binding, params [][2]string, dataSet string) *Report {
	report := &Report{Operation: op.Name, Binding: b.String(), Params: map[string]string{},
		DataSet: dataSet, Connections: cfg.Connections, DurationSec: cfg.Duration.Seconds(), Rounds: cfg.Rounds,
		CPUs: runtime.NumCPU(), Ratios: map[string]float64{}, Targets: map[string]float64{},
		PeakRSSTargets: map[string]float64{}}
	for _, p := range params {
		if p[0] != asmx.ParamKey {
			report.Params[p[0]] = p[1]
		}
	}
	return report
}

// resultOf is a target's combined figures r as reported, its URL without
// the password of --target's.
func resultOf(t *target, r loadgen.Result) Result {
	return Result{
		Server: t.name, URL: redact.URL(t.url), Requests: r.Requests, Errors: r.Errors, RPS: round1(r.RPS()),
		P50ms: ms(r.P50()), P99ms: ms(r.P99()), MaxMs: ms(r.Latency.Max()), FirstError: r.FirstError,
	}
}

// Err is the error of a run in which a server answered with errors: the
// first such server, how many and the first error; nil otherwise.
func (r *Report) Err() error {
	for _, res := range r.Results {
		if res.Errors > 0 {
			return fmt.Errorf("bench: %s: %d errors, the first: %s", res.Server, res.Errors, res.FirstError)
		}
	}
	return nil
}

// WriteJSON writes the report as indented JSON, atmkit bench --json's output.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Print writes the report as text: what was measured, a table of the
// servers' figures, then each ratio and memory bound against its target.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%s %s", r.Binding, r.Operation)
	if len(r.Params) > 0 {
		var ps []string
		for _, p := range sortedKeys(r.Params) {
			ps = append(ps, p+"="+r.Params[p])
		}
		fmt.Fprintf(w, " (%s)", strings.Join(ps, " "))
	}
	fmt.Fprintf(w, "\nresponse: %d bytes", r.ResponseBytes)
	if r.Locations > 0 {
		fmt.Fprintf(w, ", %d locations", r.Locations)
	}
	fmt.Fprintf(w, "; data set: %s\n", r.DataSet)
	for _, c := range r.Cassettes {
		fmt.Fprintf(w, "cassette of %s: %d interactions, %d calls", c.Server, c.Interactions, c.Calls)
		if c.Path != "" {
			files := "files"
			if c.Files == 1 {
				files = "file"
			}
			fmt.Fprintf(w, " in %d %s (%s)", c.Files, files, c.Path)
		}
		if c.Bytes > 0 {
			fmt.Fprintf(w, ", %s", formatBytes(c.Bytes))
		}
		if c.RecordSec > 0 {
			fmt.Fprintf(w, ", recorded in %.1fs", c.RecordSec)
		}
		fmt.Fprintln(w)
	}
	ceiling := ""
	if r.CeilingProcess {
		ceiling = "; the ceiling in a process of its own, as the target"
	}
	fmt.Fprintf(w, "load: %s, %gs per server in %s, generator in-process on %s%s\n",
		plural(r.Connections, "connection"), r.DurationSec, plural(r.Rounds, "round"), plural(r.CPUs, "CPU"), ceiling)
	if r.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED: the figures are of the rounds measured until then; no target is judged")
	}
	fmt.Fprintln(w)
	width := len("ceiling  ")
	for _, res := range r.Results {
		width = max(width, len(res.Server))
	}
	rss := slices.ContainsFunc(r.Results, func(res Result) bool { return res.PeakRSSMB > 0 })
	fmt.Fprintf(w, "%-*s %11s %9s %9s %10s %7s", width, "server", "req/s", "p50 ms", "p99 ms", "requests", "errors")
	if rss {
		fmt.Fprintf(w, " %14s %12s", "RSS loaded MB", "peak RSS MB")
	}
	fmt.Fprintln(w)
	for _, res := range r.Results {
		fmt.Fprintf(w, "%-*s %11.1f %9.3f %9.3f %10d %7d", width, res.Server, res.RPS, res.P50ms, res.P99ms, res.Requests, res.Errors)
		if rss {
			fmt.Fprintf(w, " %14.1f %12.1f", res.RSSLoadedMB, res.PeakRSSMB)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	width = 17
	for k := range r.Ratios {
		width = max(width, len(k)+1)
	}
	for _, k := range sortedKeys(r.Ratios) {
		v := r.Ratios[k]
		if t, ok := r.Targets[k]; ok {
			fmt.Fprintf(w, "%-*s %6.3f   (target >= %g: %s)\n", width, k+":", v, t, r.verdict(v >= t, "meets", "BELOW"))
		} else {
			fmt.Fprintf(w, "%-*s %6.3f   (no target)\n", width, k+":", v)
		}
		if rs := r.RoundRatios[k]; len(rs) > 1 {
			sorted := slices.Sorted(slices.Values(rs))
			fmt.Fprintf(w, "%-*s by round: %.3f to %.3f, median %.3f of %d\n", width, "", sorted[0], sorted[len(sorted)-1], median(sorted), len(sorted))
		}
	}
	for _, res := range r.Results {
		t, ok := r.PeakRSSTargets[res.Server]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "%-*s %6.0f MB (target < %g MB: %s)\n", width, "peak RSS "+res.Server+":", res.PeakRSSMB, t, r.verdict(res.PeakRSSMB < t, "meets", "ABOVE"))
	}
}

// verdict says whether a figure meets its target (ok): yes or no, or, in
// the report of an interrupted run, neither. The run was cut short: its
// figures are of part of a round, or of fewer rounds for one server than
// for another, and say nothing of the target.
func (r *Report) verdict(ok bool, yes, no string) string {
	switch {
	case r.Interrupted:
		return "not judged, interrupted"
	case ok:
		return yes
	}
	return no
}

// formatBytes writes a size in B, KB or MB (powers of 1000, one decimal
// above a kilobyte).
func formatBytes(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

// ratio is a/b as reported and set against a target: cut to 3 decimals,
// not rounded, so that a ratio below its target (0.8995 against 0.9) never
// shows, in the text or the JSON, as meeting it. The tolerance keeps a
// quotient that is 3 decimals but for float rounding (0.57 as
// 0.56999999…) at its value.
func ratio(a, b float64) float64 { return math.Floor(a/b*1000+1e-9) / 1000 }

// median is the middle of sorted values (the mean of the two middle ones
// for an even count).
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// atmsText is n ATMs, in words: "1 ATM", "2000 ATMs".
func atmsText(n int) string {
	if n == 1 {
		return "1 ATM"
	}
	return fmt.Sprintf("%d ATMs", n)
}

// plural writes n and what, with an s for any n but 1: "1 round",
// "3 rounds".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
