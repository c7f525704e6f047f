package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// CheckIsFile checks that path, when it exists, is a file (or a
// directory, which the other checks name): not a named pipe, a device
// (/dev/null) or a socket, which a file written atomically would replace
// (root may rename over /dev/null); "" when it is one or does not exist.
func CheckIsFile(path string) string {
	if path == "" {
		return ""
	}
	st, err := os.Stat(path) // through links: /dev/stdout is one
	if err != nil || st.Mode().IsRegular() || st.IsDir() {
		return ""
	}
	kind := "not a regular file"
	switch m := st.Mode(); {
	case m&os.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&os.ModeDevice != 0:
		kind = "a device"
	case m&os.ModeSocket != 0:
		kind = "a socket"
	}
	if kind != "not a regular file" {
		kind += ", not a file"
	}
	return kind + ": atmkit writes this output by replacing the file, which would replace it: name a file"
}

// NamesDir reports whether path names a directory: it ends in a
// separator, or a directory of that name exists (record --cassette DIR
// would write DIR.yaml beside it, not a cassette in it).
func NamesDir(path string) bool {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// CheckNotDash checks an output's name against "-", standard output by
// convention, which an output other than shape learn's shape does not
// take (stdout holds the command's own output, or the output is no single
// document written once); what names the kind of output, "file" or
// "directory".
func CheckNotDash(path, what string) string {
	if path != "-" {
		return ""
	}
	return "standard output is not taken here: name a " + what + " (./- for one named -)"
}

// CheckNotService checks a deployment's base URL (--upstream): not the
// service's own URL (a path segment ending in .asmx, in any case), under
// which atmkit would call …/service.asmx/service/service.asmx.
func CheckNotService(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if strings.HasSuffix(strings.ToLower(seg), ".asmx") {
			return "the service's URL; want the base URL it is served under, such as https://atm.example.org (calls go to /service/service.asmx under it)"
		}
	}
	return ""
}
