package verify_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
)

// TestUpdateSweepsKeyAndSecretsTogether: Update writing a live answer
// that echoes the key and secrets holding it (a gateway's "Key K", its
// K-partner9) in its status line, its headers and its body (as they are,
// JSON-escaped) writes no part of either but the mask: the answer's sweep
// met the key first, and the secret's rest stayed (the status line and a
// JSON escape were not swept of the secrets at all).
func TestUpdateSweepsKeyAndSecretsTogether(t *testing.T) {
	t.Parallel()
	const key = "s3cr3t-KEY-4242"
	secrets := []string{"s3cr3t-KEY-4242-partner9", "Key s3cr3t-KEY-4242"}
	answer := func(w http.ResponseWriter, r *http.Request, echo bool) {
		if !echo {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("old\n"))
			return
		}
		vals := append([]string{r.URL.Query().Get("strAtmServiceKey")}, secrets...)
		c, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		var head, body strings.Builder
		for n, v := range vals {
			j, _ := json.Marshal(v)
			escaped := strings.ReplaceAll(strings.Trim(string(j), `"`), "-", `\u002d`)
			fmt.Fprintf(&head, "X-Echo-%d: %s\r\n", n, v)
			body.WriteString(v + " " + escaped + "\n")
		}
		_, _ = fmt.Fprintf(buf, "HTTP/1.1 200 OK %s\r\n%sContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			strings.Join(vals, " "), head.String(), body.Len(), body.String())
		_ = buf.Flush()
	}
	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { answer(w, r, false) }))
	defer old.Close()
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { answer(w, r, true) }))
	defer live.Close()
	path := filepath.Join(t.TempDir(), "update.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	do(t, rec.Client(), mustGet(t, old.URL+asmx.ServicePath+"/"+asmx.OpReturnProvinces+"?strAtmServiceKey="+url.QueryEscape(key)))
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, path, live.URL, verify.Options{Key: key, Secrets: secrets})
	if files, n, err := r.Update(); err != nil || len(files) != 1 || n != 1 {
		t.Fatalf("Update: %v, %d answers, %v: want the cassette rewritten", files, n, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"s3cr3t", "4242", "partner9"} {
		if strings.Contains(string(b), f) {
			t.Errorf("the cassette Update wrote holds %q, a part of the key or a secret:\n%s", f, b)
		}
	}
	if !strings.Contains(string(b), "200 OK "+cassettes.Placeholder) {
		t.Errorf("the cassette does not hold the live answer's status, swept:\n%s", b)
	}
}
