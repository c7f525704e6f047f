package recorded

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
)

// Style is how a cassette file is written beyond what YAML reads: a byte
// order mark before it (Notepad's "UTF-8 with BOM"), CR LF line ends (a
// checkout or an editor on Windows). Every reader takes both; a rewrite
// (scrub, verify --update, a recording adding to the file) keeps the
// file's, so that its diff shows what changed, not every line. YAML reads
// a line break in a literal block as LF whichever it is, and atmkit writes
// any other CR of a value escaped, so the file reads back the same.
type Style struct {
	BOM  bool // the file starts with U+FEFF in UTF-8
	CRLF bool // its lines end in CR LF
}

// bom is U+FEFF in UTF-8.
const bom = "\xEF\xBB\xBF"

// StyleOf is the Style of a cassette file that starts with data: its
// byte order mark, and the end of its first line.
func StyleOf(data []byte) Style {
	st := Style{BOM: bytes.HasPrefix(data, []byte(bom))}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		st.CRLF = true
	}
	return st
}

// StyleOfFile is the Style of the cassette file at path, from its first
// kilobytes; the zero Style (LF, no mark) when it cannot be read.
func StyleOfFile(path string) Style {
	f, err := os.Open(path)
	if err != nil {
		return Style{}
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	return StyleOf(buf[:n])
}

// apply returns data, a cassette as atmkit writes it (LF, no mark), in
// style st.
func (st Style) apply(data []byte) []byte {
	if st == (Style{}) {
		return data
	}
	var b bytes.Buffer
	b.Grow(len(data) + len(data)/32)
	w := st.writer(&b)
	_, _ = w.Write(data) // a bytes.Buffer does not fail
	return b.Bytes()
}

// writer returns a writer that writes what it is given to w in style st:
// the mark first, each LF not after a CR as CR LF.
func (st Style) writer(w io.Writer) io.Writer {
	if st == (Style{}) {
		return w
	}
	return &styleWriter{w: w, st: st}
}

type styleWriter struct {
	w       io.Writer
	st      Style
	started bool // the mark is written
	prevCR  bool // the last byte written was a CR
}

func (s *styleWriter) Write(p []byte) (int, error) {
	if !s.started {
		s.started = true
		if s.st.BOM {
			if _, err := io.WriteString(s.w, bom); err != nil {
				return 0, err
			}
		}
	}
	if !s.st.CRLF {
		return s.w.Write(p)
	}
	n := 0
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if _, err := s.w.Write(p); err != nil {
				return n, err
			}
			s.prevCR = p[len(p)-1] == '\r'
			return n + len(p), nil
		}
		cr := i > 0 && p[i-1] == '\r' || i == 0 && s.prevCR
		if _, err := s.w.Write(p[:i]); err != nil {
			return n, err
		}
		end := "\n"
		if !cr {
			end = "\r\n"
		}
		if _, err := io.WriteString(s.w, end); err != nil {
			return n + i, err
		}
		s.prevCR = false
		n += i + 1
		p = p[i+1:]
	}
	return n, nil
}

// yamlLineRE finds the line a yaml.v3 error names.
var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+):`)

// tabHint is what to add to err, yaml.v3's error on a cassette's text
// data, when a line it names (yaml.v3 counts some from 0, some from 1) or
// the next is indented with a tab, as an editor may indent a hand edit:
// YAML indents with spaces only, and yaml.v3 says so in words of its own
// ("found character that cannot start any token"); "" otherwise.
func tabHint(data []byte, err error) string {
	m := yamlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	n, _ := strconv.Atoi(m[1])
	lines := bytes.SplitN(data, []byte("\n"), n+2)
	for _, l := range []int{n, n + 1} { // 1-based
		if l < 1 || l > len(lines) {
			continue
		}
		indent := lines[l-1][:len(lines[l-1])-len(bytes.TrimLeft(lines[l-1], " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return fmt.Sprintf(" (line %d is indented with a tab: YAML indents with spaces only)", l)
		}
	}
	return ""
}
