package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/conformance"
)

// TestConformOutcomeLoopbackInContainer: a refused connection to the
// loopback address of --target, where atmkit is a container's main process
// (docker run atmkit/atmkit conform --target http://127.0.0.1:8080), says
// how a container reaches the host's service; elsewhere, or for another
// host or cause, the preflight's paragraph stands alone. Exit 2 either
// way. Not parallel: it sets containerMarkers and pid1.
func TestConformOutcomeLoopbackInContainer(t *testing.T) {
	marker := filepath.Join(t.TempDir(), ".dockerenv")
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	savedMarkers, savedPID1 := containerMarkers, pid1
	t.Cleanup(func() { containerMarkers, pid1 = savedMarkers, savedPID1 })
	refused := &conformance.PreflightError{Cause: conformance.CauseRefused, Message: "could not check the target: connection refused at http://127.0.0.1:8080/service/service.asmx"}
	timeout := &conformance.PreflightError{Cause: conformance.CauseTimeout, Message: "could not check the target: no answer"}
	for _, tc := range []struct {
		name      string
		container bool
		err       error
		target    string
		hint      bool
	}{
		{"127.0.0.1 in a container", true, refused, "http://127.0.0.1:8080", true},
		{"localhost in a container", true, refused, "http://localhost:8080/legacy", true},
		{"::1 in a container", true, refused, "https://[::1]:8443", true},
		{"another host in a container", true, refused, "http://host.docker.internal:8080", false},
		{"a timeout in a container", true, timeout, "http://127.0.0.1:8080", false},
		{"127.0.0.1 on a host", false, refused, "http://127.0.0.1:8080", false},
	} {
		containerMarkers, pid1 = []string{marker}, func() bool { return tc.container }
		err := ConformOutcome(false, tc.err, tc.target)
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != ExitUsage || !strings.HasPrefix(err.Error(), "conform: "+tc.err.Error()) {
			t.Errorf("%s: got %v, want exit 2 with the preflight's paragraph", tc.name, err)
			continue
		}
		if got := strings.Contains(err.Error(), "--add-host=host.docker.internal:host-gateway"); got != tc.hint {
			t.Errorf("%s: the container hint shown: %v, want %v:\n%v", tc.name, got, tc.hint, err)
		}
	}
}
