// Package cassettes records a deployment of the ATM Location Lookup Service
// into go-vcr v3 cassettes and replays them.
//
// A cassette is go-vcr's YAML file (format version 2), readable in a pull
// request. Every interaction that reaches the file has been scrubbed: the
// service key (strAtmServiceKey) in SOAP 1.1 and 1.2 bodies, query strings,
// form bodies and the JSON path, and the Authorization, Proxy-Authorization,
// Cookie and Set-Cookie headers are replaced by [Placeholder].
//
// Two consumers share the matcher and the scrubbing:
//
//   - [Recorder] is an http.RoundTripper over go-vcr's recorder for a Go
//     test's own client: it records, replays, or both, as its [Mode] says.
//     Requests to the service are matched by binding, operation and parameter
//     values (the key, whitespace, prefixes and parameter order ignored);
//     other requests by method and URL.
//   - [Index] answers a mock server's calls from cassettes
//     (mockserver.WithReplay): a call in the binding an answer was recorded
//     in gets it byte for byte; an answer recorded in another XML binding is
//     re-wrapped as ASMX writes the asked one (a typed result's GET/POST
//     root taken from the recordings, the server's shape or a recorded
//     WSDL); JSON answers come from JSON recordings; lookups are one map
//     access.
//
// A Recorder marks the answers a deployment gave to a key it refused (see
// [RejectedPlaceholder] for the rule); an Index serves them only to callers
// whose key the replaying server rejects.
//
// Repeated identical requests are recorded once per distinct answer; replay
// serves a question's answers in recorded order and then keeps serving the
// last one.
//
// Cassettes are written atomically (a temporary file in the same directory,
// fsync, rename), so a crash leaves the previous complete cassette.
package cassettes
