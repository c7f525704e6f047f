package cli

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/atmkit/atmkit/fixtures"
)

// DatasetProblem says why the data set in dir (--fixtures) could not be
// loaded, when err is its loading's error: problems in its records, or a
// file that cannot be read. It is a wrong setting (exit 2); ok is false for
// any other error. With several problems it points to fixtures check,
// which lists them all.
func DatasetProblem(err error, dir string) (problem string, ok bool) {
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
