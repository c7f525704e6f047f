package mockserver

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestAdminFaultWithItsOwnID: a fault POSTed with an id keeps it, as
// WireMock keeps a stub's: the id names it in the listing, its Location,
// DELETE /__admin/faults/{id}, the journal and the fault filter. An id
// an active fault has is refused (409 Conflict; WireMock refuses a
// stub's id taken, with 422), and so is one no URL path carries as it is; the ids the mock
// gives skip those taken. The id was dropped without a word: the fault
// was f1, and DELETE /__admin/faults/slow-provinces a 404.
func TestAdminFaultWithItsOwnID(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	r := admin(t, "POST", a+"/faults", "", `{"id":"slow-provinces","operation":"ReturnProvinces","status":503}`)
	adminChecks(t, r, hasStatus(201), bodyContains(`{"id":"slow-provinces","operation":"ReturnProvinces","status":503}`))
	wantHeader(t, r, "Location", "/__admin/faults/slow-provinces")
	adminChecks(t, admin(t, "GET", a+"/faults/slow-provinces", "", ""), hasStatus(200), bodyContains(`"id":"slow-provinces"`))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(503))
	if es := ts.Journal(RequestFilter{Fault: "slow-provinces"}); len(es) != 1 {
		t.Errorf("the journal's calls of fault slow-provinces: got %d, want 1", len(es))
	}

	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"id":"slow-provinces","drop":true}`), hasAdminError(409, adminConflict),
		bodyContains(`slow-provinces`))
	for _, id := range []string{"a/b", "..", ".", "x y", "✓", "-x", strings.Repeat("a", 65)} {
		adminChecks(t, admin(t, "POST", a+"/faults", "", `{"id":`+js(id)+`,"drop":true}`), hasAdminError(400, adminBadRequest), bodyContains("fault id"))
	}
	if n := len(ts.Faults()); n != 1 {
		t.Fatalf("after the refusals: %d faults, want 1", n)
	}

	// The mock's own ids skip one taken.
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"id":"f2","operation":"ReturnInstitutions","delay":"1ms"}`), hasStatus(201))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"id":"","operation":"ReturnInstitutions","delay":"1ms"}`), hasStatus(201), bodyContains(`{"id":"f1",`))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnInstitutions","delay":"1ms"}`), hasStatus(201), bodyContains(`{"id":"f3",`))

	adminChecks(t, admin(t, "DELETE", a+"/faults/slow-provinces", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"id":"slow-provinces","drop":true}`), hasStatus(201))
}

// TestFaultIDAtStart: a fault given with an id from the start (--fault's
// JSON form, the config file, WithFault) keeps it too; one taken by an
// earlier fault, or no URL path's, stops the start.
func TestFaultIDAtStart(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{ID: "drop-all", Drop: true}), WithFault(Fault{Status: 503}))
	if fs := ts.Faults(); len(fs) != 2 || fs[0].ID != "drop-all" || fs[1].ID != "f1" {
		t.Errorf("faults: got %+v, want drop-all and f1", fs)
	}
	for _, opts := range [][]Option{
		{WithFault(Fault{ID: "x", Drop: true}), WithFault(Fault{ID: "x", Status: 503})},
		{WithFault(Fault{ID: "a/b", Drop: true})},
	} {
		if _, err := New(append(opts, WithDataset(smallDataset()))...); err == nil || !strings.Contains(err.Error(), "fault id") {
			t.Errorf("New: got error %v, want one naming the fault id", err)
		}
	}
}

// TestAdminFaultsMaskKeys: the admin API shows a fault whose text quotes
// a service key (--key) with the key masked, as the journal shows the
// answer that fault gave and the log the fault added: its answer to the
// POST, the list (which the admin page shows) and the fault alone showed
// the key.
func TestAdminFaultsMaskKeys(t *testing.T) {
	t.Parallel()
	const key = "Fault-Key-31337"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key))
	a := ts.URL + "/__admin"
	for _, r := range []adminResult{
		admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","soapFault":{"code":"Client","text":"key `+key+` refused"}}`),
		admin(t, "GET", a+"/faults", "", ""),
		admin(t, "GET", a+"/faults/f1", "", ""),
	} {
		adminChecks(t, r, bodyContains(`"text":"key `+MaskKey(key)+` refused"`))
		if strings.Contains(r.body, key) {
			t.Errorf("the admin API shows the key: %s", r.body)
		}
	}
	// The fault answers as given: the client gets the text it says.
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, key)), hasStatus(500), bodyContains("key "+key+" refused"))
	if fs := ts.Faults(); len(fs) != 1 || fs[0].SOAPFault.Text != "key "+key+" refused" {
		t.Errorf("Faults: got %+v, want the text as given", fs)
	}
}

// TestFaultIDHoldingAKeyRefused: a fault id that holds a service key
// (--key) is refused, from the admin API (400), AddFault and at the
// start: the journal and the admin API show the fault's calls with its
// id as it is, and showed the key.
func TestFaultIDHoldingAKeyRefused(t *testing.T) {
	t.Parallel()
	const key = "Fault-Key-31337"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key))
	adminChecks(t, admin(t, "POST", ts.URL+"/__admin/faults", "", `{"id":"slow-`+key+`","drop":true}`), hasAdminError(400, adminBadRequest), bodyContains("service key"))
	if _, err := ts.AddFault(Fault{ID: key, Drop: true}); err == nil {
		t.Error("AddFault with the key as its id: got no error")
	}
	if n := len(ts.Faults()); n != 0 {
		t.Errorf("faults: got %d, want none", n)
	}
	if _, err := New(WithDataset(smallDataset()), WithKeys(key), WithFault(Fault{ID: key, Drop: true})); err == nil || !strings.Contains(err.Error(), "service key") {
		t.Errorf("New with a fault named by the key: got error %v, want one saying it holds a service key", err)
	}
}
