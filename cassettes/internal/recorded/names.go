package recorded

import (
	"strconv"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Names are the names of a cassette file's interactions, as messages
// write them after "#" (atm.yaml#3): each one's id, or, when the file
// holds that id more than once (ids edited by hand, which scrub and
// verify --update keep), the id and the interaction's position in the
// file counted from 0, as go-vcr numbers them: "3@5".
func Names(list []*cassette.Interaction) []string {
	twice := Repeated(list)
	names := make([]string, len(list))
	for pos, i := range list {
		names[pos] = Name(i.ID, pos, twice[i.ID])
	}
	return names
}

// Repeated is the set of the ids list holds more than once (nil when
// none): those whose Name has the position too.
func Repeated(list []*cassette.Interaction) map[int]bool {
	seen := make(map[int]bool, len(list))
	var twice map[int]bool
	for _, i := range list {
		if seen[i.ID] {
			if twice == nil {
				twice = map[int]bool{}
			}
			twice[i.ID] = true
		}
		seen[i.ID] = true
	}
	return twice
}

// Name is the name of the interaction with id at position pos of its
// file (Names); twice is whether the file holds id more than once.
func Name(id, pos int, twice bool) string {
	if twice {
		return strconv.Itoa(id) + "@" + strconv.Itoa(pos)
	}
	return strconv.Itoa(id)
}
