// The service at /legacy/service/service.asmx: the eight operations of the
// interface document written the older way. The location searches return an
// XmlElement built by hand (the node is the only child of <OpResult>, and the
// GET/POST document's root), ReturnInstitutions a DataSet with a nested
// child table, ReturnProvinces an array of a class whose values sit in
// attributes and text. Refusals are plain exceptions, so ASMX answers them
// as "Server was unable to process request. ---> ..." with the Server code.
using System.Collections.Generic;
using System.Data;
using System.Linq;
using System.Web.Services;
using System.Xml;
using System.Xml.Serialization;

namespace AtmLegacy
{
    // Prov is a province: its code and capital in attributes, its name as text.
    [XmlType("Prov")]
    public class Prov
    {
        [XmlAttribute("abbr")]
        public string Abbr;
        [XmlAttribute("capital")]
        public string Capital;
        [XmlText]
        public string Name;
    }

    [WebService(Namespace = "http://legacy.atmref.example.org/atmService")]
    public class LegacyService : WebService
    {
        [WebMethod]
        public XmlElement ReturnAllAtms(string strAtmServiceKey)
        {
            Store.CheckKey(strAtmServiceKey);
            return Store.Node(Store.Tellers.OrderBy(t => t.Ref).ToList(), false, 0, 0);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Store.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Store.Locate(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Store.Node(new List<Teller>(), true, 0, 0);
            return Store.Node(Store.Within(lat, lon, bytRadius), true, lat, lon);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Store.CheckKey(strAtmServiceKey);
            return Store.Node(Store.Within(dblLatitude, dblLongitude, bytRadius), true, dblLatitude, dblLongitude);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Store.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Store.Locate(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Store.Node(new List<Teller>(), true, 0, 0);
            List<Teller> near = Store.Within(lat, lon, bytRadius);
            return Store.Node(near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), true, lat, lon);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Store.CheckKey(strAtmServiceKey);
            return Store.Node(Store.Tellers.Where(t => t.Lender == intInstitutionID).OrderBy(t => t.Ref).ToList(), false, 0, 0);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Store.CheckKey(strAtmServiceKey);
            return Store.Node(Store.Tellers.Where(t => t.CityId == intCityID).OrderBy(t => t.Ref).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnInstitutions(string strAtmServiceKey)
        {
            Store.CheckKey(strAtmServiceKey);
            var ds = new DataSet("Registry");
            DataTable lenders = ds.Tables.Add("Lender");
            lenders.Columns.Add("LenderNo", typeof(int));
            lenders.Columns.Add("LenderName", typeof(string));
            lenders.Columns.Add("Homepage", typeof(string));
            lenders.Columns.Add("CreditUnion", typeof(bool));
            DataTable branches = ds.Tables.Add("Branch");
            branches.Columns.Add("LenderNo", typeof(int));
            branches.Columns.Add("Town", typeof(string));
            branches.Columns.Add("Machines", typeof(int));
            ds.Relations.Add("LenderBranches", lenders.Columns["LenderNo"], branches.Columns["LenderNo"]).Nested = true;
            foreach (Lender l in Store.Lenders)
            {
                lenders.Rows.Add(l.No, l.Name, l.Homepage, l.CreditUnion);
                foreach (var g in Store.Tellers.Where(t => t.Lender == l.No).GroupBy(t => t.Town).OrderBy(g => g.Key))
                    branches.Rows.Add(l.No, g.Key, g.Count());
            }
            return ds;
        }

        [WebMethod]
        public Prov[] ReturnProvinces(string strAtmServiceKey)
        {
            Store.CheckKey(strAtmServiceKey);
            return new[] {
                new Prov { Abbr = "NB", Capital = "Fredericton", Name = "New Brunswick" },
                new Prov { Abbr = "NL", Capital = "St. John's", Name = "Newfoundland and Labrador" },
                new Prov { Abbr = "NS", Capital = "Halifax", Name = "Nova Scotia" },
                new Prov { Abbr = "PE", Capital = "Charlottetown", Name = "Prince Edward Island" },
            };
        }
    }

    // The service at /legacy/service-v2.asmx: the JSON form of the two
    // searches, the bare result object declared text/xml. The methods write
    // the body and end the response, so nothing else is appended.
    [WebService(Namespace = "http://legacy.atmref.example.org/atmService")]
    public class LegacyServiceV2 : WebService
    {
        static void Write(string json)
        {
            System.Web.HttpResponse r = System.Web.HttpContext.Current.Response;
            r.ContentType = "text/xml";
            r.Charset = "utf-8";
            r.Write(json);
            r.End();
        }

        [WebMethod]
        public void ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Store.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Store.Locate(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
            {
                Write(Store.Json(new List<Teller>(), 0, 0));
                return;
            }
            Write(Store.Json(Store.Within(lat, lon, bytRadius), lat, lon));
        }

        [WebMethod]
        public void ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Store.CheckKey(strAtmServiceKey);
            Write(Store.Json(Store.Within(dblLatitude, dblLongitude, bytRadius), dblLatitude, dblLongitude));
        }
    }
}
