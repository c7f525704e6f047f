package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestGroupedSites: the two sites of the reference deployment whose
// searches group their locations by institution (refdeploy.Grouped, a
// typed ArrayOfBank/Bank{…, Atms/Atm}; refdeploy.GroupSets, DataSets of a
// Bank and an Atm table related by the bank's key, nested and not). atmkit
// conform passes each, every spec but the shape specs (reading each
// location's institution from its bank); recorded with atmkit record,
// atmkit shape learn refuses each with exit 1, naming the grouped
// results, and writes no file: a shape's locations are one flat list, and
// a shape learned with the banks as locations would serve other answers
// than the site's (docs/shapes.md, What a shape does not model). atmkit
// serve --replay of the recording (conform's calls recorded too) passes
// conform with the counts of conform through the recorder.
func TestGroupedSites(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for site, want := range map[refdeploy.Site][]string{
		refdeploy.Grouped:   {"ArrayOfBank: ArrayOfBank/Bank taken for a location holds a list ArrayOfBank/Bank/Atms/Atm"},
		refdeploy.GroupSets: {"Branches: Branches/Bank taken for the locations", "Nearby: Nearby/Atm holds as many rows as the JSON answers' locations"},
	} {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			dir := t.TempDir()
			base := d.SiteURL(site.Name)
			conformPasses(t, dir, "the site", base, site.Key, "")

			cassette := filepath.Join(dir, "rec")
			proxy, stop := startCommand(t, "record", "--upstream", base, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
			refdeploy.Collect(t, proxy, site.Namespace, site.Key, siteCalls(site))
			refdeploy.WSDL(t, proxy)
			proxyCode, proxyOut := runConformProcess(t, "--target", proxy, "--key", site.Key, "--no-color")
			stop()
			learned := filepath.Join(dir, "learned.yaml")
			code, _, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", base+asmx.ServicePath, "--cassette", cassette+".yaml", "--out", learned)
			if code != 1 || !strings.Contains(errOut, "what a shape does not model: locations grouped (by institution") {
				t.Errorf("shape learn: exit %d, want 1 and the grouped locations refused:\n%s", code, errOut)
			}
			for _, w := range want {
				if !strings.Contains(errOut, w) {
					t.Errorf("shape learn does not name %q:\n%s", w, errOut)
				}
			}
			if _, err := os.Stat(learned); !os.IsNotExist(err) {
				t.Errorf("shape learn wrote %s (%v), want no file", learned, err)
			}

			// What is left to serve such a deployment: its recording.
			mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", cassette+".yaml", "--namespace", site.Namespace, "--key", site.Key)
			mockCode, mockOut := runConformProcess(t, "--target", mock, "--key", site.Key, "--no-color")
			if proxyCode != 0 || mockCode != 0 || summary(proxyOut) != summary(mockOut) {
				t.Errorf("conform: through the recorder exit %d, the replaying mock %d, want 0 and the same counts\nrecorder:\n%s\nmock:\n%s", proxyCode, mockCode, tail(proxyOut, 3000), tail(mockOut, 5000))
			}
		})
	}
}
