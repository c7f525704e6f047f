package mockserver

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
)

// authRefusal is why a request may not use the admin API: the status of
// the answer (401, or 400 for a malformed request), the error attribute
// of its Bearer challenge (RFC 6750 section 3.1; "" for none) and the
// message of its error object.
type authRefusal struct {
	status int
	bearer string
	why    string
}

// refuseUnauthorized answers a request that may not use the admin API
// (none of its body read) and reports whether it did, as RFC 6750
// section 3.1 asks: no credentials or another scheme, 401 with a bare
// challenge; a bearer token that is not the mock's, 401 invalid_token;
// a malformed request ("Bearer" with no token, two Authorization
// headers), 400 invalid_request.
func (s *Server) refuseUnauthorized(w http.ResponseWriter, r *http.Request) bool {
	no := s.unauthorized(r)
	if no.status == 0 {
		return false
	}
	challenge := `Bearer realm="atmkit admin"`
	if no.bearer != "" {
		challenge += `, error="` + no.bearer + `"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	closeUnread(w, r)
	code := adminUnauthorized
	if no.status == http.StatusBadRequest {
		code = adminBadRequest
	}
	writeAdminError(w, no.status, code, "%s", no.why)
	return true
}

// unauthorized says why r may not use the admin API, in the words of the
// API's answer; a zero authRefusal when it may. The token is compared in
// constant time. A wrong token is told from a missing one, and both from
// a malformed header, so a caller knows whether to fix the header or the
// token. The token's characters are not held to RFC 6750's b64token:
// --admin-token takes any but line breaks and spaces at its ends, and a
// token the mock was given is sent as it is.
func (s *Server) unauthorized(r *http.Request) authRefusal {
	if s.cfg.adminToken == "" {
		return authRefusal{}
	}
	if n := len(r.Header.Values("Authorization")); n > 1 {
		return authRefusal{http.StatusBadRequest, "invalid_request",
			fmt.Sprintf("the request has %d Authorization headers: send one, Authorization: Bearer <token>", n)}
	}
	auth := strings.TrimSpace(r.Header.Get("Authorization"))
	if auth == "" {
		return authRefusal{http.StatusUnauthorized, "",
			"the admin API needs the header Authorization: Bearer <token>, the token the mock was started with (--admin-token)"}
	}
	scheme, token, _ := strings.Cut(auth, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return authRefusal{http.StatusUnauthorized, "",
			"the admin API takes a bearer token: send Authorization: Bearer <token>, not the " + safeScheme(scheme) + " scheme"}
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return authRefusal{http.StatusBadRequest, "invalid_request",
			"the Authorization header has no token after Bearer: send Authorization: Bearer <token>, the token the mock was started with (--admin-token); is the variable that holds it empty?"}
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.adminToken)) != 1 {
		return authRefusal{http.StatusUnauthorized, "invalid_token",
			"the bearer token is not the mock's admin token (--admin-token or ATMKIT_ADMIN_TOKEN of the running mock)"}
	}
	return authRefusal{}
}

// safeScheme is an Authorization scheme as an error text may repeat it:
// one of HTTP's authentication schemes (IANA's registry, and NTLM), in
// the registry's spelling, else nothing of what was sent. Any other word
// may be a secret sent without a scheme (a token of letters as well: the
// mock's own admin token, sent bare, was repeated when a scheme was any
// word of letters).
func safeScheme(scheme string) string {
	for _, known := range authSchemes {
		if strings.EqualFold(scheme, known) {
			return known
		}
	}
	return "given"
}

// authSchemes are the HTTP authentication schemes of IANA's registry
// (Bearer, the admin API's, aside), and NTLM.
var authSchemes = []string{"Basic", "Concealed", "Digest", "DPoP", "GNAP", "HOBA", "Mutual", "Negotiate",
	"NTLM", "OAuth", "PrivateToken", "SCRAM-SHA-1", "SCRAM-SHA-256", "vapid"}
