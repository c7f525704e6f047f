package conformance

import (
	"errors"
	"net"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// leakKey is the recognisable key of these tests: searched for in every
// error text, escaped forms included.
const leakKey = "Leak-Key-1234"

// oddKey has characters that URL, XML and JSON encodings all change.
const oddKey = `Le&ak<Key>"1234'+/`

// expectNoKey fails when s holds key in any form maskKey masks.
func expectNoKey(s, key string) {
	GinkgoHelper()
	Expect(maskKey(s, key)).To(Equal(s), "the key appears in:\n%s", s)
	Expect(s).NotTo(ContainSubstring(key))
}

// listener is a raw TCP listener whose connections get what serve does
// to them; it counts connections, and closes them all when the test ends.
func listener(serve func(net.Conn)) (string, *atomic.Int32) {
	GinkgoHelper()
	u, n, stop, err := mocktest.Listen(serve)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	return u, n
}

// closingTarget accepts connections and closes them without a byte, as a
// drop fault does.
func closingTarget() string {
	u, _ := listener(func(c net.Conn) { _ = c.Close() })
	return u
}

// silentTarget accepts connections, reads the request and never answers;
// the connection closes when the test ends.
func silentTarget() (string, *atomic.Int32) {
	return listener(func(c net.Conn) {
		buf := make([]byte, 4096)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	})
}

// closedPort returns the address of a port nothing listens on.
func closedPort() string {
	GinkgoHelper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := ln.Addr().String()
	Expect(ln.Close()).To(Succeed())
	return "http://" + addr
}

var _ = Describe("the key mask", Label("selftest"), func() {
	DescribeTable("masks the key in every form it is written in, with a mask of fixed length",
		func(text, want string) {
			Expect(maskKey(text, oddKey)).To(Equal(want))
		},
		Entry("raw", "key "+oddKey+" refused", "key Le**** refused"),
		Entry("URL query", "strAtmServiceKey="+url.QueryEscape(oddKey)+"&x=1", "strAtmServiceKey=Le****&x=1"),
		Entry("URL path", "/k/"+url.PathEscape(oddKey)+"/", "/k/Le****/"),
		Entry("XML text", "<strAtmServiceKey>Le&amp;ak&lt;Key&gt;\"1234'+/</strAtmServiceKey>", "<strAtmServiceKey>Le****</strAtmServiceKey>"),
		Entry("HTML", "Le&amp;ak&lt;Key&gt;&#34;1234&#39;+/", "Le****"),
		Entry("JSON string", `{"k":"Le\u0026ak\u003cKey\u003e\"1234'+/"}`, `{"k":"Le****"}`),
	)

	It("has the same length whatever the key's", func() {
		Expect(maskKey("a k1 b", "k1")).To(Equal("a ****** b"))
		Expect(maskKey("a "+strings.Repeat("x", 64)+" b", strings.Repeat("x", 64))).To(Equal("a xx**** b"))
	})

	It("leaves words that only contain a short key alone", func() {
		Expect(maskKey("bk1x k1 k1x", "k1")).To(Equal("bk1x ****** k1x"))
		Expect(maskKey("anything", "")).To(Equal("anything"))
	})

	It("masks every strAtmServiceKey value of a URL, the other parameters kept", func() {
		Expect(maskURL("http://h/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=made-up&intCityID=3", leakKey)).
			To(Equal("http://h/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=******&intCityID=3"))
	})
})

var _ = Describe("errors of a failing transport", Label("selftest"), func() {
	It("name the cause and hold the key nowhere, not even in the unwrapped *url.Error", func() {
		for _, target := range []string{closingTarget(), closedPort()} {
			s, err := NewSession(Config{Target: target, Key: oddKey, Timeout: 5 * time.Second})
			Expect(err).NotTo(HaveOccurred())
			for _, b := range []Binding{SOAP11, HTTPGet, HTTPPost, JSON} {
				_, err := s.Do(Request{Binding: b, Op: opProvinces, Namespace: mockNS})
				var te *TransportError
				Expect(errors.As(err, &te)).To(BeTrue(), "%v", err)
				Expect(te.Kind).To(BeElementOf(TransportClosed, TransportRefused), "%#v", te.Err)
				expectNoKey(err.Error(), oddKey)
				expectNoKey(te.URL, oddKey)
				var ue *url.Error
				Expect(errors.As(err, &ue)).To(BeTrue())
				expectNoKey(ue.URL, oddKey)
				expectNoKey(ue.Error(), oddKey)
				if b == HTTPGet {
					Expect(ue.URL).To(ContainSubstring("strAtmServiceKey=Le****"))
					Expect(err.Error()).To(ContainSubstring(`strAtmServiceKey='"$ATMKIT_KEY"`))
				}
			}
		}
	})

	It("say a request had no answer within the timeout", func() {
		target, _ := silentTarget()
		s, err := NewSession(Config{Target: target, Key: leakKey, Timeout: 100 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		var te *TransportError
		Expect(errors.As(err, &te)).To(BeTrue())
		Expect(te.Kind).To(Equal(TransportTimeout))
		Expect(err).To(MatchError(ContainSubstring("no answer within 100ms")))
		expectNoKey(err.Error(), leakKey)
	})
})
