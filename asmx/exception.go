package asmx

import (
	"strings"

	"github.com/atmkit/atmkit/internal/wire"
)

// Exception is a .NET exception as ASMX reports it: the text of a SOAP fault
// and of a GET/POST error is made from one (ServerProtocol.GenerateFaultString).
type Exception struct {
	// Type is the exception's full .NET type name, e.g.
	// "System.InvalidOperationException".
	Type string
	// Message is the exception's message. For an ArgumentException with a
	// parameter name it ends with "\r\nParameter name: {name}", as .NET
	// Framework's ArgumentException.Message does.
	Message string
	// Stack is the stack trace, innermost frame first, each frame without
	// the "   at " .NET puts before it ("System.Byte.Parse(String s, …)").
	Stack []string
	// Inner is the exception this one wraps, or nil.
	Inner *Exception
}

// .NET type names of the exceptions ASMX reports.
const (
	typeSoapException          = "System.Web.Services.Protocols.SoapException"
	typeSoapHeaderException    = "System.Web.Services.Protocols.SoapHeaderException"
	typeInvalidOperation       = "System.InvalidOperationException"
	typeArgument               = "System.ArgumentException"
	typeArgumentOutOfRange     = "System.ArgumentOutOfRangeException"
	typeFormat                 = "System.FormatException"
	typeOverflow               = "System.OverflowException"
	typeXML                    = "System.Xml.XmlException"
	typeException              = "System.Exception"
	typeHTTPException          = "System.Web.HttpException"
	typeRequestValidation      = "System.Web.HttpRequestValidationException"
	typeNullReference          = "System.NullReferenceException"
	stackTraceEnd              = "--- End of inner exception stack trace ---"
	crlf                       = "\r\n"
	parameterNameLine          = crlf + "Parameter name: "
	frameWebServiceHandlerCore = "System.Web.Services.Protocols.WebServiceHandler.CoreProcessRequest()"
)

// remoteText is the text GenerateFaultString gives a remote caller of a
// default deployment (customErrors RemoteOnly, or On): the messages of the
// chain joined by " ---> ", no type names, no stack traces. An empty message is
// replaced by the outer exception's short type name, as .NET does. html
// encodes each message as the HTTP GET and POST protocols do.
func (x *Exception) remoteText(html bool) string {
	var b strings.Builder
	for in := x; in != nil; in = in.Inner {
		text := in.Message
		if html {
			text = htmlEncode(text)
		}
		if text == "" {
			text = shortType(x.Type)
		}
		b.WriteString(text)
		if in.Inner != nil {
			b.WriteString(" ---> ")
		}
	}
	return b.String()
}

// detailedText is the text a caller on the server itself (or any caller
// with customErrors Off) gets: Exception.ToString() for SOAP faults, the same
// layout with HTML-encoded messages for HTTP GET and POST.
func (x *Exception) detailedText(html bool) string {
	var b strings.Builder
	x.writeDetailed(&b, html)
	return b.String()
}

func (x *Exception) writeDetailed(b *strings.Builder, html bool) {
	b.WriteString(x.Type)
	if isExternalException(x.Type) {
		// ExternalException.ToString writes the HRESULT after the type
		// name: E_FAIL, which HttpException keeps unless given another.
		b.WriteString(" (0x80004005)")
	}
	if x.Message != "" {
		b.WriteString(": ")
		if html {
			b.WriteString(htmlEncode(x.Message))
		} else {
			b.WriteString(x.Message)
		}
	}
	if x.Inner != nil {
		b.WriteString(" ---> ")
		x.Inner.writeDetailed(b, html)
		b.WriteString(crlf + "   " + stackTraceEnd)
	}
	if len(x.Stack) > 0 {
		b.WriteString(crlf)
		b.WriteString(x.stackTrace())
	}
}

// isExternalException reports whether exceptions of type typ derive from
// System.Runtime.InteropServices.ExternalException, whose ToString names
// the HRESULT: ASP.NET's HttpException and those derived from it.
func isExternalException(typ string) bool {
	return typ == typeHTTPException || typ == typeRequestValidation
}

// stackTrace is the exception's own stack trace as .NET's
// Exception.StackTrace writes it: "   at {frame}" lines.
func (x *Exception) stackTrace() string {
	var b strings.Builder
	for i, f := range x.Stack {
		if i > 0 {
			b.WriteString(crlf)
		}
		b.WriteString("   at ")
		b.WriteString(f)
	}
	return b.String()
}

// shortType is a type's name without its namespace (Type.Name).
func shortType(full string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return full[i+1:]
	}
	return full
}

// htmlEncode encodes s as ASP.NET's HttpUtility.HtmlEncode does
// (wire.HTMLEncode).
func htmlEncode(s string) string { return wire.HTMLEncode(s) }

// argumentMessage is an ArgumentException's message with its parameter
// name, as .NET Framework writes it.
func argumentMessage(msg, param string) string {
	return msg + parameterNameLine + param
}

// Stack frames of ASMX's own code paths, for the detailed form. They follow
// the call chains of System.Web.Services as the reference source has them.
var (
	framesSOAPInit = []string{
		"System.Web.Services.Protocols.SoapServerProtocol.Initialize()",
		"System.Web.Services.Protocols.ServerProtocol.SetContext(Type type, HttpContext context, HttpRequest request, HttpResponse response)",
		"System.Web.Services.Protocols.ServerProtocolFactory.Create(Type type, HttpContext context, HttpRequest request, HttpResponse response, Boolean& abortProcessing)",
	}
	framesSOAPRead = []string{
		"System.Web.Services.Protocols.SoapServerProtocol.ReadParameters()",
		frameWebServiceHandlerCore,
	}
	framesGetEncoding = []string{
		"System.Globalization.EncodingTable.internalGetCodePageFromName(String name)",
		"System.Globalization.EncodingTable.GetCodePageFromName(String name)",
		"System.Text.Encoding.GetEncoding(String name)",
		"System.Xml.XmlTextReaderImpl.CheckEncoding(String newEncodingName)",
	}
	framesXMLReader = []string{
		"System.Xml.XmlTextReaderImpl.Throw(Exception e)",
		"System.Xml.XmlTextReaderImpl.ParseDocumentContent()",
		"System.Xml.XmlTextReaderImpl.Read()",
		"System.Xml.XmlTextReader.Read()",
		"System.Xml.XmlReader.MoveToContent()",
	}
	framesDeserialize = []string{
		"System.Xml.Serialization.XmlSerializer.Deserialize(XmlReader xmlReader, String encodingStyle, XmlDeserializationEvents events)",
		"System.Xml.Serialization.XmlSerializer.Deserialize(XmlReader xmlReader, String encodingStyle)",
	}
)

// concat joins frame lists into a new slice.
func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// httpReaderFrames are the frames of the HTTP GET or POST parameter reader.
func httpReaderFrames(b Binding) []string {
	reader := "System.Web.Services.Protocols.UrlParameterReader.Read(HttpRequest request)"
	if b == HTTPPost {
		reader = "System.Web.Services.Protocols.HtmlFormParameterReader.Read(HttpRequest request)"
	}
	return []string{
		"System.Web.Services.Protocols.ValueCollectionParameterReader.Read(NameValueCollection collection)",
		reader,
		"System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()",
		frameWebServiceHandlerCore,
	}
}

// serviceFrames are the frames of the service's own method, for an error
// the service throws: the class is named after the service
// (DefaultServiceName, the WSDL's service name; ErrorForm.Service renames
// it as the error is written), the method after the operation.
func serviceFrames(op *Operation) []string {
	if op == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString(DefaultServiceName + ".")
	b.WriteString(op.Name)
	b.WriteByte('(')
	for i, p := range op.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(shortType(p.Type.dotNet()))
		b.WriteByte(' ')
		b.WriteString(p.Name)
	}
	b.WriteByte(')')
	return []string{b.String()}
}

// HTMLEncode encodes s as ASP.NET's HttpUtility.HtmlEncode does, as ASMX's
// HTTP GET and POST error bodies hold their messages.
func HTMLEncode(s string) string { return htmlEncode(s) }

// inService returns a copy of x whose frames in the service's own class
// (DefaultServiceName) are in the class named name instead; x is not
// changed.
func (x *Exception) inService(name string) *Exception {
	if x == nil {
		return nil
	}
	c := *x
	c.Stack = make([]string, len(x.Stack))
	for i, f := range x.Stack {
		if rest, ok := strings.CutPrefix(f, DefaultServiceName+"."); ok {
			f = name + "." + rest
		}
		c.Stack[i] = f
	}
	c.Inner = x.Inner.inService(name)
	return &c
}
