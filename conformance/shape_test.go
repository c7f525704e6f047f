package conformance

import (
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// shaped serves the mock writing its results in sh (its self-test target),
// on the data set of the reference mock.
func shaped(sh *shape.Shape) http.Handler {
	h, err := newSelfTestMock(mockserver.WithShape(sh))
	Expect(err).NotTo(HaveOccurred())
	return h
}

func typedShape() *shape.Shape {
	sh, err := shape.Load("../shape/testdata/typed.yaml")
	Expect(err).NotTo(HaveOccurred())
	return sh
}

// shapeOutcomes runs only the shape specs.
func shapeOutcomes(h http.Handler, sh *shape.Shape) []Outcome {
	_, _, cityIDs := referenceMock()
	return checkAll(h, Config{Key: mockKey, Shape: sh, CityIDs: cityIDs}, "shape/*/*")
}

var _ = Describe("the shape specs", Label("selftest", "shape"), func() {
	It("pass a target whose results have the shape given", func() {
		outs := shapeOutcomes(shaped(shape.Default()), shape.Default())
		Expect(outs).To(HaveLen(len(Operations) * len(XMLBindings)))
		Expect(failed(outs)).To(BeEmpty())
		Expect(skipped(outs)).To(BeEmpty())
	})

	It("pass a typed target checked against its typed shape", func() {
		outs := shapeOutcomes(shaped(typedShape()), typedShape())
		Expect(failed(outs)).To(BeEmpty())
		Expect(skipped(outs)).To(BeEmpty())
	})

	It("fail every result of a target whose results have another shape, saying how they differ", func() {
		fails := failed(shapeOutcomes(shaped(shape.Default()), typedShape()))
		Expect(fails).To(HaveLen(len(Operations) * len(XMLBindings)))
		Expect(fails["shape/get/ReturnProvinces"]).To(ContainSubstring("ArrayOfProvince"))
		Expect(fails["shape/soap11/ReturnAllAtms"]).To(ContainSubstring("{http://tempuri.org/atmService}Count expected, got atmLocations"))
	})

	It("fail a detail: booleans written true/false where the shape says 1/0", func() {
		// A node's deployment writes its text as its code does (1/0
		// included); XmlSerializer writes a typed result's booleans
		// true/false only, so a typed shape cannot say 1/0.
		nodes := func() *shape.Shape {
			sh := typedShape()
			for _, r := range sh.Results {
				r.Layout = shape.Node
			}
			return sh
		}
		want := nodes()
		for _, r := range want.Results {
			walk(r.Fields, func(f *shape.Field) {
				if f.Type == "boolean" {
					f.Format = shape.FormatOneZero
				}
			})
		}
		Expect(want.Validate()).To(Succeed())
		fails := failed(shapeOutcomes(shaped(nodes()), want))
		Expect(fails).To(HaveKey("shape/soap12/ReturnInstitutions"))
		Expect(fails["shape/soap12/ReturnInstitutions"]).To(ContainSubstring(`IsAtlanticCreditUnion: "false", want 1 or 0`))
		Expect(fails).NotTo(HaveKey("shape/get/ReturnProvinces"))
	})

	DescribeTable("pass every spec on a target in the layouts ASMX writes, checked against its shape",
		func(path string, omits bool) {
			sh := loadShape(path)
			_, _, cityIDs := referenceMock()
			outs := checkAll(shaped(sh), Config{Key: mockKey, Shape: sh, CityIDs: cityIDs})
			bad := failed(outs)
			if omits {
				// A result that leaves out values of the JSON answers fails
				// only the specs that compare the two.
				for _, op := range []string{opByAddress, opByCoords} {
					Expect(bad).To(HaveKeyWithValue("json/"+op+"/matches-xml", ContainSubstring("among the XML node's values")))
					delete(bad, "json/"+op+"/matches-xml")
				}
			}
			Expect(bad).To(BeEmpty())
			Expect(skipped(outs)).To(BeEmpty())
		},
		Entry("DataSets (the reference DataSet site's)", "../shape/testdata/dataset.yaml", false),
		Entry("attribute-valued typed results (the reference attrs site's)", "../shape/testdata/attrs.yaml", false),
		Entry("flat DataSets", "../shape/learn/testdata/variants/dataset-flat.yaml", true),
		Entry("nested DataSets with auto-generated keys", "../shape/learn/testdata/variants/dataset-nested.yaml", true),
		Entry("typed results with namespaces and attributes on every level", "../shape/learn/testdata/variants/typed-variant.yaml", true),
		Entry("DataSets with text columns (simpleContent)", "../shape/learn/testdata/variants/dataset-simple-content.yaml", false),
		Entry("DataSets of several namespaces and self-nested tables (the reference spaces site's)", "../shape/learn/testdata/variants/dataset-spaces.yaml", false),
		Entry("typed results with null members: xsi:nil, strings left out (the reference members site's)", "../shape/learn/testdata/members-learned.yaml", false),
	)

	It("fail a null element (xsi:nil) the shape does not say is nillable, naming it", func() {
		sh := loadShape("../shape/learn/testdata/members-learned.yaml")
		want := loadShape("../shape/learn/testdata/members-learned.yaml")
		walk(want.Result(opAllAtms).Fields, func(f *shape.Field) { f.Nillable = false })
		fails := failed(shapeOutcomes(shaped(sh), want))
		Expect(fails).To(HaveKeyWithValue("shape/get/"+opAllAtms, ContainSubstring(`Hit/Centre: null (xsi:nil="true"), which the shape does not say it may be (nillable)`)))
		Expect(fails).To(HaveKeyWithValue("shape/soap11/"+opByCoords, ContainSubstring(`Landmark: null (xsi:nil="true")`)))
		Expect(fails).NotTo(HaveKey("shape/get/ReturnProvinces"))
	})

	It("fail a value the shape's enum does not hold, naming it and the enum", func() {
		// A .NET client throws on an enum value its proxy's enum lacks.
		// The mock serves the members site's shape (its enums left out:
		// the self-test data set has provinces the site's Region lacks);
		// the shape checked against gives the location's region an enum
		// of every province code, or of all but NS.
		sh := loadShape("../shape/learn/testdata/members-learned.yaml")
		withEnum := func(values []string) *shape.Shape {
			want := loadShape("../shape/learn/testdata/members-learned.yaml")
			walk(want.Result(opAllAtms).Fields, func(f *shape.Field) {
				if f.Attribute == "region" {
					f.Enum, f.EnumValues = "Region", values
				}
			})
			return want
		}
		all := []string{"AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"}
		Expect(failed(shapeOutcomes(shaped(sh), withEnum(all)))).To(BeEmpty())
		fails := failed(shapeOutcomes(shaped(sh), withEnum(slices.DeleteFunc(slices.Clone(all), func(v string) bool { return v == "NS" }))))
		Expect(fails).To(HaveKeyWithValue("shape/get/"+opAllAtms, ContainSubstring(`Teller/@region: "NS", which enum Region does not hold (AB, BC, MB, NB, NL, NT, NU, ON, PE, QC, SK, YT)`)))
		Expect(fails).To(HaveKey("shape/soap12/" + opByCoords))
		Expect(fails).NotTo(HaveKey("shape/get/ReturnProvinces"))
	})

	It("check a target whose results carry no city, skipping only the spec that needs one, saying why", func() {
		data, err := os.ReadFile("../shape/learn/testdata/reference-learned.yaml")
		Expect(err).NotTo(HaveOccurred())
		city := "                - {element: City, type: string, value: address.city}\n"
		Expect(string(data)).To(ContainSubstring(city))
		sh, err := shape.Parse([]byte(strings.Replace(string(data), city, "", 1)))
		Expect(err).NotTo(HaveOccurred())
		_, _, cityIDs := referenceMock()
		outs := checkAll(shaped(sh), Config{Key: mockKey, CityIDs: cityIDs})
		expectCityLeftOut(outs)
		for _, o := range outs {
			if o.Check.Name == "semantics/city" {
				Expect(o.Err).To(MatchError(ContainSubstring(`the target's XML location nodes hold no address.city: no leaf holds the JSON answers' value in every location (`)))
			}
		}
	})

	It("fail a DataSet whose schema or rows differ from the shape's, saying where", func() {
		sh, err := shape.Load("../shape/testdata/dataset.yaml")
		Expect(err).NotTo(HaveOccurred())
		want, err := shape.Load("../shape/testdata/dataset.yaml")
		Expect(err).NotTo(HaveOccurred())
		d := want.Result("ReturnAllAtms").DataSet
		d.TableNamed("Machine").ColumnNamed("Landmark").Name = "Hint"
		d.TableNamed("Tongue").ColumnNamed("Code").Type = "int"
		fails := failed(shapeOutcomes(shaped(sh), want))
		Expect(fails).To(HaveLen(6 * len(XMLBindings)))
		Expect(fails["shape/soap12/ReturnAtmSearchByCity"]).To(ContainSubstring("the DataSet's schema"))
		Expect(fails["shape/get/ReturnAllAtms"]).To(ContainSubstring("Hint element string"))

		// The same schema, rows of another table.
		want, err = shape.Load("../shape/testdata/dataset.yaml")
		Expect(err).NotTo(HaveOccurred())
		want.Result("ReturnInstitutions").DataSet.TableNamed("Bank").Changes = shape.ChangesInserted
		fails = failed(shapeOutcomes(shaped(sh), want))
		Expect(fails).To(HaveLen(len(XMLBindings)))
		Expect(fails["shape/soap11/ReturnInstitutions"]).To(ContainSubstring(`no diffgr:hasChanges="inserted"`))
	})

	It("fail an attribute the shape does not say, in its namespace", func() {
		sh, err := shape.Load("../shape/learn/testdata/variants/typed-variant.yaml")
		Expect(err).NotTo(HaveOccurred())
		want, err := shape.Load("../shape/learn/testdata/variants/typed-variant.yaml")
		Expect(err).NotTo(HaveOccurred())
		for _, f := range want.Result("ReturnAllAtms").Fields[2].Item.Fields {
			if f.Attribute == "code" {
				f.Namespace = "urn:example:other"
			}
		}
		fails := failed(shapeOutcomes(shaped(sh), want))
		Expect(fails["shape/soap11/ReturnAtmSearchByCoordinates"]).To(ContainSubstring("attribute d5p1:code is not in the shape"))
	})

	It("are skipped, and left out of atmkit conform's runs, without a shape", func() {
		outs := checkAll(shaped(shape.Default()), Config{Key: mockKey}, "shape/soap11/ReturnProvinces")
		Expect(outs[0].Err).To(Equal(error(errNoShape)))
		Expect(withoutShape("")).To(Equal("!shape"))
		Expect(withoutShape("soap11 || get")).To(Equal("(soap11 || get) && !shape"))
		Expect(strings.Count(withoutShape("x"), "shape")).To(Equal(1))
	})
})

// loadShape loads the shape file at path, its enums' values strings: the
// self-test data set holds provinces the members site's enum Region lacks
// (MB, SK, ...), a data set a mock serving the enum refuses
// (shape.CheckData), as a .NET client refuses such an answer.
func loadShape(path string) *shape.Shape {
	sh, err := shape.Load(path)
	Expect(err).NotTo(HaveOccurred())
	for _, r := range sh.Results {
		walk(r.Fields, func(f *shape.Field) { f.Enum, f.EnumValues = "", nil })
	}
	return sh
}

func walk(fields []*shape.Field, f func(*shape.Field)) {
	for _, x := range fields {
		f(x)
		walk(x.Fields, f)
		if x.Item != nil {
			f(x.Item)
			walk(x.Item.Fields, f)
		}
	}
}
