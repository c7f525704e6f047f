package asmx

import (
	"strings"
	"testing"
)

// keysExceededAsDotNet is HttpValueCollection.FillFromString's loop as
// written in .NET's reference source, with the collection's keys in a
// list compared by sameName: the check before each pair, the trailing '&'
// adding the null name unchecked.
func keysExceededAsDotNet(s string, limit int) bool {
	if limit <= 0 {
		return false
	}
	var names []namedValues
	count := 0
	add := func(name string, null bool) {
		for _, n := range names {
			if n.null == null && sameName(n.name, name) {
				return
			}
		}
		names = append(names, namedValues{name: name, null: null})
		count++
	}
	l := len(s)
	for i := 0; i < l; {
		if count >= limit {
			return true
		}
		si, ti := i, -1
		for ; i < l && s[i] != '&'; i++ {
			if s[i] == '=' && ti < 0 {
				ti = i
			}
		}
		if ti >= 0 {
			add(urlDecode(s[si:ti]), false)
		} else {
			add("", true)
		}
		if i == l-1 && s[i] == '&' {
			add("", true)
		}
		i++
	}
	return false
}

func TestCollectionKeysExceeded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		query string
		limit int
		want  bool
	}{
		{"a=1&b=2&c=3", 3, false}, // exactly the limit: read whole
		{"a=1&b=2&c=3&d=4", 3, true},
		{"a=1&b=2&c=3&a=4", 3, true},             // the check comes before the pair, whatever its name
		{"a=1&A=2&b=2&%41=3&c=3", 3, false},      // names compared ignoring case, once decoded
		{"a=1&x&y&z&b=2", 3, false},              // the pairs without '=' are one key, the null name
		{"a=1&b=2&x&y", 3, true},                 // the null name is the third key: the next pair is refused
		{"a=1&b=2&c=3&", 3, false},               // a trailing '&' adds the null name unchecked
		{"a=1&b=2&&", 3, false},                  // "" is the null name, then the trailing '&' adds it again
		{"a=1&b=2&=1&x", 3, true},                // "=1" names "", another key than the null name
		{"&&&&", 1, true},                        // the null name, then the next pair
		{"k=%E2%84%AA&k=1", 1, true},             // the Kelvin sign is no 'k'
		{"a=1&b=2&c=3&d=4&e=5", 0, false},        // no limit
		{strings.Repeat("a=1&", 2000), 2, false}, // one key, then the null name, unchecked
		{"", 1, false},
	}
	for _, tt := range tests {
		if got := CollectionKeysExceeded(tt.query, tt.limit); got != tt.want {
			t.Errorf("CollectionKeysExceeded(%q, %d) = %v, want %v", tt.query, tt.limit, got, tt.want)
		}
		if got := keysExceededAsDotNet(tt.query, tt.limit); got != tt.want {
			t.Errorf("keysExceededAsDotNet(%q, %d) = %v, want %v", tt.query, tt.limit, got, tt.want)
		}
	}
}

// TestCollectionKeysExceededAllocates: a query of no more pairs than the
// limit is decided without an allocation.
func TestCollectionKeysExceededAllocates(t *testing.T) {
	q := "strAtmServiceKey=good&strPostalCode=&dblLatitude=44.6488&dblLongitude=-63.5752&bytRadius=5"
	if n := testing.AllocsPerRun(100, func() { CollectionKeysExceeded(q, MS11100MaxHTTPCollectionKeys) }); n != 0 {
		t.Errorf("got %v allocations, want 0", n)
	}
}

// FuzzCollectionKeysExceeded: CollectionKeysExceeded agrees with .NET's
// loop.
func FuzzCollectionKeysExceeded(f *testing.F) {
	for _, s := range []string{"a=1&b=2&c=3&d=4", "a&b&c&", "A=1&a=2&%61=3&b", "=&=&&x", "k=%E2%84%AA&K=1&k=2"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit %= 8
		if got, want := CollectionKeysExceeded(s, limit), keysExceededAsDotNet(s, limit); got != want {
			t.Errorf("CollectionKeysExceeded(%q, %d) = %v, .NET's loop %v", s, limit, got, want)
		}
	})
}

func TestCollectionKeysErrors(t *testing.T) {
	t.Parallel()
	f := ErrorForm{Detailed: true}
	get := NewCollectionKeysError(HTTPGet, 7)
	if got := get.plainText(f); !strings.HasPrefix(got, "System.InvalidOperationException: The maximum number of form, query string, or posted file items has already been read from the request. To change the maximum allowed request collection count from its current value of 7, change the &quot;aspnet:MaxHttpCollectionKeys&quot; setting.") ||
		!strings.Contains(got, "at System.Web.HttpRequest.get_QueryString()\r\n   at System.Web.Services.Protocols.UrlParameterReader.Read(HttpRequest request)") {
		t.Errorf("GET: got %q", got)
	}
	post := NewCollectionKeysError(HTTPPost, 7)
	if got := post.plainText(ErrorForm{}); !strings.HasPrefix(got, "The URL-encoded form data is not valid. ---> The maximum number of form, query string, or posted file items") {
		t.Errorf("POST, remote: got %q", got)
	}
	for _, e := range []*Error{get, post, NewDocsCollectionKeysError(7)} {
		if e.Status != 500 || e.Kind != KindTooManyKeys {
			t.Errorf("%s: got %d %s, want 500 %s", e.Message, e.Status, e.Kind, KindTooManyKeys)
		}
	}
	if !NewDocsCollectionKeysError(7).Page || get.Page {
		t.Error("want ASP.NET's error page for the documentation alone")
	}
}
