package mocktest

import (
	"bytes"
	"regexp"
	"strings"
)

// AsDotNetLines is text written with LF line ends (and no CR LF), as Mono on Linux writes
// an indented document (a GET or POST answer, ?WSDL, ?disco, ?schema=, a
// DataSet's schema), with the CR LF .NET Framework writes instead: its
// XmlTextWriter breaks lines with TextWriter.WriteLine, and mscorlib's
// TextWriter.CoreNewLine is CR LF, where Mono's is Environment.NewLine, LF
// on Linux. The mock writes what .NET Framework writes, so tests that
// compare its bytes with Mono's recordings convert those recordings with
// this: a Mono difference (docs/asmx.md, "Mono and .NET"). It is not for
// line ends that stand for something else, such as a file edited on
// Windows.
func AsDotNetLines(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// AsDotNetLinesBytes is AsDotNetLines for bytes; b is left as it is.
func AsDotNetLinesBytes(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }

// indentBreak is a line break an indenting writer writes: one before a
// tag, after the indentation.
var indentBreak = regexp.MustCompile(`\n( *<)`)

// AsDotNetIndentBytes is AsDotNetLinesBytes for a document whose values
// may hold line feeds of their own, which both runtimes write as they are:
// only the breaks before a tag (an indenting writer's) become CR LF.
func AsDotNetIndentBytes(b []byte) []byte { return indentBreak.ReplaceAll(b, []byte("\r\n$1")) }
