package learn_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestLearnSkipsPagesAndFaultsAnsweredOK: GET/POST answers recorded with
// status 200 that are no answer of the service (a gateway's HTML sign-in
// page, a SOAP envelope, a fault among them) are skipped with a note
// naming each, as SOAP faults are: learned from alone they leave nothing
// to learn; beside a real answer, the shape is the real answer's. They were
// learned as results whose root is <html> or <Envelope> (exit 0). With
// nothing read, the error says why (no successful answer, or each
// skipped), where it said "give a WSDL or recorded answers" to one who had.
func TestLearnSkipsPagesAndFaultsAnsweredOK(t *testing.T) {
	page := []byte("<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form>x</form></body></html>")
	xhtml := []byte(`<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Error</title></head><body/></html>`)
	fault := []byte(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
	bad := []learn.Sample{
		{Binding: learn.HTTPGet, Op: asmx.OpReturnAllAtms, Status: 200, Body: page, Where: "rec.yaml#0"},
		{Binding: learn.HTTPPost, Op: asmx.OpReturnInstitutions, Status: 200, Body: xhtml, Where: "rec.yaml#1"},
		{Binding: learn.HTTPGet, Op: asmx.OpReturnProvinces, Status: 200, Body: fault, Where: "rec.yaml#2"},
	}
	_, rep, err := learn.Learn(learn.Input{Samples: bad})
	if !errors.Is(err, learn.ErrNothingToLearn) || !strings.Contains(err.Error(), "none of the 3 successful recorded answers given is one to learn from (the notes say why each was skipped)") {
		t.Errorf("learning from pages and faults alone: got %v, want ErrNothingToLearn saying none of the 3 answers could be read", err)
	}
	notes := ""
	if rep != nil {
		notes = strings.Join(rep.Notes, "\n")
	}
	for _, want := range []string{
		"skipped rec.yaml#0 (get ReturnAllAtms): the answer is an HTML page (<html>), not the service's",
		"skipped rec.yaml#1 (post ReturnInstitutions): the answer is an HTML page (<html>), not the service's",
		"skipped rec.yaml#2 (get ReturnProvinces): the answer is a SOAP fault",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}

	failed := []learn.Sample{{Binding: learn.HTTPGet, Op: asmx.OpReturnAllAtms, Status: 500, Body: []byte("Missing parameter: strAtmServiceKey."), Where: "rec.yaml#4"}}
	if _, _, err := learn.Learn(learn.Input{Samples: failed}); !errors.Is(err, learn.ErrNothingToLearn) || !strings.Contains(err.Error(), "none of the 1 recorded answers given is a successful one (status 200)") {
		t.Errorf("learning from a failed call alone: got %v, want ErrNothingToLearn saying it is no successful answer", err)
	}

	srv, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, asmx.ServicePath+"/"+asmx.OpReturnProvinces+"?strAtmServiceKey=k", nil))
	real := learn.Sample{Binding: learn.HTTPGet, Op: asmx.OpReturnProvinces, Status: rec.Code, Body: rec.Body.Bytes(), Where: "rec.yaml#3"}
	learned, _, err := learn.Learn(learn.Input{Samples: append(bad, real)})
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := learn.Learn(learn.Input{Samples: []learn.Sample{real}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(shape.Marshal(learned, "")), string(shape.Marshal(want, "")); got != want {
		t.Errorf("learned beside pages and faults:\n%s\nwant the real answer's alone:\n%s", got, want)
	}
}
