package mockserver

import (
	"slices"

	"github.com/atmkit/atmkit/shape"
)

// The help pages' sample of a typed result, as ASMX's help generator
// writes one: the fields with their XSD types as placeholders, every list
// with two items.

// appendTypedSample appends the fields of typed result r at depth, with
// the default namespace inScope.
func appendTypedSample(p *pieces, r *shape.Result, ns, inScope string, depth int) {
	sampleFields(p, r.Fields, ns, r.ContentNamespace(ns), inScope, depth)
}

func sampleFields(p *pieces, fields []*shape.Field, service, fieldNS, inScope string, depth int) {
	for _, f := range fields {
		if f.Attribute != "" || f.Text {
			continue
		}
		ns := f.Namespace.Resolve(service, fieldNS)
		switch {
		case f.List != "":
			itemScope := inScope
			itemDepth := depth
			if f.Element != "" {
				p.t(indent(depth) + "<" + f.Element + xmlnsAttr(ns, inScope) + ">")
				itemScope, itemDepth = ns, depth+1
			}
			it := f.Item
			itemNS := it.Namespace.Resolve(service, ns)
			for range 2 {
				if len(it.Fields) == 0 {
					p.t(indent(itemDepth) + "<" + it.Element + xmlnsAttr(itemNS, itemScope) + ">").v(it.Type).t("</" + it.Element + ">")
					continue
				}
				sampleElement(p, it, it.Fields, service, itemNS, itemScope, itemDepth)
			}
			if f.Element != "" {
				p.t(indent(depth) + "</" + f.Element + ">")
			}
		case len(f.Fields) > 0:
			sampleElement(p, f, f.Fields, service, ns, inScope, depth)
		default:
			p.t(indent(depth) + "<" + f.Element + xmlnsAttr(ns, inScope) + ">").v(f.Type).t("</" + f.Element + ">")
		}
	}
}

// sampleElement appends an element with fields: its attributes with their
// types as placeholders, then its elements.
func sampleElement(p *pieces, f *shape.Field, fields []*shape.Field, service, ns, inScope string, depth int) {
	p.t(indent(depth) + "<" + f.Element)
	sampleAttributes(p, fields)
	p.t(xmlnsAttr(ns, inScope))
	if i := slices.IndexFunc(fields, func(a *shape.Field) bool { return a.Text }); i >= 0 {
		p.t(">").v(fields[i].Type).t("</" + f.Element + ">")
		return
	}
	if !slices.ContainsFunc(fields, func(a *shape.Field) bool { return a.Attribute == "" }) {
		p.t(" />")
		return
	}
	p.t(">")
	sampleFields(p, fields, service, f.ChildNamespace(service, ns), ns, depth+1)
	p.t(indent(depth) + "</" + f.Element + ">")
}

// sampleAttributes appends the attributes among fields with their types
// as placeholders.
func sampleAttributes(p *pieces, fields []*shape.Field) {
	for _, a := range fields {
		if a.Attribute != "" {
			p.t(" " + a.Attribute + `="`).v(a.Type).t(`"`)
		}
	}
}
