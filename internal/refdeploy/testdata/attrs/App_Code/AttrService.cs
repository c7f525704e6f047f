// The service at /attrs/service/service.asmx: the eight operations of the
// interface document, typed results whose values sit in attributes as well
// as elements (see Model.cs), offered over SOAP 1.1, SOAP 1.2, HTTP GET and
// HTTP POST by the ASMX runtime itself.
using System.Collections.Generic;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmAttrs
{
    [WebService(Namespace = "http://attrs.atmref.example.org/atmService")]
    public class AttrService : WebService
    {
        [WebMethod]
        public Lookup ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Lookup("all", Data.Atms.OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Lookup ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Lookup("near", new List<Record>(), new Origin());
            return Results.Lookup("near", Data.Near(lat, lon, bytRadius), new Origin { Lat = lat, Lon = lon });
        }

        [WebMethod]
        public Lookup ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Lookup("near", Data.Near(dblLatitude, dblLongitude, bytRadius), new Origin { Lat = dblLatitude, Lon = dblLongitude });
        }

        [WebMethod]
        public Lookup ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Lookup("near", new List<Record>(), new Origin());
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Results.Lookup("near", near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), new Origin { Lat = lat, Lon = lon });
        }

        [WebMethod]
        public Lookup ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Lookup("institution", Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Lookup ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Lookup("city", Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public BankList ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return new BankList {
                Count = Data.Institutions.Length,
                Banks = Data.Institutions.Select(n => new Bank { No = n.InstitutionId, CreditUnion = n.IsAtlanticCreditUnion, Title = n.Name, Web = n.Url }).ToArray() };
        }

        [WebMethod]
        public Region[] ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Provinces.Select(p => new Region { Id = p.ProvinceId, Code = p.Code, Label = p.Name }).ToArray();
        }
    }

    // Results builds the typed results from the store.
    public static class Results
    {
        // Lookup is the result of a location list; kind names the question
        // (all, near, institution, city).
        public static Lookup Lookup(string kind, List<Record> list, Origin origin)
        {
            var r = new Lookup { Total = list.Count, Kind = kind, Origin = origin, Machines = new Machine[list.Count] };
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = Data.InstitutionOf(a.InstitutionId);
                r.Machines[i] = new Machine {
                    Seq = i, Ref = a.Id, Tag = a.Identifier,
                    Operator = new Operator { Num = n.InstitutionId, CreditUnion = n.IsAtlanticCreditUnion, Title = n.Name, Site = n.Url },
                    Spot = new Origin { Lat = a.Latitude, Lon = a.Longitude },
                    Place = new Place { Line1 = a.Street, Town = a.City, Region = a.Province, Zip = a.PostalCode, Hint = a.Landmark },
                    Options = new Options { Deposit = a.Deposits, Hours = a.Hours, Drive = a.DriveThru, Pin = a.PinChange, Voice = a.VoiceGuidance },
                    Networks = new Networks { Visa = a.Visa, Plus = a.Plus, MasterCard = a.MasterCard, Cirrus = a.Cirrus },
                    Langs = a.Languages };
            }
            return r;
        }
    }
}
