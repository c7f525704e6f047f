package learn_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestLearnMembersSite learns the reference deployment's members site
// (answers and WSDL recorded from Mono in testdata/members): its null
// members are learned as XmlSerializer writes them, from the WSDL and
// answers (the golden testdata/members-learned.yaml) and from the answers
// alone: the search point's nillable element (xsi:nil in the lists that
// have none), a landmark nillable where it is empty, an institution's web
// site left out where it is empty (omitEmpty), members declared object
// written with their value's type (xsi:type: a string, a short), flags
// left out when false (a DefaultValue on an element and on an attribute,
// from the WSDL; an XxxSpecified member); a location's index,
// which the site does not write, omitted; an enum's values are
// strings of the enum's values (enum, enumValues, from the WSDL), noted. The learner used to write type: Region, a shape it then
// refused as its own bug, and to serve the null members as empty ones
// (<Landmark />, web="") or not at all (the search point).
func TestLearnMembersSite(t *testing.T) {
	both, rep, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "members"), Samples: siteSamples(t, "members")})
	if err != nil {
		t.Fatal(err)
	}
	matchGolden(t, filepath.Join("testdata", "members-learned.yaml"), shape.Marshal(both, "learned from the reference deployment's members site's WSDL and answers"))
	if len(rep.Omitted) != 1 || !strings.HasPrefix(rep.Omitted[0], "Hit: location index:") || len(rep.NotSeen) > 0 {
		t.Errorf("the report omits %q and did not see %q, where the site writes every value but a location's index", rep.Omitted, rep.NotSeen)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, at := range []string{"Hit: Hit/Tellers/Teller/@region", "ArrayOfArea: ArrayOfArea/Area/@code", "Hit: Hit/Tellers/Teller/Langs/Lang"} {
		enum := "Region (an enum of 6 values)"
		if strings.HasSuffix(at, "/Lang") {
			enum = "Tongue (an enum of 2 values)"
		}
		if want := at + ": the WSDL declares it of the deployment's own simple type " + enum; !strings.Contains(notes, want) {
			t.Errorf("the report's notes lack %q:\n%s", want, notes)
		}
	}
	alone, _, err := learn.Learn(learn.Input{Samples: siteSamples(t, "members")})
	if err != nil {
		t.Fatal(err)
	}
	for name, sh := range map[string]*shape.Shape{"the WSDL and answers": both, "the answers alone": alone} {
		// Answers do not tell a DefaultValue from an XxxSpecified
		// member: both leave the flag out when false.
		def := "default false"
		if sh == alone {
			def = "omitWhen false"
		}
		want := "Hit/Centre nillable\nHit/Tellers/Teller/Code xsiType string\nHit/Tellers/Teller/Bank/@cu " + def + "\nHit/Tellers/Teller/Bank/@web omitEmpty\n" +
			"Hit/Tellers/Teller/Landmark nillable\nHit/Tellers/Teller/Perks/Hours xsiType short\nHit/Tellers/Teller/Perks/DriveUp " + def +
			"\nHit/Tellers/Teller/Perks/Plus omitWhen false\nBanks/Bank/@cu " + def + "\nBanks/Bank/@web omitEmpty"
		if got := nulls(sh); got != want {
			t.Errorf("from %s: the null members are\n%s\nwant\n%s", name, got, want)
		}
	}
	if mappings(alone) != mappings(both) {
		t.Errorf("from the answers alone:\n%s\nwant\n%s", mappings(alone), mappings(both))
	}
}

// nulls lists the fields of s's results that are nillable or omitEmpty,
// the values of members declared object (xsiType) with their type, and
// the values left out at a value (default, omitWhen), by path.
func nulls(s *shape.Shape) string {
	var lines []string
	var walk func(fs []*shape.Field, at string)
	walk = func(fs []*shape.Field, at string) {
		for _, f := range fs {
			p := at
			switch {
			case f.Attribute != "":
				p = at + "/@" + f.Attribute
			case f.Element != "":
				p = at + "/" + f.Element
			}
			if f.Nillable {
				lines = append(lines, p+" nillable")
			}
			if f.OmitEmpty {
				lines = append(lines, p+" omitEmpty")
			}
			if f.XsiType {
				lines = append(lines, p+" xsiType "+f.Type)
			}
			if f.Default != nil {
				lines = append(lines, p+" default "+*f.Default)
			}
			if f.OmitWhen != "" {
				lines = append(lines, p+" omitWhen "+f.OmitWhen)
			}
			walk(f.Fields, p)
			if f.Item != nil {
				walk(f.Item.Fields, p+"/"+f.Item.Element)
			}
		}
	}
	for _, r := range s.Results {
		walk(r.Fields, r.Root)
	}
	return strings.Join(lines, "\n")
}

// TestLearnRefusesListsWithoutData: a typed result holding lists atmkit
// has no data for (the members site given an ATM's services, string[],
// and an array of arrays of its languages, string[][] with a nested
// XmlArrayItem, captured from Mono) is refused, from the WSDL and from an
// answer alone, naming both lists: the learner left them out, reporting
// them as written with generated values, and the mock served answers
// without them.
func TestLearnRefusesListsWithoutData(t *testing.T) {
	wsdl, err := os.ReadFile(filepath.Join("testdata", "variants", "members-lists-wsdl.xml"))
	if err != nil {
		t.Fatal(err)
	}
	get, err := os.ReadFile(filepath.Join("testdata", "variants", "members-lists-city-get.xml"))
	if err != nil {
		t.Fatal(err)
	}
	answer := []learn.Sample{{Binding: "get", Op: asmx.OpReturnAtmSearchByCity, Query: "21", Status: 200, Body: get, Where: "members-lists-city-get.xml"}}
	for name, in := range map[string]learn.Input{"the WSDL": {WSDL: wsdl}, "an answer": {Samples: answer}} {
		sh, _, err := learn.Learn(in)
		var lists *learn.NotModelledError
		if !errors.As(err, &lists) || sh != nil {
			t.Errorf("from %s: got %v, want a NotModelledError and no shape", name, err)
			continue
		}
		want := "Hit: Hit/Tellers/Teller/Services, Hit: Hit/Tellers/Teller/Groups"
		if name == "an answer" {
			// Each ATM's answer holds one group: the list read is its
			// languages inside it.
			want = "Hit: Hit/Tellers/Teller/Services, Hit: Hit/Tellers/Teller/Groups/Group"
		}
		if got := strings.Join(lists.Lists, ", "); got != want {
			t.Errorf("from %s: the lists refused are %q, want %q", name, got, want)
		}
		if !strings.Contains(err.Error(), "the mock would leave them out") {
			t.Errorf("from %s: %v does not say why", name, err)
		}
	}
}

// TestLearnRefusesEnumInObjectMember: a member declared object holding an
// enum value ([XmlInclude(typeof(Region))] public object Zone, written
// <Zone xsi:type="Region">NS</Zone> as Mono writes it) is refused, naming
// the element and the type, from the WSDL and the answers or the answers
// alone: the mock would write it xsi:type="xsd:string", and in which
// namespace .NET writes such a type and whether its WSDL declares it are
// not modelled.
func TestLearnRefusesEnumInObjectMember(t *testing.T) {
	wsdl := strings.Replace(string(siteWSDL(t, "members")), `<s:complexType name="Perks">
        <s:sequence>
`, `<s:complexType name="Perks">
        <s:sequence>
          <s:element minOccurs="0" maxOccurs="1" name="Zone" />
`, 1)
	if !strings.Contains(wsdl, `name="Zone"`) {
		t.Fatal("the members WSDL declares no Perks")
	}
	var samples []learn.Sample
	zoned := 0
	for _, s := range siteSamples(t, "members") {
		body := string(s.Body)
		zoned += strings.Count(body, `<Perks xmlns="urn:atmref:teller">`)
		s.Body = []byte(strings.ReplaceAll(body, `<Perks xmlns="urn:atmref:teller">`, `<Perks xmlns="urn:atmref:teller"><Zone xsi:type="Region">NS</Zone>`))
		samples = append(samples, s)
	}
	if zoned == 0 {
		t.Fatal("no answer holds a Perks element")
	}
	for name, in := range map[string]learn.Input{"the WSDL and the answers": {WSDL: []byte(wsdl), Samples: samples}, "the answers": {Samples: samples}} {
		sh, _, err := learn.Learn(in)
		var nm *learn.NotModelledError
		if !errors.As(err, &nm) || sh != nil {
			t.Errorf("from %s: got %v, want a NotModelledError and no shape", name, err)
			continue
		}
		if got, want := strings.Join(nm.Derived, ", "), "Hit: Hit/Tellers/Teller/Perks/Zone, a member declared object, as xsi:type Region (a type of the deployment's own: an enum"; !strings.Contains(got, want) {
			t.Errorf("from %s: refused %q, want %q", name, got, want)
		}
	}
}

// TestLearnRefusesDerivedClasses: a typed result whose answers write an
// item as a class derived from its declared one (the members site given
// [XmlInclude(typeof(DriveUpTeller))], a Teller with a Lanes member, for
// the ATMs with a drive-through: <Teller xsi:type="DriveUpTeller" …>,
// captured from Mono) is refused, naming the element and the class: the
// mock wrote every item as a Teller, without xsi:type and Lanes. From
// the WSDL alone, which declares the class and no answer, it is learned,
// and the report notes the class.
func TestLearnRefusesDerivedClasses(t *testing.T) {
	wsdl, err := os.ReadFile(filepath.Join("testdata", "variants", "members-derived-wsdl.xml"))
	if err != nil {
		t.Fatal(err)
	}
	get, err := os.ReadFile(filepath.Join("testdata", "variants", "members-derived-city-get.xml"))
	if err != nil {
		t.Fatal(err)
	}
	answer := []learn.Sample{{Binding: "get", Op: asmx.OpReturnAtmSearchByCity, Query: "21", Status: 200, Body: get, Where: "members-derived-city-get.xml"}}
	for name, in := range map[string]learn.Input{"the WSDL and an answer": {WSDL: wsdl, Samples: answer}, "an answer": {Samples: answer}} {
		sh, _, err := learn.Learn(in)
		var nm *learn.NotModelledError
		if !errors.As(err, &nm) || sh != nil {
			t.Errorf("from %s: got %v, want a NotModelledError and no shape", name, err)
			continue
		}
		if got, want := strings.Join(nm.Derived, ", "), "Hit: Hit/Tellers/Teller as DriveUpTeller"; got != want || len(nm.Lists) > 0 {
			t.Errorf("from %s: refused %q and lists %q, want %q alone", name, got, nm.Lists, want)
		}
	}
	_, rep, err := learn.Learn(learn.Input{WSDL: wsdl})
	if err != nil {
		t.Fatalf("from the WSDL alone: %v", err)
	}
	if notes, want := strings.Join(rep.Notes, "\n"), "Hit: Hit/Tellers/Teller: the WSDL declares DriveUpTeller derived from its class (XmlInclude)"; !strings.Contains(notes, want) {
		t.Errorf("from the WSDL alone: the notes lack %q:\n%s", want, notes)
	}
}

// TestLearnEnumWithoutItsValues: an enum the WSDL does not declare as a
// restriction listing its values (a [Flags] enum's list of them, values
// twice, or a type it does not hold) stays a string, noted as declared
// s:string (docs/shapes.md, the decision); the members site's Region,
// declared so, keeps its values.
func TestLearnEnumWithoutItsValues(t *testing.T) {
	wsdl := string(siteWSDL(t, "members"))
	const restriction = "<s:restriction base=\"s:string\">"
	if strings.Count(wsdl, restriction) != 3 {
		t.Fatalf("the members WSDL declares its enums %d times, want 3 (Region twice, Tongue)", strings.Count(wsdl, restriction))
	}
	flags := strings.ReplaceAll(strings.ReplaceAll(wsdl, restriction, "<s:list><s:simpleType>"+restriction), "</s:restriction>", "</s:restriction></s:simpleType></s:list>")
	twice := strings.ReplaceAll(wsdl, `<s:enumeration value="QC" />`, `<s:enumeration value="NB" />`)
	missing := regexp.MustCompile(`(?s)<s:simpleType name="Region">.*?</s:simpleType>`).ReplaceAllString(wsdl, "")
	for name, w := range map[string]string{"a [Flags] enum": flags, "values twice": twice, "no simpleType": missing, "the site's": wsdl} {
		sh, rep, err := learn.Learn(learn.Input{WSDL: []byte(w)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		y := string(shape.Marshal(sh, ""))
		notes := strings.Join(rep.Notes, "\n")
		if name == "the site's" {
			if strings.Count(y, "enum: Region, enumValues: [NB, NS, PE, NL, QC, ON]") != 2 || !strings.Contains(y, "item: {element: Lang, type: string, enum: Tongue, enumValues: [en, fr]}") {
				t.Errorf("%s: want Region's values on both its fields, Tongue's on the languages' item:\n%s", name, y)
			}
			continue
		}
		if strings.Contains(y, "enum: Region") || !strings.Contains(notes, "Hit: Hit/Tellers/Teller/@region: the WSDL declares it of the deployment's own simple type Region (an enum); atmkit writes its values as text, and declares it s:string in its WSDL") {
			t.Errorf("%s: want no enum Region and a note saying s:string; got notes\n%s\nshape\n%s", name, notes, y)
		}
	}
}

// TestLearnGroupedLocations: the grouped site of the reference deployment
// (answers and WSDL captured from Mono in testdata/grouped) groups its
// searches' locations by institution, a typed ArrayOfBank whose Bank holds
// the institution's values and an array of its ATMs: learned as a
// locations list grouped by institution (group: institution), the bank's
// values mapped to the institution's (matched with the JSON answers'
// locations put in the groups' order), each ATM's to a location's, and
// the summary omits none of the institution's values.
func TestLearnGroupedLocations(t *testing.T) {
	sh, _, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "grouped"), Samples: siteSamples(t, "grouped")})
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	y := string(shape.Marshal(sh, ""))
	for _, w := range []string{
		"      - list: locations\n        group: institution\n        item:\n          element: Bank\n",
		"{attribute: id, type: int, value: institution.id}",
		"{element: Name, type: string, value: institution.name}",
		"{element: CreditUnion, type: boolean, value: institution.isAtlanticCreditUnion}",
		"            - element: Atms\n              list: locations\n              item:\n                element: Atm\n",
		"{element: AtmId, type: int, value: id}",
		"{element: Cirrus, type: boolean, value: creditCards.cirrus}",
	} {
		if !strings.Contains(y, w) {
			t.Errorf("the learned shape lacks %q:\n%s", w, y)
		}
	}
	if strings.Contains(y, "location institution.") {
		t.Errorf("the summary omits an institution value the groups hold:\n%s", y)
	}
}

// swapBanks returns body, a grouped site's answer, with its first two
// Bank elements swapped: the answer of a deployment ordering its groups
// otherwise.
func swapBanks(t *testing.T, body string) string {
	t.Helper()
	first := strings.Index(body, "<Bank ")
	second := strings.Index(body[first+1:], "<Bank ") + first + 1
	end := strings.Index(body[second:], "</Bank>") + second + len("</Bank>")
	if first < 0 || second <= first || end < second {
		t.Fatalf("two banks not found in %.300s", body)
	}
	between := strings.LastIndex(body[:second], "</Bank>") + len("</Bank>")
	return body[:first] + body[second:end] + body[between:second] + body[first:between] + body[end:]
}

// TestLearnGroupOrder: the grouped site's search by coordinates (Maritime
// Trust, 200, and its two ATMs before Harbour Bank, 100, and its one: the
// order of their first ATM) is learned with the order of groups its
// answer is in, each bank told apart by its values (its id, its name)
// matched with the JSON answer's institutions: as recorded, the default
// (no groupOrder); its banks swapped, by institution id (a guess: by name
// too); with one ATM of Maritime Trust left out of both answers, two
// banks of one ATM each, which the groups' sizes cannot tell apart, the
// same. A second answer to the same query in the recorded order beside
// the swapped one is refused, naming the answer and the orders.
func TestLearnGroupOrder(t *testing.T) {
	const oneEach = "one each"
	for _, c := range []struct {
		name       string
		swap       bool
		change     string // oneEach, or a binding of a second answer in the recorded order
		want       string // the grouped list as learned
		wantGuess  string
		wantRefuse string // in NotModelledError.GroupOrder instead
	}{
		{"as recorded", false, "", "      - list: locations\n        group: institution\n        item:\n", "", ""},
		{"swapped", true, "", "      - list: locations\n        group: institution\n        groupOrder: institution.id\n        item:\n",
			"ArrayOfBank/Bank: groupOrder institution.id (the groups of every answer are in that order, and in the order institution.name too", ""},
		{"swapped, one ATM each", true, oneEach, "      - list: locations\n        group: institution\n        groupOrder: institution.id\n        item:\n", "", ""},
		{"as recorded, one ATM each", false, oneEach, "      - list: locations\n        group: institution\n        item:\n", "", ""},
		{"swapped beside one in order", true, "post", "", "",
			"coords1-get.xml: groups of institutions 100 (Harbour Bank), 200 (Maritime Trust), in the order institution.id or institution.name, where the other answers' are in the order first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var samples []learn.Sample
			for _, s := range siteSamples(t, "grouped") {
				if !strings.HasPrefix(s.Where, "coords1-") {
					samples = append(samples, s)
					continue
				}
				body := string(s.Body)
				if c.change == oneEach {
					body = leaveOutATM(t, body, s.Binding, "5001")
				}
				if c.change != "" && c.change != oneEach && s.Binding == "get" {
					samples = append(samples, learn.Sample{Binding: c.change, Op: s.Op, Query: s.Query, Status: 200, Body: []byte(body), Where: "coords1-" + c.change + ".xml"})
				}
				if c.swap && s.Binding == "get" {
					body = swapBanks(t, body)
				}
				s.Body = []byte(body)
				samples = append(samples, s)
			}
			sh, rep, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "grouped"), Samples: samples})
			if c.wantRefuse != "" {
				var nm *learn.NotModelledError
				if !errors.As(err, &nm) || sh != nil {
					t.Fatalf("got %v, want a NotModelledError and no shape", err)
				}
				if got := strings.Join(nm.GroupOrder, "\n"); !strings.Contains(got, c.wantRefuse) {
					t.Errorf("GroupOrder %q, want %q", got, c.wantRefuse)
				}
				if !strings.Contains(err.Error(), "groups of locations in an order a shape does not model") {
					t.Errorf("the error does not say the order: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("learn: %v", err)
			}
			if y := string(shape.Marshal(sh, "")); !strings.Contains(y, c.want) || strings.Contains(y, "{element: Name, type: string, generated: true}") {
				t.Errorf("the learned shape lacks %q, or the bank's name unmapped:\n%s", c.want, y)
			}
			if got := strings.Join(rep.Guessed, "\n"); c.wantGuess != "" && !strings.Contains(got, c.wantGuess) {
				t.Errorf("the guesses %q lack %q", got, c.wantGuess)
			}
		})
	}
}

// leaveOutATM returns body, the grouped site's answer over binding (get or
// json) to its search by coordinates, without ATM id.
func leaveOutATM(t *testing.T, body, binding, id string) string {
	t.Helper()
	if binding == "json" {
		var doc map[string]any
		if err := json.Unmarshal([]byte(body), &doc); err != nil {
			t.Fatal(err)
		}
		locs := doc["locations"].([]any)
		doc["locations"] = slices.DeleteFunc(locs, func(l any) bool { return fmt.Sprint(l.(map[string]any)["id"]) == id })
		doc["count"] = len(doc["locations"].([]any))
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	at := strings.Index(body, "<AtmId>"+id+"</AtmId>")
	from := strings.LastIndex(body[:at], "<Atm>")
	to := at + strings.Index(body[at:], "</Atm>") + len("</Atm>")
	if at < 0 || from < 0 {
		t.Fatalf("ATM %s not found", id)
	}
	return body[:from] + strings.TrimLeft(body[to:], " \r\n")
}
