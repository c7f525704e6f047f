// The result types of the members site: XmlSerializer classes whose members
// are of the kinds the other sites do not use: an enum with XmlEnum names (in
// attributes), decimal values, a nullable object (XmlElement IsNullable,
// xsi:nil when the result has no search point), a nullable string (xsi:nil
// when the store's is empty), a string left null when empty (not written),
// an XmlText holding an int, an array of an enum, members declared object holding a string and a
// short (written with xsi:type), flags with a DefaultValue (an element and
// an attribute) and one with an XxxSpecified member (left out when false), a class whose one member is an
// array, a list's item class in another namespace than its list.
using System.Xml.Serialization;

namespace AtmMembers
{
    // Region is a province code: its members' names are not the codes.
    public enum Region
    {
        [XmlEnum("NB")] NewBrunswick,
        [XmlEnum("NS")] NovaScotia,
        [XmlEnum("PE")] PrinceEdwardIsland,
        [XmlEnum("NL")] NewfoundlandAndLabrador,
        [XmlEnum("QC")] Quebec,
        [XmlEnum("ON")] Ontario,
    }

    // Tongue is a language code, an array's item: its members' names are
    // not the codes.
    public enum Tongue
    {
        [XmlEnum("en")] English,
        [XmlEnum("fr")] French,
    }

    // Hit is a location result.
    public class Hit
    {
        [XmlAttribute("found")]
        public int Found;
        [XmlElement(IsNullable = true)]
        public Spot Centre; // null (xsi:nil) for the lists that have no search point
        [XmlArrayItem("Teller")]
        public Teller[] Tellers;
    }

    // Spot is a point in decimals.
    public class Spot
    {
        public decimal Lat;
        public decimal Lng;
    }

    // Teller is in a namespace of its own, its container's items not
    // (XmlArrayItem says none): its members' elements declare it, after
    // their xsi:type and xsi:nil.
    [XmlType(Namespace = "urn:atmref:teller")]
    public class Teller
    {
        [XmlAttribute("id")]
        public int Id;
        [XmlAttribute("region")]
        public Region Region;
        public object Code; // a string: written with xsi:type="xsd:string"
        public Bank Bank;
        public Spot Spot;
        public string Street;
        public string Town;
        public string Postal;
        [XmlElement(IsNullable = true)]
        public string Landmark; // null (xsi:nil) when the store's is empty
        public Perks Perks;
        [XmlArrayItem("Lang")]
        public Tongue[] Langs;
    }

    // Bank is an institution: its web site null (left out) when empty, its
    // name the element's text.
    public class Bank
    {
        [XmlAttribute("id")]
        public int Id;
        [XmlAttribute("cu"), System.ComponentModel.DefaultValue(false)]
        public bool CreditUnion; // left out when false
        [XmlAttribute("web")]
        public string Web;
        [XmlText]
        public string Name;
    }

    public class Perks
    {
        public bool Deposit;
        public object Hours; // a short: written with xsi:type="xsd:short"
        [System.ComponentModel.DefaultValue(false)]
        public bool DriveUp; // left out when false
        public bool PinReset;
        public bool Audio;
        public bool Visa;
        public bool Plus;
        [XmlIgnore]
        public bool PlusSpecified; // false (Plus left out) when Plus is false
        public bool MasterCard;
        public bool Cirrus;
    }

    // Area is a province: its code an enum, its number the element's text.
    public class Area
    {
        [XmlAttribute("code")]
        public Region Code;
        [XmlAttribute("name")]
        public string Name;
        [XmlText]
        public int Id;
    }

    // Banks is the institutions' result.
    public class Banks
    {
        [XmlElement("Bank")]
        public Bank[] List;
    }
}
