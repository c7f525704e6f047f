package cassettes

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
)

// HealthPath answers 200 on every atmkit server, the recording proxy included.
const HealthPath = "/__admin/health"

// NewProxy returns a reverse proxy to upstream whose transport is rt
// (normally a *Recorder): every request, in every binding and on both paths,
// WSDL and help pages too, goes to the upstream and its answer comes back
// to the caller. HealthPath is answered by the proxy itself. The proxy asks
// the upstream for uncompressed answers so that cassettes stay readable;
// one compressed all the same with deflate or x-gzip reaches the caller
// decoded, as the cassette holds it.
func NewProxy(upstream *url.URL, rt http.RoundTripper, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream)
			// The query goes as the caller sent it: net/http drops the
			// pairs of a query that does not parse (a bad escape, a
			// semicolon, which ASP.NET reads as part of a value), the
			// key's included. The recorder records such a request as
			// sent.
			pr.Out.URL.RawQuery = upstream.RawQuery
			if q := pr.In.URL.RawQuery; q != "" && upstream.RawQuery != "" {
				pr.Out.URL.RawQuery += "&" + q
			} else {
				pr.Out.URL.RawQuery += q
			}
			pr.Out.Header.Del("Accept-Encoding")
		},
		Transport:      rt,
		ModifyResponse: decodeAnswer,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// An error may quote the request, its key included (a
			// *url.Error holds the whole URL): mask it for the log and
			// the answer.
			// The keys a Recorder noted too: the request may hold one
			// outside a call (.../service.asmx/KEY).
			// A key in the path (.../service.asmx/KEY) too, sent
			// before any call carried it: a segment that names no
			// operation.
			keys := append(redact.Values(r.URL.Path), redact.PathKeys(r.URL.EscapedPath())...)
			if rec, ok := rt.(*Recorder); ok {
				keys = append(keys, rec.notedKeys()...)
			}
			err = redact.Error(err, keys...)
			logger.Error("proxy", "method", r.Method, "path", redact.Text(r.URL.Path, keys...), "err", err)
			http.Error(w, "atmkit record: the upstream could not be reached or recorded: "+withoutCassetteDir(err.Error(), rt), http.StatusBadGateway)
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

// withoutCassetteDir is msg, an error text for a client of the proxy, with
// the cassette's path (a *Recorder's) cut to its file name: where the
// cassette lies on this machine is the log's business, not the answer's
// (a recorder in a container or on a shared runner answers other hosts).
func withoutCassetteDir(msg string, rt http.RoundTripper) string {
	rec, ok := rt.(*Recorder)
	if !ok || rec.Path() == "" {
		return msg
	}
	return strings.ReplaceAll(msg, rec.Path(), filepath.Base(rec.Path()))
}

// decodeAnswer decodes an answer the upstream compressed with a coding
// the cassette holds decoded (deflate, x-gzip: Go's transport, asking for
// gzip, undoes gzip alone), as replay serves it: the recording proxy
// dropped the app's Accept-Encoding and serve's upstream sends none, so
// the coding is not one the app asked for. An answer that does not decode
// is left as it came (recorded so, with a warning).
func decodeAnswer(resp *http.Response) error { return decodeResponse(resp, false) }
