package learn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Bindings of samples, as atmkit names them.
const (
	SOAP11   = "soap11"
	SOAP12   = "soap12"
	HTTPGet  = "get"
	HTTPPost = "post"
	JSON     = "json"
)

// Sample is one recorded answer of the deployment.
type Sample struct {
	// Binding is soap11, soap12, get, post or json.
	Binding string
	// Op is the operation's name.
	Op string
	// Query identifies the call's parameters but the key (say their
	// name=value pairs joined); XML and JSON answers with the same Op and
	// Query answer the same query.
	Query string
	// Status is the HTTP status; only 200 answers are read.
	Status int
	// Body is the answer's body.
	Body []byte
	// Where names the sample in reports (a cassette and interaction).
	Where string
}

func isSOAP(b string) bool { return b == SOAP11 || b == SOAP12 }

// content is the result of one XML answer: the elements inside <OpResult>
// (SOAP), or the document's root (GET/POST).
type content struct {
	sample *Sample
	soap   bool
	// kids are the children of <OpResult> (SOAP); root is the GET/POST root.
	kids   []*etree.Element
	result *etree.Element // <OpResult> (SOAP)
	root   *etree.Element
	// ns is the service namespace, as <OpResponse> shows it (SOAP).
	ns string
	// doc is the document's root: the SOAP envelope, or the GET/POST root.
	doc *etree.Element
}

// readContent parses an XML answer.
func readContent(s *Sample) (*content, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(s.Body); err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	root := doc.Root()
	if root == nil {
		return nil, fmt.Errorf("has no root element")
	}
	c := &content{sample: s, soap: isSOAP(s.Binding), doc: root}
	if !c.soap {
		if err := notAnAnswer(root); err != nil {
			return nil, err
		}
		c.root = root
		return c, nil
	}
	var body *etree.Element
	for _, k := range root.ChildElements() {
		if k.Tag == "Body" {
			body = k
		}
	}
	if body == nil || len(body.ChildElements()) == 0 {
		return nil, fmt.Errorf("has no SOAP Body")
	}
	resp := body.ChildElements()[0]
	if resp.Tag == "Fault" {
		return nil, fmt.Errorf("is a SOAP fault")
	}
	c.ns = resp.NamespaceURI()
	var result *etree.Element
	for _, k := range resp.ChildElements() {
		if k.Tag == s.Op+"Result" {
			result = k
		}
	}
	if result == nil {
		return nil, fmt.Errorf("has no <%sResult>", s.Op)
	}
	c.result, c.kids = result, result.ChildElements()
	return c, nil
}

// Envelope namespaces of SOAP 1.1 and 1.2.
const (
	nsSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	nsSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
)

// notAnAnswer says why a GET/POST answer's root is no answer of the
// service, nil when it may be one: an HTML page (a gateway's sign-in page,
// an error page, recorded with status 200), or a SOAP envelope (ASMX
// writes none over GET or POST; a fault, as a gateway may answer).
func notAnAnswer(root *etree.Element) error {
	switch ns := root.NamespaceURI(); {
	case strings.EqualFold(root.Tag, "html") && (ns == "" || ns == "http://www.w3.org/1999/xhtml"):
		return fmt.Errorf("is an HTML page (<%s>), not the service's", root.Tag)
	case root.Tag == "Envelope" && (ns == nsSOAP11 || ns == nsSOAP12):
		for _, b := range root.ChildElements() {
			if b.Tag == "Body" && len(b.ChildElements()) > 0 && b.ChildElements()[0].Tag == "Fault" {
				return fmt.Errorf("is a SOAP fault")
			}
		}
		return fmt.Errorf("is a SOAP envelope, which ASMX writes over SOAP only")
	}
	return nil
}

// dataSetParts returns the inline schemas and the diffgram of a DataSet
// answer, in <OpResult> (SOAP) or the GET/POST root: its xs:schema
// elements (the DataSet's, then one per other namespace its tables and
// columns are in) and the diffgr:diffgram after them; nil ones for
// another answer.
func dataSetParts(c *content) (schemas []*etree.Element, diffgram *etree.Element) {
	kids := c.kids
	if !c.soap {
		kids = c.root.ChildElements()
	}
	// A DataSet whose tables are in several namespaces writes one schema
	// per namespace, its own first.
	n := 0
	for n < len(kids) && kids[n].Tag == "schema" && kids[n].NamespaceURI() == nsXSD {
		n++
	}
	if n == 0 || n == len(kids) || kids[n].Tag != "diffgram" || kids[n].NamespaceURI() != nsDiffgram {
		return nil, nil
	}
	return kids[:n], kids[n]
}

// isDataSet reports whether c is a DataSet answer.
func isDataSet(c *content) bool {
	s, _ := dataSetParts(c)
	return s != nil
}

// hasTypedRoot reports whether a GET/POST root looks like XmlSerializer's
// root of a typed result: the xsi and xsd declarations.
func hasTypedRoot(root *etree.Element) bool {
	xsi, xsd := false, false
	for _, a := range root.Attr {
		if a.Space == "xmlns" && a.Value == "http://www.w3.org/2001/XMLSchema-instance" {
			xsi = true
		}
		if a.Space == "xmlns" && a.Value == nsXSD {
			xsd = true
		}
	}
	return xsi && xsd
}

// jsonAnswer is a JSON answer: the result's values and each location's,
// by their path in the document's JSON form.
type jsonAnswer struct {
	top   map[string]string
	items []jsonLocation
}

type jsonLocation struct {
	values    map[string]string
	languages []string
}

// readJSON reads a JSON search answer.
func readJSON(body []byte) (*jsonAnswer, error) {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("is not JSON: %w", err)
	}
	a := &jsonAnswer{top: map[string]string{}}
	flatten(doc, "", a.top)
	delete(a.top, "locations")
	locs, _ := doc["locations"].([]any)
	for _, l := range locs {
		m, ok := l.(map[string]any)
		if !ok {
			continue
		}
		loc := jsonLocation{values: map[string]string{}}
		flatten(m, "", loc.values)
		if langs, ok := m["languages"].([]any); ok {
			for _, x := range langs {
				loc.languages = append(loc.languages, fmt.Sprint(x))
			}
		}
		delete(loc.values, "languages")
		a.items = append(a.items, loc)
	}
	return a, nil
}

// flatten writes the scalar values of m by their dotted paths.
func flatten(m map[string]any, prefix string, out map[string]string) {
	for k, v := range m {
		p := k
		if prefix != "" {
			p = prefix + "." + k
		}
		switch x := v.(type) {
		case map[string]any:
			flatten(x, p, out)
		case []any:
			out[p] = ""
		case nil:
			out[p] = ""
		case string:
			out[p] = x
		case json.Number:
			out[p] = x.String()
		default:
			out[p] = fmt.Sprint(x)
		}
	}
}

// readSamples parses the answers; those that cannot be read are noted.
func (l *learner) readSamples() {
	for i := range l.in.Samples {
		if l.stopped() {
			return
		}
		s := &l.in.Samples[i]
		if shape.ContentOf(s.Op) == "" {
			continue
		}
		if s.Status != 200 {
			continue
		}
		if s.Binding == JSON {
			a, err := readJSON(s.Body)
			if err != nil {
				l.note("skipped %s (%s %s): the answer %v", s.Where, s.Binding, s.Op, err)
				continue
			}
			l.jsons[s.Op+"\x00"+s.Query] = a
			continue
		}
		c, err := readContent(s)
		if err != nil {
			l.note("skipped %s (%s %s): the answer %v", s.Where, s.Binding, s.Op, err)
			continue
		}
		switch {
		case c.soap && l.ns == "":
			l.ns, l.nsFrom = c.ns, s.Where
		case c.soap && c.ns != l.ns && l.nsErr == nil:
			what := "the answers are"
			if l.nsFrom == "the WSDL" {
				what = "the WSDL and the answers are"
			}
			l.nsErr = fmt.Errorf("%s of two services: %s is in the service namespace %s, %s in %s; learn from one deployment's WSDL and cassettes", what, l.nsFrom, l.ns, s.Where, c.ns)
		}
		l.contents[s.Op] = append(l.contents[s.Op], c)
	}
	if l.ns == "" {
		for _, cs := range l.contents {
			for _, c := range cs {
				if !c.soap && (hasTypedRoot(c.root) || isDataSet(c)) && l.ns == "" {
					l.ns = c.root.NamespaceURI()
				}
			}
		}
	}
}
