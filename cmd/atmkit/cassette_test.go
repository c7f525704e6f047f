package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// goldenCassette copies cassettes/testdata/golden.yaml to a new file with
// the first n of its placeholders (n < 0: all) put back as leakKey: a
// cassette made elsewhere, not scrubbed.
func goldenCassette(t *testing.T, n int) string {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "atm.yaml")
	if err := os.WriteFile(path, []byte(strings.Replace(string(golden), "REDACTED", leakKey, n)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCassetteList: the table, its heading in the singular and plural, a
// key rejection marked with verify's words.
func TestCassetteList(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runAtmkit(nil, "cassette", "list", filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml"))
	want := "# " + filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml") + ": 3 interactions\n" +
		"ID  BINDING  OPERATION                     PARAMETERS                                                                  STATUS\n" +
		"0   soap12   ReturnAtmSearchByCity         intCityID=202                                                               200\n" +
		"1   json     ReturnAtmSearchByCoordinates  strPostalCode=\"\" dblLatitude=44.709777 dblLongitude=-63.571423 bytRadius=1  200\n" +
		"2   get      ReturnProvinces               -                                                                           200\n"
	if code != exitOK || stdout != want {
		t.Errorf("exit %d, got\n%s\nwant\n%s\nstderr: %s", code, stdout, want, stderr)
	}

	reference := filepath.Join("..", "..", "cassettes", "testdata", "reference-typed.yaml")
	code, stdout, stderr = runAtmkit(nil, "cassette", "list", reference)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	for _, want := range []struct {
		n    int
		line string
	}{
		{0, "# " + reference + ": 16 interactions"},
		{2, "0   get      ReturnProvinces               -                                                                       500 [key rejection]"},
		{3, "1   soap11   ReturnProvinces               -                                                                       500 [key rejection]"},
		{4, "2   soap11   ReturnAtmSearchByCoordinates  strPostalCode=\"\" dblLatitude=44.6488 dblLongitude=-63.5752 bytRadius=3  200"},
		{17, "15  -        GET /service/service.asmx     ?WSDL                                                                   200"},
	} {
		if len(lines) <= want.n || lines[want.n] != want.line {
			t.Errorf("line %d: want %q in\n%s", want.n, want.line, stdout)
		}
	}
	if n := strings.Count(stdout, "[key rejection]"); n != 2 {
		t.Errorf("got %d key rejections, want 2:\n%s", n, stdout)
	}

	one := filepath.Join(t.TempDir(), "one.yaml")
	golden, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The first interaction alone: its lines up to the second "- id:".
	text := string(golden)
	first := strings.Index(text, "    - id: 1\n")
	if first < 0 {
		t.Fatal("golden.yaml: no second interaction")
	}
	if err := os.WriteFile(one, []byte(text[:first]), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runAtmkit(nil, "cassette", "list", one); code != exitOK || !strings.HasPrefix(stdout, "# "+one+": 1 interaction\n") {
		t.Errorf("exit %d, got %q, want the heading in the singular; stderr: %s", code, stdout, stderr)
	}

	// An id held twice (edited by hand): each of its interactions is
	// named with its position in the file too.
	twice := filepath.Join(t.TempDir(), "twice.yaml")
	if err := os.WriteFile(twice, []byte(strings.Replace(text, "    - id: 2\n", "    - id: 0\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	want = "# " + twice + ": 3 interactions\n" +
		"ID   BINDING  OPERATION                     PARAMETERS                                                                  STATUS\n" +
		"0@0  soap12   ReturnAtmSearchByCity         intCityID=202                                                               200\n" +
		"1    json     ReturnAtmSearchByCoordinates  strPostalCode=\"\" dblLatitude=44.709777 dblLongitude=-63.571423 bytRadius=1  200\n" +
		"0@2  get      ReturnProvinces               -                                                                           200\n"
	if code, stdout, stderr := runAtmkit(nil, "cassette", "list", twice); code != exitOK || stdout != want {
		t.Errorf("exit %d, got\n%s\nwant\n%s\nstderr: %s", code, stdout, want, stderr)
	}

}

// TestCassetteScrubCounts: what scrub --check and scrub print, in the
// singular and the plural, and the exit codes; a scrubbed cassette is
// clean.
func TestCassetteScrubCounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		leaks  int
		counts string // "N values in M interactions"
		total  string
	}{
		{"one value", 1, "1 value to redact in 1 interaction", "1 value"},
		{"every value", -1, "9 values to redact in 3 interactions", "9 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := goldenCassette(t, tc.leaks)
			code, stdout, stderr := runAtmkit(nil, "cassette", "scrub", "--check", path)
			if want := path + ": " + tc.counts + "\n"; code != exitFailure || stdout != want {
				t.Errorf("--check: exit %d, got %q, want exit 1 and %q", code, stdout, want)
			}
			if want := "atmkit: cassette scrub: " + tc.total + " to redact (run without --check to redact them)\n"; stderr != want {
				t.Errorf("--check: stderr %q, want %q", stderr, want)
			}
			code, stdout, stderr = runAtmkit(nil, "cassette", "scrub", path)
			replaced := strings.Replace(strings.Replace(tc.counts, " to redact in ", " in ", 1), tc.total, "replaced "+tc.total, 1)
			if want := path + ": " + replaced + " with REDACTED\n"; code != exitOK || stdout != want || stderr != "" {
				t.Errorf("scrub: exit %d, got %q, want %q; stderr %q", code, stdout, want, stderr)
			}
			code, stdout, _ = runAtmkit(nil, "cassette", "scrub", "--check", path)
			if want := path + ": clean, unchanged\n"; code != exitOK || stdout != want {
				t.Errorf("--check after scrub: exit %d, got %q, want %q", code, stdout, want)
			}
			noLeak(t, "the scrubbed cassette", readText(t, path))
		})
	}
}

// TestCassetteScrubCheckAfterPath: --check read after the path, as after
// it, only reports (exit 1) and leaves the cassette as it was.
func TestCassetteScrubCheckAfterPath(t *testing.T) {
	t.Parallel()
	path := goldenCassette(t, 1)
	before := readText(t, path)
	code, stdout, stderr := runAtmkit(nil, "cassette", "scrub", path, "--check")
	if want := path + ": 1 value to redact in 1 interaction\n"; code != exitFailure || stdout != want {
		t.Errorf("scrub PATH --check: exit %d, got %q (stderr %q), want exit 1 and %q", code, stdout, stderr, want)
	}
	if readText(t, path) != before {
		t.Error("scrub PATH --check changed the cassette")
	}
}

// TestCassetteCommandsNeedCassettes: list, scrub (with and without --check)
// and verify refuse, with exit 2, a path that names nothing and a directory
// without cassettes, so a CI step over a wrong directory does not pass.
func TestCassetteCommandsNeedCassettes(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("no cassette here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(empty, "nothing")
	for _, cmd := range [][]string{
		{"cassette", "list"},
		{"cassette", "scrub"},
		{"cassette", "scrub", "--check"},
		{"cassette", "verify", "--upstream", "http://127.0.0.1:1", "--key", "k"},
	} {
		for _, tc := range []struct{ path, want string }{
			{empty, "no cassette files (*.yaml, *.yml) in " + empty},
			{missing, "nothing"},
		} {
			code, stdout, stderr := runAtmkit(nil, append(slices.Clone(cmd), tc.path)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(cmd, " "), tc.path, code, stdout, stderr, tc.want)
			}
		}
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCassetteScrubHeaderFlag: --scrub-header names a header whose name
// holds no credential word; --check counts it (exit 1) and scrub redacts it.
func TestCassetteScrubHeaderFlag(t *testing.T) {
	t.Parallel()
	path := goldenCassette(t, 0)
	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	list[0].Request.Headers.Set("X-Partner-Id", "partner-secret-42")
	if err := cassettes.WriteFile(path, list); err != nil {
		t.Fatal(err)
	}
	if code, stdout, _ := runAtmkit(nil, "cassette", "scrub", "--check", path); code != exitOK {
		t.Errorf("--check without the flag: exit %d (%s), want 0", code, stdout)
	}
	if code, stdout, _ := runAtmkit(nil, "cassette", "scrub", path, "--check", "--scrub-header", "x-partner-id"); code != exitFailure || !strings.Contains(stdout, "1 value to redact") {
		t.Errorf("--check --scrub-header: exit %d %q, want 1 and 1 value", code, stdout)
	}
	if code, _, stderr := runAtmkit(map[string]string{"ATMKIT_SCRUB_HEADER": "X-Partner-Id"}, "cassette", "scrub", path); code != exitOK || strings.Contains(readText(t, path), "partner-secret-42") {
		t.Errorf("scrub with ATMKIT_SCRUB_HEADER: exit %d (%s); the value must be gone", code, stderr)
	}
}

// TestCassetteScrubMarksKeyRejections: a cassette go-vcr recorded alone,
// a wrong key's fault beside the right key's answer, is scrubbed with the
// fault marked as a key rejection, and scrub says so.
func TestCassetteScrubMarksKeyRejections(t *testing.T) {
	t.Parallel()
	target := startMock(t, "right-key-1", nil)
	path := filepath.Join(t.TempDir(), "elsewhere.yaml")
	r, err := recorder.NewWithOptions(&recorder.Options{CassetteName: strings.TrimSuffix(path, ".yaml"), Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"right-key-1", "wrong-key-22"} {
		resp, err := r.GetDefaultClient().Get(target + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + key)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	marks := " (1 key rejection among them, marked REDACTED-REJECTED)\n"
	code, stdout, stderr := runAtmkit(nil, "cassette", "scrub", "--check", path)
	if code != exitFailure || !strings.HasSuffix(stdout, " to redact in 2 interactions"+marks) {
		t.Errorf("--check: exit %d, got %q, want exit 1 and the key rejection counted; stderr: %s", code, stdout, stderr)
	}
	code, stdout, stderr = runAtmkit(nil, "cassette", "scrub", path)
	if code != exitOK || !strings.HasSuffix(stdout, " in 2 interactions with REDACTED"+marks) {
		t.Errorf("scrub: exit %d, got %q, want the key rejection counted; stderr: %s", code, stdout, stderr)
	}
	code, stdout, _ = runAtmkit(nil, "cassette", "list", path)
	if code != exitOK || strings.Count(stdout, "[key rejection]") != 1 {
		t.Errorf("list after scrub: exit %d, want one key rejection:\n%s", code, stdout)
	}
	noLeak(t, "the scrubbed cassette", readText(t, path))
	if text := readText(t, path); strings.Contains(text, "right-key-1") || strings.Contains(text, "wrong-key-22") {
		t.Errorf("the scrubbed cassette holds a key:\n%s", text)
	}
}

// TestCassetteUnreadableExit2: a file in a cassette directory that is no
// cassette atmkit reads (empty, go-vcr v1's format version 1, not YAML,
// two cassettes joined)
// is named with why, and list, scrub and scrub --check exit 2: --check's 1
// means a key left, never a file it could not check.
func TestCassetteUnreadableExit2(t *testing.T) {
	t.Parallel()
	v1 := "version: 1\ninteractions:\n- request:\n    body: \"\"\n    form: {}\n    headers: {}\n    url: http://x/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + leakKey +
		"\n    method: GET\n  response:\n    body: <x/>\n    headers: {}\n    status: 200 OK\n    code: 200\n    duration: \"\"\n"
	for _, tc := range []struct{ name, content, want string }{
		{"empty", "", "is empty: no go-vcr cassette"},
		{"format version 1", v1, "has version 1; atmkit reads go-vcr v3's format version 2 only"},
		{"not YAML", "\x00\x01binary", "invalid cassette"},
		// cat a.yaml b.yaml: the second's keys were neither checked nor
		// scrubbed (--check said clean), and a rewrite dropped them.
		{"two cassettes joined", readText(t, goldenCassette(t, 0)) + readText(t, goldenCassette(t, -1)), "holds more than one YAML document"},
	} {
		path := filepath.Join(t.TempDir(), "atm.yaml")
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"cassette", "list"}, {"cassette", "scrub", "--check"}, {"cassette", "scrub"}} {
			code, _, stderr := runAtmkit(nil, append(slices.Clone(cmd), path)...)
			if code != exitUsage || !strings.Contains(stderr, path) || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s, %s: exit %d, stderr %q; want exit 2 naming %s and %q", tc.name, strings.Join(cmd, " "), code, stderr, path, tc.want)
			}
			noLeak(t, tc.name+" "+strings.Join(cmd, " "), stderr)
		}
		if readText(t, path) != tc.content {
			t.Errorf("%s: the file changed", tc.name)
		}
	}
	// A link to no file, in a directory of cassettes.
	dir := t.TempDir()
	if err := os.Symlink("moved.yaml", filepath.Join(dir, "atm.yaml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	want := "is a symbolic link to moved.yaml, which does not exist"
	if code, _, stderr := runAtmkit(nil, "cassette", "scrub", "--check", dir); code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("a dangling link: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// TestCassetteScrubThroughSymlink: a cassette named through a symbolic
// link (a test directory linking to shared recordings) is scrubbed in
// the file the link names, and the link stays; named with its link, it is
// listed and scrubbed once.
func TestCassetteScrubThroughSymlink(t *testing.T) {
	t.Parallel()
	path := goldenCassette(t, -1)
	dir := t.TempDir()
	link := filepath.Join(dir, "shared.yaml")
	if err := os.Symlink(path, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	code, stdout, stderr := runAtmkit(nil, "cassette", "list", dir, path)
	if code != exitOK || strings.Count(stdout, "# ") != 1 {
		t.Errorf("list of the link and its file: exit %d, got\n%s\nwant one cassette listed (stderr %q)", code, stdout, stderr)
	}
	code, stdout, stderr = runAtmkit(nil, "cassette", "scrub", dir, path)
	if code != exitOK || strings.Count(stdout, "replaced") != 1 {
		t.Errorf("scrub of the link and its file: exit %d, got %q, want it scrubbed once (stderr %q)", code, stdout, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link (%v)", link, err)
	}
	noLeak(t, "the file the link names", readText(t, path))
	if code, stdout, _ := runAtmkit(nil, "cassette", "scrub", "--check", link); code != exitOK || !strings.Contains(stdout, "clean, unchanged") {
		t.Errorf("--check through the link after scrub: exit %d, %q", code, stdout)
	}
}

// TestCassetteListShowsNoKey: a cassette made elsewhere, not scrubbed,
// whose key sits in requests that are no call (an unknown operation, a
// path of another service): list shows them scrubbed and leaves the file.
func TestCassetteListShowsNoKey(t *testing.T) {
	t.Parallel()
	golden := readText(t, goldenCassette(t, 0))
	text := strings.Replace(golden, "/service/service.asmx/ReturnProvinces?strAtmServiceKey=REDACTED", "/service/service.asmx/ReturnNothing?strAtmServiceKey="+leakKey, 1)
	if text == golden {
		t.Fatal("golden.yaml has no GET ReturnProvinces with its key in the query: the test tests nothing")
	}
	path := filepath.Join(t.TempDir(), "raw.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runAtmkit(nil, "cassette", "list", path)
	// Its method and path are the operation, its query the parameters,
	// so that a long URL (conform's probes record many) does not widen
	// the operation column of every row; the path's segment after the
	// .asmx file that names no operation is masked, as record's progress
	// lines mask it (a key may stand there).
	row := "2   -        GET /service/service.asmx/REDACTED  ?strAtmServiceKey=REDACTED  "
	if code != exitOK || !strings.Contains(stdout, row) {
		t.Errorf("exit %d, got\n%s\nwant the unknown operation listed with REDACTED: %q (stderr %q)", code, stdout, row, stderr)
	}
	noLeak(t, "cassette list", stdout+stderr)
	if readText(t, path) != text {
		t.Error("list changed the cassette")
	}
}

// TestCassetteExtensionsAnyCase: cassettes named NAME.YAML, .YML or .Yaml
// (saved on Windows or macOS) in a directory are listed, checked and
// replayed with the others, not skipped, and a path naming one reads it (it
// read NAME.YAML.yaml).
func TestCassetteExtensionsAnyCase(t *testing.T) {
	t.Parallel()
	golden := readText(t, goldenCassette(t, 0))
	dir := t.TempDir()
	names := []string{"a.YAML", "b.YML", "c.Yaml", "d.yml", "e.yaml"}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(golden), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runAtmkit(nil, "cassette", "list", dir)
	for _, name := range names {
		if want := "# " + filepath.Join(dir, name) + ": 3 interactions\n"; code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("cassette list DIR: exit %d, want 0 and %q:\n%s%s", code, want, stdout, stderr)
		}
	}
	upper := filepath.Join(dir, "a.YAML")
	if code, stdout, stderr := runAtmkit(nil, "cassette", "scrub", "--check", upper); code != exitOK || stdout != upper+": clean, unchanged\n" {
		t.Errorf("cassette scrub --check %s: exit %d, want 0:\n%s%s", upper, code, stdout, stderr)
	}
	_, stdout2, _ := startServe(t, nil, "--replay", dir)
	if want := "(5 cassette files, 15 interactions: " + dir + ")"; !strings.Contains(stdout2.String(), want) {
		t.Errorf("serve --replay DIR: want %q in:\n%s", want, stdout2)
	}
}
