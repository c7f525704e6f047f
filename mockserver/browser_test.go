package mockserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds headless Chromium (Debian package chromium), or
// ATMKITTEST_CHROMIUM when set.
func chromiumPath() (string, string) {
	candidates := []string{"chromium", "chromium-browser"}
	if p := os.Getenv("ATMKITTEST_CHROMIUM"); p != "" {
		candidates = []string{p}
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, ""
		}
	}
	return "", "Chromium (Debian package chromium) is not installed"
}

// requireChromium returns the path of headless Chromium, skipping the
// test (or, under CI, failing it) without one.
func requireChromium(t *testing.T) string {
	t.Helper()
	exe, missing := chromiumPath()
	requireClient(t, missing)
	return exe
}

// browserBudget bounds a test's whole browser session, so that a hung
// Chromium fails the test rather than the package's 10 minutes: the fault
// form's seed test takes about 10 s alone, and took over 60 s (the old
// budget) under -race beside other loads, failing CI once.
const browserBudget = 3 * time.Minute

// newBrowser starts a headless Chromium with a fresh profile, closed when
// the test ends. The whole session has browserBudget.
func newBrowser(t *testing.T, exe string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	)
	ctx, cancelTimeout := context.WithTimeout(context.Background(), browserBudget)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelTimeout()
	})
	return browserCtx
}

// screenshot saves the page as a PNG in ATMKIT_SCREENSHOTS, a folder, when
// that is set: a look at what the browser rendered, while developing.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ATMKIT_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	if err != nil {
		t.Errorf("screenshot %s: %v", name, err)
	}
}

// browserValue runs one chromedp action, failing the test with what it was doing.
func browserValue[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// browse runs steps that return nothing, failing the test with what it was doing.
func browse(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func TestHelpPagesInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	srv := newTestServer(t)
	ctx := newBrowser(t, exe)
	start := time.Now()
	const op = asmx.OpReturnAtmSearchByCoordinates

	// The list of operations.
	browse(t, ctx, "open the list", chromedp.Navigate(srv.URL+"/service/service.asmx"),
		chromedp.WaitVisible(chromedp.ID("operations")))
	if n := browserValue(t, ctx, "count links", chromedp.Evaluate[int](`document.querySelectorAll('#operations a').length`)); n != len(asmx.Operations()) {
		t.Errorf("operation links: got %d, want %d", n, len(asmx.Operations()))
	}
	screenshot(t, ctx, "list")

	// Follow the operation's link.
	browse(t, ctx, "follow the link", chromedp.Click(chromedp.CSS(`#operations a[href$="op=`+op+`"]`)),
		chromedp.WaitVisible(chromedp.ID("invoke")))
	if h := browserValue(t, ctx, "read the heading", chromedp.Text(chromedp.ID("operation"))); h != op {
		t.Errorf("operation page heading: got %q, want %q", h, op)
	}
	action := browserValue(t, ctx, "read the form action", chromedp.Evaluate[string](`document.querySelector('#invoke').action`))
	if want := srv.URL + "/service/service.asmx/" + op; action != want {
		t.Errorf("form action: got %q, want %q", action, want)
	}

	// Fill the form and invoke.
	browse(t, ctx, "fill the form",
		chromedp.SendKeys(chromedp.ID("strAtmServiceKey"), "browser-key"),
		chromedp.SendKeys(chromedp.ID("dblLatitude"), "44.6488"),
		chromedp.SendKeys(chromedp.ID("dblLongitude"), "-63.5752"),
		chromedp.SendKeys(chromedp.ID("bytRadius"), "2"))
	screenshot(t, ctx, "operation")
	browse(t, ctx, "invoke", chromedp.Click(chromedp.ID("submit")), chromedp.WaitReady(chromedp.CSS("atmLocations")))
	screenshot(t, ctx, "result")

	// The XML result.
	if ct := browserValue(t, ctx, "read the content type", chromedp.Evaluate[string](`document.contentType`)); ct != "text/xml" {
		t.Errorf("result content type: got %q, want text/xml", ct)
	}
	if loc := browserValue(t, ctx, "read the location", chromedp.Location()); loc != srv.URL+"/service/service.asmx/"+op {
		t.Errorf("result URL: got %q, want %q (the form posts, so no query)", loc, srv.URL+"/service/service.asmx/"+op)
	}
	// Chromium shows an XML document in its XML viewer, which keeps the
	// document's own nodes in #webkit-xml-viewer-source-xml.
	shown := browserValue(t, ctx, "read the page text", chromedp.Evaluate[string](`document.body.innerText`))
	if !strings.Contains(shown, "<atmLocations") || !strings.Contains(shown, "<atmIdentifier>") {
		t.Errorf("the page does not show the XML result:\n%.1000s", shown)
	}
	xml := browserValue(t, ctx, "read the result", chromedp.Evaluate[string](
		`(document.getElementById('webkit-xml-viewer-source-xml') || document.documentElement).innerHTML`))
	t.Logf("Chromium session: %v", time.Since(start).Round(time.Millisecond))
	doc := etree.NewDocument()
	if err := doc.ReadFromString(xml); err != nil {
		t.Fatalf("result is not XML: %v\n%.500s", err, xml)
	}
	var ids []string
	for _, l := range doc.FindElements("/atmLocations/locations/location/id") {
		ids = append(ids, l.Text())
	}
	if got := strings.Join(ids, ","); got != "1,2,3" {
		t.Errorf("location ids shown: got %q, want %q\n%.800s", got, "1,2,3", xml)
	}
}
