package main

import (
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/deviate"
)

// TestConformFailsServeDeviate runs `atmkit serve --deviate` and `atmkit
// conform` against it, each in a child process: the run fails and names the
// failing SOAP 1.1 specs and the envelope namespace.
func TestConformFailsServeDeviate(t *testing.T) {
	t.Parallel()
	_, base, stderr := startAtmkit(t, "serve", "--addr", "127.0.0.1:0", "--key", "k1", "--fixtures", smallFixturesDir(t), "--deviate", "soap11-envelope-ns")
	code, out := runConformProcess(t, "--target", base, "--key", "k1", "--label-filter", "soap11 && documented")
	if code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, out)
	}
	for _, want := range []string{
		" specs: envelope: expected {" + asmx.NamespaceSOAP11 + "}Envelope",
		"[binding/soap11/ReturnAllAtms] ReturnAllAtms over soap11: envelope",
		"expected: {" + asmx.NamespaceSOAP11 + "}Envelope",
		"got:      root element {" + asmx.NamespaceSOAP12 + "}Envelope",
		"reproduce: curl ", "FAIL!",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The warning is printed after the startup line; give it a moment.
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(stderr.String(), "WARNING") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "WARNING: this mock BREAKS the interface on purpose (--deviate soap11-envelope-ns)") {
		t.Errorf("serve printed no warning naming the deviation; stderr:\n%s", stderr.String())
	}
}

func TestServeDeviateCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		says []string
	}{
		{"list", []string{"--deviate", "list"}, nil, exitOK, []string{"soap11-envelope-ns  ", "any-key-accepted  ", "SOAP 1.1 answers use the SOAP 1.2 envelope namespace"}},
		{"help among names", []string{"--deviate", "json-count-off,help"}, nil, exitOK, []string{"json-count-off  "}},
		{"list from the environment", nil, map[string]string{"ATMKIT_DEVIATE": "list"}, exitOK, []string{"faults-with-status-200  "}},
		{"unknown", []string{"--addr", "127.0.0.1:0", "--deviate", "soap11-envelope-ns,soap13-envelope-ns"}, nil, exitUsage,
			[]string{`unknown deviation "soap13-envelope-ns"`, "valid: soap11-envelope-ns, "}},
		{"unknown from the environment", []string{"--addr", "127.0.0.1:0"}, map[string]string{"ATMKIT_DEVIATE": "json-count-off,nope"}, exitUsage,
			[]string{`unknown deviation "nope"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runAtmkit(tc.env, append([]string{"serve"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			got := stdout + stderr
			for _, want := range tc.says {
				if !strings.Contains(got, want) {
					t.Errorf("output lacks %q:\n%s", want, got)
				}
			}
			if strings.Contains(got, "listening on") {
				t.Errorf("serve started listening:\n%s", got)
			}
		})
	}
	if n := len(deviate.List()); n < 12 {
		t.Errorf("got %d deviations, want at least 12", n)
	}
}
