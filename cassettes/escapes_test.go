package cassettes_test

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// TestRecorderSweepsOtherEscapes: a key holding characters a URL escapes
// (a base64 key's '/', '+', '='; here '/' and ':'), carried by a call
// answered 200 with one set of escapes (%2f, %3A), is swept from the
// cassette where it is written with others: the hex in the other case
// (%2F, %3a), a '/' left as it is, a letter escaped, in a query value, a
// path, a header, an echo; in interactions recorded before the call (and
// saved) and after it. Only the literal forms of the key were swept (its
// escapes as the call wrote them, all upper or all lower case), and the
// file kept the key written otherwise. Nor do the log and cassette list
// show it.
func TestRecorderSweepsOtherEscapes(t *testing.T) {
	t.Parallel()
	const key = "s3cr3t/KEY:4242"
	up := mockserver.NewTestServer(t, mockserver.WithKeys(key))
	var logs mocktest.SyncBuffer
	path := filepath.Join(t.TempDir(), "escapes.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(time.Hour),
		cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	get := func(u string, header ...string) int {
		t.Helper()
		req := mustGet(t, up.URL+asmx.ServicePath+u)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := rec.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	get("/s3cr3t%2FKEY%3a4242")
	get("/ReturnProvinces?strAtmServiceKey=wrong-key-1&note=s3cr3t/KEY%3a4242", "Referer", "http://app/page?k=%733cr3t%2FKEY:4242")
	if err := rec.Save(); err != nil {
		t.Fatal(err)
	}
	if status := get("/ReturnProvinces?strAtmServiceKey=s3cr3t%2fKEY%3A4242"); status != http.StatusOK {
		t.Fatalf("the key's call: %d, want 200", status)
	}
	get("/ReturnInstitutions?strAtmServiceKey=wrong-key-2&note=s3cr3t%2FKEY%3a4242", "X-Original-URL", "/service.asmx/ReturnProvinces?x=s3cr3t/KEY%3A4242")
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "3cr3t") {
			t.Errorf("the cassette holds the key: %s", line)
		}
	}
	if strings.Contains(logs.String(), "3cr3t") {
		t.Errorf("the log holds the key:\n%s", logs.String())
	}
	if n := len(readCassette(t, path)); n != 4 {
		t.Errorf("the cassette holds %d interactions, want 4", n)
	}
}
