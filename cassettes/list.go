package cassettes

import (
	"net/url"

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
}

// List describes the interactions of the cassette at path.
func List(path string) ([]Entry, error) {
	list, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(list))
	for _, i := range list {
		out = append(out, entryOf(i))
	}
	return out, nil
}

// entryOf describes one interaction.
func entryOf(i *cassette.Interaction) Entry {
	e := Entry{ID: i.ID, Status: i.Response.Code}
	if c, ok := callOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body); ok {
		e.Binding, e.Operation, e.Params = c.Binding.String(), c.Op.Name, c.Params()
	} else {
		e.Operation = i.Request.Method + " " + i.Request.URL
		if u, err := url.Parse(i.Request.URL); err == nil {
			e.Operation = i.Request.Method + " " + u.RequestURI()
		}
	}
	return e
}
