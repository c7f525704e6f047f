package mocktest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/beevik/etree"
)

// An Edit changes an answer on its way to the client, to make a drifted
// deployment out of the mock in a test: r is the request answered, ct the
// answer's content type.
type Edit func(r *http.Request, ct string, body []byte) []byte

// SOAP12DropsLastLocation removes the last <location> of SOAP 1.2 answers
// (the mock's default shape) and leaves every other answer as it is.
func SOAP12DropsLastLocation(_ *http.Request, ct string, body []byte) []byte {
	if !strings.HasPrefix(ct, "application/soap+xml") {
		return body
	}
	doc := etree.NewDocument()
	if doc.ReadFromBytes(body) != nil {
		return body
	}
	locs := doc.FindElements("//location")
	if len(locs) == 0 {
		return body
	}
	last := locs[len(locs)-1]
	last.Parent().RemoveChild(last)
	out, _ := doc.WriteToBytes()
	return out
}

// JSONShiftsFirstLocation returns an Edit that adds by to the coordinate
// member ("latitude" or "longitude") of the first location of JSON answers.
func JSONShiftsFirstLocation(member string, by float64) Edit {
	return func(r *http.Request, _ string, body []byte) []byte {
		if !strings.HasPrefix(r.URL.Path, jsonPath) {
			return body
		}
		var v map[string]any
		d := json.NewDecoder(bytes.NewReader(body))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return body
		}
		locs, _ := v["locations"].([]any)
		if len(locs) == 0 {
			return body
		}
		coords, _ := locs[0].(map[string]any)["coordinates"].(map[string]any)
		n, _ := coords[member].(json.Number)
		f, err := n.Float64()
		if err != nil {
			return body
		}
		coords[member] = f + by
		out, _ := json.Marshal(v)
		return out
	}
}
