package shape

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// MaxFileSize is the largest shape file read, in bytes: a shape is a few
// kilobytes (a DataSet's with its schema a few more).
const MaxFileSize = 4 << 20

// MaxFields is how many fields a shape file may describe, counting a YAML
// alias (*name) as many times as it is used: a service's results have a
// few dozen; a few aliases of aliases would otherwise make billions.
const MaxFields = 10000

// MaxDepth is how many levels of fields a result may nest (containers,
// lists and their items): far more than a service's result classes nest
// (the reference deployment's nest 4), few enough that a shape file
// nested thousands of levels deep (a generated or corrupted one) is
// refused at once instead of making answers, WSDLs and help pages of
// megabytes.
const MaxDepth = 64

// tooDeep reports the first field nested deeper than MaxDepth.
func tooDeep(s *Shape) (Problem, bool) {
	var found *Field
	var at string
	var walk func(fields []*Field, depth int, where string)
	walk = func(fields []*Field, depth int, where string) {
		for _, f := range fields {
			if f == nil || found != nil {
				continue
			}
			here := where + "/" + f.label()
			if depth > MaxDepth {
				found, at = f, here
				return
			}
			walk(f.Fields, depth+1, here)
			if f.Item != nil {
				walk([]*Field{f.Item}, depth+1, here)
			}
		}
	}
	for _, r := range s.Results {
		if r != nil && found == nil {
			walk(r.Fields, 1, "results."+r.Name)
		}
	}
	if found == nil {
		return Problem{}, false
	}
	return Problem{Line: found.line, Field: clipPath(at), Msg: fmt.Sprintf("fields nested more than %d levels deep: a result nests a few", MaxDepth)}, true
}

// isXMLName reports whether s (with no colon) is an XML name as XML 1.0's
// fourth edition defines them, which .NET's and Mono's XmlReader and
// XmlConvert.VerifyNCName hold names to, and Go's encoding/xml alike
// (Count×, ·x, a name starting with a combining mark or made of
// full-width letters is none, 名前 is one): the name an element of that
// name is read with.
func isXMLName(s string) bool {
	tok, err := xml.NewDecoder(strings.NewReader("<" + s + "/>")).Token()
	se, ok := tok.(xml.StartElement)
	return err == nil && ok && se.Name.Space == "" && se.Name.Local == s && len(se.Attr) == 0
}
