package cli

import (
	"strings"

	"github.com/atmkit/atmkit/cassettes"
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
