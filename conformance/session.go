package conformance

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// RadiusUnit is the unit a deployment reads bytRadius in; the document does
// not say, so the radius check takes it from the caller.
type RadiusUnit string

// Radius units.
const (
	Kilometres  RadiusUnit = "km"      // the default, and atmkit mock's reading
	Miles       RadiusUnit = "mi"      // statute miles
	UnknownUnit RadiusUnit = "unknown" // report distances, never fail on them
)

// ParseRadiusUnit parses "km", "mi" or "unknown"; "" gives Kilometres.
func ParseRadiusUnit(s string) (RadiusUnit, error) {
	switch u := RadiusUnit(strings.ToLower(strings.TrimSpace(s))); u {
	case "":
		return Kilometres, nil
	case Kilometres, Miles, UnknownUnit:
		return u, nil
	}
	return "", fmt.Errorf("radius unit %q: want km, mi or unknown", s)
}

// Config says which deployment to check and what the suite may not find out
// by itself.
type Config struct {
	// Target is the service's base address, e.g. http://127.0.0.1:8080
	// (a trailing /service/service.asmx is tolerated).
	Target string
	// Key is a service key the target accepts.
	Key string
	// Namespace is the service namespace; empty means take it from the
	// target's WSDL, else from its help page or its SOAP answers.
	Namespace string
	// CityIDs are intCityID values to check; empty means find one by probing.
	CityIDs []int
	// Latitude and Longitude, given together, are the search point of
	// ReturnAtmSearchByCoordinates. The anchor location is then the one
	// nearest to the point, found with the JSON binding (a search with a
	// growing radius), and discovery does not read ReturnAllAtms, so a target
	// whose ReturnAllAtms is empty or huge can be checked. Nil means the
	// coordinates of a location of ReturnAllAtms.
	Latitude, Longitude *float64
	// Address, City, Province and PostalCode are the strAddress, strCity,
	// strProvince and strPostalCode of the address searches (the postal code
	// also of ReturnAtmSearchByCoordinates). Each one given (non-nil, even
	// empty) is used as it is; the others are the anchor location's.
	Address, City, Province, PostalCode *string
	// InstitutionID is the intInstitutionID of ReturnAtmSearchByInstitution;
	// nil means the anchor location's institution.
	InstitutionID *int
	// Radius is the bytRadius (0 to 255) of the searches; nil means the
	// smallest of 5, 10, 25, 50 and 100 that finds five locations around the
	// address, else 255.
	Radius *int
	// Maximum is the intMaximumAtms of ReturnAtmSearchByAddressWithMaximum;
	// nil means 3.
	Maximum *int
	// RadiusUnit is the unit of bytRadius; empty means Kilometres.
	RadiusUnit RadiusUnit
	// Timeout bounds each request, from sending it to the answer's last
	// byte; 0 means DefaultTimeout. The preflight and every spec use it.
	Timeout time.Duration
	// Client sends the requests; nil means a plain http.Client. Each request
	// carries its own deadline (Timeout) whatever the client's settings, and
	// redirects are never followed, whatever its CheckRedirect: a redirect
	// is an answer the specs judge (ASMX answers no call with one), and
	// following it would send the key, in the URL or the body, to an
	// address the caller did not give.
	Client *http.Client
	// Shape, when given, is the shape the target's results must have: the
	// specs labelled shape check every result against it (checks_shape.go).
	// Without it they do not run.
	Shape *shape.Shape
	// ShapeFile is the file Shape was read from, when it was: the
	// summary's Mirror it: line then gives it to atmkit serve --shape
	// where the target's results are not in the mock's built-in shape.
	ShapeFile string
	// Shell is the shell the failures' reproduce lines are written for
	// (Exchange.Curl): the system's when empty (ShellSystem).
	Shell Shell
	// Secrets are more values the JUnit and JSON reports never hold: the
	// values of the headers Client sends (a gateway's key), which a target
	// may repeat in its answers. The reports mask each one of six bytes or
	// more wherever it appears, as they mask the key. The console output
	// is not masked for them: its writer is to be (atmkit's CLI masks its
	// output streams for the same values); but a quote of an answer that
	// a failure cuts short has them masked before the cut, which would
	// leave a part of one that no writer's mask matches.
	Secrets []string
}

// Shell is a shell reproduce lines are written for.
type Shell string

// The shells of Config.Shell.
const (
	// ShellSystem is cmd.exe on Windows, a POSIX shell elsewhere.
	ShellSystem Shell = ""
	// ShellCmd is Windows's cmd.exe: curl.exe, arguments quoted for it.
	ShellCmd Shell = "cmd"
	// ShellPowerShell is PowerShell on Windows. Its lines are cmd.exe's
	// (a PowerShell line for a body holding double quotes differs between
	// Windows PowerShell 5.1 and PowerShell 7.3 and later), and Run's
	// console output says so once, before the first of them: type cmd
	// first.
	ShellPowerShell Shell = "powershell"
	// ShellPOSIX is a POSIX shell (on Windows: Git Bash, MSYS2, Cygwin).
	ShellPOSIX Shell = "posix"
)

// cmdLines reports whether reproduce lines for sh are cmd.exe lines.
func (sh Shell) cmdLines() bool {
	switch sh {
	case ShellCmd, ShellPowerShell:
		return true
	case ShellPOSIX:
		return false
	}
	return runtime.GOOS == "windows"
}

// DefaultTimeout is the per-request timeout when Config.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// Session is a connection to one target: it sends requests, caches the
// answers of identical requests, and discovers the namespace, the WSDL and
// query values once. It is safe for concurrent use.
type Session struct {
	cfg    Config
	base   string
	client *http.Client

	mu     sync.Mutex // guards cache and failed
	cache  map[string]*Exchange
	failed map[string]error // requests that got no answer, by cacheKey

	nsOnce sync.Once
	ns     string
	nsErr  error
	nsDone atomic.Bool // set once ns and nsErr are

	wsdlOnce sync.Once
	wsdl     *etree.Document
	wsdlX    *Exchange
	wsdlErr  error
	wsdlDone atomic.Bool // set once wsdl, wsdlX and wsdlErr are

	factsOnce sync.Once
	factsDone atomic.Bool // set once facts and factsErr are
	facts     *Facts
	factsErr  error

	pre atomic.Pointer[Preflight] // set by Preflight when it passes

	// preCtx ends the preflight's requests (RunOptions.Context); nil
	// otherwise. Run sets it before the preflight and clears it after,
	// before any spec runs.
	preCtx context.Context
}

// NewSession validates cfg and returns a session; it sends nothing yet.
func NewSession(cfg Config) (*Session, error) {
	if cfg.Target == "" {
		return nil, errors.New("conformance: no target given")
	}
	switch cfg.Shell {
	case ShellSystem, ShellCmd, ShellPowerShell, ShellPOSIX:
	default:
		return nil, fmt.Errorf("conformance: shell %q: want cmd, powershell or posix", cfg.Shell)
	}
	u, err := url.Parse(cfg.Target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// Its password and key masked: the error reaches the console.
		return nil, fmt.Errorf("conformance: target %q is not an http(s) URL", maskURL(cfg.Target, cfg.Key))
	}
	if cfg.Key == "" {
		return nil, errors.New("conformance: no service key given")
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("conformance: timeout %s is negative", cfg.Timeout)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.RadiusUnit == "" {
		cfg.RadiusUnit = Kilometres
	}
	if _, err := ParseRadiusUnit(string(cfg.RadiusUnit)); err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	if err := cfg.checkGiven(); err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	base := strings.TrimRight(cfg.Target, "/")
	base = strings.TrimSuffix(base, servicePath)
	var client http.Client
	if cfg.Client != nil {
		client = *cfg.Client // a copy: the caller's client keeps its CheckRedirect
	}
	client.CheckRedirect = noRedirect
	return &Session{cfg: cfg, base: base, client: &client, cache: map[string]*Exchange{}, failed: map[string]error{}}, nil
}

// noRedirect is the CheckRedirect of a session's client: the redirect is
// the answer.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Config returns the session's configuration.
func (s *Session) Config() Config { return s.cfg }

// Do sends r (with the session's key unless r.Values sets strAtmServiceKey,
// and the session's namespace unless r.Namespace is set) and returns the
// exchange. Identical requests are sent once: a request that got no answer
// (a *TransportError) gives its error again without being sent, so a
// target that never answers one call costs one timeout, not one per spec.
func (s *Session) Do(r Request) (*Exchange, error) {
	ns := r.Namespace
	if ns == "" && (r.Binding == SOAP11 || r.Binding == SOAP12) {
		var err error
		if ns, err = s.Namespace(); err != nil {
			return nil, err
		}
	}
	return s.send(r, ns)
}

func (s *Session) send(r Request, ns string) (*Exchange, error) {
	vals := map[string]string{pKey: s.cfg.Key}
	for k, v := range r.Values {
		vals[k] = v
	}
	r.Values = vals
	r.Namespace = ns
	key := r.cacheKey()
	s.mu.Lock()
	x, ok := s.cache[key]
	failed := s.failed[key]
	s.mu.Unlock()
	if ok {
		return x, nil
	}
	if failed != nil {
		return nil, failed
	}
	req, body, err := build(s.base, ns, r)
	if err != nil {
		return nil, err
	}
	x = &Exchange{Request: r, Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone(), Body: body, key: s.cfg.Key, secrets: s.secrets(), shell: s.cfg.Shell}
	if err := s.roundTrip(req, x, fmt.Sprintf("%s over %s", r.Op, r.Binding), x.Curl()); err != nil {
		s.mu.Lock()
		s.failed[key] = err
		s.mu.Unlock()
		return nil, err
	}
	s.mu.Lock()
	s.cache[key] = x
	s.mu.Unlock()
	return x, nil
}

// roundTrip sends req with the session's timeout and fills in x's answer.
// A request that gets no complete answer gives a *TransportError named
// what, with the key masked in every part of it.
func (s *Session) roundTrip(req *http.Request, x *Exchange, what, curl string) error {
	parent := req.Context()
	if s.preCtx != nil {
		parent = s.preCtx
	}
	ctx, cancel := context.WithTimeout(parent, s.cfg.Timeout)
	defer cancel()
	resp, err := s.client.Do(req.WithContext(ctx))
	if err == nil {
		defer resp.Body.Close()
		x.Status, x.RespHeader = resp.StatusCode, resp.Header
		if x.RespBody, err = readAll(resp.Body); err != nil {
			err = &url.Error{Op: "reading the answer of " + req.Method, URL: req.URL.String(), Err: err}
		}
	}
	if err == nil {
		return nil
	}
	return &TransportError{
		What: what, Method: req.Method, URL: maskURL(req.URL.String(), s.cfg.Key),
		Kind: transportKind(err), Timeout: s.cfg.Timeout, Err: maskError(err, s.cfg.Key), Curl: curl,
	}
}

// get fetches a path below the base address (documentation endpoints).
func (s *Session) get(path string) (*Exchange, error) {
	x := &Exchange{Method: http.MethodGet, URL: s.base + path, Header: http.Header{}, secrets: s.secrets(), shell: s.cfg.Shell}
	req, err := http.NewRequest(http.MethodGet, x.URL, http.NoBody)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	if err := s.roundTrip(req, x, "GET "+path, ""); err != nil {
		return nil, err
	}
	return x, nil
}

// WSDL returns the target's WSDL and the exchange that fetched it; a nil
// document with a nil error means the target serves none.
func (s *Session) WSDL() (*etree.Document, *Exchange, error) {
	s.wsdlOnce.Do(func() {
		defer s.wsdlDone.Store(true)
		x, err := s.get(servicePath + "?WSDL")
		if err != nil {
			s.wsdlErr = err
			return
		}
		s.wsdlX = x
		if x.Status != http.StatusOK {
			return
		}
		doc, err := parseXML(x.RespBody)
		if err != nil || nameOf(doc.Root()) != (qname{wsdlNS, "definitions"}) {
			return
		}
		s.wsdl = doc
	})
	return s.wsdl, s.wsdlX, s.wsdlErr
}

// Namespace returns the service namespace: the configured one, else the
// WSDL's targetNamespace, else the first candidate (from the help pages, the
// HTTP GET result, or ASMX's tempuri.org default) that a SOAP 1.1 call of
// ReturnProvinces answers in.
func (s *Session) Namespace() (string, error) {
	s.nsOnce.Do(func() {
		s.ns, s.nsErr = s.discoverNamespace()
		s.nsDone.Store(true)
	})
	return s.ns, s.nsErr
}

// maxNamespaceCandidates bounds the namespaces discovery tries, a SOAP
// call each: an ASMX help page names one or two (the service's, and the
// envelopes' it leaves out), and a page naming thousands would otherwise
// cost thousands of calls.
const maxNamespaceCandidates = 16

var xmlnsRE = regexp.MustCompile(`xmlns(?::\w+)?="([^"]+)"`)

func (s *Session) discoverNamespace() (string, error) {
	if s.cfg.Namespace != "" {
		return s.cfg.Namespace, nil
	}
	if doc, _, err := s.WSDL(); err == nil && doc != nil {
		if tns := doc.Root().SelectAttrValue("targetNamespace", ""); tns != "" {
			return tns, nil
		}
	}
	var cands []string
	seen := map[string]bool{}
	add := func(ns string) {
		if ns == "" || seen[ns] || strings.HasPrefix(ns, "http://www.w3.org/") || strings.HasPrefix(ns, "http://schemas.xmlsoap.org/") {
			return
		}
		if len(cands) >= maxNamespaceCandidates {
			return
		}
		seen[ns] = true
		cands = append(cands, ns)
	}
	for _, p := range []string{servicePath + "?op=" + opProvinces, servicePath} {
		if x, err := s.get(p); err == nil && x.Status == http.StatusOK {
			for _, m := range xmlnsRE.FindAllStringSubmatch(html.UnescapeString(string(x.RespBody)), -1) {
				add(m[1])
			}
		}
	}
	if x, err := s.send(Request{Binding: HTTPGet, Op: opProvinces}, ""); err == nil && x.Status == http.StatusOK {
		if doc, err := parseXML(x.RespBody); err == nil {
			add(doc.Root().NamespaceURI())
		}
	}
	add("http://tempuri.org/atmService")
	add("http://tempuri.org/")
	for _, ns := range cands {
		x, err := s.send(Request{Binding: SOAP11, Op: opProvinces}, ns)
		var te *TransportError
		if errors.As(err, &te) && te.Kind == TransportTimeout {
			// No answer in time is the target's silence, not a namespace
			// it does not answer in: the preflight stops with its cause
			// (and every later candidate would cost a timeout too).
			return "", err
		}
		if err != nil || x.Status != http.StatusOK {
			continue
		}
		doc, err := parseXML(x.RespBody)
		if err != nil {
			continue
		}
		// The answer's body element in the candidate namespace is enough:
		// whether it is named as documented is the binding specs' business.
		if body := doc.Root().SelectElement("Body"); body != nil {
			for _, k := range body.ChildElements() {
				if k.NamespaceURI() == ns {
					return ns, nil
				}
			}
		}
	}
	// The candidates quote the target's pages: the key and the secrets
	// masked before %q escapes them, each cut (a page names a namespace of
	// any length).
	tried := make([]string, len(cands))
	for i, ns := range cands {
		tried[i] = clip(ns, 100, reportKeys(s.cfg.Key, s.cfg.Secrets)...)
	}
	return "", fmt.Errorf("no service namespace: the target serves no WSDL and answered ReturnProvinces over SOAP 1.1 in none of %q; give it with --namespace", tried)
}
