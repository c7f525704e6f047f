package asmx

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/wire"
)

// ASP.NET's defaults and bounds for the limits of URLLimits
// (System.Web.Configuration.HttpRuntimeSection).
const (
	// DefaultMaxURLLength is <httpRuntime maxUrlLength>'s default.
	DefaultMaxURLLength = 260
	// DefaultMaxQueryStringLength is <httpRuntime maxQueryStringLength>'s
	// default.
	DefaultMaxQueryStringLength = 2048
	// MaxURLLimit is the largest value web.config takes for either length
	// (HttpRuntimeSection's IntegerValidator).
	MaxURLLimit = 2097151
	// DefaultRequestPathInvalidCharacters is
	// <httpRuntime requestPathInvalidCharacters>'s default, as web.config
	// writes it.
	DefaultRequestPathInvalidCharacters = `<,>,*,%,&,:,\,?`
)

// URLLimits are the checks ASP.NET 4.x makes of every request's URL before
// any handler runs, ASMX's included (HttpRequest.ValidateInputIfRequiredByConfig,
// called by the pipeline's first step; the <httpRuntime> attributes
// maxUrlLength, maxQueryStringLength and requestPathInvalidCharacters). They
// do not depend on requestValidationMode. A request that fails one gets an
// HttpException with HTTP 400: ASP.NET's error page, whatever the binding.
type URLLimits struct {
	// MaxURLLength is the longest Request.Path (the decoded path, path info
	// included, in UTF-16 units) taken.
	MaxURLLength int
	// MaxQueryStringLength is the longest query string (as sent, without
	// its "?", in UTF-16 units) taken.
	MaxQueryStringLength int
	// InvalidPathChars are the characters refused in Request.Path; none
	// turns the check off (requestPathInvalidCharacters="").
	InvalidPathChars []rune
}

// DefaultURLLimits returns ASP.NET's default limits: 260, 2048 and
// DefaultRequestPathInvalidCharacters.
func DefaultURLLimits() URLLimits {
	chars, _ := ParsePathInvalidChars(DefaultRequestPathInvalidCharacters)
	return URLLimits{MaxURLLength: DefaultMaxURLLength, MaxQueryStringLength: DefaultMaxQueryStringLength, InvalidPathChars: chars}
}

// ParsePathInvalidChars reads requestPathInvalidCharacters as ASP.NET
// does (HttpRuntimeSection.RequestPathInvalidCharactersArray): the whole
// string URL-decoded, then split at commas, each part trimmed and one
// character; if that fails (a comma was one of the characters), split
// first, then each part decoded. "" is no character. Characters outside the
// Basic Multilingual Plane are two UTF-16 units, not one: refused.
func ParsePathInvalidChars(s string) ([]rune, error) {
	if s == "" {
		return nil, nil
	}
	if chars, ok := oneCharEach(strings.Split(urlDecode(s), ","), false); ok {
		return chars, nil
	}
	if chars, ok := oneCharEach(strings.Split(s, ","), true); ok {
		return chars, nil
	}
	return nil, fmt.Errorf("request path invalid characters %q: want single characters separated by commas, URL-encoded where needed (%%2C for a comma), e.g. %s", s, DefaultRequestPathInvalidCharacters)
}

func oneCharEach(parts []string, decode bool) ([]rune, bool) {
	chars := make([]rune, 0, len(parts))
	for _, p := range parts {
		if decode {
			p = urlDecode(p)
		}
		p = strings.TrimSpace(p)
		r, n := utf8.DecodeRuneInString(p)
		if n == 0 || n != len(p) || r >= 0x10000 {
			return nil, false
		}
		chars = append(chars, r)
	}
	return chars, true
}

// Check makes ASP.NET's checks of a request's URL in its order: the length
// of path (the decoded path, as Request.Path has it), the length of
// rawQuery (the query string as sent, without "?"), then the characters
// of path. It returns nil when the request passes.
func (l *URLLimits) Check(path, rawQuery string) *Error {
	// A string's UTF-16 units are never more than its UTF-8 bytes: most
	// requests are decided by their length in bytes alone.
	if len(path) > l.MaxURLLength && utf16Len(path) > l.MaxURLLength {
		return newURLError(msgURLTooLong, KindURLTooLong,
			fmt.Sprintf("the request path is over maxUrlLength, %d characters", l.MaxURLLength))
	}
	if (len(rawQuery) > l.MaxQueryStringLength || strings.IndexByte(rawQuery, '#') >= 0) && queryStringLen(rawQuery) > l.MaxQueryStringLength {
		return newURLError(msgQueryStringTooLong, KindQueryStringTooLong,
			fmt.Sprintf("the query string is over maxQueryStringLength, %d characters", l.MaxQueryStringLength))
	}
	if len(l.InvalidPathChars) > 0 {
		if r, bad := l.invalidIn(path); bad {
			return newURLError("A potentially dangerous Request.Path value was detected from the client ("+string(r)+").", KindDangerousPath,
				fmt.Sprintf("the request path holds %q, one of requestPathInvalidCharacters", r))
		}
	}
	return nil
}

// invalidIn is the first character of path that is one of l's invalid
// ones (String.IndexOfAny). ASCII characters are looked up in a bit set;
// the rest of the path is decoded only when an invalid character is not
// ASCII.
func (l *URLLimits) invalidIn(path string) (rune, bool) {
	var ascii [2]uint64
	wide := false
	for _, c := range l.InvalidPathChars {
		if c < 0x80 {
			ascii[c>>6] |= 1 << (c & 63)
		} else {
			wide = true
		}
	}
	for i := 0; i < len(path); {
		c := path[i]
		if c < 0x80 {
			if ascii[c>>6]&(1<<(c&63)) != 0 {
				return rune(c), true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(path[i:])
		if wide {
			for _, x := range l.InvalidPathChars {
				if r == x {
					return r, true
				}
			}
		}
		i += n
	}
	return 0, false
}

// utf16Len is the length of s in UTF-16 units, as .NET's String.Length
// counts it; each byte that is not UTF-8 is one unit (U+FFFD).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// queryStringLen is the length of HttpRequest.QueryStringText for a raw
// query string: its bytes decoded as UTF-8 (requestEncoding's default) by
// .NET's UTF8Encoding, one U+FFFD for each invalid sequence (wire.DecodeUTF8:
// %A4%E9%80 sent raw is two units, not three), with each "#" written "%23".
// A requestEncoding of one byte a character would count each byte: not
// modelled (raw bytes beyond ASCII in a query are rare; clients escape them).
func queryStringLen(rawQuery string) int {
	return utf16Len(wire.DecodeUTF8(rawQuery)) + 2*strings.Count(rawQuery, "#")
}

// Texts of ASP.NET's URL checks (System.Web's resources Url_too_long and
// QueryString_too_long).
const (
	msgURLTooLong         = "The length of the URL for this request exceeds the configured maxUrlLength value."
	msgQueryStringTooLong = "The length of the query string for this request exceeds the configured maxQueryStringLength value."
)

// newURLError is the HttpException of a URL check, HTTP 400, which
// ASP.NET answers with its error page.
func newURLError(msg, kind, logLine string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: Client, Kind: kind, Page: true,
		Exception: &Exception{Type: typeHTTPException, Message: msg,
			Stack: []string{"System.Web.HttpRequest.ValidateInputIfRequiredByConfig()",
				"System.Web.HttpApplication.PipelineStepManager.ValidateHelper(HttpContext context)"}},
		Message: logLine}
}
