package mockserver

import "github.com/atmkit/atmkit/fixtures"

// smallDataset is a hand-made data set whose distances are easy to reason
// about: ATMs 1-4 around Halifax, 5 in Moncton, 6 in Charlottetown.
func smallDataset() *fixtures.Dataset {
	atm := func(id, inst, city int, lat, lon float64, street, cityName, prov, postal string, langs ...string) fixtures.ATM {
		return fixtures.ATM{
			ID: id, ATMIdentifier: "ATM-" + string(rune('A'+id)), InstitutionID: inst, CityID: city,
			Coordinates: fixtures.Coordinates{Latitude: lat, Longitude: lon},
			Address:     fixtures.Address{StreetAddress: street, City: cityName, Province: prov, PostalCode: postal, Landmark: "Near <the> & \"park\""},
			Features:    fixtures.Features{Deposits: 1, Hours: 2, DriveThru: 0, PinChange: 1, VoiceGuidance: 0},
			CreditCards: fixtures.CreditCards{Visa: 1, Plus: 0, Mastercard: 1, Cirrus: 0},
			Languages:   langs,
		}
	}
	return &fixtures.Dataset{
		Provinces: []fixtures.Province{
			{Code: "NB", Name: "New Brunswick", PostalPrefixes: "E", Atlantic: true},
			{Code: "NS", Name: "Nova Scotia", PostalPrefixes: "B", Atlantic: true},
			{Code: "PE", Name: "Prince Edward Island", PostalPrefixes: "C", Atlantic: true},
			{Code: "NL", Name: "Newfoundland and Labrador", PostalPrefixes: "A", Atlantic: true},
			{Code: "ON", Name: "Ontario", PostalPrefixes: "KLMNP"},
		},
		Institutions: []fixtures.Institution{
			{ID: 1, Name: "Bank of Halifax", URL: "https://bank.example", Kind: "bank", HomeProvince: "ON"},
			{ID: 2, Name: "Coastal Credit Union", URL: "", IsAtlanticCreditUnion: 1, Kind: "creditUnion", HomeProvince: "NS"},
		},
		Cities: []fixtures.City{
			{ID: 10, Name: "Halifax", Province: "NS", Latitude: 44.6488, Longitude: -63.5752},
			{ID: 20, Name: "Moncton", Province: "NB", Latitude: 46.0878, Longitude: -64.7782},
			{ID: 30, Name: "Charlottetown", Province: "PE", Latitude: 46.2382, Longitude: -63.1311},
		},
		ATMs: []fixtures.ATM{
			atm(1, 1, 10, 44.6488, -63.5752, "1 Barrington St", "Halifax", "NS", "B3J 1A1", "en"),
			atm(2, 2, 10, 44.6578, -63.5752, "2 Spring Garden Rd", "Halifax", "NS", "B3J 2B2", "en", "fr"),
			atm(3, 1, 10, 44.6578, -63.5752, "3 South Park St", "Halifax", "NS", "B3H 3C3", "en"),
			atm(4, 2, 10, 44.7388, -63.5752, "4 Bedford Hwy", "Halifax", "NS", "B4A 4E4", "en"),
			atm(5, 1, 20, 46.0878, -64.7782, "5 Main St", "Moncton", "NB", "E1C 5E5", "fr", "en"),
			atm(6, 2, 30, 46.2382, -63.1311, "6 Queen St", "Charlottetown", "PE", "C1A 6G6", "en"),
		},
	}
}
