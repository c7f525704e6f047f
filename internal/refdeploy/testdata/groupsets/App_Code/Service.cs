// The service at /groupsets/service/service.asmx: the eight operations of
// the interface document, each returning an untyped System.Data.DataSet in
// which the searches' locations are grouped by institution: a Bank table
// (the institutions of the ATMs found, in the order the search found each
// first) and an Atm table related to it by the bank's Id (its BankId
// column), with no other institution value. The searches around a point
// nest the relation (each bank's ATM rows inside its row); the lists (all
// ATMs, by institution, by city) do not (the ATM rows follow the banks').
// With the web.config's SearchRelation "flat" (the groupsetsflat site) the
// searches do not nest it either: their ATM rows follow the banks', bank
// by bank (each bank's in the search's order), each naming its bank by
// its BankId alone.
// A Lang table is nested in the Atm table by a hidden key.
using System;
using System.Collections.Generic;
using System.Configuration;
using System.Data;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmGroupSets
{
    [WebService(Namespace = "http://groupsets.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public DataSet ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.ByBank(Data.Atms.OrderBy(a => a.Id).ToList(), false);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Search(new List<Record>());
            return Sets.Search(Data.Near(lat, lon, bytRadius));
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.Search(Data.Near(dblLatitude, dblLongitude, bytRadius));
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Sets.Search(new List<Record>());
            return Sets.Search(Data.Near(lat, lon, bytRadius).Take(Math.Max(0, intMaximumAtms)).ToList());
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.ByBank(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), false);
        }

        [WebMethod]
        public DataSet ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Sets.ByBank(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), false);
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
        // Search is the DataSet of a search around a point: the relation
        // nested, or (SearchRelation "flat") not, the ATM rows then
        // written bank by bank, the banks in the order of their first
        // ATM in the search (LINQ's GroupBy); named Nearby either way.
        public static DataSet Search(List<Record> list)
        {
            if (ConfigurationManager.AppSettings["SearchRelation"] != "flat")
                return ByBank(list, true);
            DataSet ds = ByBank(list.GroupBy(a => a.InstitutionId).SelectMany(g => g).ToList(), false);
            ds.DataSetName = "Nearby";
            return ds;
        }

        // ByBank is the DataSet of a location list grouped by institution:
        // nested ("Nearby", the searches around a point) or not ("Branches").
        public static DataSet ByBank(List<Record> list, bool nested)
        {
            var ds = new DataSet(nested ? "Nearby" : "Branches");

            DataTable bank = ds.Tables.Add("Bank");
            DataColumn id = bank.Columns.Add("Id", typeof(int));
            bank.PrimaryKey = new[] { id };
            bank.Columns.Add("Name", typeof(string));
            bank.Columns.Add("Url", typeof(string));
            bank.Columns.Add("CreditUnion", typeof(bool));

            DataTable atm = ds.Tables.Add("Atm");
            DataColumn key = atm.Columns.Add("AtmKey", typeof(int));
            key.AutoIncrement = true;
            key.AllowDBNull = false;
            key.ColumnMapping = MappingType.Hidden;
            DataColumn bankId = atm.Columns.Add("BankId", typeof(int));
            atm.Columns.Add("AtmId", typeof(int));
            atm.Columns.Add("Identifier", typeof(string));
            atm.Columns.Add("Lat", typeof(double));
            atm.Columns.Add("Lng", typeof(double));
            atm.Columns.Add("Street", typeof(string));
            atm.Columns.Add("City", typeof(string));
            atm.Columns.Add("Prov", typeof(string));
            atm.Columns.Add("Postal", typeof(string));
            atm.Columns.Add("Landmark", typeof(string));
            atm.Columns.Add("Deposits", typeof(bool));
            atm.Columns.Add("Hours", typeof(int));
            atm.Columns.Add("DriveThru", typeof(bool));
            atm.Columns.Add("PinChange", typeof(bool));
            atm.Columns.Add("Voice", typeof(bool));
            atm.Columns.Add("Visa", typeof(bool));
            atm.Columns.Add("Plus", typeof(bool));
            atm.Columns.Add("MasterCard", typeof(bool));
            atm.Columns.Add("Cirrus", typeof(bool));
            ds.Relations.Add("BankAtms", id, bankId).Nested = nested;

            DataTable lang = ds.Tables.Add("Lang");
            lang.Columns.Add("Code", typeof(string));
            DataColumn fk = lang.Columns.Add("AtmKey", typeof(int));
            fk.ColumnMapping = MappingType.Hidden;
            ds.Relations.Add("AtmLangs", key, fk).Nested = true;

            foreach (Record a in list)
            {
                Institution n = Data.InstitutionOf(a.InstitutionId);
                if (bank.Rows.Find(n.InstitutionId) == null)
                    bank.Rows.Add(n.InstitutionId, n.Name, n.Url, n.IsAtlanticCreditUnion);
                DataRow r = atm.NewRow();
                r["BankId"] = n.InstitutionId;
                r["AtmId"] = a.Id;
                r["Identifier"] = a.Identifier;
                r["Lat"] = a.Latitude;
                r["Lng"] = a.Longitude;
                r["Street"] = a.Street;
                r["City"] = a.City;
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
                atm.Rows.Add(r);
                foreach (string code in a.Languages)
                    lang.Rows.Add(code, r["AtmKey"]);
            }
            ds.AcceptChanges();
            return ds;
        }

        // Banks is the DataSet of the institutions.
        public static DataSet Banks()
        {
            var ds = new DataSet("Banks");
            DataTable t = ds.Tables.Add("Bank");
            DataColumn id = t.Columns.Add("Id", typeof(int));
            t.PrimaryKey = new[] { id };
            t.Columns.Add("Name", typeof(string));
            t.Columns.Add("Url", typeof(string));
            t.Columns.Add("CreditUnion", typeof(bool));
            foreach (Institution n in Data.Institutions)
                t.Rows.Add(n.InstitutionId, n.Name, n.Url, n.IsAtlanticCreditUnion);
            ds.AcceptChanges();
            return ds;
        }

        // Regions is the DataSet of the provinces.
        public static DataSet Regions()
        {
            var ds = new DataSet("Regions");
            DataTable t = ds.Tables.Add("Region");
            t.Columns.Add("Id", typeof(int));
            t.Columns.Add("Code", typeof(string));
            t.Columns.Add("Name", typeof(string));
            foreach (Province p in Data.Provinces)
                t.Rows.Add(p.ProvinceId, p.Code, p.Name);
            ds.AcceptChanges();
            return ds;
        }
    }
}
