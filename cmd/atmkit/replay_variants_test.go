package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestReplayVariantSites: each site of the layout variations
// (refdeploy.Variants) recorded with atmkit record (every operation in
// every binding, the WSDL) is served by atmkit serve --replay byte for
// byte, with a banner naming nothing not served; atmkit conform --shape
// (learned from the cassette) passes the replaying mock (misses forwarded
// to the site, and recorded); atmkit cassette verify finds no drift against the site,
// and finds the answer changed by hand; from SOAP 1.1 alone, the banner
// names the typed results and DataSets not served over GET and POST.
func TestReplayVariantSites(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, site := range refdeploy.Variants {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			dir, base, ns := t.TempDir(), d.SiteURL(site.Name), site.Namespace
			cassette := filepath.Join(dir, "rec")
			proxy, stopRecording := startCommand(t, "record", "--upstream", base, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
			recorded := refdeploy.Collect(t, proxy, ns, site.Key, refdeploy.Calls)
			refdeploy.WSDL(t, proxy)
			stopRecording()
			whole := cassette + ".yaml"
			learned := filepath.Join(dir, "learned.yaml")
			if code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--cassette", whole, "--out", learned); code != 0 {
				t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
			}

			// Misses are forwarded with the caller's key: the site's.
			key := site.Key
			mock, stop := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", whole, "--namespace", ns, "--key", key,
				"--on-miss", "upstream", "--upstream", base)
			for _, want := range recorded {
				b, err := asmx.ParseBinding(want.Binding)
				if err != nil {
					t.Fatal(err)
				}
				status, body := callService(t, mock, ns, b, want.Call.Op, key, want.Call.Params)
				if status != want.Status || !bytes.Equal(body, want.Body) {
					t.Errorf("%s over %s: got %d %.300s, want the recorded %d", want.Call, b, status, body, want.Status)
				}
			}
			if code, out := runConformProcess(t, "--target", mock, "--key", key, "--shape", learned, "--no-color"); code != exitOK {
				t.Errorf("conform --shape against the replaying mock: exit %d\n%s", code, tail(out, 6000))
			}
			if banner := stop(); strings.Contains(banner, "not served:") || !strings.Contains(banner, "replay") {
				t.Errorf("the banner:\n%s", banner)
			}

			// SOAP 1.1 alone: the banner names what is not served.
			soap11 := filepath.Join(dir, "soap11.yaml")
			writeBinding(t, whole, soap11, asmx.SOAP11)
			_, stop = startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", soap11, "--namespace", ns, "--key", key)
			banner := stop()
			// How many calls: the distinct questions recorded, and
			// conform's misses forwarded and recorded. On the nodes site,
			// conform asks ReturnAtmSearchByAddress over SOAP 1.1 with its
			// own values (the document's order, and reversed in
			// routing/parameters-in-any-order): one question more, bound
			// by name, forwarded and recorded once.
			want := map[string]string{
				refdeploy.Layered.Name: "ReturnProvinces over get and post (1 recorded call): recorded over soap11 as a typed result; pass --shape",
				refdeploy.Sets.Name:    "ReturnProvinces over get and post (1 recorded call): recorded over soap11 as a DataSet, whose get or post root only the deployment shows",
				refdeploy.Nodes.Name:   "ReturnAtmSearchByAddress over json (2 recorded calls): recorded over soap11 only",
				refdeploy.Spaces.Name:  "ReturnProvinces over get and post (1 recorded call): recorded over soap11 as a DataSet, whose get or post root only the deployment shows",
			}[site.Name]
			if !strings.Contains(banner, want) || (site == refdeploy.Nodes && strings.Contains(banner, "over get")) {
				t.Errorf("the banner of SOAP 1.1 alone lacks %q (nodes: a node is served over get without a shape):\n%s", want, banner)
			}

			env := map[string]string{"ATMKIT_KEY": site.Key}
			if code, out, errOut := runAtmkitWithin(deploymentWithin, env, "cassette", "verify", "--upstream", base, "--concurrency", "2", whole); code != exitOK {
				t.Errorf("cassette verify: exit %d, want 0\n%s\n%s", code, tail(out, 4000), errOut)
			}
			// An answer changed by hand: the last element name of the
			// first SOAP 1.1 answer.
			list, err := cassettes.ReadFile(whole)
			if err != nil {
				t.Fatal(err)
			}
			changed := false
			for _, i := range list {
				if !changed && i.Request.Method == "POST" && strings.HasPrefix(i.Response.Headers.Get("Content-Type"), "text/xml") && strings.Contains(i.Response.Body, "Result>") {
					i.Response.Body = strings.Replace(i.Response.Body, "Result>", "Retort>", 2)
					changed = true
				}
			}
			edited := filepath.Join(dir, "edited.yaml")
			if err := cassettes.WriteFile(edited, list); err != nil {
				t.Fatal(err)
			}
			if code, out, errOut := runAtmkitWithin(deploymentWithin, env, "cassette", "verify", "--upstream", base, "--quiet", edited); code != exitFailure || !strings.Contains(out, "drifted") {
				t.Errorf("cassette verify of an answer changed by hand: exit %d, want 1 naming the drift\n%s\n%s", code, tail(out, 4000), errOut)
			}
		})
	}
}
