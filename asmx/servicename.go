package asmx

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// DefaultServiceName is the service's name atmkit uses unless told
// otherwise. The interface document never names the service's class;
// ASMX names the WSDL's service, its portTypes and bindings
// ({name}Soap, {name}Soap12, {name}HttpGet, {name}HttpPost), the disco
// document's bindings and the help pages after it (the class, or its
// [WebService(Name=...)]), and the service's own stack frames are in it.
const DefaultServiceName = "AtmService"

// CheckServiceName reports whether name can be the service's name as a
// WSDL of ASMX writes it: an NCName (a letter or '_', then letters, digits,
// '_', '-' or '.'; no ':'). ASMX passes the class's name, or its
// [WebService(Name=...)], through XmlConvert.EncodeLocalName, which
// writes any other character as _xHHHH_ (a space: My_x0020_Service), so
// every ASMX WSDL's service name is one, as is every C# class name. The
// error wraps the problem alone, without the name.
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
	return nil
}
