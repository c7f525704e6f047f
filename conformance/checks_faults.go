package conformance

import (
	"bytes"
	"fmt"
	"net/http"
)

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
		{"other-operation", "a body element other than the SOAPAction's operation is read leniently: that operation answers, with its fault for the key it did not get", opInsts},
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
					action = `"` + soapAction(ns, r.action) + `"`
				}
				x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, Action: action})
				if err != nil {
					return err
				}
				what := fmt.Sprintf("ReturnProvinces over soap11 with SOAPAction %s", action)
				if r.name == "other-operation" {
					// ASMX routes by the action and reads the body leniently
					// (soapEnvelopeProcessing is not strict by default): the
					// parameters it does not find keep their defaults, so
					// ReturnInstitutions runs without a key.
					return checkServiceFault(x, what)
				}
				return checkFault(x, what, "Client")
			},
		})
	}
	return cs
}

// notAnEnvelopeNS is an envelope namespace of neither SOAP version.
const notAnEnvelopeNS = "urn:atmkit:not-a-soap-envelope"

// routingChecks check how ASMX picks the SOAP version and the operation
// (SoapServerProtocol): it guesses a helper from the SOAPAction header and
// the content type, routes with it, then takes the version from the
// envelope's namespace.
func routingChecks() []Check {
	const group = "SOAP version and routing"
	labels := []string{"soap11", "soap12", "asmx", "routing"}
	return []Check{{
		Name:        "routing/soap12-envelope-as-text-xml",
		Group:       group,
		Description: "a SOAP 1.2 envelope sent as text/xml with a SOAPAction is answered as SOAP 1.2 (200, application/soap+xml), the version being the envelope's",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			return sameResultIn(s, SOAP12, func(string) Request {
				return Request{Binding: SOAP11, Op: opProvinces, EnvelopeNS: soap12EnvNS}
			}, "ReturnProvinces in a SOAP 1.2 envelope sent as text/xml", "the result of the same call sent as application/soap+xml")
		},
	}, {
		Name:        "routing/soap11-envelope-as-soap12",
		Group:       group,
		Description: "a SOAP 1.1 envelope sent as application/soap+xml is refused with HTTP 415 and no body (a Client fault with the UnsupportedMediaType subcode, which ASMX writes without a body)",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP12, Op: opProvinces, EnvelopeNS: soap11EnvNS})
			if err != nil {
				return err
			}
			return checkEmptyStatus(x, "ReturnProvinces in a SOAP 1.1 envelope sent as application/soap+xml", http.StatusUnsupportedMediaType)
		},
	}, {
		Name:        "routing/unknown-envelope-namespace",
		Group:       group,
		Description: "an envelope namespace of neither SOAP version, sent as text/xml, is refused with a SOAP 1.1 VersionMismatch fault",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, EnvelopeNS: notAnEnvelopeNS})
			if err != nil {
				return err
			}
			return checkFaultIn(x, SOAP11, "ReturnProvinces in an envelope of namespace "+notAnEnvelopeNS, "VersionMismatch")
		},
	}, {
		Name:        "routing/unknown-envelope-namespace-as-soap12",
		Group:       group,
		Description: "an envelope namespace of neither SOAP version, sent as application/soap+xml, is refused with a SOAP 1.1 VersionMismatch fault (ASMX answers an unknown version in 1.1 when it serves both)",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP12, Op: opProvinces, EnvelopeNS: notAnEnvelopeNS})
			if err != nil {
				return err
			}
			return checkFaultIn(x, SOAP11, "ReturnProvinces in an envelope of namespace "+notAnEnvelopeNS+" sent as application/soap+xml", "VersionMismatch")
		},
	}, {
		Name:        "routing/soap11-without-soapaction",
		Group:       group,
		Description: "a SOAP 1.1 call without a SOAPAction header is routed by its body element and answered as SOAP 1.1",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			return sameResult(s, func(string) Request {
				return Request{Binding: SOAP11, Op: opProvinces, NoAction: true}
			}, "ReturnProvinces over soap11 without SOAPAction", "the result of the same call with its SOAPAction")
		},
	}, {
		Name:        "routing/soap11-without-soapaction-unknown-element",
		Group:       group,
		Description: "a SOAP 1.1 call without a SOAPAction header whose body element is no operation is refused with a SOAP 1.1 Client fault",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP11, Op: "ReturnNothing", NoAction: true})
			if err != nil {
				return err
			}
			return checkFault(x, "ReturnNothing over soap11 without SOAPAction", "Client")
		},
	}, {
		Name:        "routing/parameters-in-any-order",
		Group:       group,
		Description: "a SOAP 1.1 call with its parameters in the reverse of the document's order gives the same result (ASMX reads them by name, in any order)",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			f, err := s.Facts()
			if err != nil {
				return err
			}
			return sameResult(s, func(string) Request {
				return Request{Binding: SOAP11, Op: opByAddress, Values: f.Values(opByAddress), Reversed: true}
			}, "ReturnAtmSearchByAddress over soap11 with its parameters in reverse order",
				"the result of the same call with them in the document's order (ASMX matches parameters by name)")
		},
	}, {
		Name:        "routing/soapaction-unquoted",
		Group:       group,
		Description: "a SOAPAction sent without its quotes routes the call as the quoted one (ASMX strips the quotes)",
		Labels:      []string{"soap11", "asmx", "routing"},
		Run: func(s *Session, _ Notef) error {
			return sameResult(s, func(ns string) Request {
				return Request{Binding: SOAP11, Op: opProvinces, Action: soapAction(ns, opProvinces)}
			}, "ReturnProvinces over soap11 with an unquoted SOAPAction", "the result of the same call with the SOAPAction quoted")
		},
	}, {
		Name:        "routing/soap12-action-parameter",
		Group:       group,
		Description: "a SOAP 1.2 call whose content type carries the action parameter (as .NET's and WCF's clients send it) is answered as one without it",
		Labels:      []string{"soap12", "asmx", "routing"},
		Run: func(s *Session, _ Notef) error {
			return sameResult(s, func(ns string) Request {
				return Request{Binding: SOAP12, Op: opProvinces, ContentType: ctSOAP12 + `; action="` + soapAction(ns, opProvinces) + `"`}
			}, "ReturnProvinces over soap12 with the action parameter", "the result of the same call without it")
		},
	}, {
		Name:        "routing/soap12-unknown-action",
		Group:       group,
		Description: "a SOAP 1.2 call whose action parameter names no operation is routed by its body element and answered (ASMX's SOAP 1.2 routing tries the action, then the request element)",
		Labels:      []string{"soap12", "asmx", "routing"},
		Run: func(s *Session, _ Notef) error {
			return sameResult(s, func(ns string) Request {
				return Request{Binding: SOAP12, Op: opProvinces, ContentType: ctSOAP12 + `; action="` + soapAction(ns, "ReturnNothing") + `"`}
			}, "ReturnProvinces over soap12 with an action parameter naming no operation", "the result of the same call without it")
		},
	}, {
		Name:        "routing/soap12-unknown-action-unknown-element",
		Group:       group,
		Description: "a SOAP 1.2 call whose action parameter and body element both name no operation is refused with a SOAP 1.2 Sender fault",
		Labels:      []string{"soap12", "asmx", "routing", "faults"},
		Run: func(s *Session, _ Notef) error {
			ns, err := s.Namespace()
			if err != nil {
				return err
			}
			x, err := s.Do(Request{Binding: SOAP12, Op: "ReturnNothing", ContentType: ctSOAP12 + `; action="` + soapAction(ns, "ReturnNothing") + `"`})
			if err != nil {
				return err
			}
			return checkFault(x, "ReturnNothing over soap12 with the action parameter naming it", "Sender")
		},
	}, {
		Name:        "routing/post-charset-parameter",
		Group:       group,
		Description: "an HTTP POST call whose form content type carries a charset parameter (" + ctForm + "; charset=utf-8, as some HTTP stacks send it) gives the same result as one without (ASMX compares the content type's base)",
		Labels:      []string{"post", "asmx", "routing"},
		Run: func(s *Session, _ Notef) error {
			return sameResult(s, func(string) Request {
				return Request{Binding: HTTPPost, Op: opProvinces, ContentType: ctForm + "; charset=utf-8"}
			}, "ReturnProvinces over post with a charset parameter", "the result of the same call without it")
		},
	}, {
		Name:        "routing/doctype",
		Group:       group,
		Description: "a SOAP request with a DOCTYPE is unreadable to ASMX (DTDs are prohibited): HTTP 400 with no body",
		Labels:      labels,
		Run: func(s *Session, _ Notef) error {
			x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, Prolog: "<!DOCTYPE soap:Envelope []>"})
			if err != nil {
				return err
			}
			return checkEmptyStatus(x, "ReturnProvinces over soap11 with a DOCTYPE", http.StatusBadRequest)
		},
	}}
}

// paramOrderChecks check, in the bindings but SOAP 1.1 (whose spec is
// routing/parameters-in-any-order), that parameters are read by name: SOAP
// 1.2 by the XmlSerializer that reads SOAP 1.1, HTTP GET and POST by
// ValueCollectionParameterReader, which looks each parameter up by name in
// the query or the form. A deployment reading them by position answers
// another search.
func paramOrderChecks() []Check {
	var cs []Check
	for _, b := range []Binding{SOAP12, HTTPGet, HTTPPost} {
		cs = append(cs, Check{
			Name:        "routing/" + string(b) + "-parameters-in-any-order",
			Group:       "SOAP version and routing",
			Description: "a " + string(b) + " call with its parameters in the reverse of the document's order gives the same result (ASMX reads them by name, in any order)",
			Labels:      []string{string(b), "asmx", "routing"},
			Run: func(s *Session, _ Notef) error {
				f, err := s.Facts()
				if err != nil {
					return err
				}
				return sameResult(s, func(string) Request {
					return Request{Binding: b, Op: opByAddress, Values: f.Values(opByAddress), Reversed: true}
				}, "ReturnAtmSearchByAddress over "+string(b)+" with its parameters in reverse order",
					"the result of the same call with them in the document's order (ASMX matches parameters by name)")
			},
		})
	}
	return cs
}

// checkEmptyStatus checks that x was answered with status and no body, as
// ASMX answers a SOAP fault whose status is not 500.
func checkEmptyStatus(x *Exchange, what string, status int) error {
	if x.Status != status {
		return fail(x, what+": status", fmt.Sprintf("%d with no body", status), "%s", answered(x))
	}
	if len(bytes.TrimSpace(x.RespBody)) > 0 {
		return fail(x, what+": body", fmt.Sprintf("none (ASMX writes no fault with a %d)", status), "%s", snippet(x.RespBody, x.masks()...))
	}
	return nil
}

func faultChecks() []Check {
	var cs []Check
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
				Description: fmt.Sprintf("%s over %s with %s is refused in a form ASMX gives the service's own errors", op, b, map[string]string{"wrong-key": "a key the target does not accept", "empty-key": "an empty key"}[k.name]),
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
					return checkServiceFault(x, fmt.Sprintf("%s over %s with key %q", op, b, k.key))
				},
			})
		}
		if b == JSON {
			continue
		}
		cs = append(cs, Check{
			Name:        fmt.Sprintf("fault/%s/radius-out-of-range", b),
			Group:       "faults",
			Description: fmt.Sprintf("ReturnAtmSearchByCoordinates over %s with bytRadius 256 (not an unsignedByte) is refused in a form ASMX gives a value that does not convert", b),
			Labels:      []string{string(b), "asmx", "faults", "validation"},
			Run: func(s *Session, _ Notef) error {
				vals := probeValues(opByCoords)
				vals[pRadius] = "256"
				x, err := s.Do(Request{Binding: b, Op: opByCoords, Values: vals})
				if err != nil {
					return err
				}
				return checkServiceFault(x, "ReturnAtmSearchByCoordinates over "+string(b)+" with bytRadius 256")
			},
		})
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

// sameResult asks the request build makes (given the service namespace)
// and fails unless its result is the one the plain call of its binding and
// operation gets; what names the request, expected says why it must be so.
func sameResult(s *Session, build func(ns string) Request, what, expected string) error {
	return sameResultIn(s, "", build, what, expected)
}

// sameResultIn is sameResult for a request answered in binding in (its
// own binding when in is ""): its result must be the plain call's in in.
func sameResultIn(s *Session, in Binding, build func(ns string) Request, what, expected string) error {
	ns, err := s.Namespace()
	if err != nil {
		return err
	}
	req := build(ns)
	if in == "" {
		in = req.Binding
	}
	x, err := s.Do(req)
	if err != nil {
		return err
	}
	w, err := resultIn(x, in, ns)
	if err != nil {
		return err
	}
	ref, err := s.result(in, req.Op)
	if err != nil {
		return err
	}
	if d := diffContent(ref.Root, w); d != "" {
		return &Failure{What: what, Expected: expected, Got: "they differ " + d, Exchanges: []*Exchange{x, ref.X}}
	}
	return nil
}
