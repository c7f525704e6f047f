// The service at /grouped/service/service.asmx: the eight operations of the
// interface document, typed results in which the searches' locations are
// grouped by institution: an array of banks (ArrayOfBank), each holding the
// institution's values and an array of its ATMs found (Atms/Atm), in the
// order the search found each bank first (or, where the appSetting
// GroupOrder is "name", by the bank's name compared ordinally: the
// groupedbyname site), its ATMs in the search's order. The institution's
// values are the bank's, not repeated in each ATM.
using System;
using System.Collections.Generic;
using System.Configuration;
using System.Linq;
using System.Web.Services;
using System.Xml.Serialization;
using AtmStore;

namespace AtmGrouped
{
    [WebService(Namespace = "http://grouped.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public Bank[] ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Groups.ByBank(Data.Atms.OrderBy(a => a.Id).ToList());
        }

        [WebMethod]
        public Bank[] ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return new Bank[0];
            return Groups.ByBank(Data.Near(lat, lon, bytRadius));
        }

        [WebMethod]
        public Bank[] ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Groups.ByBank(Data.Near(dblLatitude, dblLongitude, bytRadius));
        }

        [WebMethod]
        public Bank[] ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return new Bank[0];
            return Groups.ByBank(Data.Near(lat, lon, bytRadius).Take(System.Math.Max(0, intMaximumAtms)).ToList());
        }

        [WebMethod]
        public Bank[] ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Groups.ByBank(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList());
        }

        [WebMethod]
        public Bank[] ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Groups.ByBank(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList());
        }

        [WebMethod]
        public Lender[] ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Institutions.Select(n => new Lender { LenderId = n.InstitutionId, Name = n.Name, Url = n.Url, CreditUnion = n.IsAtlanticCreditUnion }).ToArray();
        }

        [WebMethod]
        public Area[] ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Provinces.Select(p => new Area { AreaId = p.ProvinceId, Code = p.Code, Name = p.Name }).ToArray();
        }
    }

    // Groups builds the grouped results from the store.
    public static class Groups
    {
        // ByBank groups list by institution, in the order of each one's
        // first ATM in list (or by name, ordinally, where the appSetting
        // GroupOrder says name), each bank's ATMs in list's order.
        public static Bank[] ByBank(List<Record> list)
        {
            Bank[] banks = Unordered(list);
            if (ConfigurationManager.AppSettings["GroupOrder"] == "name")
                return banks.OrderBy(b => b.Name, StringComparer.Ordinal).ToArray();
            return banks;
        }

        static Bank[] Unordered(List<Record> list)
        {
            return list.GroupBy(a => a.InstitutionId).Select(g => {
                Institution n = Data.InstitutionOf(g.Key);
                return new Bank {
                    Id = n.InstitutionId, Name = n.Name, Url = n.Url, CreditUnion = n.IsAtlanticCreditUnion,
                    Atms = g.Select(a => new Atm {
                        AtmId = a.Id, Identifier = a.Identifier, Latitude = a.Latitude, Longitude = a.Longitude,
                        Street = a.Street, City = a.City, Province = a.Province, PostalCode = a.PostalCode, Landmark = a.Landmark,
                        Deposits = a.Deposits, Hours = a.Hours, DriveThru = a.DriveThru, PinChange = a.PinChange, VoiceGuidance = a.VoiceGuidance,
                        Visa = a.Visa, Plus = a.Plus, MasterCard = a.MasterCard, Cirrus = a.Cirrus, Languages = a.Languages }).ToArray() };
            }).ToArray();
        }
    }

    // Bank is an institution holding the ATMs of it a search found.
    public class Bank
    {
        [XmlAttribute("id")]
        public int Id;
        public string Name;
        public string Url;
        public bool CreditUnion;
        [XmlArrayItem("Atm")]
        public Atm[] Atms;
    }

    // Atm is one location, without its institution: its bank holds it.
    public class Atm
    {
        public int AtmId;
        public string Identifier;
        public double Latitude;
        public double Longitude;
        public string Street;
        public string City;
        public string Province;
        public string PostalCode;
        public string Landmark;
        public bool Deposits;
        public int Hours;
        public bool DriveThru;
        public bool PinChange;
        public bool VoiceGuidance;
        public bool Visa;
        public bool Plus;
        public bool MasterCard;
        public bool Cirrus;
        [XmlArrayItem("Code")]
        public string[] Languages;
    }

    public class Lender
    {
        public int LenderId;
        public string Name;
        public string Url;
        public bool CreditUnion;
    }

    public class Area
    {
        public int AreaId;
        public string Code;
        public string Name;
    }
}
