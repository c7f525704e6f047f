//go:build !windows

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// upComposeFile runs a compose file of docs/ci (docker-compose up
// --exit-code-from app) as the docs show it, with the image under test
// for the mock and, for the app, the image again running the atmkit
// command appCommand (a JSON array) against the mock by its service name.
// It fails the test unless the app exits 0, and returns compose's output.
func upComposeFile(t *testing.T, tag, name, appCommand string) string {
	t.Helper()
	compose, err := exec.LookPath("docker-compose")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no docker-compose on PATH (CI=true: .ci/install-docker.sh installs it)")
		}
		t.Skip("no docker-compose on PATH; install it (Debian: docker-compose) to run the compose files of docs/ci.md")
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "ci", name))
	if err != nil {
		t.Fatal(err)
	}
	file := editLines(t, string(doc),
		"image: atmkit/atmkit:latest", "image: "+tag,
		"build: .", "image: "+tag,
		`command: ["npm", "test"]`, "command: "+appCommand)
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	project := fmt.Sprintf("atmkit-test-%d-%s", os.Getpid(), strings.TrimSuffix(name, ".yaml"))
	run := func(args ...string) (string, error) {
		cmd := exec.Command(compose, append([]string{"-p", project, "-f", path}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { _, _ = run("down", "--volumes", "--remove-orphans") })
	// up waits for the mock's health check (depends_on: service_healthy),
	// runs the app, stops the mock when the app ends, and exits with the
	// app's code.
	out, err := run("up", "--exit-code-from", "app")
	if err != nil {
		logs, _ := run("logs", "--no-color", "atmkit")
		t.Fatalf("docker-compose -f %s up --exit-code-from app: %v\n%s\nthe mock's log:\n%s", name, err, out, logs)
	}
	for _, want := range []string{"ATM Location Lookup Service mock listening", "app_1 exited with code 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("docker-compose -f %s up: want %q in its output:\n%s", name, want, out)
		}
	}
	if strings.Contains(out, "ci-key") {
		t.Errorf("docker-compose -f %s up: the output of the mock or of the app shows the key:\n%s", name, out)
	}
	return out
}

// testComposeFiles runs the compose files of docs/ci.md.
func testComposeFiles(t *testing.T, tag string) {
	t.Run("compose file of docs/ci.md", func(t *testing.T) {
		upComposeFile(t, tag, "compose.yaml", `["conform", "--target", "http://atmkit:8080", "--key", "ci-key"]`)
	})

	// The app reaches the mock over HTTPS by its service name: the
	// throwaway certificate names it, and the app trusts the authority
	// the mock wrote to the volume both mount.
	t.Run("HTTPS compose file of docs/ci.md", func(t *testing.T) {
		out := upComposeFile(t, tag, "compose-tls.yaml",
			`["conform", "--target", "https://atmkit:8080", "--key", "ci-key", "--ca-cert", "/certs/ca.pem"]`)
		if !strings.Contains(out, "mock listening on https://") {
			t.Errorf("docker-compose -f compose-tls.yaml up: want the mock on HTTPS:\n%s", out)
		}
	})
}
