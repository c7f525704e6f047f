package conformance

import (
	"fmt"
	"sort"
	"sync"
)

// Notef records a remark that is reported but does not fail a check.
type Notef func(format string, args ...any)

// Check is one conformance property, checked by a plain function that
// returns nil, a *Failure (or another error), or a *SkipError.
type Check struct {
	// Name identifies the check, e.g. "binding/soap11/ReturnAllAtms".
	Name string
	// Group is the Ginkgo container the check's spec is declared in.
	Group string
	// Description is the spec's text.
	Description string
	// Labels are the spec's Ginkgo labels.
	Labels []string
	// Run performs the check against a session.
	Run func(s *Session, note Notef) error
}

// Checks returns every check of the suite, in a stable order.
func Checks() []Check {
	var cs []Check
	cs = append(cs, bindingChecks()...)
	cs = append(cs, equivalenceChecks()...)
	cs = append(cs, jsonChecks()...)
	cs = append(cs, soapActionChecks()...)
	cs = append(cs, faultChecks()...)
	cs = append(cs, semanticChecks()...)
	cs = append(cs, wsdlChecks()...)
	cs = append(cs, shapeChecks()...)
	return cs
}

// Outcome is the result of one check run outside Ginkgo.
type Outcome struct {
	Check Check
	// Err is nil when the check passed; a *SkipError when it did not apply.
	Err error
	// Notes are the remarks the check reported.
	Notes []string
}

// RunChecks runs checks against s, concurrently, and returns their outcomes
// in the order given. It is what the Ginkgo specs do, without Ginkgo.
func RunChecks(s *Session, checks []Check) []Outcome {
	out := make([]Outcome, len(checks))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, c := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := Outcome{Check: c}
			o.Err = c.Run(s, func(f string, a ...any) { o.Notes = append(o.Notes, fmt.Sprintf(f, a...)) })
			out[i] = o
		}()
	}
	wg.Wait()
	return out
}

// values returns the parameters op is called with: none for the key-only
// operations, else the discovered ones.
func (s *Session) values(op string) (map[string]string, error) {
	if len(operation(op).Params) == 1 {
		return nil, nil
	}
	f, err := s.Facts()
	if err != nil {
		return nil, err
	}
	return f.Values(op), nil
}

// result calls op in binding b with the suite's values and returns the
// checked XML result node.
func (s *Session) result(b Binding, op string) (*resultNode, error) {
	vals, err := s.values(op)
	if err != nil {
		return nil, err
	}
	ns, err := s.Namespace()
	if err != nil {
		return nil, err
	}
	x, err := s.Do(Request{Binding: b, Op: op, Values: vals})
	if err != nil {
		return nil, err
	}
	root, err := resultOf(x, ns)
	if err != nil {
		return nil, err
	}
	return &resultNode{root, x}, nil
}

func bindingChecks() []Check {
	var cs []Check
	for _, op := range Operations {
		for _, b := range XMLBindings {
			desc := map[Binding]string{
				SOAP11:   "answers 200 text/xml in a SOAP 1.1 envelope with <Op>Response/<Op>Result in the service namespace",
				SOAP12:   "answers 200 application/soap+xml in a SOAP 1.2 envelope with <Op>Response/<Op>Result in the service namespace",
				HTTPGet:  "answers 200 text/xml with the bare XML result",
				HTTPPost: "answers 200 text/xml with the bare XML result",
			}[b]
			cs = append(cs, Check{
				Name:        fmt.Sprintf("binding/%s/%s", b, op.Name),
				Group:       "every operation in every binding",
				Description: fmt.Sprintf("%s over %s %s", op.Name, b, desc),
				Labels:      []string{string(b), "documented"},
				Run: func(s *Session, _ Notef) error {
					_, err := s.result(b, op.Name)
					return err
				},
			})
		}
	}
	return cs
}

func equivalenceChecks() []Check {
	var cs []Check
	for _, op := range Operations {
		cs = append(cs, Check{
			Name:        "equivalence/" + op.Name,
			Group:       "the same query in every binding",
			Description: op.Name + " gives the same XML result over soap11, soap12, get and post",
			Labels:      []string{"soap11", "soap12", "get", "post", "documented", "equivalence"},
			Run: func(s *Session, _ Notef) error {
				ref, err := s.result(HTTPGet, op.Name)
				if err != nil {
					return err
				}
				for _, b := range []Binding{SOAP11, SOAP12, HTTPPost} {
					r, err := s.result(b, op.Name)
					if err != nil {
						return err
					}
					if d := diffElements(ref.Root, r.Root, ""); d != "" {
						return &Failure{
							What:      fmt.Sprintf("%s: result over %s against get", op.Name, b),
							Expected:  "the same element tree in every binding",
							Got:       "get vs " + string(b) + " differ " + d,
							Exchanges: []*Exchange{ref.X, r.X},
						}
					}
				}
				return nil
			},
		})
	}
	return cs
}

// idSet lists the location ids of an XML result, by the learned id leaf.
func idSet(f *Facts, root *resultNode) ([]string, error) {
	var ids []string
	for i, loc := range f.xmlLocations(root.Root) {
		id, ok := xmlField(loc, f.Fields["id"])
		if !ok {
			return nil, fail(root.X, root.X.Request.Op+": location node "+fmt.Sprint(i+1), "the id leaf "+f.Fields["id"], "none")
		}
		ids = append(ids, norm(id))
	}
	return ids, nil
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}
