package conformance

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
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
	cs = append(cs, namespaceChecks()...)
	cs = append(cs, jsonChecks()...)
	cs = append(cs, soapActionChecks()...)
	cs = append(cs, routingChecks()...)
	cs = append(cs, paramOrderChecks()...)
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
				Run: func(s *Session, note Notef) error {
					r, err := s.result(b, op.Name)
					if err != nil {
						return err
					}
					if err := checkDeclaration(r.X, fmt.Sprintf("%s over %s", op.Name, b)); err != nil {
						return err
					}
					if b == SOAP11 || b == SOAP12 {
						note("<%s> holds %s", r.Root.Tag, describeContent(r.Root))
					} else {
						note("the document's root is %s, holding %s", nameOf(r.Root), describeContent(r.Root))
					}
					return nil
				},
			})
		}
	}
	return cs
}

// xmlResults calls op in the four XML bindings and returns the checked
// results by binding.
func (s *Session) xmlResults(op string) (map[Binding]*resultNode, error) {
	out := map[Binding]*resultNode{}
	for _, b := range XMLBindings {
		r, err := s.result(b, op)
		if err != nil {
			return nil, err
		}
		out[b] = r
	}
	return out, nil
}

func equivalenceChecks() []Check {
	var cs []Check
	for _, op := range Operations {
		cs = append(cs, Check{
			Name:        "equivalence/" + op.Name,
			Group:       "the same query in every binding",
			Description: op.Name + " gives the same XML result over soap11, soap12, get and post, in any ASMX layout (a node, typed content, a DataSet)",
			Labels:      []string{"soap11", "soap12", "get", "post", "documented", "equivalence"},
			Run: func(s *Session, note Notef) error {
				rs, err := s.xmlResults(op.Name)
				if err != nil {
					return err
				}
				return checkEquivalence(op.Name, rs, note)
			},
		})
	}
	return cs
}

// checkEquivalence compares the results of one query: the GET and POST
// documents as they are, SOAP 1.2's <OpResult> content with SOAP 1.1's, and
// SOAP 1.1's with the GET document in the layout they show.
func checkEquivalence(op string, rs map[Binding]*resultNode, note Notef) error {
	get, post, s11, s12 := rs[HTTPGet], rs[HTTPPost], rs[SOAP11], rs[SOAP12]
	l, d := compareWithDocument(s11.Root, get.Root)
	note("layout %s", l.desc)
	differ := func(a, b *resultNode, d string) error {
		return &Failure{
			What:      fmt.Sprintf("%s: result over %s against %s", op, b.X.Request.Binding, a.X.Request.Binding),
			Expected:  "the same result in every binding (layout " + l.desc + ")",
			Got:       fmt.Sprintf("%s vs %s differ %s", a.X.Request.Binding, b.X.Request.Binding, d),
			Exchanges: []*Exchange{a.X, b.X},
		}
	}
	if d := diffElements(get.Root, post.Root); d != "" {
		return differ(get, post, d)
	}
	if d := diffContent(s11.Root, s12.Root); d != "" {
		return differ(s11, s12, d)
	}
	if d != "" {
		return differ(s11, get, d)
	}
	return nil
}

func namespaceChecks() []Check {
	cs := []Check{{
		Name:        "namespaces/service-namespace",
		Group:       "namespaces",
		Description: "the service namespace has the document's form http://<namespace_host>/atmService",
		Labels:      []string{"documented", "namespaces"},
		Run: func(s *Session, note Notef) error {
			ns, err := s.Namespace()
			if err != nil {
				return err
			}
			note("the service namespace is %s", ns)
			if f := namespaceFailure(ns); f != nil {
				return f
			}
			return nil
		},
	}}
	for _, op := range Operations {
		cs = append(cs, Check{
			Name:        "namespaces/" + op.Name,
			Group:       "namespaces",
			Description: op.Name + "'s result content is in the same namespace in every XML binding, and a typed GET/POST root is in the service namespace",
			Labels:      []string{"soap11", "soap12", "get", "post", "documented", "namespaces"},
			Run: func(s *Session, note Notef) error {
				rs, err := s.xmlResults(op.Name)
				if err != nil {
					return err
				}
				ns, err := s.Namespace()
				if err != nil {
					return err
				}
				return checkNamespaces(op.Name, ns, rs, note)
			},
		})
	}
	return cs
}

// namespaceFailure is the failure of a service namespace ns (the target's)
// whose form is not the document's; nil when it is.
func namespaceFailure(ns string) *Failure {
	why := namespaceForm(ns)
	if why == "" {
		return nil
	}
	return &Failure{What: "the service namespace", Expected: "the form http://<namespace_host>/atmService (the document's {service_ns}; clients match it exactly)", Got: fmt.Sprintf("%q: %s", ns, why)}
}

// namespaceForm returns "" when ns has the document's form of the service
// namespace, http://<namespace_host>/atmService, else what differs.
func namespaceForm(ns string) string {
	u, err := url.Parse(ns)
	switch {
	case err != nil || u.Opaque != "":
		return "not an http URI"
	case u.Scheme != "http":
		return fmt.Sprintf("scheme %q, not http", u.Scheme)
	case u.Host == "" || u.User != nil:
		return "no host name"
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.HasSuffix(ns, "#"):
		return "a query or fragment after the path"
	case u.Path == "/atmService/":
		return "a trailing slash"
	case u.Path != "/atmService":
		return fmt.Sprintf("path %q, not /atmService", u.Path)
	}
	return ""
}

// checkNamespaces checks what ASMX guarantees of a result's namespaces in
// each layout (<OpResponse> and <OpResult> in the service namespace are the
// binding specs' business): the content of <OpResult> in one namespace (or
// set of them) for every XML binding, and a typed or DataSet GET/POST root
// in the service namespace.
func checkNamespaces(op, ns string, rs map[Binding]*resultNode, note Notef) error {
	get, s11 := rs[HTTPGet], rs[SOAP11]
	l := layoutOf(s11.Root, get.Root)
	note("layout %s", l.desc)
	if l.kind == layoutUnknown {
		_, d := compareWithDocument(s11.Root, get.Root)
		return &Failure{What: op + ": layout of the result over soap11 and get", Expected: "the same content over SOAP (inside <" + op + "Result>) and GET (as the node itself, or inside a root named by type)",
			Got: l.desc + "; they differ " + d, Exchanges: []*Exchange{s11.X, get.X}}
	}
	ref := contentOf(s11.Root, l.kind, false)
	note("the content is in %s", namespacesOf(ref))
	for _, b := range []Binding{SOAP12, HTTPGet, HTTPPost} {
		r := rs[b]
		doc := b == HTTPGet || b == HTTPPost
		kind := l.kind
		if doc {
			if bl := layoutOf(s11.Root, r.Root); bl.kind != l.kind {
				return &Failure{What: fmt.Sprintf("%s: layout over %s", op, b), Expected: "the layout of soap11 and get: " + l.desc, Got: bl.desc, Exchanges: []*Exchange{s11.X, r.X}}
			}
			if kind != layoutNode && nameOf(r.Root).Space != ns {
				return &Failure{
					What:      fmt.Sprintf("%s over %s: namespace of the document's root %s", op, b, r.Root.Tag),
					Expected:  fmt.Sprintf("the service namespace %s: ASMX writes a typed (or DataSet) root in it (layout %s)", ns, l.desc),
					Got:       nsText(nameOf(r.Root).Space),
					Exchanges: []*Exchange{r.X},
				}
			}
		} else if !sameContentShape(s11.Root, r.Root) {
			return &Failure{What: fmt.Sprintf("%s: layout over %s", op, b), Expected: "the content of soap11's <" + op + "Result>: " + describeContent(s11.Root), Got: describeContent(r.Root), Exchanges: []*Exchange{s11.X, r.X}}
		}
		if d := nsMismatch(ref, contentOf(r.Root, kind, doc), ""); d != "" {
			return &Failure{
				What:      fmt.Sprintf("%s: namespace of the result content over %s against soap11", op, b),
				Expected:  fmt.Sprintf("the same namespaces in every XML binding (over soap11: %s; layout %s)", namespacesOf(ref), l.desc),
				Got:       fmt.Sprintf("%s (soap11 vs %s)", d, b),
				Exchanges: []*Exchange{s11.X, r.X},
			}
		}
	}
	return nil
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
