// The service at /layered/service/service.asmx: the eight operations of the
// interface document, typed results in which each level is in a namespace
// of its own (see Model.cs), offered over SOAP 1.1, SOAP 1.2, HTTP GET and
// HTTP POST by the ASMX runtime itself.
using System.Collections.Generic;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmLayered
{
    [WebService(Namespace = "http://layered.atmref.example.org/atmService")]
    public class Service : WebService
    {
        [WebMethod]
        public Finding ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Finding(Data.Atms.OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Finding ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Finding(new List<Record>(), new Point());
            return Results.Finding(Data.Near(lat, lon, bytRadius), new Point { Lat = lat, Lng = lon });
        }

        [WebMethod]
        public Finding ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Finding(Data.Near(dblLatitude, dblLongitude, bytRadius), new Point { Lat = dblLatitude, Lng = dblLongitude });
        }

        [WebMethod]
        public Finding ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Results.Finding(new List<Record>(), new Point());
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Results.Finding(near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), new Point { Lat = lat, Lng = lon });
        }

        [WebMethod]
        public Finding ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Finding(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Finding ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Results.Finding(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Roster ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return new Roster {
                Size = Data.Institutions.Length,
                Members = Data.Institutions.Select(Results.Owner).ToArray() };
        }

        [WebMethod]
        public Area[] ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Provinces.Select(p => new Area { Abbr = p.Code, Title = p.Name, Key = p.ProvinceId }).ToArray();
        }
    }

    // Results builds the typed results from the store.
    public static class Results
    {
        public static Owner Owner(Institution n)
        {
            return new Owner { Id = n.InstitutionId, CreditUnion = n.IsAtlanticCreditUnion, Web = n.Url, Name = n.Name };
        }

        public static Finding Finding(List<Record> list, Point centre)
        {
            var r = new Finding { Found = list.Count, Centre = centre, Sites = new Site[list.Count] };
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                r.Sites[i] = new Site {
                    No = i, Ref = a.Id, Code = a.Identifier,
                    Owner = Owner(Data.InstitutionOf(a.InstitutionId)),
                    Place = new Place { Province = a.Province, Street = a.Street, Town = a.City, Postcode = a.PostalCode, Note = a.Landmark,
                        Pin = new Point { Lat = a.Latitude, Lng = a.Longitude } },
                    Facilities = new Facilities { Hours = a.Hours, Deposit = a.Deposits, DriveUp = a.DriveThru, PinReset = a.PinChange, Audio = a.VoiceGuidance },
                    Cards = new Cards { Visa = a.Visa, Plus = a.Plus, MasterCard = a.MasterCard, Cirrus = a.Cirrus },
                    Tongues = a.Languages.Select(c => new Tongue { Code = c }).ToArray() };
            }
            return r;
        }
    }
}
