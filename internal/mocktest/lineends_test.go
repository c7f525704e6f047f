package mocktest

import "testing"

func TestAsDotNetLines(t *testing.T) {
	in := "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a>\n  <b>x</b>\n</a>"
	want := "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<a>\r\n  <b>x</b>\r\n</a>"
	if got := AsDotNetLines(in); got != want {
		t.Errorf("AsDotNetLines: got %q, want %q", got, want)
	}
	if got := string(AsDotNetLinesBytes([]byte(in))); got != want {
		t.Errorf("AsDotNetLinesBytes: got %q, want %q", got, want)
	}
}
