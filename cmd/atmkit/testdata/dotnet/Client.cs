// A .NET client of the ATM Location Lookup Service, as an app team writes
// one: it calls the service through a proxy that Mono's wsdl tool
// generated from a deployment's WSDL (its SOAP client class in namespace Proxy)
// and prints what the proxy read, as JSON built by reflection over the
// proxy's own types, so that a test can compare it with the data served.
//
// An enum's value is printed as XmlSerializer writes it: its XmlEnum name.
//
// A DataSet result is printed as what the client reads of it: its name and
// namespace, each table with its columns (name, .NET type, mapping, MaxLength) and
// rows (their values, and the rows of their child tables by relation, as
// indexes in the child table), and its relations.
//
// Usage: mono client.exe SERVICE_URL soap11|soap12 < CALLS
// Each line of CALLS is an operation name and its parameters, separated
// by tabs: ReturnAtmSearchByCity<TAB>strAtmServiceKey=k<TAB>intCityID=11
// Each call prints one line: {"op":"...","result":...} or {"op":"...","error":"..."}.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Data;
using System.Globalization;
using System.Reflection;
using System.Text;
using System.Web.Services.Protocols;
using System.Xml.Serialization;

public static class Client
{
    public static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: client.exe SERVICE_URL soap11|soap12 < CALLS");
            return 2;
        }
        // The proxy class is named after the deployment's service: the one
        // SOAP client class the wsdl tool generated.
        SoapHttpClientProtocol proxy = null;
        foreach (Type t in typeof(Client).Assembly.GetTypes())
            if (t.Namespace == "Proxy" && typeof(SoapHttpClientProtocol).IsAssignableFrom(t))
                proxy = (SoapHttpClientProtocol)Activator.CreateInstance(t);
        if (proxy == null)
        {
            Console.Error.WriteLine("no SOAP client class in the proxy");
            return 2;
        }
        proxy.Url = args[0];
        if (args[1] == "soap12")
            proxy.SoapVersion = SoapProtocolVersion.Soap12;
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
            try
            {
                MethodInfo m = proxy.GetType().GetMethod(op);
                ParameterInfo[] ps = m.GetParameters();
                var argv = new object[ps.Length];
                for (int i = 0; i < ps.Length; i++)
                    argv[i] = Convert.ChangeType(values[ps[i].Name], ps[i].ParameterType, CultureInfo.InvariantCulture);
                object result = m.Invoke(proxy, argv);
                sb.Append(",\"result\":");
                Json(sb, result);
            }
            catch (Exception e)
            {
                Exception inner = e is TargetInvocationException && e.InnerException != null ? e.InnerException : e;
                sb.Append(",\"error\":").Append(Str(inner.GetType().Name + ": " + inner.Message));
            }
            Console.Out.WriteLine(sb.Append('}').ToString());
        }
        return 0;
    }

    // Json writes what the proxy read: objects by their public properties
    // and fields (as the proxy named them), arrays as lists.
    static void Json(StringBuilder sb, object o)
    {
        if (o == null) { sb.Append("null"); return; }
        if (o is string) { sb.Append(Str((string)o)); return; }
        if (o is bool) { sb.Append((bool)o ? "true" : "false"); return; }
        if (o is double) { sb.Append(((double)o).ToString("R", CultureInfo.InvariantCulture)); return; }
        if (o is float) { sb.Append(((float)o).ToString("R", CultureInfo.InvariantCulture)); return; }
        if (o is decimal) { sb.Append(((decimal)o).ToString(CultureInfo.InvariantCulture)); return; }
        if (o is DateTime) { sb.Append(Str(((DateTime)o).ToString("s", CultureInfo.InvariantCulture))); return; }
        if (o.GetType().IsPrimitive) { sb.Append(Convert.ToString(o, CultureInfo.InvariantCulture)); return; }
        if (o is DBNull) { sb.Append("null"); return; }
        if (o is Enum) { sb.Append(Str(EnumName((Enum)o))); return; }
        if (o is DataSet) { DataSetJson(sb, (DataSet)o); return; }
        if (o is IEnumerable)
        {
            sb.Append('[');
            bool first = true;
            foreach (object x in (IEnumerable)o)
            {
                if (!first) sb.Append(',');
                first = false;
                Json(sb, x);
            }
            sb.Append(']');
            return;
        }
        sb.Append('{');
        bool firstField = true;
        foreach (PropertyInfo p in o.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (p.GetIndexParameters().Length > 0)
                continue;
            if (!firstField) sb.Append(',');
            firstField = false;
            sb.Append(Str(p.Name)).Append(':');
            Json(sb, p.GetValue(o, null));
        }
        foreach (FieldInfo f in o.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
        {
            if (!firstField) sb.Append(',');
            firstField = false;
            sb.Append(Str(f.Name)).Append(':');
            Json(sb, f.GetValue(o));
        }
        sb.Append('}');
    }

    static void DataSetJson(StringBuilder sb, DataSet ds)
    {
        sb.Append("{\"dataSetName\":").Append(Str(ds.DataSetName)).Append(",\"namespace\":").Append(Str(ds.Namespace)).Append(",\"tables\":[");
        for (int t = 0; t < ds.Tables.Count; t++)
        {
            DataTable table = ds.Tables[t];
            if (t > 0) sb.Append(',');
            sb.Append("{\"name\":").Append(Str(table.TableName)).Append(",\"columns\":[");
            for (int c = 0; c < table.Columns.Count; c++)
            {
                DataColumn col = table.Columns[c];
                if (c > 0) sb.Append(',');
                sb.Append("{\"name\":").Append(Str(col.ColumnName)).Append(",\"type\":").Append(Str(col.DataType.Name))
                  .Append(",\"mapping\":").Append(Str(col.ColumnMapping.ToString()))
                  .Append(",\"maxLength\":").Append(col.MaxLength).Append('}');
            }
            sb.Append("],\"rows\":[");
            for (int r = 0; r < table.Rows.Count; r++)
            {
                DataRow row = table.Rows[r];
                if (r > 0) sb.Append(',');
                sb.Append("{\"values\":{");
                for (int c = 0; c < table.Columns.Count; c++)
                {
                    if (c > 0) sb.Append(',');
                    sb.Append(Str(table.Columns[c].ColumnName)).Append(':');
                    Json(sb, row[c]);
                }
                sb.Append("},\"children\":{");
                for (int k = 0; k < table.ChildRelations.Count; k++)
                {
                    DataRelation rel = table.ChildRelations[k];
                    if (k > 0) sb.Append(',');
                    sb.Append(Str(rel.RelationName)).Append(":[");
                    DataRow[] kids = row.GetChildRows(rel);
                    for (int i = 0; i < kids.Length; i++)
                    {
                        if (i > 0) sb.Append(',');
                        sb.Append(rel.ChildTable.Rows.IndexOf(kids[i]));
                    }
                    sb.Append(']');
                }
                sb.Append("}}");
            }
            sb.Append("]}");
        }
        sb.Append("],\"relations\":[");
        for (int k = 0; k < ds.Relations.Count; k++)
        {
            DataRelation rel = ds.Relations[k];
            if (k > 0) sb.Append(',');
            sb.Append("{\"name\":").Append(Str(rel.RelationName)).Append(",\"parent\":").Append(Str(rel.ParentTable.TableName))
              .Append(",\"child\":").Append(Str(rel.ChildTable.TableName)).Append(",\"nested\":").Append(rel.Nested ? "true" : "false").Append('}');
        }
        sb.Append("]}");
    }

    // EnumName is the name XmlSerializer writes for an enum's value: its
    // XmlEnum name (the proxy's member names the WSDL's value otherwise).
    static string EnumName(Enum e)
    {
        FieldInfo f = e.GetType().GetField(e.ToString());
        if (f != null)
        {
            object[] a = f.GetCustomAttributes(typeof(XmlEnumAttribute), false);
            if (a.Length > 0 && ((XmlEnumAttribute)a[0]).Name != null)
                return ((XmlEnumAttribute)a[0]).Name;
        }
        return e.ToString();
    }

    static string Str(string s)
    {
        var b = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\') b.Append('\\').Append(c);
            else if (c < ' ') b.AppendFormat("\\u{0:x4}", (int)c);
            else b.Append(c);
        }
        return b.Append('"').ToString();
    }
}
