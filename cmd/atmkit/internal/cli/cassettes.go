package cli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/atomicfile"
)

// CassetteFiles expands cassette command cmd's PATHs (cassettes.Files);
// none, a path naming nothing or no cassette in them is a usage error
// (exit 2), not a silent pass.
func CassetteFiles(cmd string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, Usagef(cmd, "want at least one cassette file or directory")
	}
	if p := CheckNoStdin(paths, CassetteInput); p != "" {
		return nil, Usagef(cmd, "-: %s", p)
	}
	files, err := cassettes.Files(paths...)
	if err != nil {
		return nil, Usagef(cmd, "%v", err)
	}
	if len(files) == 0 {
		return nil, Usagef(cmd, "no cassette files (*.yaml, *.yml) in %s", strings.Join(paths, ", "))
	}
	return files, nil
}

// CheckNotCassette checks an output (cassette verify --junit-report)
// against the cassettes paths names (cassettes.Files; paths that name
// none are the command's own error): written over one, the report would
// replace a recording only the deployment can make again.
func CheckNotCassette(out string, paths []string) string {
	files, _ := cassettes.Files(paths...)
	for _, f := range files {
		if SameFile(out, f) {
			return "the cassette " + f + ", which it verifies; give another file"
		}
	}
	return ""
}

// SameFile reports whether the paths a and b, neither empty, name one
// file: the same file when both exist (however spelt or linked), the same
// clean absolute path when either does not.
func SameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// CheckRewrite checks, before a command's work, that every cassette file it
// may rewrite in place (cassette scrub, verify --update) can be rewritten:
// its directory is one this process can create files in (the cassette's
// lock and the atomic write's temporary file go there), and CheckReplace.
// It returns the first file that cannot be and why; "" and "" when all can.
func CheckRewrite(files []string) (file, problem string) {
	checked := map[string]string{}
	for _, f := range files {
		dir := filepath.Dir(atomicfile.Target(f))
		p, ok := checked[dir]
		if !ok {
			p = checkWritable(dir)
			checked[dir] = p
		}
		if p == "" {
			p = CheckReplace(f)
		}
		if p != "" {
			return f, p
		}
	}
	return "", ""
}
