// The service at /groupsets/service-v2.asmx: the JSON form of the two searches
// the interface document offers as JSON (JsonSearches, shared with the other
// sites of the store), in this site's namespace.
using System.Web.Services;
using AtmStore;

namespace AtmGroupSets
{
    [WebService(Namespace = "http://groupsets.atmref.example.org/atmService")]
    public class ServiceV2 : JsonSearches
    {
    }
}
