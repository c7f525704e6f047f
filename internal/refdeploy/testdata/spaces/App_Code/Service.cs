// The service at /spaces/service/service.asmx: the eight operations of the
// interface document, each returning an untyped System.Data.DataSet whose
// tables are in namespaces other than the DataSet's. The location results
// are the DataSet "Finder" (namespace .../finder): a one-row Summary table
// in the DataSet's namespace (no Namespace of its own), the Atm table in a
// namespace of its own with a prefix (an attribute column Seq, its BankUrl
// column in a third namespace), and the Tongue table nested in it with no
// Namespace set (it inherits its parent's). The institutions are
// "Lenders", a DataSet in no namespace: a one-row Source table, then the
// Lender table in a namespace of its own, nested in itself (a lender's
// parent lender: Maritime Trust under Harbour Bank, Northern Savings under
// Maritime Trust), so its rows nest two deep, each with a Branch row
// nested in it; then a one-row Stamp table. The provinces are "Areas", in
// a namespace and a prefix of its own, whose Area table is in none (its
// Namespace set to "") and nested in itself by hidden keys (two provinces
// in another's row), its Title column in a namespace of its own, its rows
// left inserted. The Lender table's Web column is in no namespace.
using System;
using System.Collections.Generic;
using System.Data;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmSpaces
{
    [WebService(Namespace = "http://spaces.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public DataSet ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Finder(Data.Atms.OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Spaces.Finder(new List<Record>(), true, 0, 0);
            return Spaces.Finder(Data.Near(lat, lon, bytRadius), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Finder(Data.Near(dblLatitude, dblLongitude, bytRadius), true, dblLatitude, dblLongitude);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Spaces.Finder(new List<Record>(), true, 0, 0);
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Spaces.Finder(near.Take(Math.Max(0, intMaximumAtms)).ToList(), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Finder(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Finder(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Lenders();
        }

        [WebMethod]
        public DataSet ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Spaces.Areas();
        }
    }

    // Spaces builds the service's DataSets from the store.
    public static class Spaces
    {
        const string Base = "http://spaces.atmref.example.org/";

        public static DataSet Finder(List<Record> list, bool withPoint, double lat, double lon)
        {
            var ds = new DataSet("Finder");
            ds.Namespace = Base + "finder";

            DataTable sum = ds.Tables.Add("Summary");
            sum.Columns.Add("Found", typeof(int));
            sum.Columns.Add("SearchLat", typeof(double));
            sum.Columns.Add("SearchLng", typeof(double));

            DataTable m = ds.Tables.Add("Atm");
            m.Namespace = Base + "atm";
            m.Prefix = "a";
            DataColumn key = m.Columns.Add("AtmKey", typeof(int));
            key.AutoIncrement = true;
            key.AllowDBNull = false;
            key.ColumnMapping = MappingType.Hidden;
            m.Columns.Add("Seq", typeof(int)).ColumnMapping = MappingType.Attribute;
            m.Columns.Add("AtmNo", typeof(int));
            m.Columns.Add("Code", typeof(string));
            m.Columns.Add("BankNo", typeof(int));
            m.Columns.Add("BankName", typeof(string));
            m.Columns.Add("BankUrl", typeof(string)).Namespace = Base + "web";
            m.Columns.Add("CreditUnion", typeof(bool));
            m.Columns.Add("Lat", typeof(double));
            m.Columns.Add("Lng", typeof(double));
            m.Columns.Add("Street", typeof(string));
            m.Columns.Add("Town", typeof(string));
            m.Columns.Add("Prov", typeof(string));
            m.Columns.Add("Postal", typeof(string));
            m.Columns.Add("Landmark", typeof(string));
            m.Columns.Add("Deposits", typeof(bool));
            m.Columns.Add("Hours", typeof(int));
            m.Columns.Add("DriveThru", typeof(bool));
            m.Columns.Add("PinChange", typeof(bool));
            m.Columns.Add("Voice", typeof(bool));
            m.Columns.Add("Visa", typeof(bool));
            m.Columns.Add("Plus", typeof(bool));
            m.Columns.Add("MasterCard", typeof(bool));
            m.Columns.Add("Cirrus", typeof(bool));

            DataTable tongue = ds.Tables.Add("Tongue");
            tongue.Columns.Add("Code", typeof(string));
            DataColumn fk = tongue.Columns.Add("AtmKey", typeof(int));
            fk.ColumnMapping = MappingType.Hidden;
            ds.Relations.Add("AtmTongues", key, fk).Nested = true;

            sum.Rows.Add(list.Count, withPoint ? (object)lat : DBNull.Value, withPoint ? (object)lon : DBNull.Value);
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = Data.InstitutionOf(a.InstitutionId);
                DataRow r = m.NewRow();
                r["Seq"] = i;
                r["AtmNo"] = a.Id;
                r["Code"] = a.Identifier;
                r["BankNo"] = n.InstitutionId;
                r["BankName"] = n.Name;
                r["BankUrl"] = n.Url;
                r["CreditUnion"] = n.IsAtlanticCreditUnion;
                r["Lat"] = a.Latitude;
                r["Lng"] = a.Longitude;
                r["Street"] = a.Street;
                r["Town"] = a.City;
                r["Prov"] = a.Province;
                r["Postal"] = a.PostalCode;
                r["Landmark"] = a.Landmark;
                r["Deposits"] = a.Deposits;
                r["Hours"] = a.Hours;
                r["DriveThru"] = a.DriveThru;
                r["PinChange"] = a.PinChange;
                r["Voice"] = a.VoiceGuidance;
                r["Visa"] = a.Visa;
                r["Plus"] = a.Plus;
                r["MasterCard"] = a.MasterCard;
                r["Cirrus"] = a.Cirrus;
                m.Rows.Add(r);
                foreach (string code in a.Languages)
                    tongue.Rows.Add(code, r["AtmKey"]);
            }
            ds.AcceptChanges();
            return ds;
        }

        // parents are the lenders' parent lenders, by institution id.
        static readonly Dictionary<int, int> parents = new Dictionary<int, int> { { 200, 100 }, { 400, 200 } };

        public static DataSet Lenders()
        {
            var ds = new DataSet("Lenders");
            DataTable src = ds.Tables.Add("Source");
            src.Columns.Add("Origin", typeof(string));

            DataTable t = ds.Tables.Add("Lender");
            t.Namespace = Base + "lender";
            DataColumn no = t.Columns.Add("LenderNo", typeof(int));
            no.AllowDBNull = false;
            DataColumn up = t.Columns.Add("ParentNo", typeof(int));
            t.Columns.Add("Title", typeof(string));
            t.Columns.Add("Web", typeof(string)).Namespace = ""; // in no namespace, its table in one
            t.Columns.Add("CreditUnion", typeof(bool));
            t.PrimaryKey = new[] { no };
            ds.Relations.Add("LenderLender", no, up).Nested = true;

            // Branch: a lender's head office, nested in the lender's row.
            DataTable branch = ds.Tables.Add("Branch");
            branch.Columns.Add("Office", typeof(string));
            DataColumn of = branch.Columns.Add("LenderNo", typeof(int));
            of.ColumnMapping = MappingType.Hidden;
            ds.Relations.Add("LenderBranch", no, of).Nested = true;

            // Stamp: a one-row table after them.
            DataTable stamp = ds.Tables.Add("Stamp");
            stamp.Columns.Add("Note", typeof(string));

            src.Rows.Add("spaces");
            stamp.Rows.Add("end");
            foreach (Institution n in Data.Institutions)
            {
                int p;
                t.Rows.Add(n.InstitutionId, parents.TryGetValue(n.InstitutionId, out p) ? (object)p : DBNull.Value, n.Name, n.Url, n.IsAtlanticCreditUnion);
                branch.Rows.Add(n.Name + " head office", n.InstitutionId);
            }
            ds.AcceptChanges();
            return ds;
        }

        public static DataSet Areas()
        {
            var ds = new DataSet("Areas");
            ds.Namespace = Base + "areas";
            ds.Prefix = "ar";
            DataTable t = ds.Tables.Add("Area");
            t.Namespace = "";
            DataColumn key = t.Columns.Add("AreaKey", typeof(int));
            key.AutoIncrement = true;
            key.AllowDBNull = false;
            key.ColumnMapping = MappingType.Hidden;
            DataColumn up = t.Columns.Add("UpKey", typeof(int));
            up.ColumnMapping = MappingType.Hidden;
            t.Columns.Add("Abbr", typeof(string));
            t.Columns.Add("Title", typeof(string)).Namespace = Base + "names";
            ds.Relations.Add("AreaArea", key, up).Nested = true;
            // Prince Edward Island in Nova Scotia's row, Newfoundland and
            // Labrador in New Brunswick's: nested by hidden keys.
            var keys = new Dictionary<string, object>();
            foreach (Province p in Data.Provinces)
            {
                string parent = p.Code == "PE" ? "NS" : p.Code == "NL" ? "NB" : null;
                DataRow r = t.Rows.Add(null, parent == null ? DBNull.Value : keys[parent], p.Code, p.Name);
                keys[p.Code] = r["AreaKey"];
            }
            return ds; // its rows left inserted
        }
    }
}
