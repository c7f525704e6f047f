package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestFaultsInClients checks the table "How each fault looks to the common
// clients" of docs/testing.md: each client calls the mock over SOAP 1.1
// once per injected fault, with a timeout of faultClientTimeout, and the
// test checks the stable part of what the client reports (the exception's
// class, a code, a status, a key phrase) and how many calls the mock saw.
// Mono's ASMX proxy stands in for the .NET Framework's; where its texts or
// statuses differ from the reference source's, only what both share is
// checked (see the Mono wants).
func TestFaultsInClients(t *testing.T) {
	t.Parallel()
	for _, c := range faultClients() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			run := c.prepare(t)
			for _, sc := range faultScenarios() {
				t.Run(sc.name, func(t *testing.T) {
					checkFaultScenario(t, c, sc, run)
				})
			}
		})
	}
}

// faultClientTimeout is every client's timeout: 4 s, so that an answer
// that comes at once does so within it on a loaded 2-core machine with five
// clients at work under -race (at 2 s, the Go client once waited longer
// for the dribble's header, sent and flushed at once, with the load at 9). faultDelay is well above it, so that a client stalled on
// a busy machine still times out first (the mock ends a delay when the
// client goes away: it costs no time), and the dribble lasts longer than
// it, in chunks a fifth of it apart, so that the per-read timeouts never
// fire.
const (
	faultClientTimeout = 4 * time.Second
	faultDelay         = 12 * time.Second
	faultDribble       = 8 * time.Second
	faultChunks        = 10
)

// faultCase is one fault the table has a row for: injected on op (or
// "WSDL"), each client called once.
type faultCase struct {
	row   string // the table's row
	op    string
	fault Fault
}

// faultScenario is one mock the clients run against: its faults, one per
// operation, so that one client process makes every call.
type faultScenario struct {
	name  string
	cases []faultCase
}

func faultScenarios() []faultScenario {
	return []faultScenario{
		{"calls", []faultCase{
			{"delay", asmx.OpReturnAllAtms, Fault{Delay: faultDelay}},
			{"dribble", asmx.OpReturnInstitutions, Fault{Dribble: &Dribble{Chunks: faultChunks, Duration: faultDribble}}},
			{"status 503", asmx.OpReturnAtmSearchByAddress, Fault{Status: 503}},
			{"soapFault", asmx.OpReturnAtmSearchByCoordinates, Fault{SOAPFault: &SOAPFault{Code: "Server", Text: "Database unavailable"}}},
			{"drop", asmx.OpReturnAtmSearchByAddressWithMaximum, Fault{Drop: true}},
			{"reset", asmx.OpReturnAtmSearchByInstitution, Fault{Reset: &Reset{}}},
			{"garbage", asmx.OpReturnAtmSearchByCity, Fault{Garbage: true}},
			{"malformed", asmx.OpReturnProvinces, Fault{Malformed: true}},
		}},
		{"reset mid-body", []faultCase{
			{"reset mid-body", asmx.OpReturnAtmSearchByInstitution, Fault{Reset: &Reset{AfterBytes: 100}}},
		}},
		// The clients that read the WSDL at run time fail before any call;
		// the others make this call.
		{"WSDL", []faultCase{
			{"WSDL", "WSDL", Fault{Status: 503}},
		}},
	}
}

// faultResult is what a client reports for one call (the fields the
// fault_client scripts print; which of them a client fills in is said by
// its script). Go's results are made by goFaultClient.
type faultResult struct {
	Op        string   `json:"op"`
	OK        bool     `json:"ok"`
	MS        int      `json:"ms"`
	Class     string   `json:"class"`
	Message   string   `json:"message"`
	Code      string   `json:"code"`
	Status    int      `json:"status"`
	Causes    []string `json:"causes"`
	Fault     string   `json:"fault"`
	FaultCode string   `json:"faultCode"`
}

// faultWant is what a client must report for a fault's call. Empty fields
// are not checked, but ok.
type faultWant struct {
	ok     bool   // the call succeeds (the fault is waited out, or never reached)
	null   bool   // the call returns no result, and throws nothing
	class  string // the exception's class (Go: where the error surfaced)
	code   string // the error's code (see faultResult); ending in _, its start
	status int    // the HTTP status the error carries
	text   string // a phrase of the message
	fault  string // the text of the SOAP fault the client parsed
	cause  string // the start of one of the causes ("class: message")
	calls  int    // the calls the mock's journal shows; 0: 1
	// or is the other outcome a race in the client allows.
	or *faultWant
}

// faultClient is one client of the table's columns.
type faultClient struct {
	name string
	// prepare finds (or builds) the client, or skips t, and returns how to
	// run it against the mock at base with the calls.
	prepare func(t *testing.T) func(t *testing.T, base string, calls []clientCall) []faultResult
	// readsNoWSDL: the client never reads the WSDL at run time (a proxy
	// generated from it); in the WSDL scenario it makes a call instead.
	readsNoWSDL bool
	// want is what it reports for each row.
	want map[string]faultWant
}

func faultClients() []faultClient {
	timeoutMS := fmt.Sprint(faultClientTimeout.Milliseconds())
	return []faultClient{
		{
			name: "JAX-WS",
			prepare: func(t *testing.T) func(*testing.T, string, []clientCall) []faultResult {
				wsimport, javac, java, rtJar, missing := jaxwsTools()
				requireClient(t, missing)
				cp := buildJaxwsClient(t, wsimport, javac, rtJar) + string(os.PathListSeparator) + rtJar
				return wsdlClient(java, "-cp", cp, "JaxwsFaultClient", "{wsdl}", timeoutMS)
			},
			want: map[string]faultWant{
				"delay":          {class: "javax.xml.ws.WebServiceException", cause: "java.net.SocketTimeoutException: Read timed out"},
				"dribble":        {ok: true},
				"status 503":     {class: "com.sun.xml.ws.client.ClientTransportException", text: "The server sent HTTP status code 503: Service Unavailable"},
				"soapFault":      {class: "com.sun.xml.ws.fault.ServerSOAPFaultException", text: "Database unavailable"},
				"drop":           {class: "javax.xml.ws.WebServiceException", cause: "java.net.SocketException: Unexpected end of file from server", calls: 2},
				"reset":          {class: "com.sun.xml.ws.protocol.soap.MessageCreationException", cause: "java.net.SocketException: Connection reset"},
				"reset mid-body": {class: "com.sun.xml.ws.protocol.soap.MessageCreationException", cause: "java.net.SocketException: Connection reset"},
				"garbage":        {class: "com.sun.xml.ws.client.ClientTransportException", text: "The server sent HTTP status code -1"},
				"malformed":      {class: "com.sun.xml.ws.encoding.soap.DeserializationException", cause: "javax.xml.bind.UnmarshalException"},
				"WSDL":           {class: "javax.xml.ws.WebServiceException", text: "Failed to access the WSDL at: ", cause: "java.io.IOException: Server returned HTTP response code: 503 for URL: "},
			},
		},
		{
			name: "PHP SoapClient",
			prepare: func(t *testing.T) func(*testing.T, string, []clientCall) []faultResult {
				php, missing := phpSoap()
				requireClient(t, missing)
				return wsdlClient(php, "fault_client.php", "{wsdl}", fmt.Sprint(int(faultClientTimeout.Seconds())))
			},
			want: map[string]faultWant{
				"delay":      {class: "SoapFault", code: "HTTP", text: "Error Fetching http headers"},
				"dribble":    {ok: true},
				"status 503": {class: "SoapFault", code: "HTTP", text: "Service Unavailable"},
				// The fault code as the answer writes it, prefix and all.
				"soapFault": {class: "SoapFault", code: "soap:Server", text: "Database unavailable"},
				"drop":      {class: "SoapFault", code: "HTTP", text: "Error Fetching http headers"},
				// SoapClient reads the body up to its Content-Length or the
				// connection's end, and takes none at all for no result:
				// the call returns null, and nothing is thrown.
				"reset":          {null: true},
				"reset mid-body": {class: "SoapFault", code: "Client", text: "looks like we got no XML document"},
				"garbage":        {class: "SoapFault", code: "HTTP", text: "Error Fetching http headers"},
				"malformed":      {class: "SoapFault", code: "Client", text: "looks like we got no XML document"},
				"WSDL":           {class: "SoapFault", code: "WSDL", text: "SOAP-ERROR: Parsing WSDL: Couldn't load from '"},
			},
		},
		{
			name: "node-soap",
			prepare: func(t *testing.T) func(*testing.T, string, []clientCall) []faultResult {
				node, missing := nodeSoap()
				requireClient(t, missing)
				return wsdlClient(node, "fault_client.js", "{wsdl}", timeoutMS)
			},
			want: map[string]faultWant{
				"delay":   {class: "AxiosError", code: "ECONNABORTED", text: "timeout of " + fmt.Sprint(faultClientTimeout.Milliseconds()) + "ms exceeded"},
				"dribble": {ok: true},
				// node-soap parses the IIS page as XML, and fails: what it
				// hands the callback is no Error but an object.
				"status 503": {class: "Object", status: 503, fault: "Invalid XML"},
				"soapFault":  {class: "Error", status: 500, text: "soap:Server: Database unavailable", fault: "Database unavailable"},
				"drop":       {class: "AxiosError", code: "ECONNRESET", text: "socket hang up"},
				// A race in Node: the socket's error before the response
				// event, or after it, which aborts the body's stream.
				"reset":          {class: "AxiosError", code: "ECONNRESET", text: "read ECONNRESET", or: &nodeAborted},
				"reset mid-body": {class: "AxiosError", code: "ECONNRESET", text: "read ECONNRESET", or: &nodeAborted},
				// Node's HTTP parser names its error HPE_<what it expected>.
				"garbage":   {class: "AxiosError", code: "HPE_", text: "Parse Error"},
				"malformed": {class: "Object", status: 200, fault: "Invalid XML"},
				"WSDL":      {class: "Error", text: "Invalid WSDL URL: "},
			},
		},
		{
			name:        "ASMX proxy (Mono)",
			readsNoWSDL: true,
			prepare: func(t *testing.T) func(*testing.T, string, []clientCall) []faultResult {
				refdeploy.RequireClient(t)
				exe := refdeploy.BuildClient(t, newRecordingServer(t).URL+asmx.ServicePath+"?WSDL", filepath.Join(clientsDir, "FaultClient.cs"))
				return func(t *testing.T, base string, calls []clientCall) []faultResult {
					var stdin strings.Builder
					for _, c := range calls {
						stdin.WriteString(c.Op)
						for _, kv := range paramsFor(c.Op, "client-key") {
							fmt.Fprintf(&stdin, "\t%s=%s", kv[0], kv[1])
						}
						stdin.WriteString("\n")
					}
					return runFaultClient(t, "", stdin.String(), "mono", exe, base+asmx.ServicePath, timeoutMS)
				}
			},
			// .NET Framework's texts and statuses where Mono's differ (the
			// table keeps .NET's): status 503 is "The request failed with
			// HTTP status 503: Service Unavailable." (Mono leaves {0}: {1});
			// drop is status ConnectionClosed, or KeepAliveFailure on a
			// reused connection (Mono: ReceiveFailure); reset throws the
			// IOException itself (Mono wraps it in a WebException).
			want: map[string]faultWant{
				"delay":          {class: "System.Net.WebException", code: "Timeout"},
				"dribble":        {ok: true},
				"status 503":     {class: "System.Net.WebException", code: "ProtocolError", status: 503},
				"soapFault":      {class: "System.Web.Services.Protocols.SoapException", text: "Database unavailable"},
				"drop":           {class: "System.Net.WebException"},
				"reset":          {cause: "System.IO.IOException: Unable to read data from the transport connection"},
				"reset mid-body": {cause: "System.IO.IOException: Unable to read data from the transport connection"},
				"garbage":        {class: "System.Net.WebException", code: "ServerProtocolViolation"},
				"malformed":      {class: "System.InvalidOperationException", text: "There is an error in XML document", cause: "System.Xml.XmlException"},
				// The proxy never reads the WSDL: the call succeeds.
				"WSDL": {ok: true},
			},
		},
		{
			name:    "Go http.Client",
			prepare: func(*testing.T) func(*testing.T, string, []clientCall) []faultResult { return goFaultClient },
			// Go's class is where the error surfaced: Do, ReadAll (the
			// body) or xml.Unmarshal; its code ECONNRESET, EOF or timeout
			// when errors.Is or net.Error says so.
			want: map[string]faultWant{
				"delay":          {class: "Do", code: "timeout", text: "Client.Timeout exceeded while awaiting headers"},
				"dribble":        {class: "ReadAll", code: "timeout", status: 200, text: "(Client.Timeout or context cancellation while reading body)"},
				"status 503":     {ok: true, status: 503},
				"soapFault":      {ok: true, status: 500},
				"drop":           {class: "Do", code: "EOF"},
				"reset":          {class: "ReadAll", code: "ECONNRESET", status: 200, text: "connection reset by peer"},
				"reset mid-body": {class: "ReadAll", code: "ECONNRESET", status: 200, text: "connection reset by peer"},
				"garbage":        {class: "Do", text: "malformed HTTP response"},
				"malformed":      {class: "xml.Unmarshal", status: 200, text: "XML syntax error"},
				"WSDL":           {ok: true, status: 503},
			},
		},
	}
}

// nodeAborted is node-soap's error for a reset once the response event
// came: axios's body stream was aborted.
var nodeAborted = faultWant{class: "AxiosError", code: "ERR_BAD_RESPONSE", status: 200, text: "stream has been aborted"}

// wsdlClient runs a fault_client script that makes its client from the WSDL:
// argv is its command line, with "{wsdl}" for the WSDL's URL; the calls
// (JSON) follow.
func wsdlClient(argv ...string) func(t *testing.T, base string, calls []clientCall) []faultResult {
	return func(t *testing.T, base string, calls []clientCall) []faultResult {
		js, err := json.Marshal(calls)
		if err != nil {
			t.Fatal(err)
		}
		args := make([]string, 0, len(argv)+1)
		for _, a := range argv {
			args = append(args, strings.ReplaceAll(a, "{wsdl}", base+asmx.ServicePath+"?WSDL"))
		}
		return runFaultClient(t, clientsDir, "", append(args, string(js))...)
	}
}

// runFaultClient runs a client's command line in dir with stdin and reads
// the JSON list of results it prints.
func runFaultClient(t *testing.T, dir, stdin string, argv ...string) []faultResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstderr:\n%s\nstdout:\n%.2000s", filepath.Base(argv[0]), err, stderr.String(), stdout.String())
	}
	t.Logf("%s: %v", filepath.Base(argv[0]), time.Since(start).Round(time.Millisecond))
	var out []faultResult
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%s: output is not JSON: %v\n%.2000s", filepath.Base(argv[0]), err, stdout.String())
	}
	return out
}

// goFaultClient makes the calls with an http.Client whose Timeout is
// faultClientTimeout, as an app calling SOAP by hand does: POST the
// envelope, read the body, and for a 200 decode it.
func goFaultClient(t *testing.T, base string, calls []clientCall) []faultResult {
	client := &http.Client{Timeout: faultClientTimeout}
	var out []faultResult
	do := func(op string, req *http.Request) {
		r := faultResult{Op: op}
		fail := func(stage string, err error) {
			r.Class, r.Message = stage, err.Error()
			var ne net.Error
			switch {
			case errors.Is(err, syscall.ECONNRESET):
				r.Code = "ECONNRESET"
			case errors.Is(err, io.EOF):
				r.Code = "EOF"
			case errors.As(err, &ne) && ne.Timeout():
				r.Code = "timeout"
			}
		}
		start := time.Now()
		defer func() { r.MS = int(time.Since(start).Milliseconds()); out = append(out, r) }()
		resp, err := client.Do(req)
		if err != nil {
			fail("Do", err)
			return
		}
		defer resp.Body.Close()
		r.Status = resp.StatusCode
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			fail("ReadAll", err)
			return
		}
		if resp.StatusCode == 200 {
			var env struct{ XMLName xml.Name }
			if err := xml.Unmarshal(body, &env); err != nil {
				fail("xml.Unmarshal", err)
				return
			}
		}
		r.OK = true
	}
	if len(calls) == 0 { // the WSDL scenario: a client reading the WSDL at run time
		req, err := http.NewRequest(http.MethodGet, base+asmx.ServicePath+"?WSDL", nil)
		if err != nil {
			t.Fatal(err)
		}
		do("WSDL", req)
	}
	for _, c := range calls {
		do(c.Op, callRequest(t, base, asmx.SOAP11, c.Op, paramsFor(c.Op, "client-key")))
	}
	return out
}

// checkFaultScenario starts a mock with the scenario's faults, runs the
// client against it and checks each call's result and the calls the
// mock's journal shows.
func checkFaultScenario(t *testing.T, c faultClient, sc faultScenario, run func(*testing.T, string, []clientCall) []faultResult) {
	ts := NewTestServer(t, WithDataset(smallDataset()))
	byOp := map[string]clientCall{}
	for _, call := range clientCalls() {
		byOp[call.Op] = call
	}
	var calls []clientCall
	ids := map[string]string{}
	for _, fc := range sc.cases {
		f := fc.fault
		f.Operation = fc.op
		added, err := ts.AddFault(f)
		if err != nil {
			t.Fatalf("%s: %v", fc.row, err)
		}
		ids[fc.row] = added.ID
		if fc.op != "WSDL" {
			calls = append(calls, byOp[fc.op])
		}
	}
	wsdlOnly := len(calls) == 0
	if wsdlOnly && c.readsNoWSDL {
		calls = append(calls, byOp[asmx.OpReturnProvinces])
	}
	results := run(t, ts.URL, calls)
	got := map[string]faultResult{}
	for _, r := range results {
		got[r.Op] = r
	}
	for _, fc := range sc.cases {
		t.Run(fc.row, func(t *testing.T) {
			want, ok := c.want[fc.row]
			if !ok {
				t.Fatalf("no want for row %q", fc.row)
			}
			var r faultResult
			if wsdlOnly {
				if len(results) != 1 {
					t.Fatalf("want 1 result, got %d: %+v", len(results), results)
				}
				r = results[0]
			} else if r, ok = got[fc.op]; !ok {
				t.Fatalf("no result for %s: %+v", fc.op, results)
			}
			t.Logf("%s: %+v", fc.row, r)
			checkFaultResult(t, r, want)
			if fc.op != "WSDL" {
				checkFaultCalls(t, ts, ids[fc.row], want.calls)
			}
		})
	}
}

// checkFaultResult checks one call's result against want (or its or).
func checkFaultResult(t *testing.T, r faultResult, want faultWant) {
	t.Helper()
	errs := faultMismatch(r, want)
	if len(errs) > 0 && want.or != nil && len(faultMismatch(r, *want.or)) == 0 {
		return
	}
	for _, e := range errs {
		t.Error(e)
	}
	if len(errs) > 0 && want.or != nil {
		t.Errorf("nor the other outcome: %q", faultMismatch(r, *want.or))
	}
}

// faultMismatch says how r differs from want.
func faultMismatch(r faultResult, want faultWant) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if r.OK != want.ok {
		bad("ok: got %v, want %v (%s: %s)", r.OK, want.ok, r.Class, r.Message)
	}
	if want.status != 0 && r.Status != want.status {
		bad("status: got %d, want %d", r.Status, want.status)
	}
	if want.ok {
		return errs
	}
	if want.null && r.Class != "" {
		bad("got %s: %s, want no exception", r.Class, r.Message)
	}
	if want.class != "" && r.Class != want.class {
		bad("class: got %q, want %q (%s)", r.Class, want.class, r.Message)
	}
	if want.code != "" && r.Code != want.code && !(strings.HasSuffix(want.code, "_") && strings.HasPrefix(r.Code, want.code)) {
		bad("code: got %q, want %q", r.Code, want.code)
	}
	if !strings.Contains(r.Message, want.text) {
		bad("message: got %q, want it to hold %q", r.Message, want.text)
	}
	if !strings.Contains(r.Fault, want.fault) {
		bad("SOAP fault's text: got %q, want it to hold %q", r.Fault, want.fault)
	}
	if want.cause != "" {
		found := false
		for _, c := range r.Causes {
			found = found || strings.HasPrefix(c, want.cause)
		}
		if !found {
			bad("causes: got %q, want one starting %q", r.Causes, want.cause)
		}
	}
	return errs
}

// checkFaultCalls checks that the journal shows want calls (0: 1) taken by
// fault id. A call the client gave up on is journaled once the mock sees it
// gone: the count may need a moment to get there.
func checkFaultCalls(t *testing.T, ts *TestServer, id string, want int) {
	t.Helper()
	if want == 0 {
		want = 1
	}
	var n int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if n = len(ts.Journal(RequestFilter{Fault: id})); n >= want || time.Now().After(deadline) {
			break
		}
	}
	if n != want {
		t.Errorf("the journal shows %d calls of fault %s, want %d", n, id, want)
	}
}
