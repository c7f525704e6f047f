package asmx

import "strings"

// DocsKind is what a GET of an .asmx file asks for: the help pages, the
// WSDL, the discovery document or a schema.
type DocsKind int

// The documents a GET of an .asmx file asks for (ParseDocsQuery).
const (
	DocsHelp         DocsKind = iota + 1 // the operation list, or one operation's page with ?op=
	DocsWSDL                             // ?WSDL, any case
	DocsDisco                            // ?disco, any case
	DocsSchema                           // ?schema=ID, any case: a typed DataSet's schema
	DocsWSDLNotFound                     // ?wsdl=ID: an imported service description (wsdl1, ...); the mock's own WSDL imports none
)

// ParseDocsQuery reads the query of a GET of an .asmx file as ASMX does
// (DiscoveryServerProtocol): a key schema (any case, with a value, even an
// empty one) asks for the schema its value names, before anything else; a
// key wsdl with a value asks for the service description of that id, which
// only a service spanning namespaces has: its WSDL imports the others as
// ?wsdl=wsdl1, ?wsdl=wsdl2 (DiscoveryServerType), and one in one namespace
// has none; the values of the
// pairs without '=' (Request.QueryString[null], joined with commas) that
// are wsdl or disco, in any case (OrdinalIgnoreCase, as names: "dısco"
// too), ask for that document ("?wsdl&x=1" does, "?wsdl&disco" does
// not); anything else is the help page, for the
// operation op names. arg is the schema's id, the service description's
// (as ASMX looks it up, in a Hashtable: compared exactly, several values
// joined with commas), or the operation; hasOp says
// whether the query has an op at all (?op= is one, naming "").
func ParseDocsQuery(raw string) (kind DocsKind, arg string, hasOp bool) {
	if raw == "" {
		return DocsHelp, "", false
	}
	names := orderedValues(raw)
	get := func(name string) (string, bool) {
		if k := indexFold(names, name); k >= 0 {
			return strings.Join(names[k].values, ","), true
		}
		return "", false
	}
	bare := ""
	for _, n := range names {
		if n.null {
			bare = strings.Join(n.values, ",")
		}
	}
	if id, ok := get("schema"); ok {
		return DocsSchema, id, false
	}
	if id, ok := get("wsdl"); ok {
		return DocsWSDLNotFound, id, false
	}
	switch {
	case sameName(bare, "wsdl"): // string.Compare's OrdinalIgnoreCase
		return DocsWSDL, "", false
	case sameName(bare, "disco"):
		return DocsDisco, "", false
	}
	op, hasOp := get("op")
	return DocsHelp, op, hasOp
}
