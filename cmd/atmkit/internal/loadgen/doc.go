// Package loadgen is atmkit's built-in HTTP load generator and its "ceiling"
// server.
//
// Run drives one HTTP/1.1 request over a fixed number of keep-alive
// connections for a fixed duration and reports throughput, latency
// percentiles and errors. Its client is deliberately lean (the request is
// serialised once; responses are parsed just enough to find their end), so
// that on a small machine, where generator and server share the cores, as
// much CPU as possible is left to the server under test. It checks every
// response's status and length, and the first response's bytes (read
// before the clock starts) against the answer expected.
//
// A Ceiling is the yardstick: a bare net/http server that answers every
// request with the very bytes and headers captured from another server
// (Fetch), with no work of its own. The ratio of a server's throughput to the
// ceiling's, both driven by the same generator with the same settings in the
// same run, says how much of the possible throughput the server reaches. A
// CopyingCeiling does the same but first copies the body, piece by piece,
// into a buffer, as a server building its answer per request must: beside
// the Ceiling it shows what that copy costs by itself.
package loadgen
