package recorded

import (
	"fmt"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// heldKeys are the keys one interaction of a cassette file holds: its own
// (id, request, response) and those of its request and response.
type heldKeys struct {
	top, request, response map[string]bool
}

// layoutOf reads which keys each interaction of the cassette data holds,
// in the file's order; nil when data does not parse as a cassette.
//
// A rewrite keeps the layout per interaction, not per file: it needs no
// knowledge of which go-vcr wrote the file (v4 leaves out empty fields, v3
// writes them all, a hand edit may drop one), and a cassette whose
// interactions differ (one appended by another tool) keeps each as it was.
func layoutOf(data []byte) []heldKeys {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	items := interactionsOf(&doc)
	if items == nil {
		return nil
	}
	held := make([]heldKeys, len(items.Content))
	for j, it := range items.Content {
		held[j] = heldKeys{top: keysOf(it), request: keysOf(valueOf(it, "request")), response: keysOf(valueOf(it, "response"))}
	}
	return held
}

// interactionsOf is the interactions sequence of a cassette document node.
func interactionsOf(doc *yaml.Node) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	if seq := valueOf(doc.Content[0], "interactions"); seq != nil && seq.Kind == yaml.SequenceNode {
		return seq
	}
	return nil
}

// valueOf is the value of key in the mapping m; nil when m is no mapping
// or holds no key.
func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value == key {
			return m.Content[k+1]
		}
	}
	return nil
}

// keysOf is the set of keys of the mapping m; nil when m is no mapping.
func keysOf(m *yaml.Node) map[string]bool {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	keys := make(map[string]bool, len(m.Content)/2)
	for k := 0; k+1 < len(m.Content); k += 2 {
		keys[m.Content[k].Value] = true
	}
	return keys
}

// marshalKeeping is marshal that keeps the layout held (layoutOf) of the
// file the interactions were read from, position by position: see
// keepLayout. Interactions past the layout's (none, from scrub and verify
// --update) are written whole.
func marshalKeeping(list []*cassette.Interaction, held []heldKeys) ([]byte, error) {
	items := make([][]byte, len(list))
	twice := Repeated(list)
	for j, i := range list {
		item, err := MarshalItem(i)
		if err != nil {
			return nil, fmt.Errorf("interaction %s: %w", Name(i.ID, j, twice[i.ID]), err)
		}
		if j < len(held) {
			item = keepLayout(item, i, held[j])
		}
		items[j] = item
	}
	return JoinItems(items), nil
}

// keepLayout leaves out of item (MarshalItem's encoding of i) each field
// the interaction of the file did not hold (h) while its value is empty (a
// value the file left out reads as that): go-vcr v4 writes transfer_encoding,
// trailer, remote_addr, request_uri, body, form and headers of a request,
// and transfer_encoding, trailer and uncompressed of an answer, only when
// they are not empty. A field that is no longer empty (a new answer's
// headers) is written. The item is kept as it is when h holds every field,
// or when the shorter one would not read back as i.
func keepLayout(item []byte, i *cassette.Interaction, h heldKeys) []byte {
	if h.top == nil {
		return item
	}
	var doc yaml.Node
	if yaml.Unmarshal(append([]byte(itemsHead), item...), &doc) != nil {
		return item
	}
	items := interactionsOf(&doc)
	if items == nil || len(items.Content) != 1 {
		return item
	}
	it := items.Content[0]
	dropped := dropEmpty(valueOf(it, "request"), h.request) + dropEmpty(valueOf(it, "response"), h.response)
	if dropped == 0 {
		return item
	}
	out, err := marshalOne(&doc)
	if err != nil || !readsBack(out, i) {
		return item
	}
	return out
}

// dropEmpty removes from the mapping m each key not in held whose value is
// empty, and returns how many it removed. A nil held (the file's item had
// no such mapping) removes none.
func dropEmpty(m *yaml.Node, held map[string]bool) int {
	if m == nil || m.Kind != yaml.MappingNode || held == nil {
		return 0
	}
	n := 0
	kept := m.Content[:0]
	for k := 0; k+1 < len(m.Content); k += 2 {
		key, v := m.Content[k], m.Content[k+1]
		if !held[key.Value] && isEmpty(v) {
			n++
			continue
		}
		kept = append(kept, key, v)
	}
	m.Content = kept
	return n
}

// isEmpty reports whether v is a value go-vcr v4 leaves out (yaml's
// omitempty): an empty string, false, 0, null, or an empty list or map.
func isEmpty(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.SequenceNode, yaml.MappingNode:
		return len(v.Content) == 0
	case yaml.ScalarNode:
		switch v.ShortTag() {
		case "!!null":
			return true
		case "!!str", "!!binary":
			return v.Value == ""
		case "!!bool":
			return v.Value == "false"
		case "!!int":
			return v.Value == "0"
		}
	}
	return false
}
