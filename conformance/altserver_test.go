package conformance

import (
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
// document, written for the suite's own tests: its XML result nodes have
// other names, other nesting (attributes, a search wrapper), their own
// namespace, true/false flags, and it serves a WSDL only when asked. The
// suite must pass it.
type altServer struct {
	ns   string
	key  string
	wsdl bool
	// noAllAtms makes ReturnAllAtms an empty list, as a deployment that
	// withholds the full list might answer.
	noAllAtms bool
	atms      []altATM
}

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

type altFault struct {
	status int
	client bool
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

func (s *altServer) serveSOAP(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mediaType(r.Header.Get("Content-Type"))
	env := soap11EnvNS
	switch mt {
	case "text/xml":
	case "application/soap+xml":
		env = soap12EnvNS
	default:
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	body, _ := io.ReadAll(r.Body)
	doc, err := parseXML(body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	fault := func(f altFault) { s.writeFault(w, env, f) }
	if nameOf(doc.Root()) != (qname{env, "Envelope"}) {
		s.writeFault(w, soap11EnvNS, altFault{500, true, "Possible SOAP version mismatch: Envelope namespace " + nameOf(doc.Root()).Space + " was unexpected."})
		return
	}
	var call *etree.Element
	for _, b := range doc.Root().ChildElements() {
		if nameOf(b) == (qname{env, "Body"}) && len(b.ChildElements()) > 0 {
			call = b.ChildElements()[0]
		}
	}
	if call == nil {
		fault(altFault{500, true, "no body"})
		return
	}
	op := call.Tag
	if env == soap11EnvNS {
		action := strings.Trim(r.Header.Get("SOAPAction"), `"`)
		if !strings.HasPrefix(action, s.ns+"/") || altParams[strings.TrimPrefix(action, s.ns+"/")] == nil {
			fault(altFault{500, true, "Server did not recognize the value of HTTP Header SOAPAction: " + action + "."})
			return
		}
		op = strings.TrimPrefix(action, s.ns+"/")
	}
	if call.NamespaceURI() != s.ns || call.Tag != op || altParams[op] == nil {
		fault(altFault{500, true, fmt.Sprintf("The request element <%s xmlns='%s'> was not recognized.", call.Tag, call.NamespaceURI())})
		return
	}
	vals := map[string]string{}
	for _, k := range call.ChildElements() {
		vals[k.Tag] = textOf(k)
	}
	res, f := s.call(op, vals)
	if f != nil {
		fault(*f)
		return
	}
	out := etree.NewDocument()
	out.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
	e := out.CreateElement("soap:Envelope")
	e.CreateAttr("xmlns:soap", env)
	resp := e.CreateElement("soap:Body").CreateElement(op + "Response")
	resp.CreateAttr("xmlns", s.ns)
	resp.CreateElement(op + "Result").AddChild(res)
	b, _ := out.WriteToBytes()
	w.Header().Set("Content-Type", wantContentType(map[string]Binding{soap11EnvNS: SOAP11, soap12EnvNS: SOAP12}[env]))
	_, _ = w.Write(b)
}

func (s *altServer) writeFault(w http.ResponseWriter, env string, f altFault) {
	out := etree.NewDocument()
	e := out.CreateElement("soap:Envelope")
	e.CreateAttr("xmlns:soap", env)
	fe := e.CreateElement("soap:Body").CreateElement("soap:Fault")
	if env == soap11EnvNS {
		code := map[bool]string{true: "soap:Client", false: "soap:Server"}[f.client]
		if strings.HasPrefix(f.msg, "Possible SOAP version mismatch") {
			code = "soap:VersionMismatch"
		}
		fe.CreateElement("faultcode").SetText(code)
		fe.CreateElement("faultstring").SetText(f.msg)
		fe.CreateElement("detail")
		w.Header().Set("Content-Type", ctTextXML)
	} else {
		fe.CreateElement("soap:Code").CreateElement("soap:Value").SetText(map[bool]string{true: "soap:Sender", false: "soap:Receiver"}[f.client])
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
	res, f := s.call(op, vals)
	if f != nil {
		plain(f.msg)
		return
	}
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="utf-8"`)
	doc.SetRoot(res)
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
	if op != opByAddress && op != opByCoords {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if vals[pKey] != s.key {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"bad key"}`)
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

func (s *altServer) call(op string, v map[string]string) (*etree.Element, *altFault) {
	if v[pKey] != s.key {
		return nil, &altFault{500, true, "The service key is not valid."}
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
	return nil, &altFault{500, true, "unknown operation"}
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
	for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
		b := d.CreateElement("wsdl:binding")
		b.CreateAttr("name", "AltService"+suffix)
		if suffix == "Soap" {
			for _, op := range Operations {
				o := b.CreateElement("wsdl:operation")
				o.CreateAttr("name", op.Name)
				o.CreateElement("soap:operation").CreateAttr("soapAction", s.ns+"/"+op.Name)
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
