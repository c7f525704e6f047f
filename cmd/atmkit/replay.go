package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/mockserver"
)

// replaySetup is what atmkit serve's --replay, --on-miss and --upstream
// flags make: the index of the cassettes (nil without --replay; Close
// writes the episodes recorded from the upstream), what a miss gets, and
// what the banner shows of them.
type replaySetup struct {
	index  *cassettes.Index
	policy mockserver.MissPolicy
	banner banner.Replay
}

// loadReplay loads the cassettes of atmkit serve's --replay, to be
// answered as --on-miss and --upstream say. Cassettes with no answer to
// replay are an error, unless misses are answered from the data set (a
// warning then) or forwarded to an upstream.
func (m *Main) loadReplay(ctx context.Context, fs *flag.FlagSet, f *serveFlags) (*replaySetup, error) {
	paths, onMiss, upstream := f.replay, f.onMiss, f.upstream
	if len(paths) == 0 {
		switch {
		case onMiss != "fault" && onMiss != "":
			return nil, m.BadSetting(fs, "on-miss", "needs --replay PATH")
		case upstream != "":
			return nil, m.BadSetting(fs, "upstream", "needs --replay PATH and --on-miss upstream")
		case m.FirstReachSet(fs) != "":
			return nil, m.BadSetting(fs, m.FirstReachSet(fs), "used only with --replay PATH --on-miss upstream")
		}
		return &replaySetup{}, nil
	}
	var policy mockserver.MissPolicy
	var opts []cassettes.IndexOption
	load := paths
	switch onMiss {
	case "fault", "":
		policy = mockserver.MissFault
	case "fixtures":
		policy = mockserver.MissFixtures
	case "upstream":
		if upstream == "" {
			return nil, m.BadSetting(fs, "on-miss", "needs --upstream URL")
		}
		if p := cli.CheckHTTPURL(upstream); p != "" {
			return nil, m.BadSetting(fs, "upstream", p)
		}
		rt, err := m.Transport(fs, &f.reach, "upstream")
		if err != nil {
			return nil, err
		}
		target := recordTarget(paths[0])
		ns := f.namespace // given, or the cassettes' own (LoadIndex)
		if !m.Given(fs, "namespace") {
			ns = ""
		}
		opts = append(opts, cassettes.WithUpstream(cassettes.Upstream{URL: upstream, Record: target,
			Namespace: ns, Transport: rt, Timeout: f.reach.Timeout}))
		if _, err := os.Stat(cassettes.FilePath(paths[0])); errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(paths[0]); errors.Is(err, os.ErrNotExist) {
				load = paths[1:] // the first cassette is created by the upstream episodes
			}
		}
	default:
		return nil, m.BadSetting(fs, "on-miss", "want fault, fixtures or upstream")
	}
	if upstream != "" && onMiss != "upstream" {
		return nil, m.BadSetting(fs, "upstream", "used only with --on-miss upstream")
	}
	if n := m.FirstReachSet(fs); n != "" && onMiss != "upstream" {
		return nil, m.BadSetting(fs, n, "used only with --on-miss upstream")
	}
	if enc := f.aspnet.Encoding(); !enc.IsUTF8() { // checked by checkServeFlags
		opts = append(opts, cassettes.WithRequestEncoding(enc))
	}
	idx, err := cassettes.LoadIndexContext(ctx, load, opts...)
	if errors.Is(err, cassettes.ErrCassetteNotFound) || errors.Is(err, cassettes.ErrInvalidCassette) || errors.Is(err, cassettes.ErrUnsupportedFormat) || errors.Is(err, cassettes.ErrCassetteBusy) {
		return nil, m.BadSetting(fs, "replay", err.Error()) // a wrong setting: exit 2
	}
	if errors.Is(err, os.ErrPermission) { // a mount the image's user cannot read: a wrong setting, as for --fixtures
		return nil, m.BadSetting(fs, "replay", cli.UnreadableProblem(err, strings.Join(load, ", ")))
	}
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	st := idx.Stats()
	if st.Answers == 0 {
		what := fmt.Sprintf("no answers to replay (%s, %s, %s of an operation)", banner.Plural(st.Files, "cassette file"), banner.Plural(st.Interactions, "interaction"), banner.Plural(st.Calls, "call"))
		if st.Files == 0 {
			what = "no cassette files (*.yaml, *.yml) to replay"
		}
		switch onMiss {
		case "fixtures":
			fmt.Fprintf(m.Stderr, "atmkit: WARNING: --replay %s: %s; every call is answered from the data set\n", strings.Join(paths, ", "), what)
		case "upstream":
			// The upstream's answers fill the cassette.
		default:
			_ = idx.Close()
			return nil, m.BadSetting(fs, "replay", what+"; record some with atmkit record, or answer misses with --on-miss fixtures")
		}
	}
	if !m.Given(fs, "namespace") && len(st.Namespaces) > 0 {
		// Serve in the namespace the calls were recorded in: the
		// deployment's SOAPActions are then this mock's too.
		if len(st.Namespaces) == 1 {
			f.namespace = st.Namespaces[0]
		} else {
			fmt.Fprintf(m.Stderr, "atmkit: WARNING: --replay: the cassettes hold SOAP calls in %d namespaces (%s); serving %s: pass --namespace to choose\n",
				len(st.Namespaces), strings.Join(st.Namespaces, ", "), f.namespace)
		}
	}
	if m.Given(fs, "namespace") && len(st.Namespaces) > 0 && !slices.Contains(st.Namespaces, f.namespace) {
		// Not silent: an app of the recorded namespace gets SOAPAction
		// faults from this mock.
		fmt.Fprintf(m.Stderr, "atmkit: --replay: the cassettes were recorded in %s; their answers are served in %s (--namespace)\n",
			strings.Join(st.Namespaces, ", "), f.namespace)
	}
	if !m.Given(fs, "namespace") && len(st.Namespaces) == 0 && st.Calls > 0 {
		fmt.Fprintf(m.Stderr, "atmkit: WARNING: --replay: the cassettes name no service namespace (no SOAP call, WSDL or typed GET/POST answer); serving %s: pass --namespace for the deployment's\n", f.namespace)
	}
	if wsdl, _, ok := idx.RecordedWSDL(); ok && !m.Given(fs, "service-name") {
		f.aspnet.ServiceFromWSDL(wsdl) // the deployment's, for the documents the mock writes itself
	}
	banner.CassetteWarnings(m.Stderr, st)
	return &replaySetup{index: idx, policy: policy, banner: banner.Replay{Paths: paths, Stats: st,
		OnMiss: onMiss, Upstream: upstream, Record: recordTarget(paths[0])}}, nil
}

// recordTarget is the cassette new upstream episodes go to: the first
// --replay file, or upstream.yaml in the first --replay directory.
func recordTarget(first string) string {
	if st, err := os.Stat(first); err == nil && st.IsDir() {
		return filepath.Join(first, "upstream.yaml")
	}
	return cassettes.FilePath(first)
}
