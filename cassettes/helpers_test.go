package cassettes_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/beevik/etree"
)

// testKey is the service key the tests send; no cassette may contain it.
const testKey = "s3cr3t-KEY-4242"

// standIn starts a live stand-in for the real service: a mock server with a
// generated data set that differs from the embedded default one.
func standIn(t testing.TB) (*httptest.Server, *fixtures.Dataset) {
	t.Helper()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, ds
}

// query is one question asked of the service: an operation and its
// parameters but the key, in the document's order.
type query struct {
	op     string
	params [][2]string
}

func (q query) String() string { return fmt.Sprint(q.op, q.params) }

// request writes q as a request of binding b to base, with key. variant
// alters the form without changing the question: prefixed SOAP elements,
// reversed parameter order, padded numbers.
func request(t testing.TB, base string, b asmx.Binding, q query, key string, variant bool) *http.Request {
	t.Helper()
	return requestNS(t, base, asmx.DefaultNamespace, b, q, key, variant)
}

// requestNS is request to a service whose namespace is ns.
func requestNS(t testing.TB, base, ns string, b asmx.Binding, q query, key string, variant bool) *http.Request {
	t.Helper()
	params := append([][2]string{{asmx.ParamKey, key}}, q.params...)
	if variant {
		rev := make([][2]string, len(params))
		for i, p := range params {
			rev[len(params)-1-i] = p
		}
		params = rev
	}
	var req *http.Request
	var err error
	switch b {
	case asmx.SOAP11, asmx.SOAP12:
		env, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
		if b == asmx.SOAP12 {
			env, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
		}
		var body bytes.Buffer
		fmt.Fprintf(&body, `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s=%q><s:Body>`, env)
		pre := ""
		if variant {
			pre = "tns:"
			fmt.Fprintf(&body, `<tns:%s xmlns:tns=%q>`, q.op, ns)
		} else {
			fmt.Fprintf(&body, `<%s xmlns=%q>`, q.op, ns)
		}
		for _, p := range params {
			v := string(asmx.AppendEscaped(nil, p[1]))
			if variant {
				v = "\n   " + v + "  "
			}
			fmt.Fprintf(&body, "<%s%s>%s</%s%s>", pre, p[0], v, pre, p[0])
		}
		fmt.Fprintf(&body, "</%s%s></s:Body></s:Envelope>", pre, q.op)
		req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath, &body)
		if err == nil {
			req.Header.Set("Content-Type", ct)
			if b == asmx.SOAP11 {
				req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(ns, q.op)+`"`)
			}
		}
	default:
		var pairs []string
		for _, p := range params {
			pairs = append(pairs, url.QueryEscape(p[0])+"="+url.QueryEscape(p[1]))
		}
		enc := strings.Join(pairs, "&")
		switch b {
		case asmx.HTTPPost:
			req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath+"/"+q.op, strings.NewReader(enc))
			if err == nil {
				req.Header.Set("Content-Type", asmx.ContentTypeForm)
			}
		case asmx.JSON:
			req, err = http.NewRequest(http.MethodGet, base+asmx.JSONPath+"/"+q.op+"?"+enc, nil)
		default:
			req, err = http.NewRequest(http.MethodGet, base+asmx.ServicePath+"/"+q.op+"?"+enc, nil)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Cookie", "session="+testKey)
	return req
}

// do sends req and returns the status and body.
func do(t testing.TB, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// values returns the texts of the result node's leaf elements, in
// document order, with their paths: what a client reads from an answer,
// whatever envelope it came in.
func values(t testing.TB, b asmx.Binding, body string) []string {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		t.Fatalf("answer does not parse: %v\n%s", err, body)
	}
	node := doc.Root()
	if b.IsSOAP() {
		node = doc.FindElement("//Body/*/*/*")
		if node == nil {
			t.Fatalf("no result node in\n%s", body)
		}
	}
	var out []string
	var walk func(e *etree.Element, path string)
	walk = func(e *etree.Element, path string) {
		path += "/" + e.Tag
		kids := e.ChildElements()
		if len(kids) == 0 {
			out = append(out, path+"="+e.Text())
		}
		for _, k := range kids {
			walk(k, path)
		}
	}
	walk(node, "")
	return out
}
