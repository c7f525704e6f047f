package mockserver

import (
	"strings"
	"unicode/utf16"
)

// The order of the namespace declarations on the WSDL's
// <wsdl:definitions>, as .NET Framework's reference source writes them.
//
// ServiceDescription.Serializer (System.Web.Services,
// Description/ServiceDescription.cs) builds a static XmlSerializerNamespaces:
// "s" (XmlSchema.Namespace), then WebServicesSection.LoadXmlFormatExtensions
// (Configuration/WebServicesSection.cs) adds the XmlFormatExtensionPrefix
// prefixes of defaultFormatTypes in their order, each type's sorted: http
// (HttpBinding), mime (MimeContentBinding), tm (MimeTextBinding), soap and
// soapenc (SoapBinding), soap12 (Soap12Binding). ServiceDescription.Write
// copies it (new XmlSerializerNamespaces(namespaces): Hashtable.Clone) and
// adds "wsdl", "tns" and "s" + i for each of Types.Schemas[i] in another
// namespace than the service's. XmlSerializerNamespaces keeps them in a
// Hashtable keyed by prefix (System.Xml, Serialization/
// XmlSerializerNamespaces.cs), and XmlSerializationWriter.WriteStartElement
// (Serialization/XmlSerializationWriter.cs) writes xmlns:prefix for each
// key in the order the Hashtable enumerates them, but for a namespace the
// writer already has in scope: the element's own wsdl prefix, which
// XmlTextWriter declares after the targetNamespace attribute. The order is
// therefore that of mscorlib's Hashtable (collections/hashtable.cs: double
// hashing, 0.72 load factor, growing to HashHelpers.GetPrime(2 × size),
// Clone re-inserting from the last bucket down, enumeration from the last
// bucket to the first) over String.GetHashCode's non-randomized form
// (system/string.cs), which differs between 32-bit and 64-bit processes.

// netRuntime is what the order depends on.
type netRuntime struct {
	// clr2 is .NET 2.0–3.5's Hashtable (CLR 2's, which the reference
	// source does not hold; Rotor's hashtable.cs has its step): probe
	// step 1 + ((h >> 5) + 1) % (size − 1), at least 11 buckets. CLR 4's
	// step is 1 + (h × 101) % (size − 1) (HashPrime, in unsigned 32-bit
	// arithmetic), at least 3 buckets.
	clr2 bool
	// bits32 is a 32-bit process's String.GetHashCode (the WIN32 branch,
	// two chars at a time); a 64-bit one hashes a char at a time.
	bits32 bool
}

// wsdlRuntime is the runtime the mock's WSDL follows: .NET Framework 4,
// whose reference source the mock follows, in a 64-bit worker process, as
// for the order of xmlns:xsd and xmlns:xsi on a GET/POST root.
var wsdlRuntime = netRuntime{}

// stringHash is String.GetHashCode's non-randomized form.
func (r netRuntime) stringHash(s string) int32 {
	// The UTF-16 units, the terminating NUL and what the 32-bit form
	// reads past it.
	c := append(utf16.Encode([]rune(s)), 0, 0, 0)
	if r.bits32 {
		h1 := int32(5381<<16 + 5381)
		h2 := h1
		word := func(i int) int32 { return int32(uint32(c[i]) | uint32(c[i+1])<<16) }
		i, n := 0, len(c)-3
		for ; n > 2; i, n = i+4, n-4 {
			h1 = (h1<<5 + h1 + h1>>27) ^ word(i)
			h2 = (h2<<5 + h2 + h2>>27) ^ word(i+2)
		}
		if n > 0 {
			h1 = (h1<<5 + h1 + h1>>27) ^ word(i)
		}
		return h1 + h2*1566083941
	}
	h1, h2 := int32(5381), int32(5381)
	for i := 0; c[i] != 0; i += 2 {
		h1 = (h1<<5 + h1) ^ int32(c[i])
		if c[i+1] == 0 {
			break
		}
		h2 = (h2<<5 + h2) ^ int32(c[i+1])
	}
	return h1 + h2*1566083941
}

// netHashtable is a Hashtable of string keys: their order, no values.
type netHashtable struct {
	rt       netRuntime
	keys     []string // by bucket
	used     []bool   // whether a bucket holds a key ("" is one)
	hashes   []uint32
	count    int
	loadsize int
}

// loadFactor is Hashtable's 0.72f × the default load factor 1.0f.
const loadFactor = float32(0.72)

// newNetHashtable is new Hashtable(capacity).
func newNetHashtable(rt netRuntime, capacity int) *netHashtable {
	least := 3
	if rt.clr2 {
		least = 11
	}
	size := least
	if raw := float64(capacity) / float64(loadFactor); raw > float64(least) {
		size = netPrime(int(raw))
	}
	t := &netHashtable{rt: rt}
	t.resize(size)
	return t
}

// resize empties t into size buckets.
func (t *netHashtable) resize(size int) {
	t.keys, t.used, t.hashes = make([]string, size), make([]bool, size), make([]uint32, size)
	t.loadsize = int(loadFactor * float32(size))
}

// netPrime is HashHelpers.GetPrime: the least prime of its table at least
// least, past the table the least prime p ≥ least with (p − 1) % 101 ≠ 0.
func netPrime(least int) int {
	for _, p := range []int{3, 7, 11, 17, 23, 29, 37, 47, 59, 71, 89, 107, 131, 163, 197, 239, 293, 353, 431, 521, 631, 761, 919} {
		if p >= least {
			return p
		}
	}
	for p := least | 1; ; p += 2 {
		prime := (p-1)%101 != 0
		for d := 3; prime && d*d <= p; d += 2 {
			prime = p%d != 0
		}
		if prime {
			return p
		}
	}
}

// put places key with hash h in the first empty bucket of its probe
// sequence (Insert and putEntry; no key is ever removed here), unless it
// is there already.
func (t *netHashtable) put(key string, h uint32) bool {
	n := uint32(len(t.keys))
	step := 1 + (h*101)%(n-1)
	if t.rt.clr2 {
		step = 1 + ((h>>5)+1)%(n-1)
	}
	for b := h % n; ; b = (b + step) % n {
		switch {
		case !t.used[b]:
			t.keys[b], t.used[b], t.hashes[b] = key, true, h
			return true
		case t.keys[b] == key:
			return false
		}
	}
}

// add is Hashtable's indexer set: it grows the table first when it is
// full (expand: rehash into GetPrime(2 × size) buckets, from the first
// bucket up).
func (t *netHashtable) add(key string) {
	if t.count >= t.loadsize {
		old, oldUsed, oldHashes := t.keys, t.used, t.hashes
		t.resize(netPrime(2 * len(old)))
		for i, k := range old {
			if oldUsed[i] {
				t.put(k, oldHashes[i])
			}
		}
	}
	if t.put(key, uint32(t.rt.stringHash(key))&0x7FFFFFFF) {
		t.count++
	}
}

// order is the keys as the Hashtable enumerates them: from the last
// bucket to the first.
func (t *netHashtable) order() []string {
	var out []string
	for i := len(t.keys) - 1; i >= 0; i-- {
		if t.used[i] {
			out = append(out, t.keys[i])
		}
	}
	return out
}

// clone is Hashtable.Clone: a table for its count, filled from the last
// bucket down.
func (t *netHashtable) clone() *netHashtable {
	c := newNetHashtable(t.rt, t.count)
	for _, k := range t.order() {
		c.add(k)
	}
	return c
}

// prefixNS is a namespace declaration.
type prefixNS struct{ prefix, ns string }

// wsdlFixedPrefixes are the static namespaces of ServiceDescription's
// serializer, in the order they are added.
var wsdlFixedPrefixes = []prefixNS{
	{"s", "http://www.w3.org/2001/XMLSchema"},
	{"http", "http://schemas.xmlsoap.org/wsdl/http/"},
	{"mime", "http://schemas.xmlsoap.org/wsdl/mime/"},
	{"tm", "http://microsoft.com/wsdl/mime/textMatching/"},
	{"soap", "http://schemas.xmlsoap.org/wsdl/soap/"},
	{"soapenc", "http://schemas.xmlsoap.org/soap/encoding/"},
	{"soap12", "http://schemas.xmlsoap.org/wsdl/soap12/"},
}

// definitionsNamespaces is the namespace declarations runtime rt writes
// on the definitions element of service namespace ns whose other schemas'
// prefixes are others (s1, s2, … by their index in Types.Schemas), in
// order; xmlns:wsdl, written after targetNamespace, is not among them.
func definitionsNamespaces(rt netRuntime, ns string, others []prefixNS) []prefixNS {
	static := newNetHashtable(rt, 0)
	nsOf := map[string]string{}
	for _, p := range wsdlFixedPrefixes {
		static.add(p.prefix)
		nsOf[p.prefix] = p.ns
	}
	t := static.clone()
	t.add("wsdl")
	nsOf["wsdl"] = "http://schemas.xmlsoap.org/wsdl/"
	if ns != "" {
		t.add("tns")
		nsOf["tns"] = ns
	}
	for _, p := range others {
		t.add(p.prefix)
		nsOf[p.prefix] = p.ns
	}
	inScope := map[string]bool{nsOf["wsdl"]: true}
	var out []prefixNS
	for _, prefix := range t.order() {
		if uri := nsOf[prefix]; !inScope[uri] {
			inScope[uri] = true
			out = append(out, prefixNS{prefix, uri})
		}
	}
	return out
}

// definitionsDeclarations writes the mock's declarations on the
// definitions element before targetNamespace.
func definitionsDeclarations(ns string, others []prefixNS) string {
	var b strings.Builder
	for _, p := range definitionsNamespaces(wsdlRuntime, ns, others) {
		b.WriteString(" xmlns:" + p.prefix + `="` + xmlEscape(p.ns) + `"`)
	}
	return b.String()
}
