package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// TestRecordFirstHour follows a newcomer: atmkit record into directories
// that do not exist yet prints each of the first calls as it records it
// (never the key) and marks a wrong-key call as a key rejection; cassette
// list shows it; scrub --check finds nothing to redact and scrub leaves
// the file byte for byte; serve --replay says what it serves and what
// becomes of the rejection, and replays it to the keys it rejects only;
// verify finds no drift.
func TestRecordFirstHour(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	const wrongKey = "Wrong-Key-5678"
	cassette := filepath.Join(t.TempDir(), "testdata", "cassettes", "atm")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "3")
	coords := [][2]string{{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.6488"}, {asmx.ParamLongitude, "-63.5752"}, {asmx.ParamRadius, "2"}}
	for _, c := range []struct {
		b       asmx.Binding
		op, key string
		params  [][2]string
		status  int
		line    string // printed on stderr once recorded
	}{
		{asmx.HTTPGet, asmx.OpReturnProvinces, leakKey, nil, 200, "atmkit: recorded #0 ReturnProvinces over get: 200\n"},
		{asmx.HTTPGet, asmx.OpReturnProvinces, wrongKey, nil, 500, "atmkit: recorded #1 ReturnProvinces over get: 500\n"},
		{asmx.JSON, asmx.OpReturnAtmSearchByCoordinates, leakKey, coords, 200, "atmkit: recorded #2 ReturnAtmSearchByCoordinates over json: 200\n"},
		{asmx.SOAP11, asmx.OpReturnAtmSearchByCity, leakKey, [][2]string{{"intCityID", "1"}}, 200, ""},
	} {
		if status, body := callService(t, r.base, asmx.DefaultNamespace, c.b, c.op, c.key, c.params); status != c.status {
			t.Fatalf("%s over %s through the proxy: got %d, want %d: %.300s", c.op, c.b, status, c.status, body)
		}
		if c.line != "" && !r.stderr.waitFor(c.line) {
			t.Errorf("stderr lacks %q:\n%s", c.line, r.stderr)
		}
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	path := cassette + ".yaml"
	if want := "atmkit: saved " + path + ": 4 interactions (4 new)\n"; !strings.Contains(r.stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
	}
	if want := "  cassette:   " + path + " (nothing recorded yet)\n"; !strings.Contains(r.stdout.String(), want) {
		t.Errorf("the banner lacks %q:\n%s", want, r.stdout)
	}
	if strings.Contains(r.stderr.String(), "got another answer") {
		t.Errorf("the wrong key's rejection was warned of as another answer:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr.String(), "recorded #3") {
		t.Errorf("the 4th interaction is printed one by one, with --progress 3:\n%s", r.stderr)
	}
	for what, out := range map[string]string{"record's stdout": r.stdout.String(), "record's stderr": r.stderr.String(), "the cassette": readText(t, path)} {
		noLeak(t, what, out)
		if strings.Contains(out, wrongKey) {
			t.Errorf("%s holds the wrong key", what)
		}
	}

	code, stdout, stderr := runAtmkit(nil, "cassette", "list", path)
	if want := "1   get      ReturnProvinces               -                                                                       500 [key rejection]\n"; code != exitOK || !strings.Contains(stdout, want) {
		t.Errorf("cassette list: exit %d, lacks %q:\n%s%s", code, want, stdout, stderr)
	}

	before := readText(t, path)
	for _, args := range [][]string{{"cassette", "scrub", "--check", path}, {"cassette", "scrub", path}} {
		code, stdout, stderr := runAtmkit(nil, args...)
		if want := path + ": clean, unchanged\n"; code != exitOK || stdout != want {
			t.Errorf("%s: exit %d, got %q, want %q; stderr %q", strings.Join(args[:3], " "), code, stdout, want, stderr)
		}
	}
	if readText(t, path) != before {
		t.Error("cassette scrub changed a cassette made by atmkit record")
	}

	base, out, _ := startServe(t, nil, "--replay", path)
	for _, want := range []string{
		"  replay:     3 answers to 3 recorded calls, matched by operation and parameters (1 cassette file, 4 interactions: " + path + ")\n",
		"  rejections: 1 recorded key rejection, never served: this mock accepts every key; pass --key with the keys to accept, and calls with other keys get it\n",
		"  not served: ReturnAtmSearchByCoordinates over soap11, soap12, get and post (1 recorded call): recorded over json only, and XML answers come only from XML recordings; record it over soap11, soap12, get or post\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve's banner lacks %q:\n%s", want, out)
		}
	}
	if status, body := callService(t, base, asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnProvinces, wrongKey, nil); status != 200 {
		t.Errorf("any key accepted: got %d, want the recorded 200: %.300s", status, body)
	}
	base, out, _ = startServe(t, nil, "--replay", path, "--key", leakKey)
	if want := "  rejections: 1 recorded key rejection, served to calls whose key this mock rejects (not one of --key)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("serve --key's banner lacks %q:\n%s", want, out)
	}
	for _, c := range []struct {
		b      asmx.Binding
		key    string
		status int
	}{{asmx.HTTPGet, leakKey, 200}, {asmx.SOAP11, leakKey, 200}, {asmx.HTTPGet, wrongKey, 500}} {
		if status, body := callService(t, base, asmx.DefaultNamespace, c.b, asmx.OpReturnProvinces, c.key, nil); status != c.status {
			t.Errorf("ReturnProvinces over %s with key %s: got %d, want %d: %.300s", c.b, c.key[:2], status, c.status, body)
		}
	}

	code, stdout, stderr = runAtmkit(map[string]string{"ATMKIT_KEY": leakKey}, "cassette", "verify", "--upstream", up, path)
	if code != exitOK || !strings.Contains(stdout, "[key rejection]: same\n") {
		t.Errorf("verify: exit %d:\n%s%s", code, stdout, stderr)
	}
	if want := "atmkit: verifying 1 cassette against " + up + " (1 request at a time, no rate limit, values compared)\n"; !strings.HasPrefix(stdout, want) {
		t.Errorf("verify's heading: want %q first in\n%s", want, stdout)
	}
	// The heading in the plural, the upstream's password masked.
	other := filepath.Join(t.TempDir(), "copy.yaml")
	if err := os.WriteFile(other, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	withPassword := strings.Replace(up, "http://", "http://me:"+leakKey+"@", 1)
	code, stdout, stderr = runAtmkit(map[string]string{"ATMKIT_KEY": leakKey}, "cassette", "verify", "--upstream", withPassword,
		"--concurrency", "2", "--rate", "50", "--values", "ignore", path, other)
	if want := "atmkit: verifying 2 cassettes against " + redact.URL(withPassword) + " (2 requests at a time, at most 50 a second, values ignored)\n"; code != exitOK || !strings.HasPrefix(stdout, want) {
		t.Errorf("verify: exit %d, want %q first in\n%s%s", code, want, stdout, stderr)
	}
	noLeak(t, "verify's output", stdout+stderr)
}

// TestListenAddressInUse: serve and record both default to
// 127.0.0.1:8080; when the address is taken, each says so in one line that
// names --addr (or the variable that set it), and exits 2. record makes
// no directory for its cassette then.
func TestListenAddressInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	dir := filepath.Join(t.TempDir(), "testdata")
	const problem = ": address already in use (serve and record both default to 127.0.0.1:8080): pick another port, or 0 for a free one"
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"serve", []string{"serve", "--addr", addr}, nil, "atmkit serve: --addr " + addr + problem + "; see atmkit serve --help\n"},
		{"record", []string{"record", "--upstream", "http://127.0.0.1:1", "--cassette", filepath.Join(dir, "atm"), "--addr", addr}, nil,
			"atmkit record: --addr " + addr + problem + "; see atmkit record --help\n"},
		{"record, ATMKIT_ADDR", []string{"record", "--upstream", "http://127.0.0.1:1", "--cassette", filepath.Join(dir, "atm")}, map[string]string{"ATMKIT_ADDR": addr},
			"atmkit record: ATMKIT_ADDR=\"" + addr + "\"" + problem + " (--addr); see atmkit record --help\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runAtmkit(tc.env, tc.args...)
			if code != exitUsage || stderr != tc.want {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q\nstdout: %s", code, stderr, tc.want, stdout)
			}
		})
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("record made the cassette's directory though it could not listen: %v", err)
	}
}

// TestRecordLastSaveFails: when the cassette cannot be written at the end
// (its directory became a file during the session), record says so and
// exits 1; it does not also print that it saved the cassette.
func TestRecordLastSaveFails(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	dir := filepath.Join(t.TempDir(), "testdata")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", filepath.Join(dir, "atm"), "--addr", "127.0.0.1:0", "--save-interval", "1h")
	if status, body := callService(t, r.base, asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnProvinces, leakKey, nil); status != 200 {
		t.Fatalf("ReturnProvinces through the proxy: got %d: %.300s", status, body)
	}
	if want := "atmkit: recorded #0 ReturnProvinces over get: 200\n"; !r.stderr.waitFor(want) {
		t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if code := r.stop(); code != exitFailure {
		t.Errorf("record: exit %d, want 1\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout.String(), "atmkit: saved ") {
		t.Errorf("record says it saved a cassette it could not write:\n%s", r.stdout)
	}
	if want := "atmkit: record: write cassette " + filepath.Join(dir, "atm.yaml") + ": mkdir " + dir + ": not a directory\n"; !strings.Contains(r.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	noLeak(t, "record's output", r.stdout.String()+r.stderr.String())
}

// TestRecordCassetteInUse: a second atmkit record into the cassette one is
// recording (two CI jobs, a forgotten terminal) would rewrite it with its
// own calls only, dropping the first one's; it exits 2 naming --cassette
// instead, and neither cassette scrub nor serve --on-miss upstream (which
// records misses into it) writes it meanwhile. Once the
// first has stopped, both work, and what the first recorded is kept.
func TestRecordCassetteInUse(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	cassette := filepath.Join(t.TempDir(), "atm")
	path := cassette + ".yaml"
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0", "--save-interval", "0")
	if status, body := callService(t, r.base, asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnProvinces, leakKey, nil); status != 200 {
		t.Fatalf("ReturnProvinces through the proxy: got %d: %.300s", status, body)
	}
	if want := "atmkit: recorded #0 ReturnProvinces over get: 200\n"; !r.stderr.waitFor(want) {
		t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
	}
	code, stdout, stderr := runAtmkit(nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0")
	if want := "atmkit record: --cassette " + path + ": being written by another process (process "; code != exitUsage || !strings.Contains(stderr, want) || stdout != "" {
		t.Errorf("a second record into the same cassette: exit %d, want 2 and %q in stderr:\n%s%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = runAtmkit(nil, "cassette", "scrub", path)
	if want := "being written by another process"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("cassette scrub of a cassette being recorded: exit %d, want 2 and %q:\n%s%s", code, want, stdout, stderr)
	}
	code, stdout, stderr = runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--replay", path, "--on-miss", "upstream", "--upstream", up)
	if want := "atmkit serve: --replay " + path + ": cassette " + path + ": being written by another process"; code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("serve recording its misses into a cassette being recorded: exit %d, want 2 and %q:\n%s%s", code, want, stdout, stderr)
	}
	if code, stdout, stderr := runAtmkit(nil, "cassette", "scrub", "--check", path); code != exitOK {
		t.Errorf("cassette scrub --check only reads: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".atm.yaml.lock")); !os.IsNotExist(err) {
		t.Errorf("the lock file outlives the recording: %v", err)
	}
	r2 := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0")
	if status, body := callService(t, r2.base, asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnInstitutions, leakKey, nil); status != 200 {
		t.Fatalf("ReturnInstitutions through the second proxy: got %d: %.300s", status, body)
	}
	if code := r2.stop(); code != exitOK {
		t.Fatalf("the second record, once the first stopped: exit %d\nstdout: %s\nstderr: %s", code, r2.stdout, r2.stderr)
	}
	if want := "atmkit: saved " + path + ": 2 interactions (1 new)\n"; !strings.Contains(r2.stdout.String(), want) {
		t.Errorf("the second record's stdout lacks %q:\n%s", want, r2.stdout)
	}
}

// TestRecordAfterEditedIDs: atmkit record adding to a cassette whose ids
// were edited by hand (0, 1, 5) numbers the interactions it adds after
// the largest (6, 7), where numbering from the count (3) would reach an
// id the file holds; its progress lines name them by the ids the file
// then holds, and cassette list names every interaction by its id alone.
func TestRecordAfterEditedIDs(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	path := goldenCassette(t, 0)
	edited := strings.Replace(readText(t, path), "    - id: 2\n", "    - id: 5\n", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0")
	for n, city := range []string{"1", "2", "3"} {
		if status, body := callService(t, r.base, asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, leakKey, [][2]string{{"intCityID", city}}); status != 200 {
			t.Fatalf("call %d through the proxy: got %d: %.300s", n, status, body)
		}
		if want := "atmkit: recorded #" + strconv.Itoa(6+n) + " ReturnAtmSearchByCity over get: 200\n"; !r.stderr.waitFor(want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^    - id: (-?\d+)$`).FindAllStringSubmatch(readText(t, path), -1) {
		ids = append(ids, m[1])
	}
	if want := []string{"0", "1", "5", "6", "7", "8"}; !slices.Equal(ids, want) {
		t.Errorf("the cassette's ids: got %q, want %q", ids, want)
	}
	code, stdout, stderr := runAtmkit(nil, "cassette", "list", path)
	if code != exitOK || strings.Contains(stdout, "@") {
		t.Errorf("cassette list: exit %d, an id named with its position (held twice):\n%s%s", code, stdout, stderr)
	}
}

// TestRecordNothingLeavesNothing: a record session stopped before any call
// came through exits 1 saying nothing was recorded and leaves the file
// system as it found it: no cassette, no lock file, and none of the
// directories it made for the cassette; a directory that was there
// before stays.
func TestRecordNothingLeavesNothing(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	root := t.TempDir()
	for _, tc := range []struct{ name, cassette, kept string }{
		{"missing directories", filepath.Join(root, "new", "testdata", "atm"), ""},
		{"a directory that was there", filepath.Join(root, "there", "atm"), filepath.Join(root, "there")},
	} {
		if tc.kept != "" {
			if err := os.Mkdir(tc.kept, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		r := startCmd(t, nil, "record", "--upstream", up, "--cassette", tc.cassette, "--addr", "127.0.0.1:0")
		if code := r.stop(); code != exitFailure || !strings.Contains(r.stderr.String(), "nothing recorded") {
			t.Errorf("%s: exit %d, want 1 saying nothing was recorded\nstdout: %s\nstderr: %s", tc.name, code, r.stdout, r.stderr)
		}
		var left []string
		_ = filepath.WalkDir(root, func(path string, _ os.DirEntry, err error) error {
			if path != root && path != tc.kept {
				left = append(left, path)
			}
			return err
		})
		if len(left) != 0 {
			t.Errorf("%s: left behind %q, want nothing", tc.name, left)
		}
		if _, err := os.Stat(tc.kept); tc.kept != "" && err != nil {
			t.Errorf("%s: the directory that was there: %v", tc.name, err)
		}
	}
}
