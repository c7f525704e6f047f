// The result types of the attrs site: XmlSerializer classes whose values sit
// in attributes as well as in elements, on the result's root type too, with
// the machine list and the language codes each in a namespace of their own,
// and element names of their own.
using System.Xml.Serialization;

namespace AtmAttrs
{
    // Lookup is a location result: the count is an attribute of the root.
    public class Lookup
    {
        [XmlAttribute("total")]
        public int Total;
        [XmlAttribute("kind")]
        public string Kind;
        public Origin Origin; // null (left out) for the lists that have no search point
        [XmlArray("Machines", Namespace = "http://attrs.atmref.example.org/machines")]
        [XmlArrayItem("Machine")]
        public Machine[] Machines;
    }

    // Origin is a point: both values in attributes.
    public class Origin
    {
        [XmlAttribute("lat")]
        public double Lat;
        [XmlAttribute("lon")]
        public double Lon;
    }

    public class Machine
    {
        [XmlAttribute("seq")]
        public int Seq;
        [XmlAttribute("ref")]
        public int Ref;
        public string Tag;
        public Operator Operator;
        public Origin Spot;
        public Place Place;
        public Options Options;
        public Networks Networks;
        // The language codes, not wrapped, in a namespace of their own.
        [XmlElement("Lang", Namespace = "http://attrs.atmref.example.org/languages")]
        public string[] Langs;
    }

    // Operator is the institution: its number and flag in attributes, its
    // name and site in elements.
    public class Operator
    {
        [XmlAttribute("num")]
        public int Num;
        [XmlAttribute("acu")]
        public bool CreditUnion;
        public string Title;
        public string Site;
    }

    public class Place
    {
        public string Line1;
        public string Town;
        public string Region;
        public string Zip;
        public string Hint;
    }

    public class Options
    {
        [XmlAttribute("deposit")]
        public bool Deposit;
        [XmlAttribute("hours")]
        public int Hours;
        [XmlAttribute("drive")]
        public bool Drive;
        [XmlAttribute("pin")]
        public bool Pin;
        [XmlAttribute("voice")]
        public bool Voice;
    }

    // Networks keeps the card networks in a namespace of its own.
    [XmlType(Namespace = "http://attrs.atmref.example.org/networks")]
    public class Networks
    {
        [XmlAttribute("visa")]
        public bool Visa;
        [XmlAttribute("plus")]
        public bool Plus;
        [XmlAttribute("mastercard")]
        public bool MasterCard;
        [XmlAttribute("cirrus")]
        public bool Cirrus;
    }

    // BankList is the institutions' result: the count an attribute of the
    // root, the banks not wrapped.
    public class BankList
    {
        [XmlAttribute("count")]
        public int Count;
        [XmlElement("Bank")]
        public Bank[] Banks;
    }

    public class Bank
    {
        [XmlAttribute("no")]
        public int No;
        [XmlAttribute("acu")]
        public bool CreditUnion;
        public string Title;
        public string Web;
    }

    // Region is a province: every value an attribute.
    [XmlType("Region")]
    public class Region
    {
        [XmlAttribute("id")]
        public int Id;
        [XmlAttribute("code")]
        public string Code;
        [XmlAttribute("label")]
        public string Label;
    }
}
