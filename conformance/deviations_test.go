package conformance

import (
	"net/http"

	"github.com/atmkit/atmkit/deviate"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// deviation is one of the ways deviate.Wrap (atmkit serve --deviate)
// breaks the interface, with what the suite must say about it.
type deviation struct {
	name string
	// catches are patterns (path.Match) of checks that must fail.
	catches []string
	// needsWSDL is true when the deviation rewrites the WSDL.
	needsWSDL bool
	// says is a phrase each caught failure's message must contain.
	says string
	// shape is a shape file: the mock serves it and the suite checks
	// against it (the shape specs), when the deviation breaks what only
	// a shape says.
	shape string
}

// withDeviation serves h with d applied by deviate.Wrap. The checks share no
// code with it or the mock; only the self-tests use them, to break a server.
func withDeviation(h http.Handler, d deviation) http.Handler {
	dh, err := deviate.Wrap(h, d.name)
	Expect(err).NotTo(HaveOccurred())
	return dh
}

// membersShape is the shape learned from the reference members site:
// members declared object (xsiType) and nillable ones.
const membersShape = "../shape/learn/testdata/members-learned.yaml"

// deviations returns every deviation and the checks that must catch it.
func deviations() []deviation {
	return []deviation{
		{name: "soap11-envelope-ns", catches: []string{"binding/soap11/*"}, says: "envelope"},
		{name: "soap12-envelope-ns", catches: []string{"binding/soap12/*"}, says: "envelope"},
		{name: "soap11-content-type", catches: []string{"binding/soap11/*"}, says: "content type"},
		{name: "soap12-content-type", catches: []string{"binding/soap12/*"}, says: "content type"},
		{name: "get-content-type", catches: []string{"binding/get/*"}, says: "content type"},
		{name: "post-content-type", catches: []string{"binding/post/*"}, says: "content type"},
		{name: "json-content-type", catches: []string{"json/*/shape"}, says: "content type"},
		{name: "renamed-response", catches: []string{"binding/soap1?/*"}, says: "Body"},
		{name: "renamed-result", catches: []string{"binding/soap1?/*"}, says: "Response"},
		{name: "wrong-service-namespace", catches: []string{"binding/soap1?/*"}, says: "Body"},
		{name: "get-with-envelope", catches: []string{"binding/get/*"}, says: "no SOAP envelope"},
		{name: "json-count-off", catches: []string{"json/*/shape"}, says: "count"},
		{name: "json-index-from-1", catches: []string{"json/*/shape"}, says: "index"},
		{name: "json-value-differs", catches: []string{"json/*/matches-xml"}, says: "atmIdentifier"},
		{name: "post-drops-a-location", catches: []string{"equivalence/ReturnAtmSearchBy[CI]*"}, says: "child elements"},
		{name: "soap12-reorders-locations", catches: []string{"equivalence/ReturnAtmSearchByCoordinates", "equivalence/ReturnAtmSearchByInstitution"}, says: "differ"},
		{name: "faults-with-status-200", catches: []string{"fault/soap11/*", "soapaction/*"}, says: "status"},
		{name: "soapaction-ignored", catches: []string{"soapaction/*"}, says: "status"},
		{name: "wsdl-parameters-out-of-order", needsWSDL: true, catches: []string{"wsdl/parameters/ReturnAtmSearchByAddress"}, says: "input sequence"},
		{name: "radius-ignored", catches: []string{"semantics/radius"}, says: "distance"},
		{name: "address-radius-ignored", catches: []string{"semantics/address-radius"}, says: "distance from the search point"},
		{name: "maximum-ignored", catches: []string{"semantics/maximum"}, says: "number of locations"},
		{name: "institution-ignored", catches: []string{"semantics/institution"}, says: "institution"},
		{name: "search-node-differs", catches: []string{"semantics/all-atms"}, says: "the same location node as ReturnAllAtms's of that id"},
		{name: "provinces-empty", catches: []string{"semantics/provinces"}, says: "the province of location"},
		{name: "any-key-accepted", catches: []string{"fault/*/wrong-key", "fault/*/empty-key"}, says: "status"},
		{name: "typed-get-root-no-namespace", catches: []string{"namespaces/Return*", "equivalence/*"}, says: "namespace"},
		{name: "typed-soap12-content-namespace", catches: []string{"namespaces/Return*", "equivalence/*"}, says: "namespace"},
		{name: "xsi-type-changed", shape: membersShape, catches: []string{"shape/*/ReturnAllAtms", "shape/*/ReturnAtmSearchBy*"}, says: `xsi:type "xsd:int"`},
		{name: "nil-dropped", shape: membersShape, catches: []string{"shape/*/ReturnAllAtms", "shape/*/ReturnAtmSearchByInstitution", "shape/*/ReturnAtmSearchByCity"}, says: "Centre expected, got"},
	}
}

var _ = Describe("the deviations", Label("selftest"), func() {
	It("cover every deviation the mock offers", func() {
		var want, got []string
		for _, d := range deviate.List() {
			want = append(want, d.Name)
		}
		for _, d := range deviations() {
			got = append(got, d.name)
		}
		Expect(got).To(ConsistOf(want))
	})
})
