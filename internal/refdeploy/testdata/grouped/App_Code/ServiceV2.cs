// The service at /grouped/service-v2.asmx: the JSON form of the two searches
// the interface document offers as JSON (JsonSearches, shared with the other
// sites of the store), in this site's namespace.
using System.Web.Services;
using AtmStore;

namespace AtmGrouped
{
    [WebService(Namespace = "http://grouped.atmref.example.org/atmService")]
    public class ServiceV2 : JsonSearches
    {
    }
}
