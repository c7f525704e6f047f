package asmx

import (
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"
)

// DefaultServiceName is the service's name atmkit uses unless told
// otherwise. The interface document never names the service's class;
// ASMX names the WSDL's service, its portTypes and bindings
// ({name}Soap, {name}Soap12, {name}HttpGet, {name}HttpPost), the disco
// document's bindings and the help pages after it (the class, or its
// [WebService(Name=...)]), and the service's own stack frames are in it.
const DefaultServiceName = "AtmService"

// escapedRE matches what .NET's XmlConvert.EncodeLocalName escapes in a
// name that is an NCName already: an underscore before xHHHH_ or
// xHHHHHHHH_, which it writes as _x005F_.
var escapedRE = regexp.MustCompile(`_[xX]([0-9a-fA-F]{4}|[0-9a-fA-F]{8})_`)

// CheckServiceName reports whether name can be the service's name: what
// ASMX writes in the WSDL unchanged (ServiceDescriptionReflector passes the
// name through XmlConvert.EncodeLocalName): an NCName (a letter or '_',
// then letters, digits, '_', '-' or '.'; no ':') holding no _xHHHH_, which
// the encoding would escape. A C# class name is one. The error wraps the
// problem alone, without the name.
func CheckServiceName(name string) error {
	if name == "" {
		return fmt.Errorf("service name: %w", errors.New("empty; want the service class's name, such as "+DefaultServiceName+" or Service"))
	}
	for i, r := range name {
		where := "be in"
		if i == 0 {
			where = "begin"
		}
		if r == utf8.RuneError || (i == 0 && !isNCNameStart(r)) || (i > 0 && !isNCNameChar(r)) {
			return fmt.Errorf("service name %q: %w", name, fmt.Errorf("%q cannot %s an XML name without a colon (NCName), as the WSDL's service name is; want the service class's name, such as %s or Service", r, where, DefaultServiceName))
		}
	}
	if m := escapedRE.FindString(name); m != "" {
		return fmt.Errorf("service name %q: %w", name, fmt.Errorf("holds %s, which ASMX's WSDL writes escaped (_x005F_%s); want a name without it", m, m[1:]))
	}
	return nil
}
