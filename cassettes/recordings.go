package cassettes

import (
	"context"
	"net/url"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
)

// Recording is one recorded interaction with its answer, for readers of
// what a deployment answered (atmkit shape learn).
type Recording struct {
	Entry
	// Method and URL are the request's.
	Method, URL string
	// ContentType and Body are the answer's.
	ContentType string
	Body        string
}

// IsWSDL reports whether the request fetched the service description
// (GET service.asmx?WSDL), as ASMX reads the query (asmx.ParseDocsQuery):
// not a document it imports (?wsdl=wsdl1, of a service spanning
// namespaces), a schema (?schema=ID) or a help page.
func (r Recording) IsWSDL() bool {
	if r.Method != "GET" {
		return false
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return false
	}
	kind, _, _ := asmx.ParseDocsQuery(u.RawQuery)
	return kind == asmx.DocsWSDL
}

// Recordings reads the interactions of the cassette at path with their
// answers, described as List describes them: it heeds
// WithRequestEncoding, which reads the recorded queries and forms that
// name no charset in the deployment's requestEncoding (default UTF-8), so
// that two calls recorded from a legacy site as strCity=Montr%E9al and
// strCity=Montr%E8al keep their own parameters rather than both read as
// Montr\uFFFDal (see Entry.NotUTF8).
func Recordings(path string, opts ...IndexOption) ([]Recording, error) {
	return RecordingsContext(context.Background(), path, opts...)
}

// RecordingsContext is Recordings that stops reading when ctx is done,
// returning an error that wraps ctx's error.
func RecordingsContext(ctx context.Context, path string, opts ...IndexOption) ([]Recording, error) {
	list, err := ReadFileContext(ctx, path)
	if err != nil {
		return nil, err
	}
	enc := indexConfigOf(opts).reqEncoding
	out := make([]Recording, len(list))
	names := recorded.Names(list)
	for k, i := range list {
		e := entryOf(enc, i)
		e.Name = names[k]
		out[k] = Recording{Entry: e, Method: i.Request.Method, URL: i.Request.URL,
			ContentType: recorded.HeaderValue(i.Response.Headers, "Content-Type"), Body: i.Response.Body}
	}
	return out, nil
}
