package cassettes_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/beevik/etree"
)

// TestReplayGetErrorsOverSOAP records the error a wrong key gets over HTTP
// GET from two sites of the reference deployment (Mono), one throwing a
// SoapException of the Client code (typed), one an
// UnauthorizedAccessException (legacy), and replays it over SOAP 1.1 and
// 1.2, beside what the deployment answers there:
//
//   - customErrors On (what a remote caller sees): the GET texts are the
//     bare messages, alike for both exceptions, so replay serves what ASMX
//     writes for an exception other than a SoapException (a Server fault,
//     "Server was unable to process request. ---> " before the text): the
//     legacy site's answer; the typed site's own is a Client fault with the
//     message alone, which no GET text shows.
//   - customErrors Off (a caller on the server, or a development
//     deployment): the GET text is the exception's, type name and stack
//     trace, so replay writes what ASMX writes: a SoapException's text as
//     it is, any other wrapped in ASMX's SoapException. The typed site's
//     fault code (Client) still shows nowhere in the text: Server.
//
// The SOAP fault recorded and replayed over GET and POST is the text the
// deployment writes there, in either form.
func TestReplayGetErrorsOverSOAP(t *testing.T) {
	t.Parallel()
	var opts []refdeploy.Option
	for _, site := range []string{refdeploy.Root, refdeploy.Legacy.Name} {
		wc, err := refdeploy.SiteFile(site, "web.config")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(wc, `<customErrors mode="On"/>`) {
			t.Fatalf("the %s site's web.config sets no customErrors On: the test tests nothing", site)
		}
		opts = append(opts, refdeploy.WebConfig(site, strings.Replace(wc, `<customErrors mode="On"/>`, `<customErrors mode="Off"/>`, 1)))
	}
	deployments := map[string]*refdeploy.Deployment{"remote": refdeploy.Shared(t), "detailed": refdeploy.Start(t, opts...)}
	for _, form := range []string{"remote", "detailed"} {
		d := deployments[form]
		for _, site := range []refdeploy.Site{refdeploy.Typed, refdeploy.Legacy} {
			base := d.SiteURL(site.Name)
			q := query{Op: asmx.OpReturnProvinces}
			path := recordVia(t, base, func(proxy *httptest.Server) {
				if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, site.Namespace, asmx.HTTPGet, q, "wrong-key", false)); status != 500 {
					t.Fatalf("%s %s: recording the wrong key's GET: got %d %q, want 500", form, site.Name, status, body)
				}
			})
			idx, err := cassettes.LoadIndex([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(site.Namespace))
			for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
				status, body := do(t, replay.Client(), requestNS(t, replay.URL, site.Namespace, b, q, "wrong-key", false))
				code, text := faultParts(t, body)
				_, direct := do(t, replay.Client(), requestNS(t, base, site.Namespace, b, q, "wrong-key", false))
				wantCode, want := faultParts(t, direct)
				server := "Server"
				if b == asmx.SOAP12 {
					server = "Receiver"
				}
				switch {
				case site == refdeploy.Typed && form == "remote":
					wantCode, want = server, "Server was unable to process request. ---> "+want
				case site == refdeploy.Typed:
					wantCode = server
				}
				if status != 500 || code != wantCode || text != want {
					t.Errorf("%s %s over %s: replayed %d %s %q,\nwant 500 %s %q", form, site.Name, b, status, code, text, wantCode, want)
				}
			}

			// The SOAP fault recorded, replayed over GET and POST: the
			// text ASMX writes there, whichever the exception.
			path = recordVia(t, base, func(proxy *httptest.Server) {
				if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, site.Namespace, asmx.SOAP11, q, "wrong-key", false)); status != 500 {
					t.Fatalf("%s %s: recording the wrong key's SOAP call: got %d %q, want 500", form, site.Name, status, body)
				}
			})
			idx, err = cassettes.LoadIndex([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			replay = mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(site.Namespace))
			for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.HTTPPost} {
				status, got := do(t, replay.Client(), requestNS(t, replay.URL, site.Namespace, b, q, "wrong-key", false))
				_, want := do(t, replay.Client(), requestNS(t, base, site.Namespace, b, q, "wrong-key", false))
				if form == "remote" { // the remote form's line end is .NET's (Mono's: \n)
					got, want = strings.TrimRight(got, "\r\n"), strings.TrimRight(want, "\r\n")
				}
				if status != 500 || got != want {
					t.Errorf("%s %s over %s, from SOAP: replayed %d %q,\nwant 500 %q", form, site.Name, b, status, got, want)
				}
			}
		}
	}
}

// faultParts returns the code (without prefix) and text of a SOAP 1.1 or
// 1.2 fault.
func faultParts(t *testing.T, body string) (code, text string) {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		t.Fatalf("no SOAP fault: %v\n%s", err, body)
	}
	for _, p := range []string{"//faultcode", "//Fault/Code/Value"} {
		if e := doc.FindElement(p); e != nil {
			code = e.Text()
		}
	}
	for _, p := range []string{"//faultstring", "//Fault/Reason/Text"} {
		if e := doc.FindElement(p); e != nil {
			text = e.Text()
		}
	}
	if code == "" {
		t.Fatalf("no SOAP fault:\n%s", body)
	}
	_, code, _ = strings.Cut(code, ":")
	return code, text
}
