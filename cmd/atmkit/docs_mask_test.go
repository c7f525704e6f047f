package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/redact"
)

var maskExampleRE = regexp.MustCompile("`([^`]+)`\\s+→\\s+`([^`]+)`")

// TestDocsMaskingRule checks the masking rule where the docs state it once,
// README.md's "Keys never leak": each example `key` → `mask` is what
// atmkit's one rule (internal/redact) shows, and the pages that mention the
// rule link there instead of restating it.
func TestDocsMaskingRule(t *testing.T) {
	t.Parallel()
	d := readDoc(t, filepath.Join(repoRoot, "README.md"))
	text := strings.Join(d.lines, "\n")
	_, section, ok := strings.Cut(text, "\n### Keys never leak\n")
	if !ok {
		t.Fatal(`README.md has no "### Keys never leak" section`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	examples := maskExampleRE.FindAllStringSubmatch(section, -1)
	if len(examples) < 2 {
		t.Fatalf("the rule shows %d examples, want a long key's and a short one's:\n%s", len(examples), section)
	}
	for _, e := range examples {
		if got := redact.Key(e[1]); got != e[2] {
			t.Errorf("README.md says %q is shown as %q; atmkit shows %q", e[1], e[2], got)
		}
	}
	for _, d := range userDocs(t) {
		if d.path == "README.md" {
			continue
		}
		for i, l := range d.lines {
			if strings.Contains(l, "whatever its length") || strings.Contains(l, "whatever the key's length") {
				t.Errorf("%s:%d: restates the masking rule: link README.md#keys-never-leak instead", d.path, i+1)
			}
		}
	}
}
