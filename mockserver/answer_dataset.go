package mockserver

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// dsWriter writes the answers of one operation whose result is a DataSet
// in one XML binding (dataset_compile.go): the SOAP envelope, or the XML
// declaration, around the schema and the diffgram. Its items are the
// content table's rows; the tables before it are written in the head,
// those after it in the tail, so each part sees the whole answer.
type dsWriter struct {
	d      *data
	code   *dsCode
	b      asmx.Binding
	ns, op string
}

// dsHole is a number in a cached location row that depends on the row's
// place in the answer: mul times the row's own number (its item's
// position), or, for a table of languages, the number of language rows
// before the item's, plus add.
type dsHole struct {
	off      int
	langs    bool
	mul, add int64
	leaf     *leaf
}

// dsState is where a DataSet's rows are being written: the number of the
// current row of each table, and the next number of each table.
type dsState struct {
	rows, next []int64
	hasPoint   bool
	// template: write a location row to be cached, with holes for the
	// numbers that depend on its place (relative to the row's, recorded
	// in holes; offsets from start).
	template bool
	holes    []dsHole
	start    int
}

// dsCursor carries the language rows written before an item from one
// call of items to the next (the answer's items are written in order, in
// batches): the next item's position and the language rows before it.
type dsCursor struct {
	to    int
	langs int64
	// groups is the number of groups before the next item (a DataSet of
	// locations nested in their groups' rows).
	groups int64
}

// init makes st the state of writing a, from its first rows.
func (st *dsState) init(w *dsWriter, a answer) {
	n := len(w.code.tables)
	st.rows, st.next = make([]int64, n), make([]int64, n)
	st.hasPoint = a.hasPoint
}

// empty reports whether every table of a's DataSet is empty: the
// diffgram holds nothing then.
func (w *dsWriter) empty(a answer) bool { return a.n == 0 && w.code.result == 0 }

func (w *dsWriter) head(dst []byte, a answer) []byte {
	if w.b.IsSOAP() {
		dst = asmx.AppendSOAPResponseHead(dst, w.b, w.ns, w.op)
	} else {
		dst = asmx.AppendXMLDeclaration(dst)
	}
	if a.sc != nil {
		a.sc.ds = dsCursor{}
	}
	dst = append(dst, w.code.start...)
	if w.empty(a) {
		return append(dst, w.code.empty...)
	}
	dst = append(dst, w.code.open...)
	var st dsState
	st.init(w, a)
	for _, dt := range w.code.top {
		if dt == w.code.anchor {
			break
		}
		dst = w.topRows(dst, a, dt, &st)
	}
	return dst
}

func (w *dsWriter) tail(dst []byte, a answer) []byte {
	if !w.empty(a) {
		var st dsState
		st.init(w, a)
		after := false
		for _, dt := range w.code.top {
			if after {
				dst = w.topRows(dst, a, dt, &st)
			}
			after = after || dt == w.code.anchor
		}
		dst = append(dst, w.code.end...)
		dst = append(dst, w.code.rest...)
	}
	if w.b.IsSOAP() {
		dst = asmx.AppendSOAPResponseTail(dst, w.op)
	}
	return dst
}

// itemCtx is the values of the answer's item k.
func (w *dsWriter) itemCtx(a answer, k int) valueCtx {
	switch a.kind {
	case institutionItems:
		return valueCtx{inst: &w.d.ds.Institutions[k], ord: k + 1}
	case provinceItems:
		return valueCtx{prov: &w.d.ds.Provinces[k], ord: k + 1}
	}
	i := w.inOrder(a)[k]
	atm := &w.d.ds.ATMs[i]
	return valueCtx{atm: atm, inst: w.d.institution(atm.InstitutionID), ord: int(i) + 1}
}

// topRows appends the rows of a table written at the DataSet's level
// (other than the content table): one row of the result's own values, or
// the rows belonging to each item.
func (w *dsWriter) topRows(dst []byte, a answer, dt *dsTable, st *dsState) []byte {
	switch {
	case dt.t.Rows == shape.RowsNone:
	case dt.groups:
		dst = w.groupRows(dst, a, dt, st)
	case dt.perItem:
		for k := 0; k < a.n; k++ {
			ctx := w.itemCtx(a, k)
			w.setItem(st, dt, int64(k))
			if dt.langs {
				for _, l := range ctx.atm.Languages {
					ctx.lang = l
					st.rows[dt.index] = st.next[dt.index]
					st.next[dt.index]++
					dst = w.row(dst, dt, &ctx, st)
				}
				continue
			}
			dst = w.row(dst, dt, &ctx, st)
		}
	case dt.t.Rows == "one":
		ctx := valueCtx{count: a.n, point: a.point}
		st.rows[dt.index] = 0
		dst = w.row(dst, dt, &ctx, st)
	}
	return dst
}

// setItem sets the row numbers of the tables whose rows are item k's, up
// from dt to the content table (a table of one row per item is numbered
// as its item).
func (w *dsWriter) setItem(st *dsState, dt *dsTable, k int64) {
	for p := dt; p != nil; p = p.parent {
		if !p.langs {
			st.rows[p.index] = k
		}
		if p == w.code.content {
			break
		}
	}
}

// row appends one row of dt, its nested rows included.
func (w *dsWriter) row(dst []byte, dt *dsTable, ctx *valueCtx, st *dsState) []byte {
	return w.rowOps(dst, dt, dt.row, ctx, st)
}

// rowOps appends what ops, a row program of dt or a part of it, write.
func (w *dsWriter) rowOps(dst []byte, dt *dsTable, ops []dsOp, ctx *valueCtx, st *dsState) []byte {
	open, decl := -1, 0 // the row's start tag's '>', and its declaration's length before it
	for i := range ops {
		o := &ops[i]
		switch o.kind {
		case dsBytes:
			dst = append(dst, o.b...)
		case dsElement, dsAttr:
			if o.point && !st.hasPoint {
				continue
			}
			mark := len(dst)
			dst = append(dst, o.b...)
			var empty bool
			if o.kind == dsAttr {
				dst, empty = o.leaf.appendAttrValue(dst, ctx)
			} else {
				dst, empty = o.leaf.appendValue(dst, ctx)
			}
			switch {
			case empty && o.omitEmpty:
				dst = dst[:mark]
			case empty:
				dst = append(dst[:mark], o.empty...)
			default:
				if o.kind == dsElement {
					dst = preserveSpace(dst, mark+len(o.b), o.decl)
				}
				dst = append(dst, o.close...)
			}
		case dsText:
			if o.point && !st.hasPoint || open < 0 {
				continue
			}
			mark := len(dst)
			var empty bool
			dst, empty = o.leaf.appendValue(dst, ctx)
			switch {
			case empty && o.omitEmpty:
				// DBNull: nil, the row element empty.
				dst = slices.Insert(dst, open-decl, w.code.nilAttr...)
				open += len(w.code.nilAttr)
			case !empty && mark == open+1:
				dst = preserveSpace(dst, mark, decl)
			}
		case dsNumber:
			v := o.mul*st.rows[o.table] + o.add
			if st.template {
				st.holes = append(st.holes, dsHole{off: len(dst) - st.start, langs: w.code.tables[o.table].langs, mul: o.mul, add: v, leaf: &o.leaf})
				continue
			}
			dst = o.leaf.appendInt(dst, int(v))
		case dsOpen:
			open, decl = len(dst), o.decl
			dst = append(dst, '>')
		case dsClose:
			if open >= 0 && len(dst) == open+1 {
				dst = append(dst[:open], " />"...)
				continue
			}
			dst = append(dst, o.close...)
		case dsRows:
			c := o.child
			if !c.langs {
				st.rows[c.index] = st.rows[dt.index]
				dst = w.row(dst, c, ctx, st)
				continue
			}
			if ctx.atm == nil {
				continue
			}
			item := ctx.lang
			for _, l := range ctx.atm.Languages {
				ctx.lang = l
				st.rows[c.index] = st.next[c.index]
				st.next[c.index]++
				dst = w.row(dst, c, ctx, st)
			}
			ctx.lang = item
		}
	}
	return dst
}

// items appends the content table's rows of the items from to to.
func (w *dsWriter) items(dst []byte, a answer, from, to int) []byte {
	content := w.code.content
	if w.code.nested && a.kind == locationItems && a.sc != nil {
		return w.groupedItems(dst, a, from, to)
	}
	if a.kind != locationItems {
		var st dsState
		st.init(w, a)
		for k := from; k < to; k++ {
			ctx := w.itemCtx(a, k)
			st.rows[content.index] = int64(k)
			dst = w.row(dst, content, &ctx, &st)
		}
		return dst
	}
	langs := w.langsBefore(a, from)
	var buf [24]byte
	var batch [gatherBatch]*fragment
	for start := from; start < to; start += len(batch) {
		end := min(start+len(batch), to)
		w.d.frags.gather(batch[:end-start], w.code.variant, a.atms[start:end])
		for k := start; k < end; k++ {
			i := a.atms[k]
			f := batch[k-start]
			if f == nil {
				f = w.buildRow(a, i)
			}
			dst = appendRow(dst, f, int64(k), langs, &buf)
			langs += int64(len(w.d.ds.ATMs[i].Languages))
		}
	}
	if a.sc != nil {
		a.sc.ds = dsCursor{to: to, langs: langs}
	}
	return dst
}

// appendRow appends f, a cached location row, with its numbers: those
// of the row's own place k, and of its language rows, langs before them.
func appendRow(dst []byte, f *fragment, k, langs int64, buf *[24]byte) []byte {
	at := 0
	for _, h := range f.holes {
		dst = append(dst, f.b[at:h.off]...)
		base := k
		if h.langs {
			base = langs
		}
		dst = append(dst, h.leaf.appendInt(buf[:0], int(h.mul*base+h.add))...)
		at = h.off
	}
	return append(dst, f.b[at:]...)
}

// langsBefore is the number of language rows of the items before item
// from: carried from the previous call of items when it ended there.
func (w *dsWriter) langsBefore(a answer, from int) int64 {
	if a.sc != nil && a.sc.ds.to == from {
		return a.sc.ds.langs
	}
	var n int64
	for _, i := range a.atms[:from] {
		n += int64(len(w.d.ds.ATMs[i].Languages))
	}
	return n
}

// buildRow writes the content row of the ATM at position i with holes for
// its numbers, and caches it while the cache's budget lasts.
func (w *dsWriter) buildRow(a answer, i int32) *fragment {
	atm := &w.d.ds.ATMs[i]
	ctx := valueCtx{atm: atm, inst: w.d.institution(atm.InstitutionID), ord: int(i) + 1}
	st := &dsState{template: true}
	st.init(w, a)
	b := w.row(make([]byte, 0, xmlLocationSize), w.code.content, &ctx, st)
	return w.d.frags.putHoles(w.code.variant, i, b, st.holes)
}

// itemsLength sums the content rows with their numbers.
func (w *dsWriter) itemsLength(a answer) int {
	if a.kind != locationItems || w.code.nested {
		var b []byte
		b = w.items(b, a, 0, a.n)
		return len(b)
	}
	n := 0
	var langs int64
	var buf [24]byte
	slots := w.d.frags.slots[w.code.variant]
	for k, i := range a.atms {
		f := slots[i].Load()
		if f == nil {
			f = w.buildRow(a, i)
		}
		n += len(f.b)
		for _, h := range f.holes {
			base := int64(k)
			if h.langs {
				base = langs
			}
			n += len(h.leaf.appendInt(buf[:0], int(h.mul*base+h.add)))
		}
		langs += int64(len(w.d.ds.ATMs[i].Languages))
	}
	return n
}

func (w *dsWriter) itemSize() int { return xmlLocationSize }

// preserveSpace marks an element column's value of white space only, from
// at to the end of dst (its start tag's '>' just before at, after a
// namespace declaration of decl bytes), with xml:space="preserve", as
// DataSet.WriteXml does (XmlDataTreeWriter's PreserveSpace: a value that
// is all Char.IsWhiteSpace), before the declaration, where XmlTextWriter
// writes it: without it a DataSet reading the answer drops the value's
// white space and reads an empty string.
func preserveSpace(dst []byte, at, decl int) []byte {
	if at >= len(dst) || !xmlSpaceOnly(dst[at:]) {
		return dst
	}
	return slices.Insert(dst, at-1-decl, xmlSpacePreserve...)
}

var xmlSpacePreserve = []byte(` xml:space="preserve"`)

// xmlSpaceOnly reports whether escaped text is white space only, as .NET's
// Char.IsWhiteSpace sees its characters (a carriage return is escaped
// &#xD;).
func xmlSpaceOnly(b []byte) bool {
	for i := 0; i < len(b); {
		if b[i] == '&' {
			if !bytes.HasPrefix(b[i:], []byte("&#xD;")) {
				return false
			}
			i += len("&#xD;")
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if !unicode.IsSpace(r) {
			return false
		}
		i += n
	}
	return true
}
