package conformance

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ValueFlags are the names of the flags that give a query value instead of
// letting the suite discover it, as atmkit conform and go test ./conformance
// spell them (each also read from ATMKIT_<NAME>, e.g. ATMKIT_POSTAL_CODE).
var ValueFlags = []string{"latitude", "longitude", "address", "city", "province", "postal-code", "institution-id", "radius", "maximum"}

// SetValue sets the query value that the flag name (one of ValueFlags)
// gives, from its text: a number for latitude, longitude, institution-id,
// radius and maximum, any text (even empty) for the address parts. The
// error says what is wrong with the text; the caller names the flag.
func (c *Config) SetValue(name, text string) error {
	t := strings.TrimSpace(text)
	switch name {
	case "address":
		c.Address = &text
	case "city":
		c.City = &text
	case "province":
		c.Province = &text
	case "postal-code":
		c.PostalCode = &text
	case "latitude", "longitude":
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%q is not a number", text)
		}
		if name == "latitude" {
			c.Latitude = &v
		} else {
			c.Longitude = &v
		}
	case "institution-id", "radius", "maximum":
		v, err := strconv.ParseInt(t, 10, 32)
		if err != nil {
			return fmt.Errorf("%q is not a 32-bit integer", text)
		}
		n := int(v)
		switch name {
		case "institution-id":
			c.InstitutionID = &n
		case "radius":
			c.Radius = &n
		default:
			c.Maximum = &n
		}
	default:
		return fmt.Errorf("no query value is named %q", name)
	}
	return c.checkValue(name)
}

// checkValue checks the range of the value the flag name gives, if set.
func (c *Config) checkValue(name string) error {
	switch {
	case name == "latitude" && c.Latitude != nil && !(*c.Latitude >= -90 && *c.Latitude <= 90):
		return fmt.Errorf("%v is not within -90..90", *c.Latitude)
	case name == "longitude" && c.Longitude != nil && !(*c.Longitude >= -180 && *c.Longitude <= 180):
		return fmt.Errorf("%v is not within -180..180", *c.Longitude)
	case name == "radius" && c.Radius != nil && (*c.Radius < 0 || *c.Radius > 255):
		return fmt.Errorf("%d is not within 0..255 (bytRadius is an unsignedByte)", *c.Radius)
	case name == "maximum" && c.Maximum != nil && (*c.Maximum < 0 || *c.Maximum > math.MaxInt32):
		return fmt.Errorf("%d is not within 0..%d (intMaximumAtms is an int)", *c.Maximum, math.MaxInt32)
	case name == "institution-id" && c.InstitutionID != nil && (*c.InstitutionID < math.MinInt32 || *c.InstitutionID > math.MaxInt32):
		return fmt.Errorf("%d is not a 32-bit integer (intInstitutionID is an int)", *c.InstitutionID)
	}
	return nil
}

// checkGiven checks the query values given in the configuration against the
// parameters' types and ranges, and that latitude and longitude come together.
func (c Config) checkGiven() error {
	if (c.Latitude == nil) != (c.Longitude == nil) {
		return errors.New("latitude and longitude must be given together")
	}
	for _, name := range ValueFlags {
		if err := c.checkValue(name); err != nil {
			return fmt.Errorf("%s %w", name, err)
		}
	}
	return nil
}

// given lists the flag names (of ValueFlags) whose values c gives.
func (c Config) given() []string {
	var out []string
	for _, name := range ValueFlags {
		var set bool
		switch name {
		case "latitude":
			set = c.Latitude != nil
		case "longitude":
			set = c.Longitude != nil
		case "address":
			set = c.Address != nil
		case "city":
			set = c.City != nil
		case "province":
			set = c.Province != nil
		case "postal-code":
			set = c.PostalCode != nil
		case "institution-id":
			set = c.InstitutionID != nil
		case "radius":
			set = c.Radius != nil
		case "maximum":
			set = c.Maximum != nil
		}
		if set {
			out = append(out, name)
		}
	}
	return out
}
