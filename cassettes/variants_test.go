package cassettes_test

import (
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// The sites of the layout variations (refdeploy.Variants) recorded and
// replayed as the reference sites are (replayMatrix): typed levels each in
// a namespace of its own (layered), hand-built nodes in a prefixed
// namespace and an XmlNode (nodes), DataSets with a namespace and a prefix
// and nested tables (sets), tables in namespaces of their own and a table
// nested in itself (spaces).

var variantSites = func() []refSite {
	var out []refSite
	trim := []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}
	for _, s := range refdeploy.Variants {
		out = append(out, refSite{s.Name, s.Namespace, s.Key, typedCalls(), trim})
	}
	return out
}()

// TestVariantRecordReplay records every operation in every binding from
// each variant site and replays the cassette in every binding, as
// TestReferenceRecordReplay does; with -update it rewrites the trimmed
// copies TestVariantCassettes replays where Mono is missing.
func TestVariantRecordReplay(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for k, site := range variantSites {
		t.Run(site.name, func(t *testing.T) {
			t.Parallel()
			d.Warm(refdeploy.Variants[k])
			recordAndReplay(t, d, site, "variant-")
		})
	}
}

// TestVariantCassettes replays the trimmed recordings of the variant sites
// in testdata (rewritten by TestVariantRecordReplay -update) in every
// binding, with the shape learned from each.
func TestVariantCassettes(t *testing.T) {
	t.Parallel()
	for _, site := range variantSites {
		t.Run(site.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", "variant-"+site.name+".yaml")
			replayMatrix(t, site, path, learnShape(t, path))
		})
	}
}
