package mockserver

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"path"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/adminwarn"
	"github.com/atmkit/atmkit/internal/serve"
)

// The admin page: a page at /__admin/ that shows the journal live, the
// active faults (with a form to add one) and the data set's cities and
// institutions. Its files are embedded and served without the admin token;
// the page itself asks for the token when the admin API wants one, and
// sends it as a bearer header on every admin call. It polls the admin API
// while it is open and visible, so the mock does nothing for it otherwise,
// and no request of it lasts: an open page never holds up a shutdown.

//go:embed page
var pageFS embed.FS

// pagePath is where the admin page is served, with its trailing slash.
const pagePath = adminPrefix + "/"

// pageCSP is the Content-Security-Policy of the page's files: everything
// from the mock itself, nothing inline, no forms sent anywhere (the page's
// forms are read by its script), no framing.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// pageFile is one of the page's files, ready to serve.
type pageFile struct {
	name, contentType, etag string
	body                    []byte
}

// pageFiles are the page's files by their path under /__admin, read from
// pageFS when the page is first asked for.
var pageFiles = sync.OnceValue(func() map[string]*pageFile {
	files := map[string]*pageFile{}
	for url, f := range map[string]struct{ name, ct string }{
		pagePath:                     {"index.html", "text/html; charset=utf-8"},
		adminPrefix + "/page.js":     {"page.js", "text/javascript; charset=utf-8"},
		adminPrefix + "/page.css":    {"page.css", "text/css; charset=utf-8"},
		adminPrefix + "/favicon.svg": {"favicon.svg", "image/svg+xml"},
	} {
		body, err := pageFS.ReadFile(path.Join("page", f.name))
		if err != nil {
			panic("mockserver: the admin page's file " + f.name + " is not embedded: " + err.Error())
		}
		sum := sha256.Sum256(body)
		files[url] = &pageFile{name: f.name, contentType: f.ct, body: body,
			etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
	}
	return files
})

// servePage answers a request for the page or one of its files, and
// reports whether r asked for one. /__admin (no slash) is sent to the page.
func servePage(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path == adminPrefix && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		http.Redirect(w, r, pagePath, http.StatusFound)
		return true
	}
	f, ok := pageFiles()[r.URL.Path]
	if !ok {
		return false
	}
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
		return true
	}
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(f.body))
	return true
}

// newInstance names a mock among the mocks that may answer at one address
// over time (a process restarted): the admin API's listing and info carry
// it, and the admin page, seeing another, reads the mock anew, also when
// the new mock's calls already count beyond the last the page listed.
func newInstance() string { return rand.Text()[:16] }

// WithInContainer tells the mock that it runs as a container's main
// process (atmkit serve sets it when it is the container's PID 1): the
// admin page's warning of an admin API open to other hosts then advises the
// admin token alone, as serve's banner does there, not listening on
// 127.0.0.1, the container's own address, which neither the host (through a
// published port) nor other containers reach.
func WithInContainer(in bool) Option {
	return func(c *config) error {
		c.inContainer = in
		return nil
	}
}

// adminInfo is the answer of GET /__admin/info: what the admin page shows
// of the mock beside its journal, faults and data.
type adminInfo struct {
	// AdminToken reports that the admin API requires a bearer token.
	AdminToken bool `json:"adminToken"`
	// Warning is the warning atmkit serve prints when the admin API is
	// open to other hosts: no token, on an address beyond this host.
	Warning string `json:"warning,omitempty"`
	// Namespace is the service namespace.
	Namespace string `json:"namespace"`
	// JournalSize and JournalBodyMax are what the journal keeps.
	JournalSize    int `json:"journalSize"`
	JournalBodyMax int `json:"journalBodyMax"`
	// Operations and Bindings are the names the journal and faults use.
	Operations []string `json:"operations"`
	Bindings   []string `json:"bindings"`
	// Replay is set when the mock answers from cassettes.
	Replay *adminReplay `json:"replay,omitempty"`
	// Dataset counts the data set's records.
	Dataset adminDataset `json:"dataset"`
	// Instance names this mock, as GET /__admin/requests does: another
	// there is a mock started anew at the same address.
	Instance string `json:"instance"`
}

// adminReplay is what adminInfo says of a mock replaying cassettes.
type adminReplay struct {
	// FixturesOnMiss reports that calls with no recording are answered
	// from the data set (--on-miss fixtures).
	FixturesOnMiss bool `json:"fixturesOnMiss"`
}

// adminDataset counts a data set's records.
type adminDataset struct {
	ATMs         int `json:"atms"`
	Institutions int `json:"institutions"`
	Cities       int `json:"cities"`
	Provinces    int `json:"provinces"`
}

// adminInfo answers GET /__admin/info.
func (s *Server) adminInfo(w http.ResponseWriter, r *http.Request) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) || !readsNoQuery(w, r, "shows what the admin page shows of the mock") {
		return
	}
	ds := s.data.ds
	info := adminInfo{
		AdminToken:     s.cfg.adminToken != "",
		Namespace:      s.cfg.namespace,
		JournalSize:    s.cfg.journalSize,
		JournalBodyMax: s.journal.bodyMax,
		Dataset: adminDataset{ATMs: len(ds.ATMs), Institutions: len(ds.Institutions), Cities: len(ds.Cities),
			Provinces: len(ds.Provinces)},
		Instance: s.instance,
	}
	if addr := serve.ListenAddr(r.Context()); addr != nil {
		warn := adminwarn.Text
		if s.cfg.inContainer {
			warn = adminwarn.ContainerText
		}
		info.Warning = warn(addr, s.cfg.adminToken)
	}
	for _, op := range asmx.Operations() {
		info.Operations = append(info.Operations, op.Name)
	}
	for _, b := range asmx.Bindings {
		info.Bindings = append(info.Bindings, b.String())
	}
	if s.cfg.replayer != nil {
		info.Replay = &adminReplay{FixturesOnMiss: s.cfg.onMiss == MissFixtures}
	}
	writeAdminJSON(w, http.StatusOK, info)
}
