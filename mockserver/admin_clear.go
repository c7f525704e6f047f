package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
)

// emptiesAll answers 400 to a request of r's method that empties what
// (DELETE /__admin/requests, DELETE /__admin/faults, POST /__admin/reset)
// when it has a query or a body, and reports whether it had neither:
// those take no filter, and one meant as a filter
// (?operation=ReturnProvinces, or a body {"id":"f1"}) would otherwise
// empty all of it, as GET /__admin/requests refuses a parameter it does
// not know rather than list calls not asked for. A body of white space
// only is none. The body is read whole: capAdminBody capped it.
func emptiesAll(w http.ResponseWriter, r *http.Request, what string) bool {
	if r.URL.RawQuery != "" {
		writeAdminError(w, http.StatusBadRequest, adminBadRequest,
			"%s %s takes no query: it removes %s (DELETE %s/faults/{id} removes one fault)", r.Method, r.URL.Path, what, adminPrefix)
		return false
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeAdminError(w, http.StatusBadRequest, adminBadRequest, "reading the body: %v", err)
		return false
	}
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(body)) == 0 {
		return true
	}
	one := "DELETE " + adminPrefix + "/faults/{id} removes one fault"
	if id := faultIDOf(body); id != "" {
		one = "DELETE " + adminPrefix + "/faults/" + id + " removes fault " + id
	}
	writeAdminError(w, http.StatusBadRequest, adminBadRequest,
		"%s %s takes no body: it removes %s, whatever the body says (%s)", r.Method, r.URL.Path, what, one)
	return false
}

// faultIDOf is the fault id a JSON body {"id":"f1",...} names, if it is
// one a fault can have; "" otherwise.
func faultIDOf(body []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(body, &v) != nil || checkFaultID(v.ID) != nil {
		return ""
	}
	return url.PathEscape(v.ID) // as it is: checkFaultID allows no byte to escape
}
