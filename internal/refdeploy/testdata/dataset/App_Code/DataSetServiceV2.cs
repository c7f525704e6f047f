// The service at /dataset/service-v2.asmx: the JSON form of the two searches the
// interface document offers as JSON (JsonSearches, shared with the other
// site of the store), in this site's namespace.
using System.Web.Services;
using AtmStore;

namespace AtmSets
{
    [WebService(Namespace = "http://dataset.atmref.example.org/atmService")]
    public class DataSetServiceV2 : JsonSearches
    {
    }
}
