// The service at /nodes/service/service.asmx: the eight operations of the
// interface document, each returning an XmlElement built by hand, in a
// namespace of its own chosen by the service (not the service namespace),
// with a prefix, values in attributes and elements mixed on every level,
// a level in a second namespace, an attribute in a namespace, and values as
// element text. In SOAP the node is the only child of <OpResult>; over GET
// and POST it is the document's root.
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Web.Services;
using System.Xml;
using AtmStore;

namespace AtmNodes
{
    [WebService(Namespace = "http://nodes.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public XmlElement ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Atms(Data.Atms.OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Nodes.Atms(new List<Record>(), true, 0, 0);
            return Nodes.Atms(Data.Near(lat, lon, bytRadius), true, lat, lon);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Atms(Data.Near(dblLatitude, dblLongitude, bytRadius), true, dblLatitude, dblLongitude);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Nodes.Atms(new List<Record>(), true, 0, 0);
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Nodes.Atms(near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), true, lat, lon);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Atms(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public XmlElement ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Atms(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public XmlNode ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Banks();
        }

        [WebMethod]
        public XmlElement ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Nodes.Provinces();
        }
    }

    // Nodes builds the service's XML by hand.
    public static class Nodes
    {
        public const string Ns = "urn:atmref:nodes:v3";
        public const string Geo = "urn:atmref:geo";

        static string Num(double v) { return XmlConvert.ToString(v); }
        static string Flag(bool v) { return XmlConvert.ToString(v); }
        static string Bit(bool v) { return v ? "1" : "0"; }

        static XmlElement El(XmlDocument doc, XmlElement parent, string name, string text)
        {
            XmlElement e = doc.CreateElement("n", name, Ns);
            if (text != null)
                e.InnerText = text;
            if (parent != null)
                parent.AppendChild(e);
            return e;
        }

        // Atms is the node of a location list: n:atmList with a count
        // attribute, the search point (when known) as a geo:point element
        // with geo:lat and geo:lon attributes, then n:atm items.
        public static XmlElement Atms(List<Record> list, bool withPoint, double lat, double lon)
        {
            var doc = new XmlDocument();
            XmlElement root = El(doc, null, "atmList", null);
            root.SetAttribute("count", list.Count.ToString(CultureInfo.InvariantCulture));
            if (withPoint)
            {
                XmlElement p = doc.CreateElement("geo", "point", Geo);
                p.SetAttribute("lat", Geo, Num(lat));
                p.SetAttribute("lon", Geo, Num(lon));
                root.AppendChild(p);
            }
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = Data.InstitutionOf(a.InstitutionId);
                XmlElement atm = El(doc, root, "atm", null);
                atm.SetAttribute("pos", i.ToString(CultureInfo.InvariantCulture));
                atm.SetAttribute("id", a.Id.ToString(CultureInfo.InvariantCulture));
                El(doc, atm, "ident", a.Identifier);
                XmlElement bank = El(doc, atm, "bank", n.Name);
                bank.SetAttribute("id", n.InstitutionId.ToString(CultureInfo.InvariantCulture));
                bank.SetAttribute("cu", Flag(n.IsAtlanticCreditUnion));
                bank.SetAttribute("url", n.Url);
                XmlElement where = doc.CreateElement("geo", "point", Geo);
                where.SetAttribute("lat", Geo, Num(a.Latitude));
                where.SetAttribute("lon", Geo, Num(a.Longitude));
                atm.AppendChild(where);
                XmlElement addr = El(doc, atm, "address", null);
                addr.SetAttribute("province", a.Province);
                addr.SetAttribute("postal", a.PostalCode);
                El(doc, addr, "street", a.Street);
                El(doc, addr, "city", a.City);
                El(doc, addr, "landmark", a.Landmark);
                XmlElement svc = El(doc, atm, "services", null);
                svc.SetAttribute("hours", a.Hours.ToString(CultureInfo.InvariantCulture));
                svc.SetAttribute("deposits", Flag(a.Deposits));
                El(doc, svc, "driveThru", Flag(a.DriveThru));
                El(doc, svc, "pinChange", Flag(a.PinChange));
                El(doc, svc, "voice", Flag(a.VoiceGuidance));
                XmlElement cards = El(doc, atm, "cards", null);
                cards.SetAttribute("visa", Bit(a.Visa));
                cards.SetAttribute("plus", Bit(a.Plus));
                cards.SetAttribute("mastercard", Bit(a.MasterCard));
                cards.SetAttribute("cirrus", Bit(a.Cirrus));
                XmlElement langs = El(doc, atm, "languages", null);
                foreach (string code in a.Languages)
                    El(doc, langs, "lang", code);
            }
            return root;
        }

        // Banks is the node of the institutions, returned as XmlNode.
        public static XmlNode Banks()
        {
            var doc = new XmlDocument();
            XmlElement root = El(doc, null, "banks", null);
            root.SetAttribute("total", Data.Institutions.Length.ToString(CultureInfo.InvariantCulture));
            foreach (Institution n in Data.Institutions)
            {
                XmlElement b = El(doc, root, "bank", null);
                b.SetAttribute("id", n.InstitutionId.ToString(CultureInfo.InvariantCulture));
                b.SetAttribute("cu", Flag(n.IsAtlanticCreditUnion));
                El(doc, b, "name", n.Name);
                El(doc, b, "url", n.Url);
            }
            return root;
        }

        // Provinces is the node of the provinces, each one's name as its text.
        public static XmlElement Provinces()
        {
            var doc = new XmlDocument();
            XmlElement root = El(doc, null, "provinces", null);
            foreach (Province p in Data.Provinces)
            {
                XmlElement e = El(doc, root, "province", p.Name);
                e.SetAttribute("code", p.Code);
                e.SetAttribute("seq", p.ProvinceId.ToString(CultureInfo.InvariantCulture));
            }
            return root;
        }
    }
}
