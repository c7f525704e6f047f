package cassettes

import (
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Entry describes one recorded interaction, as atmkit cassette list prints it.
type Entry struct {
	ID int
	// Binding is soap11, soap12, get, post or json; empty for requests that
	// are no call of an operation (WSDL, help pages).
	Binding string
	// Operation is the operation's name, or the method and path of other requests.
	Operation string
	// Params are the parameters but the key, in the document's order.
	Params [][2]string
	Status int
	// KeyRejection reports a recorded key rejection (see KeyRejected).
	KeyRejection bool
}

// List describes the interactions of the cassette at path. A cassette
// made elsewhere is described as scrubbed (in memory; the file is left as
// it is): a key in the URL of a request that is no call, such as an
// unknown operation's, is never shown, and key rejections are marked.
func List(path string) ([]Entry, error) {
	list, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	ScrubList(list)
	out := make([]Entry, 0, len(list))
	for _, i := range list {
		out = append(out, EntryOf(i))
	}
	return out, nil
}

// EntryOf describes one interaction as List does (atmkit record prints
// what it records with it). The parameters of a call leave the key out;
// the request URI of another request is as i holds it: scrub i first.
func EntryOf(i *cassette.Interaction) Entry {
	e := Entry{ID: i.ID, Status: i.Response.Code, KeyRejection: recorded.KeyRejected(i)}
	e.Binding, e.Operation, e.Params = recorded.Identify(i)
	return e
}
