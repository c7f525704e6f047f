package shellquote

import (
	"fmt"
	"strings"
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
// shell cannot hold it (see Word and PowerShellWord), and then the word is
// in plain double quotes.
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

// psSingle are the characters PowerShell reads as a single quote: the
// ASCII one and the typographic ones (‘ ’ ‚ ‛), which end a single-quoted
// string too and are doubled in one.
const psSingle = "'\u2018\u2019\u201A\u201B"

// psDouble are the characters PowerShell reads as a double quote in a
// double-quoted string (" “ ” „).
const psDouble = "\"\u201C\u201D\u201E"

// powerShellWord is the argument for PowerShell: a plain word as it is;
// literal text in single quotes (a quote doubled); with a variable, in
// double quotes, $env:NAME for the variable and the text's $, ` and
// double quotes escaped with a backtick. PowerShell hands a native
// program (curl.exe) an argument holding a space in double quotes, but an
// argument holding a double quote differently in Windows PowerShell 5.1
// (not escaped: the program splits it) and PowerShell 7.3 and later
// (escaped): such a one, and one with a line break or an empty one (5.1
// passes nothing), is not written (ok false).
func powerShellWord(parts []Part) (string, bool) {
	ok := true
	for _, p := range parts {
		ok = ok && !strings.ContainsAny(p.Text, "\r\n"+psDouble)
	}
	if s, lit := literal(parts); lit {
		switch {
		case s == "":
			return `""`, false
		case psPlain(s):
			return s, ok
		}
		if !ok {
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
		return b.String(), true
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, p := range parts {
		if p.Env != "" {
			// $env:NAME, or ${env:NAME} when the text after it would go
			// on with the name.
			if i+1 < len(parts) && parts[i+1].Env == "" && strings.ContainsAny(parts[i+1].Text[:1], psNameChars) {
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

// psNameChars are the characters that go on with a variable's name in a
// double-quoted string of PowerShell.
const psNameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_?:"

// psPlain reports whether PowerShell reads s as it is as one argument: the
// plain characters and backslashes, beginning with a letter, a dot or a
// slash (not a digit, which it may read as a number, nor a - or +).
func psPlain(s string) bool {
	if s == "" || strings.Trim(s, plain+`\`) != "" {
		return false
	}
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '/' || c == '\\'
}
