package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestServeServiceName checks --service-name, whatever sets it (the flag,
// ATMKIT_SERVICE_NAME, the config file's service-name): the WSDL names its
// service, bindings and ports after it, the help page's title too; by
// default the service is AtmService. A name ASMX would not write in its
// WSDL stops serve with exit 2 and one line naming it.
func TestServeServiceName(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "atmkit.yaml")
	if err := os.WriteFile(config, []byte("service-name: LegacyService\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"the flag", nil, []string{"--service-name", "Service"}, "Service"},
		{"the variable", map[string]string{"ATMKIT_SERVICE_NAME": "AtmLocator"}, nil, "AtmLocator"},
		{"the config file", nil, []string{"--config", config}, "LegacyService"},
		{"the flag over the config file", nil, []string{"--config", config, "--service-name", "Service"}, "Service"},
		{"the default", nil, nil, "AtmService"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, _, _ := startServe(t, tc.env, tc.args...)
			wsdl := wantGet(t, "WSDL", base+asmx.ServicePath+"?WSDL", "", http.StatusOK)
			for _, want := range []string{
				`<wsdl:service name="` + tc.want + `">`,
				`<wsdl:binding name="` + tc.want + `Soap12" type="tns:` + tc.want + `Soap">`,
				`<wsdl:port name="` + tc.want + `HttpPost" binding="tns:` + tc.want + `HttpPost">`,
			} {
				if !strings.Contains(wsdl, want) {
					t.Errorf("WSDL: want %q in it", want)
				}
			}
			if _, page := get(t, base+asmx.ServicePath, ""); !strings.Contains(page, "<title>"+tc.want+" Web Service</title>") {
				t.Errorf("help page: got %.300q, want the title %q", page, tc.want+" Web Service")
			}
		})
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("service-name: \"Atm Service\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--service-name", "atm:Service"}, `--service-name atm:Service: ':' cannot be in an XML name without a colon (NCName)`},
		{nil, []string{"--service-name", "2Service"}, `--service-name 2Service: '2' cannot begin an XML name`},
		{nil, []string{"--service-name", ""}, `--service-name "": empty`},
		{map[string]string{"ATMKIT_SERVICE_NAME": "Atm/Service"}, nil, `ATMKIT_SERVICE_NAME="Atm/Service": '/' cannot be in`},
		{nil, []string{"--config", bad}, `' ' cannot be in`},
	} {
		code, _, stderr := runAtmkit(tc.env, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v %v: got exit %d and %q, want exit %d and one line with %q", tc.env, tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// TestServeReplayTakesTheRecordedServiceName checks that a replaying mock
// names the documents it writes itself (here the help pages and the disco
// document, which the cassette did not record) after the service of the
// WSDL recorded (AttrService), as the recorded WSDL it serves does; a
// --service-name given wins for them.
func TestServeReplayTakesTheRecordedServiceName(t *testing.T) {
	t.Parallel()
	cassette := filepath.Join("..", "..", "cassettes", "testdata", "reference-attrs.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "AttrService"},
		{[]string{"--service-name", "AtmLocator"}, "AtmLocator"},
	} {
		base, _, _ := startServe(t, nil, append([]string{"--replay", cassette}, tc.args...)...)
		if _, wsdl := get(t, base+asmx.ServicePath+"?WSDL", ""); !strings.Contains(wsdl, `<wsdl:service name="AttrService">`) {
			t.Errorf("%v: WSDL: got %.300q, want the recorded one, service AttrService", tc.args, wsdl)
		}
		if _, page := get(t, base+asmx.ServicePath, ""); !strings.Contains(page, "<title>"+tc.want+" Web Service</title>") {
			t.Errorf("%v: help page: got %.300q, want the title %q", tc.args, page, tc.want+" Web Service")
		}
		if _, disco := get(t, base+asmx.ServicePath+"?disco", ""); !strings.Contains(disco, `binding="q1:`+tc.want+`Soap"`) {
			t.Errorf("%v: disco: got %.500q, want the binding %sSoap", tc.args, disco, tc.want)
		}
	}
}

// TestServeServiceNameDotNetClient builds a .NET client the way an app
// team of a deployment whose class is Service makes one (Mono's wsdl tool
// and mcs, code naming the proxy class Proxy.Service) from the WSDL of a
// mock served with --service-name Service: it compiles, and calls the mock
// over SOAP 1.1 and 1.2. Against the default name it would not compile.
func TestServeServiceNameDotNetClient(t *testing.T) {
	t.Parallel()
	refdeploy.RequireClient(t)
	const key = "named-key"
	base, _, _ := startServe(t, nil, "--service-name", "Service", "--key", key)
	exe := refdeploy.BuildClient(t, base+asmx.ServicePath+"?WSDL", "testdata/dotnet/NamedClient.cs")
	out, err := exec.Command("mono", exe, base+asmx.ServicePath, key).CombinedOutput()
	if err != nil {
		t.Fatalf("the client: %v\n%s", err, out)
	}
	// One result a SOAP version, each the data set's provinces.
	if got := string(out); strings.Count(got, "</provinces>") != 2 || strings.Count(got, "<code>NB</code>") != 2 {
		t.Errorf("the client read %.600q, want the provinces twice (SOAP 1.1 and 1.2)", got)
	}
}
