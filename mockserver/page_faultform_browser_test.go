package mockserver

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/chromedp/chromedp"
)

// TestAdminPageFaultFormRoundTripsInChromium: every field of the fault
// object typed into the page's form reaches the mock as typed: its id (the
// form had no input for it, so a fault named for a test step could not be
// added from the page), a soapFault text with white space at its ends (cut
// by the form, though the page lists such a text in quotes to keep it),
// and every other field, each kind of answer once.
func TestAdminPageFaultFormRoundTripsInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	ctx := openAdminPage(t, exe, ts.URL, chromedp.Click(`#fault-details summary`), chromedp.WaitVisible(`#fault-form input[name="seed"]`))
	for i, tt := range []struct {
		form map[string]any // the inputs by name: a string, or a box's bool
		want Fault
	}{
		{map[string]any{"id": "step-3.slow_soap12", "operation": "ReturnProvinces", "binding": "soap12", "probability": "0.25", "seed": "7",
			"skip": "1", "times": "3", "delay": "10ms", "jitter": "5ms", "delayDistribution.type": "lognormal",
			"delayDistribution.median": "80ms", "delayDistribution.sigma": "0.5", "status": "503", "soapFault.code": "Client",
			"soapFault.text": " padded, with a comma ", "dribble.chunks": "2", "dribble.duration": "1s"},
			Fault{ID: "step-3.slow_soap12", Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12, Probability: 0.25, Seed: 7, Skip: 1, Times: 3,
				Delay: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Status: 503,
				SOAPFault: &SOAPFault{Code: "Client", Text: " padded, with a comma "}, Dribble: &Dribble{Chunks: 2, Duration: time.Second},
				DelayDistribution: &DelayDistribution{Type: distLogNormal, Median: 80 * time.Millisecond, Sigma: 0.5}}},
		{map[string]any{"operation": "WSDL", "delayDistribution.type": "uniform", "delayDistribution.lower": "50ms",
			"delayDistribution.upper": "150ms", "reset.afterBytes": "10"},
			Fault{ID: "f1", Operation: opWSDL, DelayDistribution: &DelayDistribution{Type: distUniform, Lower: 50 * time.Millisecond, Upper: 150 * time.Millisecond},
				Reset: &Reset{AfterBytes: 10}}},
		{map[string]any{"binding": "get", "reset": true}, Fault{ID: "f2", Binding: asmx.HTTPGet, Reset: &Reset{}}},
		{map[string]any{"operation": "ReturnInstitutions", "drop": true}, Fault{ID: "f3", Operation: asmx.OpReturnInstitutions, Drop: true}},
		{map[string]any{"binding": "json", "operation": "ReturnAtmSearchByCoordinates", "malformed": true}, Fault{ID: "f4", Operation: asmx.OpReturnAtmSearchByCoordinates, Binding: asmx.JSON, Malformed: true}},
		{map[string]any{"binding": "post", "garbage": true, "seed": "-3"}, Fault{ID: "f5", Binding: asmx.HTTPPost, Garbage: true, Seed: -3}},
	} {
		values, err := json.Marshal(tt.form)
		if err != nil {
			t.Fatal(err)
		}
		browserValue(t, ctx, "fill the fault form", chromedp.Evaluate[bool](fmt.Sprintf(`((values) => {
			const form = document.getElementById('fault-form');
			HTMLFormElement.prototype.reset.call(form);
			for (const [name, v] of Object.entries(values)) {
				const input = form.elements.namedItem(name);
				if (!input) throw new Error('no input named ' + name);
				if (input.type === 'checkbox') input.checked = v; else input.value = v;
			}
			document.getElementById('fault-error').textContent = '';
			return true;
		})(%s)`, values)))
		browse(t, ctx, "add the fault", chromedp.Click(`#fault-form button[type="submit"]`))
		waitUntil(t, ctx, "the fault added, or refused", fmt.Sprintf(`document.querySelectorAll('#faults li').length === %d ||
			document.getElementById('fault-error').textContent !== ''`, i+1))
		if e := browserValue(t, ctx, "read the form's error", chromedp.Text(`#fault-error`)); e != "" {
			t.Errorf("fault %d (%s): the form says %q", i+1, values, e)
			continue
		}
		fs := ts.Faults()
		if got := fs[len(fs)-1]; !reflect.DeepEqual(got, tt.want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(tt.want)
			t.Errorf("fault %d typed as %s: the mock got\n%s\nwant\n%s", i+1, values, g, w)
		}
	}
	noProblems(t, ctx)
}

// TestAdminPageFaultFormOffersSOAP12CodesInChromium: the form's SOAP code
// list names SOAP 1.2's Sender and Receiver, which the API takes as
// Client and Server (and answers so over SOAP 1.2): the list offered
// Server, Client and VersionMismatch only, and a SOAP 1.2 user did not
// find the code the answer carries. The choice labelled Sender adds a
// Client fault, the code the API stores and lists.
func TestAdminPageFaultFormOffersSOAP12CodesInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	ctx := openAdminPage(t, exe, ts.URL, chromedp.Click(`#fault-details summary`), chromedp.WaitVisible(`#f-sf-code`))
	for i, tt := range []struct{ name, want string }{{"Sender", "Client"}, {"Receiver", "Server"}} {
		ok := browserValue(t, ctx, "choose "+tt.name, chromedp.Evaluate[bool](fmt.Sprintf(`((name) => {
			const form = document.getElementById('fault-form');
			HTMLFormElement.prototype.reset.call(form);
			const sel = document.getElementById('f-sf-code');
			const opt = [...sel.options].find((o) => o.textContent.includes(name));
			if (!opt) return false;
			sel.value = opt.value;
			return true;
		})(%q)`, tt.name)))
		if !ok {
			t.Errorf("the soapFault.code list has no choice naming %s", tt.name)
			continue
		}
		browse(t, ctx, "add the fault", chromedp.Click(`#fault-form button[type="submit"]`))
		waitUntil(t, ctx, "the fault added, or refused", fmt.Sprintf(`document.querySelectorAll('#faults li').length === %d ||
			document.getElementById('fault-error').textContent !== ''`, i+1))
		if e := browserValue(t, ctx, "read the form's error", chromedp.Text(`#fault-error`)); e != "" {
			t.Fatalf("%s: the form says %q", tt.name, e)
		}
		fs := ts.Faults()
		if got := fs[len(fs)-1].SOAPFault; got == nil || got.Code != tt.want {
			t.Errorf("the choice naming %s added soapFault %+v; want code %s", tt.name, got, tt.want)
		}
	}
	noProblems(t, ctx)
}
