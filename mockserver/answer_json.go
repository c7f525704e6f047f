package mockserver

import (
	"math"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/wire"
)

// jsonWriter writes the JSON binding's answers, location lists (the two
// searches the binding offers), in the document's field order:
//
//	{"count":N,"coordinates":{...},"locations":[{"index":0,...},...]}
//
// Each location object is cached whole per ATM without its index value
// (fragments.go), so writing a list is mostly copying.
type jsonWriter struct {
	d *data
}

// jsonLocationSize is the typical size of a location object.
const jsonLocationSize = 700

// locationHeadJSON is what comes before the index value of a JSON location.
const locationHeadJSON = `{"index":`

// head appends the count, the search point and the list's start.
func (w jsonWriter) head(dst []byte, a answer) []byte {
	dst = append(dst, `{"count":`...)
	dst = strconv.AppendInt(dst, int64(a.n), 10)
	dst = append(dst, `,"coordinates":`...)
	dst = appendJSONCoordinates(dst, a.point)
	return append(dst, `,"locations":[`...)
}

// items appends the locations from position from to to.
func (w jsonWriter) items(dst []byte, a answer, from, to int) []byte {
	var batch [gatherBatch]*fragment
	for at := from; at < to; at += len(batch) {
		end := min(at+len(batch), to)
		w.d.frags.gather(batch[:end-at], jsonVariant, a.atms[at:end])
		for k := at; k < end; k++ {
			if k > 0 {
				dst = append(dst, ',')
			}
			f := batch[k-at]
			if f == nil {
				f = w.d.jsonFragment(a.atms[k])
			}
			dst = append(dst, f.b[:f.off]...)
			dst = appendIndex(dst, k)
			dst = append(dst, f.b[f.off:]...)
		}
	}
	return dst
}

// tail ends the list and the object.
func (w jsonWriter) tail(dst []byte, _ answer) []byte { return append(dst, "]}"...) }

// itemsLength sums the locations' objects, the commas between them and
// their index values.
func (w jsonWriter) itemsLength(a answer) int {
	n := max(a.n-1, 0) + digitsUpTo(a.n)
	for _, i := range a.atms {
		f := w.d.frags.length(jsonVariant, i)
		if f == 0 {
			f = len(w.d.jsonFragment(i).b)
		}
		n += f
	}
	return n
}

func (w jsonWriter) itemSize() int { return jsonLocationSize }

// jsonFragment returns the JSON location object of the ATM at position i
// without its index value: from the cache, or written now (and cached
// while the cache's budget lasts).
func (d *data) jsonFragment(i int32) *fragment {
	if f := d.frags.get(jsonVariant, i); f != nil {
		return f
	}
	b := append(make([]byte, 0, jsonLocationSize), locationHeadJSON...)
	return d.frags.put(jsonVariant, i, d.appendLocationTailJSON(b, &d.ds.ATMs[i]), len(locationHeadJSON))
}

// appendLocationTailJSON appends a location object after its index value.
func (d *data) appendLocationTailJSON(b []byte, a *fixtures.ATM) []byte {
	in := d.institution(a.InstitutionID)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, int64(a.ID), 10)
	b = append(b, `,"atmIdentifier":`...)
	b = wire.ResultJSON.AppendString(b, a.ATMIdentifier)
	b = append(b, `,"institution":{"id":`...)
	b = strconv.AppendInt(b, int64(in.ID), 10)
	b = append(b, `,"name":`...)
	b = wire.ResultJSON.AppendString(b, in.Name)
	b = append(b, `,"url":`...)
	b = wire.ResultJSON.AppendString(b, in.URL)
	b = append(b, `,"isAtlanticCreditUnion":`...)
	b = strconv.AppendInt(b, int64(in.IsAtlanticCreditUnion), 10)
	b = append(b, `},"coordinates":`...)
	b = appendJSONCoordinates(b, a.Coordinates)
	b = append(b, `,"address":{"streetAddress":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.StreetAddress)
	b = append(b, `,"city":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.City)
	b = append(b, `,"province":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.Province)
	b = append(b, `,"postalCode":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.PostalCode)
	b = append(b, `,"landmark":`...)
	b = wire.ResultJSON.AppendString(b, a.Address.Landmark)
	b = append(b, `},"features":{"deposits":`...)
	b = strconv.AppendInt(b, int64(a.Features.Deposits), 10)
	b = append(b, `,"hours":`...)
	b = strconv.AppendInt(b, int64(a.Features.Hours), 10)
	b = append(b, `,"driveThru":`...)
	b = strconv.AppendInt(b, int64(a.Features.DriveThru), 10)
	b = append(b, `,"pinChange":`...)
	b = strconv.AppendInt(b, int64(a.Features.PinChange), 10)
	b = append(b, `,"voiceGuidance":`...)
	b = strconv.AppendInt(b, int64(a.Features.VoiceGuidance), 10)
	b = append(b, `},"creditCards":{"visa":`...)
	b = strconv.AppendInt(b, int64(a.CreditCards.Visa), 10)
	b = append(b, `,"plus":`...)
	b = strconv.AppendInt(b, int64(a.CreditCards.Plus), 10)
	b = append(b, `,"mastercard":`...)
	b = strconv.AppendInt(b, int64(a.CreditCards.Mastercard), 10)
	b = append(b, `,"cirrus":`...)
	b = strconv.AppendInt(b, int64(a.CreditCards.Cirrus), 10)
	b = append(b, `},"languages":[`...)
	for j, lang := range a.Languages {
		if j > 0 {
			b = append(b, ',')
		}
		b = wire.ResultJSON.AppendString(b, lang)
	}
	return append(b, "]}"...)
}

func appendJSONCoordinates(b []byte, c fixtures.Coordinates) []byte {
	b = append(b, `{"latitude":`...)
	b = appendJSONDouble(b, c.Latitude)
	b = append(b, `,"longitude":`...)
	b = appendJSONDouble(b, c.Longitude)
	return append(b, '}')
}

// appendJSONDouble appends f as .NET's JSON writers write a double
// (JavaScriptSerializer: Double.ToString("r", InvariantCulture)): as
// XmlConvert writes it, 15 or 17 significant digits and 1E-05 beyond the
// plain range (asmx.AppendXMLDouble), and Infinity, -Infinity and NaN for
// the values JSON has no number for (a searched point may be INF or NaN,
// as ASMX reads them).
func appendJSONDouble(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case f == 0:
		return append(dst, '0') // negative zero too: "r" on .NET Framework writes no sign (XmlConvert adds its -0)
	}
	return asmx.AppendXMLDouble(dst, f)
}
