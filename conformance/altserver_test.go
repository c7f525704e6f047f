package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// altServer is a second, independent implementation of the interface
// document, written for the suite's own tests: its XML results have other
// names, other nesting (values in attributes, a search wrapper, nested
// arrays with item names of their own), true/false flags, and it serves a
// WSDL only when asked. It routes and refuses SOAP requests as ASMX does
// (SoapServerProtocol), and lays its results out in one of ASMX's layouts
// (see altLayout). The suite must pass it in every layout.
type altServer struct {
	ns   string
	key  string
	wsdl bool
	// layout is how results are laid out; the zero value is altNode.
	layout altLayout
	// noAllAtms makes ReturnAllAtms an empty list, as a deployment that
	// withholds the full list might answer.
	noAllAtms bool
	atms      []altATM
}

// altLayout is one of the layouts of an ASMX result, in variations the
// reference ASMX deployments do not show.
type altLayout int

const (
	// altNode: an XML node in a namespace of its own (altDataNS) inside
	// <OpResult>, the node itself as the GET/POST root.
	altNode altLayout = iota
	// altTyped: typed content whose fields and items are in no namespace
	// (XmlSerializer with unqualified elements), values in attributes,
	// nested arrays with their own item names; the GET/POST root is named
	// by the type, in the service namespace.
	altTyped
	// altDataSet: every result a DataSet: an inline xs:schema and a
	// diffgr:diffgram of flat rows in no namespace, the languages a nested
	// child table; the GET/POST root is DataSet in the service namespace.
	altDataSet
)

type altATM struct {
	ID, InstID, CityID, ACU              int
	Ident, InstName, InstURL             string
	Lat, Lon                             float64
	Street, City, Prov, Postal, Landmark string
	Dep, Hours, Drive, Pin, Voice        int
	Visa, Plus, MC, Cirrus               int
	Langs                                []string
}

const altDataNS = "urn:example:alt-atm-data"

func newAltServer(ns, key string, wsdl bool) *altServer {
	cities := []struct {
		id             int
		name, prov, pc string
		lat, lon       float64
	}{
		{7, "Halifax", "NS", "B3H", 44.6488, -63.5752},
		{9, "Moncton", "NB", "E1C", 46.0878, -64.7782},
		{12, "Charlottetown", "PE", "C1A", 46.2382, -63.1311},
	}
	banks := []struct {
		id      int
		name, u string
		acu     int
	}{{101, "Harbour Credit Union", "", 1}, {102, "Maple Bank", "https://maple.example", 0}, {103, "Tide Savings", "https://tide.example", 0}}
	s := &altServer{ns: ns, key: key, wsdl: wsdl}
	seed := uint32(12345)
	rnd := func() float64 {
		seed = seed*1664525 + 1013904223
		return float64(seed>>8) / float64(1<<24)
	}
	id := 500
	for _, c := range cities {
		for i := 0; i < 25; i++ {
			id += 3
			b := banks[(id/3)%len(banks)]
			langs := []string{"en"}
			if i%3 == 0 {
				langs = append(langs, "fr")
			}
			s.atms = append(s.atms, altATM{
				ID: id, InstID: b.id, CityID: c.id, ACU: b.acu,
				Ident: fmt.Sprintf("T-%05d", id), InstName: b.name, InstURL: b.u,
				Lat: math.Round((c.lat+(rnd()-0.5)*0.2)*1e6) / 1e6, Lon: math.Round((c.lon+(rnd()-0.5)*0.2)*1e6) / 1e6,
				Street: fmt.Sprintf("%d Water Street", 10+i), City: c.name, Prov: c.prov,
				Postal: fmt.Sprintf("%s %d%c%d", c.pc, i%10, 'A'+i%26, (i*7)%10), Landmark: map[bool]string{true: "Near the ferry", false: ""}[i%4 == 0],
				Dep: i % 2, Hours: i % 3, Drive: (i / 2) % 2, Pin: 1, Voice: (i / 3) % 2,
				Visa: 1, Plus: i % 2, MC: 1, Cirrus: (i + 1) % 2, Langs: langs,
			})
		}
	}
	return s
}

var altParams = map[string][]string{}

func init() {
	for _, op := range Operations {
		altParams[op.Name] = op.Params
	}
}

// altFault is a refusal: its SOAP 1.1 code (Client, Server or
// VersionMismatch; translated for SOAP 1.2) and text.
type altFault struct {
	status int
	code   string
	msg    string
}

func (s *altServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == servicePath && r.Method == http.MethodGet:
		if strings.EqualFold(r.URL.RawQuery, "wsdl") {
			if !s.wsdl {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", ctTextXML)
			_, _ = w.Write(s.wsdlDoc("http://" + r.Host))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><h1>AltService</h1><pre>%s</pre></body></html>",
			strings.ReplaceAll(strings.ReplaceAll(fmt.Sprintf(`<ReturnProvinces xmlns="%s"><strAtmServiceKey>string</strAtmServiceKey></ReturnProvinces>`, s.ns), "<", "&lt;"), ">", "&gt;"))
	case r.URL.Path == servicePath && r.Method == http.MethodPost:
		s.serveSOAP(w, r)
	case strings.HasPrefix(r.URL.Path, servicePath+"/"):
		s.serveHTTP(w, r, strings.TrimPrefix(r.URL.Path, servicePath+"/"))
	case strings.HasPrefix(r.URL.Path, serviceV2Path+"/"):
		s.serveJSON(w, r, strings.TrimPrefix(r.URL.Path, serviceV2Path+"/"))
	default:
		http.NotFound(w, r)
	}
}

// serveSOAP routes a SOAP request as ASMX does: a helper guessed from the
// SOAPAction header and the content type routes it (by the action in SOAP
// 1.1, else by the body element), and the envelope's namespace gives the
// version of the answer.
func (s *altServer) serveSOAP(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mediaType(r.Header.Get("Content-Type"))
	if mt != "text/xml" && mt != "application/soap+xml" {
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	body, _ := io.ReadAll(r.Body)
	doc, err := parseXML(body)
	if err != nil || bytes.Contains(body, []byte("<!DOCTYPE")) {
		w.Header().Set("Content-Type", ctTextXML)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var env string
	switch envNS := doc.Root().NamespaceURI(); envNS {
	case soap11EnvNS, soap12EnvNS:
		env = envNS
	default:
		s.writeFault(w, soap11EnvNS, altFault{500, "VersionMismatch", "Possible SOAP version mismatch: Envelope namespace " + envNS + " was unexpected. Expecting " + soap11EnvNS + "."})
		return
	}
	if env == soap11EnvNS && mt != "text/xml" {
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	fault := func(f altFault) { s.writeFault(w, env, f) }
	var call *etree.Element
	for _, b := range doc.Root().ChildElements() {
		if nameOf(b) == (qname{env, "Body"}) && len(b.ChildElements()) > 0 {
			call = b.ChildElements()[0]
		}
	}
	if call == nil {
		fault(altFault{500, "Client", "no body"})
		return
	}
	action, hasAction := r.Header["Soapaction"]
	var op string
	if hasAction && mt == "text/xml" {
		a := strings.Trim(action[0], `"`)
		if op = strings.TrimPrefix(a, s.ns+"/"); !strings.HasPrefix(a, s.ns+"/") || altParams[op] == nil {
			fault(altFault{500, "Client", "Server did not recognize the value of HTTP Header SOAPAction: " + a + "."})
			return
		}
	} else if op = call.Tag; call.NamespaceURI() != s.ns || altParams[op] == nil {
		fault(altFault{500, "Client", "Unable to handle request without a valid action parameter. Please supply a valid soap action."})
		return
	}
	// Parameters are read leniently: a body element other than the
	// operation's leaves them all unset, and an unset one keeps its
	// default (null, 0).
	vals := map[string]string{}
	if call.Tag == op && call.NamespaceURI() == s.ns {
		for _, k := range call.ChildElements() {
			vals[k.Tag] = textOf(k)
		}
	}
	for _, p := range altParams[op] {
		if _, ok := vals[p]; !ok && paramTypes[p] != "string" {
			vals[p] = "0"
		}
	}
	if f := convert(op, vals); f != nil {
		f.msg = "Server was unable to read request. ---> There is an error in XML document. ---> " + f.msg
		fault(*f)
		return
	}
	res, f := s.call(op, vals)
	if f != nil {
		fault(*f)
		return
	}
	res = s.present(res)
	out := etree.NewDocument()
	out.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
	e := out.CreateElement("soap:Envelope")
	e.CreateAttr("xmlns:soap", env)
	resp := e.CreateElement("soap:Body").CreateElement(op + "Response")
	resp.CreateAttr("xmlns", s.ns)
	result := resp.CreateElement(op + "Result")
	if s.layout == altNode {
		result.AddChild(res)
	} else {
		// <OpResult> is the object: the type's attributes and children.
		for _, a := range res.Attr {
			if !isXMLNS(a) {
				result.CreateAttr(a.FullKey(), a.Value)
			}
		}
		for _, k := range res.ChildElements() {
			result.AddChild(k)
		}
	}
	b, _ := out.WriteToBytes()
	w.Header().Set("Content-Type", wantContentType(map[string]Binding{soap11EnvNS: SOAP11, soap12EnvNS: SOAP12}[env]))
	_, _ = w.Write(b)
}

func (s *altServer) writeFault(w http.ResponseWriter, env string, f altFault) {
	out := etree.NewDocument()
	out.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
	e := out.CreateElement("soap:Envelope")
	e.CreateAttr("xmlns:soap", env)
	fe := e.CreateElement("soap:Body").CreateElement("soap:Fault")
	if env == soap11EnvNS {
		fe.CreateElement("faultcode").SetText("soap:" + f.code)
		fe.CreateElement("faultstring").SetText(f.msg)
		fe.CreateElement("detail")
		w.Header().Set("Content-Type", ctTextXML)
	} else {
		fe.CreateElement("soap:Code").CreateElement("soap:Value").SetText("soap:" + map[string]string{"Client": "Sender", "Server": "Receiver"}[f.code])
		t := fe.CreateElement("soap:Reason").CreateElement("soap:Text")
		t.CreateAttr("xml:lang", "en")
		t.SetText(f.msg)
		w.Header().Set("Content-Type", ctSOAP12)
	}
	b, _ := out.WriteToBytes()
	w.WriteHeader(f.status)
	_, _ = w.Write(b)
}

func (s *altServer) httpValues(r *http.Request) url.Values {
	if r.Method == http.MethodPost {
		_ = r.ParseForm()
		return r.PostForm
	}
	return r.URL.Query()
}

func (s *altServer) serveHTTP(w http.ResponseWriter, r *http.Request, op string) {
	plain := func(msg string) {
		w.Header().Set("Content-Type", ctTextPlain)
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, msg)
	}
	if altParams[op] == nil {
		plain(op + " Web Service method name is not valid.")
		return
	}
	q := s.httpValues(r)
	vals := map[string]string{}
	for _, p := range altParams[op] {
		if _, ok := q[p]; !ok {
			plain("System.InvalidOperationException: Missing parameter: " + p + ".")
			return
		}
		vals[p] = q.Get(p)
	}
	if f := convert(op, vals); f != nil {
		plain(f.msg)
		return
	}
	res, f := s.call(op, vals)
	if f != nil {
		plain(f.msg)
		return
	}
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
	doc.SetRoot(s.present(res))
	doc.Indent(2)
	b, _ := doc.WriteToBytes()
	w.Header().Set("Content-Type", ctTextXML)
	_, _ = w.Write(b)
}

func (s *altServer) serveJSON(w http.ResponseWriter, r *http.Request, op string) {
	q := r.URL.Query()
	vals := map[string]string{}
	for k := range q {
		vals[k] = q.Get(k)
	}
	plain := func(msg string) {
		w.Header().Set("Content-Type", ctTextPlain)
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, msg)
	}
	if op != opByAddress && op != opByCoords {
		plain(op + " Web Service method name is not valid.")
		return
	}
	if f := convert(op, vals); f != nil {
		plain(f.msg)
		return
	}
	if vals[pKey] != s.key {
		plain("The service key is not valid.")
		return
	}
	lat, lon, found := s.searchPoint(op, vals)
	type obj = map[string]any
	var locs []any
	for i, a := range found {
		locs = append(locs, obj{
			"index": i, "id": a.ID, "atmIdentifier": a.Ident,
			"institution": obj{"id": a.InstID, "name": a.InstName, "url": a.InstURL, "isAtlanticCreditUnion": a.ACU},
			"coordinates": obj{"latitude": json.Number(ff(a.Lat)), "longitude": json.Number(ff(a.Lon))},
			"address":     obj{"streetAddress": a.Street, "city": a.City, "province": a.Prov, "postalCode": a.Postal, "landmark": a.Landmark},
			"features":    obj{"deposits": a.Dep, "hours": a.Hours, "driveThru": a.Drive, "pinChange": a.Pin, "voiceGuidance": a.Voice},
			"creditCards": obj{"visa": a.Visa, "plus": a.Plus, "mastercard": a.MC, "cirrus": a.Cirrus},
			"languages":   a.Langs,
		})
	}
	if locs == nil {
		locs = []any{}
	}
	b, _ := json.Marshal(obj{"count": len(found), "coordinates": obj{"latitude": json.Number(ff(lat)), "longitude": json.Number(ff(lon))}, "locations": locs})
	w.Header().Set("Content-Type", ctTextXML)
	_, _ = w.Write(b)
}

func ff(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (s *altServer) searchPoint(op string, v map[string]string) (float64, float64, []altATM) {
	radius, _ := strconv.Atoi(v[pRadius])
	var lat, lon float64
	ok := false
	if op == opByCoords {
		lat, _ = strconv.ParseFloat(v[pLatitude], 64)
		lon, _ = strconv.ParseFloat(v[pLongitude], 64)
		ok = true
	} else {
		for _, a := range s.atms {
			if strings.EqualFold(a.Postal, v[pPostalCode]) || (!ok && strings.EqualFold(a.City, v[pCity]) && v[pPostalCode] == "") {
				lat, lon, ok = a.Lat, a.Lon, true
				break
			}
		}
	}
	if !ok {
		return 0, 0, nil
	}
	var out []altATM
	for _, a := range s.atms {
		if distanceKm(lat, lon, a.Lat, a.Lon) <= float64(radius) {
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		di, dj := distanceKm(lat, lon, out[i].Lat, out[i].Lon), distanceKm(lat, lon, out[j].Lat, out[j].Lon)
		if di != dj {
			return di < dj
		}
		return out[i].ID < out[j].ID
	})
	return lat, lon, out
}

// convert checks the operation's numeric parameters as ASMX converts them
// (XmlConvert, ScalarFormatter): a value that does not convert is refused.
func convert(op string, v map[string]string) *altFault {
	for _, p := range altParams[op] {
		val, ok := v[p]
		if !ok {
			continue
		}
		var err error
		switch paramTypes[p] {
		case "unsignedByte":
			_, err = strconv.ParseUint(strings.TrimSpace(val), 10, 8)
		case "int":
			_, err = strconv.ParseInt(strings.TrimSpace(val), 10, 32)
		case "double":
			_, err = strconv.ParseFloat(strings.TrimSpace(val), 64)
		}
		if err != nil {
			return &altFault{500, "Client", fmt.Sprintf("Cannot convert %s to %s.", val, paramTypes[p])}
		}
	}
	return nil
}

func (s *altServer) call(op string, v map[string]string) (*etree.Element, *altFault) {
	if v[pKey] != s.key {
		return nil, &altFault{500, "Client", "The service key is not valid."}
	}
	atoi := func(p string) int { n, _ := strconv.Atoi(v[p]); return n }
	switch op {
	case opAllAtms:
		root := etree.NewElement("Terminals")
		root.CreateAttr("xmlns", altDataNS)
		if s.noAllAtms {
			return root, nil
		}
		for _, a := range s.atms {
			root.AddChild(a.node())
		}
		return root, nil
	case opByInst, opByCity:
		var out []altATM
		for _, a := range s.atms {
			if (op == opByInst && a.InstID == atoi(pInstitution)) || (op == opByCity && a.CityID == atoi(pCityID)) {
				out = append(out, a)
			}
		}
		return searchNode(0, 0, out), nil
	case opByAddress, opByCoords, opWithMaximum:
		lat, lon, out := s.searchPoint(op, v)
		if op == opWithMaximum && len(out) > atoi(pMaximum) {
			out = out[:atoi(pMaximum)]
		}
		return searchNode(lat, lon, out), nil
	case opInsts:
		root := etree.NewElement("Banks")
		root.CreateAttr("xmlns", altDataNS)
		seen := map[int]bool{}
		for _, a := range s.atms {
			if !seen[a.InstID] {
				seen[a.InstID] = true
				b := root.CreateElement("Bank")
				b.CreateElement("Number").SetText(strconv.Itoa(a.InstID))
				b.CreateElement("Title").SetText(a.InstName)
			}
		}
		return root, nil
	case opProvinces:
		root := etree.NewElement("Provinces")
		root.CreateAttr("xmlns", altDataNS)
		for _, p := range [][2]string{{"NB", "New Brunswick"}, {"NS", "Nova Scotia"}, {"PE", "Prince Edward Island"}, {"NL", "Newfoundland and Labrador"}} {
			e := root.CreateElement("P")
			e.CreateAttr("code", p[0])
			e.SetText(p[1])
		}
		return root, nil
	}
	return nil, &altFault{500, "Client", "unknown operation"}
}

func searchNode(lat, lon float64, out []altATM) *etree.Element {
	root := etree.NewElement("SearchResult")
	root.CreateAttr("xmlns", altDataNS)
	root.CreateElement("Found").SetText(strconv.Itoa(len(out)))
	o := root.CreateElement("Origin")
	o.CreateAttr("Lat", ff(lat))
	o.CreateAttr("Lng", ff(lon))
	t := root.CreateElement("Terminals")
	for _, a := range out {
		t.AddChild(a.node())
	}
	return root
}

func (a altATM) node() *etree.Element {
	tf := func(n int) string { return strconv.FormatBool(n == 1) }
	e := etree.NewElement("Terminal")
	e.CreateAttr("Key", strconv.Itoa(a.ID))
	e.CreateElement("Code").SetText(a.Ident)
	w := e.CreateElement("Where")
	w.CreateElement("Street").SetText(a.Street)
	w.CreateElement("Town").SetText(a.City)
	w.CreateElement("Prov").SetText(a.Prov)
	w.CreateElement("Postal").SetText(a.Postal)
	w.CreateElement("Near").SetText(a.Landmark)
	w.CreateElement("Lat").SetText(ff(a.Lat))
	w.CreateElement("Lng").SetText(ff(a.Lon))
	b := e.CreateElement("Bank")
	b.CreateElement("Number").SetText(strconv.Itoa(a.InstID))
	b.CreateElement("Title").SetText(a.InstName)
	b.CreateElement("Web").SetText(a.InstURL)
	b.CreateElement("ACU").SetText(tf(a.ACU))
	sv := e.CreateElement("Services")
	for _, kv := range [][2]string{{"deposits", strconv.Itoa(a.Dep)}, {"hours", strconv.Itoa(a.Hours)}, {"drive", tf(a.Drive)}, {"pin", tf(a.Pin)}, {"voice", tf(a.Voice)}} {
		sv.CreateAttr(kv[0], kv[1])
	}
	c := e.CreateElement("Cards")
	c.CreateElement("Visa").SetText(tf(a.Visa))
	c.CreateElement("Plus").SetText(tf(a.Plus))
	c.CreateElement("MC").SetText(tf(a.MC))
	c.CreateElement("Cirrus").SetText(tf(a.Cirrus))
	l := e.CreateElement("Langs")
	for _, x := range a.Langs {
		l.CreateElement("L").SetText(x)
	}
	return e
}

// wsdlDoc is a small WSDL 1.1 in ASMX's shape.
func (s *altServer) wsdlDoc(base string) []byte {
	doc := etree.NewDocument()
	d := doc.CreateElement("wsdl:definitions")
	d.CreateAttr("xmlns:wsdl", wsdlNS)
	d.CreateAttr("xmlns:s", xsdNS)
	d.CreateAttr("xmlns:soap", wsdlSOAPNS)
	d.CreateAttr("xmlns:tns", s.ns)
	d.CreateAttr("targetNamespace", s.ns)
	schema := d.CreateElement("wsdl:types").CreateElement("s:schema")
	schema.CreateAttr("elementFormDefault", "qualified")
	schema.CreateAttr("targetNamespace", s.ns)
	pt := etree.NewElement("wsdl:portType")
	pt.CreateAttr("name", "AltServiceSoap")
	for _, op := range Operations {
		el := schema.CreateElement("s:element")
		el.CreateAttr("name", op.Name)
		seq := el.CreateElement("s:complexType").CreateElement("s:sequence")
		for _, p := range op.Params {
			pe := seq.CreateElement("s:element")
			pe.CreateAttr("name", p)
			pe.CreateAttr("type", "s:"+paramTypes[p])
		}
		pt.CreateElement("wsdl:operation").CreateAttr("name", op.Name)
	}
	d.AddChild(pt)
	d.CreateAttr("xmlns:soap12", wsdlSOAP12NS)
	d.CreateAttr("xmlns:http", wsdlHTTPNS)
	for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
		b := d.CreateElement("wsdl:binding")
		b.CreateAttr("name", "AltService"+suffix)
		ext := map[string]string{"Soap": "soap", "Soap12": "soap12"}[suffix]
		if ext == "" {
			b.CreateElement("http:binding").CreateAttr("verb", strings.ToUpper(strings.TrimPrefix(suffix, "Http")))
			continue
		}
		b.CreateElement(ext+":binding").CreateAttr("transport", soapTransport)
		for _, op := range Operations {
			o := b.CreateElement("wsdl:operation")
			o.CreateAttr("name", op.Name)
			so := o.CreateElement(ext + ":operation")
			so.CreateAttr("soapAction", s.ns+"/"+op.Name)
			so.CreateAttr("style", "document")
			for _, dir := range []string{"wsdl:input", "wsdl:output"} {
				o.CreateElement(dir).CreateElement(ext+":body").CreateAttr("use", "literal")
			}
		}
	}
	svc := d.CreateElement("wsdl:service")
	svc.CreateAttr("name", "AltService")
	for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
		p := svc.CreateElement("wsdl:port")
		p.CreateAttr("name", "AltService"+suffix)
		p.CreateAttr("binding", "tns:AltService"+suffix)
		p.CreateElement("soap:address").CreateAttr("location", base+servicePath)
	}
	b, _ := doc.WriteToBytes()
	return b
}

// altTypes are the type names of the typed layout, by result node.
var altTypes = map[string]string{"SearchResult": "TerminalSearch", "Terminals": "ArrayOfTerminal", "Banks": "ArrayOfBank", "Provinces": "ArrayOfRegion"}

// present lays a result node out in the server's layout and returns the
// GET/POST document's root; SOAP writes the node inside <OpResult>, or the
// root's attributes and children as <OpResult>'s.
func (s *altServer) present(node *etree.Element) *etree.Element {
	switch s.layout {
	case altTyped:
		root := etree.NewElement(altTypes[node.Tag])
		root.CreateAttr("xmlns:xsd", xsdNS)
		root.CreateAttr("xmlns:xsi", xsiNS)
		root.CreateAttr("xmlns", s.ns)
		for _, a := range node.Attr {
			if !isXMLNS(a) {
				root.CreateAttr(a.FullKey(), a.Value)
			}
		}
		for _, k := range node.ChildElements() {
			k.CreateAttr("xmlns", "") // unqualified: the fields and items in no namespace
			root.AddChild(k)
		}
		return root
	case altDataSet:
		return s.dataSet(node)
	}
	return node
}

// dataSet writes a result node as ASP.NET writes a DataSet: an inline
// schema, then a diffgram of flat rows (a location's columns flattened, its
// languages a nested child table).
func (s *altServer) dataSet(node *etree.Element) *etree.Element {
	data := etree.NewElement("NewDataSet")
	data.CreateAttr("xmlns", "")
	columns := map[string][]string{}
	var tables []string
	count := map[string]int{}
	row := func(parent *etree.Element, table string) *etree.Element {
		count[table]++
		r := parent.CreateElement(table)
		r.CreateAttr("diffgr:id", fmt.Sprintf("%s%d", table, count[table]))
		r.CreateAttr("msdata:rowOrder", strconv.Itoa(count[table]-1))
		if _, ok := columns[table]; !ok {
			tables = append(tables, table)
			columns[table] = nil
		}
		return r
	}
	col := func(r *etree.Element, table, name, value string) {
		if !contains(columns[table], name) {
			columns[table] = append(columns[table], name)
		}
		r.CreateElement(name).SetText(value)
	}
	terminal := func(t *etree.Element) {
		r := row(data, "Terminal")
		for _, l := range leaves(t) {
			if !strings.HasPrefix(l.Path, "Langs/") {
				col(r, "Terminal", strings.ReplaceAll(strings.TrimPrefix(strings.ReplaceAll(l.Path, "/@", "_"), "@"), "/", "_"), l.Value)
			}
		}
		for _, lang := range t.FindElements("Langs/L") {
			col(row(r, "Lang"), "Lang", "Code", textOf(lang))
		}
	}
	switch node.Tag {
	case "SearchResult":
		r := row(data, "Search")
		col(r, "Search", "Found", textOf(node.SelectElement("Found")))
		o := node.SelectElement("Origin")
		col(r, "Search", "OriginLat", o.SelectAttrValue("Lat", ""))
		col(r, "Search", "OriginLng", o.SelectAttrValue("Lng", ""))
		for _, t := range node.SelectElement("Terminals").ChildElements() {
			terminal(t)
		}
	case "Terminals":
		for _, t := range node.ChildElements() {
			terminal(t)
		}
	case "Banks":
		for _, b := range node.ChildElements() {
			r := row(data, "Bank")
			for _, k := range b.ChildElements() {
				col(r, "Bank", k.Tag, textOf(k))
			}
		}
	case "Provinces":
		for _, p := range node.ChildElements() {
			r := row(data, "Region")
			col(r, "Region", "Abbreviation", p.SelectAttrValue("code", ""))
			col(r, "Region", "Name", textOf(p))
		}
	}

	root := etree.NewElement("DataSet")
	root.CreateAttr("xmlns", s.ns)
	schema := root.CreateElement("xs:schema")
	schema.CreateAttr("id", "NewDataSet")
	schema.CreateAttr("xmlns", "")
	schema.CreateAttr("xmlns:xs", xsdNS)
	schema.CreateAttr("xmlns:msdata", msdataNS)
	ds := schema.CreateElement("xs:element")
	ds.CreateAttr("name", "NewDataSet")
	ds.CreateAttr("msdata:IsDataSet", "true")
	choice := ds.CreateElement("xs:complexType").CreateElement("xs:choice")
	choice.CreateAttr("minOccurs", "0")
	choice.CreateAttr("maxOccurs", "unbounded")
	for _, t := range tables {
		if t == "Lang" {
			continue
		}
		el := choice.CreateElement("xs:element")
		el.CreateAttr("name", t)
		seq := el.CreateElement("xs:complexType").CreateElement("xs:sequence")
		for _, c := range columns[t] {
			ce := seq.CreateElement("xs:element")
			ce.CreateAttr("name", c)
			ce.CreateAttr("type", "xs:string")
			ce.CreateAttr("minOccurs", "0")
		}
		if t == "Terminal" {
			lang := seq.CreateElement("xs:element")
			lang.CreateAttr("name", "Lang")
			lang.CreateAttr("minOccurs", "0")
			lang.CreateAttr("maxOccurs", "unbounded")
			ls := lang.CreateElement("xs:complexType").CreateElement("xs:sequence").CreateElement("xs:element")
			ls.CreateAttr("name", "Code")
			ls.CreateAttr("type", "xs:string")
		}
	}
	dg := root.CreateElement("diffgr:diffgram")
	dg.CreateAttr("xmlns:msdata", msdataNS)
	dg.CreateAttr("xmlns:diffgr", diffgramNS)
	dg.AddChild(data)
	return root
}
