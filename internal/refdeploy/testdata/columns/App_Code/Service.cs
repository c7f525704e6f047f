// The service at /columns/service/service.asmx: the eight operations of the
// interface document, each returning an untyped System.Data.DataSet whose
// names need XmlConvert's encoding (spaces, a leading digit) and whose
// columns have properties the other sites' do not: a MaxLength, a primary
// key, decimal and short columns, DBNull where the store's string is
// empty, and tables related without nesting (Nested = false: the child
// rows follow the parent table's, flat).
using System;
using System.Collections.Generic;
using System.Data;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmColumns
{
    [WebService(Namespace = "http://columns.atmref.example.org/atmService")]
    public class Service : WebService
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
        static object NullIfEmpty(string s)
        {
            return s == "" ? (object)DBNull.Value : s;
        }

        public static DataSet Finder(List<Record> list, bool withPoint, double lat, double lon)
        {
            var ds = new DataSet("Atm Finder");

            DataTable search = ds.Tables.Add("Search");
            search.Columns.Add("Found", typeof(int));
            search.Columns.Add("Lat", typeof(double));
            search.Columns.Add("Lng", typeof(double));

            DataTable atm = ds.Tables.Add("ATM Row");
            DataColumn id = atm.Columns.Add("Id", typeof(int));
            atm.PrimaryKey = new[] { id };
            atm.Columns.Add("No", typeof(int));
            atm.Columns.Add("Identifier", typeof(string)).MaxLength = 20;
            atm.Columns.Add("Bank Id", typeof(int));
            atm.Columns.Add("Bank Name", typeof(string));
            atm.Columns.Add("Web", typeof(string));
            atm.Columns.Add("Acu", typeof(bool));
            atm.Columns.Add("Lat", typeof(decimal));
            atm.Columns.Add("Lng", typeof(decimal));
            atm.Columns.Add("Street", typeof(string)).MaxLength = 100;
            atm.Columns.Add("City", typeof(string));
            atm.Columns.Add("Prov", typeof(string)).MaxLength = 2;
            atm.Columns.Add("Postal", typeof(string));
            atm.Columns.Add("Landmark", typeof(string));
            atm.Columns.Add("Hours", typeof(short));
            atm.Columns.Add("Deposit", typeof(bool));
            atm.Columns.Add("Drive", typeof(bool));
            atm.Columns.Add("Pin", typeof(bool));
            atm.Columns.Add("Voice", typeof(bool));
            atm.Columns.Add("Visa", typeof(bool));
            atm.Columns.Add("Plus", typeof(bool));
            atm.Columns.Add("Master Card", typeof(bool));
            atm.Columns.Add("Cirrus", typeof(bool));

            DataTable lang = ds.Tables.Add("Lang");
            DataColumn langAtm = lang.Columns.Add("AtmId", typeof(int));
            lang.Columns.Add("Code", typeof(string));
            ds.Relations.Add("AtmLangs", id, langAtm).Nested = false;

            search.Rows.Add(list.Count, withPoint ? (object)lat : DBNull.Value, withPoint ? (object)lon : DBNull.Value);
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = Data.InstitutionOf(a.InstitutionId);
                atm.Rows.Add(a.Id, i, a.Identifier, n.InstitutionId, n.Name, NullIfEmpty(n.Url), n.IsAtlanticCreditUnion,
                    (decimal)a.Latitude, (decimal)a.Longitude, a.Street, a.City, a.Province, a.PostalCode, NullIfEmpty(a.Landmark),
                    (short)a.Hours, a.Deposits, a.DriveThru, a.PinChange, a.VoiceGuidance, a.Visa, a.Plus, a.MasterCard, a.Cirrus);
                foreach (string code in a.Languages)
                    lang.Rows.Add(a.Id, code);
            }
            ds.AcceptChanges();
            return ds;
        }

        public static DataSet Banks()
        {
            var ds = new DataSet("Banks");
            DataTable t = ds.Tables.Add("Bank");
            DataColumn id = t.Columns.Add("Id", typeof(int));
            t.PrimaryKey = new[] { id };
            t.Columns.Add("Name", typeof(string)).MaxLength = 60;
            t.Columns.Add("Url", typeof(string));
            t.Columns.Add("Credit Union", typeof(bool));
            foreach (Institution n in Data.Institutions)
                t.Rows.Add(n.InstitutionId, n.Name, NullIfEmpty(n.Url), n.IsAtlanticCreditUnion);
            ds.AcceptChanges();
            return ds;
        }

        public static DataSet Regions()
        {
            var ds = new DataSet("Regions");
            DataTable t = ds.Tables.Add("Region");
            t.Columns.Add("1Id", typeof(int));
            t.Columns.Add("2Letter", typeof(string)).MaxLength = 2;
            t.Columns.Add("Region Name", typeof(string));
            foreach (Province p in Data.Provinces)
                t.Rows.Add(p.ProvinceId, p.Code, p.Name);
            ds.AcceptChanges();
            return ds;
        }
    }
}
