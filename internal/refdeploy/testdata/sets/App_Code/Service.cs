// The service at /sets/service/service.asmx: the eight operations of the
// interface document, each returning an untyped System.Data.DataSet with a
// namespace and a prefix of its own. The location results are the DataSet
// "Atlas" (namespace and prefix "at"): a one-row Header table whose values
// are all attributes, the Atm table (its id an attribute, a hidden key),
// and three child tables nested in it by that key: Addr (one row per ATM,
// the province an attribute, with the point in its own nested table Pos,
// two levels below the ATM), Net (one row per ATM, every card network an
// attribute) and Lang (the languages, each row's code its text: a
// SimpleContent column). The institutions are "Lenders" (prefix "ld",
// every column an attribute but the name); the provinces "Areas", flat, in
// the Atlas namespace without a prefix, with a hidden column.
using System;
using System.Collections.Generic;
using System.Data;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmSets
{
    [WebService(Namespace = "http://sets.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public DataSet ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Atlas(Data.Atms.OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Atlas(new List<Record>(), true, 0, 0);
            return Sets.Atlas(Data.Near(lat, lon, bytRadius), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Atlas(Data.Near(dblLatitude, dblLongitude, bytRadius), true, dblLatitude, dblLongitude);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Atlas(new List<Record>(), true, 0, 0);
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Sets.Atlas(near.Take(Math.Max(0, intMaximumAtms)).ToList(), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Atlas(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Atlas(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Lenders();
        }

        [WebMethod]
        public DataSet ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Areas();
        }
    }

    // Sets builds the service's DataSets from the store.
    public static class Sets
    {
        public const string Ns = "http://sets.atmref.example.org/atlas";

        static DataColumn Attr(DataTable t, string name, Type type)
        {
            DataColumn c = t.Columns.Add(name, type);
            c.ColumnMapping = MappingType.Attribute;
            return c;
        }

        public static DataSet Atlas(List<Record> list, bool withPoint, double lat, double lon)
        {
            var ds = new DataSet("Atlas");
            ds.Namespace = Ns;
            ds.Prefix = "at";

            DataTable head = ds.Tables.Add("Header");
            Attr(head, "Total", typeof(int));
            Attr(head, "Lat", typeof(double));
            Attr(head, "Lon", typeof(double));

            DataTable atm = ds.Tables.Add("Atm");
            DataColumn key = atm.Columns.Add("AtmKey", typeof(int));
            key.AutoIncrement = true;
            key.AutoIncrementSeed = 1;
            key.AllowDBNull = false;
            key.ColumnMapping = MappingType.Hidden;
            Attr(atm, "No", typeof(int));
            Attr(atm, "Id", typeof(int));
            atm.Columns.Add("Code", typeof(string));
            atm.Columns.Add("Lender", typeof(string));
            atm.Columns.Add("LenderId", typeof(int));
            atm.Columns.Add("LenderWeb", typeof(string));
            atm.Columns.Add("Acu", typeof(bool));
            atm.Columns.Add("Hours", typeof(int));
            atm.Columns.Add("Deposit", typeof(bool));
            atm.Columns.Add("Drive", typeof(bool));
            atm.Columns.Add("Pin", typeof(bool));
            atm.Columns.Add("Voice", typeof(bool));

            DataTable addr = ds.Tables.Add("Addr");
            DataColumn addrId = addr.Columns.Add("AddrKey", typeof(int));
            addrId.AutoIncrement = true;
            addrId.AutoIncrementSeed = 1;
            addrId.AllowDBNull = false;
            addrId.ColumnMapping = MappingType.Hidden;
            DataColumn addrKey = addr.Columns.Add("AtmKey", typeof(int));
            addrKey.ColumnMapping = MappingType.Hidden;
            Attr(addr, "Prov", typeof(string));
            addr.Columns.Add("Street", typeof(string));
            addr.Columns.Add("Town", typeof(string));
            addr.Columns.Add("Postal", typeof(string));
            addr.Columns.Add("Landmark", typeof(string));

            // Pos: the point, one row per address, nested in it (two levels
            // below the ATM).
            DataTable pos = ds.Tables.Add("Pos");
            DataColumn posKey = pos.Columns.Add("AddrKey", typeof(int));
            posKey.ColumnMapping = MappingType.Hidden;
            Attr(pos, "Lat", typeof(double));
            Attr(pos, "Lon", typeof(double));

            DataTable net = ds.Tables.Add("Net");
            DataColumn netKey = net.Columns.Add("AtmKey", typeof(int));
            netKey.ColumnMapping = MappingType.Hidden;
            Attr(net, "Visa", typeof(bool));
            Attr(net, "Plus", typeof(bool));
            Attr(net, "MasterCard", typeof(bool));
            Attr(net, "Cirrus", typeof(bool));

            DataTable lang = ds.Tables.Add("Lang");
            DataColumn langCode = lang.Columns.Add("Code", typeof(string));
            DataColumn langKey = lang.Columns.Add("AtmKey", typeof(int));
            langKey.ColumnMapping = MappingType.Hidden;

            ds.Relations.Add("AtmAddr", key, addrKey).Nested = true;
            ds.Relations.Add("AddrPos", addrId, posKey).Nested = true;
            ds.Relations.Add("AtmNet", key, netKey).Nested = true;
            ds.Relations.Add("AtmLang", key, langKey).Nested = true;
            langCode.ColumnMapping = MappingType.SimpleContent; // after the relation: Mono refuses the relation to a table with one

            head.Rows.Add(list.Count, withPoint ? (object)lat : DBNull.Value, withPoint ? (object)lon : DBNull.Value);
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = Data.InstitutionOf(a.InstitutionId);
                DataRow r = atm.NewRow();
                r["No"] = i;
                r["Id"] = a.Id;
                r["Code"] = a.Identifier;
                r["Lender"] = n.Name;
                r["LenderId"] = n.InstitutionId;
                r["LenderWeb"] = n.Url;
                r["Acu"] = n.IsAtlanticCreditUnion;
                r["Hours"] = a.Hours;
                r["Deposit"] = a.Deposits;
                r["Drive"] = a.DriveThru;
                r["Pin"] = a.PinChange;
                r["Voice"] = a.VoiceGuidance;
                atm.Rows.Add(r);
                DataRow ar = addr.NewRow();
                ar["AtmKey"] = r["AtmKey"];
                ar["Prov"] = a.Province;
                ar["Street"] = a.Street;
                ar["Town"] = a.City;
                ar["Postal"] = a.PostalCode;
                ar["Landmark"] = a.Landmark;
                addr.Rows.Add(ar);
                pos.Rows.Add(ar["AddrKey"], a.Latitude, a.Longitude);
                net.Rows.Add(r["AtmKey"], a.Visa, a.Plus, a.MasterCard, a.Cirrus);
                foreach (string code in a.Languages)
                    lang.Rows.Add(code, r["AtmKey"]);
            }
            ds.AcceptChanges();
            return ds;
        }

        public static DataSet Lenders()
        {
            var ds = new DataSet("Lenders");
            ds.Namespace = "http://sets.atmref.example.org/lenders";
            ds.Prefix = "ld";
            DataTable t = ds.Tables.Add("Lender");
            Attr(t, "No", typeof(int));
            Attr(t, "Acu", typeof(bool));
            Attr(t, "Web", typeof(string));
            t.Columns.Add("Title", typeof(string));
            foreach (Institution n in Data.Institutions)
                t.Rows.Add(n.InstitutionId, n.IsAtlanticCreditUnion, n.Url, n.Name);
            ds.AcceptChanges();
            return ds;
        }

        public static DataSet Areas()
        {
            var ds = new DataSet("Areas");
            ds.Namespace = Ns;
            DataTable t = ds.Tables.Add("Area");
            t.Columns.Add("Seq", typeof(int)).ColumnMapping = MappingType.Hidden;
            t.Columns.Add("Abbr", typeof(string));
            t.Columns.Add("Title", typeof(string));
            foreach (Province p in Data.Provinces)
                t.Rows.Add(p.ProvinceId, p.Code, p.Name);
            ds.AcceptChanges();
            return ds;
        }
    }
}
