package cassettes

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/atmkit/atmkit/internal/redact"
)

// HealthPath answers 200 on every atmkit server, the recording proxy included.
const HealthPath = "/__admin/health"

// NewProxy returns a reverse proxy to upstream whose transport is rt
// (normally a *Recorder): every request, in every binding and on both paths,
// WSDL and help pages too, goes to the upstream and its answer comes back
// to the caller. HealthPath is answered by the proxy itself. The proxy asks
// the upstream for uncompressed answers so that cassettes stay readable.
func NewProxy(upstream *url.URL, rt http.RoundTripper, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream)
			pr.Out.Header.Del("Accept-Encoding")
		},
		Transport: rt,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// An error may quote the request, its key included (a
			// *url.Error holds the whole URL): mask it for the log and
			// the answer.
			err = redact.Error(err)
			logger.Error("proxy", "method", r.Method, "path", r.URL.Path, "err", err)
			http.Error(w, "atmkit record: the upstream could not be reached or recorded: "+err.Error(), http.StatusBadGateway)
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == HealthPath {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"status":"ok"}`)
			return
		}
		rp.ServeHTTP(w, r)
	})
}
