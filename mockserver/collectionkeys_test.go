package mockserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// keysMessage is System.Web's CollectionCountExceeded_HttpValueCollection
// for limit, HTML-encoded as the GET and POST texts and the error page
// show it.
func keysMessage(limit int) string {
	return fmt.Sprintf(`The maximum number of form, query string, or posted file items has already been read from the request. To change the maximum allowed request collection count from its current value of %d, change the &quot;aspnet:MaxHttpCollectionKeys&quot; setting.`, limit)
}

// withKeys is coordsQuery (5 keys) and more pairs x1=1, x2=1... up to
// keys distinct keys in all.
func withKeys(keys int) string {
	q := coordsQuery
	for i := 1; i <= keys-5; i++ {
		q += fmt.Sprintf("&x%d=1", i)
	}
	return q
}

// TestMaxHTTPCollectionKeys: with aspnet:MaxHttpCollectionKeys set (here
// 10), ASP.NET reads a query string or form of up to 10 keys and refuses
// the next pair once it holds 10 (HttpValueCollection.
// ThrowIfMaxHttpCollectionKeysExceeded): keys, not pairs, so a name
// repeated, in any case, counts once. The HTTP GET and POST protocols and
// the JSON path answer HTTP 500 in their error form (a form's error
// wrapped in "The URL-encoded form data is not valid."), the documentation
// ASP.NET's error page; SOAP never reads the query string. The count comes
// before request validation.
func TestMaxHTTPCollectionKeys(t *testing.T) {
	t.Parallel()
	detailed := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithMaxHTTPCollectionKeys(10))
	remote := newTestServer(t, WithKeys("good"), WithMaxHTTPCollectionKeys(10))
	coords := "/service/service.asmx/ReturnAtmSearchByCoordinates"
	jsonCoords := "/service-v2.asmx/ReturnAtmSearchByCoordinates"
	refusedGet := plainText("System.InvalidOperationException: " + keysMessage(10))
	refusedForm := plainText("System.Web.HttpException (0x80004005): The URL-encoded form data is not valid. ---> System.InvalidOperationException: " + keysMessage(10))
	soap := func(query string) rawRequest {
		r := s11(coordsAction, env("1.1", coordsBody))
		r.path += query
		return r
	}
	soap12 := func(query string) rawRequest {
		r := s12(env("1.2", coordsBody))
		r.path += query
		return r
	}
	tests := []struct {
		name   string
		base   string
		req    rawRequest
		checks []check
	}{
		{"get, 9 keys", detailed.URL, get(coords + "?" + withKeys(9)), []check{hasStatus(200)}},
		{"get, 10 keys", detailed.URL, get(coords + "?" + withKeys(10)), []check{hasStatus(200)}},
		{"get, 11 keys", detailed.URL, get(coords + "?" + withKeys(11)), []check{hasStatus(500), refusedGet,
			bodyContains("   at System.Web.HttpValueCollection.ThrowIfMaxHttpCollectionKeysExceeded()\r\n   at System.Web.HttpValueCollection.FillFromString(String s, Boolean urlencoded, Encoding encoding)\r\n   at System.Web.HttpRequest.FillInQueryStringCollection()")}},
		{"get, 10 keys and names repeated", detailed.URL, get(coords + "?x1=1&X1=2&x1=3&" + withKeys(10)), []check{hasStatus(200)}},
		{"get, 10 keys and a repeated name after them", detailed.URL, get(coords + "?" + withKeys(10) + "&x1=1"), []check{hasStatus(500), refusedGet}},
		{"get, 10 keys and a pair without a name after them", detailed.URL, get(coords + "?" + withKeys(10) + "&x"), []check{hasStatus(500), refusedGet}},
		{"get, 10 keys and a trailing &", detailed.URL, get(coords + "?" + withKeys(10) + "&"), []check{hasStatus(200)}},
		{"get, 9 keys, a trailing & and the null name", detailed.URL, get(coords + "?" + withKeys(9) + "&x&"), []check{hasStatus(200)}},
		{"get, 10 keys and the null name", detailed.URL, get(coords + "?x&" + withKeys(9) + "&y&z"), []check{hasStatus(500), refusedGet}},
		{"get, keys counted before request validation", detailed.URL, get(coords + "?" + withKeys(11) + "&x=%3Cb"), []check{hasStatus(500), refusedGet}},
		{"post, 10 keys", detailed.URL, postForm(coords, asmx.ContentTypeForm, withKeys(10)), []check{hasStatus(200)}},
		{"post, 11 keys", detailed.URL, postForm(coords, asmx.ContentTypeForm, withKeys(11)), []check{hasStatus(500), refusedForm,
			bodyContains("   at System.Web.HttpRequest.FillInFormCollection()\r\n   at System.Web.HttpRequest.get_Form()\r\n   at System.Web.Services.Protocols.HtmlFormParameterReader.Read(HttpRequest request)")}},
		{"post, the query string is not read", detailed.URL, postForm(coords+"?"+withKeys(20), asmx.ContentTypeForm, coordsQuery), []check{hasStatus(200)}},
		{"json get, 11 keys", detailed.URL, get(jsonCoords + "?" + withKeys(11)), []check{hasStatus(500), refusedGet}},
		{"json post, 11 keys", detailed.URL, postForm(jsonCoords, asmx.ContentTypeForm, withKeys(11)), []check{hasStatus(500), refusedForm}},
		{"soap 1.1 does not read the query string", detailed.URL, soap("?" + withKeys(20)), []check{hasStatus(200)}},
		{"soap 1.2 does not read the query string", detailed.URL, soap12("?" + withKeys(20)), []check{hasStatus(200)}},
		{"?WSDL, 10 keys", detailed.URL, get("/service/service.asmx?WSDL&" + withKeys(9)), []check{hasStatus(200), bodyContains("<wsdl:definitions")}},
		{"?WSDL, 11 keys", detailed.URL, get("/service/service.asmx?WSDL&" + withKeys(10)), []check{hasStatus(500), hasContentType(asmx.ContentTypeHTML),
			bodyContains("System.InvalidOperationException: Failed to handle request. ---&gt; System.InvalidOperationException: " + keysMessage(10))}},
		{"help page, 11 keys", detailed.URL, get("/service/service.asmx?op=ReturnProvinces&" + withKeys(10)), []check{hasStatus(500), hasContentType(asmx.ContentTypeHTML), bodyContains(keysMessage(10))}},
		{"remote, get: the message", remote.URL, get(coords + "?" + withKeys(11)), []check{hasStatus(500), plainText(keysMessage(10)), notContains("System.InvalidOperationException")}},
		{"remote, ?disco: ASP.NET's page", remote.URL, get("/service/service.asmx?disco&" + withKeys(10)), []check{hasStatus(500), errorPage(), notContains("aspnet:MaxHttpCollectionKeys")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runChecks(t, sendRaw(t, tt.base, tt.req), tt.checks...) })
	}
}

// TestMaxHTTPCollectionKeysDefault: by default, as .NET Framework 4.5 and
// later, there is no limit: a form of 1,500 keys is read, and answered.
// With 1000, ASP.NET 2.0's, 3.5's and 4.0's default since MS11-100, the
// same form is refused.
func TestMaxHTTPCollectionKeysDefault(t *testing.T) {
	t.Parallel()
	coords := "/service/service.asmx/ReturnAtmSearchByCoordinates"
	body := withKeys(1500)
	if r := sendRaw(t, newTestServer(t, WithKeys("good")).URL, postForm(coords, asmx.ContentTypeForm, body)); r.status != http.StatusOK {
		t.Errorf("default: got %d %.300q, want 200", r.status, r.body)
	}
	old := newTestServer(t, WithKeys("good"), WithMaxHTTPCollectionKeys(asmx.MS11100MaxHTTPCollectionKeys))
	runChecks(t, sendRaw(t, old.URL, postForm(coords, asmx.ContentTypeForm, body)), hasStatus(500), plainText(keysMessage(1000)))
	runChecks(t, sendRaw(t, old.URL, postForm(coords, asmx.ContentTypeForm, withKeys(1000))), hasStatus(200))
	if _, err := New(WithMaxHTTPCollectionKeys(-1)); err == nil || !strings.Contains(err.Error(), "max HTTP collection keys") {
		t.Errorf("New(WithMaxHTTPCollectionKeys(-1)): got %v, want an error naming it", err)
	}
}
