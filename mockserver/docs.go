package mockserver

import (
	"html/template"
	"net/http"

	"github.com/atmkit/atmkit/asmx"
)

var indexPage = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html><head><title>ATM Location Lookup Service</title></head>
<body><h1>ATM Location Lookup Service</h1>
<p>Namespace: <code>{{.NS}}</code></p>
<p>The following operations are supported:</p>
<ul>{{range .Ops}}<li><a href="?op={{.Name}}">{{.Name}}</a><br>{{.Summary}}</li>{{end}}</ul>
</body></html>
`))

// serveDocs answers GET /service/service.asmx: the help page.
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = indexPage.Execute(w, map[string]any{"NS": s.cfg.namespace, "Ops": asmx.Operations()})
}
