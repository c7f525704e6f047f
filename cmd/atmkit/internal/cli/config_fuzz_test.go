package cli

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// fuzzSecret is the secret the config files of FuzzApplyConfig may hold.
const fuzzSecret = "s3cr3t-VALUE-4711"

// FuzzApplyConfig reads any bytes as a --config file (a file a user or a
// deployment's ConfigMap hands over) for a flag set like serve's: it never
// panics, returns nil or a usage error (exit 2), and an error never shows
// the value of a secret flag (key, admin-token, header), whatever the
// file's shape.
func FuzzApplyConfig(f *testing.F) {
	for _, s := range []string{
		"addr: 127.0.0.1:9090\nkey: [k1, k2]\nlog-format: json\njournal-size: 500\n",
		"fault:\n  - {operation: ReturnProvinces, binding: soap12, delay: 300ms}\n  - op=ReturnInstitutions,status=503,times=1\n",
		"faults: {status: 503, probability: 0.5}\nmax_body: 10\n",
		"keys: " + fuzzSecret + "\nadmin-token: " + fuzzSecret + "\n",
		"header: ['X-Api-Key: " + fuzzSecret + "', 'Bad Name: " + fuzzSecret + "']\n",
		"key: {a: " + fuzzSecret + "}\n",
		"admin-token: [" + fuzzSecret + "]\n",
		"key: [[" + fuzzSecret + "]]\n",
		"grace: 1h\ndetailed-errors: yes\n",
		"fault: {1: 2}\n",
		"- a\n",
		fuzzSecret + "\n", // a key's file named by mistake
		"config: x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "atmkit.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		e := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("addr", "127.0.0.1:8080", "")
		fs.String("config", "", "")
		fs.String("admin-token", "", "")
		fs.String("log-format", "text", "")
		var keys List
		fs.Var(&keys, "key", "")
		var faults Faults
		fs.Var(&faults, "fault", "")
		var headers Headers
		fs.Var(&headers, "header", "")
		fs.Int("journal-size", 0, "")
		fs.Int64("max-body", 0, "")
		fs.Bool("detailed-errors", false, "")
		fs.Duration("grace", time.Second, "")
		if err := e.Parse(fs, nil, nil); err != nil {
			t.Fatal(err)
		}
		err := e.ApplyConfig(fs, path, nil)
		if err == nil {
			return
		}
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Fatalf("%q: an error that is no usage error: %v", data, err)
		}
		if strings.Contains(err.Error(), fuzzSecret) && !shownElsewhere(data) {
			t.Fatalf("%q: the error shows a secret flag's value: %v", data, err)
		}
	})
}

// shownElsewhere reports whether a config file holds fuzzSecret other
// than in the values of secret flags: in a key, or a value of another
// flag, which its errors may quote; or in a file that is no mapping.
func shownElsewhere(data []byte) bool {
	var settings map[string]any
	if yaml.Unmarshal(data, &settings) != nil {
		return true
	}
	rest := map[string]any{}
	for k, v := range settings {
		name := strings.ReplaceAll(strings.TrimSpace(k), "_", "-")
		if a, ok := configAliases[name]; ok {
			name = a
		}
		if secretFlags[name] {
			v = nil
		}
		rest[k] = v
	}
	out, err := yaml.Marshal(rest)
	return err != nil || strings.Contains(string(out), fuzzSecret)
}
