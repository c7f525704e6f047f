package mockserver

import "errors"

func asErr(err error, target any) bool { return errors.As(err, target) }
