package cassettes

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Entry describes one recorded interaction, as atmkit cassette list prints it.
type Entry struct {
	ID int
	// Name names the interaction in its file, as messages write it after
	// "#" (atm.yaml#3): its ID, or, when the file holds that ID more than
	// once (ids edited by hand), the ID and its position in the file
	// counted from 0 ("3@5"). EntryOf, which sees one interaction, gives
	// the ID.
	Name string
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
	// NotUTF8 reports an HTTP GET, POST or JSON call whose query or form,
	// naming no charset, holds bytes that are not UTF-8 (strCity=Montr%E9al,
	// recorded from a legacy deployment whose requestEncoding is
	// iso-8859-1): read in UTF-8, ASP.NET's default requestEncoding, as
	// Params are unless WithRequestEncoding says otherwise, each such byte
	// is U+FFFD; read in the deployment's, it is what the deployment read.
	NotUTF8 bool
}

// List describes the interactions of the cassette at path. A request
// that is no call (an unknown operation's, another path's), whose URI an
// entry shows, is described scrubbed (in memory; the file is left as it
// is), and the keys the cassette's requests carry (as ScrubList sweeps
// them: 16 at most, those of calls answered 200 first) are replaced in
// every entry's request line and parameters: a cassette made elsewhere
// never shows its key, also where one interaction holds the key another
// sent (.../service.asmx/KEY). Each segment of such a request's path
// after the .asmx file that names no operation shows as Placeholder
// whatever it holds (.../service.asmx/REDACTED), as atmkit record's
// progress lines and cassette verify show it: a key no call carries (none
// answered 200 with it) may stand there.
//
// The options are LoadIndex's; List heeds WithRequestEncoding, which reads
// the recorded queries and forms that name no charset in the deployment's
// requestEncoding (default UTF-8), so that the parameters are those a
// mock replaying the cassette with it finds (strCity=Montr%E9al is
// Montréal in iso-8859-1, Montr\uFFFDal in UTF-8: see Entry.NotUTF8).
// The others concern serving and change nothing here.
func List(path string, opts ...IndexOption) ([]Entry, error) {
	return ListContext(context.Background(), path, opts...)
}

// ListContext is List that stops reading the cassette when ctx is done,
// returning an error that wraps ctx's error.
func ListContext(ctx context.Context, path string, opts ...IndexOption) ([]Entry, error) {
	list, err := ReadFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	cfg := indexConfigOf(opts)
	out := make([]Entry, 0, len(list))
	names := recorded.Names(list)
	sweep := func(s string) string { return s }
	keys := requestKeys(ctx, list)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list %s: %w", path, err) // keys left unfound would show
	}
	if len(keys) > 0 {
		sweep = recorded.Sweeper(Placeholder, keys...)
	}
	for pos, i := range list {
		e := entryOf(cfg.reqEncoding, i)
		e.Name = names[pos]
		if e.Binding == "" {
			// The request line alone, scrubbed with the headers, which
			// may name the key too (the bodies cost the time, and show
			// in no entry).
			cp := &cassette.Interaction{Request: cassette.Request{Method: i.Request.Method, URL: i.Request.URL, Headers: i.Request.Headers.Clone()}}
			Scrub(cp)
			e.Operation = sweep(recorded.MaskPathKeysURL(requestLine(cp.Request.Method, cp.Request.URL)))
		}
		for j, p := range e.Params {
			e.Params[j][1] = sweep(p[1])
		}
		out = append(out, e)
	}
	return out, nil
}

// requestKeys returns the keys the requests of list carry (what Scrub
// finds in each, its answer left out), those of calls answered 200 first,
// crossKeys at most, as ScrubList sweeps them from every interaction: a
// raw cassette's request to .../service.asmx/KEY, or a parameter holding
// a key, carries no key Scrub finds in it alone.
func requestKeys(ctx context.Context, list []*cassette.Interaction) []string {
	var found, refused []string
	for _, i := range list {
		if ctx.Err() != nil {
			break
		}
		cp := &cassette.Interaction{Request: i.Request} // Scrub copies the headers and form it changes
		_, keys := recorded.ScrubFound(cp, Placeholder)
		if i.Response.Code == http.StatusOK {
			found = addKeys(found, keys)
		} else {
			refused = addKeys(refused, keys)
		}
	}
	return addKeys(found, refused)
}

// requestLine is the method and request URI of a request that is no
// call, as recorded.Identify writes them.
func requestLine(method, raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return method + " " + u.RequestURI()
	}
	return method + " " + raw
}

// EntryOf describes one interaction as List does with opts (atmkit record
// prints what it records with it). The parameters of a call leave the key
// out; the request URI of another request is as i holds it: scrub i first.
func EntryOf(i *cassette.Interaction, opts ...IndexOption) Entry {
	return entryOf(indexConfigOf(opts).reqEncoding, i)
}

// entryOf is EntryOf for a deployment whose requestEncoding is enc.
func entryOf(enc asmx.RequestEncoding, i *cassette.Interaction) Entry {
	e := Entry{ID: i.ID, Name: strconv.Itoa(i.ID), Status: i.Response.Code, KeyRejection: recorded.KeyRejected(i)}
	e.Binding, e.Operation, e.Params, e.NotUTF8 = recorded.Identify(enc, i)
	return e
}
