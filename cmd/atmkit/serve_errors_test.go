package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestServeErrorForms checks --detailed-errors and --json-errors (also as
// ATMKIT_JSON_ERRORS), and that a JSON error form atmkit does not know is a
// usage error.
func TestServeErrorForms(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, map[string]string{"ATMKIT_JSON_ERRORS": "ajax"}, "--detailed-errors")
	body := wantGet(t, "GET without intCityID", base+"/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=k", "", 500)
	if want := "System.InvalidOperationException: Missing parameter: intCityID.\r\n   at "; !strings.HasPrefix(body, want) {
		t.Errorf("GET without intCityID: got %q, want it to start %q", body, want)
	}
	resp, err := http.Get(base + "/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=k")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 || resp.Header.Get("jsonerror") != "true" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("JSON error: got %d %q jsonerror=%q, want 500 application/json jsonerror=true",
			resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("jsonerror"))
	}

	code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--json-errors", "xml")
	if code != exitUsage || !strings.Contains(stderr, `--json-errors xml: want asmx or ajax`) {
		t.Errorf("--json-errors xml: got exit %d and %q, want exit %d naming the value", code, stderr, exitUsage)
	}
	for name, want := range map[string]string{
		"ATMKIT_JSON_ERRORS":        `ATMKIT_JSON_ERRORS="xml": want asmx or ajax (--json-errors)`,
		"ATMKIT_ON_MISS":            `ATMKIT_ON_MISS="xml": want fault, fixtures or upstream (--on-miss)`,
		"ATMKIT_REQUEST_VALIDATION": `ATMKIT_REQUEST_VALIDATION="xml": want 4.0, 4.5 or 2.0 (or off) (--request-validation)`,
	} {
		code, _, stderr := runAtmkit(map[string]string{name: "xml"}, "serve", "--addr", "127.0.0.1:0")
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s=xml: got exit %d and %q, want exit %d and %q", name, code, stderr, exitUsage, want)
		}
	}
}

// TestServeWarnsOfKeyWithSpaces: a key with white space at its ends (a
// paste slip, or cmd.exe's `set ATMKIT_KEY=k && atmkit serve`, which keeps
// the space before &&) is served as given, with a warning that masks it,
// whichever way it came: --key, ATMKIT_KEY, ATMKIT_KEYS (where a space
// after a comma belongs to the next key) or a config file. ASMX compares
// keys exactly, and conform and cassette verify send ATMKIT_KEY as it is:
// the variables' keys were trimmed for serve alone, so a mock started with
// `set ATMKIT_KEY=k ` refused the conform run beside it. A key of white
// space only is refused as an empty --key is.
func TestServeWarnsOfKeyWithSpaces(t *testing.T) {
	t.Parallel()
	const spaced, other = "Spaced-Key-123 ", "Other-Key-456"
	config := filepath.Join(t.TempDir(), "atmkit.yaml")
	if err := os.WriteFile(config, []byte("keys: [\""+spaced+"\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		env      map[string]string
		args     []string
		accepted []string // the keys served; spaced is always refused without its space
	}{
		{"--key", nil, []string{"--key", spaced}, []string{spaced}},
		{"ATMKIT_KEY", map[string]string{"ATMKIT_KEY": spaced}, nil, []string{spaced}},
		{"ATMKIT_KEYS", map[string]string{"ATMKIT_KEYS": spaced + "," + other}, nil, []string{spaced, other}},
		{"config file", nil, []string{"--config", config}, []string{spaced}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, _, stderr := startServe(t, tc.env, tc.args...)
			if got, want := stderr.String(), "atmkit: WARNING: the key Sp**** has white space at its ends"; !strings.Contains(got, want) || strings.Contains(got, "Spaced-Key-123") {
				t.Errorf("stderr %q, want %q and no key", got, want)
			}
			provinces := base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey="
			for _, k := range tc.accepted {
				wantGet(t, "the key "+strconv.Quote(k), provinces+url.QueryEscape(k), "", 200)
			}
			wantGet(t, "the key without its spaces", provinces+strings.TrimSpace(spaced), "", 500)
		})
	}
	code, _, stderr := runAtmkit(map[string]string{"ATMKIT_KEY": " "}, "serve", "--addr", "127.0.0.1:0")
	wantUsageLine(t, "ATMKIT_KEY of a space", code, "", stderr, "an empty key")
}

// TestServeURLLimits checks --max-url-length, --max-query-string-length
// (as ATMKIT_MAX_QUERY_STRING_LENGTH) and --request-path-invalid-chars:
// ASP.NET's 400 page past the deployment's own values, and usage errors
// for values web.config would refuse.
func TestServeURLLimits(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, map[string]string{"ATMKIT_MAX_QUERY_STRING_LENGTH": "40"},
		"--detailed-errors", "--max-url-length", "50", "--request-path-invalid-chars", "!,%2C")
	provinces := base + "/service/service.asmx/ReturnProvinces"
	for _, tc := range []struct {
		url    string
		status int
		text   string
	}{
		{provinces + "?strAtmServiceKey=k&x=" + strings.Repeat("a", 40-21), 200, ""},
		{provinces + "?strAtmServiceKey=k&x=" + strings.Repeat("a", 41-21), 400, "The length of the query string for this request exceeds the configured maxQueryStringLength value."},
		{provinces + "/" + strings.Repeat("x", 50-38), 500, "Web Service method name is not valid."},
		{provinces + "/" + strings.Repeat("x", 51-38), 400, "The length of the URL for this request exceeds the configured maxUrlLength value."},
		{provinces + "%2C", 400, "A potentially dangerous Request.Path value was detected from the client (,)."},
		{provinces + "%3C", 500, "Web Service method name is not valid."},
	} {
		body := wantGet(t, tc.url, tc.url, "", tc.status)
		if !strings.Contains(body, tc.text) {
			t.Errorf("GET %s: got %.300q, want %q", tc.url, body, tc.text)
		}
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--max-url-length", "0"}},
		{[]string{"--max-query-string-length", "2097152"}},
		{[]string{"--request-path-invalid-chars", "<>"}},
	} {
		code, _, stderr := runAtmkit(nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.args[0]+" "+tc.args[1]+": want ") {
			t.Errorf("%v: got exit %d and %q, want exit %d naming the value", tc.args, code, stderr, exitUsage)
		}
	}
}

// TestServeMaxHTTPCollectionKeys checks --max-http-collection-keys (as
// ATMKIT_MAX_HTTP_COLLECTION_KEYS): a query of the limit's keys is read, one
// more pair gets ASP.NET's refusal; none by default; a negative value is a
// usage error.
func TestServeMaxHTTPCollectionKeys(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, map[string]string{"ATMKIT_MAX_HTTP_COLLECTION_KEYS": "3"}, "--detailed-errors")
	provinces := base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k&a=1&b=2"
	wantGet(t, "GET with 3 keys", provinces, "", 200)
	body := wantGet(t, "GET with 4 pairs", provinces+"&a=3", "", 500)
	if want := "current value of 3, change the &quot;aspnet:MaxHttpCollectionKeys&quot; setting."; !strings.Contains(body, want) {
		t.Errorf("GET with 4 pairs: got %.300q, want %q", body, want)
	}
	unset, _, _ := startServe(t, nil)
	many := unset + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k" + strings.Repeat("&a=1", 500)
	wantGet(t, "GET with 501 pairs, no limit", many, "", 200)
	code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--max-http-collection-keys", "-1")
	if code != exitUsage || !strings.Contains(stderr, "--max-http-collection-keys -1: want ") {
		t.Errorf("--max-http-collection-keys -1: got exit %d and %q, want exit %d naming the value", code, stderr, exitUsage)
	}
}
