package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"golang.org/x/text/encoding/unicode"
)

// TestRecordUTF16SOAP: a SOAP call in UTF-16 (which ASMX reads, by its byte
// order mark) goes through the recording proxy; the cassette holds no key
// in any encoding (a body not in UTF-8 is written in base64, where a key
// would not be seen), and replays the call.
func TestRecordUTF16SOAP(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	path := filepath.Join(t.TempDir(), "wide.yaml")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0")
	envelope := `<?xml version="1.0" encoding="utf-16"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>` + leakKey + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	le16 := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	body, err := le16.NewEncoder().String(envelope)
	if err != nil {
		t.Fatal(err)
	}
	call := func(base string) (int, string) {
		t.Helper()
		return postProvincesSOAP(t, base, body, "text/xml; charset=utf-16")
	}
	status, answer := call(r.base)
	if status != http.StatusOK || !strings.Contains(answer, "ReturnProvincesResult") {
		t.Fatalf("UTF-16 SOAP call through the proxy: %d %.300s", status, answer)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s%s", code, r.stdout, r.stderr)
	}
	list, err := cassettes.ReadFile(path)
	if err != nil || len(list) != 1 {
		t.Fatalf("cassette: %d interactions, %v", len(list), err)
	}
	recorded := list[0].Request.Body
	text, err := le16.NewDecoder().String(recorded)
	if err != nil {
		t.Fatal(err)
	}
	for what, s := range map[string]string{"the recorded body": recorded, "its text": text, "the file": readText(t, path)} {
		noLeak(t, what, s)
	}
	if want := strings.Replace(envelope, leakKey, cassettes.Placeholder, 1); text != want || !bytes.HasPrefix([]byte(recorded), []byte{0xff, 0xfe}) {
		t.Errorf("recorded body reads %q, want %q after its byte order mark", text, want)
	}
	s := startCmd(t, nil, "serve", "--replay", path, "--addr", "127.0.0.1:0")
	if status, got := call(s.base); status != http.StatusOK || got != answer {
		t.Errorf("replayed: %d %.300q\nwant 200 %.300q", status, got, answer)
	}
}

// TestRecordFormParameterNamedMergeKey: a POST form with a parameter named
// "<<" (ASMX ignores parameters it does not know, and answers) is recorded
// and replayed. yaml.v3 wrote the name as YAML's merge key, which does not
// read back; the interaction could not be saved, and every later save
// failed with it: the recording from that call on was lost, and record
// exited 1.
func TestRecordFormParameterNamedMergeKey(t *testing.T) {
	t.Parallel()
	up := startMock(t, leakKey, nil)
	path := filepath.Join(t.TempDir(), "merge.yaml")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0", "--save-interval", "0")
	post := func(base, call string) (int, string) {
		t.Helper()
		op, form, _ := strings.Cut(call, "?")
		return statusAndBody(t)(http.Post(base+"/service/service.asmx/"+op, "application/x-www-form-urlencoded", strings.NewReader(form)))
	}
	forms := []string{"ReturnProvinces?strAtmServiceKey=" + leakKey, "ReturnAtmSearchByCity?%3C%3C=0&intCityID=1&strAtmServiceKey=" + leakKey,
		"ReturnInstitutions?strAtmServiceKey=" + leakKey}
	answers := make([]string, len(forms))
	for j, f := range forms {
		status, body := post(r.base, f)
		if status != http.StatusOK {
			t.Fatalf("%s through the proxy: %d %.300s", f, status, body)
		}
		answers[j] = body
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s%s", code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr.String(), "level=ERROR") {
		t.Errorf("record logged errors:\n%s", r.stderr)
	}
	list, err := cassettes.ReadFile(path)
	if err != nil || len(list) != len(forms) {
		t.Fatalf("cassette: %d interactions (%v), want %d", len(list), err, len(forms))
	}
	if got := list[1].Request.Form["<<"]; len(got) != 1 || got[0] != "0" {
		t.Errorf("the form's \"<<\" reads back as %q", got)
	}
	s := startCmd(t, nil, "serve", "--replay", path, "--addr", "127.0.0.1:0")
	for j, f := range forms {
		if status, got := post(s.base, f); status != http.StatusOK || got != answers[j] {
			t.Errorf("%s replayed: %d %.300q\nwant 200 %.300q", f, status, got, answers[j])
		}
	}
}

// TestRecordWhatNetHTTPCannotParse: a SOAP call whose content type has a
// parameter that does not parse ("text/xml; charset", which ASMX reads as
// text/xml, and answers) is forwarded, recorded and replayed; a form over
// net/http's 10 MB, which go-vcr cannot record, is forwarded and recorded,
// its key scrubbed, its form left empty (the body holds it). Both got a 502
// from the proxy without reaching the upstream; the large form was then
// forwarded unrecorded, with a warning.
func TestRecordWhatNetHTTPCannotParse(t *testing.T) {
	t.Parallel()
	mock := startMock(t, leakKey, nil)
	path := filepath.Join(t.TempDir(), "lax.yaml")
	r := startCmd(t, nil, "record", "--upstream", mock, "--cassette", path, "--addr", "127.0.0.1:0")
	envelope := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>` + leakKey + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	soap := func(base string) (int, string) {
		t.Helper()
		return postProvincesSOAP(t, base, envelope, "text/xml; charset")
	}
	direct, want := soap(mock)
	if direct != http.StatusOK {
		t.Fatalf("the mock answers %d to the call itself: %.300s", direct, want)
	}
	if status, got := soap(r.base); status != http.StatusOK || got != want {
		t.Errorf("through the proxy: %d %.300q, want 200 %.300q", status, got, want)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s", code, r.stderr)
	}
	if list, err := cassettes.ReadFile(path); err != nil || len(list) != 1 {
		t.Fatalf("cassette: %d interactions (%v), want the call", len(list), err)
	}
	noLeak(t, "the cassette", readText(t, path))
	s := startCmd(t, nil, "serve", "--replay", path, "--addr", "127.0.0.1:0")
	if status, got := soap(s.base); status != http.StatusOK || got != want {
		t.Errorf("replayed: %d %.300q, want 200 %.300q", status, got, want)
	}

	var got atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		got.Store(n)
		io.WriteString(w, "ok")
	}))
	t.Cleanup(up.Close)
	big := filepath.Join(t.TempDir(), "big.yaml")
	r = startCmd(t, nil, "record", "--upstream", up.URL, "--cassette", big, "--addr", "127.0.0.1:0")
	form := "strAtmServiceKey=" + leakKey + "&pad=" + strings.Repeat("x", 11<<20)
	resp, err := http.Post(r.base+"/service/service.asmx/ReturnProvinces", "application/x-www-form-urlencoded", strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || got.Load() != int64(len(form)) {
		t.Errorf("an 11 MB form through the proxy: %d, the upstream read %d bytes of %d", resp.StatusCode, got.Load(), len(form))
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s%s", code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr.String(), "forwarded without recording") {
		t.Errorf("record warned of a call forwarded unrecorded:\n%.2000s", r.stderr)
	}
	noLeak(t, "record's output", r.stdout.String()+r.stderr.String())
	list, err := cassettes.ReadFile(big)
	if err != nil || len(list) != 1 {
		t.Fatalf("cassette: %d interactions (%v), want the 11 MB form", len(list), err)
	}
	if want := strings.Replace(form, leakKey, cassettes.Placeholder, 1); list[0].Request.Body != want || len(list[0].Request.Form) != 0 {
		t.Errorf("the 11 MB form is recorded as %d bytes, the form %.200v; want it as sent, its key scrubbed, and no form", len(list[0].Request.Body), list[0].Request.Form)
	}
	noLeak(t, "the cassette", readText(t, big))
}

// postProvincesSOAP posts body, a SOAP 1.1 ReturnProvinces call, with
// content type ct to the service at base, and returns the answer's status
// and body.
func postProvincesSOAP(t *testing.T, base, body, ct string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/service/service.asmx", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnProvinces"`)
	return statusAndBody(t)(http.DefaultClient.Do(req))
}

// statusAndBody returns a function taking a call's answer (or error) and
// returning its status and body, failing t on an error.
func statusAndBody(t *testing.T) func(*http.Response, error) (int, string) {
	return func(resp *http.Response, err error) (int, string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
}

// TestRecordKeysBeyondASCII: keys beyond ASCII sent through the recording
// proxy in a form's charset (ISO-8859-1, ISO-8859-5), as UTF-8 escapes and
// in a SOAP body in ISO-8859-1, wrong ones that the mock's request
// validation echoes in its error text (HTML-encoded: "F&#225;ls&#233;"):
// no form of them reaches the cassette, record's output, or what cassette
// list and scrub --check print of it.
func TestRecordKeysBeyondASCII(t *testing.T) {
	t.Parallel()
	up := startMock(t, "Clé-秘密", nil)
	path := filepath.Join(t.TempDir(), "beyond.yaml")
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", path, "--addr", "127.0.0.1:0", "--log-level", "debug")
	post := func(op, ct, body string) {
		t.Helper()
		resp, err := http.Post(r.base+"/service/service.asmx/"+op, ct, strings.NewReader(body))
		if status, answer := statusAndBody(t)(resp, err); status != http.StatusInternalServerError || !strings.Contains(answer, "potentially dangerous") {
			t.Fatalf("%s: got %d %.300q, want request validation's 500", op, status, answer)
		}
	}
	post("ReturnProvinces", "application/x-www-form-urlencoded; charset=iso-8859-1", "strAtmServiceKey=F%E1ls%E9-%3Cb")
	post("ReturnInstitutions", "application/x-www-form-urlencoded; charset=iso-8859-5", "strAtmServiceKey=%BA%DB%EE%E7-%3Cb")
	resp, err := http.Get(r.base + "/service/service.asmx/ReturnAllAtms?strAtmServiceKey=Cl%C3%A9-%E7%A7%98%E5%AF%86%3Cb")
	if status, _ := statusAndBody(t)(resp, err); status != http.StatusInternalServerError {
		t.Fatalf("GET: got %d, want request validation's 500", status)
	}
	if status, _ := postProvincesSOAP(t, r.base, `<?xml version="1.0" encoding="iso-8859-1"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`+
		"<ReturnProvinces xmlns=\"http://tempuri.org/atmService\"><strAtmServiceKey>F\xe1ls\xe9-key</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>",
		"text/xml; charset=iso-8859-1"); status != http.StatusInternalServerError {
		t.Fatalf("SOAP: got %d, want the refusal of a wrong key", status)
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\n%s%s", code, r.stdout, r.stderr)
	}
	code, listOut, listErr := runAtmkit(nil, "cassette", "list", path)
	if code != exitOK {
		t.Fatalf("cassette list: exit %d\n%s", code, listErr)
	}
	code, checkOut, checkErr := runAtmkit(nil, "cassette", "scrub", "--check", path)
	if code != exitOK {
		t.Errorf("cassette scrub --check: exit %d, want 0 (nothing left to redact)\n%s%s", code, checkOut, checkErr)
	}
	texts := map[string]string{"the cassette": readText(t, path), "record's output": r.stdout.String() + r.stderr.String(),
		"cassette list": listOut + listErr, "cassette scrub --check": checkOut + checkErr}
	if n := strings.Count(texts["the cassette"], "potentially dangerous"); n != 3 {
		t.Errorf("the cassette holds %d request validation errors, want 3", n)
	}
	for what, s := range texts {
		for _, f := range []string{"Fálsé-", "F&#225;ls&#233;-", "F%E1ls%E9-", "F\xe1ls\xe9-", "Ключ-", "%BA%DB%EE%E7-",
			"Clé-秘密", "Cl&#233;-秘密", "Cl%C3%A9-%E7%A7%98%E5%AF%86"} {
			if strings.Contains(s, f) {
				t.Errorf("%s holds the key as %q: %.600q", what, f, s)
			}
		}
	}
}
