package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// ServeProblem says which setting made the mock server refuse to start,
// when err is its start's error, and why: the data set in dir (--fixtures)
// could not be loaded (problems in its records, or a file that cannot be
// read), the shape (--shape) cannot hold its values (shape.FitError), or
// a fault's id holds a key (--fault and --key). It is a wrong setting
// (exit 2); ok is false for any other error. With
// several problems in the data set it points to fixtures check, which
// lists them all.
func ServeProblem(err error, dir string) (flag, problem string, ok bool) {
	if errors.Is(err, mockserver.ErrFaultIDHoldsKey) {
		return "fault", mockserver.ErrFaultIDHoldsKey.Error(), true
	}
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
		return LoadProblem(err, dir), true
	}
	return "", false
}

// GenerateFailed is the error of fixtures generate when saving the data
// set in dir failed with err: one line naming the file it could not
// write and why (a full disk, the file size limit), and that the data set
// already in dir is as it was, which fixtures.SaveWith keeps when writing
// a file fails (each is written beside it first), or that nothing was
// written there when it held none. Any other failure (a rename) is err as
// it is.
func GenerateFailed(err error, dir string) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "write" {
		return err
	}
	for _, name := range []string{fixtures.ATMsFile, fixtures.ProvincesFile, fixtures.InstitutionsFile, fixtures.CitiesFile} {
		if _, serr := os.Lstat(filepath.Join(dir, name)); serr == nil {
			return fmt.Errorf("fixtures generate: cannot write %s: %w; the data set in %s is as it was", pe.Path, pe.Err, dir)
		}
	}
	return fmt.Errorf("fixtures generate: cannot write %s: %w; nothing was written to %s", pe.Path, pe.Err, dir)
}

// LoadProblem is err, an error of loading the data set in dir that lists
// no problems (a file that cannot be read), without its "load fixtures
// DIR: ", for a message that names dir itself, as serve's and bench's do.
func LoadProblem(err error, dir string) string {
	return strings.TrimPrefix(err.Error(), "load fixtures "+dir+": ")
}

// staleTemp is how long a data set's temporary file has gone unwritten
// before fixtures generate takes it for a killed run's: a run writing
// atms.jsonl adds to it every few milliseconds.
const staleTemp = time.Minute

// SweepTemps names on w, as command cmd, each temporary file that a run
// killed while writing the data set in dir left there
// (fixtures.TempFiles: hidden dot files, as large as what it had written,
// which nothing else removes), with its size. With remove (fixtures
// generate, about to write dir) it removes each not written to for a
// minute; a newer one may be another run's, writing now, and is left
// alone.
func SweepTemps(w io.Writer, cmd, dir string, remove bool) {
	temps, err := fixtures.TempFiles(dir)
	if err != nil {
		fmt.Fprintf(w, "atmkit: %s: %v\n", cmd, err)
	}
	for _, p := range temps {
		st, err := os.Stat(p)
		if err != nil {
			continue // gone meanwhile: renamed by a run that finished
		}
		size := Size(st.Size())
		if remove && time.Since(st.ModTime()) >= staleTemp {
			if err = os.Remove(p); err == nil {
				fmt.Fprintf(w, "atmkit: %s: removed %s (%s), left by an earlier run killed while writing\n", cmd, p, size)
				continue
			}
		}
		fmt.Fprintf(w, "atmkit: %s: %s (%s) is the temporary file of a run writing %s, or left by one killed while writing; remove it if none is running\n", cmd, p, size, dir)
	}
}

// NoATMsNote says on w (fixtures check's stderr) that the valid data set
// in dir holds no ATMs, when atms is 0: valid, as a deployment's empty
// table is, but likely not meant.
func NoATMsNote(w io.Writer, dir string, atms int) {
	if atms == 0 {
		fmt.Fprintf(w, "atmkit fixtures check: note: %s holds no ATMs: served, every ATM search answers an empty list\n",
			filepath.Join(dir, fixtures.ATMsFile))
	}
}

// Size writes a file's size n in B, KB, MB or GB (powers of 1000, as
// bench's report and the docs write sizes; one decimal from a kilobyte).
func Size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
