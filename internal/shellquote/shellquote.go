// Package shellquote writes the arguments of command lines atmkit prints
// for the user to paste: into a POSIX shell (sh, bash, zsh; Git Bash and
// WSL on Windows), into Windows's cmd.exe, or into PowerShell (Shell.Word;
// see powerShellWord for what it cannot hold).
//
// A cmd.exe line is read twice: by cmd.exe (which expands %NAME%, and
// reads & | < > ^ as operators outside double quotes, and toggles its idea
// of "inside quotes" at every double quote) and then by the program's own
// argument parser (the Microsoft C runtime's rules, which Go's programs and
// curl.exe follow: double quotes group, \" is a literal quote). An argument
// neither would misread is written as it is; one holding no double quote
// and no % in double quotes, which both read as one argument (not a
// PowerShell line: it expands $ and ` there, and keeps the backslashes
// doubled before the closing quote); any other in double quotes for the program's parser
// with every character cmd.exe reads specially escaped with ^, a % also
// followed by a ^ so that no %NAME% of cmd.exe can begin or end at it (on
// a command line, an undefined %NAME% is left as it is). cmd.exe cannot
// hold a line break in a line: such an argument cannot be written.
//
// The cmd.exe lines assume its defaults: delayed expansion off (with
// cmd /V:ON, or the registry's DelayedExpansion, a !NAME! of a defined
// variable is expanded and a lone ! dropped, in double quotes or not, and
// no writing of a ! holds in both modes).
package shellquote

import "strings"

// Part is a piece of one argument: literal text, or the value of an
// environment variable, which the shell puts in ("$NAME", %NAME%), so that
// a secret (the service key) is not written into the line.
type Part struct {
	// Text is literal text, when Env is empty.
	Text string
	// Env names the environment variable whose value this part is.
	Env string
}

// Lit is a part of literal text.
func Lit(s string) Part { return Part{Text: s} }

// Env is a part that is the value of environment variable name.
func Env(name string) Part { return Part{Env: name} }

// plain are the characters no shell of either kind reads specially.
const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:+="

// Word is the argument made of parts for a POSIX shell, or for cmd.exe
// when windows is true; ok is false when cmd.exe cannot hold it (a line
// break in it), and then the word is in plain double quotes.
func Word(windows bool, parts ...Part) (word string, ok bool) {
	parts = joined(parts)
	if windows {
		return cmdWord(parts)
	}
	return posixWord(parts), true
}

// joined is parts with literal texts side by side made one, and empty
// ones left out (one empty text stays when nothing else is left): the
// backslashes at the end of a text are doubled when a double quote
// follows, which the next text's first character or the closing quote
// after an empty last text may be.
func joined(parts []Part) []Part {
	out := make([]Part, 0, len(parts))
	for _, p := range parts {
		switch n := len(out); {
		case p.Env == "" && p.Text == "":
		case p.Env == "" && n > 0 && out[n-1].Env == "":
			out[n-1].Text += p.Text
		default:
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, Lit(""))
	}
	return out
}

// literal reports whether parts are one literal text, and which.
func literal(parts []Part) (string, bool) {
	if len(parts) == 1 && parts[0].Env == "" {
		return parts[0].Text, true
	}
	return "", false
}

// posixWord: single quotes around the literal text, "$NAME" for a
// variable.
func posixWord(parts []Part) string {
	if s, ok := literal(parts); ok && s != "" && strings.Trim(s, plain+"@,") == "" {
		return s // @ and , are plain to a POSIX shell
	}
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.Env != "":
			b.WriteString(`"$` + p.Env + `"`)
		case p.Text != "" || len(parts) == 1:
			b.WriteString("'" + strings.ReplaceAll(p.Text, "'", `'\''`) + "'")
		}
	}
	return b.String()
}

// cmdSpecial are the characters cmd.exe reads specially outside double
// quotes (and " itself, which toggles them).
const cmdSpecial = `^&|<>()"%`

// cmdWord is the argument for cmd.exe and the program's parser (see the
// package's documentation).
func cmdWord(parts []Part) (string, bool) {
	s, lit := literal(parts)
	if lit && s != "" && strings.Trim(s, plain+`\`) == "" {
		return s, true
	}
	ok, simple := true, true
	for _, p := range parts {
		ok = ok && !strings.ContainsAny(p.Text, "\r\n")
		simple = simple && !strings.ContainsAny(p.Text, `"%`)
	}
	if !ok || simple {
		// In double quotes, cmd.exe reads nothing but %NAME%, and the
		// program's parser a backslash only before a double quote: the
		// closing one.
		var b strings.Builder
		b.WriteByte('"')
		for i, p := range parts {
			switch {
			case p.Env != "":
				b.WriteString("%" + p.Env + "%")
			case i == len(parts)-1:
				t := strings.TrimRight(p.Text, `\`)
				b.WriteString(t + strings.Repeat(`\`, 2*(len(p.Text)-len(t))))
			default:
				b.WriteString(p.Text)
			}
		}
		b.WriteByte('"')
		return b.String(), ok
	}
	// The program's parser's double quotes, its \" for a quote (and
	// backslashes before one doubled), with every character cmd.exe
	// reads specially escaped with ^, so that cmd.exe never is inside
	// double quotes.
	var b strings.Builder
	afterPercent := false
	put := func(c byte) {
		if afterPercent || strings.IndexByte(cmdSpecial, c) >= 0 {
			b.WriteByte('^')
		}
		b.WriteByte(c)
		afterPercent = c == '%'
	}
	put('"')
	for i, p := range parts {
		if p.Env != "" {
			if afterPercent {
				// A data % just before: %% then %NAME% (on a command
				// line, %% is a % and the scan goes on at the second).
				afterPercent = false
			}
			b.WriteString("%" + p.Env + "%")
			continue
		}
		t := p.Text
		for j := 0; j < len(t); j++ {
			switch c := t[j]; c {
			case '\\':
				n := len(t[j:]) - len(strings.TrimLeft(t[j:], `\`))
				if j+n < len(t) && t[j+n] == '"' || j+n == len(t) && i == len(parts)-1 {
					n *= 2 // before a \" or the closing quote: each one doubled
				}
				for range n {
					put('\\')
				}
				j += len(t[j:]) - len(strings.TrimLeft(t[j:], `\`)) - 1
			case '"':
				put('\\')
				put('"')
			default:
				put(c)
			}
		}
	}
	put('"')
	return b.String(), true
}
