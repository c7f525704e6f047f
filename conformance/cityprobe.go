package conformance

import (
	"fmt"
	"strconv"
	"sync"
)

// cityProbeMax is the last intCityID the suite probes for one with
// locations; cityProbeBatch is how many it sends at once.
const (
	cityProbeMax   = 200
	cityProbeBatch = 8
)

// probeCity finds the first intCityID from 1 to cityProbeMax whose
// ReturnAtmSearchByCity result holds a location node of f, sending
// cityProbeBatch calls at a time (ids in order, the batch's lowest with
// locations wins, so the id found is the one a probe one by one finds):
// one by one, a deployment 0.2 s away spent 20 s finding the mock's city
// 101, and 40 s to find none. It returns 0 when no id has locations, and
// the error of the first call in id order that got no answer before an id
// with locations.
func (s *Session) probeCity(f *Facts) (int, error) {
	type outcome struct {
		found bool
		err   error
	}
	for lo := 1; lo <= cityProbeMax; lo += cityProbeBatch {
		hi := min(lo+cityProbeBatch-1, cityProbeMax)
		outs := make([]outcome, hi-lo+1)
		var wg sync.WaitGroup
		for id := lo; id <= hi; id++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x, err := s.Do(Request{Binding: s.discoveryBinding(), Op: opByCity, Values: map[string]string{pCityID: strconv.Itoa(id)}})
				if err != nil {
					outs[id-lo].err = err
					return
				}
				root, err := s.readResult(x)
				outs[id-lo].found = err == nil && len(f.xmlLocations(root)) > 0
			}()
		}
		wg.Wait()
		for i, o := range outs {
			if o.err != nil {
				return 0, o.err
			}
			if o.found {
				return lo + i, nil
			}
		}
	}
	return 0, nil
}

// cityNote says how probeCity's id was found, or that none was.
func cityNote(id int) string {
	if id == 0 {
		return fmt.Sprintf("no intCityID from 1 to %d gave locations; give one with --city-id", cityProbeMax)
	}
	return fmt.Sprintf("found by probing intCityID from 1 to %d", id)
}
