package conformance

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("a failure's text", Label("selftest"), func() {
	It("keeps an answer of several lines under its got: line, so that the next line is not read as the failure's own", func() {
		f := &Failure{What: "ReturnProvinces over get: status", Expected: "500", Got: "200 with <?xml version=\"1.0\"?>\\r\n<provinces>\\r\n  <province>NS</province>\\r\n</provinces>"}
		Expect(f.Error()).To(Equal("ReturnProvinces over get: status\n" +
			"  expected: 500\n" +
			"  got:      200 with <?xml version=\"1.0\"?>\\r\n" +
			"            <provinces>\\r\n" +
			"              <province>NS</province>\\r\n" +
			"            </provinces>"))
		for _, l := range strings.Split(f.Error(), "\n")[3:] {
			Expect(l).To(HavePrefix(strings.Repeat(" ", len("  got:      "))))
		}
	})
})
