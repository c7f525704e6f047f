package mockserver_test

import (
	"bytes"
	"cmp"
	"fmt"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
	"github.com/beevik/etree"
)

// refStore is the data of the reference deployment's shared store
// (internal/refdeploy/testdata/shared/Store.cs) as a fixtures directory:
// its provinces, institutions, cities and ATMs, in its order. The fields
// the store has no counterpart of (a province's postal prefixes, an
// institution's kind and home province) take the values the data set's
// checks want; no answer shows them.
const refStore = "testdata/refstore"

// learnedSite is a site TestDifferentialLearnedSites compares: the data
// set the mock serves for it (its store as fixtures), the calls that find
// locations in its data, and the values its store holds that atmkit's
// data set cannot (transcribed: the site's text of each, then the one
// the fixtures hold in its place).
type learnedSite struct {
	site        refdeploy.Site
	store       string
	calls       []refdeploy.Call
	transcribed [][2]string
	// oneRowEach names the tables of the site's DataSets whose rows hold
	// a list atmkit has no data for, nested in a list's rows: learned as
	// one row per parent row of generated values (docs/shapes.md,
	// DataSets), so that the deployment's first row in each parent row
	// stands for the mock's (firstRowEach).
	oneRowEach []string
	// learnFrom is the base address of the site the shape is learned
	// from, when not the one compared: the same site over other data.
	learnFrom string
	// jsonValues compares JSON answers by their values, not their bytes:
	// the sites write their JSON by hand (Store.cs, Str), escaping
	// control characters alone, each as \uXXXX; the mock escapes as
	// wire.ResultJSON does.
	jsonValues bool
	// holds are what the learned shape must hold (shape.Marshal's text):
	// what the site is there to show.
	holds []string
	// monoFix, if set, turns a deployment's answer (what names the call
	// and binding) into what .NET writes where Mono's writers differ
	// from .NET's reference source beyond line ends.
	monoFix func(what string, body []byte) []byte
}

// learnedSites are the sites of the reference deployment compared: each
// that serves the shared store (refStore), and the legacy site, whose
// data is its own (internal/refdeploy/testdata/legacy/App_Code/Store.cs)
// as testdata/legacystore, in its order: the provinces as it lists them,
// each city at its first teller (where the site's address search falls
// back to), the fields it has no counterpart of chosen as for refStore.
// Nine of its postal codes hold a letter Canada Post does not use there
// (D, F, Q, U), which atmkit's data set refuses (fixtures check, and
// serve --fixtures at start): legacystore holds the next letter it uses.
var learnedSites = []learnedSite{
	{site: refdeploy.Typed, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.DataSets, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Attrs, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Layered, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Nodes, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Sets, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Spaces, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Members, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Columns, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.Grouped, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.GroupedByName, store: refStore, calls: refdeploy.Calls, holds: []string{"        group: institution\n        groupOrder: institution.name\n"}},
	{site: refdeploy.GroupSets, store: refStore, calls: refdeploy.Calls},
	{site: refdeploy.GroupSetsFlat, store: refStore, calls: refdeploy.Calls, holds: []string{"        - table: Atm\n          rows: locations\n          rowOrder: groups\n"}},
	{site: refdeploy.Legacy, store: "testdata/legacystore", calls: refdeploy.LegacyCalls, oneRowEach: []string{"Branch"}, transcribed: [][2]string{
		{"E2L 8D5", "E2L 8E5"}, {"B1P 9F4", "B1P 9G4"}, {"B1P 2U4", "B1P 2V4"}, {"C1N 2Q0", "C1N 2R0"}, {"C1N 5U3", "C1N 5V3"},
		{"C1N 2F2", "C1N 2G2"}, {"A2H 8Q8", "A2H 8R8"}, {"B2N 3F6", "B2N 3G6"}, {"B2N 4Q3", "B2N 4R3"},
	}},
}

// generatedValue is a value of a site's answers that atmkit has no data
// for: the learned shape marks its field generated (field, as shape.Marshal
// writes it), and the mock writes the documented generated value in its
// place (docs/shapes.md: a string is `Name-n`, n the item's position in its
// list from 1, 0 outside any list: `kind-0` for an attribute of the result
// itself). site matches the deployment's text of each value, mock returns
// the mock's in its place.
type generatedValue struct {
	field string
	site  *regexp.Regexp
	mock  func(site []byte) string
}

// constant is a generatedValue's mock of a value outside any list.
func constant(v string) func([]byte) string { return func([]byte) string { return v } }

// generatedValues are the generated values whose deployment's values
// differ from the mock's, by site; the sites' other generated fields
// (ids, positions) hold the values the mock generates.
var generatedValues = map[string][]generatedValue{
	// The attrs site names the question of a location list in the root's
	// kind attribute (all, address, coordinates, …).
	"attrs": {{"{attribute: kind, type: string, generated: true}", regexp.MustCompile(` kind="[a-z]+"`), constant(` kind="kind-0"`)}},
	// The legacy site's provinces name their capital in an attribute,
	// its institutions DataSet a lender's branches (a town and how many
	// tellers it has there) in a nested Branch table, one row a lender in
	// the mock (firstRowEach), its generated values the lender's position
	// in the store's list.
	"legacy": {
		{"{attribute: capital, type: string, generated: true}", regexp.MustCompile(` capital="[^"]*"`), func(b []byte) string {
			n := slices.Index([]string{"Fredericton", "St. John's", "Halifax", "Charlottetown"}, string(b[len(` capital="`):len(b)-1]))
			return fmt.Sprintf(` capital="capital-%d"`, n+1)
		}},
		{"{column: Town, type: string, generated: true}", branchValues, func(b []byte) string { return branchGenerated(b, "<Town>Town-%d</Town>") }},
		{"{column: Machines, type: int, generated: true}", branchValues, func(b []byte) string { return branchGenerated(b, "<Machines>%d</Machines>") }},
	},
	// The spaces site's institutions DataSet has a Source and a Stamp
	// table of one row each, naming the site and the end, and a Branch
	// table of one row per institution naming its head office (the
	// mock's n: the institution's position in the store's list).
	"spaces": {
		{"{column: Origin, type: string, generated: true}", regexp.MustCompile(`<Origin>spaces</Origin>`), constant(`<Origin>Origin-0</Origin>`)},
		{"{column: Note, type: string, generated: true}", regexp.MustCompile(`<Note>end</Note>`), constant(`<Note>Note-0</Note>`)},
		{"{column: Office, type: string, generated: true}", regexp.MustCompile(`<Office>[^<]* head office</Office>`), func(b []byte) string {
			name := strings.TrimSuffix(strings.TrimPrefix(string(b), "<Office>"), " head office</Office>")
			n := slices.Index([]string{"Harbour Bank", "Maritime Trust", "Tidewater Credit Union", "Northern Savings"}, name)
			return fmt.Sprintf("<Office>Office-%d</Office>", n+1)
		}},
	},
}

// branchValues matches the values of a row of the legacy site's Branch
// table: its lender's number, its town and its number of tellers there.
var branchValues = regexp.MustCompile(`<LenderNo>(\d+)</LenderNo>(\s*)<Town>([^<]*)</Town>(\s*)<Machines>(\d+)</Machines>`)

// branchGenerated returns the Branch row values b with the town or the
// number (as format writes it) the mock generates in their place: the
// lender's position in the store's list.
func branchGenerated(b []byte, format string) string {
	m := branchValues.FindSubmatch(b)
	n := slices.Index([]string{"7", "8", "9", "10"}, string(m[1])) + 1
	town, machines := "<Town>"+string(m[3])+"</Town>", "<Machines>"+string(m[5])+"</Machines>"
	if strings.HasPrefix(format, "<Town>") {
		town = fmt.Sprintf(format, n)
	} else {
		machines = fmt.Sprintf(format, n)
	}
	return fmt.Sprintf("<LenderNo>%s</LenderNo>%s%s%s%s", m[1], m[2], town, m[4], machines)
}

// firstRowEach returns body, a DataSet answer, with the first row of the
// table named table in each row holding it, no other (nor the white space
// before it), numbered in order as the mock numbers the one row it writes
// there: diffgr:id the table's name and its position, msdata:rowOrder one
// less.
func firstRowEach(body []byte, table string) []byte {
	more := regexp.MustCompile(`(?s)(</` + table + `>)(\s*<` + table + ` diffgr:id="[^"]*"[^>]*>.*?</` + table + `>)+`)
	body = more.ReplaceAll(body, []byte("$1"))
	n := 0
	row := regexp.MustCompile(`<` + table + ` diffgr:id="` + table + `\d+" msdata:rowOrder="\d+"`)
	return row.ReplaceAllFunc(body, func([]byte) []byte {
		n++
		return fmt.Appendf(nil, `<%s diffgr:id="%s%d" msdata:rowOrder="%d"`, table, table, n, n-1)
	})
}

// asGenerated returns body with the values of g as the mock generates them.
func asGenerated(body []byte, g generatedValue) []byte {
	return g.site.ReplaceAllFunc(body, func(b []byte) []byte { return []byte(g.mock(b)) })
}

// TestDifferentialLearnedSites learns each site of the reference
// deployment (learnedSites) as a user does: its WSDL and its answers to
// every operation (9 calls of the 8 operations that find locations in its
// data: refdeploy.Calls, the legacy site's refdeploy.LegacyCalls) in every
// binding, read by shape/learn, the learner of atmkit shape learn. It then
// serves the learned shape with the mock over the same data (the site's
// store as fixtures) and compares every answer with the deployment's to
// the same call (14 sites x 39 answers: SOAP 1.1, SOAP 1.2, GET and POST,
// JSON for the two searches the document offers it for), and the types of
// its WSDL (the enums of the members site, the order its members declared
// object make, included), byte for byte:
// status, content type and body, after the one documented Mono difference
// these answers show (LF where .NET writes CR LF in indented GET and POST
// documents, docs/asmx.md, Mono and .NET), with the documented differences
// of atmkit's model (docs/shapes.md) taken out first: a value atmkit has
// no data for is the mock's generated value (generatedValues), a table
// whose rows hold a list atmkit has no data for (the legacy site's
// branches) holds one row per parent row (learnedSite.oneRowEach), and
// rows nested in a row of their own table are compared row by row, every
// value, for the mock writes them at the DataSet's level (the spaces
// site's provinces; the rest of such an answer, its schema included, byte
// for byte); and the values atmkit's data set refuses are the ones the
// store holds in their place (learnedSite.transcribed: the legacy site's
// postal codes of letters Canada Post does not use).
func TestDifferentialLearnedSites(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, ls := range learnedSites {
		site := ls.site
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			if n := compareLearned(t, d.SiteURL(site.Name), ls); n != 39 {
				t.Errorf("%d answers compared; want 39", n)
			}
		})
	}
}

// compareLearned learns the site of ls served at base and compares every
// answer of the mock serving the learned shape over ls.store with the
// site's, as TestDifferentialLearnedSites says; it returns the number of
// answers compared.
func compareLearned(t *testing.T, base string, ls learnedSite) int {
	t.Helper()
	site := ls.site
	deployment := refdeploy.Collect(t, base, site.Namespace, site.Key, ls.calls)
	samples, learnBase := deployment, base
	if ls.learnFrom != "" {
		learnBase = ls.learnFrom
		samples = refdeploy.Collect(t, learnBase, site.Namespace, site.Key, ls.calls)
	}
	in := learn.Input{WSDL: refdeploy.WSDL(t, learnBase)}
	for _, a := range samples {
		in.Samples = append(in.Samples, learn.Sample{Binding: a.Binding, Op: a.Call.Op, Query: fmt.Sprint(a.Call.Params),
			Status: a.Status, Body: a.Body, Where: fmt.Sprintf("%s over %s", a.Call, a.Binding)})
	}
	sh, _, err := learn.Learn(in)
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	marshaled := string(shape.Marshal(sh, ""))
	for _, w := range ls.holds {
		if !strings.Contains(marshaled, w) {
			t.Fatalf("the learned shape lacks %q:\n%s", w, marshaled)
		}
	}
	for _, g := range generatedValues[site.Name] {
		if !strings.Contains(marshaled, g.field) {
			t.Fatalf("the learned shape lacks %s:\n%s", g.field, marshaled)
		}
	}
	h, err := mockserver.New(mockserver.WithShape(sh), mockserver.WithNamespace(site.Namespace), mockserver.WithKeys(site.Key),
		mockserver.WithFixturesDir(ls.store))
	if err != nil {
		t.Fatal(err)
	}
	mock := httptest.NewServer(h)
	t.Cleanup(mock.Close)
	// The WSDL's types too, byte for byte (Mono writes LF).
	if got, want := wsdlTypesOf(t, refdeploy.WSDL(t, mock.URL)), wsdlTypesOf(t, mocktest.AsDotNetLinesBytes(in.WSDL)); got != want {
		t.Errorf("the mock's WSDL types differ from the deployment's %s", firstDifference([]byte(got), []byte(want)))
	}
	mine := refdeploy.Collect(t, mock.URL, site.Namespace, site.Key, ls.calls)
	if len(mine) != len(deployment) {
		t.Fatalf("the mock answered %d calls, the deployment %d", len(mine), len(deployment))
	}
	transcribed := map[string]bool{}
	for i, a := range deployment {
		what := fmt.Sprintf("%s over %s", a.Call, a.Binding)
		want, got := a.Body, mine[i].Body
		if a.Binding == "get" || a.Binding == "post" {
			want = mocktest.AsDotNetIndentBytes(want) // Mono writes LF
		}
		if ls.monoFix != nil {
			want = ls.monoFix(what, want)
		}

		if r := sh.Result(a.Call.Op); r != nil && r.DataSet != nil && a.Binding != "json" {
			for _, name := range ls.oneRowEach {
				if tb := r.DataSet.TableNamed(name); tb == nil || tb.Rows != shape.RowsOne || r.DataSet.NestedParent(tb) == nil {
					t.Fatalf("%s: the learned shape has no table %s of one row per parent row:\n%s", what, name, marshaled)
				}
				want = firstRowEach(want, name)
			}
		}
		for _, g := range generatedValues[site.Name] {
			want = asGenerated(want, g)
		}
		for _, v := range ls.transcribed {
			if bytes.Contains(want, []byte(v[0])) {
				transcribed[v[0]] = true
			}
			want = bytes.ReplaceAll(want, []byte(v[0]), []byte(v[1]))
		}
		if got, want := mine[i].ContentType, a.ContentType; got != want {
			t.Errorf("%s: content type %q, the deployment's %q", what, got, want)
		}
		if keys := selfNested(sh.Result(a.Call.Op)); len(keys) > 0 && a.Binding != "json" {
			got, want = sameRows(t, what, keys, got, want)
		}
		if a.Binding == "json" && ls.jsonValues {
			sameJSON(t, what, got, want)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s: the mock's answer differs from the deployment's %s", what, firstDifference(got, want))
		}
	}
	for _, v := range ls.transcribed {
		if !transcribed[v[0]] {
			t.Errorf("no answer of the deployment holds %q, which the store holds as %q", v[0], v[1])
		}
	}
	return len(deployment)
}

// selfNested returns the parent key columns of the tables of r, a
// DataSet, that are nested in themselves; none when it has none.
func selfNested(r *shape.Result) []string {
	if r == nil || r.DataSet == nil {
		return nil
	}
	var keys []string
	for _, tb := range r.DataSet.Tables {
		if rel := r.DataSet.SelfNested(tb); rel != nil {
			keys = append(keys, rel.ChildColumns...)
		}
	}
	return keys
}

// sameRows compares the rows of two DataSet answers (the mock's got, the
// deployment's want) whose DataSet has a table nested in itself: every row
// of every table, by table and row order, with its diffgram attributes and
// values, but the parent keys (keys, hidden or not) and the namespace
// declarations, which depend on where a row is written. It returns both
// answers with their diffgrams cut out, to be compared byte for byte.
func sameRows(t *testing.T, what string, keys []string, got, want []byte) ([]byte, []byte) {
	t.Helper()
	skip := func(name string) bool {
		for _, k := range keys {
			if name == k || name == "msdata:hidden"+k {
				return true
			}
		}
		return false
	}
	rows := func(body []byte) []string {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(body); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var out []string
		for _, e := range doc.FindElements("//[@diffgr:id]") {
			line := []string{"{" + e.NamespaceURI() + "}" + e.Tag}
			for _, at := range e.Attr {
				if at.Space != "xmlns" && at.Key != "xmlns" && !skip(at.FullKey()) {
					line = append(line, at.FullKey()+"="+at.Value)
				}
			}
			kids := e.ChildElements()
			if len(kids) == 0 {
				line = append(line, "text="+e.Text()) // a SimpleContent column
			}
			for _, k := range kids {
				if k.SelectAttr("diffgr:id") == nil && !skip(k.Tag) {
					line = append(line, "{"+k.NamespaceURI()+"}"+k.Tag+"="+k.Text())
				}
			}
			out = append(out, strings.Join(line, " "))
		}
		order := func(row string) (string, int) {
			tag, rest, _ := strings.Cut(row, " ")
			_, n, _ := strings.Cut(rest, "msdata:rowOrder=")
			k, _ := strconv.Atoi(strings.Fields(n + " ")[0])
			return tag, k
		}
		slices.SortStableFunc(out, func(a, b string) int {
			ta, na := order(a)
			tb, nb := order(b)
			return cmp.Or(strings.Compare(ta, tb), cmp.Compare(na, nb))
		})
		return out
	}
	if g, w := rows(got), rows(want); !slices.Equal(g, w) || len(g) == 0 {
		t.Errorf("%s: the mock's rows:\n%s\nthe deployment's:\n%s", what, strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	cut := func(body []byte) []byte {
		from := bytes.Index(body, []byte("<diffgr:diffgram"))
		to := bytes.Index(body, []byte("</diffgr:diffgram>"))
		if from < 0 || to < from {
			t.Fatalf("%s: no diffgram in %.300s", what, body)
		}
		return slices.Concat(body[:from], body[to:])
	}
	return cut(got), cut(want)
}

// firstDifference shows where got and want first differ, with some bytes
// of each around it.
func firstDifference(got, want []byte) string {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	from := max(n-150, 0)
	return fmt.Sprintf("at byte %d (of %d, want %d):\n…%s\nwant\n…%s", n, len(got), len(want),
		excerpt(got[from:], 400), excerpt(want[from:], 400))
}

func excerpt(b []byte, n int) string {
	return strings.ToValidUTF8(string(b[:min(len(b), n)]), "?")
}
