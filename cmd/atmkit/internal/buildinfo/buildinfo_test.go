package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionDescribesEveryKindOfBuild(t *testing.T) {
	t.Parallel()
	const hash = "c05b348e7c3eb21b9486bb9f75bd852bbb7b7d25"
	info := func(mainVersion string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/atmkit/atmkit", Version: mainVersion}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  []string // lines, in order
	}{
		{"a release", "v1.2.3", hash, "2026-11-26T13:00:00Z", info("(devel)"),
			[]string{"atmkit v1.2.3", "commit     " + hash, "committed  2026-11-26T13:00:00Z", "go         go1.26.8 "}},
		{"a snapshot or make build", "v0.0.1-SNAPSHOT-c05b348", hash, "2026-11-26T13:00:00Z", info("(devel)"),
			[]string{"atmkit v0.0.1-SNAPSHOT-c05b348", "commit     " + hash, "committed  2026-11-26T13:00:00Z"}},
		{"stamps win over the build information", "v1.2.3", hash, "2026-11-26T13:00:00Z",
			info("v0.0.0-20260101000000-000000000000", "vcs.revision", "0000000000000000000000000000000000000000", "vcs.time", "2026-01-01T00:00:00Z"),
			[]string{"atmkit v1.2.3", "commit     " + hash, "committed  2026-11-26T13:00:00Z"}},
		{"go build from a clone", "", "", "",
			info("v0.0.0-20261126133915-c05b348e7c3e", "vcs", "git", "vcs.revision", hash, "vcs.time", "2026-11-26T13:39:15Z", "vcs.modified", "false"),
			[]string{"atmkit v0.0.0-20261126133915-c05b348e7c3e", "commit     " + hash, "committed  2026-11-26T13:39:15Z"}},
		{"go build from a clone with changes", "", "", "",
			info("v0.0.0-20261126133915-c05b348e7c3e+dirty", "vcs.revision", hash, "vcs.time", "2026-11-26T13:39:15Z", "vcs.modified", "true"),
			[]string{"atmkit v0.0.0-20261126133915-c05b348e7c3e+dirty", "commit     " + hash + " (with uncommitted changes)", "committed  2026-11-26T13:39:15Z"}},
		{"go install …@v1.2.3", "", "", "", info("v1.2.3"),
			[]string{"atmkit v1.2.3", "commit     unknown"}},
		{"go build -buildvcs=false", "", "", "", info("(devel)"),
			[]string{"atmkit devel", "commit     unknown"}},
		{"no build information", "", "", "", nil,
			[]string{"atmkit devel", "commit     unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			Describe(tc.version, tc.commit, tc.date, tc.bi).Write(&b)
			got := b.String()
			if strings.Contains(got, "(devel)") {
				t.Errorf("got %q: (devel) says nothing to a user", got)
			}
			rest := got
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 || (i > 0 && rest[i-1] != '\n') {
					t.Fatalf("got:\n%s\nwant a line starting %q (after the lines before it)", got, w)
				}
				rest = rest[i+len(w):]
			}
			if strings.Contains(got, "\nbuilt ") {
				t.Errorf("got:\n%s\nwant no build date: a stamped date is the commit's time (reproducible builds)", got)
			}
		})
	}
}
