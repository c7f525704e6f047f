// Package refdeploy runs atmkit's reference ASMX deployment for tests: a small
// ASP.NET web service written in C# the way most .NET teams write one
// (testdata/typed: XmlSerializer classes with element names of its own, its
// own data set, HTTP GET and POST enabled), hosted by Mono's
// System.Web.Services (fastcgi-mono-server4) behind nginx on free loopback
// ports. It is the real ASMX runtime the conformance suite, the mock and the
// recorder are checked against.
//
// The deployment shares nothing with atmkit's packages: the service's
// names, data and answers are its own. Collect and WSDL call a service (the
// deployment, the mock, a recording proxy) as atmkit's tests do. Tests that
// use the deployment skip with a message when Mono or nginx is missing,
// except under CI=true, where that fails the test.
// .ci/install-mono.sh installs what it needs on Debian.
package refdeploy

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// sites holds the deployment's ASP.NET applications, one directory each:
// testdata/typed is served at the root, any other directory NAME at /NAME.
//
//go:embed testdata
var sites embed.FS

// Root is the name of the application served at the root: the typed service.
const Root = "typed"

// Site is one application of the reference deployment: a service of the
// interface document, written as a .NET team might, in a layout of its own.
type Site struct {
	// Name is its directory in testdata, served at /Name (Root: at /).
	Name string
	// Namespace is its service namespace; Key the one key it accepts.
	Namespace, Key string
	// DataSetOp names an operation answering a DataSet, which the
	// deployment calls once before any test does (see warm); "" when it
	// returns none.
	DataSetOp string
}

// The sites of the reference deployment, as their C# sources set them.
// The data and searches of every site are the typed site's, so Calls asks
// each of them the same questions.
var (
	// Typed returns XmlSerializer classes with element names of its own.
	Typed = Site{Root, Namespace, Key, ""}
	// Legacy returns XmlElement nodes in no namespace, a DataSet with a
	// nested table (ReturnInstitutions) and attribute values.
	Legacy = Site{"legacy", "http://legacy.atmref.example.org/atmService", "legacy-key", "ReturnInstitutions"}
	// DataSets returns an untyped DataSet from every operation: nested
	// languages by a hidden key, a namespace of its own, rows left inserted.
	DataSets = Site{"dataset", "http://dataset.atmref.example.org/atmService", "dataset-key", "ReturnProvinces"}
	// Attrs returns typed results with values in attributes on every level,
	// the root's included, and levels in namespaces of their own.
	Attrs = Site{"attrs", "http://attrs.atmref.example.org/atmService", "attrs-key", ""}
	// Layered returns typed results in which each level is in a namespace
	// of its own (a list's element and its items each in theirs), with
	// renamed elements, lists with item names of their own, a nested object
	// two levels deep, attributes on the root and the items (some in a
	// namespace of their own), values as element text, languages as a
	// class holding only its text, an element in no namespace.
	Layered = Site{"layered", "http://layered.atmref.example.org/atmService", "layered-key", ""}
	// Nodes returns XmlElement results (ReturnInstitutions an XmlNode)
	// built by hand in a namespace of their own, values in attributes and
	// elements mixed, a level and its attributes in a second namespace.
	Nodes = Site{"nodes", "http://nodes.atmref.example.org/atmService", "nodes-key", ""}
	// Sets returns DataSets with a namespace and a prefix of their own,
	// three child tables nested by hidden keys (one with a table nested in
	// it in turn), attribute columns, a SimpleContent column and a hidden
	// column that is no key.
	Sets = Site{"sets", "http://sets.atmref.example.org/atmService", "sets-key", "ReturnProvinces"}
	// Spaces returns DataSets whose tables are in namespaces other than
	// the DataSet's: a table with a namespace and a prefix of its own (an
	// element column in a third namespace, a table nested in it inheriting
	// it), a column in none in a table in one, a DataSet in none; and
	// tables nested in themselves: one after another table, with a table
	// nested in it, whose rows nest two deep; one in no namespace in a
	// prefixed DataSet in one, nested by hidden keys, its rows inserted.
	Spaces = Site{"spaces", "http://spaces.atmref.example.org/atmService", "spaces-key", "ReturnProvinces"}
	// Members returns typed results whose members are of kinds the other
	// sites do not use: enums with XmlEnum names, decimals, an object and
	// a string that are null (xsi:nil) in some answers, a string left out
	// when empty, an int as an element's text, members declared object (a
	// string and a short, written with xsi:type), flags left out when false
	// (a DefaultValue, an XxxSpecified member). It is no Variant:
	// mockserver's differential tests compare it, byte for byte.
	Members = Site{"members", "http://members.atmref.example.org/atmService", "members-key", ""}
	// Columns returns DataSets whose names need XmlConvert's encoding
	// (spaces, a leading digit), with a primary key, MaxLength, decimal
	// and short columns, DBNull where the store's string is empty, and a
	// table related to another without nesting. It is no Variant either.
	Columns = Site{"columns", "http://columns.atmref.example.org/atmService", "columns-key", "ReturnProvinces"}
	// Grouped returns typed results in which the searches' locations are
	// grouped by institution: an array of banks (ArrayOfBank), each an
	// object holding the institution's values and an array of its ATMs,
	// which hold no institution value of their own. It is no Variant.
	Grouped = Site{"grouped", "http://grouped.atmref.example.org/atmService", "grouped-key", ""}
	// GroupedByName is the grouped site with its banks ordered by name,
	// compared ordinally (OrderBy(b => b.Name, StringComparer.Ordinal)):
	// the grouped site's code (sameCode), its web.config's GroupOrder
	// name. It is no Variant.
	GroupedByName = Site{"groupedbyname", Grouped.Namespace, Grouped.Key, ""}
	// GroupSets returns DataSets in which the searches' locations are
	// grouped by institution: a Bank table and an Atm table related by
	// the bank's key (a BankId column), nested (the searches around a
	// point: ATM rows inside their bank's row) or not (the lists: ATM rows
	// after the banks'). It is no Variant.
	GroupSets = Site{"groupsets", "http://groupsets.atmref.example.org/atmService", "groupsets-key", "ReturnProvinces"}
	// GroupSetsFlat is the groupsets site with the searches' relation not
	// nested either: their ATM rows after the banks', bank by bank (each
	// bank's in the search's order), each naming its bank by its BankId
	// alone. The groupsets site's code (sameCode), its web.config's
	// SearchRelation flat. It is no Variant.
	GroupSetsFlat = Site{"groupsetsflat", GroupSets.Namespace, GroupSets.Key, GroupSets.DataSetOp}
	// Sites are the sites made ready when a deployment starts.
	Sites = []Site{Typed, Legacy, DataSets, Attrs}
	// Variants are the sites of the layout variations beside them: every
	// deployment serves them, but compiles one only when a test asks for it
	// (Deployment.Warm), so that the tests that do not use them do not wait
	// for Mono to compile them.
	Variants = []Site{Layered, Nodes, Sets, Spaces}
)

// The reference deployment's fixed facts, as its C# source sets them.
const (
	// Namespace is the service namespace of the reference deployment.
	Namespace = "http://atmref.example.org/atmService"
	// Key is the one service key it accepts (web.config, ServiceKeys).
	Key = "ref-key"
	// ServicePath and JSONPath are the paths of the interface document.
	ServicePath = "/service/service.asmx"
	JSONPath    = "/service-v2.asmx"
)

// Programs the deployment needs, as Debian 12 installs them (packages
// mono-devel, mono-fastcgi-server4, nginx-light).
var programs = []string{"mono", "fastcgi-mono-server4", "nginx"}

// Deployment is a running reference deployment.
type Deployment struct {
	// URL is the base address, e.g. http://127.0.0.1:41234; the service is
	// at URL + ServicePath.
	URL string

	dir   string
	procs []*proc

	stopOnce sync.Once
	warmed   sync.Map // Site.Name -> *sync.Once: the sites made ready
}

// proc is one of the deployment's processes; exited is closed once it has
// been waited for (by the one goroutine that waits).
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

// Missing returns the programs the deployment needs that are not installed.
func Missing() []string { return missingOf(programs) }

// missingOf returns the programs of list that are not installed.
func missingOf(list []string) []string {
	var out []string
	for _, p := range list {
		if _, err := exec.LookPath(p); err != nil {
			out = append(out, p)
		}
	}
	return out
}

// Require skips tb when Mono or nginx is missing, or fails it under CI=true,
// where every test must run.
func Require(tb testing.TB) {
	tb.Helper()
	require(tb, Missing(), "the reference ASMX deployment", "Debian: apt-get install mono-devel mono-fastcgi-server4 nginx-light; see .ci/install-mono.sh")
}

// require skips tb when programs are missing, saying that what needs them
// and how to install them, or fails it under CI=true.
func require(tb testing.TB, missing []string, what, install string) {
	tb.Helper()
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("%s needs %s (%s)", what, strings.Join(missing, ", "), install)
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
}

// Option changes a deployment's copy of its sites before it starts.
type Option func(sitesDir string) error

// WebConfig replaces the web.config of the application NAME (Root for the
// typed service) with content, e.g. one with the HttpGet and HttpPost
// protocols removed.
func WebConfig(name, content string) Option {
	return func(sitesDir string) error {
		path := filepath.Join(sitesDir, name, "web.config")
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("web.config of %s: %w", name, err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return fmt.Errorf("web.config of %s: %w", name, err)
		}
		return nil
	}
}

// EditSiteFile replaces the one occurrence of old in the file at path
// (e.g. "App_Code/AtmService.cs") of the application NAME with repl, e.g.
// to give a service a namespace of its own.
func EditSiteFile(name, path, old, repl string) Option {
	return func(sitesDir string) error {
		file := filepath.Join(sitesDir, name, filepath.FromSlash(path))
		data, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("%s of %s: %w", path, name, err)
		}
		if n := strings.Count(string(data), old); n != 1 {
			return fmt.Errorf("%s of %s holds %q %d times, not once", path, name, old, n)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, repl, 1)), 0o644); err != nil {
			return fmt.Errorf("%s of %s: %w", path, name, err)
		}
		return nil
	}
}

// SiteFile returns the file at path (e.g. "web.config") of the application
// NAME as the deployment ships it, to be edited into an Option.
func SiteFile(name, path string) (string, error) {
	data, err := sites.ReadFile("testdata/" + name + "/" + path)
	if err != nil {
		return "", fmt.Errorf("site file: %w", err)
	}
	return string(data), nil
}

// Start starts a deployment of its own for tb, with opts applied to its
// sites, and stops it when tb ends.
func Start(tb testing.TB, opts ...Option) *Deployment {
	tb.Helper()
	Require(tb)
	d, err := start(opts...)
	if err != nil {
		tb.Fatalf("reference deployment: %v", err)
	}
	tb.Cleanup(d.Stop)
	return d
}

var shared struct {
	once sync.Once
	d    *Deployment
	err  error
}

// Shared returns the deployment shared by the tests of one test binary,
// starting it on first use. It stops when the test binary exits (its
// processes die with it), or earlier with StopShared, which a TestMain may
// call after m.Run.
func Shared(tb testing.TB) *Deployment {
	tb.Helper()
	Require(tb)
	shared.once.Do(func() { shared.d, shared.err = start() })
	if shared.err != nil {
		tb.Fatalf("reference deployment: %v", shared.err)
	}
	return shared.d
}

// StopShared stops the shared deployment, if one was started.
func StopShared() {
	if shared.d != nil {
		shared.d.Stop()
	}
}

// ServiceURL is the address of /service/service.asmx.
func (d *Deployment) ServiceURL() string { return d.URL + ServicePath }

// SiteURL is the base address of the application in testdata/NAME: URL for
// the root application, URL/NAME for the others.
func (d *Deployment) SiteURL(name string) string {
	if name == Root {
		return d.URL
	}
	return d.URL + "/" + name
}

// Stop ends the deployment's processes and removes its files. It is safe to
// call more than once.
func (d *Deployment) Stop() {
	d.stopOnce.Do(func() {
		for _, p := range d.procs {
			killGroup(p.cmd)
			<-p.exited
		}
		_ = os.RemoveAll(d.dir)
	})
}

// Log returns what the deployment's processes wrote, for a failing test's
// message.
func (d *Deployment) Log() string {
	var b strings.Builder
	for _, name := range []string{"mono.log", "nginx-error.log"} {
		data, err := os.ReadFile(filepath.Join(d.dir, name))
		if err == nil && len(data) > 0 {
			fmt.Fprintf(&b, "== %s\n%s\n", name, data)
		}
	}
	return b.String()
}

// startTimeout bounds the wait for the first answer: Mono compiles the
// service on its first request.
const startTimeout = 90 * time.Second

// start starts a deployment; when a port it picked was taken meanwhile by
// another process (another deployment starting at the same moment: the
// ports are free when picked, not reserved), it tries again with others.
func start(opts ...Option) (*Deployment, error) {
	for try := 1; ; try++ {
		d, err := startOnce(opts...)
		if err == nil || try == 3 || !strings.Contains(err.Error(), "Address already in use") && !strings.Contains(err.Error(), "Address in use") {
			return d, err
		}
	}
}

func startOnce(opts ...Option) (d *Deployment, err error) {
	dir, err := os.MkdirTemp("", "atmkit-refdeploy-")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	d = &Deployment{dir: dir}
	defer func() {
		if err != nil {
			if log := d.Log(); log != "" {
				err = fmt.Errorf("%w\n%s", err, log)
			}
			d.Stop()
		}
	}()
	root := filepath.Join(dir, "sites")
	names, err := copySites(root)
	if err != nil {
		return d, err
	}
	for _, o := range opts {
		if err := o(root); err != nil {
			return d, err
		}
	}
	ports, err := freePorts(2)
	if err != nil {
		return d, err
	}
	httpPort, fcgiPort := ports[0], ports[1]
	d.URL = fmt.Sprintf("http://127.0.0.1:%d", httpPort)

	tmp := filepath.Join(dir, "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return d, fmt.Errorf("temporary directory: %w", err)
	}
	// Mono compiles the site into TMPDIR: one of its own per deployment,
	// so test binaries running at once do not share it.
	env := append(os.Environ(), "TMPDIR="+tmp, "MONO_ENV_OPTIONS=")
	apps := make([]string, len(names))
	for i, name := range names {
		apps[i] = vpath(name) + ":" + filepath.Join(root, name)
	}
	mono := exec.Command("fastcgi-mono-server4", "/applications="+strings.Join(apps, ","), fmt.Sprintf("/socket=tcp:127.0.0.1:%d", fcgiPort))
	mono.Env = env
	if err := d.run(mono, "mono.log"); err != nil {
		return d, err
	}

	conf := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(nginxConf(dir, root, names, httpPort, fcgiPort)), 0o644); err != nil {
		return d, fmt.Errorf("nginx configuration: %w", err)
	}
	nginx := exec.Command("nginx", "-p", dir, "-c", conf, "-e", filepath.Join(dir, "nginx-error.log"))
	if err := d.run(nginx, "nginx.log"); err != nil {
		return d, err
	}
	if err := d.wait(); err != nil {
		return d, err
	}
	var wg sync.WaitGroup
	for _, site := range Sites {
		if site.Name != Root && slices.Contains(names, site.Name) {
			wg.Go(func() { d.Warm(site) })
		}
	}
	wg.Wait()
	return d, nil
}

// Warm makes site ready, once per deployment: the sites of Sites are made
// ready when the deployment starts, a site of Variants when a test first
// calls Warm for it (see warm).
func (d *Deployment) Warm(site Site) {
	once, _ := d.warmed.LoadOrStore(site.Name, &sync.Once{})
	once.(*sync.Once).Do(func() { d.warm(site) })
}

// warm makes a site ready before any test calls it, each site in its own
// AppDomain of the one Mono process: its first request compiles it (10 to
// 20 seconds), here a request of its WSDL; and a site returning DataSets
// writes one. Mono's System.Data has a race in the first DataSet
// serializations of an AppDomain: two written at once may show
// msdata:DisplayExpression="" on a table of one of them and not of the
// other (about one deployment in six, seen with GET and POST calls and a
// WSDL request in parallel on the legacy site; never after a first
// serialization has finished, in 400 parallel calls). .NET writes the
// attribute only when a table has a DisplayExpression. The call goes over
// SOAP 1.1, which no web.config option of the tests disables; its answer
// does not matter.
func (d *Deployment) warm(site Site) {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	_ = get(ctx, d.SiteURL(site.Name)+ServicePath+"?WSDL")
	if site.DataSetOp == "" {
		return
	}
	// ReturnAllAtms's DataSet too: two tests' first ReturnAllAtms calls at
	// once on the sets site got Mono's 500 page, both, in a loaded CI run
	// after the site was warmed with ReturnProvinces alone.
	for _, op := range slices.Compact([]string{site.DataSetOp, "ReturnAllAtms"}) {
		warmCall(ctx, d.SiteURL(site.Name)+ServicePath, site, op)
	}
}

// warmCall sends op with site's key over SOAP 1.1 to the service at u; its
// answer does not matter.
func warmCall(ctx context.Context, u string, site Site, op string) {
	env := `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<` + op + ` xmlns="` + site.Namespace + `"><strAtmServiceKey>` + site.Key + `</strAtmServiceKey></` + op + `>` +
		`</soap:Body></soap:Envelope>`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, strings.NewReader(env))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"`+site.Namespace+"/"+op+`"`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}

// URL is the site's base address in deployment d: d.SiteURL(s.Name).
func (s Site) URL(d *Deployment) string { return d.SiteURL(s.Name) }

// run starts cmd in a process group of its own, killed with the test binary.
func (d *Deployment) run(cmd *exec.Cmd, logName string) error {
	log, err := os.Create(filepath.Join(d.dir, logName))
	if err != nil {
		return fmt.Errorf("log file: %w", err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	inGroup(cmd)
	if err := cmd.Start(); err != nil {
		_ = log.Close()
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p := &proc{cmd: cmd, exited: make(chan struct{})}
	d.procs = append(d.procs, p)
	go func() {
		_ = cmd.Wait()
		_ = log.Close()
		close(p.exited)
	}()
	return nil
}

// wait returns once both services answer: the WSDL, and the JSON path
// (each .asmx is compiled on its first request).
func (d *Deployment) wait() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	urls := []string{
		d.URL + ServicePath + "?WSDL",
		d.URL + JSONPath + "/ReturnAtmSearchByCoordinates?strAtmServiceKey=" + Key + "&strPostalCode=&dblLatitude=0&dblLongitude=0&bytRadius=0",
	}
	for _, u := range urls {
		var last error
		for {
			if last = get(ctx, u); last == nil {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("no answer from %s within %s: %w", u, startTimeout, last)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

func get(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}

// vpath is the virtual path an application is served at.
func vpath(name string) string {
	if name == Root {
		return "/"
	}
	return "/" + name + "/"
}

// copySites writes the embedded applications to dir and returns their names,
// the root one first.
func copySites(dir string) ([]string, error) {
	entries, err := sites.ReadDir("testdata")
	if err != nil {
		return nil, fmt.Errorf("sites: %w", err)
	}
	names := []string{Root}
	for _, e := range entries {
		if e.IsDir() && e.Name() != Root && e.Name() != sharedDir {
			names = append(names, e.Name())
		}
	}
	err = fs.WalkDir(sites, "testdata", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(path, "testdata/")
		if e.IsDir() {
			if rel == sharedDir {
				return nil
			}
			return os.MkdirAll(filepath.Join(dir, strings.TrimPrefix(path, "testdata")), 0o755)
		}
		data, err := sites.ReadFile(path)
		if err != nil {
			return err
		}
		dsts := []string{filepath.Join(dir, strings.TrimPrefix(path, "testdata"))}
		for site, from := range sameCode {
			if inner, ok := strings.CutPrefix(rel, from+"/"); ok && inner != "web.config" {
				dsts = append(dsts, filepath.Join(dir, site, filepath.FromSlash(inner)))
			}
		}
		if shared, ok := strings.CutPrefix(rel, sharedDir+"/"); ok {
			dsts = nil
			for _, site := range sharedStoreSites {
				dsts = append(dsts, filepath.Join(dir, site, "App_Code", shared))
			}
		}
		for _, dst := range dsts {
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return fmt.Errorf("copy site: %w", err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return fmt.Errorf("copy site: %w", err)
			}
		}
		return nil
	})
	return names, err
}

// sameCode names the sites that serve another's code (its App_Code and
// .asmx files) with a web.config of their own, and that site.
var sameCode = map[string]string{GroupedByName.Name: Grouped.Name, GroupSetsFlat.Name: GroupSets.Name}

// sharedDir holds the sources several sites compile, each its own copy:
// the store of sharedStoreSites. It is no site itself.
const sharedDir = "shared"

// sharedStoreSites are the sites whose App_Code gets the files of
// sharedDir (namespace AtmStore): one store of data and searches, and the
// JSON searches of service-v2.asmx. The legacy site keeps a store of its
// own, with data of its own: a deployment none of the others resembles.
var sharedStoreSites = []string{Typed.Name, Attrs.Name, DataSets.Name, Layered.Name, Nodes.Name, Sets.Name, Spaces.Name, Members.Name, Columns.Name, Grouped.Name, GroupedByName.Name, GroupSets.Name, GroupSetsFlat.Name}

// freePorts returns n loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			_ = ln.Close()
		}
	}()
	var ports []int
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("free port: %w", err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// nginxConf is a one-process nginx that hands every request to Mono over
// FastCGI, as ASMX-NOTES.md's recipe describes; its body limit is above
// ASP.NET's 4096 KB so that ASP.NET's own limit answers.
func nginxConf(dir, root string, names []string, httpPort, fcgiPort int) string {
	tmp := func(name string) string { return filepath.Join(dir, "nginx-"+name) }
	// One location per application (nginx picks the longest matching
	// prefix); the script's file is the application's directory plus the
	// path within it: sites/typed/service/service.asmx for the root
	// application, sites/NAME/... for /NAME/....
	var locations strings.Builder
	for _, name := range names {
		files := root
		if name == Root {
			files = filepath.Join(root, Root)
		}
		fmt.Fprintf(&locations, `    location %s {
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME %s$fastcgi_script_name;
      fastcgi_param PATH_INFO "";
      fastcgi_pass 127.0.0.1:%d;
    }
`, vpath(name), files, fcgiPort)
	}
	return fmt.Sprintf(`master_process off;
daemon off;
worker_processes 1;
pid %s;
error_log %s;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %s;
  fastcgi_temp_path %s;
  proxy_temp_path %s;
  uwsgi_temp_path %s;
  scgi_temp_path %s;
  client_max_body_size 16m;
  server {
    listen 127.0.0.1:%d;
%s  }
}
`, tmp("pid"), filepath.Join(dir, "nginx-error.log"), tmp("body"), tmp("fastcgi"), tmp("proxy"), tmp("uwsgi"), tmp("scgi"),
		httpPort, locations.String())
}
