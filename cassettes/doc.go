// Package cassettes records a deployment of the ATM Location Lookup Service
// into go-vcr v3 cassettes, replays them, and scrubs them. Package
// cassettes/verify checks that a deployment still answers as they say.
//
// A cassette is go-vcr's YAML file (format version 2), readable in a pull
// request. Every interaction that reaches the file has been scrubbed: the
// service key (strAtmServiceKey) in SOAP 1.1 and 1.2 bodies, query strings,
// form bodies and the JSON path, and the Authorization, Proxy-Authorization,
// Cookie and Set-Cookie headers and every header whose name holds key,
// token, secret, password, credential, signature, session or auth (an API
// gateway's X-Api-Key) are replaced by [Placeholder]. Scrubbing runs
// after every hook, so a hook cannot put a key back. Cassettes are written
// atomically (a temporary file in the same directory, fsync, rename), so a
// crash leaves the previous complete cassette.
//
// # Recording
//
//   - [Recorder] is an http.RoundTripper over go-vcr's recorder, for a Go
//     test's own client ([Recorder.Client]): it records, replays, or both, as
//     its [Mode] says ([ModeRecordOnce] by default: replay when the cassette
//     exists, else record). Requests to the service are matched by binding,
//     operation and parameter values (the key, whitespace, prefixes and
//     parameter order ignored); other requests by method and URL. Options:
//     [WithMode], [WithTransport], [WithSaveInterval], [WithLogger],
//     [WithHook]. A recorder that was to create its cassette and saw no call
//     writes no file, removes the directories it made for it, and Stop
//     returns [ErrNothingRecorded]. An answer the
//     client asked compressed (it set Accept-Encoding itself) reaches the
//     client as it came and the cassette decompressed; a compressed answer
//     in a cassette (go-vcr's own) is replayed decompressed, which every
//     client reads.
//   - [NewProxy] is the recording proxy of `atmkit record`: a reverse proxy
//     to a deployment whose transport is a Recorder in [ModeRecordAll], so
//     every binding, the WSDL and the help pages are recorded as an app
//     calls them through it.
//
// A BeforeReplay hook is given, when go-vcr replays an interaction the
// cassette holds, go-vcr's own stored interaction (its changes persist),
// and calls replayed at once run it at once on the same interaction: a
// hook that changes it, its maps above all (headers, form), must do so
// under a lock of its own, or change nothing the matcher reads; go-vcr
// takes none. A call go-vcr cannot record, answered again in
// ModeRecordNew, hands each hook a copy of its own.
//
// Repeated identical requests are recorded once per distinct answer; replay
// serves a question's answers in recorded order and then keeps serving the
// last one. A Recorder marks the answers a deployment gave to a key it
// refused (see [RejectedPlaceholder] for the rule; [KeyRejected] tells them).
//
// # Replaying
//
// [Index] answers a mock server's calls from cassettes: load it with
// [LoadIndex] and give it to mockserver.WithReplay, or, in a test, take the
// option [Replay] gives, which loads and fails the test on a bad cassette:
//
//	ts := mockserver.NewTestServer(t, cassettes.Replay(t, mockserver.MissFault, "testdata/cassettes"))
//
// A call in the binding an answer was recorded in gets it byte for byte; an
// answer recorded in another XML binding is re-wrapped as ASMX writes the
// asked one (a typed result's GET/POST root taken from the recordings, the
// server's shape or a recorded WSDL); JSON answers come from JSON
// recordings. [Index.Gaps] lists what cannot be served in some binding. A
// lookup is one map access, whatever the cassettes' size. Recorded key
// rejections answer only callers whose key the replaying server rejects.
// A server in another service namespace than an answer was recorded in
// serves it in its own. A body recorded compressed (go-vcr's, for a client
// that asked for gzip) is decompressed at load. Errors a client gets name
// cassettes by file name ([Index.ClientText]); the log by path.
// The recorded WSDL, help pages and discovery documents answer the same
// documentation requests ([Index.RecordedWSDL], [Index.RecordedDoc]).
//
// With [WithUpstream], calls with no recording go to a live deployment
// ([Upstream]: its URL, the cassette new episodes are recorded into, the
// namespace, transport and per-call timeout, [DefaultUpstreamTimeout] by
// default); [Index.Close] writes the last episodes.
//
// # Files
//
// [Files] expands paths (files, or directories of .yaml files); [ReadFile]
// and [WriteFile] read and write a cassette (WriteFile writes atomically);
// [List] and [Recordings] describe what a cassette holds; [Scrub] and
// [ScrubFile] scrub interactions written by other tools.
//
// # Errors
//
// The errors of this package ([ErrCassetteNotFound], [ErrInvalidCassette],
// [ErrUnsupportedFormat], [ErrNoInteraction], [ErrInvalidMode], [ErrStopped],
// [ErrNothingRecorded]) are wrapped with the cassette's path or the
// request's description; test for them with errors.Is. A service key a
// request carries is masked in every error text.
package cassettes
