package learn_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// soapAnswer is a SOAP 1.1 answer of ReturnAllAtms whose result holds
// inner.
func soapAnswer(inner string) learn.Sample {
	body := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ReturnAllAtmsResponse xmlns="http://t.example/s"><ReturnAllAtmsResult>` + inner +
		`</ReturnAllAtmsResult></ReturnAllAtmsResponse></soap:Body></soap:Envelope>`
	return learn.Sample{Binding: learn.SOAP11, Op: shape.OpReturnAllAtms, Query: "q", Status: 200, Body: []byte(body), Where: "answer"}
}

// TestLearnAnswersOfTooManyFields: recorded answers whose result holds
// more fields than a shape may describe, or nests them deeper than a
// shape may, are refused as such. Tens of thousands of fields took time
// quadratic in their number (40,000 in a 700 KB answer: 14.5 s, and a
// shape of them learned), and fields nested 70 deep made the learner
// blame itself ("a bug in atmkit's learner").
func TestLearnAnswersOfTooManyFields(t *testing.T) {
	var wide strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&wide, "<e%d>1</e%d>", i, i)
	}
	var attrs strings.Builder
	attrs.WriteString("<e")
	for i := range 20000 {
		fmt.Fprintf(&attrs, ` a%d="1"`, i)
	}
	attrs.WriteString("/>")
	for _, c := range []struct {
		name, inner, want string
	}{
		{"40,000 elements", wide.String(), "hold more than 10000 fields"},
		{"20,000 attributes", attrs.String(), "hold more than 10000 fields"},
		{"70 levels", strings.Repeat("<a>", 70) + "1" + strings.Repeat("</a>", 70), "more than 64 levels deep"},
	} {
		_, _, err := learn.Learn(learn.Input{Samples: []learn.Sample{soapAnswer(c.inner)}})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "ReturnAllAtms") || strings.Contains(err.Error(), "a bug") {
			t.Fatalf("%s: got %.300v, want an error saying %q", c.name, err, c.want)
		}
	}
	// As deep as a shape may nest, the answer is read (and its result
	// refused for holding no list).
	_, _, err := learn.Learn(learn.Input{Samples: []learn.Sample{soapAnswer(strings.Repeat("<a>", 60) + "1" + strings.Repeat("</a>", 60))}})
	if err != nil && strings.Contains(err.Error(), "levels deep") {
		t.Fatalf("60 levels: %v", err)
	}
}
