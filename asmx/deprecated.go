package asmx

// The error constructors were once named Err…, like sentinel errors;
// these names remain for code written against them.

// ErrMalformed returns NewMalformedError(detail).
//
// Deprecated: use NewMalformedError.
func ErrMalformed(detail string) *Error { return NewMalformedError(detail) }

// ErrUnsupportedMediaType returns NewUnsupportedMediaTypeError(b, ct).
//
// Deprecated: use NewUnsupportedMediaTypeError.
func ErrUnsupportedMediaType(b Binding, ct string) *Error { return NewUnsupportedMediaTypeError(b, ct) }

// ErrUnreadable returns NewUnreadableError(b, detail).
//
// Deprecated: use NewUnreadableError.
func ErrUnreadable(b Binding, detail string) *Error { return NewUnreadableError(b, detail) }

// ErrMethodNotAllowed returns NewMethodNotAllowedError(method).
//
// Deprecated: use NewMethodNotAllowedError.
func ErrMethodNotAllowed(method string) *Error { return NewMethodNotAllowedError(method) }

// ErrUnrecognizedRequest returns NewUnrecognizedRequestError(method, pathInfo).
//
// Deprecated: use NewUnrecognizedRequestError.
func ErrUnrecognizedRequest(method, pathInfo string) *Error {
	return NewUnrecognizedRequestError(method, pathInfo)
}

// ErrTooLarge returns NewTooLargeError(b, limit).
//
// Deprecated: use NewTooLargeError.
func ErrTooLarge(b Binding, limit int64) *Error { return NewTooLargeError(b, limit) }

// ErrUnknownAction returns NewUnknownActionError(action).
//
// Deprecated: use NewUnknownActionError.
func ErrUnknownAction(action string) *Error { return NewUnknownActionError(action) }

// ErrNoAction returns NewNoActionError(b, local, ns).
//
// Deprecated: use NewNoActionError.
func ErrNoAction(b Binding, local, ns string) *Error { return NewNoActionError(b, local, ns) }

// ErrActionNotRecognized returns NewActionNotRecognizedError(b, action).
//
// Deprecated: use NewActionNotRecognizedError.
func ErrActionNotRecognized(b Binding, action string) *Error {
	return NewActionNotRecognizedError(b, action)
}

// ErrRoutingFailed returns NewRoutingFailedError(b, inner).
//
// Deprecated: use NewRoutingFailedError.
func ErrRoutingFailed(b Binding, inner *Exception) *Error { return NewRoutingFailedError(b, inner) }

// ErrVersionMismatch returns NewVersionMismatchError(got).
//
// Deprecated: use NewVersionMismatchError.
func ErrVersionMismatch(got string) *Error { return NewVersionMismatchError(got) }

// ErrMissingElement returns NewMissingElementError(b, missingEnvelope).
//
// Deprecated: use NewMissingElementError.
func ErrMissingElement(b Binding, missingEnvelope bool) *Error {
	return NewMissingElementError(b, missingEnvelope)
}

// ErrMustUnderstand returns NewMustUnderstandError(b, header).
//
// Deprecated: use NewMustUnderstandError.
func ErrMustUnderstand(b Binding, header string) *Error { return NewMustUnderstandError(b, header) }

// ErrUnknownMethod returns NewUnknownMethodError(b, name).
//
// Deprecated: use NewUnknownMethodError.
func ErrUnknownMethod(b Binding, name string) *Error { return NewUnknownMethodError(b, name) }

// ErrMethodNameCase returns NewMethodNameCaseError(b, name, real).
//
// Deprecated: use NewMethodNameCaseError.
func ErrMethodNameCase(b Binding, name, real string) *Error {
	return NewMethodNameCaseError(b, name, real)
}

// ErrBadForm returns NewBadFormError(b, ct).
//
// Deprecated: use NewBadFormError.
func ErrBadForm(b Binding, ct string) *Error { return NewBadFormError(b, ct) }

// ErrMissingParam returns NewMissingParamError(b, name).
//
// Deprecated: use NewMissingParamError.
func ErrMissingParam(b Binding, name string) *Error { return NewMissingParamError(b, name) }

// ErrKeyMissing returns NewKeyMissingError(b, op).
//
// Deprecated: use NewKeyMissingError.
func ErrKeyMissing(b Binding, op *Operation) *Error { return NewKeyMissingError(b, op) }

// ErrKeyRejected returns NewKeyRejectedError(b, op).
//
// Deprecated: use NewKeyRejectedError.
func ErrKeyRejected(b Binding, op *Operation) *Error { return NewKeyRejectedError(b, op) }

// ErrServer returns NewServerError(b, msg).
//
// Deprecated: use NewServerError.
func ErrServer(b Binding, msg string) *Error { return NewServerError(b, msg) }

// ErrSoapException returns NewSoapExceptionError(code, msg).
//
// Deprecated: use NewSoapExceptionError.
func ErrSoapException(code FaultCode, msg string) *Error { return NewSoapExceptionError(code, msg) }

// ErrNoRecording returns NewNoRecordingError(c, nearest).
//
// Deprecated: use NewNoRecordingError.
func ErrNoRecording(c *Call, nearest string) *Error { return NewNoRecordingError(c, nearest) }

// ErrCannotReplay returns NewCannotReplayError(c, reason).
//
// Deprecated: use NewCannotReplayError.
func ErrCannotReplay(c *Call, reason string) *Error { return NewCannotReplayError(c, reason) }

// DecodeSOAP decodes a SOAP request of binding b as the SOAP 1.1 or 1.2
// content type would have it sent, for callers that know the binding but
// not the request's headers (recorded requests). action is the SOAPAction
// header (SOAP 1.1) or the content type's action parameter (SOAP 1.2), as
// sent; hasAction says whether one was sent at all.
//
// Deprecated: use DecodeSOAPRequest, which takes the request's content
// type and SOAPAction header as they were sent.
func DecodeSOAP(b Binding, ns, action string, hasAction bool, body []byte) (*Call, *Error) {
	r := SOAPRequest{Namespace: ns, ContentType: ContentTypeSOAP11, Action: action, HasAction: hasAction, Body: body}
	if b == SOAP12 {
		r.ContentType, r.Action, r.HasAction = ContentTypeSOAP12, "", false
		if hasAction {
			r.ContentType += `; action="` + action + `"`
		}
	}
	return DecodeSOAPRequest(r)
}
