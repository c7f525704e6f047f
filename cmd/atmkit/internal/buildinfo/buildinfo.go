// Package buildinfo says which build of atmkit is running: its version,
// commit and date, from the stamps the linker set (-ldflags -X, by the
// Makefile and GoReleaser) or else from the build information Go records.
package buildinfo

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Desc is what atmkit version prints of a build.
type Desc struct {
	version   string
	commit    string // "" when unknown
	modified  bool   // the working tree had changes the commit does not hold
	when      string // the commit's time
	whenLabel string // "committed"
	goVersion string
	platform  string
}

// Describe combines the stamps the linker set with the build
// information Go records: the stamps win; without them a go build from a
// clone names the commit and its time (vcs.revision, vcs.time), a go
// install …@v1.2.3 names its version and no commit. The stamped date is
// the commit's time, not the build's (the Makefile and GoReleaser stamp
// it so), so that one commit builds the same binary, bit for bit.
func Describe(stampVersion, stampCommit, stampDate string, bi *debug.BuildInfo) Desc {
	d := Desc{
		version:   stampVersion,
		commit:    stampCommit,
		goVersion: runtime.Version(),
		platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if stampDate != "" {
		d.when, d.whenLabel = stampDate, "committed"
	}
	if bi != nil {
		d.goVersion = bi.GoVersion
		if d.version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			d.version = bi.Main.Version
		}
		if d.commit == "" {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					d.commit = s.Value
				case "vcs.time":
					if d.when == "" {
						d.when, d.whenLabel = s.Value, "committed"
					}
				case "vcs.modified":
					d.modified = s.Value == "true"
				}
			}
		}
	}
	if d.version == "" {
		d.version = "devel"
	}
	return d
}

// Write prints the description: the version on the first line, then the
// commit, the date and the Go toolchain, one per line.
func (d Desc) Write(w io.Writer) {
	fmt.Fprintf(w, "atmkit %s\n", d.version)
	switch {
	case d.commit == "":
		fmt.Fprintln(w, "commit     unknown (built without VCS stamps; `make build` stamps it)")
	case d.modified:
		fmt.Fprintf(w, "commit     %s (with uncommitted changes)\n", d.commit)
	default:
		fmt.Fprintf(w, "commit     %s\n", d.commit)
	}
	if d.when != "" {
		fmt.Fprintf(w, "%-10s %s\n", d.whenLabel, d.when)
	}
	fmt.Fprintf(w, "go         %s %s\n", d.goVersion, d.platform)
}
