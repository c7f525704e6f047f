// The JSON form of the two searches the interface document offers as JSON,
// for the sites that share the store (Store.cs): written as the bare result
// object and declared text/xml, as the document says. The methods write the
// body themselves and end the response, so nothing else is appended. Each
// site's service-v2.asmx class derives from it with its own namespace; ASMX
// offers the web methods a class inherits.
using System.Collections.Generic;
using System.Web;
using System.Web.Services;

namespace AtmStore
{
    public abstract class JsonSearches : WebService
    {
        static void Write(string json)
        {
            HttpResponse r = HttpContext.Current.Response;
            r.ContentType = "text/xml";
            r.Charset = "utf-8";
            r.Write(json);
            r.End();
        }

        [WebMethod]
        public void ReturnAtmSearchByAddress(string strAtmServiceKey, string strAddress, string strCity, string strProvince, string strPostalCode, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            double lat, lon;
            if (!Data.Geocode(strAddress, strCity, strProvince, strPostalCode, out lat, out lon))
            {
                Write(Data.Json(new List<Record>(), 0, 0));
                return;
            }
            Write(Data.Json(Data.Near(lat, lon, bytRadius), lat, lon));
        }

        [WebMethod]
        public void ReturnAtmSearchByCoordinates(string strAtmServiceKey, string strPostalCode, double dblLatitude, double dblLongitude, byte bytRadius)
        {
            Data.CheckKey(strAtmServiceKey);
            Write(Data.Json(Data.Near(dblLatitude, dblLongitude, bytRadius), dblLatitude, dblLongitude));
        }
    }
}
