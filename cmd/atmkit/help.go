package main

import (
	"embed"
	"strings"
)

// The long help of each command (its examples and notes, after the flags)
// and the usage of each command group are text files in help/, named after
// the command ("cassette-verify.txt"), written as --help prints them.
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the text of help/NAME.txt, without its last line break; ""
// if there is none (TestHelpTexts checks that every command has one).
func helpText(name string) string {
	b, _ := helpFiles.ReadFile("help/" + name + ".txt")
	return strings.TrimRight(string(b), "\n")
}
