package cli

import (
	"bytes"
	"flag"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/atmkit/atmkit/internal/tlsconf"
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

// HasQueryOrFragment reports whether s, a URL, has a query or a
// fragment, an empty one too (http://host/x? or http://host/x#, which
// appending a path to puts the path in).
func HasQueryOrFragment(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.RawQuery != "" || u.ForceQuery || strings.Contains(s, "#"))
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

// maxOwnFile bounds what CheckOwnFile reads of a file: more than any
// certificate, and the head of a report or a shape, which is what tells.
const maxOwnFile = 4 << 20

// CheckOwnFile checks that path, a file a command replaces with one it
// writes (a throwaway authority's certificate, a report, a learned
// shape), holds, when it exists and holds anything, what atmkit writes
// there, as notOurs says: "" when it does, else what it holds. A
// certificate, a private key or a config file named by mistake is not
// replaced: there is no flag to force it (remove the file, or name
// another). what names the kind of file atmkit writes there.
func CheckOwnFile(path, what string, notOurs func(data []byte) string) string {
	if holds := ownFileHolds(path, notOurs); holds != "" {
		return "exists and holds " + holds + ", not " + what + ": " + replacesOnlyItsKind + "file"
	}
	return ""
}

// replacesOnlyItsKind is the reason of CheckOwnFile's refusal, which
// names what to name instead ("file", "directory").
const replacesOnlyItsKind = "atmkit replaces only a file of that kind, never another given by mistake; remove it, or name another "

// ownFileHolds is what path holds, as notOurs says, when it is a regular
// file holding something notOurs does not take; "" otherwise.
func ownFileHolds(path string, notOurs func(data []byte) string) string {
	if path == "" || path == "-" {
		return ""
	}
	// Through links, as the write goes; a named pipe is not opened (the
	// open would wait for a writer): CheckIsFile names it.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return "" // one it cannot read: the write's own checks name it
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOwnFile))
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return "" // an empty file (mktemp's) holds nothing to lose
	}
	return notOurs(data)
}

// NotPEMHolds is what data holds, for CheckOwnFile's refusal: the types
// of its PEM blocks ("a PRIVATE KEY"), never their content, or "other
// content".
func NotPEMHolds(data []byte) string {
	switch p := tlsconf.NotThrowawayCA(data); {
	case p == "", strings.HasPrefix(p, "the certificate of "):
		return "a CERTIFICATE"
	case p != "no PEM certificate":
		return p
	}
	return "other content"
}

// CheckJUnitReport is CheckReportFile for a JUnit XML report, which
// replaces only a file of its kind (CheckOwnFile).
func CheckJUnitReport(path string) string {
	if p := CheckReportFile(path); p != "" {
		return p
	}
	return CheckOwnFile(path, "a JUnit XML report", NotJUnitReport)
}

// CheckJSONReport is CheckJUnitReport for Ginkgo's JSON report.
func CheckJSONReport(path string) string {
	if p := CheckReportFile(path); p != "" {
		return p
	}
	return CheckOwnFile(path, "a JSON report of Ginkgo's", NotGinkgoJSONReport)
}

// CheckProfileFile is CheckOutFile for a CPU profile, which replaces only
// a file of its kind (CheckOwnFile): a profile (gzip-compressed, as
// runtime/pprof writes it).
func CheckProfileFile(path string) string {
	if p := CheckOutFile(path); p != "" {
		return p
	}
	return CheckOwnFile(path, "a CPU profile", func(data []byte) string {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return ""
		}
		return NotPEMHolds(data)
	})
}

// NotJUnitReport is CheckOwnFile's notOurs for a JUnit XML report: XML
// holding a testsuite element.
func NotJUnitReport(data []byte) string {
	t := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if bytes.HasPrefix(t, []byte("<")) && bytes.Contains(t, []byte("<testsuite")) {
		return ""
	}
	return NotPEMHolds(data)
}

// NotGinkgoJSONReport is CheckOwnFile's notOurs for Ginkgo's JSON report:
// a JSON list of suite reports, each naming its SuitePath.
func NotGinkgoJSONReport(data []byte) string {
	t := bytes.TrimSpace(data)
	if bytes.HasPrefix(t, []byte("[")) && bytes.Contains(t, []byte(`"SuitePath"`)) {
		return ""
	}
	return NotPEMHolds(data)
}

// BadBaseURL checks the value of flag name of fs, a base URL to which a
// command appends paths of its own (/__admin/health,
// /service/service.asmx): it must have no query or fragment, which
// appending a path would garble (http://host/?key=k/__admin/health), an
// empty one neither (http://host/x#/__admin/health asks /x). Its usage
// error names where the URL came from (the flag, its variable) and shows
// it as written with its query and fragment masked (?..., #...), since a
// query may hold a key. It is nil for a URL CheckHTTPURL rejects.
func (e *Env) BadBaseURL(fs *flag.FlagSet, name string) error {
	s := fs.Lookup(name).Value.String()
	u, err := url.Parse(s)
	if err != nil || CheckHTTPURL(s) != "" || !HasQueryOrFragment(s) {
		return nil
	}
	masked := "" // what the user wrote after the path, its content masked
	switch {
	case u.RawQuery != "":
		masked = "?..."
	case u.ForceQuery:
		masked = "?"
	}
	switch {
	case u.Fragment != "":
		masked += "#..."
	case strings.Contains(s, "#"):
		masked += "#"
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return e.badShown(fs, name, u.Redacted()+masked, "want a base URL, with a path prefix at most (such as http://127.0.0.1:8080/prefix): no query (?...) or fragment (#...)")
}
