package conformance

import (
	"net/http"
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
		want := typedShape()
		for _, r := range want.Results {
			walk(r.Fields, func(f *shape.Field) {
				if f.Type == "boolean" {
					f.Format = shape.FormatOneZero
				}
			})
		}
		Expect(want.Validate()).To(Succeed())
		fails := failed(shapeOutcomes(shaped(typedShape()), want))
		Expect(fails).To(HaveKey("shape/soap12/ReturnInstitutions"))
		Expect(fails["shape/soap12/ReturnInstitutions"]).To(ContainSubstring(`IsAtlanticCreditUnion: "false", want 1 or 0`))
		Expect(fails).NotTo(HaveKey("shape/get/ReturnProvinces"))
	})

	It("are skipped, and left out of atmkit conform's runs, without a shape", func() {
		outs := checkAll(shaped(shape.Default()), Config{Key: mockKey}, "shape/soap11/ReturnProvinces")
		Expect(outs[0].Err).To(Equal(error(errNoShape)))
		Expect(withoutShape("")).To(Equal("!shape"))
		Expect(withoutShape("soap11 || get")).To(Equal("(soap11 || get) && !shape"))
		Expect(strings.Count(withoutShape("x"), "shape")).To(Equal(1))
	})
})

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
