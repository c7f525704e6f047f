// The result types of the layered site: XmlSerializer classes in which each
// level is in a namespace of its own (XmlType, XmlElement and XmlArrayItem
// Namespace), elements renamed (XmlElement("Name")), lists with item names
// of their own (XmlArray/XmlArrayItem), a nested object two levels deep
// (a place inside each site, a point inside the place), values as attributes
// on the items and on the root (some of them in a namespace of their own),
// values as element text (XmlText), a list of a class holding only its
// text, and a level in no namespace (Form Unqualified).
using System.Xml.Schema;
using System.Xml.Serialization;

namespace AtmLayered
{
    // Finding is a location result. Its own fields are in the finding
    // namespace (XmlType), the count an attribute of the root.
    [XmlType(Namespace = "http://layered.atmref.example.org/finding")]
    public class Finding
    {
        [XmlAttribute("found")]
        public int Found;
        [XmlElement("Centre", Namespace = "http://layered.atmref.example.org/geo")]
        public Point Centre; // null (left out) for the lists that have no search point
        [XmlArray("Sites", Namespace = "http://layered.atmref.example.org/sites")]
        [XmlArrayItem("Site", Namespace = "http://layered.atmref.example.org/site")]
        public Site[] Sites;
    }

    // Point is a point in the geo namespace: both values in attributes.
    [XmlType(Namespace = "http://layered.atmref.example.org/geo")]
    public class Point
    {
        [XmlAttribute("lat")]
        public double Lat;
        [XmlAttribute("lng")]
        public double Lng;
    }

    // Site is one location: its type's namespace is another than its
    // element's.
    [XmlType(Namespace = "http://layered.atmref.example.org/sitetype")]
    public class Site
    {
        [XmlAttribute("no")]
        public int No;
        [XmlAttribute("ref")]
        public int Ref;
        [XmlElement("Label")]
        public string Code;
        [XmlElement("Owner")]
        public Owner Owner;
        [XmlElement("Where")]
        public Place Place;
        [XmlElement("Facilities", Form = XmlSchemaForm.Unqualified)]
        public Facilities Facilities;
        [XmlElement("Cards")]
        public Cards Cards;
        [XmlArray("Tongues", Namespace = "http://layered.atmref.example.org/tongues")]
        [XmlArrayItem("Tongue", Namespace = "http://layered.atmref.example.org/tongue")]
        public Tongue[] Tongues;
    }

    // Owner is the institution: its number, flag and web site in
    // attributes (the flag in a namespace of its own), its name as the
    // element's text.
    public class Owner
    {
        [XmlAttribute("id")]
        public int Id;
        [XmlAttribute("cu", Namespace = "http://layered.atmref.example.org/flags")]
        public bool CreditUnion;
        [XmlAttribute("web")]
        public string Web;
        [XmlText]
        public string Name;
    }

    // Place is the address, with the point nested inside it.
    [XmlType(Namespace = "http://layered.atmref.example.org/place")]
    public class Place
    {
        [XmlAttribute("prov")]
        public string Province;
        [XmlElement("Line")]
        public string Street;
        public string Town;
        public string Postcode;
        public string Note;
        [XmlElement("Pin")]
        public Point Pin;
    }

    // Facilities: its element is in no namespace (unqualified), its
    // children in its type's, the site type's. (A type in no namespace,
    // XmlType(Namespace = ""), is left out: Mono's wsdl tool generates a
    // proxy class without it, which reads none of its values, from the
    // deployment as from the mock.)
    public class Facilities
    {
        [XmlAttribute("hours")]
        public int Hours;
        public bool Deposit;
        public bool DriveUp;
        public bool PinReset;
        public bool Audio;
    }

    public class Cards
    {
        [XmlElement("V")]
        public bool Visa;
        [XmlElement("P")]
        public bool Plus;
        [XmlElement("M")]
        public bool MasterCard;
        [XmlElement("C")]
        public bool Cirrus;
    }

    // Tongue is one language code as the text of its element.
    public class Tongue
    {
        [XmlText]
        public string Code;
    }

    // Roster is the institutions' result: the count an attribute (in a
    // namespace of its own, on the root), the
    // members unwrapped in a namespace of their own, each member's name
    // its text.
    [XmlType(Namespace = "http://layered.atmref.example.org/roster")]
    public class Roster
    {
        [XmlAttribute("size", Namespace = "http://layered.atmref.example.org/flags")]
        public int Size;
        [XmlElement("Member", Namespace = "http://layered.atmref.example.org/member")]
        public Owner[] Members;
    }

    // Area is a province, its class in a namespace of its own: an array of
    // them is ArrayOfArea in the service namespace, each Area's fields in
    // the area namespace.
    [XmlType(Namespace = "http://layered.atmref.example.org/area")]
    public class Area
    {
        [XmlAttribute("abbr")]
        public string Abbr;
        [XmlElement("Title")]
        public string Title;
        [XmlElement("Key")]
        public int Key;
    }
}
