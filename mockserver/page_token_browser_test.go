package mockserver

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAdminPageTokenBeyondASCIIInChromium: the page opens with an admin
// token beyond ASCII, which the mock takes (curl sends it in UTF-8): a
// browser writes a header's characters up to U+00FF as one byte each
// (ISO-8859-1), so "pässwört" reached the mock as other bytes than its
// token's and the page said "The mock refused that token.", and one
// beyond U+00FF threw in fetch, read as a mock that does not answer.
func TestAdminPageTokenBeyondASCIIInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	for _, token := range []string{"pässwört-42", "ключ-✓-42"} {
		t.Run(token, func(t *testing.T) {
			t.Parallel()
			s, err := New(WithDataset(smallDataset()), WithAdminToken(token))
			if err != nil {
				t.Fatal(err)
			}
			_, base := serveAt(t, "127.0.0.1:0", s, time.Second)
			ctx := newBrowser(t, exe)
			watchProblems(t, ctx)
			browse(t, ctx, "open the page", chromedp.Navigate(base+"/__admin/"), chromedp.WaitVisible(`#login input[name="token"]`))
			browse(t, ctx, "give the token", chromedp.SetValue(`#login input[name="token"]`, token), chromedp.Click(`#login button[type="submit"]`))
			waitUntil(t, ctx, "the page goes live or refuses", `document.getElementById('state').textContent.startsWith('Live') ||
				document.getElementById('login-error').textContent !== '' || document.getElementById('state').textContent.startsWith('The mock does not answer')`)
			if state := browserValue(t, ctx, "read the state", chromedp.Text(`#state`)); len(state) < 4 || state[:4] != "Live" {
				msg := browserValue(t, ctx, "read the login error", chromedp.Evaluate[string](`document.getElementById('login-error').textContent`))
				t.Fatalf("the page with the right token: state %q, login error %q; want it live", state, msg)
			}
			noProblems(t, ctx)
		})
	}
}
