// A .NET client written as an app team writes one against a deployment
// whose service class is named Service: its code names the proxy class
// the wsdl tool generated, Proxy.Service, so it compiles only against a
// WSDL that names the service Service.
//
// Usage: mono client.exe SERVICE_URL KEY
// It calls ReturnProvinces over SOAP 1.1 and SOAP 1.2 and prints each
// result's XML.
using System;
using System.Web.Services.Protocols;
using System.Xml;

public static class NamedClient
{
    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: client.exe SERVICE_URL KEY");
            return 2;
        }
        foreach (SoapProtocolVersion v in new[] { SoapProtocolVersion.Soap11, SoapProtocolVersion.Soap12 })
        {
            Proxy.Service service = new Proxy.Service();
            service.Url = args[0];
            service.SoapVersion = v;
            object result = service.ReturnProvinces(args[1]);
            XmlNode node = result as XmlNode;
            Console.WriteLine(node != null ? node.OuterXml : Convert.ToString(result));
        }
        return 0;
    }
}
