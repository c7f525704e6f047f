package mocktest

import (
	"regexp"
	"slices"
	"strings"
)

var (
	startTag  = regexp.MustCompile(`<[^?!/>][^>]*>`)
	attrValue = regexp.MustCompile(`( [^ =]+)="[^"]*"`)
)

// StartTags lists the distinct start tags of an XML answer, sorted, one a
// line, with their attributes' values left out (namespace declarations
// kept whole) and an empty element's tag written as a start tag: how the
// answer's elements and attributes are named, prefixed and declared,
// which Structure (namespace URIs and local names) does not say. Two
// answers of one node result written with the same prefixes, declared on
// the same elements, list the same tags whatever their data.
func StartTags(body []byte) string {
	var out []string
	for _, tag := range startTag.FindAllString(string(body), -1) {
		tag = strings.TrimSuffix(strings.TrimSuffix(tag, "/>"), ">")
		tag = strings.TrimSpace(attrValue.ReplaceAllStringFunc(tag, func(a string) string {
			if strings.HasPrefix(a, " xmlns") {
				return a
			}
			return a[:strings.IndexByte(a, '=')] + `=""`
		})) + ">"
		if !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
