package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// siteRequest is one request a session against a site sends: a call in a
// binding, a document, or a call ASMX rejects.
type siteRequest struct {
	name    string
	binding string // the call's binding; "" for documents and rejections
	build   func(base string) (*http.Request, error)
}

// rejected reports whether ASMX rejects r: every request of a session but
// the calls and the documents.
func (r siteRequest) rejected() bool {
	return r.binding == "" && !strings.HasPrefix(r.name, "the ") || r.name == "the key in the path"
}

// siteSession lists the requests of a demanding user's recording session
// against site: every call in every binding, the WSDL, the help page, and
// calls ASMX rejects (a wrong key, a missing parameter, a bad number, an
// unknown SOAPAction).
func siteSession(site refdeploy.Site) []siteRequest {
	ns, key := site.Namespace, site.Key
	calls := refdeploy.Calls
	if site == refdeploy.Legacy {
		calls = refdeploy.LegacyCalls
	}
	withKey := func(k string, params [][2]string) [][2]string {
		return append([][2]string{{"strAtmServiceKey", k}}, params...)
	}
	// A client that built its path wrong puts the key in it, before any
	// call is answered 200: the recorder sweeps that key once its first
	// call is, and its progress line, printed at once, must not hold it.
	out := []siteRequest{{"the key in the path", "", func(base string) (*http.Request, error) {
		return http.NewRequest("GET", base+refdeploy.ServicePath+"/"+key, nil)
	}}}
	// A wrong key first, before any 200: a key rejection once the right
	// key has its first 200.
	for _, b := range []string{"get", "soap11", "soap12", "post", "json"} {
		c := calls[2] // ReturnAtmSearchByCoordinates, offered in every binding
		out = append(out, siteRequest{"a wrong key over " + b, "", func(base string) (*http.Request, error) {
			return mocktest.NewRequest(base, ns, b, c.Op, withKey("a-wrong-key", c.Params))
		}})
	}
	for _, c := range calls {
		for _, b := range mocktest.BindingsOf(c.Op) {
			out = append(out, siteRequest{fmt.Sprint(c, " over ", b), b, func(base string) (*http.Request, error) {
				return mocktest.NewRequest(base, ns, b, c.Op, withKey(key, c.Params))
			}})
		}
	}
	get := func(name, path string) siteRequest {
		return siteRequest{name, "", func(base string) (*http.Request, error) { return http.NewRequest("GET", base+path, nil) }}
	}
	out = append(out,
		get("the WSDL", refdeploy.ServicePath+"?WSDL"),
		get("the help page", refdeploy.ServicePath),
		get("the discovery document", refdeploy.ServicePath+"?disco"),
		siteRequest{"the help page of an operation", "", func(base string) (*http.Request, error) {
			// As a browser follows the help page's link: Mono's page of
			// an operation needs its binding (bnd), named after the
			// service's class.
			resp, err := http.Get(base + refdeploy.ServicePath)
			if err != nil {
				return nil, err
			}
			page, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return nil, err
			}
			link := opPageLink.FindString(string(page))
			if link == "" {
				return nil, fmt.Errorf("the help page links to no page of ReturnProvinces: %.300s", page)
			}
			return http.NewRequest("GET", base+refdeploy.ServicePath+strings.TrimPrefix(html.UnescapeString(link), "service.asmx"), nil)
		}},
		get("a bad number over json", refdeploy.JSONPath+"/ReturnAtmSearchByCoordinates?strAtmServiceKey="+url.QueryEscape(key)+"&strPostalCode=&dblLatitude=north&dblLongitude=-63.5&bytRadius=5"),
		get("a missing parameter over get", refdeploy.ServicePath+"/ReturnAtmSearchByCity?strAtmServiceKey="+url.QueryEscape(key)),
		get("a bad number over get", refdeploy.ServicePath+"/ReturnAtmSearchByCity?strAtmServiceKey="+url.QueryEscape(key)+"&intCityID=abc"),
		siteRequest{"a bad number over post", "", func(base string) (*http.Request, error) {
			return mocktest.NewRequest(base, ns, "post", "ReturnAtmSearchByInstitution", withKey(key, [][2]string{{"intInstitutionID", "x1"}}))
		}},
		siteRequest{"an unknown SOAPAction", "", func(base string) (*http.Request, error) {
			req, err := mocktest.NewRequest(base, ns, "soap11", "ReturnProvinces", withKey(key, nil))
			if err == nil {
				req.Header.Set("SOAPAction", `"`+ns+`/ReturnNothing"`)
			}
			return req, err
		}},
		siteRequest{"an unreadable SOAP body", "", func(base string) (*http.Request, error) {
			req, err := http.NewRequest("POST", base+refdeploy.ServicePath, strings.NewReader(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`))
			if err == nil {
				req.Header.Set("Content-Type", "text/xml; charset=utf-8")
				req.Header.Set("SOAPAction", `"`+ns+`/ReturnProvinces"`)
			}
			return req, err
		}},
		siteRequest{"a SOAP 1.1 envelope as SOAP 1.2", "", func(base string) (*http.Request, error) {
			req, err := mocktest.NewRequest(base, ns, "soap11", "ReturnProvinces", withKey(key, nil))
			if err == nil {
				req.Header.Set("Content-Type", "application/soap+xml; charset=utf-8")
			}
			return req, err
		}},
		siteRequest{"an unknown operation over get", "", func(base string) (*http.Request, error) {
			return http.NewRequest("GET", base+refdeploy.ServicePath+"/ReturnEverything?strAtmServiceKey="+url.QueryEscape(key), nil)
		}},
		siteRequest{"a PUT", "", func(base string) (*http.Request, error) {
			return http.NewRequest("PUT", base+refdeploy.ServicePath+"/ReturnProvinces?strAtmServiceKey="+url.QueryEscape(key), strings.NewReader("x"))
		}},
		siteRequest{"the JSON call POSTed", "", func(base string) (*http.Request, error) {
			req, err := http.NewRequest("POST", base+refdeploy.JSONPath+"/ReturnAtmSearchByCoordinates", strings.NewReader(`{"strAtmServiceKey":"`+key+`","strPostalCode":"","dblLatitude":44.6,"dblLongitude":-63.5,"bytRadius":5}`))
			if err == nil {
				req.Header.Set("Content-Type", "application/json; charset=utf-8")
			}
			return req, err
		}},
		siteRequest{"an empty SOAPAction", "", func(base string) (*http.Request, error) {
			req, err := mocktest.NewRequest(base, ns, "soap11", "ReturnProvinces", withKey(key, nil))
			if err == nil {
				req.Header.Set("SOAPAction", `""`)
			}
			return req, err
		}},
		siteRequest{"the SOAP 1.2 call with an unknown action", "", func(base string) (*http.Request, error) {
			req, err := mocktest.NewRequest(base, ns, "soap12", "ReturnProvinces", withKey(key, nil))
			if err == nil {
				req.Header.Set("Content-Type", `application/soap+xml; charset=utf-8; action="`+ns+`/ReturnNothing"`)
			}
			return req, err
		}},
		get("a bad number over get, the path in another case", "/SERVICE/Service.asmx/ReturnAtmSearchByCity?strAtmServiceKey="+url.QueryEscape(key)+"&intCityID=x"),
		get("no operation after the file", refdeploy.ServicePath+"/?strAtmServiceKey="+url.QueryEscape(key)),
		siteRequest{"a wrong key over get, again", "", func(base string) (*http.Request, error) {
			return mocktest.NewRequest(base, ns, "get", "ReturnProvinces", withKey("a-wrong-key", nil))
		}},
	)
	return out
}

// opPageLink is the help page's link to the page of ReturnProvinces over
// SOAP 1.1 (Mono's: ?page=op&tab=main&op=...&bnd=...).
var opPageLink = regexp.MustCompile(`service\.asmx\?page=op&(?:amp;)?tab=main&(?:amp;)?op=ReturnProvinces&(?:amp;)?bnd=\w+`)

// siteAnswer is what a request got.
type siteAnswer struct {
	status      int
	contentType string
	body        []byte
}

func sendSiteRequest(t *testing.T, base string, r siteRequest) siteAnswer {
	t.Helper()
	req, err := r.build(base)
	if err != nil {
		t.Fatal(err)
	}
	status, header, body := mocktest.Do(t, req)
	return siteAnswer{status, header.Get("Content-Type"), body}
}

// startRecorder runs atmkit record in process until the returned stop is
// called, which returns what it printed on stdout and stderr.
func startRecorder(t *testing.T, args ...string) (base string, stop func() string) {
	t.Helper()
	stdout, stderr := newLockedBuffer(), newLockedBuffer()
	m := &Main{cli.Env{Stdout: stdout, Stderr: stderr, Getenv: func(string) string { return "" }}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, append([]string{"record"}, args...)) }()
	stopped := false
	stop = func() string {
		if !stopped {
			stopped = true
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("atmkit record: %v\nstderr: %s", err, stderr)
				}
			case <-time.After(30 * time.Second):
				t.Errorf("atmkit record did not stop within 30s")
			}
		}
		return stdout.String() + stderr.String()
	}
	t.Cleanup(func() { stop() })
	select {
	case base = <-stdout.url:
	case err := <-done:
		t.Fatalf("atmkit record ended before listening: %v\nstderr: %s", err, stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("atmkit record printed no startup line within 30s")
	}
	return base, stop
}

// TestRecordEverySite records, with atmkit record, a session (siteSession:
// every operation in every binding, the WSDL, the help page, the discovery
// document, calls ASMX rejects, a key in the path; then atmkit conform
// through the proxy) from every site of the reference deployment
// (refdeploy.Sites, Variants, Members and Columns; all but the typed one
// below a base path), and checks: neither the cassette nor what record
// printed holds the key, cassette scrub --check and cassette list pass;
// atmkit serve --replay answers each request as the site did (status,
// content type, body; the addresses in the WSDL and discovery document its
// own, a help page's links without the base path, as
// docs/record-replay.md says), the deployment's own errors included; from
// the calls of one binding alone (and the WSDL), the other XML bindings
// get the site's own answers; cassette verify finds no drift; atmkit
// conform against the replaying mock counts what it counted through the
// recorder.
func TestRecordEverySite(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	all := append(append(append([]refdeploy.Site{}, refdeploy.Sites...), refdeploy.Variants...), refdeploy.Members, refdeploy.Columns)
	for _, site := range all {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			dir, base, ns := t.TempDir(), d.SiteURL(site.Name), site.Namespace
			rec := filepath.Join(dir, "rec")
			proxy, stopRecording := startRecorder(t, "--upstream", base, "--cassette", rec, "--addr", "127.0.0.1:0", "--log-level", "debug")
			session := siteSession(site)
			direct := make([]siteAnswer, len(session))
			for i, r := range session {
				direct[i] = sendSiteRequest(t, proxy, r)
				if want := http.StatusOK; r.rejected() == (direct[i].status == want) {
					t.Fatalf("%s: status %d (rejected: %t): %.300s", r.name, direct[i].status, r.rejected(), refdeploy.PageText(string(direct[i].body)))
				}
			}
			proxyCode, proxyOut := runConformProcess(t, "--target", proxy, "--key", site.Key, "--no-color")
			printed := stopRecording()
			whole := rec + ".yaml"
			// The same session again, into the same cassette: nothing new,
			// the key in the path included (held back until the key's
			// first 200 shows it the one recorded before).
			proxy, stopRecording = startRecorder(t, "--upstream", base, "--cassette", rec, "--addr", "127.0.0.1:0")
			for _, r := range session {
				sendSiteRequest(t, proxy, r)
			}
			if again := stopRecording(); !strings.Contains(again, " new)") || !strings.Contains(again, "(0 new)") {
				t.Errorf("recording the session again:\n%s", again)
			}
			raw, err := os.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}

			for _, form := range keyForms(site.Key) {
				if bytes.Contains(raw, []byte(form)) {
					t.Errorf("the cassette holds the key as %q", form)
				}
				if strings.Contains(printed, form) {
					t.Errorf("record printed the key as %q:\n%s", form, printed)
				}
			}
			if code, out, errOut := runAtmkit(nil, "cassette", "scrub", "--check", whole); code != 0 {
				t.Errorf("cassette scrub --check: exit %d\n%s\n%s", code, out, errOut)
			}
			// Scrubbing what atmkit record wrote changes nothing.
			scrubbed := filepath.Join(dir, "scrubbed.yaml")
			if err := os.WriteFile(scrubbed, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out, errOut := runAtmkit(nil, "cassette", "scrub", scrubbed); code != 0 {
				t.Errorf("cassette scrub: exit %d\n%s\n%s", code, out, errOut)
			}
			if again, err := os.ReadFile(scrubbed); err != nil || !bytes.Equal(again, raw) {
				t.Errorf("cassette scrub changed what atmkit record wrote (%v): %d bytes, were %d", err, len(again), len(raw))
			}
			code, out, errOut := runAtmkit(nil, "cassette", "list", whole)
			if code != 0 || strings.Contains(out, site.Key) {
				t.Errorf("cassette list: exit %d\n%s\n%s", code, out, errOut)
			}

			learned := filepath.Join(dir, "learned.yaml")
			if code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--cassette", whole, "--out", learned); code != 0 {
				t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
			}

			mock, stop := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", whole, "--namespace", ns, "--key", site.Key)
			for i, r := range session {
				if i == 0 {
					continue // the key in the path: swept from the recording
				}
				got, want := sendSiteRequest(t, mock, r), direct[i]
				got.body = bytes.ReplaceAll(got.body, []byte(mock), []byte(base))
				if site != refdeploy.Typed && strings.Contains(want.contentType, "html") {
					// A help page's links to the service below the base
					// path lose it (docs/record-replay.md).
					want.body = bytes.ReplaceAll(want.body, []byte(`"/`+site.Name+`/service`), []byte(`"/service`))
				}
				if got.status != want.status || got.contentType != want.contentType || !bytes.Equal(got.body, want.body) {
					t.Errorf("replayed %s: got %d %q\n%.1500s\nwant the recorded %d %q\n%.1500s", r.name, got.status, got.contentType, got.body, want.status, want.contentType, want.body)
				}
			}
			if banner := stop(); !strings.Contains(banner, "3 documentation pages") {
				t.Errorf("the banner does not count the help page and the discovery document:\n%s", banner)
			}

			// From one binding alone (and the WSDL), in the other XML
			// bindings: re-wrapped as ASMX writes them.
			for _, from := range []string{"soap11", "soap12", "get"} {
				alone := filepath.Join(dir, from+".yaml")
				keepBindingAndWSDL(t, whole, alone, from)
				mock, stop = startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", alone, "--namespace", ns, "--key", site.Key)
				for i, r := range session {
					if r.binding == "" || r.binding == from || r.binding == "json" {
						continue
					}
					got, want := sendSiteRequest(t, mock, r), direct[i]
					if got.status != want.status || got.contentType != want.contentType || !bytes.Equal(got.body, want.body) {
						t.Errorf("from %s alone, %s: got %d %q\n%.1500s\nwant the site's %d %q\n%.1500s", from, r.name, got.status, got.contentType, got.body, want.status, want.contentType, want.body)
					}
				}
				stop()
			}

			env := map[string]string{"ATMKIT_KEY": site.Key}
			if code, out, errOut := runAtmkitWithin(deploymentWithin, env, "cassette", "verify", "--upstream", base, "--concurrency", "2", whole); code != exitOK {
				t.Errorf("cassette verify: exit %d, want 0\n%s\n%s", code, tail(out, 6000), errOut)
			}

			mock, _ = startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", whole, "--namespace", ns, "--key", site.Key)
			mockCode, mockOut := runConformProcess(t, "--target", mock, "--key", site.Key, "--no-color")
			if proxyCode != mockCode || summary(proxyOut) != summary(mockOut) {
				t.Errorf("conform: through the recorder exit %d, the replaying mock %d\nrecorder:\n%s\nmock:\n%s", proxyCode, mockCode, tail(proxyOut, 5000), tail(mockOut, 8000))
			}
		})
	}
}

// keepBindingAndWSDL writes the calls over b answered 200 and the WSDL of
// the cassette at from into a new cassette at to.
func keepBindingAndWSDL(t *testing.T, from, to, b string) {
	t.Helper()
	list, err := cassettes.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := cassettes.List(from)
	if err != nil {
		t.Fatal(err)
	}
	var kept []*cassette.Interaction
	for k, i := range list {
		if entries[k].Binding == b && entries[k].Status == 200 || strings.HasSuffix(strings.ToLower(i.Request.URL), "?wsdl") {
			kept = append(kept, i)
		}
	}
	if err := cassettes.WriteFile(to, kept); err != nil {
		t.Fatal(err)
	}
}

// summary is conform's line of counts.
func summary(out string) string {
	for line := range strings.Lines(out) {
		if strings.Contains(line, " Passed | ") {
			return line
		}
	}
	return ""
}
