package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/atmkit/atmkit/internal/redact"
)

// A config file (--config FILE) is YAML whose keys are a command's flag
// names, with the same values the flags take:
//
//	addr: 127.0.0.1:9090
//	key: [k1, k2]          # list flags take a list (or one value); "keys" also works
//	log-format: json
//	journal-size: 500
//	fault:                 # "faults" also works; the JSON fields, or the --fault text
//	  - {operation: ReturnProvinces, binding: soap12, delay: 300ms}
//	  - op=ReturnInstitutions,status=503,times=1
//
// Underscores in keys are read as dashes (max_body is max-body). A setting
// applies only when neither the command line nor an ATMKIT_* variable gave
// the flag: flags > environment > config file > defaults.

// configAliases maps plural config keys to their flag names.
var configAliases = map[string]string{"keys": "key", "faults": "fault", "headers": "header"}

// maxConfig is the most read of a config file, in bytes: one is a few
// hundred.
const maxConfig = 1 << 20

// readConfig reads the config file path, no more than maxConfig bytes and
// one: /dev/zero is refused having read that much, not read until memory
// runs out; a pipe (<(…)) is read. A directory is named as one.
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("a directory; want a YAML file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	switch {
	case err != nil:
		return nil, err
	case len(data) > maxConfig:
		return nil, fmt.Errorf("over %d MiB, larger than any config file: is it the right file?", maxConfig>>20)
	}
	return data, nil
}

// ApplyConfig sets every flag of fs that path names and that was set neither
// on the command line nor through the environment. envAliases are the extra
// variable names of Parse.
func (e *Env) ApplyConfig(fset *flag.FlagSet, path string, envAliases map[string]string) error {
	cmd := fset.Name()
	var data []byte
	var err error
	if path == "-" { // a config a CI step makes: ... | atmkit serve --config -
		var problem string
		if data, problem = e.readStdin("config", maxConfig); problem != "" {
			return e.BadSetting(fset, "config", problem)
		}
		switch {
		case len(data) > maxConfig:
			return e.BadSetting(fset, "config", fmt.Sprintf("over %d MiB on standard input, larger than any config file: is it the right input?", maxConfig>>20))
		case len(bytes.TrimSpace(data)) == 0: // docker run without -i passes none on
			return e.BadSetting(fset, "config", "standard input is empty: pipe the settings in (docker run passes standard input on with -i only)")
		}
		path = ShownInput(path) // as the messages name it
	} else {
		data, err = readConfig(path)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return e.BadSetting(fset, "config", "the config file does not exist")
	case errors.Is(err, fs.ErrPermission): // a mount of another user's
		return e.BadSetting(fset, "config", UnreadableProblem(err, path))
	case err != nil: // a wrong setting too: a directory, a device
		return e.BadSetting(fset, "config", err.Error())
	}
	var doc yaml.Node // the same file as written: how a fault spells its integers
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Usagef(cmd, "config file %s: %v", path, err)
	}
	if what := notSettings(&doc); what != "" {
		// Said without its content: a file named by mistake may be a
		// key's (yaml.v3's own error quotes a text's first characters).
		return e.BadSetting(fset, "config", "holds "+what+", not settings: want a YAML mapping, one setting a line (key: value)")
	}
	var settings map[string]any
	if err := yaml.Unmarshal(data, &settings); err != nil {
		return Usagef(cmd, "config file %s: %v", path, err)
	}
	origin := e.origins(fset)
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	// The secrets first (keys, admin-token, headers), then the others in
	// order: a refusal of another setting may echo one holding a key (a
	// fault's text), which the command masks only once it holds the keys.
	secret := func(k string) bool {
		name := strings.ReplaceAll(strings.TrimSpace(k), "_", "-")
		if a, ok := configAliases[name]; ok {
			name = a
		}
		return secretFlags[name]
	}
	slices.SortFunc(keys, func(a, b string) int {
		if sa, sb := secret(a), secret(b); sa != sb {
			if sa {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	seen := map[string]string{}
	for _, key := range keys {
		name := strings.ReplaceAll(strings.TrimSpace(key), "_", "-")
		if a, ok := configAliases[name]; ok {
			name = a
		}
		f := fset.Lookup(name)
		if f == nil || name == "config" {
			return Usagef(cmd, "config file %s: unknown setting %q", path, key)
		}
		if prev, dup := seen[name]; dup {
			return Usagef(cmd, "config file %s: %q and %q set the same flag", path, prev, key)
		}
		seen[name] = key
		if origin[name] != "" || e.Getenv(CommandEnvName(fset.Name(), name)) != "" || (envAliases[name] != "" && e.Getenv(envAliases[name]) != "") {
			continue
		}
		origin[name] = fmt.Sprintf("%s in config file %s", key, path)
		if _, ok := f.Value.(*Faults); ok {
			if bad, ok := nonJSONNumber(settingNode(&doc, key)); ok {
				what, want := "an integer", "plain decimal digits, with a minus at most"
				if !bad.integer {
					what, want = "a number", "decimal digits with a minus, a fraction and an exponent at most, such as 0.25"
				}
				return Usagef(cmd, "config file %s: %s%s: %s: %s is not %s as JSON writes one, which the admin API refuses (YAML reads it as %s); want %s (--%s)",
					path, key, bad.fault, bad.field, quoteValue(bad.spelling), what, bad.read, want, name)
			}
		}
		if err := setFromConfig(f, settings[key], settingNode(&doc, key)); err != nil {
			v := flowText(settings[key])
			if n := unalias(settingNode(&doc, key)); n != nil && n.Kind == yaml.ScalarNode {
				v = n.Value // as written (grace: 0042, not 34)
			}
			if secretFlags[name] {
				v = redact.Key(v)
			}
			problem := err.Error()
			var se *setError
			if errors.As(err, &se) {
				problem = valueProblem(f, se.err)
			}
			return Usagef(cmd, "config file %s: %s: %s: %s (--%s)", path, key, quoteValue(v), problem, name)
		}
	}
	return nil
}

// setFromConfig sets flag f from a YAML value v, written as node n (nil
// when not known): a list for repeatable flags, a scalar for the others;
// a mapping (a fault) is passed on as JSON. A scalar is taken as written,
// as the flag and its variable take it, not as YAML reads it: key 0042 is
// no octal 34, admin-token 1e3 no float 1000, a date no timestamp.
func setFromConfig(f *flag.Flag, v any, n *yaml.Node) error {
	list, isList := v.([]any)
	repeatable := false
	switch f.Value.(type) {
	case *List, *Faults, *Headers:
		repeatable = true
	}
	if !isList {
		list = []any{v}
	} else if !repeatable {
		return errors.New("a list, but the flag takes one value")
	}
	n = unalias(n)
	for i, item := range list {
		written := n // the item's node, for its text as written
		if isList {
			written = nil
			if n != nil && n.Kind == yaml.SequenceNode && i < len(n.Content) {
				written = unalias(n.Content[i])
			}
		}
		var s string
		switch x := item.(type) {
		case nil:
			if isList {
				// "- " with nothing after it: a line left unfinished,
				// which was skipped without a word (a fault not set).
				return fmt.Errorf("item %d of the list is empty", i+1)
			}
			continue // "fault:" with no value: not set
		case string:
			s = x
		case map[string]any, map[any]any:
			if _, ok := f.Value.(*Faults); !ok {
				return errors.New("a mapping, but the flag takes a plain value")
			}
			v, err := jsonValue(x, "")
			if err != nil {
				return &setError{err}
			}
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			s = string(b)
		case []any:
			return errors.New("a nested list")
		default:
			s = fmt.Sprint(x)
		}
		if written != nil && written.Kind == yaml.ScalarNode {
			s = written.Value
		}
		if err := f.Value.Set(s); err != nil {
			return &setError{err}
		}
	}
	return nil
}

// setError is an error of a flag's Set, as opposed to a value of the wrong
// YAML shape.
type setError struct{ err error }

func (e *setError) Error() string { return e.err.Error() }

// jsonValue is v, a YAML value, as JSON can hold it: a mapping with keys
// that are no strings (YAML's {1: 2}) gets them as text, so the fault
// names them as unknown fields; a number that is not finite (.nan, .inf)
// is refused, naming its field (path, dotted), in YAML's words. A YAML
// float stays one in JSON (floatNumber), so that an integer field
// refuses times: 1e3 as the admin API refuses {"times":1e3}.
func jsonValue(v any, path string) (any, error) {
	field := func(k any) string {
		if path == "" {
			return fmt.Sprint(k)
		}
		return path + "." + fmt.Sprint(k)
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			j, err := jsonValue(e, field(k))
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			j, err := jsonValue(e, field(k))
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = j
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, err := jsonValue(e, path)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("fault %s: %s is not a number; want a finite number", path, flowText(x))
		}
		return floatNumber(x), nil
	}
	return v, nil
}

// floatNumber writes a YAML float as a JSON number that reads as a float:
// with a fraction or an exponent, as YAML resolved it (1e3 and 1000.0
// are floats to YAML, 1000 an integer), never as an integer (1000).
func floatNumber(x float64) json.Number {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return json.Number(s)
}

// flowText writes a YAML value as YAML's flow style would
// ([{status: 500, probability: .nan}]), for an error to quote: not as Go
// prints its maps (map[status:500]).
func flowText(v any) string {
	switch x := v.(type) {
	case float64:
		switch {
		case math.IsNaN(x):
			return ".nan"
		case math.IsInf(x, 1):
			return ".inf"
		case math.IsInf(x, -1):
			return "-.inf"
		}
		return floatNumber(x).String() // 1000.0, a float, as YAML read 1e3
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = flowText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return flowMapping(x)
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = e
		}
		return flowMapping(m)
	case nil:
		return "~"
	case string:
		if x == "" {
			return `""` // as YAML writes it: nothing would be a null
		}
	}
	return fmt.Sprint(v)
}

// flowMapping is flowText of a mapping, its keys in order.
func flowMapping(m map[string]any) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + flowText(m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// settingNode is the value of setting key in doc, a config file read as
// YAML nodes; nil if it has none.
func settingNode(doc *yaml.Node, key string) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			return top.Content[i+1]
		}
	}
	return nil
}

// yamlNumber is a number a config file's fault writes in a way JSON
// does not.
type yamlNumber struct {
	fault    string // ": fault 2" (of a list), or "" (the value is one fault)
	field    string // its dotted path: times, dribble.chunks
	spelling string // as written: 0x10, +5, 1_000, 0o17, 017, .5, +0.5
	read     string // as YAML reads it, for the hint: 16, 0.5
	integer  bool   // YAML reads an integer
}

// jsonInteger is an integer as JSON writes it, jsonNumber any number:
// how a fault's numbers are spelled wherever it is given.
var (
	jsonInteger = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)$`)
	jsonNumber  = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$`)
)

// nonJSONNumber finds, in v, a config file's fault setting (a mapping,
// or a list of mappings and text forms), the first number YAML reads but
// JSON refuses: the integers 0x10, 0o17, 017, 0b101, +5, 1_000, the
// floats .5, +0.5. A fault's mapping is its JSON form, so the file
// refuses what the admin API refuses ({"times":0x10} is no JSON), as it
// refuses times: 1e3 ("want an integer, not a number"); YAML would read
// 16. The text form (a string) spells its numbers by the same rule, and
// says so itself (jsonNumberValue). A float that is not finite (.nan,
// .inf) is left to the fault's own refusal, which says so.
func nonJSONNumber(v *yaml.Node) (yamlNumber, bool) {
	v = unalias(v)
	if v == nil {
		return yamlNumber{}, false
	}
	if v.Kind == yaml.MappingNode {
		return findNonJSONNumber(v, "", "", 0)
	}
	if v.Kind != yaml.SequenceNode {
		return yamlNumber{}, false
	}
	for i, item := range v.Content {
		if item = unalias(item); item != nil && item.Kind == yaml.MappingNode {
			if bad, ok := findNonJSONNumber(item, fmt.Sprintf(": fault %d", i+1), "", 0); ok {
				return bad, true
			}
		}
	}
	return yamlNumber{}, false
}

// faultNumberFields are the dotted paths of a fault's fields that JSON
// writes as numbers, whose spelling nonJSONNumber checks.
var faultNumberFields = map[string]bool{"status": true, "times": true, "seed": true, "skip": true, "probability": true,
	"dribble.chunks": true, "reset.afterBytes": true, "delayDistribution.sigma": true}

// findNonJSONNumber is nonJSONNumber within n, at the dotted field path
// of fault; depth bounds the walk (aliases may loop).
func findNonJSONNumber(n *yaml.Node, fault, path string, depth int) (yamlNumber, bool) {
	if n = unalias(n); n == nil || depth > 32 {
		return yamlNumber{}, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		switch {
		case !faultNumberFields[path]:
			// A text field (id: 017): the fault's own check says it wants
			// a string, as the admin API does; "plain decimal digits" would
			// send the writer to id: 17, refused in turn.
		case n.ShortTag() == "!!int" && !jsonInteger.MatchString(n.Value):
			var x int64
			if err := n.Decode(&x); err != nil {
				return yamlNumber{}, false // no int64: JSON refuses it for that (the fault's own error)
			}
			return yamlNumber{fault: fault, field: path, spelling: n.Value, read: strconv.FormatInt(x, 10), integer: true}, true
		case n.ShortTag() == "!!float" && !jsonNumber.MatchString(n.Value):
			var x float64
			if err := n.Decode(&x); err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return yamlNumber{}, false
			}
			return yamlNumber{fault: fault, field: path, spelling: n.Value, read: strconv.FormatFloat(x, 'g', -1, 64)}, true
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if bad, ok := findNonJSONNumber(c, fault, path, depth+1); ok {
				return bad, true
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, field := n.Content[i], path
			if k.ShortTag() != "!!merge" { // <<: *base merges its fields here
				field = strings.TrimPrefix(path+"."+k.Value, ".")
			}
			if bad, ok := findNonJSONNumber(n.Content[i+1], fault, field, depth+1); ok {
				return bad, true
			}
		}
	}
	return yamlNumber{}, false
}

// unalias is the node an alias (*name) stands for; n otherwise.
func unalias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 32; i++ {
		n = n.Alias
	}
	return n
}

// notSettings says what a config file's document holds when it is no
// mapping of settings ("a text", "a list"), without its content; "" for a
// mapping, an empty file or a null.
func notSettings(doc *yaml.Node) string {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return ""
	}
	n := doc.Content[0]
	for depth := 0; n.Kind == yaml.AliasNode && n.Alias != nil && depth < 8; depth++ {
		n = n.Alias
	}
	switch {
	case n.Kind == yaml.MappingNode, n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		return ""
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.ScalarNode:
		return "a text"
	}
	return "no mapping"
}
