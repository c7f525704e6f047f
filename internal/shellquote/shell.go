package shellquote

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shell is a kind of shell a printed line is written for.
type Shell uint8

// The shells lines are written for.
const (
	// POSIX is a POSIX shell: sh, bash, zsh on Linux and macOS; Git Bash,
	// MSYS2, Cygwin on Windows (whose curl is curl).
	POSIX Shell = iota
	// Cmd is Windows's cmd.exe.
	Cmd
	// PowerShell is Windows PowerShell 5.1 or PowerShell 7 on Windows.
	PowerShell
)

// String is the shell's name as ATMKIT_SHELL gives it: posix, cmd or
// powershell.
func (s Shell) String() string {
	switch s {
	case Cmd:
		return "cmd"
	case PowerShell:
		return "powershell"
	}
	return "posix"
}

// ParseShell reads a shell's name (cmd, powershell or posix, in any
// case), or the name of a shell of that kind as a user would type it
// (cmd.exe; pwsh, powershell.exe; bash, sh, zsh, fish, git-bash).
func ParseShell(name string) (Shell, error) {
	switch strings.TrimSuffix(strings.ToLower(name), ".exe") {
	case "cmd":
		return Cmd, nil
	case "powershell", "pwsh":
		return PowerShell, nil
	case "posix", "bash", "sh", "zsh", "fish", "git-bash":
		return POSIX, nil
	}
	return POSIX, fmt.Errorf("%q is not a shell atmkit writes lines for: want cmd, powershell or posix", name)
}

// Curl is curl's name in a line for the shell: curl.exe for cmd.exe and
// PowerShell (Windows PowerShell 5.1 reads a bare curl as its alias of
// Invoke-WebRequest; cmd.exe runs curl.exe either way), curl for a POSIX
// shell (Git Bash's curl is curl).
func (s Shell) Curl() string {
	if s == POSIX {
		return "curl"
	}
	return "curl.exe"
}

// Word is the argument made of parts for the shell; ok is false when the
// shell cannot hold it (see Word and powerShellWord), and then the word is
// in plain double quotes, or, for PowerShell, in its usual form when only
// some versions misread it (see psWritable).
func (s Shell) Word(parts ...Part) (word string, ok bool) {
	if s == PowerShell {
		return powerShellWord(joined(parts))
	}
	return Word(s == Cmd, parts...)
}

// Arg is s as one argument for the shell (see Shell.Word).
func (s Shell) Arg(arg string) string {
	w, _ := s.Word(Lit(arg))
	return w
}

// psSingle are the characters PowerShell reads as a single quote
// (SpecialChars.IsSingleQuote: the ASCII one and the typographic ones ‘ ’
// ‚ ‛), which end a single-quoted string too and are doubled in one.
// Nothing else is read specially in single quotes.
const psSingle = "'\u2018\u2019\u201A\u201B"

// psDouble are the characters PowerShell reads as a double quote
// (SpecialChars.IsDoubleQuote: " “ ” „), which end a double-quoted string
// and are escaped with a backtick in one. Only the ASCII one is a quote to
// a program's parser.
const psDouble = "\"\u201C\u201D\u201E"

// powerShellWord is the argument for PowerShell: a plain word as it is;
// literal text in single quotes (a quote doubled); with a variable, in
// double quotes, $env:NAME for the variable and the text's $, ` and
// double quotes escaped with a backtick. ok is false for an argument
// PowerShell does not hand a native program (curl.exe) intact in every
// version (see psWritable); one holding an ASCII double quote or a line
// break, or an empty one, is then in plain double quotes, any other in
// its form above.
func powerShellWord(parts []Part) (string, bool) {
	ok := psWritable(parts)
	if s, lit := literal(parts); lit {
		switch {
		case s == "":
			return `""`, false
		case psPlain(s):
			return s, ok
		case strings.ContainsAny(s, "\r\n\""):
			return `"` + s + `"`, false
		}
		var b strings.Builder
		b.WriteByte('\'')
		for _, r := range s {
			if strings.ContainsRune(psSingle, r) {
				b.WriteRune(r)
			}
			b.WriteRune(r)
		}
		b.WriteByte('\'')
		return b.String(), ok
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, p := range parts {
		if p.Env != "" {
			// $env:NAME, or ${env:NAME} when the text after it would go
			// on with the name.
			if i+1 < len(parts) && parts[i+1].Env == "" && psNameGoesOn(parts[i+1].Text) {
				b.WriteString("${env:" + p.Env + "}")
			} else {
				b.WriteString("$env:" + p.Env)
			}
			continue
		}
		for _, r := range p.Text {
			if r == '$' || r == '`' || strings.ContainsRune(psDouble, r) {
				b.WriteByte('`')
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), ok
}

// psWritable reports whether every PowerShell hands the argument made of
// parts to a native program as it is. Windows PowerShell 5.1 (and 7 with
// $PSNativeCommandArgumentPassing Legacy, the default before 7.3) writes
// the program's command line itself: an argument holding whitespace in
// double quotes, others as they are, an empty one not at all, a double
// quote in one unescaped (the program ends its argument there); 7.3 and
// later (Windows and Standard modes, for curl.exe and atmkit.exe) escape
// it. 5.1 also leaves the backslashes before the closing quote it adds
// undoubled (PowerShell 6 doubles them), so an argument holding
// whitespace and ending in a backslash reaches the program with a double
// quote for its last backslash and the arguments after it. And an
// argument whose value is --%, quoted or not, is the stop-parsing token:
// not handed on, the rest of the line passed verbatim. A line break
// cannot be in a line to paste.
func psWritable(parts []Part) bool {
	space, last := false, parts[len(parts)-1]
	for _, p := range parts {
		if strings.ContainsAny(p.Text, "\r\n\"") {
			return false
		}
		// A variable's value may hold whitespace.
		space = space || p.Env != "" || strings.IndexFunc(p.Text, unicode.IsSpace) >= 0
	}
	if s, lit := literal(parts); lit && (s == "" || strings.EqualFold(s, "--%")) {
		return false
	}
	return !space || last.Env != "" || !strings.HasSuffix(last.Text, `\`)
}

// psNameGoesOn reports whether text, just after $env:NAME in a
// double-quoted string of PowerShell, would go on with the variable's
// name: a letter or digit (char.IsLetterOrDigit, beyond ASCII too), _, ?
// or : (tokenizer.cs, ScanVariable).
func psNameGoesOn(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_?:", r)
}

// psPlain reports whether PowerShell reads s as it is as one argument: the
// plain characters and backslashes, beginning with a letter, a dot or a
// slash; not a - or + (a parameter, an operator), nor a digit (a number,
// which a native program gets as its text, Compiler.cs's WrappedNumber,
// but is in quotes all the same).
func psPlain(s string) bool {
	if s == "" || strings.Trim(s, plain+`\`) != "" {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '/' || c == '\\'
}
