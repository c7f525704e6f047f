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

var (
	// docKeyRE finds the service keys the docs use: in a query or form, a
	// SOAP element, a --key flag, ATMKIT_KEY(S) or WithKeys.
	docKeyRE = regexp.MustCompile(`strAtmServiceKey=([A-Za-z0-9_.-]+)|<strAtmServiceKey>([A-Za-z0-9_.-]+)<|--key[ =]"?([A-Za-z0-9_.-]+)|ATMKIT_KEYS?=([A-Za-z0-9_.,-]+)|WithKeys\("([^"]+)"`)
	// docMaskRE finds a mask that shows a key's first two characters.
	docMaskRE = regexp.MustCompile(`(^|[^*A-Za-z0-9])([A-Za-z0-9_.-]{2}\*{4})($|[^*])`)
)

// TestDocsMasksOfKeys checks the masks the docs show (a journal entry's
// "ci****") against the keys they use and the rule's examples: each is what
// the masking rule makes of one of them, so a sample never shows the first characters of a key the
// rule hides whole (a key under 8 characters, such as ci-key, is ******).
func TestDocsMasksOfKeys(t *testing.T) {
	t.Parallel()
	masks := map[string]bool{}
	docs := userDocs(t)
	for _, d := range docs {
		for _, l := range d.lines {
			// The rule's own examples: `Leak-Key-1234` → `Le****`.
			for _, m := range maskExampleRE.FindAllStringSubmatch(l, -1) {
				masks[redact.Key(m[1])] = true
			}
			for _, m := range docKeyRE.FindAllStringSubmatch(l, -1) {
				for _, g := range m[1:] {
					for k := range strings.SplitSeq(g, ",") {
						if k != "" {
							masks[redact.Key(k)] = true
						}
					}
				}
			}
		}
	}
	if !masks["******"] || !masks["te****"] {
		t.Fatalf("the docs' keys mask to %v, want ci-key's and test-key's among them: is the pattern broken?", masks)
	}
	for _, d := range docs {
		for i, l := range d.lines {
			for _, m := range docMaskRE.FindAllStringSubmatch(l, -1) {
				if !masks[m[2]] {
					t.Errorf("%s:%d: %q is the mask of no key the docs use (the rule keeps the first two characters of a key of 8 or more only; see README.md#keys-never-leak)", d.path, i+1, m[2])
				}
			}
		}
	}
}
