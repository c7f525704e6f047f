package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// The learn-then-serve workflow for the two layouts beside the typed one:
// a deployment answering DataSets (the reference deployment's dataset
// site) and one answering typed results with values in attributes on every
// level (the attrs site), and the legacy site's mix (XmlElement nodes with
// values in attributes and text, a DataSet with a nested table of rows
// atmkit has no data for); and the sites of the layout variations
// (refdeploy.Variants): typed levels each in a namespace of its own
// (layered), hand-built nodes in a namespace of their own and an XmlNode
// (nodes), DataSets with a prefix, tables nested two deep, attribute,
// hidden and SimpleContent columns (sets), tables and a column in
// namespaces other than their DataSet's and a table nested in itself whose
// rows nest, after another table (spaces). Per site: record every operation
// in every binding and the WSDL with atmkit record; learn the shape with
// atmkit shape learn (the WSDL alone is refused for DataSets, naming each
// operation to record), with nothing omitted and no notes (nothing it
// could not model); serve generated data with atmkit serve --shape; every
// answer of the mock, in the four XML bindings, has the structure of the
// deployment's answer to the same operation (every element and attribute
// by namespace and name, a DataSet's schema whole; rows nested in their
// own table left out of the deployment's, which the mock does not nest),
// and, for a node result, the deployment's prefixes and namespace
// declarations (its start tags, values aside),
// and its WSDL the deployment's types; atmkit conform --shape passes the deployment and the
// mock; and (but for the XmlElement results of the legacy and nodes
// sites) a .NET client whose proxy Mono's wsdl tool generated from the
// deployment's WSDL reads the mock's data in full: for DataSets every
// table, column and relation, as many rows as the mock's data set holds
// for the query, the rows of nested tables through their relations, the
// tables in the order it reads them from the deployment.
func TestLayoutsLearnedServedRead(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	refdeploy.RequireClient(t)
	// A generated data set, served by the mocks of both sites.
	data := filepath.Join(t.TempDir(), "data")
	if code, out, errOut := runAtmkit(nil, "fixtures", "generate", "--seed", "7", "--atms", "400", "--out", data); code != 0 {
		t.Fatalf("fixtures generate: exit %d\n%s\n%s", code, out, errOut)
	}
	ds, err := fixtures.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range append([]refdeploy.Site{refdeploy.DataSets, refdeploy.Attrs, refdeploy.Legacy}, refdeploy.Variants...) {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			learnServeRead(t, d, site, data, ds)
		})
	}
}

func learnServeRead(t *testing.T, d *refdeploy.Deployment, site refdeploy.Site, data string, ds *fixtures.Dataset) {
	dir := t.TempDir()
	base, ns := d.SiteURL(site.Name), site.Namespace

	// 1. Record every operation in every binding, and the WSDL.
	cassette := filepath.Join(dir, "rec")
	proxy, stopRecording := startCommand(t, "record", "--upstream", base, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
	deployment := refdeploy.Collect(t, proxy, ns, site.Key, siteCalls(site))
	refdeploy.WSDL(t, proxy)
	stopRecording()

	// 2. Learn: from the WSDL alone (DataSets: refused), from the WSDL and
	// the recording, and from the recording alone (its recorded WSDL).
	wsdlURL := base + asmx.ServicePath
	alone := filepath.Join(dir, "wsdl-alone.yaml")
	code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", wsdlURL, "--out", alone)
	_, statErr := os.Stat(alone)
	switch {
	case (site == refdeploy.Sets || site == refdeploy.Spaces) && (code != 1 || statErr == nil || !strings.Contains(errOut, "ReturnAllAtms, ReturnAtmSearchByAddress")):
		t.Errorf("shape learn --wsdl alone: exit %d, file written: %v, stderr %q; want exit 1, no file, the operations to record named", code, statErr == nil, errOut)
	case (site == refdeploy.Layered || site == refdeploy.Nodes) && code != 0:
		t.Errorf("shape learn --wsdl alone: exit %d\n%s\n%s", code, out, errOut)
	case site == refdeploy.DataSets && (code != 1 || statErr == nil || !strings.Contains(errOut, "ReturnAllAtms, ReturnAtmSearchByAddress") ||
		!strings.Contains(errOut, "ReturnInstitutions and ReturnProvinces return DataSets")):
		t.Errorf("shape learn --wsdl alone: exit %d, file written: %v, stderr %q; want exit 1, no file, the operations to record named", code, statErr == nil, errOut)
	case site == refdeploy.Legacy && (code != 1 || statErr == nil || !strings.Contains(errOut, "ReturnInstitutions")):
		t.Errorf("shape learn --wsdl alone: exit %d, file written: %v, stderr %q; want exit 1, no file, ReturnInstitutions named", code, statErr == nil, errOut)
	case site == refdeploy.Attrs && code != 0:
		t.Errorf("shape learn --wsdl alone: exit %d\n%s\n%s", code, out, errOut)
	}
	learned := filepath.Join(dir, "learned.yaml")
	if code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", wsdlURL, "--cassette", cassette+".yaml", "--out", learned); code != 0 {
		t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
	} else if strings.Contains(out, "Omitted") || strings.Contains(out, "Notes") {
		t.Errorf("shape learn reports omissions the site does not make, or notes:\n%s", out)
	}
	sh := learnsSameFromCassetteAlone(t, learned, cassette+".yaml", filepath.Join(dir, "cassette.yaml"))

	// 3. Serve generated data in the learned shape.
	const key = "mock-key"
	mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", ns, "--fixtures", data, "--key", key)

	// 4. Every answer has the deployment's structure, in every XML binding.
	queries := mockQueries(ds)
	pairs := map[string]bool{}
	for _, a := range deployment {
		if a.Binding == "json" {
			continue
		}
		want, err := mocktest.Structure(withoutSelfNestedRows(t, sh.Result(a.Call.Op), a.Body))
		if err != nil {
			t.Fatalf("%s over %s: the deployment's answer: %v", a.Call, a.Binding, err)
		}
		status, body := mocktest.Call(t, mock, ns, a.Binding, a.Call.Op, append([][2]string{{asmx.ParamKey, key}}, queries[a.Call.Op]...))
		if status != 200 {
			t.Fatalf("%s over %s: the mock: %d %.300s", a.Call.Op, a.Binding, status, body)
		}
		got, err := mocktest.Structure(body)
		if err != nil {
			t.Fatalf("%s over %s: the mock's answer: %v", a.Call.Op, a.Binding, err)
		}
		if got != want {
			t.Errorf("%s over %s: the mock's answer has another structure than the deployment's:\n%s\nwant\n%s", a.Call.Op, a.Binding, got, want)
		}
		// A node's elements and attributes have the deployment's
		// prefixes, declared on the same elements (the nodes site's
		// <n:provinces xmlns:n="…">, <geo:point geo:lat="…" xmlns:geo="…" />).
		if sh.Layout(a.Call.Op) == shape.Node {
			if got, want := mocktest.StartTags(body), mocktest.StartTags(a.Body); got != want {
				t.Errorf("%s over %s: the mock's start tags are not the deployment's:\n%s\nwant\n%s", a.Call.Op, a.Binding, got, want)
			}
		}
		pairs[a.Call.Op+" "+a.Binding] = true
	}
	if len(pairs) != 32 {
		t.Errorf("compared %d operation-binding pairs, want 32", len(pairs))
	}
	gotTypes, err := mocktest.WSDLTypes(refdeploy.WSDL(t, mock))
	if err != nil {
		t.Fatal(err)
	}
	wantTypes, err := mocktest.WSDLTypes(refdeploy.WSDL(t, base))
	if err != nil {
		t.Fatal(err)
	}
	if gotTypes != wantTypes {
		t.Errorf("the mock's WSDL types:\n%s\nwant the deployment's:\n%s", gotTypes, wantTypes)
	}

	// 5. conform --shape passes the deployment and the mock.
	for _, target := range []struct{ url, key string }{{base, site.Key}, {mock, key}} {
		if code, out := runConformProcess(t, "--target", target.url, "--key", target.key, "--shape", learned, "--no-color"); code != 0 {
			t.Errorf("conform --shape against %s: exit %d\n%s", target.url, code, tail(out, 3000))
		}
	}

	// 6. A .NET client, its proxy generated from the deployment's WSDL,
	// reads the mock's answers in full (not the legacy site's: its proxy
	// returns XmlElement nodes).
	if site == refdeploy.Legacy || site == refdeploy.Nodes {
		return
	}
	exe := refdeploy.BuildClient(t, wsdlURL+"?WSDL", "testdata/dotnet/Client.cs")
	calls, want := mockCalls(t, mock, ns, key, ds)
	for _, w := range want {
		if list, ok := w.([]any); ok {
			for _, x := range list {
				delete(x.(map[string]any), "provinceId") // the typed site's own: generated here
			}
		}
	}
	// The tables in the order the client reads them from the deployment's
	// answers, by operation: the mock's must be read in the same order
	// (the schema's, which lists tables nested in themselves first).
	var ownCalls []string
	seen := map[string]bool{}
	for _, c := range siteCalls(site) {
		if !seen[c.Op] {
			seen[c.Op] = true
			ownCalls = append(ownCalls, clientLine(c.Op, site.Key, c.Params))
		}
	}
	// A DataSet whose rows the client finds none of in the deployment's
	// answer (though it holds some) it must read no rows of from the
	// mock's either: the spaces site's Areas, whose table is in no
	// namespace and nested in itself, which .NET's schema writer declares
	// in the DataSet's namespace, so that a reader of the schema looks for
	// rows in it and finds none.
	order, unread := map[string][]string{}, map[string]bool{}
	for _, g := range runClient(t, exe, base+asmx.ServicePath, "soap11", ownCalls) {
		if e, ok := g["error"]; ok {
			t.Fatalf("the client against the deployment failed: %v", e)
		}
		op := g["op"].(string)
		order[op] = tableOrder(g["result"])
		if r := sh.Result(op); r.Layout == shape.Dataset && contentRows(r, g["result"]) == 0 {
			unread[op] = true
		}
	}
	if site == refdeploy.Spaces && !unread[asmx.OpReturnProvinces] {
		t.Errorf("the client read the rows of the deployment's Areas DataSet: want none (its table declared in another namespace than its rows')")
	}
	readInBothSOAPs(t, exe, mock, calls, func(call string, i int, op string, result any) {
		if tables := tableOrder(result); !slices.Equal(tables, order[op]) {
			t.Errorf("%s: the client read the tables %v, from the deployment %v", call, tables, order[op])
		}
		if unread[op] {
			if n := contentRows(sh.Result(op), result); n != 0 {
				t.Errorf("%s: the client read %d rows, from the deployment none", call, n)
			}
			return
		}
		read, err := readThrough(sh.Result(op), result)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			return
		}
		if !reflect.DeepEqual(read, want[i]) {
			t.Errorf("%s: the client read\n%v\nwant\n%v", call, read, want[i])
		}
	})
}

// withoutSelfNestedRows is body without the rows nested in a row of their
// own table, when r is a DataSet with a table nested in itself: atmkit's
// data has no hierarchy of items, so the mock writes every row at the
// DataSet's level (docs/shapes.md, DataSets), and its answers have the
// structure of the deployment's without them.
func withoutSelfNestedRows(t *testing.T, r *shape.Result, body []byte) []byte {
	t.Helper()
	if r == nil || r.DataSet == nil {
		return body
	}
	var self []string
	for _, tb := range r.DataSet.Tables {
		if r.DataSet.SelfNested(tb) != nil {
			self = append(self, tb.Name)
		}
	}
	if len(self) == 0 {
		return body
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(body); err != nil {
		t.Fatalf("the deployment's answer: %v", err)
	}
	var drop func(e *etree.Element)
	drop = func(e *etree.Element) {
		for _, k := range e.ChildElements() {
			if slices.Contains(self, k.Tag) && k.Tag == e.Tag && k.NamespaceURI() == e.NamespaceURI() {
				e.RemoveChild(k)
				continue
			}
			drop(k)
		}
	}
	drop(doc.Root())
	out, err := doc.WriteToBytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// siteCalls are the calls that find locations in a site's data: the typed
// site's (refdeploy.Calls), but for the legacy site, which has data of its
// own.
func siteCalls(site refdeploy.Site) []refdeploy.Call {
	if site != refdeploy.Legacy {
		return refdeploy.Calls
	}
	return refdeploy.LegacyCalls
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// mockQueries are the mock's calls standing for each operation: values of
// its data set that find several locations.
func mockQueries(ds *fixtures.Dataset) map[string][][2]string {
	a := ds.ATMs[len(ds.ATMs)/2]
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	address := [][2]string{{asmx.ParamAddress, a.Address.StreetAddress}, {asmx.ParamCity, a.Address.City}, {asmx.ParamProvince, a.Address.Province},
		{asmx.ParamPostalCode, ""}, {asmx.ParamRadius, "20"}}
	return map[string][][2]string{
		asmx.OpReturnAtmSearchByAddress: address,
		asmx.OpReturnAtmSearchByCoordinates: {{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, f(a.Coordinates.Latitude)},
			{asmx.ParamLongitude, f(a.Coordinates.Longitude)}, {asmx.ParamRadius, "20"}},
		asmx.OpReturnAtmSearchByAddressWithMaximum: append(slices.Clone(address), [2]string{asmx.ParamMaximumAtms, "3"}),
		asmx.OpReturnAtmSearchByInstitution:        {{asmx.ParamInstitutionID, strconv.Itoa(a.InstitutionID)}},
		asmx.OpReturnAtmSearchByCity:               {{asmx.ParamCityID, strconv.Itoa(a.CityID)}},
	}
}

// readThrough converts what the .NET client read through a proxy of the
// deployment's own types (printed by testdata/dotnet/Client.cs) into the
// document's JSON form, following the shape r: each value of atmkit's
// model where the shape says the deployment writes it. A DataSet's tables,
// columns and relations must be the shape's.
func readThrough(r *shape.Result, v any) (any, error) {
	v = normalizeJSON(v)
	if r.Layout == shape.Dataset {
		return readDataSet(r, v)
	}
	content := r.Content()
	top := map[string]any{}
	var items []any
	var walk func(fields []*shape.Field, obj any, into map[string]any)
	walk = func(fields []*shape.Field, obj any, into map[string]any) {
		m, _ := obj.(map[string]any)
		for _, f := range fields {
			switch {
			case f.Group != "":
				// Each group's values are its locations' institution's.
				list, _ := obj.([]any)
				if m != nil {
					list, _ = m[f.Item.Element].([]any)
				}
				for _, x := range list {
					readGroup(f.Item, x, walk, &items)
				}
			case f.List != "":
				name := f.Element
				if name == "" {
					name = f.Item.Element
				}
				var list []any
				if m == nil {
					list, _ = obj.([]any) // an array result is the list itself
				} else {
					list, _ = m[name].([]any)
				}
				if f.List == "languages" {
					langs := []any{}
					for _, x := range list {
						if o, ok := x.(map[string]any); ok {
							x = o["Value"] // an item of a class holding only its text (XmlText)
						}
						langs = append(langs, x)
					}
					into["languages"] = langs
					continue
				}
				for _, x := range list {
					item := map[string]any{}
					walk(f.Item.Fields, x, item)
					items = append(items, item)
				}
			case len(f.Fields) > 0:
				if m != nil && m[f.Name()] != nil {
					walk(f.Fields, m[f.Name()], into)
				}
			case f.Value != "" && f.Text && m != nil:
				setValue(into, f.Value, m["Value"]) // wsdl names an XmlText member Value
			case f.Value != "" && m != nil:
				setValue(into, f.Value, m[f.Name()])
			}
		}
	}
	walk(r.Fields, v, top)
	return documentOf(content, top, items), nil
}

// readGroup reads the locations of the group x (an item of the grouped
// list whose item is it) through walk, each holding the group's values,
// onto items.
func readGroup(it *shape.Field, x any, walk func([]*shape.Field, any, map[string]any), items *[]any) {
	gm, _ := x.(map[string]any)
	own := slices.DeleteFunc(slices.Clone(it.Fields), func(k *shape.Field) bool { return k.List == string(shape.Locations) })
	for _, lf := range it.Fields {
		if lf.List != string(shape.Locations) {
			continue
		}
		name := lf.Element
		if name == "" {
			name = lf.Item.Element
		}
		locs, _ := gm[name].([]any)
		for _, y := range locs {
			item := map[string]any{}
			walk(own, x, item)
			walk(lf.Item.Fields, y, item)
			*items = append(*items, item)
		}
	}
}

// readDataSet converts what the client read of a DataSet.
func readDataSet(r *shape.Result, v any) (any, error) {
	d := r.DataSet
	m, _ := v.(map[string]any)
	tables, _ := m["tables"].([]any)
	encodeNames(d, tables, m["relations"])
	if len(tables) != len(d.Tables) {
		return nil, fmt.Errorf("the client read %d tables, the shape's DataSet has %d", len(tables), len(d.Tables))
	}
	byName := map[string]map[string]any{}
	netTypes := map[string]string{"int": "Int32", "string": "String", "double": "Double", "boolean": "Boolean", "short": "Int16",
		"unsignedByte": "Byte", "long": "Int64", "dateTime": "DateTime"}
	for _, x := range tables {
		tm := x.(map[string]any)
		byName[fmt.Sprint(tm["name"])] = tm
	}
	for _, t := range d.Tables {
		tm := byName[t.Name]
		if tm == nil {
			return nil, fmt.Errorf("the client read no table %s", t.Name)
		}
		cols, _ := tm["columns"].([]any)
		if len(cols) != len(t.Columns) {
			return nil, fmt.Errorf("table %s: %d columns, want %d", t.Name, len(cols), len(t.Columns))
		}
		for k, c := range t.Columns {
			cm := cols[k].(map[string]any)
			mapping := map[string]string{shape.MappingElement: "Element", shape.MappingAttribute: "Attribute", shape.MappingHidden: "Hidden", shape.MappingSimpleContent: "SimpleContent"}[c.MappingOf()]
			if cm["name"] != c.Name || cm["mapping"] != mapping || netTypes[c.Type] != "" && cm["type"] != netTypes[c.Type] {
				return nil, fmt.Errorf("table %s: column %d is %v, want %s %s %s", t.Name, k, cm, c.Name, mapping, netTypes[c.Type])
			}
			want := -1 // DataColumn.MaxLength's default: none
			if c.MaxLength > 0 {
				want = c.MaxLength
			}
			if fmt.Sprint(cm["maxLength"]) != strconv.Itoa(want) {
				return nil, fmt.Errorf("table %s: column %s has MaxLength %v, want the shape's %d (-1: none)", t.Name, c.Name, cm["maxLength"], c.MaxLength)
			}
		}
	}
	rels, _ := m["relations"].([]any)
	if len(rels) != len(d.Relations) {
		return nil, fmt.Errorf("the client read %d relations, want %d", len(rels), len(d.Relations))
	}
	for i, rel := range d.Relations {
		rm := rels[i].(map[string]any)
		if rm["name"] != rel.Name || rm["parent"] != rel.Parent || rm["child"] != rel.Child || rm["nested"] != map[bool]string{true: "1", false: "0"}[rel.Nested] {
			return nil, fmt.Errorf("relation %d is %v, want %+v", i, rm, rel)
		}
	}
	rowsOf := func(t *shape.Table) []any { rs, _ := byName[t.Name]["rows"].([]any); return rs }
	content := r.Content()
	ct := d.ContentTable()
	top := map[string]any{}
	var items []any
	for _, t := range d.Tables {
		if t.Rows == shape.RowsOne && d.ParentOf(t) == nil && len(rowsOf(t)) == 1 {
			values := rowsOf(t)[0].(map[string]any)["values"].(map[string]any)
			for _, c := range t.Columns {
				if c.Value != "" {
					setValue(top, c.Value, values[c.Name])
				}
			}
		}
	}
	// A table of groups (rows: groups): each location's institution
	// values are its group's, the row whose children it is.
	groupOf := map[int]map[string]any{}
	if gt := d.GroupTable(); gt != nil {
		rel := d.ParentOf(ct)
		for _, row := range rowsOf(gt) {
			gm := row.(map[string]any)
			kids, _ := gm["children"].(map[string]any)
			idx, _ := kids[rel.Name].([]any)
			for _, i := range idx {
				n, _ := strconv.Atoi(fmt.Sprint(i))
				groupOf[n] = gm["values"].(map[string]any)
			}
		}
	}
	for k, row := range rowsOf(ct) {
		rm := row.(map[string]any)
		item := map[string]any{}
		if gv := groupOf[k]; gv != nil {
			for _, c := range d.GroupTable().Columns {
				if c.Value != "" {
					setValue(item, c.Value, gv[c.Name])
				}
			}
		}
		values := rm["values"].(map[string]any)
		for _, c := range ct.Columns {
			if c.Value != "" {
				setValue(item, c.Value, values[c.Name])
			}
		}
		// The rows of its child tables, through the relations, and
		// theirs (a table of one row per location nested in another).
		var children func(table string, rm map[string]any)
		children = func(table string, rm map[string]any) {
			kids, _ := rm["children"].(map[string]any)
			for _, rel := range d.Relations {
				if rel.Parent != table {
					continue
				}
				child := d.TableNamed(rel.Child)
				idx, _ := kids[rel.Name].([]any)
				langs := []any{}
				for _, i := range idx {
					n, _ := strconv.Atoi(fmt.Sprint(i))
					crow := rowsOf(child)[n].(map[string]any)
					cv := crow["values"].(map[string]any)
					for _, c := range child.Columns {
						switch {
						case child.Rows == "languages" && c.Value == "language":
							langs = append(langs, cv[c.Name])
						case child.Rows == shape.RowsOne && c.Value != "": // one row per location: its values are the location's
							setValue(item, c.Value, cv[c.Name])
						}
					}
					if child.Rows == shape.RowsOne {
						children(child.Name, crow)
					}
				}
				if child.Rows == "languages" {
					item["languages"] = langs
				}
			}
		}
		children(ct.Name, rm)
		items = append(items, item)
	}
	return documentOf(content, top, items), nil
}

// contentRows is the number of rows the client read of the content table
// of r, a DataSet result.
func contentRows(r *shape.Result, v any) int {
	m, _ := v.(map[string]any)
	tables, _ := m["tables"].([]any)
	for _, x := range tables {
		tm, _ := x.(map[string]any)
		if ct := r.DataSet.ContentTable(); ct != nil && tm["name"] == ct.Name {
			rows, _ := tm["rows"].([]any)
			return len(rows)
		}
	}
	return 0
}

// tableOrder is the names of the tables the client read of a DataSet, in
// their order (nil for other results).
func tableOrder(v any) []string {
	m, _ := v.(map[string]any)
	tables, _ := m["tables"].([]any)
	var names []string
	for _, x := range tables {
		tm, _ := x.(map[string]any)
		names = append(names, fmt.Sprint(tm["name"]))
	}
	return names
}

// setValue sets the model value at path in m (nested maps for dotted
// paths); a string the client read as null is the empty string.
func setValue(m map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	if v == nil {
		v = ""
	}
	m[parts[len(parts)-1]] = v
}

// documentOf assembles the document's JSON form of a result read: a
// locations result, or the institutions or provinces list.
func documentOf(content shape.Content, top map[string]any, items []any) any {
	if content != shape.Locations {
		if items == nil {
			items = []any{}
		}
		return items
	}
	doc := map[string]any{"count": top["count"], "coordinates": nil, "locations": items}
	if c, ok := top["coordinates"].(map[string]any); ok && c["latitude"] != "" {
		doc["coordinates"] = c
	}
	if items == nil {
		doc["locations"] = []any(nil)
	}
	return doc
}
