package verify

import (
	"errors"
	"fmt"
	"mime"
	"strings"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/printable"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Change is a kind of difference between a recorded answer and a live one.
type Change int

// Changes of structure come first, then changes of values.
const (
	// StatusChanged: another HTTP status.
	StatusChanged Change = iota
	// ContentTypeChanged: another media type or charset.
	ContentTypeChanged
	// BodyChanged: another kind of body (XML, JSON, text, HTML, empty).
	BodyChanged
	// Renamed: an element or member has another name at the same place.
	Renamed
	// Added: an element or member the recording does not have.
	Added
	// Removed: an element or member of the recording is missing.
	Removed
	// Moved: an element is at another place among its siblings.
	Moved
	// NamespaceChanged: an element has the same name in another namespace.
	NamespaceChanged
	// TypeChanged: a value of another type (a number became text, a
	// text became elements, a JSON string became an object, an xsi:type).
	TypeChanged
	// AttributeAdded: an attribute the recording does not have.
	AttributeAdded
	// AttributeRemoved: an attribute of the recording is missing.
	AttributeRemoved
	// AttributeChanged: an attribute that describes structure (in a WSDL
	// or schema, or xsi:type) has another value.
	AttributeChanged
	// ValueChanged: a text, attribute or JSON value differs.
	ValueChanged
	// CountChanged: a list holds another number of items.
	CountChanged
)

var changeNames = []string{"status", "content type", "body", "renamed", "added", "removed", "moved",
	"namespace", "type", "attribute added", "attribute removed", "attribute", "value", "count"}

// String names the change: "status", "renamed", "value", …
func (c Change) String() string {
	if c >= 0 && int(c) < len(changeNames) {
		return changeNames[c]
	}
	return fmt.Sprintf("change(%d)", int(c))
}

// Structural reports whether the change is one of structure rather than
// of values.
func (c Change) Structural() bool { return c < ValueChanged }

// Difference is one difference between a recorded answer and a live one.
type Difference struct {
	// Path locates it: an XPath-like path of local names for XML
	// (/Envelope/Body/ReturnProvincesResponse, location[2] the second of
	// its name), a JSONPath for JSON ($.locations[0].id); for Renamed,
	// Added, Removed and Moved, the parent's path.
	Path   string
	Change Change
	// Recorded and Live are what the recording and the deployment have:
	// names for Renamed, Added, Removed and Moved (one side empty), values
	// (quoted when they are text) for the others.
	Recorded, Live string
}

// String is the difference in one line.
func (d Difference) String() string {
	// The live side quotes the deployment's answer: made printable, no
	// escape sequence of it reaches a terminal or a report.
	return printable.Text(d.text())
}

func (d Difference) text() string {
	switch d.Change {
	case StatusChanged:
		return fmt.Sprintf("status: recorded %s, live %s", d.Recorded, d.Live)
	case ContentTypeChanged:
		return fmt.Sprintf("content type: recorded %q, live %q", d.Recorded, d.Live)
	case BodyChanged:
		return fmt.Sprintf("body: recorded %s, live %s", d.Recorded, d.Live)
	case Renamed:
		return fmt.Sprintf("%s: %s renamed to %s", d.Path, d.Recorded, d.Live)
	case Added:
		return fmt.Sprintf("%s: %s added", d.Path, d.Live)
	case Removed:
		return fmt.Sprintf("%s: %s removed", d.Path, d.Recorded)
	case Moved:
		return fmt.Sprintf("%s: %s moved (another order of elements)", d.Path, d.Recorded)
	case NamespaceChanged:
		return fmt.Sprintf("%s: namespace changed from %q to %q", d.Path, d.Recorded, d.Live)
	case TypeChanged:
		return fmt.Sprintf("%s: type changed from %s to %s", d.Path, d.Recorded, d.Live)
	case AttributeAdded:
		return fmt.Sprintf("%s: attribute %s added", d.Path, d.Live)
	case AttributeRemoved:
		return fmt.Sprintf("%s: attribute %s removed", d.Path, d.Recorded)
	case CountChanged:
		return fmt.Sprintf("%s: %s recorded, %s live", d.Path, d.Recorded, d.Live)
	}
	return fmt.Sprintf("%s: recorded %s, live %s", d.Path, d.Recorded, d.Live)
}

// comparison collects the differences of one answer.
type comparison struct {
	ignoreValues bool
	max          int // value differences kept
	structure    []Difference
	values       []Difference
	structureN   int
	valueN       int
	note         string
}

// maxStructure is how many structure differences one result keeps.
const maxStructure = 50

func (c *comparison) add(d Difference) {
	if d.Change.Structural() {
		c.structureN++
		if len(c.structure) < maxStructure {
			c.structure = append(c.structure, d)
		}
		return
	}
	if c.ignoreValues {
		return
	}
	c.valueN++
	if len(c.values) < c.max {
		c.values = append(c.values, d)
	}
}

// diffs are the structure differences, then the values kept.
func (c *comparison) diffs() []Difference {
	if len(c.structure)+len(c.values) == 0 {
		return nil
	}
	return append(append([]Difference(nil), c.structure...), c.values...)
}

// compareAnswers compares a recorded answer with a live one, both scrubbed.
func compareAnswers(rec, live *cassette.Response, ignoreValues bool, max int) *comparison {
	c := &comparison{ignoreValues: ignoreValues, max: max}
	if rec.Code != live.Code {
		c.add(Difference{Change: StatusChanged, Recorded: fmt.Sprint(rec.Code), Live: fmt.Sprintf("%d %s", live.Code, answerText(live))})
		return c // another answer altogether: its body is not comparable
	}
	rct, lct := recorded.HeaderValue(rec.Headers, "Content-Type"), recorded.HeaderValue(live.Headers, "Content-Type")
	if !sameMediaType(rct, lct) {
		c.add(Difference{Change: ContentTypeChanged, Recorded: rct, Live: lct})
	}
	rk, rt, rerr := parseBody(rct, rec.Body)
	lk, lt, lerr := parseBody(lct, live.Body)
	switch {
	case rerr != nil:
		c.note = "the recorded answer " + rerr.Error() + ": compared as text"
	case lerr != nil:
		c.note = "the live answer " + lerr.Error() + ": compared as text"
	}
	if rk != lk {
		c.add(Difference{Change: BodyChanged, Recorded: rk.String(), Live: lk.String()})
		return c
	}
	switch rk {
	case kindHTML:
		c.note = "an HTML page: its status and content type are compared, not its text (a help page varies with the ASMX version and configuration)"
	case kindText:
		r, l := firstLine(rec.Body), firstLine(live.Body)
		if (r != strings.TrimSpace(rec.Body) || l != strings.TrimSpace(live.Body)) && c.note == "" {
			c.note = "a text answer: its first line is compared (an error's message; not its stack trace)"
		}
		if r != l {
			c.add(Difference{Path: "text", Change: ValueChanged, Recorded: recorded.Quote(clip(r)), Live: recorded.Quote(clip(l))})
		}
	case kindXML, kindJSON:
		c.compareTrees(rt, lt, rk == kindJSON)
	}
	return c
}

// sameMediaType compares two content types by media type and charset,
// ignoring case, spacing and other parameters.
func sameMediaType(a, b string) bool {
	if a == b {
		return true
	}
	ma, pa, erra := mime.ParseMediaType(a)
	mb, pb, errb := mime.ParseMediaType(b)
	if erra != nil || errb != nil {
		return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
	}
	return ma == mb && strings.EqualFold(pa["charset"], pb["charset"])
}

// bodyKind is what an answer's body holds.
type bodyKind int

const (
	kindEmpty bodyKind = iota
	kindXML
	kindJSON
	kindHTML
	kindText
)

func (k bodyKind) String() string {
	return [...]string{"an empty body", "XML", "JSON", "an HTML page", "text"}[k]
}

// parseBody tells what a body holds by its content, since the content
// type does not (ASMX's JSON answers may say text/xml), and parses XML and
// JSON. XML or JSON nested too deep to compare is text, and the error
// says so.
func parseBody(contentType, body string) (bodyKind, *vnode, error) {
	t := strings.TrimLeft(body, " \t\r\n\ufeff")
	mt, _, _ := mime.ParseMediaType(contentType)
	lower := strings.ToLower(t[:min(len(t), 64)])
	var n *vnode
	var err error
	switch {
	case t == "":
		return kindEmpty, nil, nil
	case mt == "text/html" || strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html"):
		return kindHTML, nil, nil
	case t[0] == '{' || t[0] == '[':
		if n, err = jsonTree(body); err == nil {
			return kindJSON, n, nil
		}
	case t[0] == '<':
		if n, err = xmlTree(body); err == nil {
			return kindXML, n, nil
		}
	}
	if errors.Is(err, errTooDeep) {
		return kindText, nil, err
	}
	return kindText, nil, nil
}
