package mockserver

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// The headless Chromium helpers, for the tests of package mockserver_test,
// which can import package cassettes (it imports this one) and so drive a
// mock replaying cassettes.
var (
	ChromiumPath  = chromiumPath
	RequireClient = requireClient
	NewBrowser    = newBrowser
	WatchProblems = watchProblems
	NoProblems    = noProblems
	WaitUntil     = waitUntil
	Browse        = browse
	Screenshot    = screenshot
)

// BrowserValue runs one chromedp action, failing the test with what it was doing.
func BrowserValue[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	return browserValue(t, ctx, what, a)
}
