package cli

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// ServeProblem says which setting made the mock server refuse to start,
// when err is its start's error, and why: the data set in dir (--fixtures)
// could not be loaded (problems in its records, or a file that cannot be
// read), or the shape (--shape) cannot hold its values (shape.FitError). It
// is a wrong setting (exit 2); ok is false for any other error. With
// several problems in the data set it points to fixtures check, which
// lists them all.
func ServeProblem(err error, dir string) (flag, problem string, ok bool) {
	var ferr *shape.FitError
	if errors.As(err, &ferr) {
		return "shape", (&shape.FitError{Problems: ferr.Problems}).Error(), true // the flag names the file
	}
	problem, ok = datasetProblem(err, dir)
	return "fixtures", problem, ok
}

func datasetProblem(err error, dir string) (problem string, ok bool) {
	if err == nil || dir == "" {
		return "", false
	}
	var verr *fixtures.ValidationError
	var perr *fs.PathError
	switch {
	case errors.As(err, &verr) && verr.Total > 1:
		return verr.Error() + "\n\t(atmkit fixtures check " + dir + " lists every problem)", true
	case errors.As(err, &verr):
		return verr.Error(), true
	case errors.As(err, &perr):
		return strings.TrimPrefix(err.Error(), "load fixtures "+dir+": "), true
	}
	return "", false
}
