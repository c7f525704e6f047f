package cli

import (
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
	files, err := cassettes.Files(paths...)
	if err != nil {
		return nil, Usagef(cmd, "%v", err)
	}
	if len(files) == 0 {
		return nil, Usagef(cmd, "no cassette files (*.yaml, *.yml) in %s", strings.Join(paths, ", "))
	}
	return files, nil
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
