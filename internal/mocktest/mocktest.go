// Package mocktest holds what atmkit's tests share to talk to a service
// (the mock, the handlers that wrap it, a reference deployment, a proxy):
// a small hand-made data set and the calls a client sends in each binding,
// built from the interface document's own paths, content types and
// namespaces. It is for tests only, and a leaf: it imports none of
// atmkit's packages, so every package's tests can use it.
package mocktest

import (
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"runtime"
	"strconv"
	"time"
)

//go:embed testdata/small
var small embed.FS

// SmallDataset returns the files of a hand-made data set whose distances
// are easy to reason about: ATMs 1-4 around Halifax, 5 in Moncton, 6 in
// Charlottetown. They are in the layout fixtures.Save writes, so tests load
// them with fixtures.LoadFS, each load a fresh copy.
func SmallDataset() fs.FS {
	sub, err := fs.Sub(small, "testdata/small")
	if err != nil {
		panic(fmt.Sprintf("mocktest: the small data set: %v", err)) // a constant, valid path
	}
	return sub
}

// ParamsFor gives parameters for every operation that find locations in
// SmallDataset, the key first.
func ParamsFor(op, key string) [][2]string {
	k := [2]string{paramKey, key}
	switch op {
	case "ReturnAtmSearchByAddress":
		return [][2]string{k, {"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "15"}}
	case "ReturnAtmSearchByCoordinates":
		return [][2]string{k, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "15"}}
	case "ReturnAtmSearchByAddressWithMaximum":
		return [][2]string{k, {"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "15"}, {"intMaximumAtms", "2"}}
	case "ReturnAtmSearchByInstitution":
		return [][2]string{k, {"intInstitutionID", "2"}}
	case "ReturnAtmSearchByCity":
		return [][2]string{k, {"intCityID", "10"}}
	}
	return [][2]string{k}
}

// MoreParallel lets up to perCPU parallel tests per CPU run at once, unless
// the command line gives -parallel (whose default is one per CPU): for a
// test binary whose tests wait much of the time, on child processes,
// servers shutting down or clients giving up. TestMain calls it before
// m.Run.
func MoreParallel(perCPU int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(perCPU*runtime.GOMAXPROCS(0)))
	}
}

// LoadWindow is d, or five times d under the race detector: how long a
// test's load run measures, long enough to count requests however slowly
// a loaded machine answers.
func LoadWindow(d time.Duration) time.Duration {
	if Race {
		return 5 * d
	}
	return d
}
