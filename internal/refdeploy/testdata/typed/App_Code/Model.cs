// The result types of the reference deployment: XmlSerializer classes with
// element names of their own, as most .NET teams write an ASMX service.
// Institution and Province are the store's own rows (Store.cs).
using System.Xml.Serialization;
using AtmStore;

namespace AtmRef
{
    public class AtmResult
    {
        public int Count;
        public GeoPoint SearchPoint; // null (left out) for the lists that have no search point
        [XmlArrayItem("Atm")]
        public Atm[] Atms;
    }

    public class GeoPoint
    {
        public double Latitude;
        public double Longitude;
    }

    public class Atm
    {
        [XmlAttribute]
        public int Index;
        public int AtmId;
        public string Identifier;
        public Institution Bank;
        public GeoPoint Location;
        public Address Address;
        public Features Features;
        public CreditCards Cards;
        [XmlArrayItem("Code")]
        public string[] Languages;
    }

    public class Address
    {
        public string Street;
        public string City;
        public string Province;
        public string PostalCode;
        public string Landmark;
    }

    public class Features
    {
        public bool Deposits;
        public int Hours;
        public bool DriveThru;
        public bool PinChange;
        public bool VoiceGuidance;
    }

    public class CreditCards
    {
        public bool Visa;
        public bool Plus;
        public bool MasterCard;
        public bool Cirrus;
    }
}
