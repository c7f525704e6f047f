package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestDifferentialURLLimits sends requests ASP.NET refuses by their URL to a
// reference deployment of its own, whose web.config sets the three limits
// to values of its own and turns custom errors off, and to the mock set
// alike with detailed errors: both must answer the same status and show the
// same HttpException message on their error page (HTML-encoded). The
// shared deployment's rows in TestDifferentialAgainstReference cover
// ASP.NET's defaults.
func TestDifferentialURLLimits(t *testing.T) {
	t.Parallel()
	refdeploy.Require(t)
	ref := refdeploy.Start(t,
		refdeploy.EditSiteFile(refdeploy.Root, "web.config", `<customErrors mode="On"/>`, `<customErrors mode="Off"/>`),
		refdeploy.EditSiteFile(refdeploy.Root, "web.config", `<httpRuntime maxRequestLength="4096"/>`,
			`<httpRuntime maxRequestLength="4096" maxUrlLength="300" maxQueryStringLength="100" requestPathInvalidCharacters="!,~"/>`))
	mock := newTestServer(t, WithNamespace(refdeploy.Namespace), WithKeys(refdeploy.Key), WithDetailedErrors(true),
		WithMaxURLLength(300), WithMaxQueryStringLength(100), WithRequestPathInvalidChars("!,~"))
	key := refdeploy.Key
	svc := "/service/service.asmx/"
	type answer struct {
		status int
		msg    string // the page's message; "" for an answer that is no such page
	}
	rows := []struct {
		name       string
		path       string
		want, mono answer
		why        string // why Mono answers mono, when it differs
	}{
		{"a query of 100", svc + "ReturnProvinces?" + longQuery(key, 100), answer{200, ""}, answer{400, queryTooLong}, whyQueryMark},
		{"a query of 101", svc + "ReturnProvinces?" + longQuery(key, 101), answer{400, queryTooLong}, answer{}, ""},
		{"a path of 300", longPath(svc+"ReturnProvinces/", 300), answer{500, ""}, answer{}, ""},
		{"a path of 301", longPath(svc+"ReturnProvinces/", 301), answer{400, urlTooLong}, answer{}, ""},
		{"the JSON path, a query of 101", "/service-v2.asmx/ReturnAtmSearchByCoordinates?" + longQuery(key, 101), answer{400, queryTooLong}, answer{}, ""},
		{"the WSDL, a query of 101", "/service/service.asmx?WSDL&" + longQuery(key, 96), answer{400, queryTooLong}, answer{}, ""},
		{"! in the path", svc + "ReturnProvinces!?strAtmServiceKey=" + key, answer{400, dangerousPath("!")}, answer{500, dangerousPath("!")}, whyPathStatus},
		{"~ in the path", svc + "Return~Provinces?strAtmServiceKey=" + key, answer{400, dangerousPath("~")}, answer{500, dangerousPath("~")}, whyPathStatus},
		{"the default characters are not set: % in the path", svc + "ReturnProvinces%25?strAtmServiceKey=" + key, answer{500, ""}, answer{}, ""},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			if got := pageAnswer(t, mock.URL+row.path); got.status != row.want.status || !strings.Contains(got.body, htmlText(row.want.msg)) {
				t.Errorf("mock: got %d %.600q, want %d and %q", got.status, got.body, row.want.status, row.want.msg)
			}
			want := row.want
			if row.why != "" {
				want = row.mono
				t.Logf("Mono differs from .NET here: %s", row.why)
			}
			if got := pageAnswer(t, ref.URL+row.path); got.status != want.status || !strings.Contains(got.body, htmlText(want.msg)) {
				t.Errorf("reference (Mono): got %d %.600q, want %d and %q\n%s", got.status, got.body, want.status, want.msg, ref.Log())
			}
		})
	}
}

// htmlText is s as an error page shows it: HTML-encoded.
func htmlText(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

// pageAnswer GETs u.
func pageAnswer(t *testing.T, u string) response {
	t.Helper()
	return do(t, mustRequest(t, http.MethodGet, u, ""))
}
