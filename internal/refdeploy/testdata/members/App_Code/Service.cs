// The service at /members/service/service.asmx: the eight operations of the
// interface document, typed results whose members are enums, decimals,
// nullable values and an int as text (see Model.cs), offered over SOAP 1.1, SOAP 1.2, HTTP GET and
// HTTP POST by the ASMX runtime itself.
using System.Collections.Generic;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmMembers
{
    [WebService(Namespace = "http://members.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public Hit ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Hit(Data.Atms.OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Hit ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Hit(new List<Record>(), new Spot());
            return Results.Hit(Data.Near(lat, lon, bytRadius), new Spot { Lat = (decimal)lat, Lng = (decimal)lon });
        }

        [WebMethod]
        public Hit ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Hit(Data.Near(dblLatitude, dblLongitude, bytRadius), new Spot { Lat = (decimal)dblLatitude, Lng = (decimal)dblLongitude });
        }

        [WebMethod]
        public Hit ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Hit(new List<Record>(), new Spot());
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Results.Hit(near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), new Spot { Lat = (decimal)lat, Lng = (decimal)lon });
        }

        [WebMethod]
        public Hit ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Hit(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Hit ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Hit(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Banks ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return new Banks { List = Data.Institutions.Select(Results.Bank).ToArray() };
        }

        [WebMethod]
        public Area[] ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Provinces.Select(p => new Area { Code = Results.RegionOf(p.Code), Name = p.Name, Id = p.ProvinceId }).ToArray();
        }
    }

    // Results builds the typed results from the store.
    public static class Results
    {
        public static Tongue TongueOf(string code)
        {
            return code == "fr" ? Tongue.French : Tongue.English;
        }

        public static Region RegionOf(string code)
        {
            switch (code)
            {
                case "NB": return Region.NewBrunswick;
                case "NS": return Region.NovaScotia;
                case "PE": return Region.PrinceEdwardIsland;
                case "NL": return Region.NewfoundlandAndLabrador;
                case "QC": return Region.Quebec;
                default: return Region.Ontario;
            }
        }

        public static Bank Bank(Institution n)
        {
            return new Bank { Id = n.InstitutionId, CreditUnion = n.IsAtlanticCreditUnion, Web = n.Url == "" ? null : n.Url, Name = n.Name };
        }

        public static Hit Hit(List<Record> list, Spot centre)
        {
            var r = new Hit { Found = list.Count, Centre = centre, Tellers = new Teller[list.Count] };
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                r.Tellers[i] = new Teller {
                    Id = a.Id, Region = RegionOf(a.Province), Code = a.Identifier,
                    Bank = Bank(Data.InstitutionOf(a.InstitutionId)),
                    Spot = new Spot { Lat = (decimal)a.Latitude, Lng = (decimal)a.Longitude },
                    Street = a.Street, Town = a.City, Postal = a.PostalCode, Landmark = a.Landmark == "" ? null : a.Landmark,
                    Perks = new Perks { Deposit = a.Deposits, Hours = (short)a.Hours, DriveUp = a.DriveThru, PinReset = a.PinChange, Audio = a.VoiceGuidance,
                        Visa = a.Visa, Plus = a.Plus, PlusSpecified = a.Plus, MasterCard = a.MasterCard, Cirrus = a.Cirrus },
                    Langs = a.Languages.Select(TongueOf).ToArray() };
            }
            return r;
        }
    }
}
