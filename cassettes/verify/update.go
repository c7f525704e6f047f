package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
)

// Update rewrites every cassette in which an interaction drifted with the
// deployment's answers in place of the recorded ones (requests, and the
// mark of key rejections, stay as recorded), atomically and scrubbed like
// every cassette (a cassette made elsewhere is scrubbed whole, its answers
// recorded compressed written decompressed), its interactions' IDs as they
// were. It returns the files rewritten and how many answers were replaced. headers names more headers to redact, as cassettes.Scrub does
// (a recorder's WithScrubHeaders): the deployment's answers may carry them
// anew. A cassette whose interactions changed since Run read it is left
// alone with an error, as one a recorder is writing (cassettes.ErrCassetteBusy)
// and one whose write fails (the error names the cassette and why). The
// key Run was given is swept from every interaction written, where no
// call carries it (.../service.asmx/KEY).
func (r *Report) Update(headers ...string) (files []string, replaced int, err error) {
	return r.UpdateContext(context.Background(), headers...)
}

// UpdateContext is Update that stops when ctx is done (Ctrl-C): re-reading
// a large cassette takes seconds. The cassette it was at is left as it
// was, those rewritten before it stay rewritten (each is rewritten
// atomically), and the error wraps ctx's error.
func (r *Report) UpdateContext(ctx context.Context, headers ...string) (files []string, replaced int, err error) {
	byFile := map[string][]Result{}
	var order []string
	for _, res := range r.Results {
		if res.Live == nil {
			continue
		}
		if byFile[res.File] == nil {
			order = append(order, res.File)
		}
		byFile[res.File] = append(byFile[res.File], res)
	}
	for _, f := range order {
		if err := ctx.Err(); err != nil {
			return files, replaced, fmt.Errorf("update: %s was not rewritten: %w", f, err)
		}
		// Under the cassette's lock: a recorder writing it meanwhile would
		// otherwise lose its interactions or these answers.
		err := recorded.Rewrite(f, func() error {
			list, err := cassettes.ReadFileContext(ctx, f)
			if err != nil {
				return err
			}
			for _, res := range byFile[f] {
				if res.pos >= len(list) || list[res.pos].Request.Body != res.request.Body || list[res.pos].Request.URL != res.request.URL {
					return fmt.Errorf("%s: the cassette changed since it was verified; nothing was rewritten in it: verify it again", f)
				}
			}
			// Written as every cassette is: scrubbed whole (one made
			// elsewhere may hold raw keys; its key rejections get their
			// marks), compressed answers decompressed for the scrubbing.
			names := recorded.Names(list)
			for pos, i := range list {
				if _, err := recorded.Decompress(i); err != nil {
					return fmt.Errorf("%w: %s: interaction %s: %w", cassettes.ErrInvalidCassette, f, names[pos], err)
				}
			}
			cassettes.ScrubList(list, headers...)
			for _, res := range byFile[f] {
				list[res.pos].Response = *res.Live
				cassettes.Scrub(list[res.pos], headers...)
				recorded.DropTiming(list[res.pos])
			}
			// The key the deployment was checked with, where no call
			// carries it (.../service.asmx/KEY, its echo), as a
			// recording sweeps a key answered 200. (Not the secrets: a
			// --header value may be any text, text/xml.)
			for _, i := range list {
				recorded.SweepInteraction(i, cassettes.Placeholder, r.key)
			}
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%s was not rewritten: %w", f, err)
			}
			return recorded.RewriteFile(f, list) // the IDs as they are
		})
		if errors.Is(err, cassettes.ErrCassetteBusy) {
			return files, replaced, fmt.Errorf("update: %w; nothing was rewritten in it: verify it again once the recording has stopped", err)
		}
		if err != nil {
			return files, replaced, fmt.Errorf("update: %w", err)
		}
		files = append(files, f)
		replaced += len(byFile[f])
	}
	return files, replaced, nil
}
