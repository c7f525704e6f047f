// Package bench is the benchmark harness behind atmkit bench: it starts
// the servers measured (the mock in process, on a data set or replaying
// cassettes; mocks replaying cassettes of several sizes; atmkit serve
// processes on generated data sets of several sizes; a running target;
// WireMock), a ceiling server repeating their answer with no work of its
// own, drives them all with package loadgen in alternating rounds, and
// reports throughput, latency, memory and each ratio against its target.
//
// Run takes a Config (the command's flags) and returns a Report, which
// prints as text or marshals as the --json output.
package bench
