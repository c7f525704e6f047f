// Package mockserver is a mock of the ATM Location Lookup Service: an
// http.Handler that answers all eight operations in all five bindings from a
// fixtures.Dataset, faithful to the wire format of the ASP.NET .asmx service
// (see package asmx), with the search semantics written in the README.
//
//	h, err := mockserver.New(mockserver.WithKeys("secret"))
//	if err != nil { ... }
//	http.ListenAndServe("127.0.0.1:8080", h)
package mockserver
