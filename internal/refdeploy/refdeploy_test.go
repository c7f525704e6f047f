package refdeploy

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestDeploymentAnswersTyped checks that the deployment runs and answers as a
// typed ASMX service does: the GET root is named by the type, in the service
// namespace, and the JSON path writes the bare result object; and that the
// legacy site at /legacy answers in the other layouts: an XmlElement node
// (the GET root itself, xs:any in the WSDL), a DataSet, attribute values.
func TestDeploymentAnswersTyped(t *testing.T) {
	d := Start(t)
	rows := []struct {
		path       string
		status     int
		ct, inBody string
	}{
		{ServicePath + "/ReturnProvinces?strAtmServiceKey=" + Key, 200, "text/xml; charset=utf-8", `<ArrayOfProvince xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + Namespace + `">`},
		{ServicePath + "/ReturnAllAtms?strAtmServiceKey=" + Key, 200, "text/xml; charset=utf-8", "<AtmResult "},
		{ServicePath + "/ReturnProvinces?strAtmServiceKey=wrong", 500, "text/plain; charset=utf-8", "The service key (strAtmServiceKey) is not valid."},
		{JSONPath + "/ReturnAtmSearchByCoordinates?strAtmServiceKey=" + Key + "&strPostalCode=&dblLatitude=44.6488&dblLongitude=-63.5752&bytRadius=5", 200, "text/xml; charset=utf-8", `{"count":`},
		{ServicePath + "?WSDL", 200, "text/xml; charset=utf-8", `name="ArrayOfProvince"`},
		{"/legacy" + ServicePath + "/ReturnAtmSearchByCity?strAtmServiceKey=legacy-key&intCityID=8", 200, "text/xml; charset=utf-8", "?>\n<TellerList>\n  <Found>5</Found>\n  <Teller seq=\"0\" ref=\"923\">"},
		{"/legacy" + ServicePath + "/ReturnInstitutions?strAtmServiceKey=legacy-key", 200, "text/xml; charset=utf-8", `<DataSet xmlns="http://legacy.atmref.example.org/atmService">` + "\n  <xs:schema "},
		{"/legacy" + ServicePath + "/ReturnProvinces?strAtmServiceKey=legacy-key", 200, "text/xml; charset=utf-8", `<Prov abbr="NB" capital="Fredericton">New Brunswick</Prov>`},
		{"/legacy" + ServicePath + "/ReturnProvinces?strAtmServiceKey=wrong", 500, "text/plain; charset=utf-8", "Unknown service key."},
		{"/legacy" + ServicePath + "?WSDL", 200, "text/xml; charset=utf-8", `<s:any />`},
		{"/legacy" + JSONPath + "/ReturnAtmSearchByCoordinates?strAtmServiceKey=legacy-key&strPostalCode=&dblLatitude=46.413374&dblLongitude=-63.770972&bytRadius=1", 200, "text/xml; charset=utf-8", `{"count":`},
	}
	for _, r := range rows {
		resp, err := http.Get(d.URL + r.path)
		if err != nil {
			t.Fatalf("GET %s: %v\n%s", r.path, err, d.Log())
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != r.status {
			t.Errorf("GET %s: got status %d, want %d (%s)", r.path, resp.StatusCode, r.status, body)
		}
		if got := resp.Header.Get("Content-Type"); got != r.ct {
			t.Errorf("GET %s: got content type %q, want %q", r.path, got, r.ct)
		}
		if !strings.Contains(string(body), r.inBody) {
			t.Errorf("GET %s: got %.300q, want it to contain %q", r.path, body, r.inBody)
		}
	}
}
