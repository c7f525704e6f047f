// The service at /dataset/service/service.asmx: the eight operations of the
// interface document, each returning an untyped System.Data.DataSet, as
// teams whose data access is ADO.NET write them. ASMX writes a DataSet
// result as its inline xs:schema followed by a diffgr:diffgram.
//
// The location results are the DataSet "AtmFinder": a one-row Summary table
// (the count and, for the searches, the search point; null, so not written,
// for the other lists), the Machine table, and its languages in a nested
// child table Tongue, related by a hidden auto-increment key. The key is
// named so that .NET declares it in the schema, with the relation's
// xs:unique and xs:keyref (a key named Machine_Id would be taken for the one
// ADO.NET's schema inference makes, and left out). One column is written as
// an attribute, empty landmarks are null (not written), the card networks
// are 1/0 short integers as a legacy database keeps them. The institutions
// are "BankList", in a namespace of its own with a primary key; the
// provinces "RegionList", with an invariant locale and its rows left as
// inserted (no AcceptChanges).
using System;
using System.Collections.Generic;
using System.Data;
using System.Globalization;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmSets
{
    [WebService(Namespace = "http://dataset.atmref.example.org/atmService")]
    public class DataSetService : WebService
    {
        [WebMethod]
        public DataSet ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Finder(Data.Atms.OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Finder(new List<Record>(), true, 0, 0);
            return Sets.Finder(Data.Near(lat, lon, bytRadius), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Finder(Data.Near(dblLatitude, dblLongitude, bytRadius), true, dblLatitude, dblLongitude);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Finder(new List<Record>(), true, 0, 0);
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Sets.Finder(near.Take(Math.Max(0, intMaximumAtms)).ToList(), true, lat, lon);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Finder(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Finder(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), false, 0, 0);
        }

        [WebMethod]
        public DataSet ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Banks();
        }

        [WebMethod]
        public DataSet ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Regions();
        }
    }

    // Sets builds the service's DataSets from the store.
    public static class Sets
    {
        // Finder is the DataSet of a location list; withPoint says whether
        // the search point is known (the searches) or null (the lists).
        public static DataSet Finder(List<Record> list, bool withPoint, double lat, double lon)
        {
            var ds = new DataSet("AtmFinder");

            DataTable sum = ds.Tables.Add("Summary");
            sum.Columns.Add("Found", typeof(int));
            sum.Columns.Add("SearchLat", typeof(double));
            sum.Columns.Add("SearchLng", typeof(double));

            DataTable m = ds.Tables.Add("Machine");
            DataColumn key = m.Columns.Add("MachineKey", typeof(int));
            key.AutoIncrement = true;
            key.AllowDBNull = false;
            key.ColumnMapping = MappingType.Hidden;
            m.Columns.Add("Seq", typeof(int)).ColumnMapping = MappingType.Attribute;
            m.Columns.Add("AtmNo", typeof(int));
            m.Columns.Add("Code", typeof(string));
            m.Columns.Add("BankNo", typeof(int));
            m.Columns.Add("BankName", typeof(string));
            m.Columns.Add("BankUrl", typeof(string));
            m.Columns.Add("CreditUnion", typeof(bool));
            m.Columns.Add("Lat", typeof(double));
            m.Columns.Add("Lng", typeof(double));
            m.Columns.Add("Street", typeof(string));
            m.Columns.Add("Town", typeof(string));
            m.Columns.Add("Prov", typeof(string));
            m.Columns.Add("Postal", typeof(string));
            m.Columns.Add("Landmark", typeof(string));
            m.Columns.Add("Deposits", typeof(bool));
            m.Columns.Add("Hours", typeof(byte));
            m.Columns.Add("DriveThru", typeof(bool));
            m.Columns.Add("PinChange", typeof(bool));
            m.Columns.Add("Voice", typeof(bool));
            m.Columns.Add("Visa", typeof(short));
            m.Columns.Add("Plus", typeof(short));
            m.Columns.Add("MasterCard", typeof(short));
            m.Columns.Add("Cirrus", typeof(short));

            DataTable tongue = ds.Tables.Add("Tongue");
            tongue.Columns.Add("Code", typeof(string));
            DataColumn fk = tongue.Columns.Add("MachineKey", typeof(int));
            fk.ColumnMapping = MappingType.Hidden;
            ds.Relations.Add("MachineTongues", key, fk).Nested = true;

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
                r["Landmark"] = a.Landmark.Length == 0 ? (object)DBNull.Value : a.Landmark;
                r["Deposits"] = a.Deposits;
                r["Hours"] = (byte)a.Hours;
                r["DriveThru"] = a.DriveThru;
                r["PinChange"] = a.PinChange;
                r["Voice"] = a.VoiceGuidance;
                r["Visa"] = Flag(a.Visa);
                r["Plus"] = Flag(a.Plus);
                r["MasterCard"] = Flag(a.MasterCard);
                r["Cirrus"] = Flag(a.Cirrus);
                m.Rows.Add(r);
                foreach (string code in a.Languages)
                    tongue.Rows.Add(code, r["MachineKey"]);
            }
            ds.AcceptChanges();
            return ds;
        }

        static short Flag(bool v) { return v ? (short)1 : (short)0; }

        // Banks is the DataSet of the institutions, in a namespace of its own.
        public static DataSet Banks()
        {
            var ds = new DataSet("BankList");
            ds.Namespace = "http://dataset.atmref.example.org/banks";
            DataTable t = ds.Tables.Add("Bank");
            DataColumn no = t.Columns.Add("BankNo", typeof(int));
            t.Columns.Add("Title", typeof(string));
            t.Columns.Add("Web", typeof(string));
            t.Columns.Add("CreditUnion", typeof(bool));
            t.PrimaryKey = new[] { no };
            foreach (Institution n in Data.Institutions)
                t.Rows.Add(n.InstitutionId, n.Name, n.Url, n.IsAtlanticCreditUnion);
            ds.AcceptChanges();
            return ds;
        }

        // Regions is the DataSet of the provinces: an invariant locale, and
        // its rows as built (inserted: no AcceptChanges).
        public static DataSet Regions()
        {
            var ds = new DataSet("RegionList");
            ds.Locale = CultureInfo.InvariantCulture;
            DataTable t = ds.Tables.Add("Region");
            t.Columns.Add("RegionId", typeof(int));
            t.Columns.Add("Abbrev", typeof(string));
            t.Columns.Add("RegionName", typeof(string));
            foreach (Province p in Data.Provinces)
                t.Rows.Add(p.ProvinceId, p.Code, p.Name);
            return ds;
        }
    }
}
