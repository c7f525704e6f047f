package asmx

import (
	"math"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

const ns = DefaultNamespace

func env11(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + NamespaceSOAP11 + `"><soap:Body>` + body + `</soap:Body></soap:Envelope>`
}

func env12(body string) string {
	return `<soap12:Envelope xmlns:soap12="` + NamespaceSOAP12 + `"><soap12:Body>` + body + `</soap12:Body></soap12:Envelope>`
}

// soap11 is a SOAP 1.1 request as a client sends it: text/xml and the
// operation's SOAPAction.
func soap11(op, body string) SOAPRequest {
	return SOAPRequest{Namespace: ns, ContentType: ContentTypeSOAP11, Action: `"` + SOAPAction(ns, op) + `"`, HasAction: true, Body: []byte(body)}
}

// soap12 is a SOAP 1.2 request without an action: routed by its element.
func soap12(body string) SOAPRequest {
	return SOAPRequest{Namespace: ns, ContentType: ContentTypeSOAP12, Body: []byte(body)}
}

func with(r SOAPRequest, edit func(*SOAPRequest)) SOAPRequest { edit(&r); return r }

// plusNS is a service namespace holding a '+'.
const plusNS = "http://x.example/a+b/atmService"

const coords = `<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><strAtmServiceKey>k</strAtmServiceKey><strPostalCode>B3J 1A1</strPostalCode><dblLatitude>44.5</dblLatitude><dblLongitude>-63.5</dblLongitude><bytRadius>25</bytRadius></ReturnAtmSearchByCoordinates>`

// okCall checks a decoded call.
func okCall(check func(c *Call) string) func(*Call, *Error) string {
	return func(c *Call, e *Error) string {
		if e != nil {
			return "got error " + e.Kind + ": " + e.faultString(ErrorForm{}) + " (" + e.Message + ")"
		}
		return check(c)
	}
}

// fault checks an error: status, the version it is written in, the fault
// code and the fault string (remote form; "" for an empty body).
func fault(status int, b Binding, code FaultCode, text string) func(*Call, *Error) string {
	return func(c *Call, e *Error) string {
		if e == nil {
			return "got a call, want an error"
		}
		got := e.faultString(ErrorForm{})
		if e.EmptyBody {
			got = ""
		}
		if e.Status != status || e.Binding != b || e.Code != code || got != text {
			return "got " + itoa(e.Status) + " " + e.Binding.String() + " code " + itoa(int(e.Code)) + " " + quote(got) +
				", want " + itoa(status) + " " + b.String() + " code " + itoa(int(code)) + " " + quote(text)
		}
		return ""
	}
}

func TestDecodeSOAPRequest(t *testing.T) {
	byAddress := func(addr string) string {
		return `<ReturnAtmSearchByAddress xmlns="` + ns + `"><strAtmServiceKey>k</strAtmServiceKey><strAddress>` + addr + `</strAddress></ReturnAtmSearchByAddress>`
	}
	provinces := `<ReturnProvinces xmlns="` + ns + `"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`
	tests := []struct {
		name  string
		req   SOAPRequest
		check func(*Call, *Error) string
	}{
		{"soap11", soap11(OpReturnAtmSearchByCoordinates, env11(coords)), okCall(func(c *Call) string {
			if c.Binding != SOAP11 || c.Key != "k" || c.Postal != "B3J 1A1" || c.Latitude != 44.5 || c.Longitude != -63.5 || c.Radius != 25 {
				return "values"
			}
			return ""
		})},
		{"soap12 routed by its element", soap12(env12(coords)), okCall(func(c *Call) string {
			if c.Op.Name != OpReturnAtmSearchByCoordinates || c.Binding != SOAP12 {
				return c.Op.Name + " " + c.Binding.String()
			}
			return ""
		})},
		{"a SOAP 1.2 envelope as text/xml is SOAP 1.2", soap11(OpReturnAtmSearchByCoordinates, env12(coords)), okCall(func(c *Call) string {
			if c.Binding != SOAP12 {
				return "binding " + c.Binding.String()
			}
			return ""
		})},
		{"a SOAP 1.1 envelope as application/soap+xml is 415", soap12(env11(coords)), fault(415, SOAP11, Client, "")},
		{"SOAP 1.1 without SOAPAction is routed by its element", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.HasAction, r.Action = false, "" }),
			okCall(func(c *Call) string {
				if c.Op.Name != OpReturnProvinces || c.Binding != SOAP11 || c.Key != "k" {
					return c.Op.Name + " " + c.Binding.String()
				}
				return ""
			})},
		{"an unknown envelope namespace is a VersionMismatch in SOAP 1.1", soap12(strings.Replace(env12(coords), NamespaceSOAP12, "urn:x", 1)),
			fault(500, SOAP11, VersionMismatch, "Possible SOAP version mismatch: Envelope namespace urn:x was unexpected. Expecting "+NamespaceSOAP11+".")},
		{"no namespace at all is a VersionMismatch too", soap11(OpReturnProvinces, `<Envelope><Body>`+provinces+`</Body></Envelope>`),
			fault(500, SOAP11, VersionMismatch, "Possible SOAP version mismatch: Envelope namespace  was unexpected. Expecting "+NamespaceSOAP11+".")},
		{"no action and no operation element", with(soap11(OpReturnProvinces, env11(`<Foo xmlns="`+ns+`"/>`)), func(r *SOAPRequest) { r.HasAction = false }),
			fault(500, SOAP11, Client, msgNoAction)},
		{"no action and no operation element, SOAP 1.2", soap12(env12(`<Foo xmlns="` + ns + `"/>`)), fault(500, SOAP12, Client, msgNoAction)},
		{"no action and an empty Body", soap12(env12(``)), fault(500, SOAP12, Client, msgNoAction)},
		{"an operation element in another namespace is none", soap12(env12(strings.Replace(coords, ns, "urn:x", 1))), fault(500, SOAP12, Client, msgNoAction)},
		{"a valid action reads another operation's element leniently", soap11(OpReturnProvinces, env11(coords)), okCall(func(c *Call) string {
			if c.Op.Name != OpReturnProvinces || c.Key != "" {
				return "read " + c.Op.Name + " key " + quote(c.Key)
			}
			return ""
		})},
		{"a valid action and an unknown element: empty parameters", soap11(OpReturnProvinces, env11(`<Foo xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey></Foo>`)), okCall(func(c *Call) string {
			if c.Key != "" {
				return "key read from an unknown element"
			}
			return ""
		})},
		{"unknown SOAPAction", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.Action = `"urn:nope"` }),
			fault(500, SOAP11, Client, "Server did not recognize the value of HTTP Header SOAPAction: urn:nope.")},
		{"empty SOAPAction", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.Action = `""` }),
			fault(500, SOAP11, Client, "Server did not recognize the value of HTTP Header SOAPAction: .")},
		// .NET's Soap11ServerProtocolHelper.RouteRequest strips a quoted
		// action with Substring(1, Length - 2): a lone '"' both starts and
		// ends with a quote, and Substring(1, -1) throws
		// ArgumentOutOfRangeException, which WriteException wraps in a
		// Server fault.
		{"a lone quote as SOAPAction", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.Action = `"` }),
			fault(500, SOAP11, Server, "Server was unable to process request. ---> Length cannot be less than zero.\r\nParameter name: length")},
		{"a quote at one end only is kept", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.Action = `"x` }),
			fault(500, SOAP11, Client, "Server did not recognize the value of HTTP Header SOAPAction: \"x.")},
		// Soap12ServerProtocolHelper takes the action parameter with
		// ContentType.GetAction, which trims quotes (Trim(' ', '\'', '"',
		// '\t')): a lone quote is no action, and the call is routed by
		// its element.
		{"a lone quote as the action parameter", with(soap12(env12(provinces)), func(r *SOAPRequest) { r.ContentType += `; action="` }),
			okCall(func(c *Call) string {
				if c.Op.Name != OpReturnProvinces {
					return c.Op.Name
				}
				return ""
			})},
		{"URL-encoded SOAPAction", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.Action = url.QueryEscape(SOAPAction(ns, OpReturnProvinces)) }),
			okCall(func(c *Call) string { return "" })},
		// .NET's Soap11ServerProtocolHelper.RouteRequest and
		// Soap12ServerProtocolHelper.RouteRequest URL-decode the action
		// (HttpUtility.UrlDecode, '+' a space) and match only the decoded
		// one: a namespace's own '+' must be sent as %2B.
		{"SOAPAction holding the namespace's + as sent: decoded, names none", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) {
			r.Namespace, r.Action = plusNS, `"`+SOAPAction(plusNS, OpReturnProvinces)+`"`
		}), fault(500, SOAP11, Client, "Server did not recognize the value of HTTP Header SOAPAction: http://x.example/a b/atmService/ReturnProvinces.")},
		{"SOAPAction holding the namespace's + as %2B routes", with(soap11(OpReturnProvinces, env11(strings.Replace(provinces, ns, plusNS, 1))), func(r *SOAPRequest) {
			r.Namespace, r.Action = plusNS, `"http://x.example/a%2Bb/atmService/ReturnProvinces"`
		}), okCall(func(c *Call) string {
			if c.Op.Name != OpReturnProvinces || c.Key != "k" {
				return c.Op.Name + " " + c.Key
			}
			return ""
		})},
		{"action parameter holding the namespace's + as sent: decoded, names none", with(soap12(env12(``)), func(r *SOAPRequest) {
			r.Namespace, r.ContentType = plusNS, r.ContentType+`; action="`+SOAPAction(plusNS, OpReturnProvinces)+`"`
		}), fault(500, SOAP12, Client, "Unable to handle request. The action 'http://x.example/a b/atmService/ReturnProvinces' was not recognized.")},
		{"action parameter holding the namespace's + as %2B routes", with(soap12(env12(`<Foo/>`)), func(r *SOAPRequest) {
			r.Namespace, r.ContentType = plusNS, r.ContentType+`; action="http://x.example/a%2Bb/atmService/ReturnProvinces"`
		}), okCall(func(c *Call) string {
			if c.Op.Name != OpReturnProvinces {
				return c.Op.Name
			}
			return ""
		})},
		{"unknown action parameter and element", with(soap12(env12(`<Foo xmlns="`+ns+`"/>`)), func(r *SOAPRequest) { r.ContentType += `; action="urn:x"` }),
			fault(500, SOAP12, Client, "Unable to handle request. The action 'urn:x' was not recognized.")},
		{"unknown action parameter, known element", with(soap12(env12(provinces)), func(r *SOAPRequest) { r.ContentType += `; action="urn:x"` }),
			okCall(func(c *Call) string { return "" })},
		{"action parameter routes", with(soap12(env12(`<Foo/>`)), func(r *SOAPRequest) {
			r.ContentType += `; action="` + SOAPAction(ns, OpReturnProvinces) + `"`
		}), okCall(func(c *Call) string {
			if c.Op.Name != OpReturnProvinces {
				return c.Op.Name
			}
			return ""
		})},
		{"malformed, routed by action: 400", soap11(OpReturnProvinces, `<soap:Envelope`), fault(400, SOAP11, Client, "")},
		{"DOCTYPE, routed by action: 400", soap11(OpReturnProvinces, `<!DOCTYPE x [<!ENTITY a "b">]>`+env11(provinces)), fault(400, SOAP11, Client, "")},
		{"DOCTYPE while routing by element", soap12(`<!DOCTYPE x []>` + env12(provinces)),
			fault(500, SOAP12, Server, "Server was unable to process request. ---> DTD is prohibited in this XML document.")},
		{"empty body while routing by element", soap12(``), fault(500, SOAP12, Server, "Server was unable to process request. ---> Root element is missing.")},
		{"JSON while routing by element", with(soap12(`{"a":1}`), func(r *SOAPRequest) { r.ContentType = "application/json" }),
			fault(500, SOAP12, Server, "Server was unable to process request. ---> Data at the root level is invalid. Line 1, position 1.")},
		{"no Envelope while routing by element", soap12(`<soap:Foo xmlns:soap="` + NamespaceSOAP11 + `"><soap:Body>` + provinces + `</soap:Body></soap:Foo>`),
			fault(500, SOAP11, Server, "Server was unable to process request. ---> Request format is invalid: Missing required soap:Envelope element.")},
		{"no Envelope, routed by action", soap11(OpReturnProvinces, `<soap:Foo xmlns:soap="`+NamespaceSOAP11+`"><soap:Body>`+provinces+`</soap:Body></soap:Foo>`),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> Request format is invalid: Missing required soap:Envelope element.")},
		{"no Body, routed by action", soap11(OpReturnProvinces, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`"><soap:Header/></soap:Envelope>`),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.")},
		{"an element before the Body, routed by action", soap11(OpReturnProvinces, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`"><x/><soap:Body>`+provinces+`</soap:Body></soap:Envelope>`),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.")},
		{"text/plain with an action: 415", with(soap11(OpReturnProvinces, env11(provinces)), func(r *SOAPRequest) { r.ContentType = "text/plain" }),
			fault(415, SOAP11, Client, "")},
		{"text/plain without an action: 415 in SOAP 1.2", with(soap12(env11(provinces)), func(r *SOAPRequest) { r.ContentType = "text/plain" }),
			fault(415, SOAP12, Client, "")},
		{"an element after text in a parameter: 400", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">k<x/><", 1))), fault(400, SOAP11, Client, "")},
		{"a reference to a lone surrogate in a parameter: 400", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">k&#xD800;<", 1))), fault(400, SOAP11, Client, "")},
		{"a surrogate pair written as two references: 400", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">&#xD83D;&#xDE00;<", 1))), fault(400, SOAP11, Client, "")},
		{"a reference to a surrogate in an attribute: 400", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, "<strAtmServiceKey>", `<strAtmServiceKey a="&#56320;">`, 1))), fault(400, SOAP11, Client, "")},
		{"a reference above U+FFFF and a surrogate reference in CDATA are read", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">&#x1F600;<![CDATA[&#xD800;]]><", 1))),
			okCall(func(c *Call) string {
				if c.Key != "\U0001F600&#xD800;" {
					return "key " + quote(c.Key)
				}
				return ""
			})},
		{"a comment in a parameter: 400", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">k<!-- c --><", 1))), fault(400, SOAP11, Client, "")},
		{"a parameter holding an element: its text, then one level off", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", "><x>k</x><", 1))),
			okCall(func(c *Call) string {
				// ReadElementString takes the child's text and stops at
				// its end tag: the parameter's own end tag then ends the
				// operation element, and what follows is not read.
				if c.Key != "k" || c.Postal != "" || c.Radius != 0 {
					return "key " + quote(c.Key) + " postal " + quote(c.Postal)
				}
				return ""
			})},
		{"CDATA and character references in a parameter", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">k<", ">k<![CDATA[<1>]]>&#50;<", 1))),
			okCall(func(c *Call) string {
				if c.Key != "k<1>2" {
					return "key " + quote(c.Key)
				}
				return ""
			})},
		{"radius 256", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">25<", ">256<", 1))),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> There is an error in XML document (1, "+itoa(strings.Index(env11(coords), "</ReturnAtmSearchByCoordinates>")+4)+"). ---> Value was either too large or too small for an unsigned byte.")},
		{"latitude not a number", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">44.5<", ">north<", 1))),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> There is an error in XML document (1, "+itoa(strings.Index(env11(coords), "<dblLongitude>")+3)+"). ---> Input string was not in a correct format.")},
		{"a conversion error names the node after the parameter", soap11(OpReturnAtmSearchByCoordinates, "<?xml version=\"1.0\"?>\n<soap:Envelope xmlns:soap=\""+NamespaceSOAP11+"\">\n  <soap:Body>\n    <ReturnAtmSearchByCoordinates xmlns=\""+ns+"\">\n      <strAtmServiceKey>k</strAtmServiceKey>\n      <dblLatitude>abc</dblLatitude>\n    </ReturnAtmSearchByCoordinates>\n  </soap:Body>\n</soap:Envelope>"),
			fault(500, SOAP11, Client, "Server was unable to read request. ---> There is an error in XML document (6, 37). ---> Input string was not in a correct format.")},
		{"latitude 91 is read", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(coords, ">44.5<", ">91<", 1))), okCall(func(c *Call) string {
			if c.Latitude != 91 {
				return "latitude"
			}
			return ""
		})},
		{"INF, -INF and NaN are read", soap11(OpReturnAtmSearchByCoordinates, env11(strings.Replace(strings.Replace(coords, ">44.5<", "> INF <", 1), ">-63.5<", ">NaN<", 1))), okCall(func(c *Call) string {
			if !math.IsInf(c.Latitude, 1) || !math.IsNaN(c.Longitude) {
				return "values"
			}
			return ""
		})},
		{"the first of two equal parameters wins", soap11(OpReturnProvinces, env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>a</strAtmServiceKey><strAtmServiceKey>b</strAtmServiceKey></ReturnProvinces>`)),
			okCall(func(c *Call) string {
				if c.Key != "a" {
					return "key " + c.Key
				}
				return ""
			})},
		{"a second operation element is read too", soap11(OpReturnProvinces, env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>a</strAtmServiceKey></ReturnProvinces><ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>b</strAtmServiceKey></ReturnProvinces>`)),
			okCall(func(c *Call) string {
				if c.Key != "b" {
					return "key " + c.Key
				}
				return ""
			})},
		{"mustUnderstand headers are noted", soap11(OpReturnProvinces, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`"><soap:Header><x:Auth xmlns:x="urn:x" soap:mustUnderstand="1"/><x:Other xmlns:x="urn:x"/></soap:Header><soap:Body>`+provinces+`</soap:Body></soap:Envelope>`),
			okCall(func(c *Call) string {
				if len(c.MustUnderstand) != 1 || c.MustUnderstand[0] != "Auth" {
					return "mustUnderstand " + strings.Join(c.MustUnderstand, ",")
				}
				return ""
			})},
		{"mustUnderstand in the other version's namespace is noted", soap11(OpReturnProvinces, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`"><soap:Header><x:Auth xmlns:x="urn:x" xmlns:e="`+NamespaceSOAP12+`" e:mustUnderstand="true"/></soap:Header><soap:Body>`+provinces+`</soap:Body></soap:Envelope>`),
			okCall(func(c *Call) string {
				if len(c.MustUnderstand) != 1 || c.MustUnderstand[0] != "Auth" {
					return "mustUnderstand " + strings.Join(c.MustUnderstand, ",")
				}
				return ""
			})},
		{"mustUnderstand is read as written, not trimmed; SOAP 1.1's attribute first", soap11(OpReturnProvinces, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`"><soap:Header><x:A xmlns:x="urn:x" soap:mustUnderstand=" 1 "/><x:B xmlns:x="urn:x" soap:mustUnderstand="yes"/><x:C xmlns:x="urn:x" xmlns:e="`+NamespaceSOAP12+`" soap:mustUnderstand="0" e:mustUnderstand="1"/></soap:Header><soap:Body>`+provinces+`</soap:Body></soap:Envelope>`),
			okCall(func(c *Call) string {
				if len(c.MustUnderstand) != 0 {
					return "mustUnderstand " + strings.Join(c.MustUnderstand, ",")
				}
				return ""
			})},
		{"a NUL right after the Envelope ends the data (v1Compat)", soap11(OpReturnProvinces, env11(provinces)+"\x00<trailing/>"), okCall(func(c *Call) string { return "" })},
		{"white space and a NUL as the last byte", soap11(OpReturnProvinces, env11(provinces)+"\n\x00"), okCall(func(c *Call) string { return "" })},
		{"white space, a NUL and more: 400", soap11(OpReturnProvinces, env11(provinces)+"\n\x00 "), fault(400, SOAP11, Client, "")},
		{"a NUL before the Envelope: 400", soap11(OpReturnProvinces, "\x00"+env11(provinces)), fault(400, SOAP11, Client, "")},
		{"white space and one more node after the Envelope", soap11(OpReturnProvinces, env11(provinces)+"\n<trailing/>"), okCall(func(c *Call) string { return "" })},
		{"an element right after the Envelope: 400", soap11(OpReturnProvinces, env11(provinces)+"<trailing/>"), fault(400, SOAP11, Client, "")},
		{"deep nesting in an unknown element", soap11(OpReturnAtmSearchByCoordinates, env11(`<ReturnAtmSearchByCoordinates xmlns="`+ns+`"><x>`+strings.Repeat("<y>", 100)+strings.Repeat("</y>", 100)+`</x><bytRadius>3</bytRadius></ReturnAtmSearchByCoordinates>`)),
			okCall(func(c *Call) string {
				if c.Radius != 3 {
					return "radius"
				}
				return ""
			})},
		{"UTF-16 with its charset", with(soap11(OpReturnAtmSearchByAddress, env11(byAddress("Montréal"))), func(r *SOAPRequest) {
			r.ContentType, r.Body = "text/xml; charset=utf-16", utf16LE(strings.Replace(string(r.Body), "utf-8", "utf-16", 1))
		}), okCall(func(c *Call) string {
			if c.Address != "Montréal" {
				return "address " + quote(c.Address)
			}
			return ""
		})},
		{"UTF-16 with a byte order mark and text/xml", with(soap11(OpReturnAtmSearchByAddress, env11(byAddress("Montréal"))), func(r *SOAPRequest) {
			r.ContentType, r.Body = "text/xml", append([]byte{0xFF, 0xFE}, utf16LE(string(r.Body))...)
		}), okCall(func(c *Call) string {
			if c.Address != "Montréal" {
				return "address " + quote(c.Address)
			}
			return ""
		})},
		{"text/xml without a charset is US-ASCII", with(soap11(OpReturnAtmSearchByAddress, env11(byAddress("Montréal"))), func(r *SOAPRequest) { r.ContentType = "text/xml" }),
			okCall(func(c *Call) string {
				if c.Address != "Montr??al" {
					return "address " + quote(c.Address)
				}
				return ""
			})},
		{"invalid UTF-8 in text/xml; charset=utf-8 is replaced", soap11(OpReturnAtmSearchByAddress, env11(byAddress("a\xffb"))), okCall(func(c *Call) string {
			if c.Address != "a\uFFFDb" {
				return "address " + quote(c.Address)
			}
			return ""
		})},
		// .NET's UTF8Encoding replaces each invalid sequence with its own
		// U+FFFD (wire.DecodeUTF8): two bytes that cannot start one are
		// two, a lead byte and its continuation cut short one.
		{"invalid UTF-8 with a charset: one U+FFFD a sequence", soap11(OpReturnAtmSearchByAddress, env11(byAddress("a\xff\xfeb\xe9\x80c"))), okCall(func(c *Call) string {
			if c.Address != "a\uFFFD\uFFFDb\uFFFDc" {
				return "address " + quote(c.Address)
			}
			return ""
		})},
		{"invalid UTF-8 read by the XML reader: 400", with(soap12(env12(byAddress("a\xffb"))), func(r *SOAPRequest) { r.ContentType = "application/soap+xml" }), fault(400, SOAP12, Client, "")},
		{"the declared encoding, SOAP 1.2", with(soap12(`<?xml version="1.0" encoding="iso-8859-1"?>`+env12(byAddress("caf\xe9"))), func(r *SOAPRequest) { r.ContentType = "application/soap+xml" }),
			okCall(func(c *Call) string {
				if c.Address != "café" {
					return "address " + quote(c.Address)
				}
				return ""
			})},
		{"an unknown declared encoding while routing", with(soap12(`<?xml version="1.0" encoding="bogus"?>`+env12(provinces)), func(r *SOAPRequest) { r.ContentType = "application/soap+xml" }),
			fault(500, SOAP12, Server, "Server was unable to process request. ---> System does not support 'bogus' encoding. Line 1, position 31. ---> 'bogus' is not a supported encoding name. For information on defining a custom encoding, see the documentation for the Encoding.RegisterProvider method.\r\nParameter name: name")},
		{"the declared encoding is ignored when the content type names one", soap11(OpReturnProvinces, strings.Replace(env11(provinces), "utf-8", "bogus", 1)), okCall(func(c *Call) string { return "" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, e := DecodeSOAPRequest(tt.req)
			if msg := tt.check(c, e); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func utf16LE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return `"` + s + `"` }

func TestDecodeValues(t *testing.T) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	full := url.Values{"strAtmServiceKey": {"k"}, "strPostalCode": {""}, "dblLatitude": {"44.5"}, "dblLongitude": {"-63"}, "bytRadius": {"10"}}
	c, e := DecodeValues(op, HTTPGet, full)
	if e != nil || c.Radius != 10 || c.Longitude != -63 {
		t.Fatalf("got %+v, %v", c, e)
	}
	for _, tt := range []struct {
		name, param, value string
		want               string // the remote text; "" for success
	}{
		{"missing", "strPostalCode", "\x00delete", "Missing parameter: strPostalCode.\r\n"},
		{"byte overflow", "bytRadius", "300", "Cannot convert 300 to System.Byte.\r\nParameter name: type ---> Value was either too large or too small for an unsigned byte.\r\n"},
		{"byte beyond Int32", "bytRadius", "99999999999", "Cannot convert 99999999999 to System.Byte.\r\nParameter name: type ---> Value was either too large or too small for an unsigned byte. ---> Value was either too large or too small for an Int32.\r\n"},
		{"negative byte", "bytRadius", "-1", "Cannot convert -1 to System.Byte.\r\nParameter name: type ---> Value was either too large or too small for an unsigned byte.\r\n"},
		{"signed byte", "bytRadius", "+5", ""},
		{"double", "dblLatitude", "abc", "Cannot convert abc to System.Double.\r\nParameter name: type ---> Input string was not in a correct format.\r\n"},
		{"HTML in the value", "dblLatitude", "<b>", "Cannot convert &lt;b&gt; to System.Double.\r\nParameter name: type ---> Input string was not in a correct format.\r\n"},
		{"double overflow", "dblLatitude", "1e400", "Cannot convert 1e400 to System.Double.\r\nParameter name: type ---> Value was either too large or too small for a Double.\r\n"},
		{"INF is XML's, not Convert's", "dblLatitude", "INF", "Cannot convert INF to System.Double.\r\nParameter name: type ---> Input string was not in a correct format.\r\n"},
		{"Infinity", "dblLatitude", "Infinity", ""},
		{"thousands separators", "dblLatitude", "1,000.5", ""},
		{"out of range is no error", "dblLongitude", "-181", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := url.Values{}
			for k, vs := range full {
				v[k] = vs
			}
			if tt.value == "\x00delete" {
				delete(v, tt.param)
			} else {
				v.Set(tt.param, tt.value)
			}
			for _, b := range []Binding{HTTPGet, HTTPPost, JSON} {
				_, e := DecodeValues(op, b, v)
				if tt.want == "" {
					if e != nil {
						t.Errorf("%s: got %q, want success", b, e.plainText(ErrorForm{}))
					}
					continue
				}
				if e == nil {
					t.Fatalf("%s: got success, want an error", b)
				}
				if got := e.plainText(ErrorForm{}); e.Status != 500 || got != tt.want || e.Param != tt.param {
					t.Errorf("%s: got %d %q (%s), want 500 %q (%s)", b, e.Status, got, e.Param, tt.want, tt.param)
				}
			}
		})
	}
}

func TestDecodeValuesNamesIgnoreCase(t *testing.T) {
	op, _ := LookupOperation(OpReturnProvinces)
	c, e := DecodeValues(op, HTTPGet, ParseQuery("STRATMSERVICEKEY=k"))
	if e != nil || c.Key != "k" {
		t.Fatalf("got %+v, %v, want key k", c, e)
	}
	c, e = DecodeValues(op, HTTPGet, ParseQuery("strAtmServiceKey=a&STRATMSERVICEKEY=b"))
	if e != nil || c.Key != "a,b" {
		t.Fatalf("got %+v, %v, want key a,b", c, e)
	}
}

func TestMethodFromPath(t *testing.T) {
	for _, tt := range []struct {
		path     string
		jsonOnly bool
		want     string // operation, or the remote text
	}{
		{"/ReturnProvinces", false, OpReturnProvinces},
		{"/returnprovinces", false, "Invalid method name &#39;returnprovinces&#39;,  method names are case sensitive.   The method name &#39;ReturnProvinces&#39; with the same name but different casing was found.\r\nParameter name: methodName\r\n"},
		{"/Nope", false, "Nope Web Service method name is not valid.\r\n"},
		{"/ReturnProvinces/x", false, "ReturnProvinces/x Web Service method name is not valid.\r\n"},
		{"/ReturnProvinces", true, "ReturnProvinces Web Service method name is not valid.\r\n"},
		{"/ReturnAtmSearchByCoordinates", true, OpReturnAtmSearchByCoordinates},
	} {
		op, e := MethodFromPath(HTTPGet, tt.path, tt.jsonOnly)
		got := ""
		if e != nil {
			got = e.plainText(ErrorForm{})
		} else {
			got = op.Name
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, tt := range []struct{ q, name, want string }{
		{"a=1&b=2", "b", "2"},
		{"a=%zz", "a", "%zz"},
		{"a=%FF", "a", "\uFFFD"},
		{"a=x;y=1", "a", "x;y=1"},
		{"a=b+c%20d", "a", "b c d"},
		{"a=%u00e9", "a", "é"},
		{"a=%uD83D%uDD11-%ud83d%udd11", "a", "🔑-🔑"}, // a surrogate pair, as .NET's UTF-16 string holds it
		{"a=%uD83D-%uDD11%uD83D", "a", "\uFFFD-\uFFFD\uFFFD"},
		{"a=1&a=2", "a", "1,2"},
		{"novalue", "", "novalue"},
	} {
		vs := ParseQuery(tt.q)[tt.name]
		if got := strings.Join(vs, ","); got != tt.want {
			t.Errorf("ParseQuery(%q)[%q]: got %q, want %q", tt.q, tt.name, got, tt.want)
		}
	}
}

func TestCanonicalIgnoresKeyOrderAndForm(t *testing.T) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	a, _ := DecodeValues(op, HTTPGet, url.Values{"strAtmServiceKey": {"k1"}, "strPostalCode": {" B3J "}, "dblLatitude": {"44.50"}, "dblLongitude": {"-63"}, "bytRadius": {"010"}})
	b, e := DecodeSOAPRequest(soap12(env12(`<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><bytRadius>10</bytRadius><dblLongitude>-63.0</dblLongitude><dblLatitude>4.45E1</dblLatitude><strPostalCode>B3J</strPostalCode><strAtmServiceKey>k2</strAtmServiceKey></ReturnAtmSearchByCoordinates>`)))
	if e != nil {
		t.Fatal(e.Message)
	}
	if a.Canonical() != b.Canonical() {
		t.Errorf("got %q and %q, want them equal", a.Canonical(), b.Canonical())
	}
}

func TestAppendEscapedIsWellFormed(t *testing.T) {
	got := string(AppendEscaped(nil, "a<b>&\"'\x01\xff\r"))
	want := "a&lt;b&gt;&amp;&quot;&apos;\uFFFD\uFFFD&#xD;"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAppendTextAndAttr: answers escape as .NET's XmlTextWriter does (the
// same output from Mono's, compiled with mcs): in text only <, > and &; in
// a double-quoted attribute also " and CR/LF as character references;
// quotes, tabs and line ends otherwise as they are; characters XML 1.0
// forbids as character references (XmlTextEncoder.WriteCharEntityImpl),
// bytes that are not UTF-8 as U+FFFD.
func TestAppendTextAndAttr(t *testing.T) {
	if got, want := string(AppendText(nil, "x\r\ny'z\"<>&\tw\x01\x1f\uFFFE\uFFFF\xff")), "x\r\ny'z\"&lt;&gt;&amp;\tw&#x1;&#x1F;&#xFFFE;&#xFFFF;\uFFFD"; got != want {
		t.Errorf("text: got %q, want %q", got, want)
	}
	if got, want := string(AppendAttr(nil, "p'q\"r\r\ns\tt\x07")), "p'q&quot;r&#xD;&#xA;s\tt&#x7;"; got != want {
		t.Errorf("attribute: got %q, want %q", got, want)
	}
}

func FuzzDecodeSOAP(f *testing.F) {
	f.Add([]byte(env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`)), true, "text/xml; charset=utf-8")
	f.Add([]byte(env12(`<ReturnAtmSearchByCoordinates xmlns="`+ns+`"><bytRadius>10</bytRadius><dblLatitude>1e1</dblLatitude></ReturnAtmSearchByCoordinates>`)), false, "application/soap+xml")
	f.Add([]byte(`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`), true, "text/xml")
	// Encodings switched after the declaration, names .NET refuses.
	f.Add(append([]byte{0xFF, 0xFE}, utf16LE(env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`))...), false, "application/soap+xml")
	f.Add([]byte("\xef\xbb\xbf"+strings.Replace(env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>k\xe9</strAtmServiceKey></ReturnProvinces>`), "utf-8", "iso-8859-1", 1)), false, "application/soap+xml")
	f.Add([]byte(env12(`<a:b:c/><:x/><1x/>< x/>`)), false, "application/soap+xml")
	f.Fuzz(func(t *testing.T, body []byte, hasAction bool, ct string) {
		r := SOAPRequest{Namespace: ns, ContentType: ct, HasAction: hasAction, Body: body}
		if hasAction {
			r.Action = `"` + ns + `/ReturnAtmSearchByCoordinates"`
		}
		c, e := DecodeSOAPRequest(r)
		if (c == nil) == (e == nil) {
			t.Fatalf("got call %v and error %v: want exactly one", c, e)
		}
		if e != nil {
			if e.Status < 400 || e.Status > 599 {
				t.Fatalf("error status %d", e.Status)
			}
			for _, form := range []ErrorForm{{}, {Detailed: true}} {
				if out := appendFault(nil, SOAP12, e, form); !utf8.Valid(out) {
					t.Fatalf("fault is not UTF-8: %q", out)
				}
			}
			return
		}
		if c.Radius < 0 || c.Radius > 255 || !c.Binding.IsSOAP() {
			t.Fatalf("impossible values accepted: %+v", c)
		}
		_ = c.Canonical()
	})
}

// sameCall reports whether two calls are equal, as reflect.DeepEqual
// would but for a NaN coordinate, which equals a NaN.
func sameCall(a, b *Call) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b
	if math.IsNaN(x.Latitude) && math.IsNaN(y.Latitude) {
		x.Latitude, y.Latitude = 0, 0
	}
	if math.IsNaN(x.Longitude) && math.IsNaN(y.Longitude) {
		x.Longitude, y.Longitude = 0, 0
	}
	return reflect.DeepEqual(x, y)
}

func FuzzDecodeValues(f *testing.F) {
	f.Add("strAtmServiceKey=k&strPostalCode=&dblLatitude=44.6&dblLongitude=-63.5&bytRadius=25")
	f.Add("strAtmServiceKey=k&bytRadius=300&dblLatitude=NaN&dblLongitude=1&strPostalCode=%zz")
	f.Add("STRATMSERVICEKEY=k&strAtmServiceKey=j&strPostalCode=&dblLatitude=1&dblLongitude=2&bytRadius=3&")
	f.Add("strAtmServiceKey=k&strAtmServiceKey=%E2%82&x&=y&str%50ostalCode=a+b&dblLatitude=1&dblLongitude=2&bytRadius=3")
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	f.Fuzz(func(t *testing.T, query string) {
		values := nameValueCollection(query)
		for _, b := range []Binding{HTTPGet, HTTPPost, JSON} {
			c, e := DecodeValues(op, b, values)
			if qc, qe := DecodeQuery(op, b, query); !sameCall(qc, c) || !reflect.DeepEqual(qe, e) {
				t.Fatalf("DecodeQuery(%q): got %+v, %+v; DecodeValues(ParseQuery) gives %+v, %+v", query, qc, qe, c, e)
			}
			if (c == nil) == (e == nil) {
				t.Fatalf("got call %v and error %v: want exactly one", c, e)
			}
			if e == nil && (c.Radius > 255 || c.Radius < 0 || !utf8.ValidString(c.Postal)) {
				t.Fatalf("impossible values accepted: %+v", c)
			}
			if e != nil && !utf8.ValidString(e.plainText(ErrorForm{Detailed: true})) {
				t.Fatalf("error text is not UTF-8")
			}
		}
	})
}

// nameValueCollection is ParseQuery(query) with the names that differ
// only in case as one, under the first's spelling, their values in the
// query's order, as ASP.NET's NameValueCollection holds them.
func nameValueCollection(query string) url.Values {
	v := make(url.Values)
	var names []string
	eachPair(query, func(name, value string, _ bool) {
		for _, n := range names {
			if sameName(n, name) {
				name = n
				break
			}
		}
		if _, ok := v[name]; !ok {
			names = append(names, name)
		}
		v[name] = append(v[name], value)
	})
	return v
}

// TestSOAPVersion checks the binding told from content types, including
// those SOAP 1.1's short cut reads without mime.ParseMediaType.
func TestSOAPVersion(t *testing.T) {
	tests := []struct {
		ct        string
		b         Binding
		action    string
		hasAction bool
	}{
		{"text/xml", SOAP11, "", false},
		{"text/xml; charset=utf-8", SOAP11, "", false},
		{" TEXT/XML ;charset=\"utf-8\"", SOAP11, "", false},
		{"text/xml; charset", SOAP11, "", false}, // a broken parameter list
		{"text/xml;;", SOAP11, "", false},
		{"text/xmls", 0, "", false},
		{"text/html", 0, "", false},
		{"", 0, "", false},
		{"application/soap+xml; charset=utf-8", SOAP12, "", false},
		{`application/soap+xml; charset=utf-8; action="urn:a"`, SOAP12, "urn:a", true},
		{"Application/SOAP+XML; action", SOAP12, "", false},
		{"application/xml", 0, "", false},
	}
	for _, tc := range tests {
		b, action, has := SOAPVersion(tc.ct)
		if b != tc.b || action != tc.action || has != tc.hasAction {
			t.Errorf("SOAPVersion(%q): got %v, %q, %v, want %v, %q, %v", tc.ct, b, action, has, tc.b, tc.action, tc.hasAction)
		}
	}
}

func TestSOAPText(t *testing.T) {
	t.Parallel()
	const xml = `<a>Montréal</a>`
	tests := []struct {
		name, ct   string
		body       []byte
		text, from string
	}{
		{"UTF-8 read as it is", "application/soap+xml", []byte(xml), xml, ""},
		{"charset utf-16", "text/xml; charset=utf-16", utf16LE(xml), xml, "utf-16le"},
		{"UTF-16 without a charset, detected", "application/soap+xml", utf16LE(xml), xml, "utf-16le"},
		{"byte order mark", "text/xml", append([]byte{0xFF, 0xFE}, utf16LE(xml)...), xml, "utf-16le"},
		{"text/xml without a charset: US-ASCII", "text/xml", []byte(xml), "<a>Montr??al</a>", "us-ascii"},
		{"charset iso-8859-1", "text/xml; charset=iso-8859-1", []byte("<a>Montr\xe9al</a>"), xml, "iso-8859-1"},
		{"UTF-8 byte order mark, iso-8859-1 declared: Latin-1 after the declaration", "application/soap+xml",
			[]byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><a>Montr\xe9al</a>"), `<?xml version="1.0" encoding="iso-8859-1"?>` + xml, "iso-8859-1"},
		{"UTF-16 declaring utf-8: read whole as UTF-16 (ASMX's reader switches and fails)", "application/soap+xml",
			append([]byte{0xFF, 0xFE}, utf16LE(`<?xml version="1.0" encoding="utf-8"?>`+xml)...), `<?xml version="1.0" encoding="utf-8"?>` + xml, "utf-16le"},
		{"UTF-16 without a mark declaring iso-8859-1: read whole as UTF-16", "application/soap+xml",
			utf16LE(`<?xml version="1.0" encoding="iso-8859-1"?>` + xml), `<?xml version="1.0" encoding="iso-8859-1"?>` + xml, "utf-16le"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, from := SOAPText(tt.ct, tt.body)
			if string(text) != tt.text || from != tt.from {
				t.Errorf("got %q from %q, want %q from %q", text, from, tt.text, tt.from)
			}
		})
	}
}

// FuzzTooLargeSOAPError: whatever the headers of a SOAP request over the
// body cap, its answer is a 500 SOAP fault of a known version, kind
// RequestTooLarge, in valid UTF-8, and routing by the headers agrees with
// DecodeSOAPRequest's (an unknown SOAPAction is that fault in both).
func FuzzTooLargeSOAPError(f *testing.F) {
	f.Add("text/xml; charset=utf-8", `"`+ns+`/ReturnProvinces"`, true)
	f.Add("text/xml", `"urn:x"`, true)
	f.Add(`application/soap+xml; action="`+ns+`/ReturnProvinces"`, "", false)
	f.Add(`application/soap+xml; action="%zz`, "", false)
	f.Fuzz(func(t *testing.T, ct, action string, hasAction bool) {
		r := SOAPRequest{Namespace: ns, ContentType: ct, Action: action, HasAction: hasAction}
		e := NewTooLargeSOAPError(r, 4096)
		if e.Status != 500 || e.Kind != KindRequestTooLarge || !e.Binding.IsSOAP() {
			t.Fatalf("got status %d, kind %s, binding %v: want 500, %s, a SOAP version", e.Status, e.Kind, e.Binding, KindRequestTooLarge)
		}
		for _, form := range []ErrorForm{{}, {Detailed: true}} {
			if out := appendFault(nil, e.Binding, e, form); !utf8.Valid(out) {
				t.Fatalf("fault is not UTF-8: %q", out)
			}
		}
		_, de := DecodeSOAPRequest(r) // no body: routing by the headers decides what it can
		if de != nil && de.Kind == KindUnknownAction && e.Exception.remoteText(false) != de.Exception.remoteText(false) {
			t.Fatalf("an unknown action: got %q, DecodeSOAPRequest gives %q", e.Exception.remoteText(false), de.Exception.remoteText(false))
		}
	})
}

// TestRecycledCallStartsEmpty: a call given back (Recycle) and reused by
// the next decoding holds nothing of the one before: a parameter the new
// request leaves out is absent and zero, the header list is empty, and
// the strings the old call held are as they were.
func TestRecycledCallStartsEmpty(t *testing.T) {
	op := OpReturnAtmSearchByAddress
	full := `<ReturnAtmSearchByAddress xmlns="` + ns + `"><strAtmServiceKey>k1</strAtmServiceKey><strAddress>1 Main St</strAddress><strCity>Halifax</strCity><strProvince>NS</strProvince><strPostalCode>B3H 1A1</strPostalCode><bytRadius>25</bytRadius></ReturnAtmSearchByAddress>`
	bare := `<ReturnAtmSearchByAddress xmlns="` + ns + `"><strAtmServiceKey>k2</strAtmServiceKey></ReturnAtmSearchByAddress>`
	want, e := DecodeSOAPRequest(soap11(op, env11(bare)))
	if e != nil {
		t.Fatal(e)
	}
	wantCopy := *want
	for range 20 { // the pool may drop what it was given now and then
		c, e := DecodeSOAPRequest(soap11(op, env11(full)))
		if e != nil {
			t.Fatal(e)
		}
		city := c.City
		c.MustUnderstand = []string{"h"}
		c.Recycle()
		if city != "Halifax" {
			t.Fatalf("the recycled call's city: got %q, want Halifax", city)
		}
		got, e := DecodeSOAPRequest(soap11(op, env11(bare)))
		if e != nil {
			t.Fatal(e)
		}
		if !reflect.DeepEqual(*got, wantCopy) {
			t.Fatalf("after a recycled call: got %+v, want %+v", *got, wantCopy)
		}
	}
	(&Call{Op: want.Op}).Recycle() // not a decoder's: left alone
	var none *Call
	none.Recycle()
}

// TestDecodeQueryNamesIgnoreCaseInOrder checks that the values of names
// differing only in case are joined in the query's order, as ASP.NET's
// NameValueCollection keeps them (one entry, its values as added), and that
// names are compared as .NET's OrdinalIgnoreCase compares them (each
// character's upper case): the Kelvin sign K (U+212A), whose upper case is
// itself, is no 'k' there, though Unicode folds the two together.
func TestDecodeQueryNamesIgnoreCaseInOrder(t *testing.T) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	rest := "&strPostalCode=&dblLongitude=1&bytRadius=3"
	for _, tt := range []struct {
		name, query string
		key         string  // "" for a missing key
		lat         float64 // with key
	}{
		{"variant first", "STRATMSERVICEKEY=a&strAtmServiceKey=b&dblLatitude=1", "a,b", 1},
		{"three spellings", "StrAtmServiceKey=a&STRATMSERVICEKEY=b&strAtmServiceKey=c&dblLatitude=1", "a,b,c", 1},
		{"a double joined, thousands", "strAtmServiceKey=k&DBLLATITUDE=1&dblLatitude=5", "k", 15},
		{"Kelvin sign", "strAtmService\u212Aey=a&STRATMSERVICEKEY=b&dblLatitude=1", "b", 1},
		{"Kelvin sign alone", "strAtmService\u212Aey=a&strAtmServiceKEY=b&strAtmServiceKey=c&dblLatitude=1", "b,c", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // map order varies from run to run
				c, e := DecodeQuery(op, HTTPGet, tt.query+rest)
				if e != nil || c.Key != tt.key || c.Latitude != tt.lat {
					t.Fatalf("got %+v, %v, want key %q, latitude %v", c, e, tt.key, tt.lat)
				}
			}
		})
	}
}
