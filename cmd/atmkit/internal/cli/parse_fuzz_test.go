package cli

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzParseSecret parses a command line and environment like serve's,
// where a secret flag (key, admin-token, header) is given fuzzSecret
// within any text, on the command line (--name=value or --name value) or
// in its ATMKIT_ variable, among any other arguments: Parse never panics,
// returns nil or a usage error, and the error never shows the secret. A
// header's secret is in its value, after the colon of its line (its name
// is no secret, and errors name it).
func FuzzParseSecret(f *testing.F) {
	f.Add("key", "", "", uint8(0), "")
	f.Add("admin-token", "x", "\n", uint8(1), "--addr\n:8080")
	f.Add("header", "X-Api-Key: ", "", uint8(2), "--journal-size\nabc")
	f.Add("header", "Bad Name: ", "", uint8(0), "")
	f.Add("header", "X-A: a\x01", "", uint8(1), "")
	f.Add("header", "Host: ", "", uint8(2), "")
	f.Add("key", ",", " , ", uint8(2), "--key")
	f.Add("admin-token", "", "", uint8(1), "--max-body=1x\nrest")
	f.Fuzz(func(t *testing.T, name, prefix, suffix string, how uint8, rest string) {
		if !secretFlags[name] || strings.Contains(prefix+suffix+rest, fuzzSecret[:6]) {
			return
		}
		if name == "header" {
			lines := strings.Split(prefix, "\n")
			if !strings.Contains(lines[len(lines)-1], ":") {
				return // the secret would be in a header's name
			}
		}
		value := prefix + fuzzSecret + suffix
		env := map[string]string{}
		var args []string
		switch how % 3 {
		case 0:
			args = []string{"--" + name + "=" + value}
		case 1:
			args = []string{"--" + name, value}
		default:
			env[CommandEnvName("serve", name)] = value
		}
		if rest != "" {
			args = append(args, strings.Split(rest, "\n")...)
		}
		e := &Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(k string) string { return env[k] }}
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("addr", "127.0.0.1:8080", "")
		fs.String("admin-token", "", "")
		var keys List
		fs.Var(&keys, "key", "")
		var headers Headers
		fs.Var(&headers, "header", "")
		fs.Int("journal-size", 0, "")
		fs.Int64("max-body", 0, "")
		fs.Duration("grace", time.Second, "")
		err := e.Parse(fs, args, map[string]string{"key": "ATMKIT_KEYS"})
		if err == nil || errors.Is(err, flag.ErrHelp) {
			return
		}
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Fatalf("%q %v: an error that is no usage error: %v", args, env, err)
		}
		if strings.Contains(err.Error(), fuzzSecret[:6]) {
			t.Fatalf("%q %v: the error shows the secret: %v", args, env, err)
		}
	})
}
