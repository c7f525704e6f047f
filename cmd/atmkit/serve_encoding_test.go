package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRequestEncoding checks --request-encoding, whatever sets it
// (the flag, ATMKIT_REQUEST_ENCODING, the config file's request-encoding):
// a query string is read in it (the key "clé" sent as cl%E9 is accepted,
// as cl%C3%A9 it is not), the banner says so; by default the query is read
// as UTF-8 and the banner says nothing of it. An encoding .NET does not
// know, or UTF-16, stops serve with exit 2 and one line naming it.
func TestServeRequestEncoding(t *testing.T) {
	t.Parallel()
	config := filepath.Join(t.TempDir(), "atmkit.yaml")
	if err := os.WriteFile(config, []byte("request-encoding: windows-1252\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		latin1 bool
	}{
		{"the flag", nil, []string{"--request-encoding", "ISO-8859-1"}, true},
		{"the variable", map[string]string{"ATMKIT_REQUEST_ENCODING": "iso-8859-1"}, nil, true},
		{"the config file", nil, []string{"--config", config}, true},
		{"the default: UTF-8", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base, stdout, _ := startServe(t, tc.env, append([]string{"--key", "clé"}, tc.args...)...)
			provinces := base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey="
			latin1, utf8 := 200, 500
			if !tc.latin1 {
				latin1, utf8 = 500, 200
			}
			wantGet(t, "the key in Latin-1 escapes", provinces+"cl%E9", "", latin1)
			wantGet(t, "the key in UTF-8 escapes", provinces+"cl%C3%A9", "", utf8)
			line := "  encoding:   queries and forms without a charset read as "
			if got := stdout.String(); tc.latin1 != strings.Contains(got, line) {
				t.Errorf("banner: got %q; want a line %q: %v", got, line, tc.latin1)
			}
		})
	}
	for _, tc := range badRequestEncodings {
		code, _, stderr := runAtmkit(tc.env, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v %v: got exit %d and %q, want exit %d and one line with %q", tc.env, tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// badRequestEncodings are --request-encoding values (a flag, or its
// variable) every command taking it refuses with exit 2, and the words of
// the one line saying why.
var badRequestEncodings = []struct {
	env  map[string]string
	args []string
	want string
}{
	{nil, []string{"--request-encoding", "latin-9x"}, `--request-encoding latin-9x: not an encoding .NET knows; want one such as utf-8, iso-8859-1 or windows-1252`},
	{map[string]string{"ATMKIT_REQUEST_ENCODING": "nope"}, nil, `ATMKIT_REQUEST_ENCODING="nope": not an encoding .NET knows`},
	{nil, []string{"--request-encoding", "utf-16"}, `--request-encoding utf-16: UTF-16 and UTF-32 are not modelled as a requestEncoding`},
}
