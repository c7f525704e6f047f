package mockserver

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// The HTML help pages, in the shape of ASMX's DefaultWsdlHelpGenerator: the
// operation list, and one page per operation with its parameters, a test
// form (HTTP POST) and a sample request and response for every binding.
// html/template escapes every value.
var helpTemplates = template.Must(template.New("help").Parse(`
{{- define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.}}</title>
<style>
body{font-family:Verdana,sans-serif;font-size:.8em;margin:0;background:#fff;color:#000}
#heading{background:#036;color:#fff;padding:.6em 1em;font-size:1.6em}
#content{margin:0 1em 2em 2em}
pre{background:#e5e5cc;padding:.6em;white-space:pre-wrap;word-break:break-all}
.value{color:#00f}
table.params td,table.params th{border:1px solid #999;padding:.2em .6em;text-align:left}
table.params{border-collapse:collapse}
</style></head>
<body><div id="heading">{{.}}</div><div id="content">
{{- end}}
{{- define "foot"}}
</div></body></html>
{{end}}
{{- define "index"}}{{template "head" (printf "%s Web Service" .Service)}}
<p>The following operations are supported. For a formal definition, please review the <a href="{{.Self}}?WSDL">Service Description</a>.</p>
<ul id="operations">
{{- range .Ops}}
<li><a href="{{$.Self}}?op={{.Name}}">{{.Name}}</a><br><span class="summary">{{.Summary}}</span></li>
{{- end}}
</ul>
<p>Namespace: <code id="namespace">{{.NS}}</code></p>
{{- template "foot"}}{{end}}
{{- define "operation"}}{{template "head" (printf "%s Web Service" .Service)}}
<p>Click <a href="{{.Self}}">here</a> for a complete list of operations.</p>
<h2 id="operation">{{.Op.Name}}</h2>
<p class="summary">{{.Op.Summary}}</p>
<h3>Parameters</h3>
<table class="params"><tr><th>Parameter</th><th>Type</th></tr>
{{- range .Params}}
<tr><td>{{.Name}}</td><td>{{.XSD}}</td></tr>
{{- end}}
</table>
<h3>Test</h3>
<p>To test the operation using the HTTP POST protocol, click the 'Invoke' button.</p>
<form id="invoke" action="{{.Self}}/{{.Op.Name}}" method="POST">
<table class="params"><tr><th>Parameter</th><th>Value</th></tr>
{{- range .Params}}
<tr><td><label for="{{.Name}}">{{.Name}}:</label></td><td><input type="text" size="50" id="{{.Name}}" name="{{.Name}}"></td></tr>
{{- end}}
<tr><td></td><td><input type="submit" id="submit" value="Invoke"></td></tr>
</table>
</form>
{{- range .Samples}}
<h3 id="{{.ID}}">{{.Title}}</h3>
<p>{{.Intro}}</p>
<pre class="request">{{range .Request}}{{if .Value}}<span class="value">{{.Text}}</span>{{else}}{{.Text}}{{end}}{{end}}</pre>
<pre class="response">{{range .Response}}{{if .Value}}<span class="value">{{.Text}}</span>{{else}}{{.Text}}{{end}}{{end}}</pre>
{{- end}}
{{- template "foot"}}{{end}}
{{- define "unknown"}}{{template "head" (printf "%s Web Service" .Service)}}
<p>Click <a href="{{.Self}}">here</a> for a complete list of operations.</p>
<h2>Method Not Found</h2>
<p>Method '{{.Name}}' was not found in service {{.Service}}.</p>
{{- template "foot"}}{{end}}
`))

// piece is a run of sample text; Value marks a placeholder to replace.
type piece struct {
	Text  string
	Value bool
}

// sample is the sample request and response of one binding.
type sample struct {
	ID, Title, Intro  string
	Request, Response []piece
}

// pieces accumulates a sample.
type pieces []piece

func (p *pieces) t(s string) *pieces {
	if n := len(*p); n > 0 && !(*p)[n-1].Value {
		(*p)[n-1].Text += s
		return p
	}
	*p = append(*p, piece{Text: s})
	return p
}

func (p *pieces) v(s string) *pieces {
	*p = append(*p, piece{Text: s, Value: true})
	return p
}

type helpParam struct{ Name, XSD string }

// serveHelpIndex answers GET service.asmx: the list of operations.
func (s *Server) serveHelpIndex(w http.ResponseWriter, r *http.Request) {
	s.writeHelpPage(w, "index", "", selfRef(r), "", func(self, _ string) any {
		return map[string]any{
			"Service": s.helpServiceName(),
			"Self":    self,
			"NS":      s.cfg.namespace,
			"Ops":     asmx.Operations(),
		}
	})
}

// serveOperationHelp answers GET service.asmx?op=Name. An operation the
// service does not have (its exact name; ?op= names ""), is answered as
// .NET's DefaultWsdlHelpGenerator.aspx answers it: HTTP 200, the link back
// to the list, "Method Not Found" and "Method '{0}' was not found in
// service {1}." (HelpGeneratorMethodNotFoundText) with the name
// XmlConvert.DecodeName'd and HTML-encoded as HttpUtility.HtmlEncode does.
func (s *Server) serveOperationHelp(w http.ResponseWriter, r *http.Request, name string) {
	op, ok := asmx.LookupOperation(name)
	if !ok {
		s.writeHelp(w, http.StatusOK, "unknown", map[string]any{
			"Service": s.helpServiceName(),
			"Self":    selfRef(r),
			"Name":    template.HTML(asmx.HTMLEncode(decodeName(name))), // encoded as .NET's Server.HtmlEncode encodes it
		})
		return
	}
	params := make([]helpParam, 0, len(op.Params))
	for _, p := range op.Params {
		params = append(params, helpParam{p.Name, p.Type.XSD()})
	}
	// The samples' Host is the host without its port, as .NET's help
	// generator writes the service address's (Uri.Host).
	s.writeHelpPage(w, "operation", op.Name, selfRef(r), withoutPort(hostOf(r)), func(self, host string) any {
		return map[string]any{
			"Service": s.helpServiceName(),
			"Self":    self,
			"Op":      op,
			"Params":  params,
			"Samples": samples(op, s.cfg.namespace, host, s.enc.shape.Result(op.Name)),
		}
	})
}

// helpServiceName is the service's name as the help pages show it: the
// WSDL's service name XmlConvert.DecodeName'd (the generator's ServiceName).
func (s *Server) helpServiceName() string { return decodeName(s.cfg.errorForm.Service) }

// decodeName decodes name as .NET's XmlConvert.DecodeName does
// (shape.DecodeName).
func decodeName(name string) string { return shape.DecodeName(name) }

// writeHelp renders one help page.
func (s *Server) writeHelp(w http.ResponseWriter, status int, page string, data any) {
	var buf bytes.Buffer
	if err := helpTemplates.ExecuteTemplate(&buf, page, data); err != nil {
		s.log.Error("help page", "page", page, "error", err)
		http.Error(w, "the help page could not be built", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// selfRef is the relative reference from a help page to service.asmx itself,
// which also works when the page was asked for with a trailing slash.
func selfRef(r *http.Request) string {
	p := r.URL.Path
	trailing := strings.HasSuffix(p, "/")
	p = strings.TrimSuffix(p, "/")
	seg := p[strings.LastIndex(p, "/")+1:]
	if !strings.EqualFold(seg, "service.asmx") {
		seg = "service.asmx"
	}
	if trailing {
		return "../" + seg
	}
	return seg
}

const sampleIntro = "The following is a sample %s request and response. The placeholders shown need to be replaced with actual values."

// samples builds the sample requests and responses of op for every binding
// it is offered in; r is the shape of op's result (a node result is shown
// as a placeholder, a typed one field by field).
func samples(op *asmx.Operation, ns, host string, r *shape.Result) []sample {
	out := []sample{
		soapSample(op, asmx.SOAP11, ns, host, r),
		soapSample(op, asmx.SOAP12, ns, host, r),
		httpSample(op, asmx.HTTPGet, ns, host, r),
		httpSample(op, asmx.HTTPPost, ns, host, r),
	}
	if op.JSON {
		out = append(out, httpSample(op, asmx.JSON, ns, host, r))
	}
	return out
}

func soapSample(op *asmx.Operation, b asmx.Binding, ns, host string, r *shape.Result) sample {
	// The envelope's prefix is soap, and soap12 for SOAP 1.2, as .NET's
	// help generator writes them (soapPrefix, soap12Prefix).
	title, env, ctype, pfx := "SOAP 1.1", asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11, "soap"
	if b == asmx.SOAP12 {
		title, env, ctype, pfx = "SOAP 1.2", asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12, "soap12"
	}
	envOpen := `<?xml version="1.0" encoding="utf-8"?>
<` + pfx + `:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:` + pfx + `="` + env + `">
  <` + pfx + `:Body>
`
	envClose := "  </" + pfx + ":Body>\n</" + pfx + ":Envelope>"

	var req pieces
	req.t("POST " + asmx.ServicePath + " HTTP/1.1\nHost: " + host + "\nContent-Type: " + ctype + "\nContent-Length: ").v("length").t("\n")
	if b == asmx.SOAP11 {
		req.t(`SOAPAction: "` + asmx.SOAPAction(ns, op.Name) + "\"\n")
	}
	req.t("\n" + envOpen + "    <" + op.Name + ` xmlns="` + ns + "\">\n")
	for _, p := range op.Params {
		req.t("      <" + p.Name + ">").v(p.Type.XSD()).t("</" + p.Name + ">\n")
	}
	req.t("    </" + op.Name + ">\n" + envClose)

	var resp pieces
	resp.t("HTTP/1.1 200 OK\nContent-Type: " + ctype + "\nContent-Length: ").v("length").
		t("\n\n" + envOpen + "    <" + op.Name + `Response xmlns="` + ns + "\">\n      <" + op.Name + "Result")
	switch {
	case r != nil && r.Layout == shape.Typed:
		ts := newTypedSample(&resp, ns, true)
		mark := ts.root(r, soapResultDepth)
		resp.t(">")
		ts.fields(r, ns, soapResultDepth+1, mark)
		resp.t(indent(soapResultDepth))
	case r != nil && r.Layout == shape.Dataset:
		// As ASMX's help page shows a DataSet: its schema, then the data.
		resp.t(">" + indent(soapResultDepth+1) + "<xsd:schema>").v("schema").t("</xsd:schema>").v("xml")
	default:
		resp.t(">")
		resp.v("xml")
	}
	resp.t("</" + op.Name + "Result>\n    </" + op.Name + "Response>\n" + envClose)
	return sample{ID: b.String(), Title: title, Intro: fmt.Sprintf(sampleIntro, title), Request: req, Response: resp}
}

func httpSample(op *asmx.Operation, b asmx.Binding, ns, host string, r *shape.Result) sample {
	var req pieces
	query := func() {
		for i, p := range op.Params {
			if i > 0 {
				req.t("&")
			}
			req.t(p.Name + "=").v("string")
		}
	}
	var title string
	switch b {
	case asmx.HTTPPost:
		title = "HTTP POST"
		req.t("POST " + asmx.ServicePath + "/" + op.Name + " HTTP/1.1\nHost: " + host +
			"\nContent-Type: " + asmx.ContentTypeForm + "\nContent-Length: ").v("length").t("\n\n")
		query()
	case asmx.JSON:
		title = "HTTP JSON GET"
		req.t("GET " + asmx.JSONPath + "/" + op.Name + "?")
		query()
		req.t(" HTTP/1.1\nHost: " + host)
	default:
		title = "HTTP GET"
		req.t("GET " + asmx.ServicePath + "/" + op.Name + "?")
		query()
		req.t(" HTTP/1.1\nHost: " + host)
	}
	var resp pieces
	resp.t("HTTP/1.1 200 OK\nContent-Type: " + asmx.ContentTypeXML + "\nContent-Length: ").v("length").t("\n\n")
	if b == asmx.JSON {
		resp.t(`{"count": `).v("int").t(`, "coordinates": {"latitude": `).v("double").t(`, "longitude": `).v("double").
			t(`}, "locations": [`).v("location").t(", ...]}")
	} else if r != nil && r.Layout == shape.Typed {
		resp.t(`<?xml version="1.0" encoding="utf-8"?>` + "\n<" + r.Root)
		ts := newTypedSample(&resp, ns, false)
		mark := ts.root(r, 0)
		resp.t(` xmlns="` + strings.TrimSpace(xmlEscape(ns)) + `">`)
		ts.fields(r, ns, 1, mark)
		resp.t("\n</" + r.Root + ">")
	} else if r != nil && r.Layout == shape.Dataset {
		resp.t(`<?xml version="1.0" encoding="utf-8"?>` + "\n<" + r.Root + ` xmlns="` + strings.TrimSpace(xmlEscape(ns)) + `">` +
			"\n  <schema xmlns=\"http://www.w3.org/2001/XMLSchema\">").v("schema").t("</schema>").v("xml").t("</" + r.Root + ">")
	} else {
		// A node result's output part names no element: ASMX's help page
		// writes a declaration of its own, without the encoding, then the
		// placeholder (DefaultWsdlHelpGenerator's WriteHttpReturnPart).
		resp.t(`<?xml version="1.0"?>` + "\n").v("xml")
	}
	return sample{ID: b.String(), Title: title, Intro: fmt.Sprintf(sampleIntro, title), Request: req, Response: resp}
}
