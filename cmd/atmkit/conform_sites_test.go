package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestConformLearnedSites: atmkit conform against each of the ten sites of
// the reference deployment, whatever its result layout (refdeploy.Sites,
// Variants, Members and Columns), and against the mock serving the shape
// learned from it. Per site: conform without a shape passes, every spec
// but the shape specs (skipped: no shape given); recorded with atmkit
// record and learned with atmkit shape learn, conform --shape passes the
// site, no spec skipped; atmkit serve --shape with the learned shape (over
// the data of the site's own store, which the members site's enum needs;
// the legacy site, which has a store of its own, over the built-in set)
// passes conform with and without --shape alike. No output and no JUnit
// report names the key.
func TestConformLearnedSites(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	sites := append(append(append([]refdeploy.Site{}, refdeploy.Sites...), refdeploy.Variants...), refdeploy.Members, refdeploy.Columns)
	if len(sites) != 10 {
		t.Fatalf("%d sites, want the ten of the reference deployment", len(sites))
	}
	store := filepath.Join("..", "..", "mockserver", "testdata", "refstore")
	for _, site := range sites {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			dir := t.TempDir()
			base := d.SiteURL(site.Name)
			conformPasses(t, dir, "the site", base, site.Key, "")

			// Record every operation in every binding and the WSDL, learn.
			cassette := filepath.Join(dir, "rec")
			proxy, stop := startCommand(t, "record", "--upstream", base, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
			refdeploy.Collect(t, proxy, site.Namespace, site.Key, siteCalls(site))
			refdeploy.WSDL(t, proxy)
			stop()
			learned := filepath.Join(dir, "learned.yaml")
			if code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", base+asmx.ServicePath, "--cassette", cassette+".yaml", "--out", learned); code != 0 {
				t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
			}
			conformPasses(t, dir, "the site", base, site.Key, learned)

			const key = "mock-key-of-the-test"
			args := []string{"serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", site.Namespace, "--key", key}
			if site != refdeploy.Legacy {
				args = append(args, "--fixtures", store)
			}
			mock, _ := startCommand(t, args...)
			conformPasses(t, dir, "the mock", mock, key, "")
			conformPasses(t, dir, "the mock", mock, key, learned)
		})
	}
}

// conformCounts reads conform's last line of counts: the failed, the
// skipped, and the skipped for want of a shape.
var conformCounts = regexp.MustCompile(`\| (\d+) Failed \| (\d+) Skipped(?:: (\d+) need --shape FILE)?`)

// conformPasses runs atmkit conform against target with key, and with
// --shape shape unless it is "", and fails t unless every spec passes (the
// shape specs skipped without a shape, none with one) and neither its
// output nor its JUnit report names the key.
func conformPasses(t *testing.T, dir, what, target, key, shape string) {
	t.Helper()
	report := filepath.Join(dir, "junit.xml")
	args := []string{"--target", target, "--key", key, "--no-color", "--junit-report", report}
	if shape != "" {
		what += " with --shape"
		args = append(args, "--shape", shape)
	}
	code, out := runConformProcess(t, args...)
	m := conformCounts.FindStringSubmatch(out)
	switch {
	case code != 0 || m == nil || m[1] != "0":
		t.Errorf("conform against %s: exit %d, want 0 and no spec failed in\n%s", what, code, tail(out, 4000))
	case shape != "" && m[2] != "0", shape == "" && (m[2] == "0" || m[3] != m[2]):
		t.Errorf("conform against %s: %s; want only the shape specs skipped, and only without a shape", what, m[0])
	}
	junit, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, key) || strings.Contains(string(junit), key) {
		t.Errorf("conform against %s: the output or the JUnit report names the key %q", what, key)
	}
}
