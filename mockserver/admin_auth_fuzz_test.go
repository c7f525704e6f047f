package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// FuzzAdminAuthorization sends any Authorization header to the admin API
// of a mock started with any admin token (as --admin-token takes one): the
// answer is the API's (200) only when the header holds the token, else 401
// or 400 with an admin error; and a refusal of a header that holds the
// token as a word (sent without a scheme, or after another one) never
// shows it, unless the refusals' own words hold it ("token").
func FuzzAdminAuthorization(f *testing.F) {
	for _, s := range [][2]string{
		{"adm-Tok3n-77", "Bearer adm-Tok3n-77"}, {"adm-Tok3n-77", "adm-Tok3n-77"}, {"letmein", "letmein"},
		{"letmein", "Basic letmein"}, {"letmein", "bearer  letmein "}, {"x y", "Bearer x y"}, {"t", "Bearer"}, {"tok", ""},
	} {
		f.Add(s[0], s[1])
	}
	ds := smallDataset()
	f.Fuzz(func(t *testing.T, token, header string) {
		if token == "" || strings.ContainsFunc(header, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
			return // no token (the API is open), or a header no request carries
		}
		h, err := New(WithDataset(ds), WithAdminToken(token))
		if err != nil {
			return // a token --admin-token refuses
		}
		refusal := func(header string, set bool) (int, string) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/__admin/faults", nil)
			if set {
				req.Header.Set("Authorization", header)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			var e adminError
			if rec.Code != http.StatusOK && (json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error.Message == "") {
				t.Fatalf("Authorization %q: status %d with no admin error: %q", header, rec.Code, rec.Body.String())
			}
			return rec.Code, e.Error.Message
		}
		code, msg := refusal(header, true)
		switch {
		case code == http.StatusOK && !strings.Contains(header, token):
			t.Fatalf("token %q: Authorization %q let in", token, header)
		case code != http.StatusOK && code != http.StatusUnauthorized && code != http.StatusBadRequest:
			t.Fatalf("token %q: Authorization %q: status %d", token, header, code)
		case code == http.StatusOK || !slices.Contains(strings.Fields(header), token) || !strings.Contains(msg, token):
			return
		}
		for _, other := range []string{"", "Bearer", "Bearer " + token + "x", "Basic x"} {
			if _, m := refusal(other, other != ""); strings.Contains(m, token) {
				return // the token is a word of the refusals
			}
		}
		t.Fatalf("token %q: Authorization %q: the refusal shows the token: %s", token, header, msg)
	})
}
