package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/memlimit"
	"github.com/atmkit/atmkit/internal/wire"
	"github.com/atmkit/atmkit/mockserver"
)

// serveFlags are the flags of atmkit serve.
type serveFlags struct {
	addr      string
	namespace string
	fixtures  string
	keys      cli.List
	maxBody   int64

	config      string // --config: YAML file of settings (config.go)
	adminToken  string
	adminHosts  cli.List // --admin-host: names the admin API answers on loopback without a token
	journalSize int
	journalBody int // --journal-body-max
	faults      cli.Faults

	replay   cli.List // --replay: cassette files or directories (replay.go)
	onMiss   string
	upstream string

	deviate cli.List // --deviate: break the interface on purpose (deviate.go)

	detailedErrors bool       // --detailed-errors: errors as a local caller sees them
	jsonErrors     string     // --json-errors: asmx or ajax
	aspnet         cli.ASPNET // --request-validation, --max-url-length, …: the deployment's <httpRuntime>

	srv   cli.ServerFlags // --tls-*, --grace, --log-format
	reach cli.Reach       // --ca-cert, --header, …: how --upstream is reached (reach.go)
	shape string          // --shape: the result shape file (cli.Env.LoadShape)
}

// serveEnvAliases are the extra ATMKIT_* names of serve's flags.
var serveEnvAliases = map[string]string{"key": "ATMKIT_KEYS"}

func (f *serveFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("serve", "serve [flags]", helpText("serve"), m.Stderr)
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; port 0 picks a free one)")
	fs.StringVar(&f.namespace, "namespace", asmx.DefaultNamespace, "service namespace of the operations (with --replay, default: the one the cassettes recorded)")
	fs.StringVar(&f.fixtures, "fixtures", "", "data set directory (default: the embedded data set)")
	fs.Var(&f.keys, "key", "accepted service key (repeatable; also ATMKIT_KEYS=k1,k2, and ATMKIT_KEY, the variable conform and cassette verify read); none: any non-empty key")
	fs.Int64Var(&f.maxBody, "max-body", mockserver.DefaultMaxBodyBytes, "largest request body in bytes (the default is ASP.NET's maxRequestLength, 4096 KB); larger ones get ASP.NET's refusal, 500 in the binding's form")
	fs.StringVar(&f.config, "config", "", "YAML file of settings keyed by flag name (-: standard input); flags and ATMKIT_* variables override it")
	fs.StringVar(&f.adminToken, "admin-token", "", "bearer token the admin API (/__admin/*, but health and the admin page's own files) requires; the admin page (/__admin/) asks for it; empty: none")
	fs.Var(&f.adminHosts, "admin-host", "host name the admin API answers when called on loopback with no --admin-token (repeatable; also ATMKIT_ADMIN_HOST=a,b), besides IP addresses, localhost, *.localhost, this host's name and the --addr host; other names get 403, which keeps web pages out (DNS rebinding); * allows any")
	fs.IntVar(&f.journalSize, "journal-size", mockserver.DefaultJournalSize, "requests the journal keeps for GET /__admin/requests (0: none)")
	fs.IntVar(&f.journalBody, "journal-body-max", mockserver.DefaultJournalBodyMax, "bytes the journal keeps of each request and each answer: headers (up to half) and the body's first bytes, the rest cut and marked (0: no headers or bodies)")
	fs.Var(&f.faults, "fault", "fault to inject (repeatable), e.g. 'op=ReturnProvinces,binding=soap12,delay=300ms' or 'code=Client,text=\"Bad request, try again\"' (double quotes around a value with a comma or semicolon; \\\" and \\\\ inside); or its JSON form. "+
		"Fields: op, binding, delay, jitter, delayDistribution.{type,median,sigma,lower,upper}, status, code, text, drop, malformed, "+
		"dribble.{chunks,duration}, reset[.afterBytes], garbage, probability, seed, skip, times, id (its name, kept: DELETE /__admin/faults/ID); op=WSDL faults ?WSDL and ?disco fetches")
	fs.Var(&f.replay, "replay", "serve answers from this cassette file or directory (repeatable)")
	fs.StringVar(&f.onMiss, "on-miss", "fault", "with --replay, a call with no recording gets: fault, fixtures (the data set answers) or upstream (forwarded and recorded)")
	fs.StringVar(&f.upstream, "upstream", "", "with --on-miss upstream, the deployment to forward misses to")
	fs.Var(&f.deviate, "deviate", deviateUsage)
	fs.BoolVar(&f.detailedErrors, "detailed-errors", false, "write errors as ASP.NET shows them on the server itself (customErrors Off): type names and stack traces; default: the remote form, messages only")
	fs.StringVar(&f.jsonErrors, "json-errors", mockserver.JSONErrorsASMX, "form of the JSON path's errors: asmx (HTTP 500 text/plain, as ASMX's HTTP GET protocol) or ajax (ASP.NET AJAX's JSON error object)")
	f.aspnet.Register(fs)
	f.srv.Register(fs)
	f.reach.Register(fs, "the upstream (--on-miss upstream)", true)
	fs.StringVar(&f.shape, "shape", "", "result shape file: how results are written (atmkit shape learn makes one; -: standard input; default: the built-in shape)")
	return fs
}

func (m *Main) runServe(ctx context.Context, args []string) error {
	var f serveFlags
	w := f.register(m)
	if err := m.Parse(w, args, serveEnvAliases); err != nil {
		return err
	}
	if f.config != "" {
		if err := m.ApplyConfig(w, f.config, serveEnvAliases); err != nil {
			m.HideKeys(append(append([]string{f.adminToken}, f.keys...), f.reach.Secrets()...)...) // set before the file's others
			return err
		}
	}
	m.HideKeys(append([]string{f.adminToken}, f.keys...)...)
	m.HideKeys(f.reach.Secrets()...)
	if err := cli.NoArgs(w); err != nil {
		return err
	}
	if m.listDeviations(f.deviate) {
		return nil
	}
	if err := m.checkServeFlags(w, &f); err != nil {
		return err
	}
	for _, k := range f.keys {
		if k != strings.TrimSpace(k) { // a slip, most likely, but ASMX compares keys exactly: calls must send it so
			m.Warnf("the key %s has white space at its ends; only calls that send it so are accepted "+
				"(in cmd.exe, `set ATMKIT_KEY=k && atmkit ...` keeps the space before &&: write `set \"ATMKIT_KEY=k\"`; "+
				"in ATMKIT_KEYS, a space beside a comma belongs to a key)", mockserver.MaskKey(k))
		}
	}
	tl, logger, err := m.ServerSetup(w, &f.srv, f.addr)
	if err != nil {
		return err
	}
	defer tl.Close()
	replay, err := m.loadReplay(ctx, w, &f) // may take --namespace from the cassettes
	if err != nil {
		return m.StoppedStarting(ctx, err, "loading the cassettes") // exit 0 on SIGINT/SIGTERM
	}
	if replay.index != nil {
		defer func() { _ = replay.index.Close() }()
	}
	opts := []mockserver.Option{
		mockserver.WithNamespace(f.namespace),
		mockserver.WithMaxBodyBytes(f.maxBody),
		mockserver.WithLogger(logger),
		mockserver.WithAdminToken(f.adminToken),
		mockserver.WithAdminHosts(cli.AdminHosts(f.addr, f.adminHosts)...),
		mockserver.WithInContainer(cli.ContainerMain()), // the page's warning as the banner's (banner.WarnOpenAdmin)
		mockserver.WithJournalSize(f.journalSize),
		mockserver.WithJournalBodyMax(f.journalBody),
		mockserver.WithDetailedErrors(f.detailedErrors),
	}
	if len(f.keys) > 0 {
		opts = append(opts, mockserver.WithKeys(f.keys...))
	}
	opts = append(append(opts, mockserver.WithJSONErrors(f.jsonErrors)), f.aspnet.Options()...) // checked by checkServeFlags
	for _, flt := range f.faults {
		opts = append(opts, mockserver.WithFault(flt))
	}
	if f.fixtures != "" {
		opts = append(opts, mockserver.WithFixturesDir(f.fixtures))
	}
	sh, err := m.LoadShape(w, f.shape)
	if err != nil {
		return err
	}
	opts = append(opts, mockserver.WithShape(sh))
	b := banner.Mock{Fixtures: f.fixtures, Memory: memlimit.Applied(), KeyVar: banner.KeyVar(m.Getenv, f.keys)}
	if replay.index != nil {
		opts = append(opts, mockserver.WithReplay(replay.index, replay.policy))
		replay.banner.Gaps = replay.index.Gaps(sh, f.namespace)
		b.Replay = &replay.banner
	}
	srv, err := mockserver.NewContext(ctx, opts...)
	if name, p, ok := cli.ServeProblem(err, f.fixtures); ok {
		return m.BadSetting(w, name, p) // exit 2, naming the file and record, or the shape's line
	}
	if err != nil {
		return m.StoppedStarting(ctx, err, "loading the data set") // exit 0 on SIGINT/SIGTERM
	}
	h, err := m.deviated(w, srv, f.deviate)
	if err != nil {
		return err
	}
	ln, err := m.Listen(w, f.addr)
	if err != nil {
		return err
	}
	b.Server = srv
	b.Print(&m.Env, ln.Addr(), tl)
	banner.WarnOpenAdmin(m.Stderr, ln.Addr(), f.adminToken)
	m.warnDeviations(f.deviate)
	if err := f.srv.Serve(ctx, ln, h, tl, logger); err != nil {
		return err
	}
	fmt.Fprintln(m.Stderr, "atmkit: stopped")
	return nil
}

// checkServeFlags validates serve's settings, whatever set them, naming the
// first wrong one.
func (m *Main) checkServeFlags(fs *flag.FlagSet, f *serveFlags) error {
	emptyKey := slices.ContainsFunc(f.keys, func(k string) bool { return strings.TrimSpace(k) == "" })
	return m.FirstBad(fs,
		cli.Bad("addr", cli.CheckAddr(f.addr)),
		cli.Bad("namespace", cli.When(wire.CheckNamespace(f.namespace) != nil,
			"not an absolute URI; want one such as http://tempuri.org/atmService or urn:example:atm")),
		cli.Bad("key", cli.When(emptyKey, "an empty key; give non-empty keys, or none to accept any non-empty key")),
		cli.Bad("fixtures", cli.When(f.fixtures != "", cli.CheckDir(f.fixtures))), cli.Bad("replay", cli.CheckNoStdin(f.replay, cli.CassetteInput)),
		cli.Bad("max-body", cli.When(f.maxBody < 1, "must be at least 1 (bytes)")),
		cli.Bad("json-errors", cli.When(f.jsonErrors != mockserver.JSONErrorsASMX && f.jsonErrors != mockserver.JSONErrorsAjax,
			"want "+mockserver.JSONErrorsASMX+" or "+mockserver.JSONErrorsAjax)),
		f.aspnet.Check(),
		cli.Bad("on-miss", cli.When(!slices.Contains([]string{"", "fault", "fixtures", "upstream"}, f.onMiss), "want fault, fixtures or upstream")), cli.Bad("upstream", cli.CheckNotService(f.upstream)),
		cli.Bad("log-format", cli.CheckLogFormat(f.srv.LogFormat)),
		cli.Bad("log-level", cli.CheckLogLevel(f.srv.LogLevel)),
		cli.Bad("grace", cli.When(f.srv.Grace < 0, "must not be negative")),
		cli.Bad("journal-size", cli.When(f.journalSize < 0, "must not be negative (0 turns the journal off)")),
		cli.Bad("journal-body-max", cli.When(f.journalBody < 0, "must not be negative (0 keeps no headers or bodies)")),
		cli.Bad("timeout", cli.When(f.reach.Timeout <= 0, "must be positive, e.g. 30s")),
		cli.Bad("admin-host", cli.CheckAdminHosts(f.adminHosts)),
		cli.Bad("admin-token", cli.When(f.adminToken != strings.TrimSpace(f.adminToken) || strings.ContainsAny(f.adminToken, "\r\n"),
			"white space at its ends or a line break; a bearer token cannot carry them")),
	)
}
