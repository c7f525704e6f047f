// The service at /service/service.asmx: the eight operations of the
// interface document, typed results, offered over SOAP 1.1, SOAP 1.2,
// HTTP GET and HTTP POST by the ASMX runtime itself.
using System.Collections.Generic;
using System.Linq;
using System.Web.Services;
using AtmStore;

namespace AtmRef
{
    [WebService(Namespace = "http://atmref.example.org/atmService")]
    public class AtmService : WebService
    {
        [WebMethod]
        public AtmResult ReturnAllAtms(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Typed.Result(Data.Atms.OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public AtmResult ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Typed.Result(new List<Record>(), new GeoPoint());
            return Typed.Result(Data.Near(lat, lon, bytRadius), new GeoPoint { Latitude = lat, Longitude = lon });
        }

        [WebMethod]
        public AtmResult ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            return Typed.Result(Data.Near(dblLatitude, dblLongitude, bytRadius), new GeoPoint { Latitude = dblLatitude, Longitude = dblLongitude });
        }

        [WebMethod]
        public AtmResult ReturnAtmSearchByAddressWithMaximum(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius, int intMaximumAtms)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
                return Typed.Result(new List<Record>(), new GeoPoint());
            List<Record> near = Data.Near(lat, lon, bytRadius);
            return Typed.Result(near.Take(System.Math.Max(0, intMaximumAtms)).ToList(), new GeoPoint { Latitude = lat, Longitude = lon });
        }

        [WebMethod]
        public AtmResult ReturnAtmSearchByInstitution(string strAtmServiceKey, int intInstitutionID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Typed.Result(Data.Atms.Where(a => a.InstitutionId == intInstitutionID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public AtmResult ReturnAtmSearchByCity(string strAtmServiceKey, int intCityID)
        {
            Data.CheckKey(strAtmServiceKey);
            return Typed.Result(Data.Atms.Where(a => a.CityId == intCityID).OrderBy(a => a.Id).ToList(), null);
        }

        [WebMethod]
        public Institution[] ReturnInstitutions(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Institutions;
        }

        [WebMethod]
        public Province[] ReturnProvinces(string strAtmServiceKey)
        {
            Data.CheckKey(strAtmServiceKey);
            return Data.Provinces;
        }
    }
}
