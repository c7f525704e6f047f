package mockserver

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"golang.org/x/text/encoding/charmap"
)

// The generated differential test is the table's seeded companion
// (differential_test.go): a generator builds a few hundred requests, each a
// valid call of one binding with a few of the mutations real and hostile
// clients make, and sends each to the mock and to the reference ASMX
// deployment. The comparable parts of the two answers (status, content
// type, SOAP fault code, first line of the error text) must be equal, or
// differ as one of the known classes of Mono's differences from .NET (the
// table's why constants) does; any other difference fails the test with the
// request and the seed that replays it.
//
// DIFF_SEED sets the seed (default genDefaultSeed), DIFF_COUNT
// the number of requests (default genDefaultCount).

const (
	genDefaultSeed  = 1
	genDefaultCount = 400
	genWorkers      = 4 // requests in flight at once, to each side
)

// genBinding is the binding a generated call starts from.
type genBinding int

const (
	genSOAP11 genBinding = iota
	genSOAP12
	genGet
	genPost
	genJSON
)

func (b genBinding) String() string {
	return [...]string{"soap11", "soap12", "get", "post", "json"}[b]
}

func (b genBinding) soap() bool { return b == genSOAP11 || b == genSOAP12 }

// genParam is one parameter as the call writes it.
type genParam struct {
	name, value string
	typ         asmx.ParamType
	attrs       string // SOAP: attributes of the element (xsi:nil, xsi:type…)
	raw         bool   // SOAP: value is markup, written as is
	xmlns       string // SOAP: an xmlns attribute of its own ("" none)
	selfClose   bool   // SOAP: written <p/> (value must be "")
}

// genCall is a request before it is written: a valid call, then mutated.
type genCall struct {
	b      genBinding
	op     *asmx.Operation
	opName string // as written on the wire (path or element)
	params []genParam
	muts   []string // the mutations applied, in order

	method string
	path   string // the .asmx path
	tail   string // HTTP: what follows the .asmx path ("/Op")
	query  string // SOAP, POST: a query string of its own
	ctype  *string
	extraH map[string]string

	// HTTP GET, POST, JSON
	rawQuery  *string // the parameters as written, when a mutation wrote them itself
	getBody   string  // a body sent with GET
	formQuery bool    // POST: the parameters in the query string too

	// SOAP
	action    *string
	envNS     string
	envPrefix string // "" the default namespace
	opNS      string
	opPrefix  string
	opAttrs   string
	decl      string
	before    string // between the declaration and the Envelope
	after     string // after the Envelope
	header    string // the Header's content; "-" none
	inBody    string // in the Body, after the operation element
	inOp      string // in the operation element, after the parameters
	inEnv     string // in the Envelope, after the Body ("%s:" the envelope's prefix)
	bodyAttrs string // attributes of the Body
	envAttrs  string // attributes of the Envelope
	headerEnd bool   // the Header after the Body
	sep       string // between elements
	xsiDecl   bool
	encoding  string // utf-8, utf-16le, utf-16be, iso-8859-1
	bom       bool
}

// genNoHeader stands for no Header element.
const genNoHeader = "-"

// Values of the typed parameters that real and hostile clients send.
var (
	genByteValues = []string{"256", "-1", "1e3", " 5 ", "0x5", "NaN", "Infinity", "5,0", "1,000", "+5", "", "05", "255", "0", "5.0",
		"\t5\n", "-0", "٥", "1000000000000", "5 5", "0005"}
	genIntValues = []string{"99999999999", "-2147483648", "2147483647", "2147483648", "1e3", " 7 ", "0x10", "+7", "-7", "7.0", "1,000", "",
		"abc", "007", "-0", "٧", "\n1\n"}
	genDoubleValues = []string{"NaN", "Infinity", "-Infinity", "INF", "-INF", "1e400", "-1e400", "1e-400", " 44.6 ", "44,6", "1,000.5", "0x1p3",
		"+44.6", ".5", "5.", "1E3", "abc", "", "-0", "1d", "44.6e", "∞", "1.7976931348623157E+308", "44.6f", "nan", "infinity", "- 5", "4_4"}
	genStringValues = []string{"", " ", "café", "日本語", "a&b", "a+b", "a b", "a%b", "<b>", "&#65;", "<?x", "< 5", "a<!b", "x=y", "O'Neil", `"q"`,
		"\u00a0", "tab\there", "line\nbreak", strings.Repeat("z", 300)}
	genKeyValues = []string{"bad", "", " ", " " + refdeploy.Key + " ", strings.ToUpper(refdeploy.Key), refdeploy.Key + "\t", refdeploy.Key + "x", "<b>" + refdeploy.Key}
)

// genValid is a valid value of each parameter.
var genValid = map[string]string{
	asmx.ParamKey: refdeploy.Key, asmx.ParamAddress: "1 Main St", asmx.ParamCity: "Halifax", asmx.ParamProvince: "NS",
	asmx.ParamPostalCode: "", asmx.ParamRadius: "5", asmx.ParamLatitude: "44.6", asmx.ParamLongitude: "-63.5",
	asmx.ParamMaximumAtms: "3", asmx.ParamInstitutionID: "1", asmx.ParamCityID: "1",
}

// genMutation changes a call; it returns false when it does not apply.
type genMutation struct {
	name  string
	apply func(r *rand.Rand, c *genCall) bool
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func ptr(s string) *string { return &s }

// genNew builds a valid call of a random binding and operation.
func genNew(r *rand.Rand) *genCall {
	ops := asmx.Operations()
	b := genBinding(r.IntN(5))
	var op *asmx.Operation
	for op == nil || (b == genJSON && !op.JSON) {
		op = pick(r, ops)
	}
	c := &genCall{b: b, op: op, opName: op.Name, envNS: asmx.NamespaceSOAP11, envPrefix: "soap", opNS: refdeploy.Namespace,
		decl: `<?xml version="1.0" encoding="utf-8"?>`, header: genNoHeader, encoding: "utf-8", path: refdeploy.ServicePath}
	for _, p := range op.Params {
		c.params = append(c.params, genParam{name: p.Name, value: genValid[p.Name], typ: p.Type})
	}
	switch b {
	case genSOAP11:
		c.method, c.ctype, c.action = "POST", ptr(ctXML), ptr(`"`+refdeploy.Namespace+"/"+op.Name+`"`)
	case genSOAP12:
		c.method, c.ctype, c.envNS = "POST", ptr(ctSOAP12), asmx.NamespaceSOAP12
	case genGet:
		c.method, c.tail = "GET", "/"+op.Name
	case genPost:
		c.method, c.tail, c.ctype = "POST", "/"+op.Name, ptr(asmx.ContentTypeForm)
	case genJSON:
		c.method, c.tail, c.path = "GET", "/"+op.Name, refdeploy.JSONPath
	}
	return c
}

// genTyped returns the indexes of the parameters that are not strings.
func genTyped(c *genCall) []int {
	var out []int
	for i, p := range c.params {
		if p.typ != asmx.String {
			out = append(out, i)
		}
	}
	return out
}

// genBadValue is a value a client might send for a parameter of type t.
func genBadValue(r *rand.Rand, t asmx.ParamType) string {
	switch t {
	case asmx.UnsignedByte:
		return pick(r, genByteValues)
	case asmx.Int:
		return pick(r, genIntValues)
	case asmx.Double:
		return pick(r, genDoubleValues)
	}
	return pick(r, genStringValues)
}

func genCase(r *rand.Rand, s string) string {
	switch r.IntN(3) {
	case 0:
		return strings.ToLower(s)
	case 1:
		return strings.ToUpper(s)
	}
	b := []byte(s)
	i := r.IntN(len(b))
	if b[i] >= 'a' && b[i] <= 'z' {
		b[i] -= 'a' - 'A'
	} else if b[i] >= 'A' && b[i] <= 'Z' {
		b[i] += 'a' - 'A'
	}
	return string(b)
}

// Mutations of every binding: the parameters.
var genParamMutations = []genMutation{
	{"drop", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		i := r.IntN(len(c.params))
		c.params = slices.Delete(c.params, i, i+1)
		return true
	}},
	{"empty", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		p.value = ""
		p.selfClose = r.IntN(2) == 0
		return true
	}},
	{"repeat", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := c.params[r.IntN(len(c.params))]
		if r.IntN(2) == 0 {
			p.value = genBadValue(r, p.typ)
		}
		p.selfClose = false
		c.params = slices.Insert(c.params, r.IntN(len(c.params)+1), p)
		return true
	}},
	{"shuffle", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) < 2 {
			return false
		}
		r.Shuffle(len(c.params), func(i, j int) { c.params[i], c.params[j] = c.params[j], c.params[i] })
		return true
	}},
	{"unknown parameter", func(r *rand.Rand, c *genCall) bool {
		p := genParam{name: pick(r, []string{"foo", "strAtmServiceKey2", "op", "__VIEWSTATE", "strCityID", "x.y"}), value: pick(r, []string{"1", "bar", "<b>", ""})}
		c.params = slices.Insert(c.params, r.IntN(len(c.params)+1), p)
		return true
	}},
	{"bad value", func(r *rand.Rand, c *genCall) bool {
		typed := genTyped(c)
		if len(typed) == 0 {
			return false
		}
		p := &c.params[pick(r, typed)]
		p.value, p.selfClose = genBadValue(r, p.typ), false
		return true
	}},
	{"string value", func(r *rand.Rand, c *genCall) bool {
		var idx []int
		for i, p := range c.params {
			if p.typ == asmx.String && p.name != asmx.ParamKey {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return false
		}
		p := &c.params[pick(r, idx)]
		p.value, p.selfClose = pick(r, genStringValues), false
		return true
	}},
	{"key", func(r *rand.Rand, c *genCall) bool {
		for i := range c.params {
			if c.params[i].name == asmx.ParamKey {
				c.params[i].value, c.params[i].selfClose = pick(r, genKeyValues), false
				return true
			}
		}
		return false
	}},
	{"name case", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		p.name = genCase(r, p.name)
		return true
	}},
}

// Mutations of SOAP calls.
var genSOAPMutations = []genMutation{
	{"SOAPAction", func(r *rand.Rand, c *genCall) bool {
		ns, op := refdeploy.Namespace, c.op.Name
		other := pick(r, asmx.Operations()).Name
		c.action = pick(r, []*string{nil, ptr(`""`), ptr(ns + "/" + op), ptr(`"` + ns + "/" + other + `"`), ptr(`"` + ns + "/" + strings.ToLower(op) + `"`),
			ptr(`"urn:other/` + op + `"`), ptr(`"` + url.QueryEscape(ns+"/"+op) + `"`), ptr(`"` + ns + "/" + op + `/"`), ptr(`'` + ns + "/" + op + `'`),
			ptr(`"` + ns + "/" + op + `"` + "\n" + `"` + ns + "/" + op + `"`), ptr(` "` + ns + "/" + op + `" `), ptr(`"` + ns + "//" + op + `"`),
			ptr(op), ptr(`"` + strings.ToUpper(ns) + "/" + op + `"`), ptr(`"#` + op + `"`)})
		return true
	}},
	{"content type", func(r *rand.Rand, c *genCall) bool {
		c.ctype = pick(r, []*string{nil, ptr("text/xml"), ptr("TEXT/XML; CHARSET=UTF-8"), ptr("text/xml;charset=utf-8"), ptr(`text/xml; charset="utf-8"`),
			ptr("text/xml; charset=utf-8; foo=bar"), ptr("application/xml"), ptr("text/plain"), ptr("application/soap+xml"), ptr("Application/Soap+Xml; charset=utf-8"),
			ptr("application/soap+xml;charset=UTF-8"), ptr(ctXML), ptr(ctSOAP12), ptr("application/json"), ptr("text/xml ; charset=utf-8"), ptr(""),
			ptr("multipart/related; type=\"application/xop+xml\""), ptr(asmx.ContentTypeForm)})
		return true
	}},
	{"action parameter", func(r *rand.Rand, c *genCall) bool {
		base := ctSOAP12
		if c.ctype != nil && *c.ctype != "" {
			base = *c.ctype
		}
		ns, op := refdeploy.Namespace, c.op.Name
		c.ctype = ptr(base + pick(r, []string{`; action="` + ns + "/" + op + `"`, `; action=` + ns + "/" + op, `; action="urn:x"`, `; action=""`,
			`; action="` + ns + "/" + pick(r, asmx.Operations()).Name + `"`, `;action="` + ns + "/" + strings.ToLower(op) + `"`, `; ACTION="` + ns + "/" + op + `"`}))
		return true
	}},
	{"operation namespace", func(r *rand.Rand, c *genCall) bool {
		c.opNS = pick(r, []string{"urn:other", "", refdeploy.Namespace + "/", strings.ToUpper(refdeploy.Namespace), "http://tempuri.org/"})
		return true
	}},
	{"operation case", func(r *rand.Rand, c *genCall) bool {
		c.opName = genCase(r, c.opName)
		return true
	}},
	{"prefixes", func(r *rand.Rand, c *genCall) bool {
		c.envPrefix = pick(r, []string{"", "SOAP-ENV", "env", "s", "soapenv", "x"})
		if r.IntN(2) == 0 {
			c.opPrefix = pick(r, []string{"m", "tns", "a"})
		}
		return true
	}},
	{"white space", func(r *rand.Rand, c *genCall) bool {
		c.sep = pick(r, []string{"\n", "\r\n", "\n  ", "\t", " \r\n\t "})
		switch r.IntN(4) {
		case 0:
			c.after = pick(r, []string{"\n", "\r\n\r\n", "  "})
		case 1:
			c.before = "\n"
		case 2:
			c.decl = "\n" + c.decl // white space before the declaration
		}
		return true
	}},
	{"comment", func(r *rand.Rand, c *genCall) bool {
		return placeMarkup(r, c, "<!-- "+pick(r, []string{"c", "", "-x-", "<b>"})+" -->")
	}},
	{"processing instruction", func(r *rand.Rand, c *genCall) bool {
		return placeMarkup(r, c, "<?"+pick(r, []string{"pi", "xml-stylesheet href=\"a\"", "x y"})+"?>")
	}},
	{"CDATA", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		v := p.value
		switch r.IntN(3) {
		case 0:
			p.value = "<![CDATA[" + v + "]]>"
		case 1:
			h := len(v) / 2
			p.value = genXMLEscape(v[:h]) + "<![CDATA[" + v[h:] + "]]>"
		default:
			p.value = "<![CDATA[]]>" + genXMLEscape(v)
		}
		p.raw, p.selfClose = true, false
		return true
	}},
	{"character references", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		var b strings.Builder
		for _, ch := range p.value {
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, pick(r, []string{"&#%d;", "&#x%X;", "&#x%x;"}), ch)
			} else {
				b.WriteString(genXMLEscape(string(ch)))
			}
		}
		p.value, p.raw, p.selfClose = b.String(), true, false
		return true
	}},
	{"byte order mark", func(r *rand.Rand, c *genCall) bool {
		c.bom = true
		return true
	}},
	{"encoding", func(r *rand.Rand, c *genCall) bool {
		c.encoding = pick(r, []string{"utf-16le", "utf-16be", "iso-8859-1"})
		c.bom = c.encoding != "iso-8859-1" || r.IntN(3) == 0
		name := map[string]string{"utf-16le": "utf-16", "utf-16be": "utf-16", "iso-8859-1": "iso-8859-1"}[c.encoding]
		if r.IntN(4) == 0 && c.encoding == "utf-16le" {
			name = "UTF-16LE"
		}
		c.decl = `<?xml version="1.0" encoding="` + name + `"?>`
		if r.IntN(3) > 0 && c.ctype != nil {
			base, _, _ := strings.Cut(*c.ctype, ";")
			c.ctype = ptr(base + "; charset=" + name)
		}
		for i := range c.params { // a value the encoding can write
			if c.params[i].name == asmx.ParamAddress || c.params[i].name == asmx.ParamCity {
				c.params[i].value = "Café"
			}
		}
		return true
	}},
	{"declared encoding", func(r *rand.Rand, c *genCall) bool {
		// A declaration naming an encoding other than the body's: the
		// reader switches after it (or refuses) when no charset is named.
		c.decl = `<?xml version="1.0" encoding="` + pick(r, []string{"utf-8", "utf-16", "UTF-16", "ucs-2", "iso-10646-ucs-2", "ucs-4", "UCS-4",
			"iso-8859-1", "windows-1252", "utf-16le", "utf-16BE", "unicode", "us-ascii", "utf-32", "ibm037"}) + `"?>`
		if r.IntN(2) == 0 && c.ctype != nil {
			base, _, _ := strings.Cut(*c.ctype, ";")
			c.ctype = ptr(base)
		}
		return true
	}},
	{"names", func(r *rand.Rand, c *genCall) bool {
		el := pick(r, []string{"<1x/>", "< x/>", "<:x/>", "<-x/>", "<.x/>", "<\u00b7x/>", `<a:b:c xmlns:a="urn:a"/>`, `<a:1 xmlns:a="urn:a"/>`,
			"<a&b/>", "<a\x00/>", "<\U0001F600/>", "<\u00e9t\u00e9/>", "<x\u0301/>", `<a: xmlns:a="urn:a"/>`, "<_x.y-z/>"})
		switch r.IntN(4) {
		case 0:
			c.inOp += el
		case 1:
			c.inBody = el + c.inBody
		case 2:
			c.header = el
		default:
			c.before = pick(r, []string{"x", " x", "<!-- c -->x", "\u00a0"}) + c.before
		}
		return true
	}},
	{"broken markup", func(r *rand.Rand, c *genCall) bool {
		// Markup .NET's reader refuses or reads its own way, where the
		// error's words and position show (routing by element).
		el := pick(r, []string{`<a b="1" b="2"/>`, `<a b=1/>`, `<a b="<"/>`, `<a b/>`, `<a 1b="x"/>`, `<a b="x"c="y"/>`, `</a>`, `<a></b>`,
			`<a>`, `<!-- a -- b -->`, `<!-- x`, `<![CDATA[x]]>`, `x]]>y`, `&foo;`, `&#0;`, `&amp`, `<a xmlns:="x"/>`,
			`<a xml:space="bad"/>`, `<!DOCTYPE a>`, `<a b='1"/>`, `<a	b="&lt;&#x41;"/>`, `<a b="x&y"/>`, `<a/ >`, `</ a>`, `<a></a >`, `<a b="1"/><a b="1" b="1"/>`})
		switch r.IntN(3) {
		case 0:
			c.header = el
		case 1:
			c.inOp += el
		default:
			c.inBody += el
		}
		return true
	}},
	{"envelope attributes", func(r *rand.Rand, c *genCall) bool {
		// Attributes and markup around the operation .NET's reader and
		// XmlSerializer read their own way.
		switch r.IntN(4) {
		case 0:
			c.opAttrs += pick(r, []string{` xsi:type="x"`, ` xmlns:q="urn:q" q:a="1"`, ` xml:lang=""`, ` xml:space="preserve"`, ` a="&#60;"`, " a='\u00e9'", ` a="&lt;b&gt;"`})
			c.xsiDecl = true
		case 1:
			if len(c.params) == 0 {
				return false
			}
			p := &c.params[r.IntN(len(c.params))]
			p.value, p.raw, p.selfClose = pick(r, []string{"<![CDATA[" + p.value + "]]>", "<![CDATA[]]>" + genXMLEscape(p.value), genXMLEscape(p.value) + "<![CDATA[]]>", "<![CDATA[" + p.value + "]]><!-- c -->"}), true, false
		case 2:
			c.header = strings.Repeat("<a>", 40) + strings.Repeat("</a>", 40)
		default:
			c.inOp += pick(r, []string{"<?pi x?>", "<!-- c -->", "<![CDATA[ ]]>", "\n\t", "&#32;"})
		}
		return true
	}},
	{"declaration", func(r *rand.Rand, c *genCall) bool {
		c.decl = pick(r, []string{"", `<?xml version="1.0"?>`, `<?xml version='1.0' encoding='UTF-8'?>`, `<?xml version="1.0" encoding="utf-8" standalone="yes"?>`,
			`<?xml version="1.1" encoding="utf-8"?>`, `<?xml version="1.0" encoding="ascii"?>`, `<?xml  version="1.0"  ?>`, `<?xml version="1.0" encoding="nope"?>`})
		return true
	}},
	{"xsi:nil", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		c.xsiDecl = true
		p := &c.params[r.IntN(len(c.params))]
		p.attrs += pick(r, []string{` xsi:nil="true"`, ` xsi:nil="1"`, ` xsi:nil="false"`, ` xsi:nil=" true "`, ` xsi:nil="TRUE"`, ` xsi:nil="yes"`, ` xsi:nil=""`,
			` n:nil="true" xmlns:n="http://www.w3.org/1999/XMLSchema-instance"`, ` n:nil="1" xmlns:n="http://www.w3.org/2000/10/XMLSchema-instance"`, ` nil="true"`,
			` xsi:null="1"`, ` xsi:nil="true" xsi:type="xsd:string"`})
		if r.IntN(2) == 0 {
			p.value, p.selfClose = "", true
		}
		return true
	}},
	{"xsi:type", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		c.xsiDecl = true
		p := &c.params[r.IntN(len(c.params))]
		p.attrs += ` xsi:type="` + pick(r, []string{"xsd:" + p.typ.XSD(), "xsd:string", "xsd:int", "xsd:anyType", "xsd:nope", "q:x", "xsd:double", "xsd:unsignedByte"}) + `"`
		return true
	}},
	{"unknown element", func(r *rand.Rand, c *genCall) bool {
		el := pick(r, []string{"<foo/>", "<foo>1</foo>", `<x:foo xmlns:x="urn:x">1</x:foo>`, "<strAtmServiceKey2>1</strAtmServiceKey2>"})
		switch r.IntN(3) {
		case 0:
			c.inOp += el
		case 1:
			c.inBody += el
		default:
			p := genParam{name: "foo", value: el, raw: true}
			c.params = slices.Insert(c.params, r.IntN(len(c.params)+1), p)
		}
		return true
	}},
	{"header", func(r *rand.Rand, c *genCall) bool {
		c.header = pick(r, []string{"", `<a:Auth xmlns:a="urn:a">x</a:Auth>`, `<a:Auth xmlns:a="urn:a" %s:mustUnderstand="0"/>`,
			`<a:Auth xmlns:a="urn:a" %s:mustUnderstand="1"/>`, `<a:Auth xmlns:a="urn:a" %s:mustUnderstand="true"/>`, `<a:Auth xmlns:a="urn:a" %s:actor="urn:x" %s:mustUnderstand="1"/>`})
		return true
	}},
	{"attributes", func(r *rand.Rand, c *genCall) bool {
		a := pick(r, []string{` foo="bar"`, ` xml:lang="en"`, ` xml:space="preserve"`, ` %s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"`})
		if r.IntN(2) == 0 || len(c.params) == 0 {
			c.opAttrs += a
		} else {
			c.params[r.IntN(len(c.params))].attrs += a
		}
		return true
	}},
	{"parameter namespace", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		c.params[r.IntN(len(c.params))].xmlns = pick(r, []string{"", "urn:other", refdeploy.Namespace})
		if c.params[0].xmlns == "" && r.IntN(2) == 0 {
			c.params[0].xmlns = "-" // xmlns="": no namespace
		}
		return true
	}},
	{"header entries", func(r *rand.Rand, c *genCall) bool {
		// Header entries asking to be understood in the ways clients and
		// proxies write it: values, namespaces of the attribute, actors and
		// roles of both versions, entries in no namespace.
		ns11, ns12 := asmx.NamespaceSOAP11, asmx.NamespaceSOAP12
		mu := pick(r, []string{`%s:mustUnderstand="VAL"`, `o:mustUnderstand="VAL" xmlns:o="OTHER"`, `mustUnderstand="VAL"`, `%s:mustUnderstand="VAL" %s:mustUnderstand="0"`})
		mu = strings.ReplaceAll(mu, "VAL", pick(r, []string{"1", "true", "0", "false", " 1 ", "TRUE", "yes", "", "01", "\t1"}))
		if c.envNS == ns11 {
			mu = strings.ReplaceAll(mu, "OTHER", ns12)
		} else {
			mu = strings.ReplaceAll(mu, "OTHER", ns11)
		}
		if r.IntN(2) == 0 {
			mu += " " + pick(r, []string{`%s:actor="http://schemas.xmlsoap.org/soap/actor/next"`, `%s:actor="urn:x"`, `%s:actor=""`,
				`%s:role="http://www.w3.org/2003/05/soap-envelope/role/next"`, `%s:role="http://www.w3.org/2003/05/soap-envelope/role/none"`,
				`%s:role="http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"`, `%s:role="urn:x"`, `%s:relay="true"`})
		}
		entry := pick(r, []string{`<a:Auth xmlns:a="urn:a" ` + mu + `>x</a:Auth>`, `<Auth ` + mu + `/>`, `<Auth xmlns="` + refdeploy.Namespace + `" ` + mu + `/>`,
			`<a:Auth xmlns:a="urn:a"><a:In ` + mu + `/></a:Auth>`})
		if r.IntN(3) == 0 {
			entry += pick(r, []string{`<b:Trace xmlns:b="urn:b">1</b:Trace>`, `<b:Must xmlns:b="urn:b" %s:mustUnderstand="1"/>`})
		}
		if c.header != genNoHeader && r.IntN(2) == 0 {
			entry = c.header + entry
		}
		c.header = entry
		return true
	}},
	{"envelope structure", func(r *rand.Rand, c *genCall) bool {
		// The Envelope's children out of their order, twice, or beside
		// other content; attributes on the Envelope and the Body.
		switch r.IntN(6) {
		case 0:
			if c.header == genNoHeader {
				c.header = ""
			}
			c.headerEnd = true
		case 1:
			c.inEnv = pick(r, []string{"<%s:Header/>", "<%s:Body/>", "<x/>", `<x:y xmlns:x="urn:x"/>`, "x", "<!-- c -->", "<%s:Fault/>"})
		case 2:
			c.bodyAttrs = pick(r, []string{` foo="1"`, ` %s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"`, ` %s:mustUnderstand="1"`, ` xml:lang="en"`, ` id="b"`})
		case 3:
			c.envAttrs = pick(r, []string{` foo="1"`, ` %s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"`, ` %s:encodingStyle="urn:x"`,
				` %s:encodingStyle="http://www.w3.org/2003/05/soap-encoding"`, ` xmlns:q="urn:q" q:a="1"`, ` %s:mustUnderstand="1"`})
		case 4:
			c.header = pick(r, []string{"x", " ", "<!-- c -->", "<?pi?>", "<![CDATA[x]]>"})
		default:
			c.inBody = pick(r, []string{"x", "<%s:Fault/>", `<q:Other xmlns:q="urn:q"/>`, "<" + c.opName + ` xmlns="` + c.opNS + `"/>`}) + c.inBody
		}
		return true
	}},
	{"envelope namespace", func(r *rand.Rand, c *genCall) bool {
		if c.envNS == asmx.NamespaceSOAP11 {
			c.envNS = asmx.NamespaceSOAP12
		} else {
			c.envNS = asmx.NamespaceSOAP11
		}
		return true
	}},
	{"query", func(r *rand.Rand, c *genCall) bool {
		c.query = pick(r, []string{"x=1", "op=" + c.op.Name, "wsdl", "strAtmServiceKey=" + refdeploy.Key, "disco"})
		return true
	}},
	{"method", func(r *rand.Rand, c *genCall) bool {
		c.method = pick(r, []string{"GET", "PUT", "HEAD", "DELETE", "OPTIONS", "PATCH"})
		return true
	}},
	{"path case", func(r *rand.Rand, c *genCall) bool {
		c.path = pick(r, []string{"/Service/Service.asmx", "/service/SERVICE.ASMX", "/service/service.ASMX"})
		return true
	}},
}

// Mutations of HTTP GET, POST and JSON calls.
var genHTTPMutations = []genMutation{
	{"percent-encoding", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		q := genQuery(c.params)
		var parts []string
		for _, p := range c.params {
			name, value := url.QueryEscape(p.name), url.QueryEscape(p.value)
			switch r.IntN(6) {
			case 0:
				value = genPercentAll(p.value, "%%%02X")
			case 1:
				value = genPercentAll(p.value, "%%%02x")
			case 2:
				name = genPercentAll(p.name, "%%%02X")
			case 3:
				var b strings.Builder
				for _, u := range utf16.Encode([]rune(p.value)) {
					fmt.Fprintf(&b, "%%u%04x", u)
				}
				value = b.String()
			case 4:
				value += pick(r, []string{"%zz", "%", "%F", "%u12", "%uzzzz", "%00", "%C3%28", "%2B", "+"})
			default:
				value = strings.ReplaceAll(url.PathEscape(p.value), "%20", "+")
			}
			parts = append(parts, name+"="+value)
		}
		_ = q
		c.rawQuery = ptr(strings.Join(parts, "&"))
		return true
	}},
	{"separators", func(r *rand.Rand, c *genCall) bool {
		q := genQuery(c.params)
		switch r.IntN(5) {
		case 0:
			q = "&" + q + "&"
		case 1:
			q = strings.ReplaceAll(q, "&", "&&")
		case 2:
			q = strings.ReplaceAll(q, "&", ";")
		case 3:
			q += "&" + pick(r, []string{refdeploy.Key, "strAtmServiceKey", "=x", "="})
		default:
			q = strings.Replace(q, "=", "", 1)
		}
		c.rawQuery = &q
		return true
	}},
	{"method", func(r *rand.Rand, c *genCall) bool {
		c.method = pick(r, []string{"GET", "POST", "PUT", "HEAD", "DELETE", "OPTIONS"})
		if c.method == "POST" && c.ctype == nil {
			c.ctype = ptr(asmx.ContentTypeForm)
		}
		return true
	}},
	{"content type", func(r *rand.Rand, c *genCall) bool {
		c.ctype = pick(r, []*string{nil, ptr(""), ptr("application/x-www-form-urlencoded; charset=utf-8"), ptr("APPLICATION/X-WWW-FORM-URLENCODED"),
			ptr("text/plain"), ptr("application/json"), ptr("application/json; charset=utf-8"), ptr("text/xml"), ptr("application/x-www-form-urlencoded;charset=iso-8859-1"),
			ptr("multipart/form-data; boundary=x"), ptr("application/x-www-form-urlencoded ; foo=bar")})
		return true
	}},
	{"query and form", func(r *rand.Rand, c *genCall) bool {
		c.formQuery = true
		return true
	}},
	{"GET with a body", func(r *rand.Rand, c *genCall) bool {
		c.getBody = genQuery(c.params)
		if r.IntN(2) == 0 {
			c.rawQuery = ptr("")
		}
		return true
	}},
	{"path", func(r *rand.Rand, c *genCall) bool {
		op := c.op.Name
		switch r.IntN(9) {
		case 8:
			c.tail = pick(r, []string{"/js", "/jsdebug", "/JS"})
		case 0:
			c.tail = "/" + genCase(r, op)
		case 1:
			c.path = strings.ToUpper(c.path)
		case 2:
			c.path = strings.Replace(c.path, ".asmx", ".ASMX", 1)
		case 3:
			c.tail = "/" + op + "/"
		case 4:
			c.tail = "/" + op + "/x"
		case 5:
			c.tail = "/" + genPercentAll(op[:3], "%%%02X") + op[3:]
		case 6:
			c.tail = "//" + op
		default:
			c.tail = "/" + pick(r, asmx.Operations()).Name
		}
		return true
	}},
	{"binding path", func(r *rand.Rand, c *genCall) bool {
		if c.path == refdeploy.JSONPath {
			c.path = refdeploy.ServicePath
		} else {
			c.path = refdeploy.JSONPath
		}
		return true
	}},
	{"form charset", func(r *rand.Rand, c *genCall) bool {
		// A form posted in a single-byte charset (a PHP or Java client in
		// Latin-1): one value holds a letter beyond ASCII, sent as that
		// charset's byte (escaped or raw), sometimes before markup, whose
		// refusal shows the value as read.
		if len(c.params) == 0 {
			return false
		}
		name := pick(r, []string{"iso-8859-1", "ISO-8859-1", "windows-1252", "iso-8859-15", "latin1"})
		enc := map[string]*charmap.Charmap{"iso-8859-1": charmap.ISO8859_1, "ISO-8859-1": charmap.ISO8859_1, "latin1": charmap.ISO8859_1,
			"windows-1252": charmap.Windows1252, "iso-8859-15": charmap.ISO8859_15}[name]
		c.method = "POST"
		c.ctype = ptr(asmx.ContentTypeForm + "; charset=" + name)
		k := r.IntN(len(c.params))
		c.params[k].value += pick(r, []string{"é", "ü", "ÿ", "€", "Œ"}) + pick(r, []string{"", "<b", "&#x", "<?x"})
		var parts []string
		for i, p := range c.params {
			value := url.QueryEscape(p.value)
			if i == k {
				b, err := enc.NewEncoder().String(p.value)
				if err != nil {
					b = p.value // not in this charset: sent as UTF-8
				}
				raw := r.IntN(3) == 0
				var v strings.Builder
				for j := 0; j < len(b); j++ {
					switch ch := b[j]; {
					case raw && ch >= 0x80, 'a' <= ch && ch <= 'z', 'A' <= ch && ch <= 'Z', '0' <= ch && ch <= '9':
						v.WriteByte(ch)
					default:
						fmt.Fprintf(&v, "%%%02X", ch)
					}
				}
				value = v.String()
			}
			parts = append(parts, url.QueryEscape(p.name)+"="+value)
		}
		c.rawQuery = ptr(strings.Join(parts, "&"))
		return true
	}},
	{"markup", func(r *rand.Rand, c *genCall) bool {
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		p.value = pick(r, []string{"<b>", "&#65;", "<?x", "< 5", "a<!b", "</x", "<", "&#", "x&#y", "<B", "<%", "\uff1cb"})
		return true
	}},
}

// genXMLEscape escapes s for element content.
func genXMLEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;").Replace(s)
}

// genPercentAll percent-encodes every byte of s in format f.
func genPercentAll(s, f string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, f, s[i])
	}
	return b.String()
}

// genQuery writes the parameters as a form.
func genQuery(ps []genParam) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, url.QueryEscape(p.name)+"="+url.QueryEscape(p.value))
	}
	return strings.Join(parts, "&")
}

// genEnvelope writes a SOAP call's body, in its encoding.
func genEnvelope(c *genCall) string {
	ep := c.envPrefix
	el := func(name string) string {
		if ep == "" {
			return name
		}
		return ep + ":" + name
	}
	nsDecl := ` xmlns="` + c.envNS + `"`
	if ep != "" {
		nsDecl = ` xmlns:` + ep + `="` + c.envNS + `"`
	}
	if c.xsiDecl {
		nsDecl += ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`
	}
	envPrefixFor := func(s string) string {
		p := ep
		if p == "" {
			p = "e"
			s = strings.ReplaceAll(s, "%s:", `xmlns:e="`+c.envNS+`" %s:`)
		}
		return strings.ReplaceAll(s, "%s", p)
	}
	var b strings.Builder
	s := c.sep
	// inner writes markup inside the Envelope: "<%s:" names an element
	// of the envelope's namespace, "%s:" an attribute of it.
	inner := func(m string) string {
		m = strings.ReplaceAll(m, "<%s:", "<"+el(""))
		m = strings.ReplaceAll(m, "</%s:", "</"+el(""))
		return envPrefixFor(m)
	}
	header := ""
	if c.header != genNoHeader {
		header = "<" + el("Header") + ">" + inner(c.header) + "</" + el("Header") + ">" + s
	}
	b.WriteString(c.decl + c.before + "<" + el("Envelope") + nsDecl + inner(c.envAttrs) + ">" + s)
	if !c.headerEnd {
		b.WriteString(header)
	}
	b.WriteString("<" + el("Body") + inner(c.bodyAttrs) + ">" + s)
	opEl := c.opName
	opDecl := ` xmlns="` + c.opNS + `"`
	if c.opPrefix != "" {
		opEl = c.opPrefix + ":" + c.opName
		opDecl = ` xmlns:` + c.opPrefix + `="` + c.opNS + `"`
	}
	b.WriteString("<" + opEl + opDecl + envPrefixFor(c.opAttrs) + ">" + s)
	for _, p := range c.params {
		name := p.name
		if c.opPrefix != "" && p.xmlns == "" {
			name = c.opPrefix + ":" + p.name
		}
		attrs := envPrefixFor(p.attrs)
		switch p.xmlns {
		case "":
		case "-":
			attrs += ` xmlns=""`
		default:
			attrs += ` xmlns="` + p.xmlns + `"`
		}
		if p.raw && p.name == "foo" && strings.HasPrefix(p.value, "<") && !strings.HasPrefix(p.value, "<!") && !strings.HasPrefix(p.value, "<?") {
			b.WriteString(p.value + s) // an element of its own
			continue
		}
		if p.selfClose && p.value == "" {
			b.WriteString("<" + name + attrs + " />" + s)
			continue
		}
		v := p.value
		if !p.raw {
			v = genXMLEscape(v)
		}
		b.WriteString("<" + name + attrs + ">" + v + "</" + name + ">" + s)
	}
	b.WriteString(c.inOp + "</" + opEl + ">" + inner(c.inBody) + s + "</" + el("Body") + ">" + s)
	if c.headerEnd {
		b.WriteString(header)
	}
	b.WriteString(inner(c.inEnv) + "</" + el("Envelope") + ">" + c.after)
	return genEncode(b.String(), c.encoding, c.bom)
}

// genEncode writes s in encoding enc, with a byte order mark if bom.
func genEncode(s, enc string, bom bool) string {
	var out []byte
	switch enc {
	case "utf-16le", "utf-16be":
		if bom {
			s = "\ufeff" + s
		}
		for _, u := range utf16.Encode([]rune(s)) {
			if enc == "utf-16le" {
				out = append(out, byte(u), byte(u>>8))
			} else {
				out = append(out, byte(u>>8), byte(u))
			}
		}
		return string(out)
	case "iso-8859-1":
		for _, r := range s {
			if r > 0xff {
				r = '?'
			}
			out = append(out, byte(r))
		}
		if bom {
			return "\xef\xbb\xbf" + string(out) // a UTF-8 BOM before Latin-1 bytes
		}
		return string(out)
	}
	if bom {
		return "\xef\xbb\xbf" + s
	}
	return s
}

// request writes the call as the request sent.
func (c *genCall) request() diffRequest {
	h := map[string]string{}
	if c.ctype != nil {
		h["Content-Type"] = *c.ctype
	}
	for k, v := range c.extraH {
		h[k] = v
	}
	if c.b.soap() {
		if c.action != nil {
			h["SOAPAction"] = *c.action
		}
		path := c.path
		if c.query != "" {
			path += "?" + c.query
		}
		return diffRequest{c.method, path, h, genEnvelope(c)}
	}
	q := genQuery(c.params)
	if c.rawQuery != nil {
		q = *c.rawQuery
	}
	path, body := c.path+c.tail, ""
	switch c.method {
	case "GET", "HEAD", "DELETE", "OPTIONS":
		if q != "" {
			path += "?" + q
		}
		body = c.getBody
	default:
		body = q
		if c.formQuery {
			path += "?" + q
		}
	}
	return diffRequest{c.method, path, h, body}
}

// genCalls builds n calls from seed.
func genCalls(seed uint64, n int) []*genCall {
	r := rand.New(rand.NewPCG(seed, 0x61746d6b6974))
	calls := make([]*genCall, 0, n)
	for len(calls) < n {
		c := genNew(r)
		muts := slices.Clone(genParamMutations)
		if c.b.soap() {
			muts = append(muts, genSOAPMutations...)
		} else {
			muts = append(muts, genHTTPMutations...)
		}
		k := r.IntN(4) // 0 to 3 mutations; a few calls stay valid
		for tries := 0; len(c.muts) < k && tries < 10; tries++ {
			m := pick(r, muts)
			if m.apply(r, c) {
				c.muts = append(c.muts, m.name)
			}
		}
		calls = append(calls, c)
	}
	return calls
}

// genTolerance is a class of Mono's differences from .NET: whether the
// reference's answer (mono) differs from the mock's (.NET's) as the class
// says, for call c.
type genTolerance struct {
	why     string
	applies func(c *genCall, req diffRequest, mock, mono outcome) bool
}

// genUnformatted matches mono's text, a resource string printed with its
// {0} placeholders, against the mock's formatted one.
func genUnformatted(mock, mono string) bool {
	if !strings.Contains(mono, "{0}") {
		return false
	}
	parts := strings.Split(mono, "{")
	// Each part after the first starts "N}rest".
	rest := mock
	if !strings.HasPrefix(rest, parts[0]) {
		return false
	}
	rest = rest[len(parts[0]):]
	for i, part := range parts[1:] {
		_, lit, ok := strings.Cut(part, "}")
		if !ok {
			return false
		}
		if i == len(parts)-2 {
			return strings.HasSuffix(rest, lit)
		}
		j := strings.Index(rest, lit)
		if j < 0 {
			return false
		}
		rest = rest[j+len(lit):]
	}
	return true
}

const validationPrefix = "A potentially dangerous Request."

var genTolerances = []genTolerance{
	{whyUnformatted, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		return mock.status == mono.status && mock.ctype == mono.ctype && mock.code == mono.code && genUnformatted(mock.text, mono.text)
	}},
	{whyPageType, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		return mock.status == mono.status && mock.status != 200 && mock.ctype == ctHTML && mono.ctype == monoCTHTML && mock.text == mono.text
	}},
	{whyHelpType, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		return mock.status == 200 && mono.status == 200 && mock.ctype == ctHTML && mono.ctype == monoCTHTML && mock.text == mono.text
	}},
	{whyNullReference, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		return mock.status == mono.status && mock.ctype == mono.ctype && mock.code == mono.code && strings.HasSuffix(mock.text, "instance of an object.") &&
			mono.text+"." == mock.text
	}},
	{whyValidationExcerpt, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		name, _, _ := strings.Cut(mock.text, "=&quot;")
		if !(mock.status == mono.status && mock.ctype == mono.ctype && strings.HasPrefix(mock.text, validationPrefix) &&
			strings.HasPrefix(mono.text, name+"=&quot;")) {
			return false
		}
		// Mono shows the value's first characters, .NET ten before the
		// match and twenty after: when .NET's window starts at the
		// value's start too, one excerpt begins the other, so a value
		// read otherwise (a byte decoded differently) still shows.
		net, mon := genExcerpt(mock.text), genExcerpt(mono.text)
		if strings.HasPrefix(net, "...") {
			return true // .NET's window starts inside the value
		}
		net, mon = strings.TrimSuffix(net, "..."), strings.TrimSuffix(mon, "...")
		return strings.HasPrefix(net, mon) || strings.HasPrefix(mon, net)
	}},
	{whyValidationQuestion, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		// .NET stops at the first "<?"; Mono reads on and answers whatever comes next.
		return strings.HasPrefix(mock.text, validationPrefix) && genExcerptHolds(mock.text, "&lt;?")
	}},
	{whyValidationSlash, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		return strings.HasPrefix(mock.text, validationPrefix) && genExcerptHolds(mock.text, "&lt;/")
	}},
	{whyReferenceGaveUp, func(_ *genCall, req diffRequest, _, mono outcome) bool {
		return mono.status == 504 && req.body == "" && req.method != "POST"
	}},
	{whyValidationNull, func(_ *genCall, _ diffRequest, mock, mono outcome) bool {
		if !strings.HasPrefix(mono.text, validationPrefix) {
			return false
		}
		// Both refused: Mono's excerpt keeps the NULs .NET removed first.
		if strings.HasPrefix(mock.text, validationPrefix) && strings.Contains(mono.text, "\x00") {
			return strings.ReplaceAll(mono.text, "\x00", "") == mock.text
		}
		return !strings.HasPrefix(mock.text, validationPrefix) && genExcerptHolds(mono.text, "&lt;\x00")
	}},
	{whyValidationFullwidth, func(_ *genCall, req diffRequest, mock, mono outcome) bool {
		if !strings.HasPrefix(mono.text, validationPrefix) {
			return false
		}
		// Mono's excerpt may stop before the sign (a value joined by ';'
		// is long): then the mock (.NET) refused nothing, and the request
		// holds the sign.
		sent := strings.ToUpper(req.path + req.body)
		return genExcerptHolds(mono.text, "&#65308;") || !strings.HasPrefix(mock.text, validationPrefix) &&
			(strings.Contains(sent, "%EF%BC%9C") || strings.Contains(sent, "%UFF1C") || strings.Contains(sent, "\uFF1C"))
	}},
	{whyScriptService, func(c *genCall, req diffRequest, mock, mono outcome) bool {
		return genJSONCall(req) && strings.HasPrefix(req.path, refdeploy.ServicePath+"/") && mock.status == 500 && mock.ctype == ctHTML &&
			(strings.HasPrefix(mono.ctype, "application/json") || mono.status == 500 && mono.ctype == monoCTHTML)
	}},
	{whyScriptJSONPath, func(c *genCall, req diffRequest, mock, mono outcome) bool {
		// Mono's script handler answers in its own form, or runs the method
		// (a missing parameter its type's default) and answers 200.
		return genJSONCall(req) && strings.HasPrefix(req.path, refdeploy.JSONPath+"/") &&
			(strings.HasPrefix(mono.ctype, "application/json") || mono.status == 500 && mono.ctype == monoCTHTML || mono.status == 200)
	}},
	{whyQueryRawBytes, func(_ *genCall, req diffRequest, mock, mono outcome) bool {
		_, query, _ := strings.Cut(req.path, "?")
		return strings.ContainsFunc(query, func(r rune) bool { return r >= 0x80 }) &&
			mock.status == mono.status && strings.Contains(mono.text, "?")
	}},
	{whyQueryCharset, func(_ *genCall, req diffRequest, _, _ outcome) bool {
		// A GET whose Content-Type names a charset other than UTF-8 that
		// garbles ASCII (UTF-16, UTF-32) or reads its escaped bytes
		// otherwise: Mono reads its query so, .NET as UTF-8.
		if req.method != "GET" {
			return false
		}
		_, params, _ := strings.Cut(strings.ToLower(req.header["Content-Type"]), ";")
		_, cs, ok := strings.Cut(params, "charset=")
		cs = strings.Trim(strings.TrimSpace(cs), `"`)
		if !ok || cs == "" || cs == "utf-8" {
			return false
		}
		_, query, _ := strings.Cut(req.path, "?")
		return strings.HasPrefix(cs, "utf-16") || strings.HasPrefix(cs, "utf-32") || cs == "unicode" ||
			genBeyondASCII(query)
	}},
	{whyPercentU, func(_ *genCall, req diffRequest, _, _ outcome) bool {
		// A %uXXXX escape in a form of another charset: .NET reads the
		// unit whatever the charset; Mono does not, and the rewrite into
		// UTF-8 escapes cannot help a form read in Latin-1.
		ct := strings.ToLower(req.header["Content-Type"])
		return req.method == "POST" && strings.Contains(ct, "charset=") && !strings.Contains(ct, "charset=utf-8") &&
			genPercentUEscape.MatchString(req.body)
	}},
	{whyCharsetNoSpace, func(_ *genCall, req diffRequest, _, _ outcome) bool {
		// Mono reads such a form as UTF-8: only a body beyond ASCII differs.
		ct := strings.ToLower(req.header["Content-Type"])
		return req.method == "POST" && strings.Contains(ct, ";charset=") &&
			!strings.Contains(ct, "charset=utf-8") && genBeyondASCII(req.body)
	}},
	{whyHelpOp, func(c *genCall, req diffRequest, mock, mono outcome) bool {
		path, query, _ := strings.Cut(req.path, "?")
		return req.method == "GET" && path == refdeploy.ServicePath && strings.Contains(query, "op=") && !strings.Contains(query, "bnd=") &&
			mock.status == 200 && mock.ctype == ctHTML && mono.status == 500 && mono.ctype == monoCTHTML
	}},
	{whyZeroEnding, func(_ *genCall, req diffRequest, mock, mono outcome) bool {
		return mock.status == 200 && mono.status == 400 && strings.HasSuffix(strings.TrimRight(req.body, " \t\r\n\x00"), ">") && strings.HasSuffix(req.body, "\x00")
	}},
	{whyScript, func(c *genCall, req diffRequest, mock, mono outcome) bool {
		base, _, _ := strings.Cut(req.header["Content-Type"], ";")
		return c.b.soap() && strings.EqualFold(strings.TrimSpace(base), "application/json") && mono.status == 500 && mono.ctype == monoCTHTML
	}},
}

// genRewrite is a class of Mono's differences from .NET in reading a
// request: rewrite returns the request Mono reads as .NET reads req, or
// false when the class does not apply to req. Mono's answer to the rewritten
// request must then be the mock's.
type genRewrite struct {
	why     string
	rewrite func(c *genCall, req diffRequest, mock outcome) (diffRequest, bool)
}

// genForm applies f to the parts of an HTTP GET, POST or JSON call that
// ASP.NET reads as forms: its query string and its body.
func genForm(c *genCall, req diffRequest, f func(string) string) (diffRequest, bool) {
	if c.b.soap() {
		return req, false
	}
	out := req
	path, query, hasQuery := strings.Cut(req.path, "?")
	if hasQuery {
		out.path = path + "?" + f(query)
	}
	out.body = f(req.body)
	return out, out.path != req.path || out.body != req.body
}

// genSegments keeps the &-separated segments of a form that keep holds.
func genSegments(form string, keep func(seg string) bool) string {
	if form == "" {
		return form
	}
	var out []string
	for _, seg := range strings.Split(form, "&") {
		if keep(seg) {
			out = append(out, seg)
		}
	}
	return strings.Join(out, "&")
}

// genPercentU rewrites ASP.NET's %uXXXX escapes as UTF-8 percent escapes.
func genPercentU(s string) string {
	isHex := func(b byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", b) >= 0 }
	isU := func(i int) bool {
		return i+6 <= len(s) && s[i] == '%' && s[i+1] == 'u' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5])
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isU(i) {
			b.WriteByte(s[i])
			i++
			continue
		}
		var units []uint16
		for ; isU(i); i += 6 {
			u, _ := strconv.ParseUint(s[i+2:i+6], 16, 16)
			units = append(units, uint16(u))
		}
		b.WriteString(url.QueryEscape(string(utf16.Decode(units))))
	}
	return b.String()
}

// genPercentUEscape matches a %uXXXX escape.
var genPercentUEscape = regexp.MustCompile(`%[uU][0-9a-fA-F]{4}`)

var genMustUnderstand = regexp.MustCompile(` [A-Za-z-]+:mustUnderstand="(1|true)"`)

var genRewrites = []genRewrite{
	{whyPathCase, func(_ *genCall, req diffRequest, _ outcome) (diffRequest, bool) {
		for _, p := range []string{refdeploy.ServicePath, refdeploy.JSONPath} {
			if len(req.path) >= len(p) && strings.EqualFold(req.path[:len(p)], p) && req.path[:len(p)] != p {
				req.path = p + req.path[len(p):]
				return req, true
			}
		}
		return req, false
	}},
	{whyPercentU, func(c *genCall, req diffRequest, _ outcome) (diffRequest, bool) {
		return genForm(c, req, genPercentU)
	}},
	{whyNamelessValue, func(c *genCall, req diffRequest, _ outcome) (diffRequest, bool) {
		// A segment without "=" becomes "=value", which Mono reads as .NET
		// reads the segment: a value no parameter matches, which request
		// validation still checks (HttpRequest.ValidateHttpValueCollection
		// validates the value of a null name); an empty one is dropped.
		return genForm(c, req, func(form string) string {
			if form == "" {
				return form
			}
			var out []string
			for _, seg := range strings.Split(form, "&") {
				switch {
				case strings.Contains(seg, "="):
					out = append(out, seg)
				case seg != "":
					out = append(out, "="+seg)
				}
			}
			return strings.Join(out, "&")
		})
	}},
	{whyViewStateValidated, func(c *genCall, req diffRequest, _ outcome) (diffRequest, bool) {
		return genForm(c, req, func(form string) string {
			return genSegments(form, func(seg string) bool {
				name, _, _ := strings.Cut(seg, "=")
				name, err := url.QueryUnescape(name)
				return err != nil || !strings.HasPrefix(name, "__")
			})
		})
	}},
	{whyHeadersBeforeInvoke, func(c *genCall, req diffRequest, mock outcome) (diffRequest, bool) {
		if !c.b.soap() || mock.status != 500 || mock.code == "" || strings.HasSuffix(mock.code, ":MustUnderstand") {
			return req, false
		}
		if strings.Contains(mock.text, "mustUnderstand' is a duplicate attribute name") {
			return req, false // the attribute is the markup's error: blanking it would mend the markup
		}
		// The envelope as written before its encoding (UTF-16 hides the
		// attribute from the pattern), then encoded again.
		plain := *c
		plain.encoding, plain.bom = "utf-8", false
		text := genEnvelope(&plain)
		// Blanks of the same length keep every position an error text
		// names ("There is an error in XML document (1, 427).").
		stripped := genMustUnderstand.ReplaceAllStringFunc(text, func(m string) string { return strings.Repeat(" ", len(m)) })
		if stripped == text {
			return req, false
		}
		req.body = genEncode(stripped, c.encoding, c.bom)
		return req, true
	}},
}

// genJudge compares the mock's answer to req with the reference's: ok when
// they are alike (why "") or differ as a class of Mono's differences from
// .NET does (why names it).
func genJudge(c *genCall, req diffRequest, mock, mono outcome) (why string, ok bool) {
	if mock.matches(mono) {
		return "", true
	}
	for _, tol := range genTolerances {
		if tol.applies(c, req, mock, mono) {
			return tol.why, true
		}
	}
	return "", false
}

// genJSONCall reports whether ASP.NET's script handler takes req for a call
// (RestHandlerFactory.IsRestMethodCall): declared application/json.
func genJSONCall(req diffRequest) bool {
	ct := req.header["Content-Type"]
	const j = "application/json"
	return len(ct) >= len(j) && strings.EqualFold(ct[:len(j)], j) && (len(ct) == len(j) || ct[len(j)] == ';')
}

// genBeyondASCII reports whether a query or form holds a byte beyond
// ASCII, raw or %-escaped.
func genBeyondASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' && i+2 < len(s) && strings.IndexByte("89abcdefABCDEF", s[i+1]) >= 0 && isHexDigit(s[i+2]) {
			return true
		}
	}
	return false
}

func isHexDigit(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// genExcerpt is the excerpt of a validation text: between =&quot; and
// the last &quot;.
func genExcerpt(text string) string {
	_, ex, _ := strings.Cut(text, "=&quot;")
	if i := strings.LastIndex(ex, "&quot;"); i >= 0 {
		ex = ex[:i]
	}
	return ex
}

// genExcerptHolds reports whether the excerpt of a validation text holds s.
func genExcerptHolds(text, s string) bool {
	_, ex, _ := strings.Cut(text, "=&quot;")
	return strings.Contains(ex, s)
}

// genEnvInt reads an integer setting of the test from the environment.
func genEnvInt(t *testing.T, name string, def uint64) uint64 {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: not a number: %v", name, v, err)
	}
	return n
}

// describe writes a request so it can be read and replayed by hand.
func (req diffRequest) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", req.method, req.path)
	keys := make([]string, 0, len(req.header))
	for k := range req.header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\n    %s: %q", k, req.header[k])
	}
	if req.body != "" {
		body := req.body
		if len(body) > 1500 {
			body = body[:1500] + "…"
		}
		fmt.Fprintf(&b, "\n    body %q", body)
	}
	return b.String()
}

// TestDifferentialGenerated runs before the parallel tests (it is not one):
// Mono builds its help page on the first GET of the .asmx, and requests that
// reach it at that moment fail, this test's or the table's.
func TestDifferentialGenerated(t *testing.T) {
	seed := genEnvInt(t, "DIFF_SEED", genDefaultSeed)
	n := int(genEnvInt(t, "DIFF_COUNT", genDefaultCount))
	ref := refdeploy.Shared(t)
	mock := newTestServer(t, WithNamespace(refdeploy.Namespace), WithKeys(refdeploy.Key))
	calls := genCalls(seed, n)
	// Mono builds its help page on the first GET of the .asmx; calls that
	// reach it at the same moment fail. Build it before they do.
	if _, err := sendOutcome(ref.URL, diffRequest{"GET", refdeploy.ServicePath, nil, ""}); err != nil {
		t.Fatal(err)
	}

	type result struct {
		req        diffRequest
		mock, mono outcome
		err        error
	}
	results := make([]result, len(calls))
	var wg sync.WaitGroup
	next := make(chan int)
	for range genWorkers {
		wg.Go(func() {
			for i := range next {
				req := calls[i].request()
				res := result{req: req}
				if res.mock, res.err = sendOutcome(mock.URL, req); res.err == nil {
					res.mono, res.err = sendOutcome(ref.URL, req)
				}
				results[i] = res
			}
		})
	}
	for i := range calls {
		next <- i
	}
	close(next)
	wg.Wait()

	same, tolerated, failed := 0, map[string]int{}, 0
	for i, res := range results {
		c := calls[i]
		if res.err != nil {
			t.Errorf("call %d (%s %s, %s): %v", i, c.b, c.op.Name, strings.Join(c.muts, ", "), res.err)
			failed++
			continue
		}
		if why, ok := genJudge(c, res.req, res.mock, res.mono); ok {
			if why == "" {
				same++
			} else {
				tolerated[why]++
			}
			continue
		}
		// Mono may read the request otherwise than .NET: ask it again as
		// .NET reads the request, and judge that answer.
		req2, whys := res.req, []string(nil)
		for _, rw := range genRewrites {
			if r2, ok := rw.rewrite(c, req2, res.mock); ok {
				req2, whys = r2, append(whys, rw.why)
			}
		}
		if whys != nil {
			mono2, err := sendOutcome(ref.URL, req2)
			if err != nil {
				t.Errorf("call %d, rewritten: %v", i, err)
			} else if why, ok := genJudge(c, req2, res.mock, mono2); ok {
				if why != "" {
					whys = append(whys, why)
				}
				for _, w := range whys {
					tolerated[w]++
				}
				continue
			}
		}
		// A reference under load has once in some 100,000 calls answered
		// otherwise (a 400 page, a NullReferenceException) than it answers
		// the same request again: ask it once more before calling it a
		// difference (a difference of the mock's repeats).
		if mono2, err := sendOutcome(ref.URL, res.req); err == nil && !mono2.matches(res.mono) {
			if _, ok := genJudge(c, res.req, res.mock, mono2); ok {
				t.Logf("call %d: the reference answered %s, then %s to the same request (taken)", i, res.mono, mono2)
				same++
				continue
			}
		}
		failed++
		if failed <= 40 {
			t.Errorf("call %d (%s %s; mutations: %s) differs:\n  mock:      %s\n  reference: %s\n  request:   %s",
				i, c.b, c.op.Name, strings.Join(c.muts, ", "), res.mock, res.mono, res.req.describe())
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d generated calls differ; replay with DIFF_SEED=%d DIFF_COUNT=%d", failed, n, seed, n)
	}
	t.Logf("seed %d: %d calls, %d answered alike, %d differing as Mono differs from .NET:", seed, n, same, n-same-failed)
	for why, k := range tolerated {
		t.Logf("  %d: %s", k, why)
	}
}

// placeMarkup puts markup (a comment, a processing instruction) at a place
// drawn from r: before or after the envelope, in the Body, in the
// operation's element, or before or after a parameter's value; false when
// the draw falls on a parameter and the call has none.
func placeMarkup(r *rand.Rand, c *genCall, markup string) bool {
	switch r.IntN(5) {
	case 0:
		c.before += markup
	case 1:
		c.after += markup
	case 2:
		c.inBody += markup
	case 3:
		c.inOp += markup
	default:
		if len(c.params) == 0 {
			return false
		}
		p := &c.params[r.IntN(len(c.params))]
		p.value, p.raw, p.selfClose = pick(r, []string{markup + genXMLEscape(p.value), genXMLEscape(p.value) + markup}), true, false
	}
	return true
}
