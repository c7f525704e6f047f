package shape

import "strings"

// This file checks what only a node result's elements and attributes
// say, as its deployment built them: their prefixes (Result.Prefix,
// Field.Prefix) and the end tag of an empty value (Field.FullEnd).

// badPrefix reports whether p cannot be a namespace prefix: not an NCName,
// or one XML reserves (xml, xmlns: .NET's XmlTextWriter refuses xml for
// another namespace, and xmlns declares namespaces). DataSet and table
// prefixes follow the same rule.
func badPrefix(p string) bool {
	return !isNCName(p) || strings.Contains(p, ":") || strings.HasPrefix(strings.ToLower(p), "xml")
}

// checkPrefixes checks r's prefixes: on a node result only, each a
// namespace prefix, on an element or attribute in a namespace, and no
// prefix naming two namespaces on one element.
func (c *checker) checkPrefixes(r *Result, where string) {
	if r.Layout != Node {
		if r.Prefix != "" {
			c.addf(r.lineOfPrefix(), where+".prefix", "only a node result has a prefix of its own (a DataSet's is dataset.prefix)")
		}
		walkFields(r.Fields, true, func(f *Field) bool {
			if f.Prefix != "" {
				c.addf(f.lineOf("prefix"), path(where, "…", f.label())+".prefix", "only a node result's elements and attributes have prefixes: XmlSerializer chooses a typed result's")
			}
			return true
		})
		return
	}
	// The node's namespace, with a stand-in for the service's: only
	// whether a level is in a namespace matters here.
	const service = "service:"
	ns := r.Namespace.Resolve(service, "")
	if r.Prefix != "" {
		switch {
		case badPrefix(r.Prefix):
			c.addf(r.lineOfPrefix(), where+".prefix", "prefix %q is not a namespace prefix", r.Prefix)
		case ns == "":
			c.addf(r.lineOfPrefix(), where+".prefix", "a prefix is for a node in a namespace (namespace:)")
		}
	}
	c.checkFieldPrefixes(r.Fields, r.Prefix, ns, service, where)
}

// checkFieldPrefixes checks the prefixes of fields, the children of an
// element written with prefix (or none) whose children inherit namespace
// inherit.
func (c *checker) checkFieldPrefixes(fields []*Field, prefix, inherit, service, where string) {
	bound := map[string]string{} // prefix → namespace, on the enclosing element
	if prefix != "" {
		bound[prefix] = inherit
	}
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		if f.Attribute == "" || f.Prefix == "" {
			continue
		}
		ns := f.Namespace.Resolve(service, "")
		switch {
		case badPrefix(f.Prefix):
			c.addf(f.lineOf("prefix"), at+".prefix", "prefix %q is not a namespace prefix", f.Prefix)
		case ns == "":
			c.addf(f.lineOf("prefix"), at+".prefix", "a prefix is for an attribute in a namespace (namespace:)")
		case bound[f.Prefix] != "" && bound[f.Prefix] != ns:
			c.addf(f.lineOf("prefix"), at+".prefix", "prefix %q names two namespaces on one element (%s and %s): give each its own", f.Prefix, bound[f.Prefix], ns)
		default:
			bound[f.Prefix] = ns
		}
	}
	for _, f := range fields {
		if f == nil || f.Attribute != "" {
			continue
		}
		at := path(where, f.label())
		if f.Text || f.Element == "" {
			if f.Prefix != "" {
				c.addf(f.lineOf("prefix"), at+".prefix", "a prefix is for an element or an attribute in a namespace")
			}
			if f.Item != nil {
				c.checkElementPrefix(f.Item, inherit, service, path(at, f.Item.label()))
			}
			continue
		}
		ns := c.checkElementPrefix(f, inherit, service, at)
		if f.Item != nil {
			c.checkElementPrefix(f.Item, ns, service, path(at, f.Item.label()))
		}
	}
}

// checkElementPrefix checks the prefix of element f, which inherits
// namespace inherit, and of its fields; it returns f's namespace.
func (c *checker) checkElementPrefix(f *Field, inherit, service, at string) string {
	ns := f.Namespace.Resolve(service, inherit)
	if f.Prefix != "" {
		switch {
		case badPrefix(f.Prefix):
			c.addf(f.lineOf("prefix"), at+".prefix", "prefix %q is not a namespace prefix", f.Prefix)
		case ns == "":
			c.addf(f.lineOf("prefix"), at+".prefix", "a prefix is for an element in a namespace (namespace:)")
		}
	}
	c.checkFieldPrefixes(f.Fields, f.Prefix, f.ChildNamespace(service, ns), service, at)
	return ns
}

// lineOfPrefix is the line of the result's prefix in the shape file, else
// the result's.
func (r *Result) lineOfPrefix() int {
	if r.prefixLine > 0 {
		return r.prefixLine
	}
	return r.line
}

// checkFullEnds checks fullEnd on fields, of a node result (node) or not:
// a node's value written in an element, or as the text beside its
// attributes, may say it; XmlSerializer writes a typed result's empty
// string <Name /> whatever its code, and an attribute, a container or a
// list holds no text of its own.
func (c *checker) checkFullEnds(fields []*Field, node bool, where string) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		switch {
		case !f.FullEnd:
		case !node:
			c.addf(f.lineOf("fullEnd"), at+".fullEnd", "only a node result's values have fullEnd: XmlSerializer writes an empty string <Name />")
		case f.Attribute != "" || !f.IsLeaf() || f.Element == "" && !f.Text:
			c.addf(f.lineOf("fullEnd"), at+".fullEnd", "fullEnd is for a value written in an element or as its text, not an attribute, container or list")
		}
		c.checkFullEnds(f.Fields, node, at)
		if f.Item != nil {
			c.checkFullEnds([]*Field{f.Item}, node, at)
		}
	}
}
