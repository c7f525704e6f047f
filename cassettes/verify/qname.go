package verify

import "strings"

// Some attribute values are qualified names (xsi:type="s:int", a WSDL
// part's element="tns:Op"): their prefix stands for the namespace bound
// to it where the attribute is, as .NET's readers resolve it
// (XmlSerializationReader.ToXmlQualifiedName, the schema and WSDL
// readers). They are compared resolved, {namespace}local, so that another
// prefix for the same namespace is no change and the same prefix bound to
// another namespace is one. No other text is resolved.

// The WSDL 1.1 SOAP bindings' namespaces: soap:header names a message.
const (
	nsWSDLSOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsWSDLSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsXML        = "http://www.w3.org/XML/1998/namespace"
)

// qnameAttrs are, by the namespace of the element that carries them, the
// unqualified attributes whose value is a QName, or a list of QNames
// (XSD's memberTypes).
var qnameAttrs = map[string]map[string]bool{
	nsXSD:        {"type": true, "base": true, "ref": true, "itemType": true, "memberTypes": true, "substitutionGroup": true, "refer": true},
	nsWSDL:       {"type": true, "element": true, "message": true, "binding": true},
	nsWSDLSOAP11: {"message": true},
	nsWSDLSOAP12: {"message": true},
}

// nsScope holds the namespace declarations in scope at an element, the
// innermost first: its own, then its parent's.
type nsScope struct {
	prefix, uri string
	up          *nsScope
}

// lookup resolves prefix ("" for the default namespace), or reports that
// nothing binds it. No default namespace declared is the empty one.
func (s *nsScope) lookup(prefix string) (string, bool) {
	if prefix == "xml" {
		return nsXML, true
	}
	for ; s != nil; s = s.up {
		if s.prefix == prefix {
			return s.uri, true
		}
	}
	return "", prefix == ""
}

// isQName reports whether the attribute name (local) in space, on an
// element in elemSpace, holds a QName.
func isQName(elemSpace, space, name string) bool {
	if space == nsXSI {
		return name == "type"
	}
	return space == "" && qnameAttrs[elemSpace][name]
}

// resolveQNames writes each QName of a value (one, or a list separated by
// white space) as {namespace}local; a prefix nothing binds is left as
// written.
func resolveQNames(v string, scope *nsScope) string {
	names := strings.Fields(v)
	for k, q := range names {
		prefix, local, ok := strings.Cut(q, ":")
		if !ok {
			prefix, local = "", q
		}
		if uri, bound := scope.lookup(prefix); bound {
			names[k] = "{" + uri + "}" + local
		}
	}
	return strings.Join(names, " ")
}
