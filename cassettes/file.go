package cassettes

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// FilePath is the file a cassette path names: go-vcr appends .yaml to a
// cassette's name, so "testdata/search" and "testdata/search.yaml" are the
// same cassette. A path ending in .yml, or in either in another case
// (.YAML, .Yml), is taken as it is.
func FilePath(path string) string { return recorded.FilePath(path) }

// ReadFile reads the interactions of a cassette file. Its errors are
// ErrCassetteNotFound, ErrInvalidCassette or ErrUnsupportedFormat, wrapped
// with the path, or the file system's.
func ReadFile(path string) ([]*cassette.Interaction, error) { return recorded.ReadFile(path) }

// ReadFileContext is ReadFile that stops parsing when ctx is done (a
// cassette of hundreds of megabytes takes seconds), returning an error
// that wraps ctx's error.
func ReadFileContext(ctx context.Context, path string) ([]*cassette.Interaction, error) {
	return recorded.ReadFileContext(ctx, path)
}

// WriteFile writes interactions as a cassette, atomically: a temporary file
// in the same directory is written, synced and renamed over path, so readers
// and crashes see either the old or the new cassette, never a torn one.
// Interaction IDs are renumbered from 0.
func WriteFile(path string, list []*cassette.Interaction) error {
	return recorded.WriteFile(path, list)
}

// Files expands paths into cassette files: a directory stands for every
// .yaml and .yml file under it, in any case (sorted by path), but dot
// files, a path without extension for
// path.yaml. A file named twice (through a symbolic link too) is listed
// once. A path that names nothing, an empty one, and a file whose name
// lacks .yaml or .yml with no path.yaml beside it are
// ErrCassetteNotFound, saying which; one that names a device, a named
// pipe or a socket is ErrInvalidCassette.
func Files(paths ...string) ([]string, error) { return recorded.Files(paths...) }

// ScrubFile scrubs a cassette made elsewhere (see ScrubList; headers names
// more headers to replace) and rewrites it atomically when anything was
// replaced, its interactions' IDs as they were (go-vcr never reads them:
// a user's own numbering replays as any). It returns the number of values replaced and of interactions
// that held any.
//
// It holds the cassette's lock while it reads and writes: when a Recorder
// or another rewrite holds it, the error is ErrCassetteBusy.
func ScrubFile(path string, headers ...string) (replaced, interactions int, err error) {
	r, err := ScrubCassette(path, false, headers...)
	return r.Replaced, r.Interactions, err
}

// ScrubResult is what ScrubCassette found in a cassette.
type ScrubResult struct {
	Replaced     int // values replaced (or, checking, to replace)
	Interactions int // interactions that held any
	Rejections   int // interactions marked as key rejections
}

// ScrubCassette is ScrubFile that also counts the key rejections; with
// check it only counts, writing nothing and taking no lock.
//
// Answers recorded compressed (go-vcr's, for a client that asked for
// gzip) are scrubbed decompressed, as replay serves them: a key the
// deployment echoed in one is found. A cassette rewritten holds them
// decompressed; one whose body does not decode is ErrInvalidCassette, as
// it cannot be checked.
func ScrubCassette(path string, check bool, headers ...string) (ScrubResult, error) {
	return ScrubCassetteContext(context.Background(), path, check, headers...)
}

// ScrubCassetteContext is ScrubCassette that stops reading and scrubbing
// when ctx is done, returning an error that wraps ctx's error and leaving
// the cassette as it was.
func ScrubCassetteContext(ctx context.Context, path string, check bool, headers ...string) (ScrubResult, error) {
	var r ScrubResult
	scrub := func() error {
		list, err := ReadFileContext(ctx, path)
		if err != nil {
			return err
		}
		names := recorded.Names(list)
		for pos, i := range list {
			if _, err := recorded.Decompress(i); err != nil {
				return fmt.Errorf("%w: %s: interaction %s: %w", ErrInvalidCassette, FilePath(path), names[pos], err)
			}
		}
		r.Replaced, r.Interactions, r.Rejections = scrubList(ctx, list, nil, headers...)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("scrub cassette %s: %w", path, err) // nothing written
		}
		if check || r.Replaced == 0 {
			return nil
		}
		return recorded.RewriteFile(path, list) // the IDs as they are
	}
	if check {
		return r, scrub()
	}
	return r, recorded.Rewrite(FilePath(path), scrub)
}

// ScrubList scrubs the interactions of one cassette made elsewhere, as a
// Recorder would have written them: Scrub on each (headers names more
// headers to replace), and the key rejections marked by the Recorder's
// rule (see RejectedPlaceholder), which needs the raw keys and so the
// whole cassette before it is scrubbed. The keys found are then swept
// from every interaction, where one holds another's key outside a call
// (a request to .../service.asmx/KEY, its echo; the first crossKeys keys
// found, those of calls answered 200 first). It returns the number of values replaced, of interactions that
// held any, and of those marked as key rejections. Interactions already
// scrubbed keep their marks.
func ScrubList(list []*cassette.Interaction, headers ...string) (replaced, interactions, rejections int) {
	return scrubList(context.Background(), list, nil, headers...)
}

// crossKeys bounds the keys ScrubList sweeps from every interaction of a
// cassette: each costs a pass over all of them. A cassette holds one or a
// few raw keys; a scrubbed one none.
const crossKeys = 16

// addKeys adds to keys those of more it does not hold, up to crossKeys.
func addKeys(keys, more []string) []string {
	for _, k := range more {
		if len(keys) < crossKeys && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// scrubList is ScrubList that stops at the next interaction once ctx is
// done (the caller checks ctx), and sweeps secrets (WithSecrets' values)
// from every interaction with the keys found, in one sweep: a secret
// holding a key, or a key holding one, is swept whole.
func scrubList(ctx context.Context, list []*cassette.Interaction, secrets []string, headers ...string) (replaced, interactions, rejections int) {
	marks := markRejections(list)
	held := make([]bool, len(list))
	var found, refused []string
	for j, i := range list {
		if ctx.Err() != nil {
			break
		}
		n, keys := recorded.ScrubFound(i, Placeholder)
		n += scrubHeaders(i, headers)
		if i.Response.Code == http.StatusOK {
			found = addKeys(found, keys)
		} else {
			refused = addKeys(refused, keys)
		}
		if n == 0 {
			continue
		}
		replaced += n
		held[j] = true
		if marks[j] {
			recorded.MarkKey(i, RejectedPlaceholder)
			rejections++
		}
	}
	// The keys answered 200 first: many wrong keys would crowd them out.
	found = append(addKeys(found, refused), secrets...)
	for j, i := range list {
		if len(found) == 0 || ctx.Err() != nil {
			break
		}
		if n := recorded.SweepInteraction(i, Placeholder, found...); n > 0 {
			replaced += n
			held[j] = true
		}
	}
	for _, h := range held {
		if h {
			interactions++
		}
	}
	return replaced, interactions, rejections
}
