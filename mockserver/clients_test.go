package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
)

// The real SOAP clients live in testdata/clients; .ci/install-clients.sh
// installs them. Without them these tests skip, except under CI=true, where
// a missing client fails.
const clientsDir = "testdata/clients"

// requireClient skips (or, under CI, fails) when a client is missing.
func requireClient(t *testing.T, missing string) {
	t.Helper()
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: the clients must be installed; run .ci/install-clients.sh)", missing)
	}
	t.Skipf("%s; run .ci/install-clients.sh to install it (set CI=true to make this a failure)", missing)
}

// zeepPython finds a Python interpreter that can import zeep: python3 on
// PATH, or Debian's system interpreter (which python3-zeep installs for, and
// which a version manager on PATH can shadow). ATMKITTEST_PYTHON overrides both.
func zeepPython() (string, string) {
	candidates := []string{"python3", "/usr/bin/python3"}
	if p := os.Getenv("ATMKITTEST_PYTHON"); p != "" {
		candidates = []string{p}
	}
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import zeep").Run() == nil {
			return path, ""
		}
	}
	return "", "python3 with zeep (Debian package python3-zeep) is not installed"
}

// nodeSoap finds node and the node-soap package installed from package-lock.json.
func nodeSoap() (string, string) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", "node is not installed"
	}
	if _, err := os.Stat(filepath.Join(clientsDir, "node_modules", "soap", "package.json")); err != nil {
		return "", "node-soap is not installed in " + clientsDir + " (npm ci there)"
	}
	return node, ""
}

// phpSoap finds a PHP interpreter with the soap extension (Debian packages
// php-cli and php-soap).
func phpSoap() (string, string) {
	php, err := exec.LookPath("php")
	if err != nil {
		return "", "php is not installed (Debian package php-cli)"
	}
	if exec.Command(php, "-r", `exit(extension_loaded("soap") ? 0 : 1);`).Run() != nil {
		return "", "php has no soap extension (Debian package php-soap)"
	}
	return php, ""
}

// jaxwsTools finds what the JAX-WS client needs: wsimport (Debian package
// jaxws), JAX-WS RI's runtime jar (libjaxws-java; its manifest's Class-Path
// brings JAXB, SAAJ and the rest, which JDK 11+ no longer ship), javac and
// java. ATMKIT_JAXWS_RT overrides the jar's path.
func jaxwsTools() (wsimport, javac, java, rtJar, missing string) {
	var err error
	if wsimport, err = exec.LookPath("wsimport"); err != nil {
		return "", "", "", "", "wsimport is not installed (Debian package jaxws)"
	}
	rtJar = "/usr/share/java/jaxws-rt.jar"
	if p := os.Getenv("ATMKIT_JAXWS_RT"); p != "" {
		rtJar = p
	}
	if _, err := os.Stat(rtJar); err != nil {
		return "", "", "", "", "JAX-WS RI's runtime " + rtJar + " is missing (Debian package libjaxws-java)"
	}
	if javac, err = exec.LookPath("javac"); err != nil {
		return "", "", "", "", "javac is not installed (a JDK, e.g. Debian package default-jdk-headless)"
	}
	if java, err = exec.LookPath("java"); err != nil {
		return "", "", "", "", "java is not installed"
	}
	return wsimport, javac, java, rtJar, ""
}

// buildJaxwsClient generates a JAX-WS client from the mock's WSDL with
// wsimport (package atmservice) and compiles it with JaxwsClient.java and
// JaxwsFaultClient.java into a temporary directory, which it returns.
func buildJaxwsClient(t *testing.T, wsimport, javac, rtJar string) string {
	t.Helper()
	srv := newRecordingServer(t)
	dir := t.TempDir()
	src, classes := filepath.Join(dir, "src"), filepath.Join(dir, "classes")
	for _, d := range []string{src, classes} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		start := time.Now()
		out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
		}
		t.Logf("%s: %v", filepath.Base(name), time.Since(start).Round(time.Millisecond))
	}
	// -extension: the WSDL's SOAP 1.2 port, which wsimport calls a
	// non-standard binding, and ignores without it (as for any ASMX WSDL).
	run(wsimport, "-quiet", "-extension", "-keep", "-Xnocompile", "-p", "atmservice",
		"-s", src, "-d", src, srv.URL+"/service/service.asmx?WSDL")
	srcs := []string{filepath.Join(clientsDir, "JaxwsClient.java"), filepath.Join(clientsDir, "JaxwsFaultClient.java")}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			srcs = append(srcs, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) < 4 {
		t.Fatalf("wsimport generated %d Java files", len(srcs)-2)
	}
	run(javac, append([]string{"-nowarn", "-encoding", "UTF-8", "-cp", rtJar, "-d", classes}, srcs...)...)
	return classes
}

// clientCall is one call the client scripts make.
type clientCall struct {
	Op     string         `json:"op"`
	Params map[string]any `json:"params"`
}

// clientResult is what a client script reports for one call.
type clientResult struct {
	Op     string          `json:"op"`
	OK     bool            `json:"ok"`
	Error  string          `json:"error"`
	XML    string          `json:"xml"`    // zeep, PHP, JAX-WS: the result node
	Result json.RawMessage `json:"result"` // node-soap: the parsed <Op>Response
	Status int             `json:"status"` // node-soap: the HTTP status
}

// clientCalls gives one call per operation, with values typed as the WSDL
// types them, so that the clients serialize them from their own schema.
func clientCalls() []clientCall {
	var calls []clientCall
	for _, op := range asmx.Operations() {
		c := clientCall{Op: op.Name, Params: map[string]any{}}
		for _, kv := range paramsFor(op.Name, "client-key") {
			p, _ := op.Param(kv[0])
			switch p.Type {
			case asmx.Int, asmx.UnsignedByte:
				n, _ := strconv.Atoi(kv[1])
				c.Params[kv[0]] = n
			case asmx.Double:
				f, _ := strconv.ParseFloat(kv[1], 64)
				c.Params[kv[0]] = f
			default:
				c.Params[kv[0]] = kv[1]
			}
		}
		calls = append(calls, c)
	}
	return calls
}

// soapRequest is what the server saw of one SOAP request.
type soapRequest struct{ method, ctype, action string }

// recordingServer is a test server that notes the SOAP requests it gets.
type recordingServer struct {
	*httptest.Server
	mu   sync.Mutex // guards reqs
	reqs []soapRequest
}

func newRecordingServer(t *testing.T) *recordingServer {
	t.Helper()
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	rs := &recordingServer{}
	rs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.EqualFold(r.URL.Path, asmx.ServicePath) {
			rs.mu.Lock()
			rs.reqs = append(rs.reqs, soapRequest{r.Method, r.Header.Get("Content-Type"), r.Header.Get("SOAPAction")})
			rs.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(rs.Close)
	return rs
}

func (rs *recordingServer) requests() []soapRequest {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]soapRequest(nil), rs.reqs...)
}

// runClient runs one client over binding b against a fresh server and returns
// its results and the server's record of the SOAP requests. argv is the
// client's command line (interpreter, script), to which runClient appends
// the WSDL's URL, the binding and the calls as JSON.
func runClient(t *testing.T, b asmx.Binding, argv ...string) ([]clientResult, []soapRequest, string) {
	t.Helper()
	srv := newRecordingServer(t)
	calls, err := json.Marshal(clientCalls())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	script := argv[len(argv)-1]
	args := append(append([]string(nil), argv[1:]...), srv.URL+"/service/service.asmx?WSDL", b.String(), string(calls))
	cmd := exec.CommandContext(ctx, argv[0], args...)
	cmd.Dir = clientsDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstderr:\n%s\nstdout:\n%.2000s", script, b, err, stderr.String(), stdout.String())
	}
	t.Logf("%s over %s: %v", script, b, time.Since(start).Round(time.Millisecond))
	var results []clientResult
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil {
		t.Fatalf("%s %s: output is not JSON: %v\n%.2000s", script, b, err, stdout.String())
	}
	return results, srv.requests(), srv.URL
}

// checkSOAPRequests checks that the client spoke binding b for every operation.
func checkSOAPRequests(t *testing.T, b asmx.Binding, reqs []soapRequest) {
	t.Helper()
	if len(reqs) > 0 {
		t.Logf("first request: Content-Type %q, SOAPAction %q", reqs[0].ctype, reqs[0].action)
	}
	if len(reqs) != len(asmx.Operations()) {
		t.Errorf("SOAP requests: got %d, want %d (one per operation)", len(reqs), len(asmx.Operations()))
	}
	for _, r := range reqs {
		switch b {
		case asmx.SOAP11:
			if !strings.HasPrefix(r.ctype, "text/xml") || !strings.HasPrefix(strings.Trim(r.action, `"`), testNS+"/") {
				t.Errorf("SOAP 1.1 request: Content-Type %q, SOAPAction %q", r.ctype, r.action)
			}
		case asmx.SOAP12:
			if !strings.HasPrefix(r.ctype, "application/soap+xml") {
				t.Errorf("SOAP 1.2 request: Content-Type %q, want application/soap+xml", r.ctype)
			}
		}
	}
}

// expectedNode is the result node of op over HTTP GET, the reference the
// clients' results are compared with.
func expectedNode(t *testing.T, base string, op string) *etree.Element {
	t.Helper()
	r := call(t, base, asmx.HTTPGet, op, paramsFor(op, "client-key"))
	if r.status != 200 {
		t.Fatalf("%s over HTTP GET: status %d: %s", op, r.status, r.body)
	}
	return resultNode(t, asmx.HTTPGet, op, r.body)
}

// leaves lists the non-empty leaf values of an element tree as sorted
// "path=value" lines, the form both clients' results can be brought to.
func leaves(e *etree.Element) []string {
	var out []string
	var walk func(e *etree.Element, path string)
	walk = func(e *etree.Element, path string) {
		path += "/" + e.Tag
		kids := e.ChildElements()
		if len(kids) == 0 {
			if v := strings.TrimSpace(e.Text()); v != "" {
				out = append(out, path+"="+v)
			}
			return
		}
		for _, k := range kids {
			walk(k, path)
		}
	}
	walk(e, "")
	sort.Strings(out)
	return out
}

// jsonLeaves does the same for node-soap's parsed object: arrays stand for
// repeated elements, strings for leaves, null for empty elements.
func jsonLeaves(v any, path string, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if k == "attributes" || k == "$xml" {
				continue
			}
			jsonLeaves(c, path+"/"+k, out)
		}
	case []any:
		for _, c := range v {
			jsonLeaves(c, path, out)
		}
	case nil:
	default:
		if s := strings.TrimSpace(fmt.Sprint(v)); s != "" {
			*out = append(*out, path+"="+s)
		}
	}
}

// locationCount is the number of location nodes in a result, for the log.
func locationCount(e *etree.Element) int { return len(e.FindElements(".//location")) }

func TestZeepEveryOperation(t *testing.T) {
	t.Parallel()
	python, missing := zeepPython()
	requireClient(t, missing)
	everySOAPVersion(t, "zeep", python, "zeep_client.py")
}

func TestPHPSoapClientEveryOperation(t *testing.T) {
	t.Parallel()
	php, missing := phpSoap()
	requireClient(t, missing)
	everySOAPVersion(t, "PHP SoapClient", php, "soap_client.php")
}

// everySOAPVersion runs a client reporting results as XML (argv, as
// runClient takes it) over SOAP 1.1 and 1.2, each a subtest, and checks
// its requests and results.
func everySOAPVersion(t *testing.T, client string, argv ...string) {
	t.Helper()
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		t.Run(b.String(), func(t *testing.T) {
			t.Parallel()
			results, reqs, base := runClient(t, b, argv...)
			checkSOAPRequests(t, b, reqs)
			checkResults(t, results, base, checkResultXML(client))
		})
	}
}

// checkResultXML checks a result a client reported as the XML of the result
// node (zeep's, and PHP SoapClient's 'any' string) against HTTP GET's.
func checkResultXML(client string) func(*testing.T, clientResult, *etree.Element) {
	return func(t *testing.T, r clientResult, want *etree.Element) {
		doc := etree.NewDocument()
		if err := doc.ReadFromString(r.XML); err != nil {
			t.Fatalf("%s's result is not XML: %v\n%.500s", client, err, r.XML)
		}
		if doc.Root() == nil {
			t.Fatalf("%s's result has no element: %.500q", client, r.XML)
		}
		if got := doc.Root().Tag; got != want.Tag {
			t.Errorf("result root: got %q, want %q", got, want.Tag)
		}
		if got, want := canonical(doc.Root()), canonical(want); got != want {
			t.Errorf("result differs from HTTP GET's:\ngot  %.500s\nwant %.500s", got, want)
		}
	}
}

func TestJaxwsEveryOperation(t *testing.T) {
	t.Parallel()
	wsimport, javac, java, rtJar, missing := jaxwsTools()
	requireClient(t, missing)
	classes := buildJaxwsClient(t, wsimport, javac, rtJar)
	cp := classes + string(os.PathListSeparator) + rtJar
	everySOAPVersion(t, "JAX-WS", java, "-cp", cp, "JaxwsClient")
}

func TestNodeSoapEveryOperation(t *testing.T) {
	t.Parallel()
	node, missing := nodeSoap()
	requireClient(t, missing)
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		t.Run(b.String(), func(t *testing.T) {
			t.Parallel()
			results, reqs, base := runClient(t, b, node, "soap_client.js")
			checkSOAPRequests(t, b, reqs)
			checkResults(t, results, base, func(t *testing.T, r clientResult, want *etree.Element) {
				if r.Status != 200 {
					t.Errorf("status: got %d, want 200", r.Status)
				}
				var resp map[string]any
				if err := json.Unmarshal(r.Result, &resp); err != nil {
					t.Fatalf("node-soap's result: %v\n%.500s", err, r.Result)
				}
				res, ok := resp[r.Op+"Result"].(map[string]any)
				if !ok {
					t.Fatalf("node-soap's result has no object %sResult: %.500s", r.Op, r.Result)
				}
				if _, ok := res[want.Tag]; !ok {
					t.Errorf("result root: got keys %v, want %q", keys(res), want.Tag)
				}
				var got []string
				jsonLeaves(res, "", &got)
				sort.Strings(got)
				if w := leaves(want); strings.Join(got, "\n") != strings.Join(w, "\n") {
					t.Errorf("result differs from HTTP GET's:\ngot  %.600v\nwant %.600v", got, w)
				}
			})
		})
	}
}

// checkResults checks that every operation has a result, and hands each to
// check with the reference result node.
func checkResults(t *testing.T, results []clientResult, base string, check func(*testing.T, clientResult, *etree.Element)) {
	t.Helper()
	byOp := map[string]clientResult{}
	for _, r := range results {
		byOp[r.Op] = r
	}
	for _, op := range asmx.Operations() {
		t.Run(op.Name, func(t *testing.T) {
			r, ok := byOp[op.Name]
			if !ok {
				t.Fatalf("no result for %s", op.Name)
			}
			if !r.OK {
				t.Fatalf("call failed: %s", r.Error)
			}
			want := expectedNode(t, base, op.Name)
			check(t, r, want)
			if want.Tag == "atmLocations" && locationCount(want) == 0 {
				t.Errorf("the call finds no locations: the comparison would prove little")
			}
		})
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
