// The typed result of a location list, built from the store's records
// (Store.cs, shared with the attrs and dataset sites). Nothing here is
// shared with atmkit.
using System.Collections.Generic;
using AtmStore;

namespace AtmRef
{
    public static class Typed
    {
        // Result builds the typed result of a location list.
        public static AtmResult Result(List<Record> list, GeoPoint point)
        {
            var r = new AtmResult { Count = list.Count, SearchPoint = point, Atms = new Atm[list.Count] };
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                r.Atms[i] = new Atm {
                    Index = i, AtmId = a.Id, Identifier = a.Identifier, Bank = Data.InstitutionOf(a.InstitutionId),
                    Location = new GeoPoint { Latitude = a.Latitude, Longitude = a.Longitude },
                    Address = new Address { Street = a.Street, City = a.City, Province = a.Province, PostalCode = a.PostalCode, Landmark = a.Landmark },
                    Features = new Features { Deposits = a.Deposits, Hours = a.Hours, DriveThru = a.DriveThru, PinChange = a.PinChange, VoiceGuidance = a.VoiceGuidance },
                    Cards = new CreditCards { Visa = a.Visa, Plus = a.Plus, MasterCard = a.MasterCard, Cirrus = a.Cirrus },
                    Languages = a.Languages };
            }
            return r;
        }
    }
}
