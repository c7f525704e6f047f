package cassettes

import (
	"bytes"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

func TestParseXMLRejects(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"", "text", "<a>", "<a></b>", "<a/><b/>", "<!DOCTYPE a><a/>", "<a x=1/>", "<a x='1/>", "<a x/>",
		"<a><![CDATA[x</a>", "<a><!-- </a>", "<?xml version='1.0'", "x<a/>", "<a/>x", "</a>", "<a><b></a></b>", "<>", "<a / >",
	} {
		if _, err := parseXML([]byte(in)); err == nil {
			t.Errorf("parseXML(%q): got no error, want one", in)
		}
	}
	doc, err := parseXML([]byte("\xef\xbb\xbf<?xml version=\"1.0\"?>\n<a  x = 'v>' y=\"&quot;\"><!--c--><b/>t<![CDATA[<>]]></a >\n"))
	if err != nil {
		t.Fatalf("parseXML: %v", err)
	}
	a := doc.root()
	if got := string(a.bytes()); got != `<a  x = 'v>' y="&quot;"><!--c--><b/>t<![CDATA[<>]]></a >` {
		t.Errorf("got the root's bytes %q", got)
	}
	if v, _ := a.attr("x"); v != "v>" || len(a.kids) != 4 {
		t.Errorf("got x=%q and %d children, want v> and 4", v, len(a.kids))
	}
}

const soapHead = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><OpResponse xmlns="urn:svc"><OpResult>`
const soapTail = `</OpResult></OpResponse></soap:Body></soap:Envelope>`

// TestRewrapSOAPToGet: the content of <OpResult> under the GET/POST root,
// with the declarations it relied on, indented as XmlSerializer indents.
func TestRewrapSOAPToGet(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name    string
		soap    string // the content of <OpResult>, or a whole answer
		root    string // the typed root's name; "" for a node
		want    string // the GET document after the declaration line
		envelop bool   // soap is a whole answer
	}{
		{"a node in the service namespace", `<Node><x>1</x></Node>`, "", "<Node xmlns=\"urn:svc\">\n  <x>1</x>\n</Node>", false},
		{"a node in no namespace", `<Node xmlns=""><x>1</x><y a="b" /></Node>`, "", "<Node>\n  <x>1</x>\n  <y a=\"b\" />\n</Node>", false},
		{"a node using xsi", `<Node xmlns=""><x xsi:nil="true" /></Node>`, "",
			"<Node xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n  <x xsi:nil=\"true\" />\n</Node>", false},
		{"typed items", `<P><Id>1</Id><Name>A &amp; B</Name></P><P><Id>2</Id><Name /></P>`, "ArrayOfP",
			"<ArrayOfP xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:svc\">\n  <P>\n    <Id>1</Id>\n    <Name>A &amp; B</Name>\n  </P>\n  <P>\n    <Id>2</Id>\n    <Name />\n  </P>\n</ArrayOfP>", false},
		{"typed, empty", ``, "ArrayOfP",
			"<ArrayOfP xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:svc\" />", false},
		{"typed, a prefix the envelope declared, a QName value",
			`<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:q="urn:q" xmlns:t="urn:t"><s:Body><OpResponse xmlns="urn:svc"><OpResult><q:Item xsi:type="t:Kind" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">v</q:Item></OpResult></OpResponse></s:Body></s:Envelope>`,
			"R", "<R xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:svc\">\n  <q:Item xsi:type=\"t:Kind\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:q=\"urn:q\" xmlns:t=\"urn:t\">v</q:Item>\n</R>", true},
		{"mixed content as recorded", `<Node xmlns="">a <b>x</b>  c</Node>`, "", "<Node>a <b>x</b>  c</Node>", false},
		{"xml:space preserve as recorded", `<Node xmlns="" xml:space="preserve"><a>1</a> <b/></Node>`, "", "<Node xml:space=\"preserve\"><a>1</a> <b/></Node>", false},
		{"an element without content", `<Node xmlns=""><a></a></Node>`, "", "<Node>\n  <a>\n  </a>\n</Node>", false},
		{"a DataSet: its own root", `<xs:schema xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" id="R"/><d:diffgram xmlns:d="urn:d" />`, "DataSet",
			"<DataSet xmlns=\"urn:svc\">\n  <xs:schema xmlns=\"\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" id=\"R\"/>\n  <d:diffgram xmlns:d=\"urn:d\" />\n</DataSet>", false},
	}
	for _, r := range rows {
		src := r.soap
		if !r.envelop {
			src = soapHead + r.soap + soapTail
		}
		doc, err := parseXML([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		_, result, _, err := soapResult(doc, "Op")
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		var root *getRoot
		if r.root != "" {
			root = typedRoot(r.root, "urn:svc", result.kids)
		}
		got, err := getDocument(root, resultAttrs{}, result.kids, scopeAt(result), "\n")
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if want := xmlDeclaration + "\n" + r.want; string(got) != want {
			t.Errorf("%s:\ngot  %q\nwant %q", r.name, got, want)
		}
		if _, err := parseXML(got); err != nil {
			t.Errorf("%s: the GET document does not parse: %v", r.name, err)
		}
	}
}

// TestRewrapGetToSOAP: the root (a node) or its content (typed) in
// <OpResult>, unindented, with the declarations it relied on.
func TestRewrapGetToSOAP(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name  string
		get   string
		typed bool
		want  string // the content of <OpResult>; "/" for an empty one
	}{
		{"a node in no namespace", "<Node>\n  <x>1</x>\n  <y>\n  </y>\n</Node>", false, `<Node xmlns=""><x>1</x><y></y></Node>`},
		{"a node in the service namespace", "<Node xmlns=\"urn:svc\">\n  <x>1</x>\n</Node>", false, `<Node xmlns="urn:svc"><x>1</x></Node>`},
		{"typed items", "<ArrayOfP xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"urn:svc\">\n  <P>\n    <Id>1</Id>\n    <N xsi:nil=\"true\" />\n  </P>\n</ArrayOfP>", true,
			`<P><Id>1</Id><N xsi:nil="true" /></P>`},
		{"typed, a prefix of the root", "<R xmlns=\"urn:svc\" xmlns:q=\"urn:q\">\n  <q:A>1</q:A>\n</R>", true, `<q:A xmlns:q="urn:q">1</q:A>`},
		{"typed in another namespace", "<R xmlns=\"urn:other\">\n  <A>1</A>\n</R>", true, `<A xmlns="urn:other">1</A>`},
		{"typed, empty", "<ArrayOfP xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns=\"urn:svc\" />", true, "/"},
		{"a string", "<string xmlns=\"urn:svc\">a  b</string>", true, `a  b`},
	}
	for _, r := range rows {
		doc, err := parseXML([]byte(xmlDeclaration + "\n" + r.get))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		root := doc.root()
		content, from := []*xnode{root}, nsScope{}
		if r.typed {
			content, from = root.kids, scopeAt(root)
		}
		got := soapDocument(asmx.SOAP12, "urn:svc", "Op", resultAttrs{}, content, from)
		head := strings.Replace(soapHead, asmx.NamespaceSOAP11, asmx.NamespaceSOAP12, 1)
		want := head + r.want + soapTail
		if r.want == "/" {
			want = strings.TrimSuffix(head, ">") + " />" + strings.TrimPrefix(soapTail, "</OpResult>")
		}
		if string(got) != want {
			t.Errorf("%s:\ngot  %q\nwant %q", r.name, got, want)
		}
	}
}

// TestSwapEnvelope: the other SOAP version is the same document with the
// envelope namespace swapped.
func TestSwapEnvelope(t *testing.T) {
	t.Parallel()
	doc, err := parseXML([]byte(soapHead + `<A xmlns="">http://schemas.xmlsoap.org/soap/envelope/</A>` + soapTail))
	if err != nil {
		t.Fatal(err)
	}
	got, err := swapEnvelope(doc, asmx.SOAP12)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(doc.src), `xmlns:soap="`+asmx.NamespaceSOAP11, `xmlns:soap="`+asmx.NamespaceSOAP12, 1)
	if string(got) != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := swapEnvelope(doc, asmx.SOAP11); err == nil {
		t.Error("swapping a SOAP 1.1 answer to SOAP 1.1: got no error, want one")
	}
}

// FuzzParseXML: the reader never panics, and what it reads writes back,
// flat and indented, as XML that reads again with the same text.
func FuzzParseXML(f *testing.F) {
	f.Add([]byte(soapHead + `<P><Id>1</Id><N /></P>` + soapTail))
	f.Add([]byte("<?xml version=\"1.0\"?>\n<a xmlns:q='u'>\n  <q:b x=\"1\">t</q:b>\n  <c><![CDATA[x]]></c><!-- c -->\n</a>"))
	f.Add([]byte("<a xml:space=\"preserve\"> <b/> </a>"))
	f.Add([]byte("<a><b></b>\n</a>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseXML(data)
		if err != nil {
			return
		}
		root := doc.root()
		for _, indent := range []bool{false, true} {
			w := &xmlWriter{indent: indent}
			w.node(root, 0)
			again, err := parseXML(w.dst)
			if err != nil {
				t.Fatalf("indent %v: %q wrote %q, which does not read: %v", indent, data, w.dst, err)
			}
			if a, b := textOf(root), textOf(again.root()); !bytes.Equal(a, b) {
				t.Fatalf("indent %v: the text changed from %q to %q", indent, a, b)
			}
		}
	})
}

// textOf is the character data of n's subtree but indentation.
func textOf(n *xnode) []byte {
	var out []byte
	var walk func(n *xnode)
	walk = func(n *xnode) {
		for _, k := range n.kids {
			switch {
			case k.kind == xElem:
				out = append(out, '<')
				out = append(out, k.name...)
				out = append(out, '>')
				walk(k)
			case k.kind == xText && isIndentation(k) && elementOnly(n.kids) && !preserves(n):
			case k.kind == xText, k.kind == xCDATA:
				out = append(out, k.bytes()...)
			}
		}
	}
	walk(n)
	return out
}

func TestTypedRootNamespace(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		`<?xml version="1.0"?><ArrayOfProvince xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="urn:a"><Province/></ArrayOfProvince>`: "urn:a",
		`<provinces><province/></provinces>`:            "",
		`<DataSet xmlns="urn:a"><xs:schema/></DataSet>`: "",
		`not XML`: "",
		`<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>`: "",
	} {
		if got := typedRootNamespace(body); got != want {
			t.Errorf("typedRootNamespace(%.40q) = %q, want %q", body, got, want)
		}
	}
}

// TestShiftGenerated: the prefixes XmlTextWriter made up (d{depth}p{n},
// declared at that depth) are renamed for their new depth wherever they
// appear (element and attribute names, declarations, QName values); any
// other prefix, or one declared at another depth than its name says, stays.
func TestShiftGenerated(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name, in, want string
		shift          int
	}{
		{"up three levels",
			`<a><b><c><R d4p1:n="1" xmlns:d4p1="urn:f"><d5p1:x xmlns:d5p1="urn:x" d4p1:y="2" t="d5p1:T" /><z d4p1:k="k">v</z></R></c></b></a>`,
			`<R d1p1:n="1" xmlns:d1p1="urn:f"><d2p1:x xmlns:d2p1="urn:x" d1p1:y="2" t="d2p1:T" /><z d1p1:k="k">v</z></R>`, -3},
		{"down three levels", `<R d1p2:n="1" xmlns:d1p2="urn:f"><d1p2:i>x</d1p2:i></R>`, `<R d4p2:n="1" xmlns:d4p2="urn:f"><d4p2:i>x</d4p2:i></R>`, 3},
		{"declared at another depth", `<R><i d5p1:n="1" xmlns:d5p1="urn:f" /></R>`, `<R><i d5p1:n="1" xmlns:d5p1="urn:f" /></R>`, 3},
		{"one declaration at another depth keeps them all", `<R xmlns:d1p1="urn:f"><i xmlns:d1p1="urn:g" d1p1:n="1" /></R>`, `<R xmlns:d1p1="urn:f"><i xmlns:d1p1="urn:g" d1p1:n="1" /></R>`, 3},
		{"not made up", `<R xmlns:q1="urn:f" xmlns:dp1="urn:g" xmlns:d1p="urn:h" xmlns:d01p1="urn:i"><q1:i /></R>`, `<R xmlns:q1="urn:f" xmlns:dp1="urn:g" xmlns:d1p="urn:h" xmlns:d01p1="urn:i"><q1:i /></R>`, 3},
		{"the new name taken", `<R xmlns:d1p1="urn:f" xmlns:d4p1="urn:g"><d1p1:i /></R>`, `<R xmlns:d1p1="urn:f" xmlns:d4p1="urn:g"><d1p1:i /></R>`, 3},
	}
	for _, r := range rows {
		doc, err := parseXML([]byte(r.in))
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		el := doc.root()
		for el.local() != "R" {
			el = el.elements()[0]
		}
		got, err := shiftGenerated(el, r.shift)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if string(got.bytes()) != r.want {
			t.Errorf("%s: got\n%s\nwant\n%s", r.name, got.bytes(), r.want)
		}
	}
}

// TestRewrapTypedAttrsToRecordedRoot: a typed result with attributes of
// its own in a namespace, re-wrapped for GET under the root recorded for
// the same operation, declares that namespace once, on the root, and its
// content does not declare it again (as the deployment writes it).
func TestRewrapTypedAttrsToRecordedRoot(t *testing.T) {
	t.Parallel()
	get, err := parseXML([]byte("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Roster xmlns:xsd=\"" + nsXSD + "\" xmlns:xsi=\"" + nsXSI + "\" d1p1:size=\"1\" xmlns:d1p1=\"urn:f\" xmlns=\"urn:svc\">\n  <M d1p1:cu=\"true\">A</M>\n</Roster>"))
	if err != nil {
		t.Fatal(err)
	}
	soap, err := parseXML([]byte(soapHead[:len(soapHead)-len("<OpResult>")] + `<OpResult d4p1:size="2" xmlns:d4p1="urn:f"><M d4p1:cu="false">B</M><M d4p1:cu="true">C</M>` + soapTail))
	if err != nil {
		t.Fatal(err)
	}
	_, result, _, err := soapResult(soap, "Op")
	if err != nil {
		t.Fatal(err)
	}
	if result, err = shiftGenerated(result, 1-soapResultDepth); err != nil {
		t.Fatal(err)
	}
	got, err := getDocument(recordedRoot(get.root()), dataAttrs(result), result.kids, scopeAt(result), "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Roster xmlns:xsd=\"" + nsXSD + "\" xmlns:xsi=\"" + nsXSI + "\" d1p1:size=\"2\" xmlns:d1p1=\"urn:f\" xmlns=\"urn:svc\">\n  <M d1p1:cu=\"false\">B</M>\n  <M d1p1:cu=\"true\">C</M>\n</Roster>"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRenamespace: every declaration of the recorded service namespace,
// default or prefixed, quoted either way or with entities, declares the
// server's; anything else stays byte for byte.
func TestRenamespace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`<a xmlns="urn:old"><b xmlns:p='urn:old' p:x="1">urn:old</b><c xmlns="urn:other"/></a>`,
			`<a xmlns="urn:new&amp;x"><b xmlns:p='urn:new&amp;x' p:x="1">urn:old</b><c xmlns="urn:other"/></a>`},
		{`<?xml version="1.0"?><a xmlns:q="urn:o&#108;d" q="urn:old"/>`, `<?xml version="1.0"?><a xmlns:q="urn:new&amp;x" q="urn:old"/>`},
		{`<a xmlns="urn:older"/>`, `<a xmlns="urn:older"/>`},
		{`urn:old is no XML xmlns="urn:old"`, `urn:old is no XML xmlns="urn:old"`},
	} {
		if got := string(renamespace([]byte(tc.in), "urn:old", "urn:new&x")); got != tc.want {
			t.Errorf("renamespace(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
