package cassettes_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestLateAnswerLogMasksPathKey: the Recorder's debug line for a request
// answered after the recording stopped ("not recorded") names the request
// as recorded.DescribeRequest writes it: a key in its path
// (.../service.asmx/KEY, .../service.asmx/ReturnProvinces/KEY), which no
// call answered 200 had carried, was logged as sent. It is masked as the
// progress line masks it (every segment after the .asmx file that names
// no operation).
func TestLateAnswerLogMasksPathKey(t *testing.T) {
	t.Parallel()
	for _, tail := range []string{"/" + url.PathEscape(testKey), "/ReturnProvinces/" + url.PathEscape(testKey), "/" + url.PathEscape(testKey) + "?x=1"} {
		arrived, answer := make(chan struct{}), make(chan struct{})
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-answer
			http.Error(w, "not found", http.StatusNotFound)
		}))
		var logs mocktest.SyncBuffer
		path := filepath.Join(t.TempDir(), "late.yaml")
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0),
			cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			resp, err := rec.Client().Get(up.URL + asmx.ServicePath + tail)
			if err == nil {
				resp.Body.Close()
			}
		}()
		<-arrived
		_ = rec.Stop() // nothing recorded: ErrNothingRecorded
		close(answer)
		<-done
		up.Close()
		if !strings.Contains(logs.String(), "not recorded") {
			t.Fatalf("%s: no debug line for the call answered after Stop:\n%s", tail, logs.String())
		}
		noKeyIn(t, tail+": the log", logs.String())
	}
}
