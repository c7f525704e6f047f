package cassettes

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
)

// A recorded error is served as recorded to a call in the binding it was
// recorded in. A call in another binding gets it re-served in that
// binding's form (errorOf): the status, the fault code and the message as
// recorded.

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
