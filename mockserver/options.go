package mockserver

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/wire"
	"github.com/atmkit/atmkit/shape"
)

// DefaultMaxBodyBytes is the default cap on a request body: 4096 KB,
// ASP.NET's default maxRequestLength.
const DefaultMaxBodyBytes = 4096 << 10

// Option configures a mock server.
type Option func(*config) error

// config is what the options set.
type config struct {
	dataset           *fixtures.Dataset
	datasetDir        string
	generate          *fixtures.GenerateOptions // WithGeneratedDataset's, made by New
	datasetFrom       string                    // the option that chose the data set, for conflicts
	keys              []string
	namespace         string
	maxBodyBytes      int64
	logger            *slog.Logger
	replayer          Replayer
	onMiss            MissPolicy
	journalSize       int            // requests the journal keeps; 0 keeps none
	journalBodyMax    int            // bytes the journal keeps of each request and answer
	faults            []Fault        // faults active from the start
	adminToken        string         // bearer token the admin API requires; empty: none
	adminHosts        []string       // names the admin API answers on loopback without a token (WithAdminHosts)
	inContainer       bool           // a container's main process: the page's warning as the banner's there (WithInContainer)
	errorForm         asmx.ErrorForm // its Service is the service's name (WithServiceName)
	tls               bool           // test servers serve HTTPS (WithTLS)
	shape             *shape.Shape   // how results are written; nil: shape.Default()
	validation        asmx.RequestValidation
	urlLimits         asmx.URLLimits // ASP.NET's checks of every request's URL
	maxCollectionKeys int            // aspnet:MaxHttpCollectionKeys; 0: none
	reqEncoding       asmx.RequestEncoding
}

func defaultConfig() config {
	return config{namespace: asmx.DefaultNamespace, errorForm: asmx.ErrorForm{Service: DefaultServiceName}, maxBodyBytes: DefaultMaxBodyBytes, journalSize: DefaultJournalSize,
		journalBodyMax: DefaultJournalBodyMax, validation: asmx.DefaultRequestValidation, urlLimits: asmx.DefaultURLLimits()}
}

// applyOptions returns the default configuration with opts applied, in
// order. A nil option is an error naming its place (an option variable
// left unset), not a panic.
func applyOptions(opts []Option) (config, error) {
	cfg := defaultConfig()
	for i, o := range opts {
		if o == nil {
			return config{}, fmt.Errorf("mock server option %d of %d is nil", i+1, len(opts))
		}
		if err := o(&cfg); err != nil {
			return config{}, err
		}
	}
	return cfg, nil
}

// The data set options (WithDataset, WithFixturesDir, WithGeneratedDataset)
// exclude each other: a second one is an error naming both, so a forgotten
// option never silently replaces another. With none, the embedded data set
// is served.

// setDataset records which option chose the data set; a second one is an error.
func (c *config) setDataset(option string) error {
	if c.datasetFrom != "" {
		return fmt.Errorf("mock server data set: %s and %s both choose the data set; give one", c.datasetFrom, option)
	}
	c.datasetFrom = option
	return nil
}

// WithDataset serves ds instead of the embedded default data set. ds is
// validated and must not be modified afterwards. It cannot be combined with
// WithFixturesDir or WithGeneratedDataset.
func WithDataset(ds *fixtures.Dataset) Option {
	return func(c *config) error {
		if ds == nil {
			return errors.New("mock server data set: WithDataset(nil)")
		}
		if err := c.setDataset("WithDataset"); err != nil {
			return err
		}
		c.dataset = ds
		return nil
	}
}

// WithFixturesDir serves the data set in dir (as written by atmkit fixtures
// generate). A dir that does not exist or is not a directory is an error at
// once. It cannot be combined with WithDataset or WithGeneratedDataset.
func WithFixturesDir(dir string) Option {
	return func(c *config) error {
		if dir == "" {
			return errors.New("mock server data set: WithFixturesDir(\"\"): want a directory")
		}
		st, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("mock server data set: fixtures directory %s does not exist", dir)
		case err != nil:
			return fmt.Errorf("mock server data set: %w", err)
		case !st.IsDir():
			return fmt.Errorf("mock server data set: fixtures directory %s is not a directory", dir)
		}
		if err := c.setDataset(fmt.Sprintf("WithFixturesDir(%q)", dir)); err != nil {
			return err
		}
		c.datasetDir = dir
		return nil
	}
}

// WithGeneratedDataset serves a data set generated with seed (not 0) and
// atms ATM locations, as atmkit fixtures generate makes it: the same seed and
// size give the same data set. It cannot be combined with WithDataset or
// WithFixturesDir.
func WithGeneratedDataset(seed uint64, atms int) Option {
	return func(c *config) error {
		if err := c.setDataset(fmt.Sprintf("WithGeneratedDataset(%d, %d)", seed, atms)); err != nil {
			return err
		}
		c.generate = &fixtures.GenerateOptions{Seed: seed, ATMs: atms}
		return nil
	}
}

// WithKeys sets the accepted service keys; it may be given more than once,
// adding keys. With none, any non-empty key is accepted. An empty key is an
// error (it would be no key at all).
func WithKeys(keys ...string) Option {
	return func(c *config) error {
		for i, k := range keys {
			if strings.TrimSpace(k) == "" {
				return fmt.Errorf("mock server keys: key %d of %d is empty", i+1, len(keys))
			}
		}
		c.keys = append(c.keys, keys...)
		return nil
	}
}

// WithNamespace sets the service namespace (default http://tempuri.org/atmService):
// an absolute URI, such as http://example.org/atmService or urn:example:atm.
func WithNamespace(ns string) Option {
	return func(c *config) error {
		if err := wire.CheckNamespace(ns); err != nil {
			return err
		}
		c.namespace = ns
		return nil
	}
}

// WithServiceName names the service (default DefaultServiceName), as ASMX
// names it after the service's class or its [WebService(Name=...)]: the
// WSDL's service, portTypes, bindings and ports ({name}Soap,
// {name}Soap12, {name}HttpGet, {name}HttpPost), the disco document's
// bindings, the help pages' title and, with WithDetailedErrors, the
// service's own stack frames ({name}.CheckKey(…)). The interface document
// names none: give the deployment's, so that clients generated from the
// mock's WSDL have the classes of those generated from the deployment's.
// name is written as given, as the deployment's WSDL shows it: an NCName
// (asmx.CheckServiceName).
func WithServiceName(name string) Option {
	return func(c *config) error {
		if err := asmx.CheckServiceName(name); err != nil {
			return fmt.Errorf("mock server: %w", err)
		}
		c.errorForm.Service = name
		return nil
	}
}

// WithMaxBodyBytes caps request bodies (default DefaultMaxBodyBytes); larger
// ones get ASP.NET's refusal, a 500 in the binding's form
// (asmx.NewTooLargeError, NewTooLargeSOAPError). n must be positive.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("mock server max body bytes %d: want a positive number", n)
		}
		c.maxBodyBytes = n
		return nil
	}
}

// WithLogger sets the logger for request and error logs (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.logger = l; return nil }
}

// WithDetailedErrors writes errors as ASP.NET shows them to a caller on the
// server itself (or to every caller with customErrors Off): type names and
// stack traces (Exception.ToString()). By default errors are in the form a
// remote caller of a default deployment sees: the exceptions' messages only.
func WithDetailedErrors(on bool) Option {
	return func(c *config) error { c.errorForm.Detailed = on; return nil }
}

// JSON error forms, for WithJSONErrors.
const (
	// JSONErrorsASMX answers the JSON path's errors as ASMX's HTTP GET
	// protocol does: HTTP 500, text/plain (the default).
	JSONErrorsASMX = "asmx"
	// JSONErrorsAjax answers them as ASP.NET AJAX script services do:
	// HTTP 500, application/json {"Message","StackTrace","ExceptionType"}
	// with a jsonerror: true header.
	JSONErrorsAjax = "ajax"
)

// WithRequestValidation sets the request validation of the deployment the
// mock stands for (its httpRuntime requestValidationMode), which decides
// whether an HTTP GET, POST or JSON call with a value such as "<b" or
// "&#65" is answered or refused with ASP.NET's
// HttpRequestValidationException (HTTP 500 in the binding's error form):
// asmx.Validation40 (the default: ASP.NET 4.x without a targetFramework)
// checks every value the call carries, asmx.Validation45 the operation's
// parameters as they are read, asmx.ValidationOff (ASP.NET 2.0 and 3.5)
// none. SOAP bodies are never validated (ASP.NET reads them as a stream).
func WithRequestValidation(v asmx.RequestValidation) Option {
	return func(c *config) error {
		switch v {
		case asmx.ValidationOff, asmx.Validation40, asmx.Validation45:
			c.validation = v
			return nil
		}
		return fmt.Errorf("request validation %d: want asmx.ValidationOff, Validation40 or Validation45", int(v))
	}
}

// ASP.NET 4.x checks every request's URL before any handler runs, whatever
// its binding and its requestValidationMode: a path over maxUrlLength, a
// query string over maxQueryStringLength, a path holding one of
// requestPathInvalidCharacters gets ASP.NET's error page with HTTP 400
// (asmx.URLLimits). The three options set the deployment's values; the
// defaults are ASP.NET's.

// WithMaxURLLength sets maxUrlLength: the longest decoded path, path info
// included, in characters (default asmx.DefaultMaxURLLength, 260; 1 to
// asmx.MaxURLLimit).
func WithMaxURLLength(n int) Option {
	return func(c *config) error {
		if n < 1 || n > asmx.MaxURLLimit {
			return fmt.Errorf("mock server max URL length %d: want 1 to %d", n, asmx.MaxURLLimit)
		}
		c.urlLimits.MaxURLLength = n
		return nil
	}
}

// WithMaxQueryStringLength sets maxQueryStringLength: the longest query
// string, as sent, in characters (default
// asmx.DefaultMaxQueryStringLength, 2048; 1 to asmx.MaxURLLimit).
func WithMaxQueryStringLength(n int) Option {
	return func(c *config) error {
		if n < 1 || n > asmx.MaxURLLimit {
			return fmt.Errorf("mock server max query string length %d: want 1 to %d", n, asmx.MaxURLLimit)
		}
		c.urlLimits.MaxQueryStringLength = n
		return nil
	}
}

// WithMaxHTTPCollectionKeys sets the deployment's
// aspnet:MaxHttpCollectionKeys (web.config's appSettings): the most keys
// ASP.NET reads into Request.QueryString or Request.Form. A GET, POST or
// JSON-path call whose query string or form holds more gets HTTP 500 in
// its binding's error form, a GET of the documentation (?WSDL, the help
// pages) with such a query ASP.NET's error page; names are counted once
// however often they repeat (asmx.CollectionKeysExceeded). SOAP calls are
// not read so. 0, the default, is no limit, as .NET Framework 4.5 and
// later have by default; asmx.MS11100MaxHTTPCollectionKeys (1000) is ASP.NET
// 2.0's, 3.5's and 4.0's with MS11-100 (0 to asmx.MaxHTTPCollectionKeysLimit).
func WithMaxHTTPCollectionKeys(n int) Option {
	return func(c *config) error {
		if n < 0 || n > asmx.MaxHTTPCollectionKeysLimit {
			return fmt.Errorf("mock server max HTTP collection keys %d: want 0 (no limit) to %d", n, asmx.MaxHTTPCollectionKeysLimit)
		}
		c.maxCollectionKeys = n
		return nil
	}
}

// WithRequestPathInvalidChars sets requestPathInvalidCharacters, as
// web.config writes it: characters separated by commas, URL-encoded where
// needed (default asmx.DefaultRequestPathInvalidCharacters,
// `<,>,*,%,&,:,\,?`); "" turns the check off.
func WithRequestPathInvalidChars(chars string) Option {
	return func(c *config) error {
		rs, err := asmx.ParsePathInvalidChars(chars)
		if err != nil {
			return fmt.Errorf("mock server: %w", err)
		}
		c.urlLimits.InvalidPathChars = rs
		return nil
	}
}

// WithRequestEncoding sets the requestEncoding of the deployment the mock
// stands for (web.config's <globalization requestEncoding="...">; default
// utf-8): the encoding ASP.NET reads an HTTP GET's query string and an
// HTTP POST's or JSON call's form in when the request names no charset
// (a form's Content-Type charset still wins). A legacy deployment with
// requestEncoding="iso-8859-1" reads strCity=Montr%E9al as Montréal and
// strCity=Montr%C3%A9al as MontrÃ©al. SOAP bodies are not read in it. A
// name .NET does not know is an error, as are UTF-16 and UTF-32
// (asmx.ParseRequestEncoding).
func WithRequestEncoding(name string) Option {
	return func(c *config) error {
		e, err := asmx.ParseRequestEncoding(name)
		if err != nil {
			return fmt.Errorf("mock server: %w", err)
		}
		c.reqEncoding = e
		return nil
	}
}

// WithJSONErrors sets the form of the JSON path's errors: JSONErrorsASMX
// (default) or JSONErrorsAjax.
func WithJSONErrors(form string) Option {
	return func(c *config) error {
		switch form {
		case "", JSONErrorsASMX:
			c.errorForm.AjaxJSON = false
		case JSONErrorsAjax:
			c.errorForm.AjaxJSON = true
		default:
			return fmt.Errorf("JSON error form %q: want %s or %s", form, JSONErrorsASMX, JSONErrorsAjax)
		}
		return nil
	}
}
