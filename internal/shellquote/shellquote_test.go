package shellquote

import (
	"os/exec"
	"strings"
	"testing"
)

// hard are arguments each shell reads specially: quotes of both kinds, %
// (cmd.exe's variables, also in a URL's escapes), ^ & < > | (cmd.exe's
// operators), $ and ` (a POSIX shell's), backslashes (before a quote and at
// the end), line breaks, and a SOAP body (XML, double quotes).
var hard = []string{
	"plain-1.0",
	"",
	"two words",
	`it's "quoted"`,
	"100% of %OS% and %PATH%",
	"Cape%20Town&x=%2C",
	"a^b&c|d<e>f(g)",
	"$HOME `id` !x",
	`C:\Program Files\atm\`,
	`back\"slash\\`,
	"line one\nline two\r\n",
	`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`,
	`SOAPAction: "http://tempuri.org/ReturnProvinces"`,
}

// TestPOSIX: every argument, and one with the key's variable among
// literal text, reaches a program intact through a real POSIX shell.
func TestPOSIX(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	const key = `k'e"y $x`
	var line []string
	var want []string
	for _, s := range hard {
		w, ok := Word(false, Lit(s))
		if !ok {
			t.Errorf("%q: not written", s)
		}
		line, want = append(line, w), append(want, s)
	}
	w, _ := Word(false, Lit("?strAtmServiceKey="), Env("ATMKIT_KEY"), Lit("&s='%'"))
	line, want = append(line, w), append(want, "?strAtmServiceKey="+key+"&s='%'")
	cmd := exec.Command(sh, "-c", `f() { for a; do printf '[%s]' "$a"; done; }; f `+strings.Join(line, " "))
	cmd.Env = []string{"ATMKIT_KEY=" + key, "HOME=/nowhere"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if w := "[" + strings.Join(want, "][") + "]"; string(out) != w {
		t.Errorf("through sh:\ngot  %s\nwant %s", out, w)
	}
}

// TestCmd: the cmd.exe forms. An argument neither cmd.exe nor a program's
// parser reads specially stays as it is; one without " and % is in plain
// double quotes (PowerShell reads it too), the key's variable as
// %ATMKIT_KEY% inside them; any other is the program parser's quoting with
// every character cmd.exe reads specially escaped with ^, and every % of
// the text followed by ^ as well, so that no %NAME% begins or ends at it.
// A line break cannot be written.
func TestCmd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		parts []Part
		want  string
		ok    bool
	}{
		{[]Part{Lit(`C:\atm\data`)}, `C:\atm\data`, true},
		{[]Part{Lit("two words")}, `"two words"`, true},
		{[]Part{Lit("")}, `""`, true},
		{[]Part{Lit(`C:\My Dir\`)}, `"C:\My Dir\\"`, true},
		{[]Part{Lit("a&b<c>")}, `"a&b<c>"`, true},
		{[]Part{Lit("http://h/x?strAtmServiceKey="), Env("ATMKIT_KEY"), Lit("&intCityID=3")}, `"http://h/x?strAtmServiceKey=%ATMKIT_KEY%&intCityID=3"`, true},
		{[]Part{Lit(`SOAPAction: "http://tempuri.org/X"`)}, `^"SOAPAction: \^"http://tempuri.org/X\^"^"`, true},
		{[]Part{Lit(`<a b="1">`), Env("ATMKIT_KEY"), Lit(`</a>`)}, `^"^<a b=\^"1\^"^>%ATMKIT_KEY%^</a^>^"`, true},
		{[]Part{Lit("100% of %OS%")}, `^"100^%^ of ^%^OS^%^"`, true},
		{[]Part{Lit("x=%2C&y")}, `^"x=^%^2C^&y^"`, true},
		{[]Part{Lit(`a\"b`)}, `^"a\\\^"b^"`, true},
		{[]Part{Lit(`"q\`)}, `^"\^"q\\^"`, true},
		{[]Part{Lit("50%"), Env("ATMKIT_KEY")}, `^"50^%%ATMKIT_KEY%^"`, true},
		{[]Part{Lit("a\nb")}, "\"a\nb\"", false},
		// Texts side by side are one: the backslashes at the end of one
		// are doubled before the quote that follows it, the next text's
		// or the closing one after an empty text (they were not:
		// "C:\My Dir\" reached the program as C:\My Dir").
		{[]Part{Lit(`C:\My Dir\`), Lit("")}, `"C:\My Dir\\"`, true},
		{[]Part{Lit(`a\`), Lit(`"b`)}, `^"a\\\^"b^"`, true},
		{[]Part{Lit("x="), Env("ATMKIT_KEY"), Lit("")}, `"x=%ATMKIT_KEY%"`, true},
		{[]Part{Lit(""), Lit("")}, `""`, true},
	} {
		got, ok := Word(true, tc.parts...)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%+v: got %s (%v), want %s (%v)", tc.parts, got, ok, tc.want, tc.ok)
		}
	}
	for _, s := range hard {
		w, ok := Word(true, Lit(s))
		if ok == strings.ContainsAny(s, "\r\n") {
			t.Errorf("%q: ok %v", s, ok)
		}
		if !ok || !strings.HasPrefix(w, `^"`) {
			continue
		}
		// In the escaped form, each % of the text is ^%^.
		if n := strings.Count(s, "%"); strings.Count(w, "^%^") != n {
			t.Errorf("%q: %s: want each of its %d %% as ^%%^", s, w, n)
		}
		// cmd.exe never is inside double quotes: no " without its ^.
		if strings.Count(w, `"`) != strings.Count(w, `^"`) {
			t.Errorf("%q: %s: a double quote without ^", s, w)
		}
	}
}

// TestPowerShell: the PowerShell forms (not run in a PowerShell here:
// none is installed). A plain word beginning with a letter, a dot or a
// slash stays as it is; other literal text is in single quotes, each
// single quote (the typographic ones too, which end the string as well)
// doubled; with the key's variable, in double quotes, $env:ATMKIT_KEY
// (${env:...} when the text after it would go on with the name), the
// text's $ ` and double quotes escaped with a backtick. An argument
// holding an ASCII double quote (PowerShell 5.1 and 7.3 hand it to
// curl.exe differently), a line break, or empty (5.1 hands on nothing) is
// not written; nor one holding whitespace and ending in a backslash (5.1
// leaves that backslash before its closing quote), nor --% (the
// stop-parsing token, quoted or not), which keep their form.
func TestPowerShell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		parts []Part
		want  string
		ok    bool
	}{
		{[]Part{Lit(`C:\atm\data`)}, `C:\atm\data`, true},
		{[]Part{Lit("testdata/atm.yaml")}, "testdata/atm.yaml", true},
		{[]Part{Lit("1.50")}, "'1.50'", true},
		{[]Part{Lit("-x")}, "'-x'", true},
		{[]Part{Lit(`C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem`)}, `'C:\Users\Jane Doe\AppData\Local\Temp\atmkit-ca-1.pem'`, true},
		{[]Part{Lit("it's")}, "'it''s'", true},
		{[]Part{Lit("it\u2019s")}, "'it\u2019\u2019s'", true},
		{[]Part{Lit("$HOME `id` a&b;c|d @e (f) {g} #h,i")}, "'$HOME `id` a&b;c|d @e (f) {g} #h,i'", true},
		{[]Part{Lit(`C:\100%\ca.pem`)}, `'C:\100%\ca.pem'`, true},
		{[]Part{Lit("http://h/x?strAtmServiceKey="), Env("ATMKIT_KEY")}, `"http://h/x?strAtmServiceKey=$env:ATMKIT_KEY"`, true},
		{[]Part{Lit("http://h/x?k="), Env("ATMKIT_KEY"), Lit("&intCityID=3")}, `"http://h/x?k=$env:ATMKIT_KEY&intCityID=3"`, true},
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit("_2")}, `"k=${env:ATMKIT_KEY}_2"`, true},
		{[]Part{Lit("$a `b' "), Env("ATMKIT_KEY")}, "\"`$a ``b' $env:ATMKIT_KEY\"", true},
		{[]Part{Lit(`SOAPAction: "http://tempuri.org/X"`)}, `"SOAPAction: "http://tempuri.org/X""`, false},
		{[]Part{Lit("a\nb")}, "\"a\nb\"", false},
		{[]Part{Lit("")}, `""`, false},
		// Checked against PowerShell's source (tokenizer.cs, CharTraits.cs,
		// NativeCommandParameterBinder.cs):
		// a letter or digit beyond ASCII goes on with a variable's name
		// (char.IsLetterOrDigit), as ? and : do: ${env:...} before them.
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit("é")}, `"k=${env:ATMKIT_KEY}é"`, true},
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit("٣")}, `"k=${env:ATMKIT_KEY}٣"`, true},
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit("?x")}, `"k=${env:ATMKIT_KEY}?x"`, true},
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit(":x")}, `"k=${env:ATMKIT_KEY}:x"`, true},
		{[]Part{Lit("k="), Env("ATMKIT_KEY"), Lit("-x")}, `"k=$env:ATMKIT_KEY-x"`, true},
		// A dot and a digit is a number, whose text the program gets.
		{[]Part{Lit(".5")}, ".5", true},
		// Typographic double quotes are PowerShell's double quotes, not
		// the program's parser's: literal in single quotes, escaped in
		// double quotes, handed on alike by every PowerShell.
		{[]Part{Lit("“x”„")}, "'“x”„'", true},
		{[]Part{Lit("“x”"), Env("ATMKIT_KEY")}, "\"`“x`”$env:ATMKIT_KEY\"", true},
		// Windows PowerShell 5.1 puts an argument holding a space in
		// double quotes without doubling the backslashes before the
		// closing one (fixed in PowerShell 6): the program reads C:\My Dir"
		// and the arguments after it as one.
		{[]Part{Lit(`C:\My Dir\`)}, `'C:\My Dir\'`, false},
		{[]Part{Lit("C:\\My\u00a0Dir\\")}, "'C:\\My\u00a0Dir\\'", false},
		{[]Part{Lit(`C:\MyDir\`)}, `C:\MyDir\`, true},
		{[]Part{Lit(`C:\My Dir\x`)}, `'C:\My Dir\x'`, true},
		{[]Part{Env("ATMKIT_DIR"), Lit(`\`)}, "\"$env:ATMKIT_DIR\\\"", false},
		// An argument whose value is --% is PowerShell's stop-parsing
		// token, quoted or not: not handed on, and the rest is verbatim.
		{[]Part{Lit("--%")}, "'--%'", false},
		{[]Part{Lit("--%x")}, "'--%x'", true},
	} {
		got, ok := PowerShell.Word(tc.parts...)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%+v: got %s (%v), want %s (%v)", tc.parts, got, ok, tc.want, tc.ok)
		}
	}
}

// TestShellWord: Shell.Word is Word's cmd.exe form for Cmd and its POSIX
// form for POSIX; Curl names curl.exe for the Windows shells; ParseShell
// reads the names String gives and the shells' own names, in any case, and
// refuses others.
func TestShellWord(t *testing.T) {
	t.Parallel()
	for _, s := range hard {
		for _, tc := range []struct {
			sh      Shell
			windows bool
		}{{Cmd, true}, {POSIX, false}} {
			got, gok := tc.sh.Word(Lit(s))
			want, wok := Word(tc.windows, Lit(s))
			if got != want || gok != wok {
				t.Errorf("%v.Word(%q): got %s (%v), want %s (%v)", tc.sh, s, got, gok, want, wok)
			}
		}
	}
	for sh, curl := range map[Shell]string{POSIX: "curl", Cmd: "curl.exe", PowerShell: "curl.exe"} {
		if sh.Curl() != curl {
			t.Errorf("%v.Curl(): got %s, want %s", sh, sh.Curl(), curl)
		}
		for _, name := range []string{sh.String(), strings.ToUpper(sh.String())} {
			if got, err := ParseShell(name); got != sh || err != nil {
				t.Errorf("ParseShell(%q): got %v, %v", name, got, err)
			}
		}
	}
	for name, sh := range map[string]Shell{"cmd.exe": Cmd, "pwsh": PowerShell, "PowerShell.exe": PowerShell, "bash": POSIX, "sh": POSIX, "zsh": POSIX, "fish": POSIX, "git-bash": POSIX, "Bash.EXE": POSIX} {
		if got, err := ParseShell(name); got != sh || err != nil {
			t.Errorf("ParseShell(%q): got %v, %v; want %v", name, got, err, sh)
		}
	}
	for _, bad := range []string{"", "csh", "wsl", "cmdx", ".exe", "nu"} {
		if _, err := ParseShell(bad); err == nil {
			t.Errorf("ParseShell(%q): no error", bad)
		}
	}
}
