package mockserver

import (
	"bytes"
	"math"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// xmlWriter writes the answers of one operation in one XML binding, the
// shape encoder: the SOAP envelope (or the GET/POST document's XML
// declaration) around the result, which the program compiled from the
// shape writes (shape_compile.go). Each location item is cached whole per
// ATM without its index value (fragments.go), so writing a list is mostly
// copying.
type xmlWriter struct {
	d  *data
	rc *resultCode
	b  asmx.Binding
	ns string // the service namespace
	op string // the operation's name

	soapHead []byte // the SOAP envelope up to <OpResult>, written once
}

func newXMLWriter(d *data, rc *resultCode, b asmx.Binding, ns, op string) *xmlWriter {
	w := &xmlWriter{d: d, rc: rc, b: b, ns: ns, op: op}
	if b.IsSOAP() {
		w.soapHead = asmx.AppendSOAPResponseHead(nil, b, ns, op)
	}
	return w
}

// xmlLocationSize is the typical size of a location item.
const xmlLocationSize = 1200

// head appends the SOAP envelope's start up to <OpResult>, or the XML
// declaration, then the result up to its list's items.
func (w *xmlWriter) head(dst []byte, a answer) []byte {
	if w.b.IsSOAP() {
		dst = append(dst, w.soapHead...)
		if w.rc.rootAttrs {
			dst = dst[:len(dst)-1] // the result's attributes go in <OpResult>
		}
	} else {
		dst = asmx.AppendXMLDeclaration(dst)
	}
	return w.resultHead(dst, a)
}

// tail appends the result after its list's items, then the SOAP
// envelope's end from </OpResult> on, if any.
func (w *xmlWriter) tail(dst []byte, a answer) []byte {
	if w.rc.empty(a) {
		// <OpResult /> (or the GET/POST root) was closed by head.
		if w.b.IsSOAP() {
			dst = asmx.AppendSOAPResponseEnd(dst, w.op)
		}
		return dst
	}
	dst = w.resultTail(dst, a)
	if w.b.IsSOAP() {
		dst = asmx.AppendSOAPResponseTail(dst, w.op)
	}
	return dst
}

// resultHead appends the content of a result up to its list's items: its
// leading fields, and the list's start tag (or its empty tag when the list
// is empty).
func (w *xmlWriter) resultHead(dst []byte, a answer) []byte {
	ctx := valueCtx{count: a.n, point: a.point}
	dst, _ = run(dst, w.rc.head, &ctx, a.hasPoint, false)
	if w.rc.empty(a) && len(dst) > 0 && dst[len(dst)-1] == '>' {
		return append(dst[:len(dst)-1], " />"...)
	}
	if a.n == 0 {
		return append(dst, w.rc.list.empty...)
	}
	return append(dst, w.rc.list.open...)
}

// resultTail appends the content of a result after its list's items: the
// list's end tag (when it had items) and the fields after it.
func (w *xmlWriter) resultTail(dst []byte, a answer) []byte {
	if a.n > 0 {
		dst = append(dst, w.rc.list.close...)
	}
	ctx := valueCtx{count: a.n, point: a.point}
	dst, _ = run(dst, w.rc.tail, &ctx, a.hasPoint, false)
	return dst
}

// items appends the list's items from position from to to.
func (w *xmlWriter) items(dst []byte, a answer, from, to int) []byte {
	lc := w.rc.list
	switch a.kind {
	case institutionItems:
		for k := from; k < to; k++ {
			ctx := valueCtx{inst: &w.d.ds.Institutions[k], ord: k + 1}
			dst, _ = run(dst, lc.item, &ctx, false, false)
		}
		return dst
	case provinceItems:
		for k := from; k < to; k++ {
			ctx := valueCtx{prov: &w.d.ds.Provinces[k], ord: k + 1}
			dst, _ = run(dst, lc.item, &ctx, false, false)
		}
		return dst
	}
	plain := lc.index.fixed < 0 // an index written as a plain integer
	var batch [gatherBatch]*fragment
	for at := from; at < to; at += len(batch) {
		end := min(at+len(batch), to)
		w.d.frags.gather(batch[:end-at], lc.variant, a.atms[at:end])
		for k := at; k < end; k++ {
			f := batch[k-at]
			if f == nil {
				f = buildLocation(w.d, lc, a.atms[k])
			}
			if f.off < 0 {
				dst = append(dst, f.b...)
				continue
			}
			dst = append(dst, f.b[:f.off]...)
			if plain {
				dst = appendIndex(dst, k)
			} else {
				dst = lc.index.appendInt(dst, k)
			}
			dst = append(dst, f.b[f.off:]...)
		}
	}
	return dst
}

// itemsLength sums the location items and their index values (with the
// point and decimals of a fixed format).
func (w *xmlWriter) itemsLength(a answer) int {
	lc := w.rc.list
	n := 0
	if lc.hasIndex {
		n += digitsUpTo(a.n)
		if lc.index.fixed > 0 {
			n += a.n * (lc.index.fixed + 1) // the point and the decimals
		}
	}
	for _, i := range a.atms {
		f := w.d.frags.length(lc.variant, i)
		if f == 0 {
			f = len(buildLocation(w.d, lc, i).b)
		}
		n += f
	}
	return n
}

func (w *xmlWriter) itemSize() int { return xmlLocationSize }

// buildLocation writes the location item of the ATM at position i without
// its index, and caches it while the cache's budget lasts.
func buildLocation(d *data, lc *listCode, i int32) *fragment {
	a := &d.ds.ATMs[i]
	ctx := valueCtx{atm: a, inst: d.institution(a.InstitutionID), ord: int(i) + 1}
	b, off := run(make([]byte, 0, xmlLocationSize), lc.item, &ctx, false, true)
	if !lc.hasIndex {
		off = -1
	}
	return d.frags.put(lc.variant, i, b, off)
}

// run appends what a program writes for ctx; hasPoint says whether the
// result has a search point. When index is true, an index value is not
// written: its offset in what run appended is returned instead (-1 if
// there is none).
func run(dst []byte, ops []op, ctx *valueCtx, hasPoint bool, index bool) ([]byte, int) {
	start, at := len(dst), -1
	for i := 0; i < len(ops); i++ {
		o := &ops[i]
		switch o.kind {
		case opBytes:
			dst = append(dst, o.b...)
		case opIfPoint:
			if !hasPoint {
				dst = append(dst, o.b...)
				i += o.skip
			}
		case opAttrOmit:
			mark := len(dst)
			dst = append(dst, o.b...)
			from := len(dst)
			if dst, _ = o.leaf.appendAttrValue(dst, ctx); bytes.Equal(dst[from:], o.omit) {
				dst = dst[:mark]
			} else {
				dst = append(dst, o.close...)
			}
		case opAttr:
			if index && o.leaf.id == vIndex {
				at = len(dst) - start
				continue
			}
			dst, _ = o.leaf.appendAttrValue(dst, ctx)
		case opLeaf:
			if index && o.leaf.id == vIndex {
				dst = append(dst, o.b...)
				at = len(dst) - start
				dst = append(dst, o.close...)
				continue
			}
			mark := len(dst)
			dst = append(dst, o.b...)
			from := len(dst)
			var empty bool
			dst, empty = o.leaf.appendValue(dst, ctx)
			switch {
			case o.omits && bytes.Equal(dst[from:], o.omit):
				dst = dst[:mark] // a DefaultValue, an OmitWhen: left out
			case empty:
				dst = append(dst[:mark], o.empty...)
			default:
				dst = append(dst, o.close...)
			}
		case opList:
			dst = runLanguages(dst, o.list, ctx)
		case opOpenEnd:
			if o.cond.holds(ctx.count, hasPoint) {
				dst = append(dst, " />"...)
			} else {
				dst = append(dst, '>')
			}
		case opEndTag:
			if !o.cond.holds(ctx.count, hasPoint) {
				dst = append(dst, o.b...)
			}
		}
	}
	return dst, at
}

// runLanguages appends a location's language list.
func runLanguages(dst []byte, lc *listCode, ctx *valueCtx) []byte {
	langs := ctx.atm.Languages
	if len(langs) == 0 {
		return append(dst, lc.empty...)
	}
	dst = append(dst, lc.open...)
	item := ctx.lang
	for _, l := range langs {
		ctx.lang = l
		dst, _ = run(dst, lc.item, ctx, false, false)
	}
	ctx.lang = item
	return append(dst, lc.close...)
}

// value returns the value of l in ctx: an integer, a number or a string.
func (l *leaf) value(ctx *valueCtx) (n int, f float64, s string) {
	a, in, p := ctx.atm, ctx.inst, ctx.prov
	switch l.id {
	case vCount:
		n = ctx.count
	case vPointLat:
		f = ctx.point.Latitude
	case vPointLon:
		f = ctx.point.Longitude
	case vID:
		n = a.ID
	case vATMIdentifier:
		s = a.ATMIdentifier
	case vInstID:
		n = in.ID
	case vInstName:
		s = in.Name
	case vInstURL:
		s = in.URL
	case vInstACU:
		n = in.IsAtlanticCreditUnion
	case vLat:
		f = a.Coordinates.Latitude
	case vLon:
		f = a.Coordinates.Longitude
	case vStreet:
		s = a.Address.StreetAddress
	case vCity:
		s = a.Address.City
	case vProvince:
		s = a.Address.Province
	case vPostal:
		s = a.Address.PostalCode
	case vLandmark:
		s = a.Address.Landmark
	case vDeposits:
		n = a.Features.Deposits
	case vHours:
		n = a.Features.Hours
	case vDriveThru:
		n = a.Features.DriveThru
	case vPinChange:
		n = a.Features.PinChange
	case vVoiceGuidance:
		n = a.Features.VoiceGuidance
	case vVisa:
		n = a.CreditCards.Visa
	case vPlus:
		n = a.CreditCards.Plus
	case vMastercard:
		n = a.CreditCards.Mastercard
	case vCirrus:
		n = a.CreditCards.Cirrus
	case vLanguage:
		s = ctx.lang
	case vProvCode:
		s = p.Code
	case vProvName:
		s = p.Name
	case vGenerated:
		s = shape.GeneratedValue(l.typ, l.name, ctx.ord)
		if l.enum != "" {
			s = l.enum
		}
		if l.maxLen > 0 {
			s = shape.CutLength(s, l.maxLen)
		}
	}
	return n, f, s
}

// appendInt appends an integer value as l's type and format write it.
func (l *leaf) appendInt(dst []byte, n int) []byte {
	switch {
	case l.kind == shape.KindFlag && l.typ == "boolean":
		if !l.words {
			return strconv.AppendInt(dst, int64(n), 10)
		}
		if n != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case l.fixed >= 0:
		return appendFixed(dst, float64(n), l.fixed, 64)
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

// appendFloat appends a number as l's format writes it: fixed decimals, or
// as XmlConvert writes the service's value (a double: 15 significant
// digits, else 17, 1E-05 beyond the plain range; a float: 7, else 9; a
// decimal made from the double: 15, plain).
func (l *leaf) appendFloat(dst []byte, f float64) []byte {
	if l.bits == 32 && !math.IsInf(f, 0) && math.IsInf(float64(float32(f)), 0) {
		f = float64(float32(f)) // past a float's range (a searched point of 1e39): the service's (float) cast makes it INF
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return asmx.AppendXMLDouble(dst, f) // a searched point may be INF or NaN, as ASMX reads them
	}
	if l.fixed >= 0 {
		return appendFixed(dst, f, l.fixed, l.bits)
	}
	switch {
	case l.bits == 32:
		return asmx.AppendXMLFloat(dst, float32(f))
	case l.typ == "decimal":
		return asmx.AppendDecimalOfDouble(dst, f)
	}
	return asmx.AppendXMLDouble(dst, f)
}

// appendValue appends l's value in ctx as element text, as .NET writes it
// (asmx.AppendText). empty reports an empty string (written as an empty
// element).
func (l *leaf) appendValue(dst []byte, ctx *valueCtx) (out []byte, empty bool) {
	return l.appendEscaped(dst, ctx, asmx.AppendText)
}

// appendAttrValue is appendValue for an attribute's value (asmx.AppendAttr:
// a line feed is written &#xA;, as XmlTextWriter writes it in an
// attribute; a raw one would be read back as a space).
func (l *leaf) appendAttrValue(dst []byte, ctx *valueCtx) (out []byte, empty bool) {
	return l.appendEscaped(dst, ctx, asmx.AppendAttr)
}

// appendEscaped appends l's value in ctx, a string escaped by escape.
func (l *leaf) appendEscaped(dst []byte, ctx *valueCtx, escape func([]byte, string) []byte) (out []byte, empty bool) {
	n, f, s := l.value(ctx)
	switch l.kind {
	case shape.KindInt, shape.KindFlag:
		return l.appendInt(dst, n), false
	case shape.KindDouble:
		return l.appendFloat(dst, f), false
	}
	if s == "" {
		return dst, true
	}
	return escape(dst, s), false
}
