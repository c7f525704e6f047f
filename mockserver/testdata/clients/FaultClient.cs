// Calls the atmkit mock through an ASMX client proxy (the SOAP client class
// Mono's wsdl tool generated from the mock's WSDL, in namespace Proxy) with a
// timeout, to show how each injected fault reaches an app: the exception the
// proxy's method throws.
//
// Usage: mono client.exe SERVICE_URL TIMEOUT_MS < CALLS
// Each line of CALLS is an operation name and its parameters, separated by
// tabs: ReturnAtmSearchByCity<TAB>strAtmServiceKey=k<TAB>intCityID=11. Each
// is called once over SOAP 1.1 with the proxy's Timeout at TIMEOUT_MS.
// Prints one JSON list with, per call, {"op", "ok", "ms", "class",
// "message", "code", "status", "causes"}: the exception's class (namespace
// and name) and message, a WebException's Status and the HTTP status of its
// Response, and its inner exceptions ("class: message" each, outermost
// first).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Reflection;
using System.Text;
using System.Web.Services.Protocols;

public static class FaultClient
{
    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: client.exe SERVICE_URL TIMEOUT_MS < CALLS");
            return 2;
        }
        SoapHttpClientProtocol proxy = null;
        foreach (Type t in typeof(FaultClient).Assembly.GetTypes())
            if (t.Namespace == "Proxy" && typeof(SoapHttpClientProtocol).IsAssignableFrom(t))
                proxy = (SoapHttpClientProtocol)Activator.CreateInstance(t);
        if (proxy == null)
        {
            Console.Error.WriteLine("no SOAP client class in the proxy");
            return 2;
        }
        proxy.Url = args[0];
        proxy.Timeout = int.Parse(args[1], CultureInfo.InvariantCulture);
        var results = new List<string>();
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Trim().Length == 0)
                continue;
            string[] parts = line.Split('\t');
            string op = parts[0];
            var values = new Dictionary<string, string>();
            for (int i = 1; i < parts.Length; i++)
            {
                int eq = parts[i].IndexOf('=');
                values[parts[i].Substring(0, eq)] = parts[i].Substring(eq + 1);
            }
            var sb = new StringBuilder("{\"op\":").Append(Str(op));
            var watch = Stopwatch.StartNew();
            try
            {
                MethodInfo m = proxy.GetType().GetMethod(op);
                ParameterInfo[] ps = m.GetParameters();
                var argv = new object[ps.Length];
                for (int i = 0; i < ps.Length; i++)
                    argv[i] = Convert.ChangeType(values[ps[i].Name], ps[i].ParameterType, CultureInfo.InvariantCulture);
                m.Invoke(proxy, argv);
                sb.Append(",\"ok\":true,\"ms\":").Append(watch.ElapsedMilliseconds);
            }
            catch (Exception e)
            {
                Exception ex = e is TargetInvocationException && e.InnerException != null ? e.InnerException : e;
                sb.Append(",\"ok\":false,\"ms\":").Append(watch.ElapsedMilliseconds);
                sb.Append(",\"class\":").Append(Str(ex.GetType().FullName));
                sb.Append(",\"message\":").Append(Str(ex.Message));
                var we = ex as WebException;
                if (we != null)
                {
                    sb.Append(",\"code\":").Append(Str(we.Status.ToString()));
                    var hr = we.Response as HttpWebResponse;
                    if (hr != null)
                        sb.Append(",\"status\":").Append((int)hr.StatusCode);
                }
                sb.Append(",\"causes\":[");
                bool first = true;
                for (Exception i = ex.InnerException; i != null; i = i.InnerException)
                {
                    if (!first)
                        sb.Append(',');
                    first = false;
                    sb.Append(Str(i.GetType().FullName + ": " + i.Message));
                }
                sb.Append(']');
            }
            results.Add(sb.Append('}').ToString());
        }
        Console.Out.WriteLine("[" + string.Join(",", results) + "]");
        return 0;
    }

    // Str is s as a JSON string.
    static string Str(string s)
    {
        if (s == null)
            return "null";
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\')
                sb.Append('\\').Append(c);
            else if (c < 0x20)
                sb.AppendFormat(CultureInfo.InvariantCulture, "\\u{0:x4}", (int)c);
            else
                sb.Append(c);
        }
        return sb.Append('"').ToString();
    }
}
