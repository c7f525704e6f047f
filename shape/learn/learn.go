package learn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Input is what the learner reads.
type Input struct {
	// WSDL is the deployment's WSDL document, or nil.
	WSDL []byte
	// Samples are recorded answers: XML answers (SOAP 1.1, SOAP 1.2, HTTP
	// GET and POST) and JSON answers to the same queries.
	Samples []Sample
}

// ErrNothingToLearn is returned when the input holds neither a WSDL nor
// an answer the learner can read.
var ErrNothingToLearn = errors.New("nothing to learn from: give a WSDL or recorded answers")

// learner is one run of Learn: what it read (the WSDL's results, the
// answers' contents, the JSON answers) and the groups it maps. Learn runs
// its steps in order, each in a file of its own: readSamples (samples.go),
// makeGroups (layout.go, its skeletons from wsdl.go or skeleton.go),
// findList (list.go), the match step of each content (contents.go, on
// match.go's matcher) or, for DataSets, learnDataSet (dataset.go, its
// tables' rows decided in dataset_roles.go), build
// (build.go), settle (evidence.go: omit what was seen absent, keep what
// was not seen). Each step writes what it
// decided to the report (report.go).
type learner struct {
	ctx      context.Context // ends the steps early (Ctrl-C); Learn then returns its error
	in       Input
	info     *wsdlInfo
	ns       string
	nsFrom   string // where ns was read: the WSDL, or the first SOAP answer
	nsErr    error  // SOAP answers in another service namespace
	report   *Report
	contents map[string][]*content  // by operation
	jsons    map[string]*jsonAnswer // by operation and query
	groups   []*group
	// blank are the generated fields and columns (*shape.Field,
	// *shape.Column) whose every value read was empty, by their path for
	// reports: one of them may hold a value no other field holds.
	blank map[any]string
	// prefixes: the result being built is a node, whose deployment built
	// its elements (and attributes) with the prefixes it chose: the
	// fields keep them. A typed result's prefixes are XmlSerializer's.
	prefixes bool
	// unmodelled are the paths of lists of the results built that atmkit
	// has no data for, derived the elements written as derived classes
	// (see NotModelledError).
	unmodelled, derived []string
	// grouped are the locations results whose locations the deployment
	// groups (by institution): see NotModelledError.
	grouped []string
	// groupOrder are the grouped answers whose groups or rows come in an
	// order a shape does not model.
	groupOrder []string
	// rowOrder are the grouped answers whose locations' rows come in
	// their groups' order, not the search's, unpaired or in both orders
	// (see NotModelledError).
	rowOrder []string
	// root and content are the skeleton and content of the result being
	// built.
	root    *node
	content shape.Content
	// typed: the result being built is typed, whose null members
	// XmlSerializer writes xsi:nil (nillable) or leaves out.
	typed bool
	// ends holds, for each element of a node result's answers that holds
	// an empty value, whether the answer ended it with an end tag of its
	// own (see emptyEnds).
	ends map[*etree.Element]bool
}

// Learn learns a shape from in. The shape is valid; the report lists what
// was mapped, guessed, left unmapped and omitted, and what was not seen.
// A value of atmkit's model is omitted only when what was read would have
// shown it (answers that carry it, or the WSDL's type) and did not; a
// value nothing read could show is kept as atmkit writes it by default.
func Learn(in Input) (*shape.Shape, *Report, error) {
	return LearnContext(context.Background(), in)
}

// LearnContext is Learn that stops when ctx is done (Ctrl-C): learning
// from hundreds of recorded answers takes minutes. It then returns no
// shape, no report and an error that wraps ctx's error, within moments:
// every step looks at ctx between answers, and between the values it
// weighs.
func LearnContext(ctx context.Context, in Input) (*shape.Shape, *Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("learn: %w", err)
	}
	l := &learner{ctx: ctx, in: in, report: &Report{}, contents: map[string][]*content{}, jsons: map[string]*jsonAnswer{}, blank: map[any]string{},
		ends: map[*etree.Element]bool{}}
	sh, rep, err := l.learn()
	if ctx.Err() != nil { // what a step cut short learned is not a shape
		return nil, nil, fmt.Errorf("learn: %w", ctx.Err())
	}
	return sh, rep, err
}

// stopped reports whether ctx is done: a step that sees it returns at
// once, and LearnContext discards what was learned.
func (l *learner) stopped() bool { return l.ctx.Err() != nil }

// learn runs the steps (see learner). A step cut short by the context
// leaves the shape half learned, which LearnContext does not return.
func (l *learner) learn() (*shape.Shape, *Report, error) {
	in := l.in
	if len(in.WSDL) > 0 {
		info, err := readWSDL(in.WSDL)
		if err != nil {
			return nil, nil, err
		}
		l.info, l.ns, l.nsFrom = info, info.ns, "the WSDL"
	}
	l.readSamples()
	if l.stopped() {
		return nil, nil, l.ctx.Err()
	}
	if l.nsErr != nil {
		return nil, l.report, l.nsErr
	}
	if l.info == nil && len(l.contents) == 0 {
		return nil, l.report, l.nothingRead()
	}
	if err := l.makeGroups(); err != nil {
		return nil, l.report, err
	}
	learned := slices.DeleteFunc(slices.Clone(l.groups), func(g *group) bool { return g.def != nil })
	// The DataSets compared with JSON answers first: a DataSet of none
	// maps its tables like theirs of the same name (sameTableAs).
	for _, withJSON := range []bool{true, false} {
		for _, g := range learned {
			if g.layout == shape.Dataset && !l.stopped() && l.hasJSON(g) == withJSON {
				l.learnDataSet(g)
			}
		}
	}
	learned = slices.DeleteFunc(learned, func(g *group) bool { return g.layout == shape.Dataset })
	for _, g := range learned {
		if !l.stopped() {
			l.findList(g)
			l.findGroup(g)
		}
	}
	for _, g := range learned {
		switch {
		case l.stopped() || g.content != shape.Locations:
		case g.grp != nil:
			l.matchGroups(g)
		default:
			l.matchLocations(g)
		}
	}
	for _, g := range learned {
		if l.stopped() {
			break
		}
		switch g.content {
		case shape.Institutions:
			l.matchInstitutions(g)
		case shape.Provinces:
			l.matchProvinces(g)
		}
	}
	if l.stopped() {
		return nil, nil, l.ctx.Err()
	}
	sh := l.build()
	if len(l.unmodelled) > 0 || len(l.derived) > 0 || len(l.grouped) > 0 || len(l.groupOrder) > 0 || len(l.rowOrder) > 0 {
		return nil, l.report, &NotModelledError{Lists: l.unmodelled, Derived: l.derived, Grouped: l.grouped, GroupOrder: l.groupOrder, RowOrder: l.rowOrder}
	}
	l.settle(sh)
	if ops := withoutList(sh); len(ops) > 0 {
		// The deployment's WSDL or answers, not the learner: a result of
		// this service holds a list.
		return nil, l.report, fmt.Errorf("no list of locations, institutions or provinces found in the result of %s in the WSDL or answers given: are they the ATM Location Lookup Service's?", strings.Join(ops, ", "))
	}
	if err := sh.Validate(); err != nil {
		return nil, l.report, fmt.Errorf("the learned shape is not valid (a bug in atmkit's learner, please report it): %w", err)
	}
	if err := sh.CheckServiceNamespace(l.ns); err != nil {
		// The deployment's, not the learner's: its answers hold a typed
		// DataSet in the service namespace, which the mock cannot serve.
		return nil, l.report, fmt.Errorf("the deployment's answers hold a DataSet atmkit does not model: %w", err)
	}
	l.report.Namespace = l.ns
	if l.info == nil {
		l.note("no WSDL was given or recorded: what only a WSDL shows (a result type's name where no GET or POST answer shows it, a DataSet result's form in the WSDL) is atmkit's default, not the deployment's; give the WSDL, or record GET .../service.asmx?WSDL too")
	}
	return sh, l.report, nil
}

// withoutList names, sorted, the operations of sh whose result holds no
// list of locations, institutions or provinces.
func withoutList(sh *shape.Shape) []string {
	var ops []string
	for op := range sh.Operations {
		if r := sh.Result(op); r != nil && r.Content() == "" {
			ops = append(ops, op)
		}
	}
	slices.Sort(ops)
	return ops
}

// nothingRead is the error of a learning that read no answer and had no
// WSDL: ErrNothingToLearn, saying why when answers were given: none of
// status 200 (of an operation that returns results), or those skipped
// with a note.
func (l *learner) nothingRead() error {
	n, ok := len(l.in.Samples), 0
	for _, s := range l.in.Samples {
		if s.Status == 200 && shape.ContentOf(s.Op) != "" {
			ok++
		}
	}
	switch {
	case n == 0:
		return ErrNothingToLearn
	case ok == 0:
		return fmt.Errorf("none of the %d recorded answers given is a successful one (status 200) of an operation: record calls that succeed, and no WSDL: %w", n, ErrNothingToLearn)
	}
	return fmt.Errorf("none of the %d successful recorded answers given is one to learn from (the notes say why each was skipped), and no WSDL: %w", ok, ErrNothingToLearn)
}

// NotModelledError is Learn's error when a result holds what a shape
// does not model, so that the mock would serve answers other than the
// deployment's: a list atmkit has no data for (an ATM's services, an
// array of arrays), whose items the mock cannot write; an element written
// as a class derived from its declared one (XmlInclude:
// xsi:type="DriveUpTeller" and that class's members), which the mock
// would write as the declared class; locations grouped by institution in
// a node result, or in a DataSet's related tables that are no table of
// groups (groupTables), which the mock would write as one flat list of
// the groups. A typed result's grouping is learned (shape.Field.Group,
// findGroup), and a DataSet's table of groups (shape.RowsGroups).
type NotModelledError struct {
	// Lists are the lists' paths, as the report names fields.
	Lists []string
	// Derived are the elements written as derived classes, and the
	// members declared object written as a type of the deployment's own
	// (an enum's, xsi:type="Region"): their paths and the types.
	Derived []string
	// Grouped are the locations results that group their locations in
	// a way a shape does not model (by institution: a Bank table with
	// the ATM rows related to it that is no table of groups, a node's
	// bank element holding its ATMs), with where: a shape's node
	// locations, or a DataSet's without a table of groups, are one flat
	// list, each holding its institution's values, so the mock would
	// write the groups as locations.
	Grouped []string
	// GroupOrder are the answers of a grouped result whose groups come
	// in an order a shape does not model (shape.GroupOrders: of their
	// first location, by institution id, by institution name compared
	// ordinally), or in another order than the result's other answers
	// (learnGroupOrder); and a DataSet's whose rows of groups or of
	// locations are numbered otherwise than the mock numbers them
	// (checkGroupOrder).
	GroupOrder []string
	// RowOrder are the answers of a DataSet of grouped locations, its
	// relation not nested, whose locations' rows come in their groups'
	// order (bank by bank, as a deployment writes them that adds them
	// grouped) where the search's (its JSON answer's) is another, and
	// no column pairs them with the JSON answer's locations by id; and
	// the results whose answers hold them bank by bank in some answers,
	// in the search's order in others. Paired, they are learned
	// (shape.Table.RowOrder).
	RowOrder []string
}

// Error names what is not modelled.
func (e *NotModelledError) Error() string {
	var parts []string
	if len(e.Lists) > 0 {
		parts = append(parts, "lists atmkit has no data for (the mock would leave them out, unlike the deployment): "+strings.Join(e.Lists, ", "))
	}
	if len(e.Grouped) > 0 {
		parts = append(parts, "locations grouped (by institution: a shape's locations are one flat list, each location holding its institution's values; the mock would write each group as one location): "+strings.Join(e.Grouped, ", "))
	}
	if len(e.GroupOrder) > 0 {
		parts = append(parts, "groups of locations in an order a shape does not model (groupOrder: first, institution.id or institution.name, the same in every answer): "+strings.Join(e.GroupOrder, ", "))
	}
	if len(e.RowOrder) > 0 {
		parts = append(parts, "locations' rows in their groups' order, not the search's, that atmkit cannot pair with the JSON answer's locations by id, or in both orders (rowOrder: groups needs each row's location, the same order in every answer): "+strings.Join(e.RowOrder, ", "))
	}
	if len(e.Derived) > 0 {
		parts = append(parts, "elements written as classes derived from their declared ones, or as a type of the deployment's own in a member declared object (xsi:type: the mock would write the declared class, or an XSD type): "+strings.Join(e.Derived, ", "))
	}
	return "the deployment's results hold what a shape does not model: " + strings.Join(parts, "; ") + "; see docs/shapes.md, What a shape does not model"
}
