package mockserver

import (
	"slices"

	"github.com/atmkit/atmkit/asmx"
)

// Namespaces and prefixes of a compiled shape's elements, bound and
// declared as .NET's XmlTextWriter binds and declares them.

// madePrefix is a prefix bound to a namespace on an element.
type madePrefix struct{ ns, prefix string }

// lookup returns the index in c.prefixes of the binding of prefix in
// scope (XmlTextWriter's LookupNamespace), or -1.
func (c *compiler) lookup(prefix string) int {
	for i := len(c.prefixes) - 1; i >= 0; i-- {
		if c.prefixes[i].prefix == prefix {
			return i
		}
	}
	return -1
}

// prefixFor returns the prefix in scope for ns, if any (XmlTextWriter's
// FindPrefix: the innermost binding to ns not hidden by another binding
// of its prefix).
func (c *compiler) prefixFor(ns string) (string, bool) {
	for i := len(c.prefixes) - 1; i >= 0; i-- {
		if p := c.prefixes[i]; p.ns == ns && c.lookup(p.prefix) == i {
			return p.prefix, true
		}
	}
	return "", false
}

// bindElement binds prefix to ns for an element written with it (none
// for an element in the default namespace), as XmlTextWriter's
// WriteStartElement does: a prefix bound to ns in scope is reused, else
// it is bound on this element, to be declared at the end of its start
// tag. It returns the element's qualified name.
func (c *compiler) bindElement(prefix, name, ns string) string {
	if prefix == "" {
		return name
	}
	if i := c.lookup(prefix); i < 0 || c.prefixes[i].ns != ns {
		c.prefixes = append(c.prefixes, madePrefix{ns, prefix})
	}
	return prefix + ":" + name
}

// elementPrefix is the prefix an element in ns is written with, given
// the prefix its field says (a node's; none for a typed result's). A
// typed result's elements are written by XmlSerializer with
// XmlWriter.WriteStartElement(null, name, ns) (XmlSerializationWriter's
// WriteStartElement and WriteElementString), and XmlTextWriter, given no
// prefix, writes the element with the prefix in scope for ns
// (FindPrefix: one made up for an attribute in ns on this or an enclosing
// element) before it declares ns as the default namespace; a node's
// element given none is written by XmlElement.WriteTo with the prefix ""
// (its own), which declares the default namespace.
func (c *compiler) elementPrefix(prefix, ns string) string {
	if prefix != "" || !c.typed || ns == "" {
		return prefix
	}
	if p, ok := c.prefixFor(ns); ok {
		return p
	}
	return ""
}

// declarations writes the declarations of the prefixes bound since from
// (on the element being written), the last bound first, as XmlTextWriter
// writes them after the start tag's attributes.
func (c *compiler) declarations(from int) {
	for _, p := range slices.Backward(c.prefixes[from:]) {
		c.bytes(" xmlns:" + p.prefix + `="` + string(asmx.AppendAttr(nil, p.ns)) + `"`)
	}
}

// childInScope is the default namespace an element's children see: its
// own namespace, declared as the default, unless it is written with a
// prefix (then the enclosing element's, inScope).
func childInScope(prefix, ns, inScope string) string {
	if prefix != "" {
		return inScope
	}
	return ns
}

// defaultDecl is the default namespace declaration of an element in ns
// written with prefix (none for a prefixed one) where inScope is.
func defaultDecl(prefix, ns, inScope string) string {
	if prefix != "" {
		return ""
	}
	return xmlnsAttr(ns, inScope)
}

// xmlnsAttr is the default namespace declaration an element in ns needs
// where the default namespace is inScope.
func xmlnsAttr(ns, inScope string) string {
	if ns == inScope {
		return ""
	}
	return ` xmlns="` + string(asmx.AppendAttr(nil, ns)) + `"`
}
