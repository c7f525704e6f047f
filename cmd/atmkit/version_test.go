package main

import (
	"strings"
	"testing"
)

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := runAtmkit(nil, "version")
	if code != 0 || !strings.HasPrefix(out, "atmkit ") || !strings.Contains(out, "\ncommit ") || !strings.Contains(out, "\ngo ") {
		t.Errorf("atmkit version: exit %d, stdout %q, stderr %q; want 0 and the version, commit and go lines", code, out, errOut)
	}
	if code, _, errOut := runAtmkit(nil, "version", "extra"); code != 2 || !strings.Contains(errOut, `unexpected argument "extra"`) {
		t.Errorf("atmkit version extra: exit %d, stderr %q; want 2 naming the argument", code, errOut)
	}
}
