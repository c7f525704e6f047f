package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzAdminFaults posts any body to POST /__admin/faults, the admin API's
// one decoder of JSON bodies (FuzzServeHTTP leaves it out): the answer is
// 201 with the fault added, as GET /__admin/faults/{id} then shows it, or
// 400 with an admin error in JSON; never a panic. The fault is removed
// before the next input, so no fault acts on another.
func FuzzAdminFaults(f *testing.F) {
	for _, s := range []string{
		`{"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`,
		"\xef\xbb\xbf{\"status\":503,\"times\":1}",
		`{"soapFault":{"code":"Sender","text":"a; b"}}{"status":500}`,
		`{"id":"x","drop":true}`,
		`{"dribble":{"chunks":5,"duration":"1s"}} `,
		``,
		`[]`,
	} {
		f.Add(s)
	}
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		f.Fatal(err)
	}
	do := func(method, target, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "http://127.0.0.1"+target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := do(http.MethodPost, "/__admin/faults", body)
		defer func() {
			if got := do(http.MethodDelete, "/__admin/faults", ""); got.Code != http.StatusNoContent {
				t.Fatalf("DELETE /__admin/faults: status %d", got.Code)
			}
		}()
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %q: status %d, no JSON answer (%v): %q", body, rec.Code, err, rec.Body.String())
		}
		switch rec.Code {
		case http.StatusBadRequest:
			if _, ok := out["error"]; !ok {
				t.Fatalf("POST %q: 400 without an error: %s", body, rec.Body.String())
			}
		case http.StatusRequestEntityTooLarge:
			if _, ok := out["error"]; !ok || len(body) <= maxAdminBody {
				t.Fatalf("POST of %d bytes: 413: %s", len(body), rec.Body.String())
			}
		case http.StatusCreated:
			id, _ := out["id"].(string)
			loc := rec.Header().Get("Location")
			if id == "" || loc != "/__admin/faults/"+id {
				t.Fatalf("POST %q: 201 with id %q and Location %q", body, id, loc)
			}
			got := do(http.MethodGet, loc, "")
			if got.Code != http.StatusOK || got.Body.String() != rec.Body.String() {
				t.Fatalf("POST %q: added %s; GET %s: %d %s", body, rec.Body.String(), loc, got.Code, got.Body.String())
			}
		default:
			t.Fatalf("POST %q: status %d: %s", body, rec.Code, rec.Body.String())
		}
	})
}

// FuzzAdminClearBody: DELETE /__admin/faults with any body removes every
// fault only when the body is white space (or none), and otherwise
// answers 400 with a JSON error, the faults left as they were.
func FuzzAdminClearBody(f *testing.F) {
	for _, s := range []string{``, " \n", `{"id":"f1"}`, `{"id":"a b"}`, `{}`, "\xef\xbb\xbf", `{"id":1}`} {
		f.Add(s)
	}
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		add := httptest.NewRecorder()
		h.ServeHTTP(add, httptest.NewRequest(http.MethodPost, "http://127.0.0.1/__admin/faults", strings.NewReader(`{"status":503}`)))
		if add.Code != http.StatusCreated {
			t.Fatalf("POST: status %d: %s", add.Code, add.Body.String())
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "http://127.0.0.1/__admin/faults", strings.NewReader(body)))
		n := len(h.faults.list())
		blank := strings.TrimSpace(strings.TrimPrefix(body, "\ufeff")) == ""
		switch {
		case rec.Code == http.StatusNoContent && blank && n == 0:
		case rec.Code == http.StatusBadRequest && !blank && n == 1 && json.Valid(rec.Body.Bytes()) && strings.Contains(rec.Body.String(), "takes no body"):
			h.faults.clear()
		default:
			t.Fatalf("DELETE with %q: status %d, %d faults left: %s", body, rec.Code, n, rec.Body.String())
		}
	})
}
