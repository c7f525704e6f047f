package redact

import (
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/internal/opnames"
	"github.com/atmkit/atmkit/internal/wire"
)

// A client that built its URL wrong may put its key in the path
// (.../service.asmx/KEY, .../service.asmx/ReturnProvinces/KEY), where no
// parameter names it: until a call carries the same key, nothing tells it
// from any other path. What is printed at once (a recorder's progress
// line, a proxy's error) cannot be masked later, so it masks every such
// segment.

// PathKeys returns the segments of a URL path that follow an .asmx file
// (any case) and name no operation of the document nor ASP.NET AJAX's
// script proxy (js, jsdebug), each as written and, where it differs,
// decoded: the values a key in the path would have.
func PathKeys(path string) []string {
	var out []string
	eachPathKey(path, func(seg string) {
		out = append(out, seg)
		if v, err := url.PathUnescape(seg); err == nil && v != seg {
			out = append(out, v)
		}
	})
	return out
}

// MaskPathKeys returns path with each segment PathKeys finds replaced by
// mask.
func MaskPathKeys(path, mask string) string {
	at := asmxEnd(path)
	if at < 0 {
		return path
	}
	segs := strings.Split(path[at:], "/")
	for i, seg := range segs {
		if seg != "" && !namesOperation(seg) {
			segs[i] = mask
		}
	}
	return path[:at] + strings.Join(segs, "/")
}

// eachPathKey calls f with each segment of path after an .asmx file that
// names no operation.
func eachPathKey(path string, f func(seg string)) {
	at := asmxEnd(path)
	if at < 0 {
		return
	}
	for seg := range strings.SplitSeq(path[at:], "/") {
		if seg != "" && !namesOperation(seg) {
			f(seg)
		}
	}
}

// asmxEnd is the index in path just after its first ".asmx/" (ASCII
// letters in any case), or -1.
func asmxEnd(path string) int {
	const file = ".asmx/"
	if at := wire.IndexFold(path, file); at >= 0 {
		return at + len(file)
	}
	return -1
}

// namesOperation reports whether a path segment (written or decoded)
// names an operation of the document, in any case as IIS reads paths, or
// ASP.NET AJAX's script proxy.
func namesOperation(seg string) bool {
	name, err := url.PathUnescape(seg)
	if err != nil {
		return false
	}
	if strings.EqualFold(name, "js") || strings.EqualFold(name, "jsdebug") {
		return true
	}
	for _, op := range opnames.All() {
		if strings.EqualFold(op, name) {
			return true
		}
	}
	return false
}
