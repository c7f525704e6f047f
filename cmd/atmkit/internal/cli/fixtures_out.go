package cli

import (
	"bytes"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/fixtures"
)

// fixturesFile is one file of a data set as fixtures generate writes it:
// its name, what it holds (for a refusal), whether it is a JSON array (or
// JSON lines, one record a line), and a key only its records have.
type fixturesFile struct {
	name, what string
	array      bool
	key        *regexp.Regexp
}

// fixturesFiles are the files of a data set, in the order generate
// writes them.
var fixturesFiles = func() []fixturesFile {
	types := []reflect.Type{reflect.TypeFor[fixtures.Province](), reflect.TypeFor[fixtures.Institution](),
		reflect.TypeFor[fixtures.City](), reflect.TypeFor[fixtures.ATM]()}
	files := []fixturesFile{
		{name: fixtures.ProvincesFile, what: "the provinces of a data set", array: true},
		{name: fixtures.InstitutionsFile, what: "the institutions of a data set", array: true},
		{name: fixtures.CitiesFile, what: "the cities of a data set", array: true},
		{name: fixtures.ATMsFile, what: "the ATMs of a data set"},
	}
	for i, t := range types {
		var own []string // the keys of its records no other file's records have
		for _, k := range jsonKeys(t) {
			if !slices.ContainsFunc(slices.Delete(slices.Clone(types), i, i+1), func(o reflect.Type) bool { return slices.Contains(jsonKeys(o), k) }) {
				own = append(own, regexp.QuoteMeta(k))
			}
		}
		files[i].key = regexp.MustCompile(`"(` + strings.Join(own, "|") + `)"\s*:`)
	}
	return files
}()

// jsonKeys are the JSON names of the fields of struct type t.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// holds reports whether data, the head of a file, holds f's records: a
// JSON array, empty or with a key of f's records, or JSON lines whose
// first has one. A record need not be valid (fixtures check names its
// problems): a data set being fixed is replaced.
func (f fixturesFile) holds(data []byte) bool {
	t := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if !f.array {
		first, _, _ := bytes.Cut(t, []byte("\n"))
		return bytes.HasPrefix(first, []byte("{")) && f.key.Match(first)
	}
	rest, ok := bytes.CutPrefix(t, []byte("["))
	return ok && (bytes.HasPrefix(bytes.TrimSpace(rest), []byte("]")) || f.key.Match(rest))
}

// CheckFixturesOut checks fixtures generate's --out dir: each file of a
// data set there can be replaced (CheckReplaceIn) and, when it holds
// anything, holds that file of a data set, as CheckOwnFile checks the
// other outputs: an atms.jsonl holding a log or a key, or a cities.json
// holding institutions, is not replaced.
func CheckFixturesOut(dir string) string {
	names := make([]string, len(fixturesFiles))
	for i, f := range fixturesFiles {
		names[i] = f.name
	}
	if p := CheckReplaceIn(dir, names...); p != "" {
		return p
	}
	for _, f := range fixturesFiles {
		holds := ownFileHolds(filepath.Join(dir, f.name), func(data []byte) string {
			if f.holds(data) {
				return ""
			}
			for _, o := range fixturesFiles {
				if o.holds(data) {
					return o.what
				}
			}
			return NotPEMHolds(data)
		})
		if holds != "" {
			return f.name + " in it exists and holds " + holds + ", not " + f.what + ": " + replacesOnlyItsKind + "directory"
		}
	}
	return ""
}
