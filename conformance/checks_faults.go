package conformance

import "fmt"

// wrongKey is a key no deployment should accept.
const wrongKey = "atmkit-conformance-not-a-key"

// probeValues are parameters for requests that must fail before any search
// happens; they do not depend on discovery.
func probeValues(op string) map[string]string {
	switch op {
	case opByCoords:
		return map[string]string{pPostalCode: "", pLatitude: "45", pLongitude: "-63", pRadius: "1"}
	case opByAddress:
		return map[string]string{pAddress: "", pCity: "", pProvince: "", pPostalCode: "", pRadius: "1"}
	}
	return nil
}

func soapActionChecks() []Check {
	type row struct{ name, desc, action string }
	rows := []row{
		{"unknown", "an unknown SOAPAction is refused with a SOAP 1.1 Client fault", "ReturnNothing"},
		{"other-operation", "another operation's SOAPAction is refused with a SOAP 1.1 fault", opInsts},
		{"empty", "an empty SOAPAction is refused with a SOAP 1.1 Client fault", ""},
	}
	var cs []Check
	for _, r := range rows {
		cs = append(cs, Check{
			Name:        "soapaction/" + r.name,
			Group:       "SOAPAction",
			Description: r.desc,
			Labels:      []string{"soap11", "asmx", "faults"},
			Run: func(s *Session, _ Notef) error {
				ns, err := s.Namespace()
				if err != nil {
					return err
				}
				action := `""`
				if r.action != "" {
					action = `"` + ns + "/" + r.action + `"`
				}
				x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, Action: action})
				if err != nil {
					return err
				}
				what := fmt.Sprintf("ReturnProvinces over soap11 with SOAPAction %s", action)
				if r.name == "other-operation" {
					return checkFault(x, what)
				}
				return checkFault(x, what, "Client")
			},
		})
	}
	return cs
}

func faultChecks() []Check {
	cs := []Check{{
		Name:        "fault/soap11/version-mismatch",
		Group:       "faults",
		Description: "a SOAP 1.2 envelope sent as SOAP 1.1 (text/xml) is refused with a SOAP 1.1 VersionMismatch fault",
		Labels:      []string{"soap11", "asmx", "faults"},
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, EnvelopeNS: soap12EnvNS})
			if err != nil {
				return err
			}
			return checkFault(x, "ReturnProvinces over soap11 in a SOAP 1.2 envelope", "VersionMismatch")
		},
	}}
	all := []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost, JSON}
	for _, b := range all {
		op := opProvinces
		if b == JSON {
			op = opByCoords
		}
		for _, k := range []struct{ name, key string }{{"wrong-key", wrongKey}, {"empty-key", ""}} {
			cs = append(cs, Check{
				Name:        fmt.Sprintf("fault/%s/%s", b, k.name),
				Group:       "faults",
				Description: fmt.Sprintf("%s over %s with %s is refused in the binding's error form", op, b, map[string]string{"wrong-key": "a key the target does not accept", "empty-key": "an empty key"}[k.name]),
				Labels:      []string{string(b), "asmx", "faults", "keys"},
				Run: func(s *Session, _ Notef) error {
					vals := probeValues(op)
					if vals == nil {
						vals = map[string]string{}
					}
					vals[pKey] = k.key
					x, err := s.Do(Request{Binding: b, Op: op, Values: vals})
					if err != nil {
						return err
					}
					return checkFault(x, fmt.Sprintf("%s over %s with key %q", op, b, k.key))
				},
			})
		}
		if b == JSON {
			continue
		}
		code := map[Binding]string{SOAP11: "Client", SOAP12: "Sender"}[b]
		cs = append(cs, Check{
			Name:        fmt.Sprintf("fault/%s/unknown-operation", b),
			Group:       "faults",
			Description: fmt.Sprintf("an unknown operation over %s is refused in the binding's error form", b),
			Labels:      []string{string(b), "asmx", "faults"},
			Run: func(s *Session, _ Notef) error {
				x, err := s.Do(Request{Binding: b, Op: "ReturnNothing"})
				if err != nil {
					return err
				}
				if code == "" {
					return checkFault(x, "ReturnNothing over "+string(b))
				}
				return checkFault(x, "ReturnNothing over "+string(b), code)
			},
		})
	}
	return cs
}
