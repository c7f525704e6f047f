package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
)

// wireMock is a WireMock standalone process started by atmkit bench.
type wireMock struct {
	url  string
	cmd  *exec.Cmd
	dir  string // its root directory, removed by stop
	done chan error
}

// findWireMockJar looks for the standalone jar the npm package wiremock
// bundles: in node_modules of the working directory or a parent, then in
// the global npm root.
func findWireMockJar() (string, error) {
	const pattern = "wiremock/build/wiremock-standalone-*.jar"
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find WireMock jar: %w", err)
	}
	for {
		if m, _ := filepath.Glob(filepath.Join(dir, "node_modules", pattern)); len(m) > 0 {
			return m[len(m)-1], nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		if m, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), pattern)); len(m) > 0 {
			return m[len(m)-1], nil
		}
	}
	return "", fmt.Errorf("%w: install the npm package wiremock (npm install wiremock) or pass --wiremock-jar", errNoJar)
}

// startWireMock runs WireMock on a free loopback port, without request
// journal and request logging (both would only slow it down), in a
// temporary directory of its own (its root: mappings/ and __files/), and
// waits until its admin API answers. stop removes the directory.
func startWireMock(ctx context.Context, jar string, log io.Writer) (*wireMock, error) {
	if jar == "" {
		var err error
		if jar, err = findWireMockJar(); err != nil {
			return nil, err
		}
	}
	jar, err := filepath.Abs(jar)
	if err != nil {
		return nil, fmt.Errorf("wiremock: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("wiremock: pick a port: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := ln.Close(); err != nil {
		return nil, fmt.Errorf("wiremock: pick a port: %w", err)
	}
	dir, err := os.MkdirTemp("", "atmkit-wiremock-")
	if err != nil {
		return nil, fmt.Errorf("wiremock: its directory: %w", err)
	}
	cmd := exec.Command("java", "-jar", jar, "--port", strconv.Itoa(port), "--bind-address", "127.0.0.1", "--root-dir", dir,
		"--disable-banner", "--no-request-journal", "--disable-request-logging")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("wiremock: start java -jar %s: %w", jar, err)
	}
	wm := &wireMock{url: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, dir: dir, done: make(chan error, 1)}
	go func() { wm.done <- cmd.Wait() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(wm.url + "/__admin/mappings")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				fmt.Fprintf(log, "atmkit bench: WireMock (%s) listening on %s\n", filepath.Base(jar), wm.url)
				return wm, nil
			}
		}
		select {
		case err := <-wm.done:
			wm.done <- err
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("wiremock exited (%v): %s", err, strings.TrimSpace(out.String()))
		case <-ctx.Done():
			wm.stop()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			wm.stop()
			return nil, fmt.Errorf("wiremock did not answer within 60s: %s", strings.TrimSpace(out.String()))
		}
	}
}

// stop ends the WireMock process, waits for it and removes its directory.
func (wm *wireMock) stop() {
	_ = wm.cmd.Process.Kill()
	err := <-wm.done
	wm.done <- err
	_ = os.RemoveAll(wm.dir)
}

// stub registers a stub that matches the same call as the mock does (SOAP:
// the action header and every parameter by XPath; GET and JSON: the query
// parameters; POST: the form parameters) and answers with the mock's
// response, then checks that the stub answers req (sent to WireMock) with it.
func (wm *wireMock) stub(ctx context.Context, b asmx.Binding, ns, op string, params [][2]string, req loadgen.Request, want *loadgen.Response) error {
	match := map[string]any{}
	switch b {
	case asmx.SOAP11, asmx.SOAP12:
		var conds []string
		for _, p := range params {
			conds = append(conds, fmt.Sprintf("a:%s=%s", p[0], xpathLiteral(p[1])))
		}
		xpath := fmt.Sprintf("/soap:Envelope/soap:Body/a:%s[%s]", op, strings.Join(conds, " and "))
		env := asmx.NamespaceSOAP11
		if b == asmx.SOAP12 {
			env = asmx.NamespaceSOAP12
		}
		match["method"] = "POST"
		match["url"] = asmx.ServicePath
		match["bodyPatterns"] = []any{map[string]any{
			"matchesXPath":    xpath,
			"xPathNamespaces": map[string]string{"soap": env, "a": ns},
		}}
		if b == asmx.SOAP11 {
			match["headers"] = map[string]any{"SOAPAction": map[string]string{"equalTo": `"` + asmx.SOAPAction(ns, op) + `"`}}
		}
	case asmx.HTTPGet, asmx.HTTPPost, asmx.JSON:
		path, key := asmx.ServicePath+"/"+op, "queryParameters"
		match["method"] = "GET"
		if b == asmx.JSON {
			path = asmx.JSONPath + "/" + op
		}
		if b == asmx.HTTPPost {
			match["method"], key = "POST", "formParameters"
		}
		match["urlPath"] = path
		ps := map[string]any{}
		for _, p := range params {
			ps[p[0]] = map[string]string{"equalTo": p[1]}
		}
		match[key] = ps
	}
	headers := map[string]string{}
	for k := range want.Header {
		if k == "Content-Type" {
			headers[k] = want.Header.Get(k)
		}
	}
	mapping := map[string]any{
		"request":  match,
		"response": map[string]any{"status": want.Status, "headers": headers, "body": string(want.Body)},
	}
	body, err := json.Marshal(mapping)
	if err != nil {
		return fmt.Errorf("wiremock stub: %w", err)
	}
	resp, err := http.Post(wm.url+"/__admin/mappings", "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("wiremock stub: %w", err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return fmt.Errorf("wiremock stub: status %d: %s", resp.StatusCode, msg)
	}
	got, err := loadgen.Fetch(ctx, req)
	if err != nil {
		return fmt.Errorf("wiremock: %w", err)
	}
	if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) {
		return fmt.Errorf("wiremock: the stub answered %d with %d bytes, want %d with the mock's %d bytes: %.300s",
			got.Status, len(got.Body), want.Status, len(want.Body), got.Body)
	}
	return nil
}

// xpathLiteral quotes s as an XPath 1.0 string literal.
func xpathLiteral(s string) string {
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	parts := strings.Split(s, "'")
	return "concat('" + strings.Join(parts, `', "'", '`) + "')"
}

// checkWireMockJar finds WireMock's jar for --wiremock before anything
// starts: given (--wiremock-jar), it must be a file; else it is looked
// for (findWireMockJar). Neither is a wrong setting (exit 2), not a
// failed measurement.
func (cfg *Config) checkWireMockJar() error {
	if !cfg.WireMock {
		return nil
	}
	if cfg.WireMockJar == "" {
		jar, err := findWireMockJar()
		if err != nil {
			return usagef("--wiremock: %v", err)
		}
		cfg.WireMockJar = jar
		return nil
	}
	st, err := os.Stat(cfg.WireMockJar)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return usagef("--wiremock-jar %s: no such file", cfg.WireMockJar)
	case err != nil:
		return usagef("--wiremock-jar %s: %v", cfg.WireMockJar, err)
	case st.IsDir():
		return usagef("--wiremock-jar %s: a directory; want WireMock's standalone jar", cfg.WireMockJar)
	}
	return nil
}
