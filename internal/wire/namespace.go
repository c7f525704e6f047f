package wire

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// CheckNamespace reports whether ns can be a service namespace: an absolute
// URI (a scheme, then something), without spaces.
func CheckNamespace(ns string) error {
	u, err := url.Parse(ns)
	switch {
	case ns == "":
		return errors.New("namespace is empty: want an absolute URI such as http://tempuri.org/atmService")
	case strings.ContainsAny(ns, " \t\r\n"):
		return fmt.Errorf("namespace %q holds white space: want an absolute URI such as http://tempuri.org/atmService", ns)
	case err != nil || !u.IsAbs() || (u.Opaque == "" && u.Host == "" && u.Path == ""):
		return fmt.Errorf("namespace %q is not an absolute URI (want one such as http://tempuri.org/atmService)", ns)
	}
	return nil
}
