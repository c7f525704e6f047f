package conformance

import (
	"net/http"
	"path"

	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// mirrorOf checks h as a run does, the preflight and then the checks
// matching pattern, and returns the serveMirror of what they read.
func mirrorOf(h http.Handler, cfg Config, pattern string) *serveMirror {
	GinkgoHelper()
	cfg.Target = serve(h)
	if cfg.Key == "" {
		cfg.Key = mockKey
	}
	s, err := NewSession(cfg)
	Expect(err).NotTo(HaveOccurred())
	p, err := s.Preflight()
	Expect(err).NotTo(HaveOccurred())
	runMatching(s, pattern)
	return s.mirror(p)
}

var _ = Describe("the Mirror it: line", Label("selftest"), func() {
	DescribeTable("names the atmkit serve flags whose value the run found and the mock's default is not",
		func(opts []mockserver.Option, line string, ns, enc, jsonErrors string) {
			mock, err := newSelfTestMock(opts...)
			Expect(err).NotTo(HaveOccurred())
			m := mirrorOf(mock, Config{}, "fault/json/*")
			Expect(m.Namespace).To(Equal(ns))
			Expect(m.RequestEncoding).To(Equal(enc))
			Expect(m.JSONErrors).To(Equal(jsonErrors))
			Expect(m.Line(ShellPOSIX)).To(Equal(line))
		},
		Entry("a namespace, requestEncoding and AJAX errors of its own",
			[]mockserver.Option{mockserver.WithNamespace(altNS), mockserver.WithRequestEncoding("iso-8859-1"), mockserver.WithJSONErrors("ajax")},
			"Mirror it: atmkit serve --namespace http://atm.example.org/atmService --request-encoding iso-8859-1 --json-errors ajax",
			altNS, "iso-8859-1", "ajax"),
		Entry("windows-1252 alone", []mockserver.Option{mockserver.WithRequestEncoding("windows-1252")},
			"Mirror it: atmkit serve --request-encoding windows-1252", mockNS, "windows-1252", "asmx"),
		Entry("the mock's defaults", nil,
			"Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it)", mockNS, "utf-8", "asmx"),
		Entry("a namespace given to conform, which SOAP answers in", []mockserver.Option{mockserver.WithNamespace(altNS)},
			"Mirror it: atmkit serve --namespace http://atm.example.org/atmService", altNS, "utf-8", "asmx"),
	)

	It("names the WSDL's service when it is not the mock's default, from the WSDL the run read", func() {
		mock, err := newSelfTestMock(mockserver.WithServiceName("AtmLocator"), mockserver.WithRequestEncoding("iso-8859-1"))
		Expect(err).NotTo(HaveOccurred())
		m := mirrorOf(mock, Config{}, "wsdl/*")
		Expect(m.ServiceName).To(Equal("AtmLocator"))
		Expect(m.Line(ShellPOSIX)).To(Equal("Mirror it: atmkit serve --service-name AtmLocator --request-encoding iso-8859-1"))

		mock, err = newSelfTestMock()
		Expect(err).NotTo(HaveOccurred())
		m = mirrorOf(mock, Config{}, "wsdl/*")
		Expect(m.ServiceName).To(Equal(MockServiceName))
		Expect(m.Flags()).To(BeEmpty())
	})

	It("leaves out a service name no atmkit serve --service-name takes, saying why", func() {
		m := &serveMirror{ServiceName: "Atm Service"}
		Expect(m.Line(ShellPOSIX)).To(Equal(`Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it); its service name "Atm Service" is no XML name, which --service-name needs`))
	})

	It("leaves --json-errors out when no spec read an error of the JSON path", func() {
		mock, err := newSelfTestMock(mockserver.WithJSONErrors("ajax"))
		Expect(err).NotTo(HaveOccurred())
		m := mirrorOf(mock, Config{}, "wsdl/*")
		Expect(m.JSONErrors).To(BeEmpty())
		Expect(m.Line(ShellPOSIX)).To(Equal("Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it)"))
	})

	It("tells results in the built-in shape from others, from the results the specs read", func() {
		m := mirrorOf(shaped(shape.Default()), Config{}, "semantics/*")
		Expect(m.ShapeSeen).To(BeNumerically(">", 0))
		Expect(m.ShapeDiff).To(BeEmpty())
		Expect(m.ShapeHint(ShellPOSIX, "http://h/service/service.asmx")).To(BeEmpty())

		m = mirrorOf(shaped(typedShape()), Config{}, "semantics/*")
		Expect(m.ShapeDiff).To(ContainSubstring("over get: root: expected"))
		Expect(m.ShapeHint(ShellPOSIX, "http://h/service/service.asmx")).To(ContainSubstring(
			"): learn theirs with atmkit shape learn --wsdl http://h/service/service.asmx --out shape.yaml (add --cassette with a recording by atmkit record"))
		Expect(m.Line(ShellPOSIX)).To(HaveSuffix("but for the results' shape, below)"))
	})

	It("says shape learn once when the run compared no result", func() {
		m := &serveMirror{}
		Expect(m.ShapeHint(ShellCmd, "http://h/service/service.asmx")).To(HavePrefix(
			"Results: this run read none to compare with the mock's built-in shape; if the deployment's differ, atmkit shape learn --wsdl http://h/service/service.asmx --out shape.yaml learns them"))
	})

	DescribeTable("writes the values for the user's shell, as the reproduce lines",
		func(sh Shell, want string) {
			m := &serveMirror{Namespace: "urn:example:atm&co", RequestEncoding: "iso-8859-1"}
			Expect(m.Line(sh)).To(Equal(want))
		},
		Entry("a POSIX shell", ShellPOSIX, "Mirror it: atmkit serve --namespace 'urn:example:atm&co' --request-encoding iso-8859-1"),
		Entry("cmd.exe", ShellCmd, `Mirror it: atmkit serve --namespace "urn:example:atm&co" --request-encoding iso-8859-1`),
		Entry("PowerShell", ShellPowerShell, "Mirror it: atmkit serve --namespace 'urn:example:atm&co' --request-encoding iso-8859-1"),
	)

	It("leaves out a namespace no atmkit serve --namespace takes, saying why", func() {
		m := &serveMirror{Namespace: "atmService"}
		Expect(m.Line(ShellPOSIX)).To(Equal(`Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it); its namespace "atmService" is no absolute URI, which --namespace needs`))
	})
})

// runMatching runs on s the checks whose names match pattern (at least
// one).
func runMatching(s *Session, pattern string) {
	var cs []Check
	for _, c := range Checks() {
		if ok, _ := path.Match(pattern, c.Name); ok {
			cs = append(cs, c)
		}
	}
	Expect(cs).NotTo(BeEmpty())
	RunChecks(s, cs)
}
