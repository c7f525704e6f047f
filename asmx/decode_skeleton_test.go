package asmx

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// skeletonTemplate is a coordinate search as a WSDL-generated .NET client
// writes it, its parameters' text left to fill (%s) and the postal code as
// an empty element.
const skeletonTemplate = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <ReturnAtmSearchByCoordinates xmlns="` + ns + `">
      <strAtmServiceKey>%s</strAtmServiceKey>
      <strPostalCode />
      <dblLatitude>%s</dblLatitude>
      <dblLongitude>%s</dblLongitude>
      <bytRadius>%s</bytRadius>
    </ReturnAtmSearchByCoordinates>
  </soap:Body>
</soap:Envelope>`

// bySkeleton reads r by the skeletons kept, as decodeSOAPFast does before
// the usual reader; ok is false when none matches or the text is refused.
func bySkeleton(r SOAPRequest) (*Call, bool) {
	s := &fastScanner{in: r.Body}
	s.r = soapReader{ns: r.Namespace, ct: r.ContentType, op: routedOp(r), param: -1, deferSet: true}
	return s.fromSkeleton(routedOp(r))
}

// learn has the usual reader read r, so that its skeleton is kept.
func learn(t testing.TB, r SOAPRequest) {
	t.Helper()
	if _, ok := decodeUsual(r.Namespace, r.ContentType, routedOp(r), r.Body); !ok {
		t.Fatalf("the usual reader does not read %q", r.Body)
	}
}

func TestSkeletonReadsWhatTheUsualReaderReads(t *testing.T) {
	learn(t, soap11(OpReturnAtmSearchByCoordinates, fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25")))
	for _, tc := range []struct {
		name  string
		body  string
		taken bool // read by the skeleton
	}{
		{"other values", fmt.Sprintf(skeletonTemplate, "other-key", "46.1368", "-60.1942", "5"), true},
		{"an empty key", fmt.Sprintf(skeletonTemplate, "", "0", "0", "0"), true},
		{"empty numbers (encoding/xml's error)", fmt.Sprintf(skeletonTemplate, "k", "", "", ""), false},
		{"spaced values", fmt.Sprintf(skeletonTemplate, " k ", "\t44.6\n", " -63.5", "25 "), true},
		{"a value out of range (encoding/xml's error)", fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "300"), false},
		{"a number that is not one", fmt.Sprintf(skeletonTemplate, "k", "x", "-63.5", "25"), false},
		{"an entity", fmt.Sprintf(skeletonTemplate, "a&amp;b", "44.6", "-63.5", "25"), false},
		{"an element in a value", fmt.Sprintf(skeletonTemplate, "<b/>k", "44.6", "-63.5", "25"), false},
		{"a CDATA end", fmt.Sprintf(skeletonTemplate, "]]>", "44.6", "-63.5", "25"), false},
		{"a non-ASCII key", fmt.Sprintf(skeletonTemplate, "clé", "44.6", "-63.5", "25"), false},
		{"a carriage return", fmt.Sprintf(skeletonTemplate, "k\r", "44.6", "-63.5", "25"), false},
		{"the postal code given", strings.Replace(fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25"), "<strPostalCode />", "<strPostalCode>B3J</strPostalCode>", 1), false},
		{"trailing white space", fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25") + "\n", false},
		{"cut short", fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25")[:500], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := soap11(OpReturnAtmSearchByCoordinates, tc.body)
			c, ok := bySkeleton(r)
			if ok != tc.taken {
				t.Fatalf("read by the skeleton: %v, want %v", ok, tc.taken)
			}
			std, e := decodeSOAP(r, false)
			if ok && (e != nil || !sameCall(c, std)) {
				t.Fatalf("skeleton: %+v\nencoding/xml: %+v, %v", c, std, e)
			}
			// Whatever reads it, DecodeSOAPRequest answers as encoding/xml.
			got, ge := DecodeSOAPRequest(r)
			if (ge == nil) != (e == nil) || ge == nil && !sameCall(got, std) || ge != nil && ge.Message != e.Message {
				t.Fatalf("DecodeSOAPRequest: %+v, %v\nencoding/xml: %+v, %v", got, ge, std, e)
			}
		})
	}
}

func TestSkeletonKeepsWhatTheReadingDependedOn(t *testing.T) {
	body := fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25")
	learn(t, soap11(OpReturnAtmSearchByCoordinates, body))

	// Another service namespace: the operation's element is in none the
	// service knows.
	other := with(soap11(OpReturnAtmSearchByCoordinates, body), func(r *SOAPRequest) {
		r.Namespace = "urn:other"
		r.Action = `"urn:other/` + OpReturnAtmSearchByCoordinates + `"`
	})
	if _, ok := bySkeleton(other); ok {
		t.Error("a skeleton read a request of another service namespace")
	}
	// A SOAP 1.1 envelope sent as application/soap+xml is a 415, never the
	// usual reader's.
	if _, ok := bySkeleton(with(soap12(body), func(r *SOAPRequest) {})); ok {
		t.Error("a skeleton read a SOAP 1.1 envelope sent as application/soap+xml")
	}
	// Routed to another operation by the action: not this skeleton's.
	if _, ok := bySkeleton(soap11(OpReturnAtmSearchByAddress, body)); ok {
		t.Error("a skeleton read a request routed to another operation")
	}
	// A skeleton holds no parameter's text.
	for _, k := range *skeletonSets[opIndex(operations[2])].Load() {
		for _, f := range k.fixed {
			if strings.Contains(string(f), ">k<") {
				t.Errorf("a skeleton keeps the key: %q", f)
			}
		}
	}
}

func TestSkeletonsOfManyClients(t *testing.T) {
	// More client styles than an operation keeps, from many goroutines:
	// every request reads as encoding/xml reads it.
	styles := []string{
		skeletonTemplate,
		strings.ReplaceAll(skeletonTemplate, "\n", ""),
		strings.ReplaceAll(skeletonTemplate, "  ", "\t"),
		strings.Replace(skeletonTemplate, `<?xml version="1.0" encoding="utf-8"?>`, "", 1),
		strings.ReplaceAll(skeletonTemplate, "soap:", "s:"),
		strings.ReplaceAll(strings.ReplaceAll(skeletonTemplate, "soap:", "S:"), "xmlns:soap", "xmlns:S"),
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				style := styles[(g+i)%len(styles)]
				r := soap11(OpReturnAtmSearchByCoordinates, fmt.Sprintf(style, fmt.Sprint("k", i), fmt.Sprint(i%90), "-63.5", fmt.Sprint(i%256)))
				got, e := DecodeSOAPRequest(r)
				std, se := decodeSOAP(r, false)
				if (e == nil) != (se == nil) || e == nil && !sameCall(got, std) {
					t.Errorf("style %d, call %d: %+v, %v; encoding/xml: %+v, %v", (g+i)%len(styles), i, got, e, std, se)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := len(*skeletonSets[opIndex(operations[2])].Load()); n > skeletonsPerOp {
		t.Errorf("an operation keeps %d skeletons, want at most %d", n, skeletonsPerOp)
	}
}

// FuzzDecodeSOAPSkeleton fills a learned skeleton's slots with any text:
// whenever the skeleton reads the request, encoding/xml reads the same.
func FuzzDecodeSOAPSkeleton(f *testing.F) {
	f.Add("k", "44.6", "-63.5", "25")
	f.Add("", " 1e3 ", "NaN", "0")
	f.Add("a]]>b", "-0", "INF", "255")
	f.Add("x<y", "1.", ".5", "+7")
	f.Fuzz(func(t *testing.T, key, lat, lon, radius string) {
		learn(t, soap11(OpReturnAtmSearchByCoordinates, fmt.Sprintf(skeletonTemplate, "k", "44.6", "-63.5", "25")))
		r := soap11(OpReturnAtmSearchByCoordinates, fmt.Sprintf(skeletonTemplate, key, lat, lon, radius))
		c, ok := bySkeleton(r)
		if !ok {
			return
		}
		std, e := decodeSOAP(r, false)
		if e != nil {
			t.Fatalf("the skeleton read a request encoding/xml refuses (%s): %q", e.Message, r.Body)
		}
		if !sameCall(c, std) {
			t.Fatalf("skeleton: %+v\nencoding/xml: %+v\nfor %q", c, std, r.Body)
		}
	})
}
