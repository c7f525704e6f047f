package verify_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/deviate"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// Run re-sends what a cassette recorded to a live deployment and says
// what no longer answers as recorded. Here a mock with the recorded data
// stands in for a deployment that has since renamed its result elements;
// the cassette is package cassettes' golden file.
func ExampleRun() {
	ds, _ := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	h, _ := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys("my-secret-key"))
	drifted, _ := deviate.Wrap(h, "renamed-result")
	srv := httptest.NewServer(drifted)
	defer srv.Close()

	report, err := verify.Run(context.Background(), []string{"../testdata/golden.yaml"}, verify.Options{
		Upstream:     srv.URL,
		Key:          "my-secret-key", // replaces the cassette's REDACTED
		IgnoreValues: true,            // structure only: data changes, shape should not
	})
	if err != nil {
		fmt.Println("could not check:", err)
		return
	}
	for _, r := range report.Results {
		fmt.Printf("#%d %s: %s\n", r.ID, r.Name(), r.Summary())
		for _, d := range r.Differences {
			fmt.Println("   ", d)
		}
	}
	fmt.Println("drifted:", report.Drifted())
	// Output:
	// #0 soap12 ReturnAtmSearchByCity(intCityID=202): structure drifted: 1 change
	//     /Envelope/Body/ReturnAtmSearchByCityResponse: ReturnAtmSearchByCityResult renamed to ReturnAtmSearchByCityReturn
	// #1 json ReturnAtmSearchByCoordinates(strPostalCode="", dblLatitude=44.709777, dblLongitude=-63.571423, bytRadius=1): same
	// #2 get ReturnProvinces(): same
	// drifted: true
}
