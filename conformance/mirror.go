package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/shellquote"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// This file holds the "Mirror it:" line of the summary: the atmkit serve
// line whose flags make the mock stand for the deployment checked, in the
// facts the interface document is silent on, each taken from what the run
// already read (no call of its own): the namespace (the WSDL, help page or
// SOAP answers), the requestEncoding (the request encoding probe), the
// JSON path's error form (an error answer of the JSON path, as the key
// specs read) and whether results are in the mock's built-in shape (the
// results the specs read). Request validation is left out: no spec sends a
// value it refuses, and a probe that did would be logged by a production
// deployment as an error.

// The defaults of atmkit serve's flags the line names (the suite shares
// no code with the mock: cmd/atmkit's tests check these against serve's).
const (
	// MockNamespace is the default of atmkit serve --namespace.
	MockNamespace = "http://tempuri.org/atmService"
	// MockRequestEncoding is the default of atmkit serve --request-encoding.
	MockRequestEncoding = "utf-8"
	// MockJSONErrors is the default of atmkit serve --json-errors.
	MockJSONErrors = "asmx"
	// MockServiceName is the default of atmkit serve --service-name.
	MockServiceName = "AtmService"
)

// serveMirror is what a run saw of the deployment that atmkit serve's flags
// can mirror.
type serveMirror struct {
	// Namespace is the service namespace; empty when not found.
	Namespace string
	// ServiceName is the name of the WSDL's service (ASMX's: the service's
	// class, or its [WebService(Name=...)]); empty when the run read no
	// WSDL, or one naming no service.
	ServiceName string
	// RequestEncoding is the request encoding probe's finding
	// (RequestEncoding.Name); empty when it found none.
	RequestEncoding string
	// JSONErrors is the form of the JSON path's error answers the run
	// read: "asmx" (text/plain) or "ajax" (ASP.NET AJAX's JSON object);
	// empty when it read none, or both.
	JSONErrors string
	// ShapeDiff says how a result the run read differs from the mock's
	// built-in shape; empty when none differed.
	ShapeDiff string
	// ShapeSeen is the number of results compared with the built-in shape.
	ShapeSeen int
	// ShapeGiven is whether the run was given a shape (Config.Shape).
	ShapeGiven bool
	// ShapeFile is the file the shape given was read from
	// (Config.ShapeFile); empty when not known.
	ShapeFile string
	// nsHidden: the namespace held the key or a --header value, and is
	// left out.
	nsHidden bool
}

// Flags are the flags of atmkit serve, name and value, whose value the
// run found and which differ from the mock's defaults.
func (m *serveMirror) Flags() [][2]string {
	var fs [][2]string
	if m.Namespace != "" && m.Namespace != MockNamespace && servable(m.Namespace) {
		fs = append(fs, [2]string{"namespace", m.Namespace})
	}
	if m.ServiceName != "" && m.ServiceName != MockServiceName && isNCName(m.ServiceName) {
		fs = append(fs, [2]string{"service-name", m.ServiceName})
	}
	if m.RequestEncoding != "" && m.RequestEncoding != MockRequestEncoding {
		fs = append(fs, [2]string{"request-encoding", m.RequestEncoding})
	}
	if m.JSONErrors != "" && m.JSONErrors != MockJSONErrors {
		fs = append(fs, [2]string{"json-errors", m.JSONErrors})
	}
	if m.ShapeGiven && m.ShapeFile != "" && m.ShapeDiff != "" {
		fs = append(fs, [2]string{"shape", m.ShapeFile})
	}
	return fs
}

// servable reports whether ns is a namespace atmkit serve --namespace
// takes: an absolute URI without white space.
func servable(ns string) bool {
	u, err := url.Parse(ns)
	return err == nil && !strings.ContainsAny(ns, " \t\r\n") && u.IsAbs() && (u.Opaque != "" || u.Host != "" || u.Path != "")
}

// isNCName reports whether name is an XML name without a colon, which
// atmkit serve --service-name takes (every ASMX WSDL's service name is
// one): a letter or '_', then letters, digits, marks, '_', '-' or '.'.
func isNCName(name string) bool {
	for i, r := range name {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (r == '-' || r == '.' || unicode.IsDigit(r) || unicode.Is(unicode.M, r)):
		default:
			return false
		}
	}
	return name != "" && utf8.ValidString(name)
}

// lineShell is the shellquote shell of sh.
func lineShell(sh Shell) shellquote.Shell {
	switch sh {
	case ShellCmd:
		return shellquote.Cmd
	case ShellPowerShell:
		return shellquote.PowerShell
	case ShellPOSIX:
		return shellquote.POSIX
	}
	if runtime.GOOS == "windows" {
		return shellquote.Cmd
	}
	return shellquote.POSIX
}

// Line is the "Mirror it:" line's text, the serve line written for sh:
// "Mirror it: ", Command and, when there is one, the Note (the first of its
// remarks in parentheses when the line names no flag).
func (m *serveMirror) Line(sh Shell) string {
	s := "Mirror it: " + m.Command(sh)
	for i, r := range m.remarks() {
		if i == 0 && len(m.Flags()) == 0 {
			s += " (" + r + ")"
		} else {
			s += "; " + r
		}
	}
	return s
}

// Command is the atmkit serve command of the line, written for sh: the
// command alone, to paste (the JUnit and JSON reports' atmkit.mirror).
func (m *serveMirror) Command(sh Shell) string {
	s := "atmkit serve"
	for _, f := range m.Flags() {
		s += " --" + f[0] + " " + lineShell(sh).Arg(f[1])
	}
	return s
}

// Note is what the line says besides the command, its remarks joined by
// "; " (the reports' atmkit.mirrorNote); empty when there is none.
func (m *serveMirror) Note() string { return strings.Join(m.remarks(), "; ") }

// remarks are what the line says besides the command: that no flag is
// needed, that the namespace is left out, and why.
func (m *serveMirror) remarks() []string {
	var rs []string
	switch fs := m.Flags(); {
	case len(fs) == 0 && m.ShapeDiff != "" && !m.ShapeGiven:
		rs = append(rs, "no flag: the mock's defaults mirror what this run saw of it, but for the results' shape, below")
	case len(fs) == 0:
		rs = append(rs, "no flag: the mock's defaults mirror what this run saw of it")
	}
	if m.nsHidden {
		rs = append(rs, "its namespace holds the service key or a --header value and is left out: give --namespace yourself")
	}
	if m.Namespace != "" && !servable(m.Namespace) {
		rs = append(rs, fmt.Sprintf("its namespace %q is no absolute URI, which --namespace needs", m.Namespace))
	}
	if m.ServiceName != "" && !isNCName(m.ServiceName) {
		rs = append(rs, fmt.Sprintf("its service name %q is no XML name, which --service-name needs", m.ServiceName))
	}
	return rs
}

// ShapeHint is the line after it on the results' shape, with wsdl the
// service's address: how to learn the deployment's shape when a result
// differed from the built-in one, or when the run compared none; empty
// when every result compared was in it.
func (m *serveMirror) ShapeHint(sh Shell, wsdl string) string {
	learn := "atmkit shape learn --wsdl " + lineShell(sh).Arg(wsdl) + " --out shape.yaml"
	switch {
	case m.ShapeGiven && m.ShapeDiff != "" && m.ShapeFile != "":
		return "" // the Mirror it: line gives --shape with the file
	case m.ShapeGiven && m.ShapeDiff != "":
		return "Its results are not in the mock's built-in shape (" + m.ShapeDiff + "): serve with --shape and the shape file this run was given too"
	case m.ShapeGiven:
		return ""
	case m.ShapeDiff != "":
		return "Its results are not in the mock's built-in shape (" + m.ShapeDiff + "): learn theirs with " + learn +
			" (add --cassette with a recording by atmkit record for what the WSDL does not say), then serve with --shape shape.yaml too; see docs/shapes.md"
	case m.ShapeSeen == 0:
		return "Results: this run read none to compare with the mock's built-in shape; if the deployment's differ, " + learn +
			" learns them (then serve with --shape shape.yaml); see docs/shapes.md"
	}
	return ""
}

// mirror gathers the serveMirror of the session's run from the answers it read
// (the cache) and the preflight p; it sends nothing.
func (s *Session) mirror(p *Preflight) *serveMirror {
	m := &serveMirror{ShapeGiven: s.cfg.Shape != nil}
	if m.ShapeGiven {
		m.ShapeFile = s.cfg.ShapeFile
	}
	if s.nsDone.Load() {
		m.Namespace = s.ns
	}
	if s.maskReport(m.Namespace) != m.Namespace { // the key, or a secret (a --header value)
		m.Namespace, m.nsHidden = "", true
	}
	if p != nil && p.Encoding != nil {
		m.RequestEncoding = p.Encoding.Name
	}
	if s.wsdlDone.Load() && s.wsdl != nil {
		m.ServiceName = wsdlServiceName(s.wsdl.Root())
		if s.maskReport(m.ServiceName) != m.ServiceName { // the key, or a secret: never shown
			m.ServiceName = ""
		}
	}
	s.mu.Lock()
	keys := make([]string, 0, len(s.cache))
	for k := range s.cache {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	xs := make([]*Exchange, len(keys))
	for i, k := range keys {
		xs[i] = s.cache[k]
	}
	s.mu.Unlock()

	forms := map[string]bool{}
	for _, x := range xs {
		if x.Request.Binding == JSON {
			if f := jsonErrorForm(x); f != "" {
				forms[f] = true
			}
		}
	}
	if len(forms) == 1 {
		for f := range forms {
			m.JSONErrors = f
		}
	}

	// The results read, one per operation and XML binding, against the
	// built-in shape, GET first (the discovery's).
	builtin := shape.Default()
	compared := map[string]bool{}
	for _, b := range []Binding{HTTPGet, HTTPPost, SOAP11, SOAP12} {
		for _, x := range xs {
			r := builtin.Result(x.Request.Op)
			id := string(b) + " " + x.Request.Op
			if x.Request.Binding != b || x.Status != http.StatusOK || r == nil || compared[id] ||
				((b == SOAP11 || b == SOAP12) && (m.Namespace == "" || x.Request.Namespace != m.Namespace)) {
				continue
			}
			compared[id] = true
			m.ShapeSeen++
			what := fmt.Sprintf("%s over %s", x.Request.Op, b)
			if err := compareShape(x, what, r, m.Namespace, x.Request.Op); err != nil && m.ShapeDiff == "" {
				m.ShapeDiff = err.Error()
				if f, ok := err.(*Failure); ok {
					m.ShapeDiff = fmt.Sprintf("%s: expected %s, got %s", f.What, f.Expected, clip(f.Got, 200, x.masks()...))
				}
			}
		}
	}
	return m
}

// wsdlServiceName is the name of the first <wsdl:service> of the WSDL whose
// root is defs; empty when it has none.
func wsdlServiceName(defs *etree.Element) string {
	for _, svc := range children(defs, wsdlNS, "service") {
		return svc.SelectAttrValue("name", "")
	}
	return ""
}

// jsonErrorForm is the error form of a JSON-path answer: "ajax" for ASP.NET
// AJAX's (500, jsonerror: true, a JSON object holding Message), "asmx" for
// ASMX's (500, text/plain); empty for any other answer.
func jsonErrorForm(x *Exchange) string {
	if x.Status != http.StatusInternalServerError {
		return ""
	}
	mt, _, _ := mediaType(x.ContentType())
	if strings.EqualFold(strings.TrimSpace(x.RespHeader.Get("jsonerror")), "true") && mt == "application/json" {
		var obj map[string]any
		if json.Unmarshal(x.RespBody, &obj) == nil {
			if _, ok := obj["Message"].(string); ok {
				return "ajax"
			}
		}
		return ""
	}
	if mt == "text/plain" {
		return "asmx"
	}
	return ""
}
