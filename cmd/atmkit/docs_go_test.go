package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// goSample is a Go code block of the docs.
type goSample struct {
	where string // "docs/testing.md:42"
	src   string
}

// goSamples returns every ```go block of README.md and docs/*.md but the
// golden copies of files under docs/ci/.
func goSamples(t *testing.T) []goSample {
	t.Helper()
	var out []goSample
	for _, d := range userDocs(t) {
		blocks, _ := d.parse()
		for _, b := range blocks {
			// A block that is a golden copy of a file of another module
			// (docs/ci/go, with dependencies of its own) is compiled where
			// it lives; TestDocsSamples keeps the copy equal to it.
			if b.lang == "go" && !strings.HasPrefix(b.marker, "golden: docs/ci/") {
				out = append(out, goSample{where: fmt.Sprintf("%s:%d", d.path, b.line), src: strings.Join(b.lines, "\n") + "\n"})
			}
		}
	}
	return out
}

// fileLineRE finds a sample file's position in go vet's output.
var fileLineRE = regexp.MustCompile(`s\d+/sample(?:_test)?\.go:(\d+):\d+:`)

var packageClauseRE = regexp.MustCompile(`(?m)^package ([A-Za-z_][A-Za-z0-9_]*)\s*$`)

// sampleFile turns a sample into a Go file and names it: a sample with a
// package clause is a file as it is; one without is a test file but its
// first line (as a user copies it after their own package clause), so it
// gets "package sample_test". A file of a _test package, or that imports
// testing, is a _test.go file.
func sampleFile(src string) (name, file string) {
	pkg := "sample_test"
	if m := packageClauseRE.FindStringSubmatch(src); m != nil {
		pkg = m[1]
	} else {
		src = "package sample_test\n\n" + src
	}
	if strings.HasSuffix(pkg, "_test") || strings.Contains(src, `"testing"`) {
		return "sample_test.go", src
	}
	return "sample.go", src
}

// gofmtDiff says how src differs from its gofmt form, or "".
func gofmtDiff(src string) string {
	got, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Sprintf("does not parse: %v", err)
	}
	if string(got) == src {
		return ""
	}
	a, b := strings.Split(src, "\n"), strings.Split(string(got), "\n")
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			want := ""
			if i < len(b) {
				want = b[i]
			}
			return fmt.Sprintf("not gofmt-clean: line %d is %q, gofmt writes %q", i+1, a[i], want)
		}
	}
	return "not gofmt-clean"
}

// TestDocsGoSamples compiles every Go sample of README.md and docs/*.md as
// a user who copies it would: each in a package of a fresh module that
// requires github.com/atmkit/atmkit, replaced by this repository (no
// network: the module cache holds atmkit's requirements, as after go test
// ./... here), type-checked by go vet, and checks that each is gofmt-clean.
// A canary sample with a type error makes sure the compile step fails
// where it should.
func TestDocsGoSamples(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles the docs' samples with the go command")
	}
	samples := goSamples(t)
	if len(samples) < 5 {
		t.Fatalf("found %d Go samples in the docs, want more: is the parser broken?", len(samples))
	}
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	// go test puts the go command that runs the tests first on PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to compile the samples with")
	}
	dir := t.TempDir()
	// The module proxy is the environment's, as the reader's: on a fresh
	// machine the samples' module needs go.mod files of modules that
	// building atmkit never fetched (gopkg.in/check.v1, which yaml.v3
	// requires), and with GOPROXY=off a newcomer's first go test ./...
	// failed here.
	env := append(os.Environ(), "GOFLAGS=-mod=mod "+os.Getenv("GOFLAGS"), "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The module is made as docs/testing.md says, in its order: a module
	// of the app's own, then the commands of "Depending on atmkit" that
	// point it at a clone (this repository), before any test exists, as a
	// reader who follows the page from the top runs them; then the tests.
	// (-mod=mod fills in go.sum as the go mod tidy the page asks for once
	// the tests exist would.)
	run("mod", "init", "example.com/docsamples")
	for _, args := range cloneCommands(t, root) {
		run(args...)
	}
	if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	} else if !regexp.MustCompile(`(?m)^require github\.com/atmkit/atmkit `).Match(mod) {
		t.Fatalf("docs/testing.md: after the commands of \"Depending on atmkit\", before any test, go.mod requires no atmkit (go mod tidy drops a requirement no package imports yet), and go test says \"replaced but not required\":\n%s", mod)
	}
	where := map[string]string{} // package directory → sample
	added := map[string]int{}    // package directory → lines the wrapping added
	for i, s := range samples {
		if msg := gofmtDiff(s.src); msg != "" {
			t.Errorf("%s: the Go sample is %s", s.where, msg)
		}
		pkg := fmt.Sprintf("s%02d", i+1)
		name, file := sampleFile(s.src)
		write(filepath.Join(pkg, name), file)
		where[pkg], added[pkg] = s.where, strings.Count(file, "\n")-strings.Count(s.src, "\n")
	}
	// The canary: it must fail to compile, and only it.
	write(filepath.Join("canary", "sample_test.go"), "package sample_test\n\nimport \"github.com/atmkit/atmkit/mockserver\"\n\nvar _ int = mockserver.NoSuchName\n")

	cmd := exec.Command(goCmd, "vet", "./...")
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	text := out.String()
	if err == nil {
		t.Fatalf("go vet passed the canary, a sample that does not compile:\n%s", text)
	}
	if unreachableProxy(text) {
		msg := fmt.Sprintf("the samples' module needs modules that are not in the module cache, and the module proxy could not give them (go mod download in the repository fetches them):\n%s", text)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if !strings.Contains(text, "NoSuchName") {
		t.Errorf("go vet did not name the canary's error:\n%s", text)
	}
	// Every other error names a sample's directory: say which sample it is.
	failed := false
	for _, line := range strings.Split(text, "\n") {
		for pkg, w := range where {
			if strings.Contains(line, pkg+string(filepath.Separator)) || strings.HasSuffix(line, "/"+pkg) {
				// "s04/sample_test.go:16:5: …" → "line 14 of the sample: …"
				line = fileLineRE.ReplaceAllStringFunc(line, func(m string) string {
					n, _ := strconv.Atoi(fileLineRE.FindStringSubmatch(m)[1])
					return fmt.Sprintf("line %d of the sample:", n-added[pkg])
				})
				t.Errorf("%s: the Go sample does not compile: %s", w, line)
				failed = true
			}
		}
	}
	if !failed {
		// Errors other than the canary's that name no sample.
		for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
			if !strings.Contains(line, "canary") && !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
				t.Errorf("go vet of the samples: %s", line)
			}
		}
	}
}

// unreachableProxy reports whether the go command's output says a module
// was missing and could not be fetched (GOPROXY=off, no network): on one
// of its own lines ("go: …" and the requirement chain under it), not in a
// compiler's message about a sample.
func unreachableProxy(out string) bool {
	inGo := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "go: ") {
			inGo = true
		} else if !strings.HasPrefix(line, "\t") {
			inGo = false
		}
		if !inGo {
			continue
		}
		for _, s := range []string{"module lookup disabled", "GOPROXY=off", "dial tcp", "no such host", "connection refused", "i/o timeout"} {
			if strings.Contains(line, s) {
				return true
			}
		}
	}
	return false
}

// cloneCommands returns the go commands of the shell block of
// docs/testing.md that points an app's module at a clone of atmkit (the
// block holding "go mod edit"), with the clone's path, ../atmkit, made root.
func cloneCommands(t *testing.T, root string) [][]string {
	t.Helper()
	blocks, _ := readDoc(t, filepath.Join(repoRoot, "docs", "testing.md")).parse()
	for _, b := range blocks {
		if b.lang != "sh" || !strings.Contains(strings.Join(b.lines, "\n"), "go mod edit") {
			continue
		}
		var out [][]string
		for _, l := range b.lines {
			l, _, _ = strings.Cut(l, "#")
			f := strings.Fields(strings.ReplaceAll(l, "../atmkit", root))
			if len(f) < 2 || f[0] != "go" {
				t.Fatalf("docs/testing.md:%d: the clone's block holds %q, not a go command", b.line, l)
			}
			out = append(out, f[1:])
		}
		return out
	}
	t.Fatal("docs/testing.md has no sh block with go mod edit (Depending on atmkit)")
	return nil
}

// TestDocsGoSampleHelpers checks the wrapping, the gofmt check and the
// reading of a missing module on small cases.
func TestDocsGoSampleHelpers(t *testing.T) {
	t.Parallel()
	for out, want := range map[string]bool{
		"go: gopkg.in/yaml.v3@v3.0.1 requires\n\tgopkg.in/check.v1@v0.0.0-20161208181325-20d25e280405: module lookup disabled by GOPROXY=off\n": true,
		"go: example.com/m@v1.0.0: Get \"https://proxy.example/example.com/m/@v/v1.0.0.info\": dial tcp: lookup proxy.example: no such host\n":  true,
		"# example.com/docsamples/s03\ns03/sample_test.go:9:2: undefined: dial tcp\n":                                                           false,
		"# example.com/docsamples/canary\ncanary/sample_test.go:5:25: undefined: mockserver.NoSuchName\n":                                       false,
	} {
		if got := unreachableProxy(out); got != want {
			t.Errorf("unreachableProxy(%q) = %v, want %v", out, got, want)
		}
	}
	for _, c := range []struct {
		src, name, first string
	}{
		{"import \"testing\"\n\nfunc TestX(t *testing.T) {}\n", "sample_test.go", "package sample_test"},
		{"package main\n\nfunc main() {}\n", "sample.go", "package main"},
		{"package app_test\n\nfunc f() {}\n", "sample_test.go", "package app_test"},
	} {
		name, file := sampleFile(c.src)
		if name != c.name || !strings.HasPrefix(file, c.first+"\n") {
			t.Errorf("%q: got %s starting %q, want %s starting %q", c.src, name, strings.SplitN(file, "\n", 2)[0], c.name, c.first)
		}
	}
	if msg := gofmtDiff("import \"testing\"\n\nfunc TestX(t *testing.T) {\n\tt.Log(1)\n}\n"); msg != "" {
		t.Errorf("a gofmt-clean sample: got %q", msg)
	}
	if msg := gofmtDiff("func f() {\n  x := 1   // aligned\n\t_ = x\n}\n"); !strings.Contains(msg, "not gofmt-clean: line 2") {
		t.Errorf("a sample gofmt rewrites: got %q", msg)
	}
}

// goDocRE finds a go doc command of the docs and its package argument.
var goDocRE = regexp.MustCompile(`\bgo doc\s+(\S+)`)

// TestDocsGoDocPaths checks that each `go doc` the docs show names its
// package by import path, and that the package exists here: the docs are
// read in an app's own module, where go doc ./mockserver finds nothing.
func TestDocsGoDocPaths(t *testing.T) {
	t.Parallel()
	const module = "github.com/atmkit/atmkit"
	n := 0
	for _, d := range userDocs(t) {
		for i, l := range d.lines {
			for _, m := range goDocRE.FindAllStringSubmatch(l, -1) {
				n++
				pkg := strings.TrimRight(strings.TrimLeft(m[1], "`"), "`,.;)")
				rel, ok := strings.CutPrefix(pkg, module+"/")
				if !ok {
					t.Errorf("%s:%d: go doc %s: name the package by its import path (%s/...): a relative path works only in a clone of atmkit", d.path, i+1, pkg, module)
					continue
				}
				if rel, _, _ = strings.Cut(rel, "."); rel == "" {
					continue
				}
				if fi, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(rel))); err != nil || !fi.IsDir() {
					t.Errorf("%s:%d: go doc %s: no such package in this repository", d.path, i+1, pkg)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no go doc command found in the docs: is the pattern broken?")
	}
}
