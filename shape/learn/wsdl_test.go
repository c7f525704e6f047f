package learn_test

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// nestedWSDL is a WSDL of ReturnAllAtms whose result type T0 holds fan
// fields of type T1, each fan of type T2, and so on to T<depth>: a few
// hundred bytes a level, fan^depth fields.
func nestedWSDL(depth, fan int) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:tns="http://t.example/s" xmlns:s="http://www.w3.org/2001/XMLSchema" targetNamespace="http://t.example/s" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
<wsdl:types><s:schema elementFormDefault="qualified" targetNamespace="http://t.example/s">
<s:element name="ReturnAllAtmsResponse"><s:complexType><s:sequence><s:element minOccurs="0" maxOccurs="1" name="ReturnAllAtmsResult" type="tns:T0" /></s:sequence></s:complexType></s:element>
`)
	for i := range depth {
		fmt.Fprintf(&b, `<s:complexType name="T%d"><s:sequence>`, i)
		for k := range fan {
			fmt.Fprintf(&b, `<s:element minOccurs="0" maxOccurs="1" name="F%d" type="tns:T%d" />`, k, i+1)
		}
		b.WriteString("</s:sequence></s:complexType>\n")
	}
	fmt.Fprintf(&b, `<s:complexType name="T%d"><s:sequence><s:element minOccurs="1" maxOccurs="1" name="X" type="s:int" /></s:sequence></s:complexType>`, depth)
	b.WriteString("</s:schema></wsdl:types></wsdl:definitions>")
	return []byte(b.String())
}

// TestLearnWSDLTypesHoldingEachOther: a WSDL (a deployment's, or a
// hostile one's) whose types hold each other many times over, or nest in
// a chain thousands deep, is refused as such at once. It was expanded in
// full: 2^14 fields learned a shape of them in a second, 2^18 took 18 s
// and 5.6 GB, 2^40 never ended, and a chain of 5,000 types took 29 s and
// 63 GB before the learner blamed itself ("a bug in atmkit's learner").
func TestLearnWSDLTypesHoldingEachOther(t *testing.T) {
	for _, c := range []struct {
		depth, fan int
		want       string
	}{
		{14, 2, "more than 10000 fields"},
		{40, 2, "more than 10000 fields"},
		{66, 1, "nest more than 64 levels deep"},
		{5000, 1, "nest more than 64 levels deep"},
	} {
		wsdl := nestedWSDL(c.depth, c.fan)
		_, _, err := learn.Learn(learn.Input{WSDL: wsdl})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "a bug") {
			t.Fatalf("depth %d, fan %d (%d bytes): got %v, want an error saying %q", c.depth, c.fan, len(wsdl), err, c.want)
		}
		t.Logf("depth %d, fan %d: %v", c.depth, c.fan, err)
	}
	// Nested as deep as a shape may be, it is read (and refused later
	// for holding no list).
	if _, _, err := learn.Learn(learn.Input{WSDL: nestedWSDL(62, 1)}); err == nil || strings.Contains(err.Error(), "levels deep") {
		t.Fatalf("depth 62: %v, want the error of a result with no list", err)
	}
}

// TestLearnResultWithoutList: a WSDL whose result holds no list of
// locations, institutions or provinces (not this service's, or not all of
// it) is refused naming the operation and the input, not as a bug in the
// learner, which it said before.
func TestLearnResultWithoutList(t *testing.T) {
	_, _, err := learn.Learn(learn.Input{WSDL: nestedWSDL(2, 1)})
	if err == nil {
		t.Fatal("learned a shape of a result with no list")
	}
	for _, want := range []string{"no list of locations, institutions or provinces", "ReturnAllAtms", "WSDL or answers given"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("got %q, want it to say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "a bug") {
		t.Errorf("got %q, which blames atmkit's learner for its input", err)
	}
}

// TestLearnWSDLQualifiedAttribute: a local attribute declared qualified
// (form="qualified", as ASMX's WSDL declares an XmlAttribute of Form
// Qualified in its class's namespace, or under attributeFormDefault=
// "qualified") is learned in its schema's target namespace, as .NET's
// XmlSchemaImporter reads it (AttributeForm: the form, else the schema's
// attributeFormDefault; the accessor's namespace is the type's); one of
// form="unqualified" in such a schema is in none. Both were learned in
// no namespace.
func TestLearnWSDLQualifiedAttribute(t *testing.T) {
	const ns = "http://example.org/qualified/atmService"
	src, err := os.ReadFile(filepath.Join("..", "testdata", "typed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const index = "- {attribute: Index, type: int, value: index}"
	if !bytes.Contains(src, []byte(index)) {
		t.Fatalf("typed.yaml has no %s", index)
	}
	sh, err := shape.Parse(bytes.Replace(src, []byte(index), []byte(index+"\n            - {attribute: Stamp, namespace: \""+ns+"\", type: int, value: id}"), 1))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithShape(sh), mockserver.WithNamespace(ns))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	wsdl := string(refdeploy.WSDL(t, srv.URL))
	const decl = `<s:attribute form="qualified" name="Stamp" type="s:int" use="required" />`
	if !strings.Contains(wsdl, decl) {
		t.Fatalf("the WSDL lacks %s:\n%s", decl, wsdl)
	}
	schemaStart := `<s:schema elementFormDefault="qualified" targetNamespace="` + ns + `">`
	if !strings.Contains(wsdl, schemaStart) {
		t.Fatalf("the WSDL lacks %s", schemaStart)
	}
	byDefault := strings.Replace(strings.Replace(wsdl, decl, `<s:attribute name="Stamp" type="s:int" use="required" />`, 1),
		schemaStart, `<s:schema elementFormDefault="qualified" attributeFormDefault="qualified" targetNamespace="`+ns+`">`, 1)
	unqualified := strings.Replace(byDefault, `<s:attribute name="Stamp"`, `<s:attribute form="unqualified" name="Stamp"`, 1)
	for _, c := range []struct{ name, wsdl, want string }{
		{`form="qualified"`, wsdl, ns},
		{`attributeFormDefault="qualified"`, byDefault, ns},
		{`form="unqualified" under attributeFormDefault="qualified"`, unqualified, ""},
	} {
		learned, _, err := learn.Learn(learn.Input{WSDL: []byte(c.wsdl)})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var stamp *shape.Field
		for _, f := range learned.Result(asmx.OpReturnAllAtms).Fields {
			if f.Item != nil {
				for _, a := range f.Item.Fields {
					if a.Attribute == "Stamp" {
						stamp = a
					}
				}
			}
		}
		if stamp == nil {
			t.Fatalf("%s: no attribute Stamp learned:\n%s", c.name, shape.Marshal(learned, ""))
		}
		if got := stamp.Namespace.Resolve(ns, ""); got != c.want {
			t.Errorf("%s: Stamp learned in namespace %q, want %q", c.name, got, c.want)
		}
	}
}
