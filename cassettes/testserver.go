package cassettes

import (
	"testing"

	"github.com/atmkit/atmkit/mockserver"
)

// Replay loads the cassettes at paths (files, or directories of .yaml files)
// and returns the option that makes a mock server answer from them, for
// mockserver.NewTestServer:
//
//	ts := mockserver.NewTestServer(t, cassettes.Replay(t, mockserver.MissFault, "testdata/cassettes"))
//
// A cassette that cannot be loaded, or one with no call in it, fails tb at
// once. miss says what the server does with a call it has no recording of.
func Replay(tb testing.TB, miss mockserver.MissPolicy, paths ...string) mockserver.Option {
	tb.Helper()
	ix, err := LoadIndex(paths)
	if err != nil {
		tb.Fatalf("cassettes.Replay: %v", err)
	}
	if st := ix.Stats(); st.Calls == 0 {
		tb.Fatalf("cassettes.Replay %q: no call of the service in %d interactions of %d files", paths, st.Interactions, st.Files)
	}
	tb.Cleanup(func() {
		if err := ix.Close(); err != nil {
			tb.Errorf("cassettes.Replay: close: %v", err)
		}
	})
	return mockserver.WithReplay(ix, miss)
}
