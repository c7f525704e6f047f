package conformance

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// docAnchors returns the anchors GitHub gives the headings of a markdown
// file: lower case, spaces to hyphens, other punctuation dropped.
func docAnchors(path string) map[string]bool {
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	anchors := map[string]bool{}
	fence := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		var a strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#"))) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				a.WriteRune(r)
			case r == ' ':
				a.WriteByte('-')
			}
		}
		anchors[a.String()] = true
	}
	return anchors
}

// argsFlagRE finds the flags given to this test binary in the docs:
// "go test ./conformance -args -target=URL -key=K".
var argsFlagRE = regexp.MustCompile(`go test [^\n` + "`" + `]*\./conformance[^\n` + "`" + `]*?-args((?: +-[a-z-]+(?:=\S*)?)+)`)

var _ = Describe("The documentation", func() {
	It("gives go test ./conformance only flags this suite defines", func() {
		paths, err := filepath.Glob("../docs/*.md")
		Expect(err).NotTo(HaveOccurred())
		paths = append(paths, "../README.md")
		n := 0
		for _, p := range paths {
			b, err := os.ReadFile(p)
			Expect(err).NotTo(HaveOccurred())
			for _, m := range argsFlagRE.FindAllStringSubmatch(string(b), -1) {
				for _, word := range strings.Fields(m[1]) {
					name, _, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
					n++
					Expect(flag.Lookup(name)).NotTo(BeNil(), "%s: go test ./conformance -args %s: the suite has no flag -%s", p, m[1], name)
				}
			}
		}
		Expect(n).To(BeNumerically(">", 0), "no docs page shows go test ./conformance -args")
	})
})
