// The legacy deployment's own small data set, its searches and the XML node
// its location searches return. Nothing here is shared with atmkit or with
// the typed deployment: the data, names and ids are this service's.
using System;
using System.Collections.Generic;
using System.Configuration;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Xml;

namespace AtmLegacy
{
    public class Lender
    {
        public int No;
        public string Name, Homepage;
        public bool CreditUnion;
    }

    public class Teller
    {
        public int Ref, Lender, CityId;
        public string Tag, Line1, Town, Region, Zip, Hint;
        public double Lat, Lon;
        public bool Deposit, Drive, Pin, Voice;
        public int Hours;
        public bool Visa, Plus, MasterCard, Cirrus;
        public string[] Tongues;
    }

    public static class Store
    {
        public static readonly Lender[] Lenders = {
            new Lender { No = 7, Name = "Lighthouse Savings", Homepage = "https://lighthouse.example", CreditUnion = false },
            new Lender { No = 8, Name = "Fundy Bank", Homepage = "https://fundy.example", CreditUnion = false },
            new Lender { No = 9, Name = "Cabot Credit Union", Homepage = "https://cabot.example", CreditUnion = true },
            new Lender { No = 10, Name = "Acadian Trust", Homepage = "", CreditUnion = false },
        };

        static Teller T(int id, string tag, int lender, int city, double lat, double lon, string line1, string town,
            string region, string zip, string hint, bool deposit, int hours, bool drive, bool pin, bool voice,
            bool visa, bool plus, bool mastercard, bool cirrus, string[] tongues)
        {
            return new Teller {
                Ref = id, Tag = tag, Lender = lender, CityId = city, Lat = lat, Lon = lon, Line1 = line1, Town = town,
                Region = region, Zip = zip, Hint = hint, Deposit = deposit, Hours = hours, Drive = drive, Pin = pin,
                Voice = voice, Visa = visa, Plus = plus, MasterCard = mastercard, Cirrus = cirrus, Tongues = tongues };
        }

        public static readonly Teller[] Tellers = {
            T(902, "CAB-NB-0902", 9, 3, 45.309129, -66.071714, "25 Water Street", "Saint John", "NB", "E2L 8D5", "", true, 0, true, false, false, true, true, true, true, new[] {"en"}),
            T(905, "CAB-NB-0905", 9, 3, 45.267262, -66.037152, "64 Union Street", "Saint John", "NB", "E2L 9B9", "", true, 0, true, false, false, true, true, true, false, new[] {"en"}),
            T(908, "CAB-NB-0908", 9, 3, 45.29859, -66.088842, "298 Prince Street", "Saint John", "NB", "E2L 3L1", "", true, 1, false, false, false, true, false, false, false, new[] {"en", "fr"}),
            T(909, "LGH-NB-0909", 7, 3, 45.29685, -66.04738, "125 Water Street", "Saint John", "NB", "E2L 9J8", "Inside the pharmacy", false, 2, true, true, false, true, true, false, true, new[] {"fr"}),
            T(911, "ACA-NB-0911", 10, 3, 45.267036, -66.026338, "40 Harbour Drive", "Saint John", "NB", "E2L 8S5", "Near the market", false, 0, true, false, false, true, true, true, false, new[] {"en", "fr"}),
            T(914, "CAB-NS-0914", 9, 5, 46.143036, -60.179701, "229 Charlotte Street", "Sydney", "NS", "B1P 6V5", "", true, 1, true, true, false, true, true, true, false, new[] {"en", "fr"}),
            T(916, "FUN-NS-0916", 8, 5, 46.170145, -60.194479, "86 Main Street", "Sydney", "NS", "B1P 6R4", "", false, 2, false, false, false, true, true, true, true, new[] {"fr"}),
            T(917, "ACA-NS-0917", 10, 5, 46.108904, -60.181519, "7 Main Street", "Sydney", "NS", "B1P 9F4", "Near the market", false, 2, false, false, true, true, true, false, false, new[] {"en"}),
            T(919, "CAB-NS-0919", 9, 5, 46.128718, -60.225917, "325 Main Street", "Sydney", "NS", "B1P 0G1", "", true, 1, true, true, true, true, true, true, false, new[] {"en"}),
            T(922, "CAB-NS-0922", 9, 5, 46.09884, -60.164253, "315 Main Street", "Sydney", "NS", "B1P 2U4", "Near the market", true, 1, false, false, false, true, false, true, true, new[] {"en", "fr"}),
            T(923, "ACA-PE-0923", 10, 8, 46.413374, -63.770972, "246 Harbour Drive", "Summerside", "PE", "C1N 2Q0", "", true, 2, true, false, true, true, false, false, true, new[] {"en", "fr"}),
            T(925, "CAB-PE-0925", 9, 8, 46.415155, -63.787593, "399 Prince Street", "Summerside", "PE", "C1N 5U3", "", true, 0, false, true, true, true, false, false, true, new[] {"fr"}),
            T(926, "LGH-PE-0926", 7, 8, 46.416609, -63.792421, "100 Victoria Road", "Summerside", "PE", "C1N 9L7", "By the bus terminal", false, 0, true, true, true, true, false, true, false, new[] {"fr"}),
            T(927, "CAB-PE-0927", 9, 8, 46.392012, -63.75138, "313 Harbour Drive", "Summerside", "PE", "C1N 0P5", "By the bus terminal", true, 1, true, false, true, true, false, false, true, new[] {"en"}),
            T(930, "CAB-PE-0930", 9, 8, 46.385067, -63.798089, "44 Victoria Road", "Summerside", "PE", "C1N 2F2", "", false, 2, true, false, false, true, true, true, true, new[] {"en"}),
            T(931, "ACA-NL-0931", 10, 13, 48.973949, -57.93189, "53 Prince Street", "Corner Brook", "NL", "A2H 2N3", "", true, 1, true, false, false, true, false, true, true, new[] {"en"}),
            T(934, "ACA-NL-0934", 10, 13, 48.938303, -57.953347, "299 Harbour Drive", "Corner Brook", "NL", "A2H 8N8", "", true, 1, true, true, true, true, true, true, false, new[] {"en"}),
            T(937, "ACA-NL-0937", 10, 13, 48.968015, -57.945482, "167 Victoria Road", "Corner Brook", "NL", "A2H 8Q8", "Inside the pharmacy", true, 0, true, false, true, true, true, false, true, new[] {"en", "fr"}),
            T(938, "FUN-NL-0938", 8, 13, 48.94546, -57.940998, "259 Prince Street", "Corner Brook", "NL", "A2H 8G4", "Inside the pharmacy", false, 2, true, false, true, true, false, true, false, new[] {"en"}),
            T(939, "ACA-NL-0939", 10, 13, 48.941389, -57.964722, "344 Union Street", "Corner Brook", "NL", "A2H 6C3", "By the bus terminal", true, 0, false, true, false, true, true, false, true, new[] {"en"}),
            T(942, "CAB-NS-0942", 9, 17, 45.4012, -63.288139, "250 Union Street", "Truro", "NS", "B2N 3F6", "", false, 0, false, false, true, true, false, true, false, new[] {"en"}),
            T(945, "CAB-NS-0945", 9, 17, 45.361694, -63.263748, "197 Charlotte Street", "Truro", "NS", "B2N 8T4", "", true, 0, true, false, false, true, true, true, false, new[] {"en", "fr"}),
            T(946, "LGH-NS-0946", 7, 17, 45.390582, -63.252033, "347 Harbour Drive", "Truro", "NS", "B2N 4M2", "", false, 0, false, true, true, true, false, true, false, new[] {"en", "fr"}),
            T(947, "CAB-NS-0947", 9, 17, 45.375755, -63.25587, "43 Prince Street", "Truro", "NS", "B2N 3C4", "", false, 2, false, false, true, true, true, true, true, new[] {"en"}),
            T(948, "LGH-NS-0948", 7, 17, 45.345952, -63.305508, "160 Victoria Road", "Truro", "NS", "B2N 4Q3", "Near the market", true, 1, false, true, false, true, true, true, true, new[] {"en"}),
        };

        // CheckKey refuses a missing, empty or unknown service key with a
        // plain exception, as much legacy code does: ASMX wraps it.
        public static void CheckKey(string key)
        {
            if (string.IsNullOrEmpty(key))
                throw new ArgumentException("A service key is required.", "strAtmServiceKey");
            string keys = ConfigurationManager.AppSettings["ServiceKeys"] ?? "";
            if (!keys.Split(',').Any(k => k.Trim().Length > 0 && k.Trim() == key))
                throw new UnauthorizedAccessException("Unknown service key.");
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

        // Within lists the tellers within radius km of the point, nearest
        // first, ties by reference.
        public static List<Teller> Within(double lat, double lon, int radius)
        {
            return Tellers.Select(t => new { t, d = Km(lat, lon, t.Lat, t.Lon) })
                .Where(x => x.d <= radius)
                .OrderBy(x => x.d).ThenBy(x => x.t.Ref)
                .Select(x => x.t).ToList();
        }

        static string Fold(string s)
        {
            return (s ?? "").ToUpperInvariant().Replace(" ", "").Replace("-", "");
        }

        // Locate finds the point of an address: a known postal code, else a
        // known street in the town, else the town's first teller.
        public static bool Locate(string line1, string town, string region, string zip, out double lat, out double lon)
        {
            lat = lon = 0;
            Teller hit = Tellers.FirstOrDefault(t => Fold(zip).Length > 0 && Fold(t.Zip) == Fold(zip))
                ?? Tellers.FirstOrDefault(t => Fold(line1).Length > 0 && Fold(t.Line1) == Fold(line1) && Fold(t.Town) == Fold(town))
                ?? Tellers.FirstOrDefault(t => Fold(t.Town) == Fold(town) && (Fold(region).Length == 0 || Fold(t.Region) == Fold(region)));
            if (hit == null)
                return false;
            lat = hit.Lat;
            lon = hit.Lon;
            return true;
        }

        static Lender LenderOf(int no)
        {
            return Lenders.First(l => l.No == no);
        }

        static string Num(double v) { return v.ToString("R", CultureInfo.InvariantCulture); }
        static string Flag(bool v) { return v ? "1" : "0"; }

        // Node builds the XML node of a location list, in no namespace:
        // values in elements and in attributes, flags as 1/0 in some places
        // and true/false in others.
        public static XmlElement Node(List<Teller> list, bool withOrigin, double lat, double lon)
        {
            var doc = new XmlDocument();
            XmlElement root = doc.CreateElement("TellerList");
            Text(root, "Found", list.Count.ToString(CultureInfo.InvariantCulture));
            if (withOrigin)
            {
                XmlElement o = Child(root, "Origin");
                o.SetAttribute("lat", Num(lat));
                o.SetAttribute("lon", Num(lon));
            }
            for (int i = 0; i < list.Count; i++)
            {
                Teller t = list[i];
                Lender l = LenderOf(t.Lender);
                XmlElement e = Child(root, "Teller");
                e.SetAttribute("seq", i.ToString(CultureInfo.InvariantCulture));
                e.SetAttribute("ref", t.Ref.ToString(CultureInfo.InvariantCulture));
                Text(e, "Tag", t.Tag);
                XmlElement op = Child(e, "Operator");
                op.SetAttribute("num", l.No.ToString(CultureInfo.InvariantCulture));
                op.SetAttribute("acu", Flag(l.CreditUnion));
                Text(op, "Title", l.Name);
                Text(op, "Site", l.Homepage);
                XmlElement geo = Child(e, "Geo");
                geo.SetAttribute("lat", Num(t.Lat));
                geo.SetAttribute("lon", Num(t.Lon));
                XmlElement place = Child(e, "Place");
                Text(place, "Line1", t.Line1);
                Text(place, "Town", t.Town);
                Text(place, "Region", t.Region);
                Text(place, "Zip", t.Zip);
                Text(place, "Hint", t.Hint);
                XmlElement opts = Child(e, "Options");
                opts.SetAttribute("deposit", t.Deposit ? "true" : "false");
                opts.SetAttribute("hours", t.Hours.ToString(CultureInfo.InvariantCulture));
                opts.SetAttribute("drive", t.Drive ? "true" : "false");
                opts.SetAttribute("pin", t.Pin ? "true" : "false");
                opts.SetAttribute("voice", t.Voice ? "true" : "false");
                XmlElement nets = Child(e, "Networks");
                nets.SetAttribute("visa", Flag(t.Visa));
                nets.SetAttribute("plus", Flag(t.Plus));
                nets.SetAttribute("mastercard", Flag(t.MasterCard));
                nets.SetAttribute("cirrus", Flag(t.Cirrus));
                XmlElement tongues = Child(e, "Tongues");
                foreach (string code in t.Tongues)
                    Text(tongues, "Tongue", code);
            }
            return root;
        }

        static XmlElement Child(XmlElement parent, string name)
        {
            XmlElement e = parent.OwnerDocument.CreateElement(name);
            parent.AppendChild(e);
            return e;
        }

        static void Text(XmlElement parent, string name, string value)
        {
            Child(parent, name).InnerText = value ?? "";
        }

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
        public static string Json(List<Teller> list, double lat, double lon)
        {
            var b = new StringBuilder();
            b.Append("{\"count\":").Append(list.Count).Append(",\"coordinates\":{\"latitude\":").Append(Num(lat))
                .Append(",\"longitude\":").Append(Num(lon)).Append("},\"locations\":[");
            for (int i = 0; i < list.Count; i++)
            {
                Teller t = list[i];
                Lender l = LenderOf(t.Lender);
                if (i > 0) b.Append(',');
                b.Append("{\"index\":").Append(i).Append(",\"id\":").Append(t.Ref).Append(",\"atmIdentifier\":").Append(Str(t.Tag))
                    .Append(",\"institution\":{\"id\":").Append(l.No).Append(",\"name\":").Append(Str(l.Name))
                    .Append(",\"url\":").Append(Str(l.Homepage)).Append(",\"isAtlanticCreditUnion\":").Append(Flag(l.CreditUnion))
                    .Append("},\"coordinates\":{\"latitude\":").Append(Num(t.Lat)).Append(",\"longitude\":").Append(Num(t.Lon))
                    .Append("},\"address\":{\"streetAddress\":").Append(Str(t.Line1)).Append(",\"city\":").Append(Str(t.Town))
                    .Append(",\"province\":").Append(Str(t.Region)).Append(",\"postalCode\":").Append(Str(t.Zip))
                    .Append(",\"landmark\":").Append(Str(t.Hint))
                    .Append("},\"features\":{\"deposits\":").Append(Flag(t.Deposit)).Append(",\"hours\":").Append(t.Hours)
                    .Append(",\"driveThru\":").Append(Flag(t.Drive)).Append(",\"pinChange\":").Append(Flag(t.Pin))
                    .Append(",\"voiceGuidance\":").Append(Flag(t.Voice))
                    .Append("},\"creditCards\":{\"visa\":").Append(Flag(t.Visa)).Append(",\"plus\":").Append(Flag(t.Plus))
                    .Append(",\"mastercard\":").Append(Flag(t.MasterCard)).Append(",\"cirrus\":").Append(Flag(t.Cirrus))
                    .Append("},\"languages\":[").Append(string.Join(",", t.Tongues.Select(Str).ToArray())).Append("]}");
            }
            return b.Append("]}").ToString();
        }
    }
}
