package recorded

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/atomicfile"
	"github.com/atmkit/atmkit/internal/filelock"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/yaml.v3"
)

// file is a cassette as go-vcr v3 writes it (format version 2).
type file struct {
	Version      int                     `yaml:"version"`
	Interactions []*cassette.Interaction `yaml:"interactions"`
}

// FilePath is the file a cassette path names: go-vcr appends .yaml to a
// cassette's name, so "testdata/search" and "testdata/search.yaml" are the
// same cassette. A path ending in .yml, or in either in another case
// (.YAML, .Yml), is taken as it is.
func FilePath(path string) string {
	if HasCassetteExt(path) {
		return path
	}
	return path + ".yaml"
}

// HasCassetteExt reports whether name ends in .yaml or .yml, in any case:
// a cassette saved as NAME.YAML (by a tool or an editor on Windows or
// macOS, whose file systems ignore the case) is a cassette too, read, not
// skipped.
func HasCassetteExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// ReadFile reads the interactions of a cassette file.
func ReadFile(path string) ([]*cassette.Interaction, error) {
	return ReadFileContext(context.Background(), path)
}

// ReadFileContext is ReadFile that stops parsing when ctx is done (a large
// cassette takes seconds: yaml.v3 parses about 40 MB/s), returning an error
// that wraps ctx's error.
func ReadFileContext(ctx context.Context, path string) ([]*cassette.Interaction, error) {
	path = FilePath(path)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if to, lerr := os.Readlink(path); lerr == nil {
			return nil, fmt.Errorf("%w: %s is a symbolic link to %s, which does not exist", ErrCassetteNotFound, path, to)
		}
		return nil, fmt.Errorf("%w: %s", ErrCassetteNotFound, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read cassette: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: %s is empty: no go-vcr cassette (atmkit's recorder never leaves one empty; another tool's may be writing it: run this again once it has stopped)", ErrInvalidCassette, path)
	}
	var f file
	// The decoder parses as Unmarshal does, reading its input as it goes,
	// a few hundred bytes at a time: a reader that fails once ctx is done
	// ends the parse there.
	dec := yaml.NewDecoder(&ctxReader{ctx: ctx, r: bytes.NewReader(data)})
	err = dec.Decode(&f)
	if err == nil {
		// Two cassettes joined (cat a.yaml b.yaml: atmkit writes each
		// beginning with "---") are two YAML documents, of which a
		// decoder reads the first alone: the second's interactions would
		// be neither replayed, nor scrubbed, nor checked, and a rewrite
		// would drop them.
		var next yaml.Node
		switch nerr := dec.Decode(&next); {
		case nerr == nil && len(next.Content) > 0 && next.Content[0].Tag != "!!null": // not a lone "---"
			return nil, fmt.Errorf("%w: %s holds more than one YAML document (cassettes joined?): a cassette is one document; put every interaction in its one interactions list", ErrInvalidCassette, path)
		case nerr != nil && !errors.Is(nerr, io.EOF):
			err = nerr
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("read cassette %s: %w", path, ctx.Err())
	}
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s holds no YAML document: no go-vcr cassette", ErrInvalidCassette, path)
	}
	if err != nil {
		// A cassette of go-vcr v1 or v2 (format version 1) fails on
		// fields this one reads otherwise (an empty duration): its
		// version says what is wrong.
		var head struct {
			Version any `yaml:"version"`
		}
		if yaml.Unmarshal(data, &head) == nil && head.Version != nil && head.Version != cassette.CassetteFormatV2 {
			return nil, unsupported(path, head.Version)
		}
		return nil, fmt.Errorf("%w: %s: %s%s", ErrInvalidCassette, path, unquotedYAML(err), tabHint(data, err))
	}
	if f.Version == 0 && len(f.Interactions) == 0 {
		return nil, fmt.Errorf("%w: %s holds no version and no interactions: no go-vcr cassette (a settings or shape file? keep other YAML files out of cassette directories)", ErrInvalidCassette, path)
	}
	if f.Version != cassette.CassetteFormatV2 {
		return nil, unsupported(path, f.Version)
	}
	for j, i := range f.Interactions {
		if i == nil {
			return nil, fmt.Errorf("%w: %s: the interaction at position %d (from 0) is empty", ErrInvalidCassette, path, j)
		}
	}
	return f.Interactions, nil
}

// unquotedYAML is err's text with the values a *yaml.TypeError quotes
// left out ("cannot unmarshal !!str `s3cr3t-...` into []string" reads
// "cannot unmarshal !!str into []string"): a file refused as no cassette
// may hold a raw key there (one made elsewhere, a key's file), and the
// line and the types say what is wrong.
func unquotedYAML(err error) string {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err.Error()
	}
	const cannot = "cannot unmarshal "
	msgs := make([]string, len(te.Errors))
	for j, m := range te.Errors {
		if i := strings.Index(m, cannot+"!!"); i >= 0 {
			rest := m[i+len(cannot):]
			if q, end := strings.Index(rest, " `"), strings.LastIndex(rest, "` into "); q >= 0 && end > q {
				m = m[:i+len(cannot)] + rest[:q] + rest[end+1:]
			}
		}
		msgs[j] = m
	}
	return "yaml: unmarshal errors:\n  " + strings.Join(msgs, "\n  ")
}

// unsupported is the error of a cassette of another format version.
func unsupported(path string, version any) error {
	return fmt.Errorf("%w: %s has version %v; atmkit reads go-vcr v3's format version %d only (record it again with atmkit record)", ErrUnsupportedFormat, path, version, cassette.CassetteFormatV2)
}

// ctxReader reads r until ctx is done, then fails with ctx's error.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
	n   int
	err error
}

func (c *ctxReader) Read(b []byte) (int, error) {
	if c.n++; c.err == nil && c.n%64 == 0 { // every 32 KB or so
		c.err = c.ctx.Err()
	}
	if c.err != nil {
		return 0, c.err
	}
	return c.r.Read(b)
}

// marshal renders interactions as a go-vcr cassette.
func marshal(list []*cassette.Interaction) ([]byte, error) {
	items := make([][]byte, len(list))
	for j, i := range list {
		var err error
		if items[j], err = MarshalItem(i); err != nil {
			return nil, fmt.Errorf("interaction %d: %w", i.ID, err) // WriteFile numbered them from 0
		}
	}
	return JoinItems(items), nil
}

// itemsHead is what yaml.v3 writes before the items of a cassette's
// interactions list.
const itemsHead = "version: 2\ninteractions:\n"

// MarshalItem renders one interaction as an item of a cassette's
// interactions list, indented as in the whole file: a block item is written
// the same whatever its neighbours, so a cassette is its items joined, and a
// recorder encodes each interaction once rather than on every save.
//
// An item is written only if it reads back as the interaction it encodes.
// yaml.v3 writes some multi-line strings as literal blocks it cannot read
// back, and a map key "<<" as a merge key (see quoteItem); those strings,
// and only those, are written double-quoted instead.
func MarshalItem(i *cassette.Interaction) ([]byte, error) {
	it, err := EncodeItem(i)
	if err != nil {
		return nil, err
	}
	return it.Bytes(), nil
}

// marshalItem is MarshalItem through yaml.v3 alone.
func marshalItem(i *cassette.Interaction) ([]byte, error) {
	item, err := marshalOne(file{Version: cassette.CassetteFormatV2, Interactions: []*cassette.Interaction{i}})
	if err != nil {
		return nil, err
	}
	if readsBack(item, i) {
		return item, nil
	}
	for _, all := range []bool{false, true} {
		if item, err = quoteItem(i, all); err != nil {
			return nil, err
		}
		if readsBack(item, i) {
			return item, nil
		}
	}
	return nil, errors.New("yaml.v3 cannot write it so that it reads back")
}

// marshalOne encodes v (a one-item file, or its node) and cuts the head off.
func marshalOne(v any) ([]byte, error) {
	data, err := yaml.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(itemsHead)) {
		return nil, fmt.Errorf("unexpected YAML head %.40q", data)
	}
	return data[len(itemsHead):], nil
}

// readsBack reports whether item decodes to an interaction equal to i.
func readsBack(item []byte, i *cassette.Interaction) bool {
	back, err := UnmarshalItem(item)
	return err == nil && sameValue(reflect.ValueOf(i).Elem(), reflect.ValueOf(back).Elem())
}

// sameValue compares what YAML carries of two values: exported fields not
// tagged yaml:"-", with nil and empty slices and maps alike (an empty header
// list is written as {} and read back as an empty map).
func sameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Struct:
		t := a.Type()
		for k := range t.NumField() {
			f := t.Field(k)
			if !f.IsExported() || f.Tag.Get("yaml") == "-" {
				continue
			}
			if !sameValue(a.Field(k), b.Field(k)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for k := range a.Len() {
			if !sameValue(a.Index(k), b.Index(k)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !sameValue(it.Value(), bv) {
				return false
			}
		}
		return true
	default:
		return a.Equal(b)
	}
}

// quoteItem encodes i with its risky strings double-quoted: with all, every
// string holding a line break; otherwise those yaml.v3 (v3.0.1) writes as
// literal blocks it cannot read back (go-yaml/yaml#888, yaml/go-yaml#76):
// a string that begins with a line break loses it (the break ends the
// block's header line), one that begins with a space or a line break gets an
// indentation indicator that is wrong inside a sequence (form and header
// values: the block is read as ending early, or fails to parse), and one
// whose first line begins with a tab gets none and fails to parse; and
// "<<" (in both passes), which yaml.v3 writes plain as a map key, where it
// reads as a merge key. Short of
// writing YAML by hand, the strings are swapped for placeholders, the item
// encoded to a node (yaml.v3 renders a Go value to a node only through its
// emitter and parser), and the placeholders' scalars given back their
// strings, double-quoted.
func quoteItem(i *cassette.Interaction, all bool) ([]byte, error) {
	taken := map[string]bool{}
	rewrite(i, func(s string) string { taken[s] = true; return s })
	quoted := map[string]string{}
	n := 0
	c := rewrite(i, func(s string) string {
		// A string not in UTF-8 is written as !!binary, in base64.
		risky := s == mergeKey || hasBreak(s) && (all || startsBlank(s))
		if !risky || !utf8.ValidString(s) {
			return s
		}
		for {
			n++
			ph := fmt.Sprintf("quoted-%d", n)
			if !taken[ph] {
				quoted[ph] = s
				return ph
			}
		}
	})
	var node yaml.Node
	if err := node.Encode(file{Version: cassette.CassetteFormatV2, Interactions: []*cassette.Interaction{c}}); err != nil {
		return nil, err
	}
	var restore func(*yaml.Node)
	restore = func(n *yaml.Node) {
		if s, ok := quoted[n.Value]; ok && n.Kind == yaml.ScalarNode {
			n.Value, n.Style, n.Tag = s, yaml.DoubleQuotedStyle, "!!str"
		}
		for _, c := range n.Content {
			restore(c)
		}
	}
	restore(&node)
	return marshalOne(&node)
}

// mergeKey is YAML's merge key: yaml.v3 writes a map key "<<" (a form
// parameter's name) plain, and reads it back as a merge, which fails.
const mergeKey = "<<"

// hasBreak reports whether s holds a YAML line break.
func hasBreak(s string) bool {
	return strings.ContainsAny(s, "\n\r\u0085\u2028\u2029")
}

// startsBlank reports whether s begins with a space, a tab or a line break.
func startsBlank(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == ' ' || r == '\t' || hasBreak(string(r))
}

// rewrite copies i with every string YAML carries passed through f: the
// strings of the request and the response, their lists, and the keys and
// values of their maps.
func rewrite(i *cassette.Interaction, f func(string) string) *cassette.Interaction {
	c := *i
	q, p := &c.Request, &c.Response
	q.Proto, q.Host, q.RemoteAddr, q.RequestURI = f(q.Proto), f(q.Host), f(q.RemoteAddr), f(q.RequestURI)
	q.Body, q.URL, q.Method = f(q.Body), f(q.URL), f(q.Method)
	q.TransferEncoding = rewriteList(q.TransferEncoding, f)
	q.Trailer, q.Headers = rewriteMap(q.Trailer, f), rewriteMap(q.Headers, f)
	q.Form = rewriteMap(q.Form, f)
	p.Proto, p.Body, p.Status = f(p.Proto), f(p.Body), f(p.Status)
	p.TransferEncoding = rewriteList(p.TransferEncoding, f)
	p.Trailer, p.Headers = rewriteMap(p.Trailer, f), rewriteMap(p.Headers, f)
	return &c
}

func rewriteList(l []string, f func(string) string) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for k, s := range l {
		out[k] = f(s)
	}
	return out
}

func rewriteMap[M ~map[string][]string](m M, f func(string) string) M {
	if m == nil {
		return nil
	}
	out := make(M, len(m))
	for k, l := range m {
		out[f(k)] = rewriteList(l, f)
	}
	return out
}

// JoinItems renders a cassette from its encoded interactions (MarshalItem).
func JoinItems(items [][]byte) []byte {
	if len(items) == 0 {
		return []byte(emptyCassette)
	}
	out := make([]byte, 0, ItemsSize(items))
	out = append(out, "---\n"+itemsHead...)
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

// emptyCassette is a cassette of no interactions.
const emptyCassette = "---\nversion: 2\ninteractions: []\n"

// ItemsSize is the size of the cassette of items (MarshalItem).
func ItemsSize(items [][]byte) int {
	if len(items) == 0 {
		return len(emptyCassette)
	}
	n := len("---\n") + len(itemsHead)
	for _, it := range items {
		n += len(it)
	}
	return n
}

// UnmarshalItem reads back one item MarshalItem wrote.
func UnmarshalItem(item []byte) (*cassette.Interaction, error) {
	var f file
	if err := yaml.Unmarshal(append([]byte(itemsHead), item...), &f); err != nil {
		return nil, err
	}
	if len(f.Interactions) != 1 || f.Interactions[0] == nil {
		return nil, fmt.Errorf("decode interaction: %d items, want 1", len(f.Interactions))
	}
	return f.Interactions[0], nil
}

// WriteItems writes the cassette of n items (MarshalItem's, in order),
// read from items, as WriteAtomic does, in style st, streaming them to the
// file rather than joining them in memory first: a long recording's
// cassette is not copied whole on every save.
func WriteItems(path string, n int, items io.Reader, st Style) error {
	if n == 0 {
		return WriteAtomic(path, st.apply(JoinItems(nil)))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cassette %s: %w", path, err)
	}
	err := atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error {
		w = st.writer(w)
		if _, err := io.WriteString(w, "---\n"+itemsHead); err != nil {
			return err
		}
		_, err := io.Copy(w, items)
		return err
	})
	if err != nil {
		return writeError(path, err)
	}
	return nil
}

// writeError is the error of writing the cassette at path, from
// atomicfile's, which names the file it wrote (path, or the file a link
// at path names): "write cassette P: no space left on device", not "write
// cassette P: write P: no space left on device". An *fs.PathError, so
// that RewriteFile finds the cause in it.
func writeError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "write" && pe.Path == atomicfile.Target(path) {
		return &fs.PathError{Op: "write cassette", Path: path, Err: pe.Err}
	}
	return fmt.Errorf("write cassette %s: %w", path, err)
}

// WriteFile writes interactions as a cassette, atomically: a temporary file
// in the same directory is written, synced and renamed over path, so readers
// and crashes see either the old or the new cassette, never a torn one.
// Interaction IDs are renumbered from 0.
func WriteFile(path string, list []*cassette.Interaction) error {
	path = FilePath(path)
	for j, i := range list {
		i.ID = j
	}
	data, err := marshal(list)
	if err != nil {
		return fmt.Errorf("encode cassette %s: %w", path, err)
	}
	return WriteAtomic(path, data)
}

// RewriteFile writes the interactions of the cassette at path again, read
// and changed in place (scrubbed, updated), as WriteFile does but keeping
// their IDs: go-vcr v3 writes them but never reads them (it matches and
// replays by request, and renumbers only when it saves a cassette it
// recorded), so a user's own numbering, gaps and all, stays, and a
// review's diff shows only what changed. Its error names path and why,
// not the temporary file the write goes through.
//
// The layout stays the file's too: a field an interaction of the file
// left out (go-vcr v4 leaves out transfer_encoding, trailer, remote_addr,
// request_uri, form, uncompressed and others when empty; v3 writes them
// all) is left out again while it is empty (see keepLayout); so do its
// byte order mark and CR LF line ends (Style).
func RewriteFile(path string, list []*cassette.Interaction) error {
	path = FilePath(path)
	var held []heldKeys
	var st Style
	if old, err := os.ReadFile(path); err == nil {
		held, st = layoutOf(old), StyleOf(old)
	}
	data, err := marshalKeeping(list, held)
	if err != nil {
		return fmt.Errorf("encode cassette %s: %w", path, err)
	}
	data = st.apply(data)
	if err := WriteAtomic(path, data); err != nil {
		var le *os.LinkError
		var pe *fs.PathError
		switch {
		case errors.As(err, &le):
			err = le.Err
		case errors.As(err, &pe):
			err = pe.Err
		}
		return fmt.Errorf("%s not rewritten, left as it was: %w (the new cassette is written to a temporary file beside it, then renamed over it)", path, err)
	}
	return nil
}

// WriteAtomic writes data to path atomically (internal/atomicfile), making
// its directory first.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cassette %s: %w", path, err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return writeError(path, err)
	}
	return nil
}

// Files expands paths into cassette files: a directory stands for every
// .yaml and .yml file under it, in any case (sorted by path), but dot
// files, a path without extension for
// path.yaml. A file named twice (through a symbolic link too) is listed
// once. A path that names nothing, an empty one, and a file whose name
// lacks .yaml or .yml with no path.yaml beside it are
// ErrCassetteNotFound, saying which; one that names a device, a named
// pipe or a socket is ErrInvalidCassette.
func Files(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "" {
			return nil, fmt.Errorf("%w: an empty path names no cassette", ErrCassetteNotFound)
		}
		given := p
		st, err := os.Stat(p)
		// A path ending in a separator names a directory, never a file.
		dir := strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator))
		if !dir && !HasCassetteExt(p) && (err != nil || !st.IsDir()) {
			// NAME stands for NAME.yaml, as go-vcr reads it; a file NAME
			// (a device, a pipe, a file without the extension) is none.
			if yst, yerr := os.Stat(FilePath(p)); yerr == nil || err != nil {
				p, st, err = FilePath(p), yst, yerr
			} else if st.Mode().IsRegular() {
				return nil, fmt.Errorf("%w: %s is a file whose name does not end in .yaml or .yml: a cassette's name is NAME.yaml (a name without it stands for NAME.yaml, as go-vcr reads it); rename it %s", ErrCassetteNotFound, p, FilePath(p))
			}
		}
		if errors.Is(err, fs.ErrNotExist) {
			if dir {
				return nil, fmt.Errorf("%w: no directory %s", ErrCassetteNotFound, p)
			}
			if given != p { // a directory was perhaps meant: name both
				return nil, fmt.Errorf("%w: %s (no file or directory %s either)", ErrCassetteNotFound, p, given)
			}
			return nil, fmt.Errorf("%w: %s", ErrCassetteNotFound, p)
		}
		if err != nil {
			return nil, fmt.Errorf("cassettes: %w", err)
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() { // read, /dev/zero never ends; a pipe blocks, and a rewrite would replace it
				return nil, fmt.Errorf("%w: %s: %s, not a cassette file", ErrInvalidCassette, p, notFile(st.Mode()))
			}
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			base := d.Name()
			if d.IsDir() || strings.HasPrefix(base, ".") || !HasCassetteExt(base) {
				return nil
			}
			if !d.Type().IsRegular() { // a link to a cassette is one; a pipe would hang its reader
				if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
					return fmt.Errorf("%w: %s: %s, not a cassette file", ErrInvalidCassette, path, notFile(st.Mode()))
				}
			}
			found = append(found, path)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cassettes: %w", err)
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return once(out), nil
}

// notFile names the kind of a file mode that is not a regular file's.
func notFile(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// once keeps the first of the paths that name the same file ("a.yaml" and
// "./a.yaml", a directory and a file in it): read twice, a cassette's
// interactions would count twice.
func once(paths []string) []string {
	seen := map[string]bool{}
	out := paths[:0]
	for _, p := range paths {
		k := filepath.Clean(p)
		if abs, err := filepath.Abs(p); err == nil {
			k = abs
		}
		// A symbolic link and the file it names (a directory of links to
		// cassettes beside them) are one cassette.
		if real, err := filepath.EvalSymlinks(p); err == nil {
			if abs, err := filepath.Abs(real); err == nil {
				k = abs
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// Rewrite runs rewrite (which reads the cassette at path and may write it
// again) holding the cassette's lock, which a Recorder that may record
// holds too: a rewrite never drops what a recording adds, nor the other
// way round. When another holds the lock, the error wraps
// filelock.ErrLocked.
func Rewrite(path string, rewrite func() error) error {
	l, err := filelock.TryLock(path)
	if errors.Is(err, filelock.ErrUnsupported) {
		return rewrite() // as before there were locks
	}
	if err != nil {
		return fmt.Errorf("cassette %w", err)
	}
	RemoveTemps(atomicfile.Target(path)) // beside the file a save replaces
	err = rewrite()
	if uerr := l.Unlock(); err == nil {
		err = uerr
	}
	return err
}

// RemoveTemps removes the temporary files a save of the cassette at path
// left when its process was killed mid-write (atomicfile's dot files
// beside it, ".NAME.yaml.*.tmp"), and returns their names. Only the holder
// of the cassette's lock may call it: no other save of it is under way then.
func RemoveTemps(path string) []string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	prefix := "." + base + "."
	for _, e := range entries {
		n := e.Name()
		if len(n) <= len(prefix)+len(".tmp") || !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ".tmp") || !e.Type().IsRegular() {
			continue
		}
		if os.Remove(filepath.Join(dir, n)) == nil {
			removed = append(removed, filepath.Join(dir, n))
		}
	}
	return removed
}
