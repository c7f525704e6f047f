package myapp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"
)

// TestProvinces runs the ATM service mock in a container for the test.
// (A Go app's tests can also run the mock in process, without Docker:
// mockserver.NewTestServer.)
func TestProvinces(t *testing.T) {
	ctx := context.Background()
	atmkit, err := testcontainers.Run(ctx, "atmkit/atmkit:latest",
		testcontainers.WithEnv(map[string]string{"ATMKIT_KEYS": "ci-key"}),
		testcontainers.WithExposedPorts("8080/tcp"),
		testcontainers.WithWaitStrategy(wait.ForHealthCheck()), // the image's own: atmkit health
	)
	testcontainers.CleanupContainer(t, atmkit)
	if err != nil {
		t.Fatal(err)
	}
	base, err := atmkit.PortEndpoint(ctx, "8080/tcp", "http")
	if err != nil {
		t.Fatal(err)
	}
	serviceURL := base + "/service/service.asmx"

	// Point your app's client at serviceURL with the key ci-key; here, a call by hand.
	resp, err := http.Get(serviceURL + "/ReturnProvinces?strAtmServiceKey=ci-key")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<province>") {
		t.Errorf("got %d %.200s, want 200 with provinces", resp.StatusCode, body)
	}
}
