package cassettes

import (
	"net/http"
	"time"
)

// WithUpstreamTransport sets the transport used to reach the upstream of
// WithUpstream, unless its Upstream.Transport does.
//
// Deprecated: set Upstream.Transport.
func WithUpstreamTransport(rt http.RoundTripper) IndexOption {
	return func(c *indexConfig) { c.transport = rt }
}

// WithUpstreamTimeout bounds each call forwarded to the upstream of
// WithUpstream, unless its Upstream.Timeout does.
//
// Deprecated: set Upstream.Timeout.
func WithUpstreamTimeout(d time.Duration) IndexOption {
	return func(c *indexConfig) { c.timeout = d }
}
