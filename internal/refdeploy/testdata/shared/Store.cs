// The store of the typed, attrs and dataset sites: their ATMs,
// institutions, provinces and cities, and their searches. refdeploy copies
// it into the App_Code of each of those sites (sharedStoreSites); each site
// reads its own key from its own web.config. Nothing here is shared with
// atmkit.
using System;
using System.Collections.Generic;
using System.Configuration;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Web.Services.Protocols;

namespace AtmStore
{
    // Institution and Province are the store's rows of the two reference
    // lists.
    public class Institution
    {
        public int InstitutionId;
        public string Name;
        public string Url;
        public bool IsAtlanticCreditUnion;
    }

    public class Province
    {
        public int ProvinceId;
        public string Code;
        public string Name;
    }

    public class City
    {
        public int Id;
        public string Name;
        public string Province;
        public double Latitude, Longitude;
    }

    public class Record
    {
        public int Id;
        public string Identifier;
        public int InstitutionId;
        public int CityId;
        public double Latitude, Longitude;
        public string Street, City, Province, PostalCode, Landmark;
        public bool Deposits, DriveThru, PinChange, VoiceGuidance;
        public int Hours;
        public bool Visa, Plus, MasterCard, Cirrus;
        public string[] Languages;
    }

    public static class Data
    {
        public static readonly Institution[] Institutions = {
            new Institution { InstitutionId = 100, Name = "Harbour Bank", Url = "https://harbourbank.example", IsAtlanticCreditUnion = false },
            new Institution { InstitutionId = 200, Name = "Maritime Trust", Url = "https://maritimetrust.example", IsAtlanticCreditUnion = false },
            new Institution { InstitutionId = 300, Name = "Tidewater Credit Union", Url = "https://tidewater.example", IsAtlanticCreditUnion = true },
            new Institution { InstitutionId = 400, Name = "Northern Savings", Url = "", IsAtlanticCreditUnion = false },
        };

        public static readonly Province[] Provinces = {
            new Province { ProvinceId = 1, Code = "NB", Name = "New Brunswick" },
            new Province { ProvinceId = 2, Code = "NS", Name = "Nova Scotia" },
            new Province { ProvinceId = 3, Code = "PE", Name = "Prince Edward Island" },
            new Province { ProvinceId = 4, Code = "NL", Name = "Newfoundland and Labrador" },
            new Province { ProvinceId = 5, Code = "QC", Name = "Quebec" },
            new Province { ProvinceId = 6, Code = "ON", Name = "Ontario" },
        };

        public static readonly City[] Cities = {
            new City { Id = 11, Name = "Halifax", Province = "NS", Latitude = 44.6488, Longitude = -63.5752 },
            new City { Id = 12, Name = "Dartmouth", Province = "NS", Latitude = 44.6713, Longitude = -63.5772 },
            new City { Id = 21, Name = "Moncton", Province = "NB", Latitude = 46.0878, Longitude = -64.7782 },
            new City { Id = 22, Name = "Fredericton", Province = "NB", Latitude = 45.9636, Longitude = -66.6431 },
            new City { Id = 31, Name = "Charlottetown", Province = "PE", Latitude = 46.2382, Longitude = -63.1311 },
            new City { Id = 41, Name = "St. John's", Province = "NL", Latitude = 47.5615, Longitude = -52.7126 },
        };

        static Record A(int id, string ident, int inst, int city, double lat, double lon, string street, string cityName,
            string prov, string postal, string landmark, bool deposits, int hours, bool driveThru, bool pinChange,
            bool voice, bool visa, bool plus, bool mastercard, bool cirrus, string[] langs)
        {
            return new Record {
                Id = id, Identifier = ident, InstitutionId = inst, CityId = city, Latitude = lat, Longitude = lon,
                Street = street, City = cityName, Province = prov, PostalCode = postal, Landmark = landmark,
                Deposits = deposits, Hours = hours, DriveThru = driveThru, PinChange = pinChange, VoiceGuidance = voice,
                Visa = visa, Plus = plus, MasterCard = mastercard, Cirrus = cirrus, Languages = langs };
        }

        public static readonly Record[] Atms = {
            A(5001, "MAR-NS-1467", 200, 11, 44.635841, -63.592648, "1014 Prospect Street", "Halifax", "NS", "B3J 0C2", "Near the ferry terminal", false, 1, true, true, true, true, true, false, true, new[] {"en"}),
            A(5002, "HAR-NS-9527", 100, 11, 44.668916, -63.572375, "398 Spring Garden Road", "Halifax", "NS", "B3V 6E4", "", true, 0, false, true, false, true, false, true, false, new[] {"en"}),
            A(5005, "HAR-NS-8251", 100, 11, 44.652772, -63.639955, "2986 Kenmount Road", "Halifax", "NS", "B3J 2Y7", "Inside the mall", true, 1, false, false, false, true, true, true, true, new[] {"en", "fr"}),
            A(5006, "TID-NS-6175", 300, 11, 44.613816, -63.571179, "901 Queen Street", "Halifax", "NS", "B3W 1W8", "", false, 1, true, false, true, true, false, true, true, new[] {"en"}),
            A(5009, "NOR-NS-6670", 400, 11, 44.616325, -63.589723, "1229 Spring Garden Road", "Halifax", "NS", "B3H 0J2", "Near the ferry terminal", true, 1, false, true, false, true, false, true, true, new[] {"en"}),
            A(5010, "HAR-NS-9399", 100, 11, 44.627674, -63.631884, "1476 Main Street", "Halifax", "NS", "B3C 1W8", "", false, 2, false, false, false, true, false, true, true, new[] {"en", "fr"}),
            A(5013, "TID-NS-9918", 300, 11, 44.633944, -63.510105, "2529 Barrington Street", "Halifax", "NS", "B3A 7J0", "", false, 0, true, true, true, true, false, false, false, new[] {"fr"}),
            A(5015, "NOR-NS-3235", 400, 11, 44.677821, -63.591848, "2947 Mountain Road", "Halifax", "NS", "B3E 9T2", "", false, 2, true, true, true, true, true, false, false, new[] {"en"}),
            A(5017, "HAR-NS-4857", 100, 11, 44.609618, -63.54368, "1772 Prospect Street", "Halifax", "NS", "B3Z 9A5", "", false, 2, false, true, true, true, false, false, true, new[] {"en"}),
            A(5020, "TID-NS-6061", 300, 11, 44.691558, -63.507758, "1719 Queen Street", "Halifax", "NS", "B3K 4C8", "Near the ferry terminal", true, 2, true, true, true, true, false, false, true, new[] {"fr"}),
            A(5023, "TID-NS-6876", 300, 11, 44.619325, -63.589617, "2397 Queen Street", "Halifax", "NS", "B3R 8P9", "", false, 1, false, true, false, true, false, true, true, new[] {"en"}),
            A(5026, "TID-NS-1732", 300, 11, 44.697473, -63.606826, "1002 Queen Street", "Halifax", "NS", "B3W 4L6", "", false, 2, true, false, false, true, false, true, true, new[] {"en"}),
            A(5028, "HAR-NS-1080", 100, 12, 44.686769, -63.537966, "2500 King Street", "Dartmouth", "NS", "B2S 0G0", "", false, 0, true, true, true, true, false, false, true, new[] {"en"}),
            A(5029, "HAR-NS-4176", 100, 12, 44.707207, -63.55569, "2457 Queen Street", "Dartmouth", "NS", "B2P 1K0", "Near the ferry terminal", true, 1, false, false, true, true, true, false, false, new[] {"en"}),
            A(5030, "NOR-NS-1817", 400, 12, 44.694079, -63.638082, "724 Queen Street", "Dartmouth", "NS", "B2X 3C4", "Inside the mall", false, 0, false, false, true, true, true, false, true, new[] {"en", "fr"}),
            A(5033, "HAR-NS-6005", 100, 12, 44.721036, -63.516826, "1671 Main Street", "Dartmouth", "NS", "B2G 3N3", "Gas station", true, 0, true, true, true, true, true, true, true, new[] {"en"}),
            A(5036, "MAR-NS-6456", 200, 12, 44.652182, -63.551982, "2603 Prospect Street", "Dartmouth", "NS", "B2V 2L7", "", true, 0, true, false, true, true, true, false, true, new[] {"en"}),
            A(5037, "TID-NS-5867", 300, 12, 44.67196, -63.605748, "2820 Barrington Street", "Dartmouth", "NS", "B2R 0Z2", "", false, 1, false, true, false, true, true, false, true, new[] {"en"}),
            A(5039, "HAR-NB-7923", 100, 21, 46.085466, -64.824436, "1419 Queen Street", "Moncton", "NB", "E1K 7P9", "", false, 2, false, true, false, true, false, false, true, new[] {"en", "fr"}),
            A(5041, "MAR-NB-5587", 200, 21, 46.067973, -64.757615, "2804 Water Street", "Moncton", "NB", "E1A 7M9", "", true, 1, true, true, true, true, false, true, true, new[] {"en"}),
            A(5044, "HAR-NB-4152", 100, 21, 46.073937, -64.764135, "1572 King Street", "Moncton", "NB", "E1T 5V9", "", false, 0, false, false, true, true, false, false, true, new[] {"en"}),
            A(5045, "HAR-NB-3842", 100, 21, 46.041459, -64.747607, "23 Barrington Street", "Moncton", "NB", "E1J 5N0", "", true, 0, false, false, true, true, true, false, true, new[] {"en", "fr"}),
            A(5048, "HAR-NB-4664", 100, 21, 46.089428, -64.819843, "606 Spring Garden Road", "Moncton", "NB", "E1S 1S8", "", true, 2, true, false, true, true, true, false, false, new[] {"en"}),
            A(5050, "TID-NB-3913", 300, 21, 46.107403, -64.816624, "2140 Water Street", "Moncton", "NB", "E1R 4L4", "Gas station", true, 0, false, false, false, true, true, false, true, new[] {"en"}),
            A(5051, "NOR-NB-6973", 400, 21, 46.07239, -64.777353, "1495 Kenmount Road", "Moncton", "NB", "E1X 7T9", "Gas station", false, 1, false, false, true, true, false, false, false, new[] {"en"}),
            A(5054, "MAR-NB-6326", 200, 22, 45.947378, -66.695123, "2341 Main Street", "Fredericton", "NB", "E3L 1T5", "Gas station", true, 0, true, true, true, true, true, false, false, new[] {"en"}),
            A(5057, "NOR-NB-4521", 400, 22, 45.954729, -66.711617, "63 Kenmount Road", "Fredericton", "NB", "E3N 8J0", "", true, 1, true, false, false, true, false, false, true, new[] {"en"}),
            A(5060, "HAR-NB-8420", 100, 22, 45.933429, -66.624709, "1576 Queen Street", "Fredericton", "NB", "E3C 0N5", "Inside the mall", true, 2, true, false, true, true, true, false, false, new[] {"en", "fr"}),
            A(5063, "NOR-NB-5785", 400, 22, 46.007574, -66.639857, "2091 Main Street", "Fredericton", "NB", "E3H 1Y9", "Inside the mall", true, 2, false, true, false, true, true, false, true, new[] {"fr"}),
            A(5064, "NOR-NB-8963", 400, 22, 45.974276, -66.674553, "1168 King Street", "Fredericton", "NB", "E3K 8V7", "", false, 2, false, true, false, true, false, true, false, new[] {"en"}),
            A(5065, "MAR-PE-5382", 200, 31, 46.260041, -63.155936, "1554 Barrington Street", "Charlottetown", "PE", "C1K 3T3", "", true, 0, true, false, false, true, true, true, true, new[] {"en"}),
            A(5066, "MAR-PE-1215", 200, 31, 46.275405, -63.14168, "1444 Main Street", "Charlottetown", "PE", "C1T 1G0", "Gas station", true, 2, true, false, true, true, true, true, false, new[] {"en"}),
            A(5067, "MAR-PE-0211", 200, 31, 46.232588, -63.162444, "5 Queen Street", "Charlottetown", "PE", "C1X 2J8", "Inside the mall", false, 2, true, true, true, true, false, false, true, new[] {"en", "fr"}),
            A(5068, "MAR-PE-3835", 200, 31, 46.210311, -63.082218, "2227 Portland Street", "Charlottetown", "PE", "C1H 2V4", "", true, 0, true, true, true, true, true, true, true, new[] {"en"}),
            A(5069, "HAR-PE-5225", 100, 31, 46.190272, -63.07362, "2877 Queen Street", "Charlottetown", "PE", "C1P 6A4", "", false, 2, false, true, false, true, false, false, false, new[] {"en"}),
            A(5070, "TID-NL-5182", 300, 41, 47.59596, -52.732913, "989 King Street", "St. John's", "NL", "A1W 8P1", "", true, 0, true, false, false, true, false, false, true, new[] {"en"}),
            A(5073, "TID-NL-4929", 300, 41, 47.534124, -52.774495, "2162 Main Street", "St. John's", "NL", "A1N 5W6", "Inside the mall", true, 0, false, true, false, true, false, true, false, new[] {"en", "fr"}),
            A(5076, "MAR-NL-8558", 200, 41, 47.514211, -52.685061, "1120 Mountain Road", "St. John's", "NL", "A1W 9G5", "Gas station", true, 2, true, false, true, true, true, true, false, new[] {"en", "fr"}),
            A(5079, "TID-NL-9157", 300, 41, 47.593993, -52.708195, "2069 Spring Garden Road", "St. John's", "NL", "A1Y 0M5", "", false, 2, true, true, false, true, false, false, false, new[] {"en"}),
            A(5081, "TID-NL-9864", 300, 41, 47.567391, -52.69425, "2006 Mountain Road", "St. John's", "NL", "A1R 8Y3", "Gas station", true, 1, false, true, true, true, true, true, true, new[] {"en", "fr"}),
            A(5082, "MAR-NL-0999", 200, 41, 47.59187, -52.703942, "1077 Prospect Street", "St. John's", "NL", "A1R 6N3", "Near the ferry terminal", false, 1, false, true, true, true, true, true, true, new[] {"en"}),
        };

        // CheckKey refuses a missing, empty or unknown service key with a
        // SoapException of the Client code: its message alone reaches the
        // caller, in every binding.
        public static void CheckKey(string key)
        {
            if (key == null || key.Trim().Length == 0)
                throw new SoapException("The service key (strAtmServiceKey) is missing or empty.", SoapException.ClientFaultCode);
            string keys = ConfigurationManager.AppSettings["ServiceKeys"] ?? "";
            foreach (string k in keys.Split(','))
                if (k.Trim().Length > 0 && k.Trim() == key)
                    return;
            throw new SoapException("The service key (strAtmServiceKey) is not valid.", SoapException.ClientFaultCode);
        }

        static double Km(double lat1, double lon1, double lat2, double lon2)
        {
            const double r = 6371.0088;
            double rad = Math.PI / 180;
            double dlat = (lat2 - lat1) * rad, dlon = (lon2 - lon1) * rad;
            double a = Math.Sin(dlat / 2) * Math.Sin(dlat / 2) +
                Math.Cos(lat1 * rad) * Math.Cos(lat2 * rad) * Math.Sin(dlon / 2) * Math.Sin(dlon / 2);
            return 2 * r * Math.Asin(Math.Min(1, Math.Sqrt(a)));
        }

        // Near lists the ATMs within radius km of the point, nearest first, ties by id.
        public static List<Record> Near(double lat, double lon, int radius)
        {
            return Atms.Select(a => new { a, d = Km(lat, lon, a.Latitude, a.Longitude) })
                .Where(x => x.d <= radius)
                .OrderBy(x => x.d).ThenBy(x => x.a.Id)
                .Select(x => x.a).ToList();
        }

        static string Squash(string s)
        {
            return (s ?? "").ToUpperInvariant().Replace(" ", "").Replace("-", "");
        }

        // Geocode finds the point of an address: a known postal code, else a
        // known street address in the city, else the city's centre.
        public static bool Geocode(string street, string city, string province, string postal, out double lat, out double lon)
        {
            lat = lon = 0;
            foreach (Record a in Atms)
                if (Squash(postal).Length > 0 && Squash(a.PostalCode) == Squash(postal)) { lat = a.Latitude; lon = a.Longitude; return true; }
            foreach (Record a in Atms)
                if (Squash(street).Length > 0 && Squash(a.Street) == Squash(street) && Squash(a.City) == Squash(city)) { lat = a.Latitude; lon = a.Longitude; return true; }
            foreach (City c in Cities)
                if (Squash(c.Name) == Squash(city) && (Squash(province).Length == 0 || Squash(c.Province) == Squash(province))) { lat = c.Latitude; lon = c.Longitude; return true; }
            return false;
        }

        public static Institution InstitutionOf(int id)
        {
            return Institutions.First(i => i.InstitutionId == id);
        }

        static string Num(double v) { return v.ToString("R", CultureInfo.InvariantCulture); }
        static string Flag(bool v) { return v ? "1" : "0"; }

        static string Str(string s)
        {
            var b = new StringBuilder("\"");
            foreach (char c in s ?? "")
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < 0x20) b.AppendFormat("\\u{0:x4}", (int)c);
                else b.Append(c);
            }
            return b.Append('"').ToString();
        }

        // Json writes the document's JSON result object of a search.
        public static string Json(List<Record> list, double lat, double lon)
        {
            var b = new StringBuilder();
            b.Append("{\"count\":").Append(list.Count).Append(",\"coordinates\":{\"latitude\":").Append(Num(lat))
                .Append(",\"longitude\":").Append(Num(lon)).Append("},\"locations\":[");
            for (int i = 0; i < list.Count; i++)
            {
                Record a = list[i];
                Institution n = InstitutionOf(a.InstitutionId);
                if (i > 0) b.Append(',');
                b.Append("{\"index\":").Append(i).Append(",\"id\":").Append(a.Id).Append(",\"atmIdentifier\":").Append(Str(a.Identifier))
                    .Append(",\"institution\":{\"id\":").Append(n.InstitutionId).Append(",\"name\":").Append(Str(n.Name))
                    .Append(",\"url\":").Append(Str(n.Url)).Append(",\"isAtlanticCreditUnion\":").Append(Flag(n.IsAtlanticCreditUnion))
                    .Append("},\"coordinates\":{\"latitude\":").Append(Num(a.Latitude)).Append(",\"longitude\":").Append(Num(a.Longitude))
                    .Append("},\"address\":{\"streetAddress\":").Append(Str(a.Street)).Append(",\"city\":").Append(Str(a.City))
                    .Append(",\"province\":").Append(Str(a.Province)).Append(",\"postalCode\":").Append(Str(a.PostalCode))
                    .Append(",\"landmark\":").Append(Str(a.Landmark))
                    .Append("},\"features\":{\"deposits\":").Append(Flag(a.Deposits)).Append(",\"hours\":").Append(a.Hours)
                    .Append(",\"driveThru\":").Append(Flag(a.DriveThru)).Append(",\"pinChange\":").Append(Flag(a.PinChange))
                    .Append(",\"voiceGuidance\":").Append(Flag(a.VoiceGuidance))
                    .Append("},\"creditCards\":{\"visa\":").Append(Flag(a.Visa)).Append(",\"plus\":").Append(Flag(a.Plus))
                    .Append(",\"mastercard\":").Append(Flag(a.MasterCard)).Append(",\"cirrus\":").Append(Flag(a.Cirrus))
                    .Append("},\"languages\":[").Append(string.Join(",", a.Languages.Select(Str).ToArray())).Append("]}");
            }
            return b.Append("]}").ToString();
        }
    }
}
