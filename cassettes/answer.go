package cassettes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/beevik/etree"
)

// answerOf turns a recorded response to a call of op in binding b into a
// replay answer: the XML result node (the single element inside <OpResult>
// in SOAP, the document root in GET/POST), the JSON body, or a recorded
// error in a form every binding can re-serve.
func answerOf(b asmx.Binding, op string, code int, body string) (mockserver.ReplayAnswer, error) {
	if code != http.StatusOK {
		return mockserver.ReplayAnswer{Error: errorOf(b, code, body)}, nil
	}
	if b == asmx.JSON {
		if !json.Valid([]byte(body)) {
			return mockserver.ReplayAnswer{}, errors.New("the JSON answer is not valid JSON")
		}
		return mockserver.ReplayAnswer{JSON: []byte(body)}, nil
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		return mockserver.ReplayAnswer{}, fmt.Errorf("the XML answer does not parse: %w", err)
	}
	root := doc.Root()
	if root == nil {
		return mockserver.ReplayAnswer{}, errors.New("the XML answer has no root element")
	}
	if !b.IsSOAP() {
		return mockserver.ReplayAnswer{Node: nodeBytes(root)}, nil
	}
	soapBody := root.SelectElement("Body")
	if soapBody == nil || len(soapBody.ChildElements()) == 0 {
		return mockserver.ReplayAnswer{}, errors.New("the SOAP answer has no Body element")
	}
	resp := soapBody.ChildElements()[0]
	if resp.Tag == "Fault" {
		return mockserver.ReplayAnswer{Error: faultOf(code, resp)}, nil
	}
	result := resp.SelectElement(op + "Result")
	if result == nil {
		return mockserver.ReplayAnswer{}, fmt.Errorf("the SOAP answer has no <%sResult> in <%s>", op, resp.Tag)
	}
	kids := result.ChildElements()
	if len(kids) != 1 {
		return mockserver.ReplayAnswer{}, fmt.Errorf("<%sResult> holds %d elements, want 1", op, len(kids))
	}
	return mockserver.ReplayAnswer{Node: nodeBytes(kids[0])}, nil
}

// nodeBytes serializes el as a standalone node: the namespace declarations
// it uses from its ancestors are copied onto it, an xmlns="" is dropped (the
// server adds it inside SOAP), and it is indented by two spaces, so the same
// answer recorded in different bindings yields the same bytes.
func nodeBytes(el *etree.Element) []byte {
	cp := el.Copy()
	declared := map[string]bool{}
	used := map[string]bool{}
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		if e.Space != "" {
			used[e.Space] = true
		}
		for _, a := range e.Attr {
			switch {
			case a.Space == "xmlns":
				declared[a.Key] = true
			case a.Space != "" && a.Space != "xml":
				used[a.Space] = true
			}
		}
		for _, k := range e.ChildElements() {
			walk(k)
		}
	}
	walk(cp)
	for p := range used {
		if declared[p] {
			continue
		}
		if uri, ok := lookupNS(el, "xmlns", p); ok {
			cp.CreateAttr("xmlns:"+p, uri)
		}
	}
	if a := cp.SelectAttr("xmlns"); a != nil {
		if a.Value == "" {
			cp.RemoveAttr("xmlns")
		}
	} else if uri, ok := lookupNS(el.Parent(), "", "xmlns"); ok && uri != "" {
		cp.CreateAttr("xmlns", uri)
	}
	doc := etree.NewDocumentWithRoot(cp)
	doc.Indent(2)
	out, _ := doc.WriteToBytes() // writing to memory cannot fail
	return bytes.TrimSpace(out)
}

// lookupNS finds the attribute space:key on e or its nearest ancestor.
func lookupNS(e *etree.Element, space, key string) (string, bool) {
	for ; e != nil; e = e.Parent() {
		for _, a := range e.Attr {
			if a.Space == space && a.Key == key {
				return a.Value, true
			}
		}
	}
	return "", false
}

// faultOf reads a SOAP 1.1 or 1.2 fault.
func faultOf(code int, f *etree.Element) *asmx.Error {
	fc, text := "", ""
	if e := f.SelectElement("faultcode"); e != nil { // SOAP 1.1
		fc = e.Text()
	}
	if e := f.SelectElement("faultstring"); e != nil {
		text = e.Text()
	}
	if e := f.FindElement("Code/Value"); e != nil { // SOAP 1.2
		fc = e.Text()
	}
	if e := f.FindElement("Reason/Text"); e != nil {
		text = e.Text()
	}
	fc = strings.TrimSpace(fc)
	if i := strings.IndexByte(fc, ':'); i >= 0 {
		fc = fc[i+1:]
	}
	e := &asmx.Error{Status: code, Code: asmx.Client, Kind: asmx.KindInvalidParameter, Fault: text,
		Text: "System.Web.Services.Protocols.SoapException: " + text, Message: text}
	switch fc {
	case "Server", "Receiver":
		e.Code, e.Kind = asmx.Server, asmx.KindServerError
	case "VersionMismatch":
		e.Code, e.Kind = asmx.VersionMismatch, asmx.KindVersionMismatch
	}
	return e
}

// errorOf turns a recorded error response into an error every binding can serve.
func errorOf(b asmx.Binding, code int, body string) *asmx.Error {
	if strings.TrimSpace(body) == "" {
		return &asmx.Error{Status: code, Code: asmx.Client, Kind: asmx.KindMalformedRequest, EmptyBody: true,
			Message: fmt.Sprintf("recorded status %d with an empty body", code)}
	}
	switch {
	case b.IsSOAP():
		doc := etree.NewDocument()
		if doc.ReadFromString(body) == nil && doc.Root() != nil {
			if sb := doc.Root().SelectElement("Body"); sb != nil {
				if f := sb.SelectElement("Fault"); f != nil {
					return faultOf(code, f)
				}
			}
		}
	case b == asmx.JSON:
		var je struct {
			Error struct {
				Code      string `json:"code"`
				Message   string `json:"message"`
				Parameter string `json:"parameter"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(body), &je) == nil && je.Error.Message != "" {
			return &asmx.Error{Status: code, Code: asmx.Client, Kind: je.Error.Code, Param: je.Error.Parameter,
				Fault: "Server was unable to process request. ---> " + je.Error.Message, Text: "System.Exception: " + je.Error.Message,
				Message: je.Error.Message}
		}
	}
	msg := strings.TrimSpace(body)
	kind := asmx.KindInvalidParameter
	fc := asmx.Client
	if code >= 500 && !strings.HasPrefix(msg, "System.InvalidOperationException") && !strings.HasPrefix(msg, "System.Argument") {
		kind, fc = asmx.KindServerError, asmx.Server
	}
	return &asmx.Error{Status: code, Code: fc, Kind: kind, Fault: "Server was unable to process request. ---> " + msg,
		Text: msg, Message: msg}
}
