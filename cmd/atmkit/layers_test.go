package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests in this file keep the module's layout as its packages are
// meant to be: imports run one way, from cmd/atmkit down to the libraries
// (mockserver, cassettes, conformance, deviate, shape, asmx, fixtures) and
// from the libraries down to internal/, never back up and never in a
// circle; and no source file grows past what a reader takes in. They read
// the packages as the go command lists them. Only the packages' own
// imports count: a test file may import what Go allows it to (the tests
// of mockserver run cassettes' recorder against the mock).

// The limits on source files, tests aside.
const (
	maxFileLines = 700   // any .go file
	maxMainLines = 1_500 // the files of a package main, together
)

// listedPackage is what go list tells of one of the module's packages.
type listedPackage struct {
	ImportPath     string
	Name           string
	Dir            string
	Imports        []string
	GoFiles        []string
	CgoFiles       []string
	IgnoredGoFiles []string // other build tags' files (race.go, norace.go) and test files
	Module         *struct{ Path string }
}

// sourceFiles returns the package's non-test .go files, whatever their
// build tags.
func (p listedPackage) sourceFiles() []string {
	var out []string
	for _, f := range slices.Concat(p.GoFiles, p.CgoFiles, p.IgnoredGoFiles) {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			out = append(out, filepath.Join(p.Dir, f))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// listPackages runs go list once for the tests of this file and returns
// the module's packages.
var listPackages = sync.OnceValues(func() ([]listedPackage, error) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New("go list -json ./...: " + err.Error() + "\n" + stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, errors.New("go list -json ./...: " + err.Error())
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 || pkgs[0].Module == nil {
		return nil, errors.New("go list -json ./...: no package of a module")
	}
	return pkgs, nil
})

// modulePackages returns the module's path and its packages.
func modulePackages(t *testing.T) (string, []listedPackage) {
	t.Helper()
	pkgs, err := listPackages()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs[0].Module.Path, pkgs
}

// relPath is an import path of the module relative to it ("" for its root),
// ok false for a path outside the module.
func relPath(module, importPath string) (rel string, ok bool) {
	if importPath == module {
		return "", true
	}
	rel, ok = strings.CutPrefix(importPath, module+"/")
	return rel, ok
}

// folder is the top-level folder a package of the module belongs to: its
// first path element, and for cmd/NAME the command with what lies under
// it (cmd/atmkit/internal/cli is cmd/atmkit).
func folder(rel string) string {
	parts := strings.SplitN(rel, "/", 3)
	if parts[0] == "cmd" && len(parts) > 1 {
		return "cmd/" + parts[1]
	}
	return parts[0]
}

// TestLayersInternalImportsOnlyInternal: a package under the top-level
// internal/ imports the standard library, third-party modules and other
// packages under internal/, none of the packages above it.
func TestLayersInternalImportsOnlyInternal(t *testing.T) {
	t.Parallel()
	module, pkgs := modulePackages(t)
	checked := 0
	for _, p := range pkgs {
		rel, _ := relPath(module, p.ImportPath)
		if folder(rel) != "internal" {
			continue
		}
		checked++
		for _, imp := range p.Imports {
			if r, ok := relPath(module, imp); ok && folder(r) != "internal" {
				t.Errorf("%s imports %s: a package under internal/ imports only the standard library, third-party modules and other packages under internal/", rel, r)
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list shows no package under internal/")
	}
}

// TestLayersFoldersImportWithoutCycles: between the module's top-level
// folders (cmd/atmkit with all under it counting as one), imports form no
// circle.
func TestLayersFoldersImportWithoutCycles(t *testing.T) {
	t.Parallel()
	module, pkgs := modulePackages(t)
	edges := map[string][]string{} // folder -> folders it imports, each once
	why := map[[2]string]string{}  // an import that makes each edge, for the message
	for _, p := range pkgs {
		rel, _ := relPath(module, p.ImportPath)
		from := folder(rel)
		for _, imp := range p.Imports {
			r, ok := relPath(module, imp)
			if !ok || folder(r) == from {
				continue
			}
			to := folder(r)
			if _, seen := why[[2]string{from, to}]; !seen {
				why[[2]string{from, to}] = rel + " imports " + r
				edges[from] = append(edges[from], to)
			}
		}
	}
	if cycle := findCycle(edges); cycle != nil {
		var steps []string
		for i := 0; i+1 < len(cycle); i++ {
			steps = append(steps, why[[2]string{cycle[i], cycle[i+1]}])
		}
		t.Errorf("the folders import in a circle, %s:\n  %s", strings.Join(cycle, " -> "), strings.Join(steps, "\n  "))
	}
}

// findCycle returns a circle of the graph (its first node repeated at its
// end), or nil when there is none. The nodes are visited in sorted order,
// so the circle reported is the same from one run to the next.
func findCycle(edges map[string][]string) []string {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = onPath
		path = append(path, n)
		next := slices.Clone(edges[n])
		slices.Sort(next)
		for _, m := range next {
			switch state[m] {
			case onPath:
				at := slices.Index(path, m)
				return append(slices.Clone(path[at:]), m)
			case unvisited:
				if c := visit(m); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return nil
	}
	var nodes []string
	for n := range edges {
		nodes = append(nodes, n)
	}
	slices.Sort(nodes)
	for _, n := range nodes {
		if state[n] == unvisited {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}

// TestFindCycle: findCycle finds a circle where there is one, and none in
// a graph with shared descendants.
func TestFindCycle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		edges map[string][]string
		want  string
	}{
		{map[string][]string{"cmd/atmkit": {"mockserver", "asmx"}, "mockserver": {"asmx", "internal"}, "asmx": {"internal"}}, ""},
		{map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}}, "a b c a"},
		{map[string][]string{"cmd/atmkit": {"mockserver"}, "mockserver": {"internal"}, "internal": {"mockserver"}}, "mockserver internal mockserver"},
	} {
		if got := strings.Join(findCycle(tc.edges), " "); got != tc.want {
			t.Errorf("findCycle(%v): got %q, want %q", tc.edges, got, tc.want)
		}
	}
}

// TestFileLengths: no non-test .go file of the module is over 700 lines,
// and the files of a package main (those directly in cmd/atmkit) are not
// over 1,500 lines together: what grows past that is split by what its
// parts do, or moves under cmd/atmkit/internal.
func TestFileLengths(t *testing.T) {
	t.Parallel()
	module, pkgs := modulePackages(t)
	mains := 0
	for _, p := range pkgs {
		rel, _ := relPath(module, p.ImportPath)
		total := 0
		for _, f := range p.sourceFiles() {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			n := lineCount(data)
			total += n
			if n > maxFileLines {
				t.Errorf("%s: %d lines, over %d: split it by what its parts do", path.Join(rel, filepath.Base(f)), n, maxFileLines)
			}
		}
		if p.Name == "main" {
			mains++
			if total > maxMainLines {
				t.Errorf("package main in %s: %d lines in its .go files, over %d: move what is not the command's own under %s/internal", rel, total, maxMainLines, rel)
			}
		}
	}
	if mains == 0 {
		t.Fatal("go list shows no package main")
	}
}

// lineCount counts lines as wc -l does, and a last line without a newline.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}
