package cli

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
)

// ASPNET holds the flags of atmkit serve that give the ASP.NET
// configuration of the deployment the mock stands for (its <httpRuntime>
// and <globalization>, and one of its appSettings): request validation,
// the checks of every request's URL, the most keys a query or form may
// hold, and the encoding queries and forms are read in; and the name of its
// service's class, which ASMX names the WSDL's service and bindings after.
type ASPNET struct {
	ServiceName       string // --service-name: the class, or its [WebService(Name=...)]
	Validation        string // --request-validation: 2.0 (or off), 4.0 or 4.5
	MaxURLLength      int    // --max-url-length: maxUrlLength
	MaxQueryString    int    // --max-query-string-length: maxQueryStringLength
	InvalidPathChars  string // --request-path-invalid-chars: requestPathInvalidCharacters
	MaxCollectionKeys int    // --max-http-collection-keys: appSettings' aspnet:MaxHttpCollectionKeys
	RequestEncoding   string // --request-encoding: <globalization requestEncoding>
}

// Register registers the flags of f on fs.
func (f *ASPNET) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.ServiceName, "service-name", mockserver.DefaultServiceName, "name of the deployment's service class (or its [WebService(Name=...)]): ASMX names the WSDL's service, portTypes, bindings and ports after it ({name}Soap, {name}Soap12, {name}HttpGet, {name}HttpPost), and the disco document, the help pages and the detailed errors' stack frames; "+
		"clients generated from the WSDL get classes named so (atmkit conform prints the deployment's); written as given, an XML name without a colon")
	fs.StringVar(&f.Validation, "request-validation", asmx.DefaultRequestValidation.String(), "ASP.NET request validation of the deployment (its requestValidationMode), for HTTP GET, POST and JSON calls with a value such as <b or &#65: "+
		"4.0 (ASP.NET 4 without a targetFramework) refuses every such value of the call, 4.5 (targetFramework 4.5 or later) the operation's parameters only, 2.0 (ASP.NET 2.0 and 3.5) none")
	fs.IntVar(&f.MaxURLLength, "max-url-length", asmx.DefaultMaxURLLength, fmt.Sprintf("longest decoded request path in characters (ASP.NET's maxUrlLength; 1 to %d); a longer one gets ASP.NET's 400 error page, whatever the binding", asmx.MaxURLLimit))
	fs.IntVar(&f.MaxQueryString, "max-query-string-length", asmx.DefaultMaxQueryStringLength, fmt.Sprintf("longest query string in characters, as sent (ASP.NET's maxQueryStringLength; 1 to %d); a longer one gets ASP.NET's 400 error page", asmx.MaxURLLimit))
	fs.StringVar(&f.RequestEncoding, "request-encoding", asmx.RequestEncodingUTF8.Name(), "encoding the deployment reads HTTP GET query strings and HTTP POST and JSON forms in when the request names no charset (web.config's <globalization requestEncoding>), e.g. iso-8859-1 or windows-1252 for a legacy site that reads Montr%E9al as Montréal; a form's charset still wins; SOAP is not affected")
	fs.IntVar(&f.MaxCollectionKeys, "max-http-collection-keys", 0, fmt.Sprintf("most keys ASP.NET reads from an HTTP GET or JSON-path query string or an HTTP POST form (web.config's appSettings aspnet:MaxHttpCollectionKeys; 1 to %d); a name repeated counts once; one more pair gets HTTP 500 in the binding's error form, ?WSDL and the help pages ASP.NET's error page; SOAP is not affected; "+
		"0: no limit, .NET Framework 4.5's and later's default; %d is ASP.NET 2.0's, 3.5's and 4.0's default since MS11-100", asmx.MaxHTTPCollectionKeysLimit, asmx.MS11100MaxHTTPCollectionKeys))
	fs.StringVar(&f.InvalidPathChars, "request-path-invalid-chars", asmx.DefaultRequestPathInvalidCharacters, "characters refused in the decoded request path, comma-separated as web.config writes them, URL-encoded where needed (ASP.NET's requestPathInvalidCharacters); one gets ASP.NET's 400 error page; empty: none")
}

// Check checks the flags of f, naming the first wrong one.
func (f *ASPNET) Check() Check {
	if err := asmx.CheckServiceName(f.ServiceName); err != nil {
		return Bad("service-name", errors.Unwrap(err).Error()) // the problem, without the name
	}
	if p := CheckRequestValidation(f.Validation); p != "" {
		return Bad("request-validation", p)
	}
	limit := fmt.Sprintf("want 1 to %d (characters)", asmx.MaxURLLimit)
	if f.MaxURLLength < 1 || f.MaxURLLength > asmx.MaxURLLimit {
		return Bad("max-url-length", limit)
	}
	if f.MaxQueryString < 1 || f.MaxQueryString > asmx.MaxURLLimit {
		return Bad("max-query-string-length", limit)
	}
	if f.MaxCollectionKeys < 0 || f.MaxCollectionKeys > asmx.MaxHTTPCollectionKeysLimit {
		return Bad("max-http-collection-keys", fmt.Sprintf("want 0 (no limit) to %d (keys)", asmx.MaxHTTPCollectionKeysLimit))
	}
	if _, err := asmx.ParsePathInvalidChars(f.InvalidPathChars); err != nil {
		return Bad("request-path-invalid-chars", fmt.Sprintf("want single characters separated by commas, URL-encoded where needed (%%2C for a comma), e.g. %s", asmx.DefaultRequestPathInvalidCharacters))
	}
	return checkRequestEncoding(f.RequestEncoding)
}

// checkRequestEncoding checks a --request-encoding value, naming the flag.
func checkRequestEncoding(name string) Check {
	if _, err := asmx.ParseRequestEncoding(name); err != nil {
		return Bad("request-encoding", errors.Unwrap(err).Error()) // the problem, without the name
	}
	return Check{}
}

// Encoding is the requestEncoding f sets (UTF-8 by default), for the
// cassettes a replaying mock reads its calls from; Check must have passed.
func (f *ASPNET) Encoding() asmx.RequestEncoding {
	e, _ := asmx.ParseRequestEncoding(f.RequestEncoding)
	return e
}

// ServiceFromWSDL sets the service name to the one the WSDL wsdl names
// (its first <wsdl:service name>), as a replaying mock takes its
// deployment's from the WSDL recorded; a WSDL naming none, or a name
// ASMX would not write (asmx.CheckServiceName), leaves it.
func (f *ASPNET) ServiceFromWSDL(wsdl []byte) {
	if name := WSDLServiceName(wsdl); asmx.CheckServiceName(name) == nil {
		f.ServiceName = name
	}
}

// WSDLServiceName is the name of the first <wsdl:service> of the WSDL
// document wsdl, a child of its <wsdl:definitions>; empty when there is
// none, or wsdl is no WSDL.
func WSDLServiceName(wsdl []byte) string {
	const wsdlNS = "http://schemas.xmlsoap.org/wsdl/"
	d := xml.NewDecoder(bytes.NewReader(wsdl))
	d.Strict = false
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth == 1 && (t.Name.Space != wsdlNS || t.Name.Local != "definitions"):
				return ""
			case depth == 2 && t.Name.Space == wsdlNS && t.Name.Local == "service":
				for _, a := range t.Attr {
					if a.Name.Space == "" && a.Name.Local == "name" {
						return a.Value
					}
				}
				return ""
			}
		case xml.EndElement:
			depth--
		}
	}
}

// Options are the mock server's options f sets; Check must have passed.
func (f *ASPNET) Options() []mockserver.Option {
	validation, _ := asmx.ParseRequestValidation(f.Validation)
	return []mockserver.Option{
		mockserver.WithServiceName(f.ServiceName),
		mockserver.WithRequestValidation(validation),
		mockserver.WithMaxURLLength(f.MaxURLLength),
		mockserver.WithMaxQueryStringLength(f.MaxQueryString),
		mockserver.WithRequestPathInvalidChars(f.InvalidPathChars),
		mockserver.WithMaxHTTPCollectionKeys(f.MaxCollectionKeys),
		mockserver.WithRequestEncoding(f.RequestEncoding),
	}
}

// RecordedEncoding is --request-encoding of the commands that show the
// calls cassettes hold (cassette list, cassette verify): the
// requestEncoding of the deployment they were recorded from, read and
// checked as serve's --request-encoding (ASPNET), so that they show each
// call's parameters as a mock replaying the cassettes with it reads them.
type RecordedEncoding struct{ Name string }

// Register registers --request-encoding on fs; more, when not empty,
// ends its usage (what else the flag changes, or does not).
func (f *RecordedEncoding) Register(fs *flag.FlagSet, more string) {
	fs.StringVar(&f.Name, "request-encoding", asmx.RequestEncodingUTF8.Name(), "encoding the deployment the cassettes were recorded from reads HTTP GET query strings and HTTP POST and JSON forms in when the request names no charset (web.config's <globalization requestEncoding>, as atmkit serve --request-encoding takes it), e.g. iso-8859-1 for a legacy site whose recorded Montr%E9al is Montréal: "+
		"the parameters are shown as a mock replaying the cassettes with it reads them; a form's charset still wins"+more)
}

// Check checks the flag as ASPNET.Check checks serve's.
func (f *RecordedEncoding) Check() Check { return checkRequestEncoding(f.Name) }

// Encoding is the requestEncoding f sets (UTF-8 by default); Check must
// have passed.
func (f *RecordedEncoding) Encoding() asmx.RequestEncoding {
	e, _ := asmx.ParseRequestEncoding(f.Name)
	return e
}
