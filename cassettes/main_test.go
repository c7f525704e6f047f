package cassettes_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/internal/serve"
)

// TestMain doubles as the recorder subprocess of TestKillDuringRecording:
// with CASSETTES_TEST_RECORD=upstream,path set, the test binary runs a
// recording proxy, prints its address and serves until it is killed. It
// lets more tests run at once than one per CPU: many of them wait (on
// upstreams that never answer, a rate limit, a killed recorder) while
// others compute.
func TestMain(m *testing.M) {
	if spec := os.Getenv("CASSETTES_TEST_RECORD"); spec != "" {
		os.Exit(runRecorderChild(spec))
	}
	mocktest.MoreParallel(4)
	code := m.Run()
	refdeploy.StopShared()
	os.Exit(code)
}

func runRecorderChild(spec string) int {
	var upstream, path string
	if _, err := fmt.Sscanf(spec, "%s %s", &upstream, &path); err != nil {
		fmt.Fprintln(os.Stderr, "bad CASSETTES_TEST_RECORD:", err)
		return 2
	}
	up, err := url.Parse(upstream)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(5*time.Millisecond))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("http://%s\n", ln.Addr())
	// Served until the test kills the process.
	_ = serve.Run(context.Background(), ln, cassettes.NewProxy(up, rec, nil), serve.Options{})
	return 0
}
