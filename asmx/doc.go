// Package asmx is the wire protocol of the ATM Location Lookup Service as an
// ASP.NET .asmx service speaks it: the eight operations and their parameters
// (in the interface document's order), the five bindings, decoding of requests
// into a Call, and the envelopes, faults and error texts of each binding.
//
// It knows nothing of ATM data: the mock server (package mockserver) and the
// cassette matcher (package cassettes) build on it. The conformance suite
// deliberately does not use it.
package asmx
