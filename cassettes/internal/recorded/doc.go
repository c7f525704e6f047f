// Package recorded is the cassette model that package cassettes and
// package cassettes/verify share: go-vcr's file (read, written atomically,
// expanded from paths), what a recorded request is (a call of an operation,
// decoded with the asmx decoders, or another request), and how a key is
// scrubbed, marked as rejected and put back.
//
// It is no public API: cassettes exports what a user needs of it
// (ReadFile, WriteFile, Files, Scrub, Placeholder, KeyRejected, …). It
// imports neither cassettes nor verify.
package recorded

import "errors"

// Errors of reading cassettes; package cassettes exports them under the
// same names.
var (
	// ErrCassetteNotFound: no cassette file at the path.
	ErrCassetteNotFound = errors.New("cassette not found")
	// ErrInvalidCassette: the file is not a go-vcr cassette.
	ErrInvalidCassette = errors.New("invalid cassette")
	// ErrUnsupportedFormat: the cassette is of another go-vcr format version than 2.
	ErrUnsupportedFormat = errors.New("unsupported cassette format version (want 2)")
)
