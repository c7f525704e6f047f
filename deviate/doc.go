// Package deviate breaks the ATM Location Lookup Service's interface on
// purpose, to prove that a conformance check catches what it should. Wrap
// puts a handler (usually the mock, a *mockserver.Server) behind one or more
// named deviations, each breaking a single rule of the interface document or
// of ASMX: an envelope namespace, a content type, a renamed element, a
// dropped location, a key no longer checked. List names them all; atmkit
// serve --deviate NAME serves the mock with them.
//
//	mock, err := mockserver.New()
//	if err != nil { ... }
//	broken, err := deviate.Wrap(mock, "soap11-envelope-ns", "json-count-off")
//	if err != nil { ... } // errors.Is(err, deviate.ErrUnknown) for a name it does not know
//
// Never point real clients at a deviating handler.
package deviate
