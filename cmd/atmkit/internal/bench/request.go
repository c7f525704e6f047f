package bench

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/printable"
)

// benchCity is the city the default searches look around: Sydney, NS has
// tens of locations within 25 km in the embedded data set (69).
const benchCity, benchProvince = "Sydney", "NS"

// defaultParams are the default values of every parameter: searches around
// the city named (or ds's first), 25 km, the first institution.
func defaultParams(ds *fixtures.Dataset, cityName, province, key string) map[string]string {
	city := ds.Cities[0]
	for _, c := range ds.Cities {
		if c.Name == cityName && c.Province == province {
			city = c
			break
		}
	}
	inst := 0
	if len(ds.Institutions) > 0 {
		inst = ds.Institutions[0].ID
	}
	return map[string]string{
		asmx.ParamKey:           key,
		asmx.ParamAddress:       "",
		asmx.ParamCity:          city.Name,
		asmx.ParamProvince:      city.Province,
		asmx.ParamPostalCode:    "",
		asmx.ParamRadius:        "25",
		asmx.ParamLatitude:      asmx.FormatDouble(city.Latitude),
		asmx.ParamLongitude:     asmx.FormatDouble(city.Longitude),
		asmx.ParamMaximumAtms:   "20",
		asmx.ParamInstitutionID: strconv.Itoa(inst),
		asmx.ParamCityID:        strconv.Itoa(city.ID),
	}
}

// callParams returns the call's parameters in the document's order: the
// defaults, then the --param overrides.
func callParams(op *asmx.Operation, defaults map[string]string, overrides []string) ([][2]string, error) {
	for _, o := range overrides {
		name, value, ok := strings.Cut(o, "=")
		if !ok {
			return nil, usagef("--param %q: want name=value", o)
		}
		if _, ok := op.Param(name); !ok {
			return nil, usagef("--param %q: %s takes no parameter %s", o, op.Name, name)
		}
		defaults[name] = value
	}
	out := make([][2]string, len(op.Params))
	for i, p := range op.Params {
		out[i] = [2]string{p.Name, defaults[p.Name]}
	}
	return out, nil
}

// callRequest builds the request of one call in binding b, as a client
// generated from the WSDL would send it; its URL is a path, to be prefixed
// with the base URL.
func callRequest(b asmx.Binding, ns, op string, params [][2]string) loadgen.Request {
	query := func() string {
		var sb strings.Builder
		for i, p := range params {
			if i > 0 {
				sb.WriteByte('&')
			}
			sb.WriteString(url.QueryEscape(p[0]))
			sb.WriteByte('=')
			sb.WriteString(url.QueryEscape(p[1]))
		}
		return sb.String()
	}
	switch b {
	case asmx.HTTPGet:
		return loadgen.Request{Method: "GET", URL: asmx.ServicePath + "/" + op + "?" + query()}
	case asmx.HTTPPost:
		return loadgen.Request{Method: "POST", URL: asmx.ServicePath + "/" + op,
			Header: map[string][]string{"Content-Type": {asmx.ContentTypeForm}}, Body: []byte(query())}
	case asmx.JSON:
		return loadgen.Request{Method: "GET", URL: asmx.JSONPath + "/" + op + "?" + query(),
			Header: map[string][]string{"Content-Type": {"application/json"}}}
	}
	env, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
	if b == asmx.SOAP12 {
		env, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
	}
	body := []byte(`<?xml version="1.0" encoding="utf-8"?>` + "\n" +
		`<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="` + env + `">` + "\n" +
		"  <soap:Body>\n    <" + op + ` xmlns="`)
	body = asmx.AppendEscaped(body, ns)
	body = append(body, "\">\n"...)
	for _, p := range params {
		body = append(body, "      <"+p[0]+">"...)
		body = asmx.AppendEscaped(body, p[1])
		body = append(body, "</"+p[0]+">\n"...)
	}
	body = append(body, "    </"+op+">\n  </soap:Body>\n</soap:Envelope>"...)
	h := map[string][]string{"Content-Type": {ct}}
	if b == asmx.SOAP11 {
		h["SOAPAction"] = []string{`"` + asmx.SOAPAction(ns, op) + `"`}
	}
	return loadgen.Request{Method: "POST", URL: asmx.ServicePath, Header: h, Body: body}
}

// at returns req, whose URL is a path, sent to the server at base.
func at(req loadgen.Request, base string) loadgen.Request {
	req.URL = base + req.URL
	return req
}

var countRE = regexp.MustCompile(`<count>(\d+)</count>|"count":(\d+)`)

// countLocations reads the location count of a result, 0 if it has none.
func countLocations(body []byte) int {
	m := countRE.FindSubmatch(body)
	if m == nil {
		return 0
	}
	s := m[1]
	if len(s) == 0 {
		s = m[2]
	}
	n, _ := strconv.Atoi(string(s))
	return n
}

var (
	faultRE = regexp.MustCompile(`(?s)<faultstring>(.*?)</faultstring>|<soap:Text[^>]*>(.*?)</soap:Text>`)
	titleRE = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
)

// answerText says, as one line, what an answer that is not the service's
// 200 holds: the message of a SOAP fault (its stack trace, if any, on the
// same line), the title of an HTML page (a web server's error page, not
// the page), or else the start of the body.
func answerText(contentType string, body []byte) string {
	const most = 300
	oneLine := func(s string) string {
		s = strings.Join(strings.Fields(printable.Text(s)), " ")
		if len(s) > most {
			s = strings.ToValidUTF8(s[:most], "") + "..."
		}
		return s
	}
	if m := faultRE.FindSubmatch(body); m != nil {
		return oneLine(html.UnescapeString(string(m[1]) + string(m[2])))
	}
	start := strings.ToLower(strings.TrimSpace(string(body[:min(len(body), 512)])))
	if strings.Contains(strings.ToLower(contentType), "html") || strings.HasPrefix(start, "<!doctype html") || strings.HasPrefix(start, "<html") {
		if m := titleRE.FindSubmatch(body); m != nil {
			if title := oneLine(html.UnescapeString(string(m[1]))); title != "" {
				return fmt.Sprintf("an HTML page titled %q", title)
			}
		}
		return "an HTML page"
	}
	if s := oneLine(string(body)); s != "" {
		return s
	}
	return "an empty body"
}
