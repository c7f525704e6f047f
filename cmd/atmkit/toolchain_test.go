package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleBuildsWithGo1_26_0 builds and vets the whole module with the
// oldest toolchain go.mod allows (go 1.26 means 1.26.0), so that a module
// depending on atmkit is not forced onto a newer patch release by accident.
// The toolchain comes from the Go module proxy (about 76 MB), so the test
// runs only under CI=true or ATMKITTEST_TOOLCHAIN=1.
func TestModuleBuildsWithGo1_26_0(t *testing.T) {
	if os.Getenv("CI") != "true" && os.Getenv("ATMKITTEST_TOOLCHAIN") != "1" {
		t.Skip("builds the module with go1.26.0, fetched from the module proxy: set CI=true or ATMKITTEST_TOOLCHAIN=1 to run it")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// go 1.26.0 means the same as go 1.26 (a dependency, the fallback
	// trust roots, says 1.26.0, which makes go mod tidy write it).
	if !strings.Contains(string(mod), "\ngo 1.26\n") && !strings.Contains(string(mod), "\ngo 1.26.0\n") {
		t.Fatalf("go.mod: want the directive %q or %q (no later patch level), got:\n%s", "go 1.26", "go 1.26.0", mod)
	}
	for _, args := range [][]string{{"version"}, {"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=go1.26.0", "GOFLAGS=-buildvcs=false")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GOTOOLCHAIN=go1.26.0 go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "version" && !strings.Contains(string(out), "go1.26.0") {
			t.Fatalf("go version under GOTOOLCHAIN=go1.26.0: got %q", out)
		}
	}
}
