package recorded

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/internal/atomicfile"
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
// same cassette. A path ending in .yml is taken as it is.
func FilePath(path string) string {
	if strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") {
		return path
	}
	return path + ".yaml"
}

// ReadFile reads the interactions of a cassette file.
func ReadFile(path string) ([]*cassette.Interaction, error) {
	path = FilePath(path)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrCassetteNotFound, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read cassette: %w", err)
	}
	var f file
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalidCassette, path, err)
	}
	if f.Version == 0 && len(f.Interactions) == 0 {
		return nil, fmt.Errorf("%w: %s holds no version and no interactions: no go-vcr cassette (a settings or shape file? keep other YAML files out of cassette directories)", ErrInvalidCassette, path)
	}
	if f.Version != cassette.CassetteFormatV2 {
		return nil, fmt.Errorf("%w: %s has version %d", ErrUnsupportedFormat, path, f.Version)
	}
	for j, i := range f.Interactions {
		if i == nil {
			return nil, fmt.Errorf("%w: %s: interaction %d is empty", ErrInvalidCassette, path, j)
		}
	}
	return f.Interactions, nil
}

// marshal renders interactions as a go-vcr cassette.
func marshal(list []*cassette.Interaction) ([]byte, error) {
	items := make([][]byte, len(list))
	for j, i := range list {
		var err error
		if items[j], err = MarshalItem(i); err != nil {
			return nil, err
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
func MarshalItem(i *cassette.Interaction) ([]byte, error) {
	data, err := yaml.Marshal(file{Version: cassette.CassetteFormatV2, Interactions: []*cassette.Interaction{i}})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(itemsHead)) {
		return nil, fmt.Errorf("encode interaction %d: unexpected YAML head %.40q", i.ID, data)
	}
	return data[len(itemsHead):], nil
}

// JoinItems renders a cassette from its encoded interactions (MarshalItem).
func JoinItems(items [][]byte) []byte {
	if len(items) == 0 {
		return []byte("---\nversion: 2\ninteractions: []\n")
	}
	n := len("---\n") + len(itemsHead)
	for _, it := range items {
		n += len(it)
	}
	out := make([]byte, 0, n)
	out = append(out, "---\n"+itemsHead...)
	for _, it := range items {
		out = append(out, it...)
	}
	return out
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

// WriteItems writes the cassette of items (MarshalItem) to path as
// WriteAtomic does, streaming them to the file rather than joining them in
// memory first: a long recording's cassette is not copied whole on every save.
func WriteItems(path string, items [][]byte) error {
	if len(items) == 0 {
		return WriteAtomic(path, JoinItems(nil))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cassette: %w", err)
	}
	err := atomicfile.WriteFunc(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, "---\n"+itemsHead); err != nil {
			return err
		}
		for _, it := range items {
			if _, err := w.Write(it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write cassette %s: %w", path, err)
	}
	return nil
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

// WriteAtomic writes data to path atomically (internal/atomicfile), making
// its directory first.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write cassette: %w", err)
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write cassette %s: %w", path, err)
	}
	return nil
}

// Files expands paths into cassette files: a directory stands for every
// .yaml and .yml file under it (sorted by path), a path without extension for
// path.yaml. A path that names nothing is ErrCassetteNotFound.
func Files(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		given := p
		st, err := os.Stat(p)
		// A path ending in a separator names a directory, never a file.
		dir := strings.HasSuffix(p, "/") || strings.HasSuffix(p, string(filepath.Separator))
		if err != nil && !dir && !strings.HasSuffix(p, ".yaml") {
			p = FilePath(p)
			st, err = os.Stat(p)
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
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			base := d.Name()
			if !d.IsDir() && !strings.HasPrefix(base, ".") && (strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml")) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cassettes: %w", err)
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return out, nil
}
