package mockserver

import (
	"net/http"
	"strings"
	"testing"
)

// TestAdminBearerRefusalsFollowRFC6750: the admin API answers as RFC 6750
// section 3.1 asks. No credentials, or another scheme: 401 with a bare
// challenge (no error code). A bearer token that is not the mock's: 401,
// error="invalid_token". A malformed request, "Bearer" with no token (or
// only spaces after it) or two Authorization headers: 400,
// error="invalid_request". "Bearer" with no token was answered 401
// invalid_token, as if a token had been sent and was wrong; two headers
// were read as their first.
func TestAdminBearerRefusalsFollowRFC6750(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken(token))
	a := ts.URL + "/__admin"
	const realm = `Bearer realm="atmkit admin"`
	for _, c := range []struct {
		name      string
		auth      []string
		status    int
		code      string
		challenge string
		says      string
	}{
		{"no header", nil, 401, adminUnauthorized, realm, "needs the header Authorization: Bearer <token>"},
		{"another scheme", []string{"Basic YWRtaW46eA=="}, 401, adminUnauthorized, realm, "not the Basic scheme"},
		{"wrong token", []string{"Bearer nope"}, 401, adminUnauthorized, realm + `, error="invalid_token"`, "is not the mock's admin token"},
		{"Bearer alone", []string{"Bearer"}, 400, adminBadRequest, realm + `, error="invalid_request"`, "no token after Bearer"},
		{"Bearer and spaces", []string{"Bearer    "}, 400, adminBadRequest, realm + `, error="invalid_request"`, "no token after Bearer"},
		{"Bearer and a tab", []string{"bearer \t"}, 400, adminBadRequest, realm + `, error="invalid_request"`, "no token after Bearer"},
		{"two headers", []string{"Bearer " + token, "Bearer " + token}, 400, adminBadRequest, realm + `, error="invalid_request"`, "2 Authorization headers"},
		{"two headers, one empty", []string{"Bearer " + token, ""}, 400, adminBadRequest, realm + `, error="invalid_request"`, "2 Authorization headers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := mustRequest(t, "POST", a+"/faults", `{"status":503}`)
			for _, v := range c.auth {
				req.Header.Add("Authorization", v)
			}
			r := doAdmin(t, req)
			adminChecks(t, r, hasAdminError(c.status, c.code), bodyContains(c.says))
			wantHeader(t, r, "WWW-Authenticate", c.challenge)
			if strings.Contains(r.body, token) {
				t.Errorf("the refusal repeats the token: %s", r.body)
			}
		})
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("a refused POST added faults: %+v", f)
	}
	ok := mustRequest(t, "GET", a+"/faults", "")
	ok.Header.Set("Authorization", "Bearer   "+token)
	adminChecks(t, doAdmin(t, ok), hasStatus(http.StatusOK))

	// Without an admin token the header is not read: nothing to refuse.
	open := NewTestServer(t, WithDataset(smallDataset()))
	bare := mustRequest(t, "GET", open.URL+"/__admin/faults", "")
	bare.Header.Set("Authorization", "Bearer")
	adminChecks(t, doAdmin(t, bare), hasStatus(http.StatusOK))
}

// TestAdminRefusalNamesOnlyKnownSchemes: a refusal of another scheme
// names it only when it is one of HTTP's authentication schemes (IANA's
// registry, and NTLM), in the registry's spelling; any other first word
// may be a secret sent without a scheme, a token of letters too: it was
// named when it was letters only ("not the letmein scheme", the mock's
// own token repeated), as FuzzAdminAuthorization found.
func TestAdminRefusalNamesOnlyKnownSchemes(t *testing.T) {
	t.Parallel()
	const token = "letmein"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken(token))
	for auth, says := range map[string]string{
		token:                "not the given scheme",
		"LetMeIn":            "not the given scheme",
		token + " x":         "not the given scheme",
		"Token " + token:     "not the given scheme",
		"Basic YWRtaW46eA==": "not the Basic scheme",
		"negotiate abc":      "not the Negotiate scheme",
		"ntlm":               "not the NTLM scheme",
	} {
		req := mustRequest(t, "GET", ts.URL+"/__admin/faults", "")
		req.Header.Set("Authorization", auth)
		r := doAdmin(t, req)
		adminChecks(t, r, hasAdminError(401, adminUnauthorized), bodyContains(says))
		if strings.Contains(strings.ToLower(r.body), token) {
			t.Errorf("Authorization %q: the refusal repeats the token: %s", auth, r.body)
		}
	}
}
