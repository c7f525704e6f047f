package cassettes

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// An unreachable upstream must not put the key of the failed request in the
// log or the answer: net/http's *url.Error quotes the whole URL.
func TestProxyErrorDoesNotLogTheKey(t *testing.T) {
	t.Parallel()
	dead := mocktest.ClosedPort(t) // nothing listens there
	up, _ := url.Parse(dead)
	var logs bytes.Buffer
	proxy := httptest.NewServer(NewProxy(up, http.DefaultTransport, slog.New(slog.NewTextHandler(&logs, nil))))
	defer proxy.Close()
	resp, err := http.Get(proxy.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=s3cr3t-key-123")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Errorf("status: got %d, want %d", resp.StatusCode, http.StatusBadGateway)
	}
	for name, text := range map[string]string{"log": logs.String(), "answer": string(body)} {
		if strings.Contains(text, "s3cr3t-key-123") {
			t.Errorf("the %s holds the key: %q", name, text)
		}
	}
	if !strings.Contains(logs.String(), "proxy") {
		t.Errorf("log: got %q, want a proxy error line", logs.String())
	}
}
