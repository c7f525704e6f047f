// Package mockserver is a mock of the ATM Location Lookup Service, the
// ASP.NET .asmx web service: an http.Handler that answers all eight
// operations in all five bindings (SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST
// on /service/service.asmx, and the JSON path /service-v2.asmx) from a data
// set of ATM locations, faithful to the service's wire format down to
// content types, namespaces and faults (package asmx holds the protocol).
// It also serves the WSDL (?WSDL), the DISCO document (?disco), the help
// pages, an admin API under /__admin and, at /__admin/, the admin page: the
// journal live in a browser, the active faults with a form to add one, and
// the data set's cities and institutions (its files embedded, served
// without the admin token; the page asks for the token and sends it as a
// bearer header).
//
// It is the CI stub of apps that call the service: a Go test starts a
// TestServer, points its client at it, then reads what the client sent from
// the journal and injects failures with faults. Apps in other languages run
// `atmkit serve`, which is this package behind a command line.
//
// # Lifecycle
//
// New builds the mock from options and returns a *Server, an http.Handler
// safe for concurrent use; it does not listen. There are three ways to run
// one:
//
//   - In a Go test, NewTestServer(t, opts...) starts it on a loopback port
//     and closes it when the test ends; a wrong option fails the test.
//     TestServer embeds the *Server, so ts.Journal, ts.AddFault, ts.Dataset
//     and the rest are methods of the test server, and ts.URL is its base
//     URL ("http://127.0.0.1:<port>", no trailing slash).
//   - Elsewhere, StartTestServer(opts...) does the same and returns an
//     error instead; Close it (Close is safe to call twice, waits for the
//     requests in flight and ends injected delays at once).
//   - To serve the handler on a listener of your own, ServeWith (or Serve)
//     runs it with the timeouts and limits of `atmkit serve`
//     (ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout,
//     MaxHeaderBytes, MaxConns, lingering close of refused bodies), TLS
//     when asked, and a graceful shutdown when its context ends: requests in
//     flight may finish within ServeOptions.Grace, and closing
//     ServeOptions.Abort (on a second signal, say) ends it at once. Prefer
//     it to http.ListenAndServe, which has no timeouts.
//
// # Options
//
// Every Option is checked when New runs, and one that cannot apply is an
// error naming it: an empty key, a namespace that is not an absolute URI, a
// body cap of 0 or less, a fixtures directory that does not exist, a nil
// data set or replayer, a negative journal size, a fault that does nothing or
// can never apply, a nil Option.
//
//   - Keys: WithKeys sets the accepted service keys (none: any non-empty key
//     is accepted). A missing or refused key is answered as the service
//     answers it, in the call's binding.
//   - Data: WithDataset, WithFixturesDir (a directory written by `atmkit
//     fixtures generate`) or WithGeneratedDataset(seed, atms); without one,
//     the embedded default data set (package fixtures). The three exclude
//     each other: a second data set option is an error naming both, so one
//     can never silently hide another.
//   - Wire: WithNamespace (default http://tempuri.org/atmService),
//     WithServiceName (default DefaultServiceName, AtmService: the name of
//     the WSDL's service and bindings, after the deployment's class), WithShape
//     (the XML result shape, below), WithMaxBodyBytes (default
//     DefaultMaxBodyBytes, ASP.NET's 4096 KB; larger bodies get ASP.NET's
//     refusal, a 500 in the binding's form), WithDetailedErrors and WithJSONErrors (how errors are
//     written: the remote caller's form and ASMX's text/plain JSON path
//     errors by default).
//   - The deployment's ASP.NET: WithRequestValidation (its
//     requestValidationMode), WithMaxURLLength, WithMaxQueryStringLength
//     and WithRequestPathInvalidChars (ASP.NET's checks of every request's
//     URL, before any binding: HTTP 400 and ASP.NET's error page; defaults
//     ASP.NET's, 260, 2048 and <,>,*,%,&,:,\,?).
//     WithRequestEncoding (its <globalization requestEncoding>: the
//     encoding GET queries and forms without a charset are read in;
//     default utf-8).
//   - Behaviour: WithFault (faults active from the start), WithReplay
//     (answer from recordings), WithJournalSize, WithJournalBodyMax (what
//     the journal keeps of each request and answer), WithAdminToken (the admin
//     API's bearer token), WithLogger (a *slog.Logger for the request and
//     error log; discarded by default).
//   - Transport: WithTLS, for test servers only (below).
//
// # Journal
//
// Every request except the admin API's is journaled as a JournalEntry:
// binding, operation, parameters as canonical text with the service key
// masked (MaskKey), status, duration, the kind of error answered and the
// fault applied, and what was sent and answered: the query, the request's
// header fields and body, the answer's header fields and first bytes
// (JournalMessage), each side within WithJournalBodyMax bytes (default
// DefaultJournalBodyMax), the keys masked in every form before a body is
// cut. Server.Journal(RequestFilter{...}) returns copies, oldest first,
// filtered by operation (ignoring case), binding, status and sequence
// number; ResetJournal empties it. The journal keeps the last
// DefaultJournalSize requests unless WithJournalSize says otherwise. The
// admin API serves the same journal at GET /__admin/requests, and the admin
// page shows it as calls come.
//
// # Faults
//
// A Fault makes the calls it matches (by operation and binding) slow or
// fail: a delay with jitter or drawn from a log-normal or uniform
// distribution, an HTTP status, a SOAP fault written in the call's binding
// form, a dropped connection, a malformed body, a body dribbled over a
// duration, a connection reset in the middle of the answer, or garbage
// instead of an answer; for every call or a reproducible share of them
// (Probability, Seed), past the first Skip calls, for a number of calls
// (Times) or until removed. Operation "WSDL" faults fetches of the service
// description instead. Add them with WithFault, Server.AddFault or the admin
// API (POST /__admin/faults), whose JSON form a Fault reads and writes;
// Fault.Check says what a server would store or refuse. Each fault counts
// the calls it matches, and the oldest that selects a call applies, so
// faults with Times 1 added in turn play out in order. The journal names
// the fault and its kind of each call a fault answered.
//
// # Replay
//
// WithReplay(r, miss) answers calls from recordings: r is a Replayer, in
// practice a *cassettes.Index (package cassettes builds on this one, so the
// test option that loads cassettes is cassettes.Replay). A call with no
// recording gets a fault naming it and the nearest recording (MissFault), or
// an answer from the data set (MissFixtures). A Replayer that is also a
// ShapedReplayer re-wraps answers recorded in one binding for another, with
// the server's shape; a KeyRejectionReplayer serves recorded key rejections
// to callers whose key the server rejects; a WSDLReplayer and a DocReplayer
// serve the deployment's own WSDL, help pages and discovery documents,
// their addresses moved to the server's; a ClientTextReplayer names its
// files to clients by what they may know of them (a cassette's file name),
// to the log by their paths.
//
// # Shapes
//
// The interface document does not name the XML result elements, and real
// deployments write them differently (typed XmlSerializer results are the
// common case; DataSets and attribute values on every level are others).
// WithShape(sh) serves a shape (package shape; loaded with
// shape.Load, or learned from a deployment's WSDL and answers with package
// shape/learn): its layout, element names, namespaces and value formats, in
// the four XML bindings, the help pages' samples and the WSDL, whose types
// then describe it, so a client generated from the mock's WSDL is typed as
// one generated from the deployment's. The encoder is compiled from the
// shape once, in New. Without WithShape the server writes shape.Default().
//
// # TLS
//
// WithTLS makes a test server serve HTTPS, as httptest.NewTLSServer does:
// its certificate (127.0.0.1, ::1, localhost) is issued by an authority made
// for that server alone; TestServer.Client trusts it, and
// TestServer.CACertificate and CACertPEM hand it to clients of other kinds.
// New takes no notice of WithTLS (a handler does not choose its transport):
// give ServeWith a ServeOptions.TLS instead.
//
// # Deliberate deviations
//
// To test how a client or a conformance run reacts to a mock that breaks
// the interface, wrap a Server with package deviate.
package mockserver
