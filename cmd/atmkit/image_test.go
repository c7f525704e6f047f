package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// The image tests build the container image with `make image`, as a user
// does, and run it with the docker command (os/exec; no Testcontainers for
// Go, whose reaper image would be pulled from a registry). They skip where
// docker is missing or its daemon does not answer, except under CI=true,
// where that is a failure (.ci/run installs and starts Docker). Under the
// race detector they skip: they test the image, not atmkit's code, and
// run once, in the plain go test.

// imageSizeLimit is the largest the image may be.
const imageSizeLimit = 40_000_000

// imageKey is the service key the containers are given in ATMKIT_KEYS;
// their logs must never show it.
const imageKey = "image-test-key-6f1d2c"

// docker runs the docker command and returns its standard output, trimmed;
// the error holds its standard error.
func docker(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	cmd := exec.Command("docker", args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("docker %s: %w\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return strings.TrimSpace(out.String()), nil
}

// mustDocker is docker that ends the test on an error.
func mustDocker(t *testing.T, args ...string) string {
	t.Helper()
	out, err := docker(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// requireDocker skips the test (fails it under CI=true) when docker, its
// daemon or make is missing.
func requireDocker(t *testing.T) {
	t.Helper()
	if mocktest.Race {
		t.Skip("the image tests run once, without -race: they test the image, not atmkit's code")
	}
	missing := ""
	if _, err := exec.LookPath("docker"); err != nil {
		missing = "no docker command on PATH"
	} else if _, err := exec.LookPath("make"); err != nil {
		missing = "no make command on PATH"
	} else if _, err := docker("info", "--format", "{{.ServerVersion}}"); err != nil {
		missing = "the Docker daemon does not answer docker info"
	}
	if missing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/install-docker.sh installs Docker, .ci/dockerd.sh starts it)", missing)
	}
	t.Skipf("%s; install Docker and start its daemon to run the image tests (CI=true makes this a failure)", missing)
}

// buildImage runs `make image` with a tag of the test's own and removes
// the image when the test ends.
func buildImage(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	tag := fmt.Sprintf("atmkit:test-%d", os.Getpid())
	cmd := exec.Command("make", "image", "IMAGE="+tag, "CONTEXT="+filepath.Join(t.TempDir(), "context"))
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make image IMAGE=%s: %v\n%s", tag, err, out)
	}
	t.Logf("make image IMAGE=%s: %s", tag, time.Since(start).Round(time.Second))
	t.Cleanup(func() { _, _ = docker("rmi", "-f", tag) })
	return tag
}

// container is a running container of the image.
type container struct {
	t    *testing.T
	name string
}

// runContainer starts a container (docker run -d) named after the test,
// removed when the test ends, with the given options and arguments.
func runContainer(t *testing.T, name string, args ...string) *container {
	t.Helper()
	name = fmt.Sprintf("atmkit-test-%d-%s", os.Getpid(), name)
	_, _ = docker("rm", "-f", name)
	mustDocker(t, append([]string{"run", "-d", "--name", name}, args...)...)
	t.Cleanup(func() { _, _ = docker("rm", "-f", name) })
	return &container{t: t, name: name}
}

// inspect returns a field of docker inspect, as a Go template names it.
func (c *container) inspect(format string) string {
	c.t.Helper()
	return mustDocker(c.t, "inspect", "--format", format, c.name)
}

// logs returns what the container wrote to stdout and stderr.
func (c *container) logs() string {
	c.t.Helper()
	var out bytes.Buffer
	cmd := exec.Command("docker", "logs", c.name)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		c.t.Fatalf("docker logs %s: %v\n%s", c.name, err, out.String())
	}
	return out.String()
}

// waitHealthy waits until the image's HEALTHCHECK says healthy; the test
// fails if the container stops or turns unhealthy first.
func (c *container) waitHealthy() {
	c.t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // no answer at all: a generous bound, not a speed check
	for {
		state := c.inspect("{{.State.Status}} {{.State.Health.Status}}")
		switch state {
		case "running healthy":
			return
		case "running starting":
		default:
			c.t.Fatalf("%s: state %q, want running healthy; health log: %s\nlogs:\n%s",
				c.name, state, c.inspect("{{json .State.Health.Log}}"), c.logs())
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: not healthy after 2 minutes; health log: %s\nlogs:\n%s", c.name, c.inspect("{{json .State.Health.Log}}"), c.logs())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// url is the base URL of the container's port 8080 as published on the
// host's loopback interface.
func (c *container) url() string {
	c.t.Helper()
	hostPort := strings.Fields(mustDocker(c.t, "port", c.name, "8080/tcp"))[0]
	return "http://" + hostPort
}

// stop runs docker stop -t 3, which sends SIGTERM and, had atmkit not ended
// within 3 s, SIGKILL; atmkit must end on its own: exit code 0, not 137,
// and its log must show last what it says when it stops.
func (c *container) stop(last string) {
	c.t.Helper()
	start := time.Now()
	mustDocker(c.t, "stop", "-t", "3", c.name)
	c.t.Logf("docker stop -t 3 %s: %s", c.name, time.Since(start).Round(time.Millisecond))
	if code := c.inspect("{{.State.ExitCode}}"); code != "0" {
		c.t.Errorf("%s: exit code %s after docker stop, want 0 (137: it needed SIGKILL)\nlogs:\n%s", c.name, code, c.logs())
	}
	if logs := strings.TrimSpace(c.logs()); !strings.HasPrefix(logs[strings.LastIndex(logs, "\n")+1:], last) {
		c.t.Errorf("%s: the log does not end with %q:\n%s", c.name, last, logs)
	}
}

// assertKeyNotLogged checks that the container's log never shows the key.
func (c *container) assertKeyNotLogged() {
	c.t.Helper()
	if logs := c.logs(); strings.Contains(logs, imageKey) {
		c.t.Errorf("%s: the log shows the service key:\n%s", c.name, logs)
	}
}

func TestImage(t *testing.T) {
	requireDocker(t)
	t.Parallel()
	tag := buildImage(t)

	t.Run("configuration", func(t *testing.T) {
		var img struct {
			Size   int64
			Config struct {
				User         string
				WorkingDir   string
				Entrypoint   []string
				Cmd          []string
				Env          []string
				ExposedPorts map[string]struct{}
				Healthcheck  struct{ Test []string }
			}
		}
		if err := json.Unmarshal([]byte(mustDocker(t, "image", "inspect", "--format", "{{json .}}", tag)), &img); err != nil {
			t.Fatal(err)
		}
		t.Logf("image size: %d bytes (%.1f MB)", img.Size, float64(img.Size)/1e6)
		if img.Size >= imageSizeLimit {
			t.Errorf("image size: got %d bytes, want under %d", img.Size, imageSizeLimit)
		}
		cfg := img.Config
		for _, c := range []struct{ what, got, want string }{
			{"user", cfg.User, "65532:65532"},
			{"working directory", cfg.WorkingDir, "/data"},
			{"entrypoint", strings.Join(cfg.Entrypoint, " "), "/atmkit"},
			{"command", strings.Join(cfg.Cmd, " "), "serve"},
			{"health check", strings.Join(cfg.Healthcheck.Test, " "), "CMD /atmkit health"},
		} {
			if c.got != c.want {
				t.Errorf("%s: got %q, want %q", c.what, c.got, c.want)
			}
		}
		for _, v := range []string{"ATMKIT_ADDR=0.0.0.0:8080", "ATMKIT_GRACE=5s"} {
			if !slices.Contains(cfg.Env, v) {
				t.Errorf("environment: got %q, want it to hold %s", cfg.Env, v)
			}
		}
		if _, ok := cfg.ExposedPorts["8080/tcp"]; !ok || len(cfg.ExposedPorts) != 1 {
			t.Errorf("exposed ports: got %v, want 8080/tcp", cfg.ExposedPorts)
		}
	})

	t.Run("version names the commit", func(t *testing.T) {
		out := mustDocker(t, "run", "--rm", tag, "version")
		head, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
		if err != nil {
			t.Skipf("git rev-parse HEAD: %v (not a clone?)", err)
		}
		if want := "commit     " + strings.TrimSpace(string(head)); !strings.Contains(out, want) {
			t.Errorf("atmkit version in the image:\n%s\nwant a line %q", out, want)
		}
		if !strings.Contains(out, "\nbuilt ") {
			t.Errorf("atmkit version in the image:\n%s\nwant a build date", out)
		}
	})

	t.Run("serves", func(t *testing.T) {
		c := runContainer(t, "serve", "-p", "127.0.0.1::8080", "-e", "ATMKIT_KEYS="+imageKey, tag)
		c.waitHealthy()
		base := c.url()
		if top := mustDocker(t, "top", c.name, "-o", "pid,uid,comm"); !strings.Contains(top, "65532") {
			t.Errorf("docker top: want atmkit running as uid 65532, got:\n%s", top)
		}
		if code, out, errOut := runAtmkit(nil, "health", "--url", base); code != 0 {
			t.Errorf("atmkit health --url %s from the host: exit %d\n%s%s", base, code, out, errOut)
		}
		// Every operation in one binding, with the key from ATMKIT_KEYS.
		for _, op := range asmx.Operations() {
			status, body := mocktest.Call(t, base, asmx.DefaultNamespace, asmx.SOAP11, op.Name, mocktest.ParamsFor(op.Name, imageKey))
			if status != http.StatusOK || !bytes.Contains(body, []byte("<"+op.Name+"Result")) {
				t.Errorf("%s over SOAP 1.1: got %d %.300s, want 200 with %sResult", op.Name, status, body, op.Name)
			}
		}
		// Another key is refused: the container took its keys from ATMKIT_KEYS.
		if status, body := mocktest.Call(t, base, asmx.DefaultNamespace, asmx.SOAP11, asmx.OpReturnProvinces, mocktest.ParamsFor(asmx.OpReturnProvinces, "another-key")); status != http.StatusInternalServerError {
			t.Errorf("another key: got %d %.300s, want 500 (a key fault)", status, body)
		}
		if code, out := runConformProcess(t, "--target", base, "--key", imageKey); code != 0 {
			t.Errorf("atmkit conform --target %s: exit %d, want 0\n%s", base, code, out)
		}
		c.stop("atmkit: stopped")
		c.assertKeyNotLogged()
	})

	// A second container, the upstream, on a network of the test's own:
	// the recorder reaches it by name, as it would reach a deployment.
	t.Run("records to a writable mount, replays from a read-only one", func(t *testing.T) {
		network := fmt.Sprintf("atmkit-test-%d", os.Getpid())
		_, _ = docker("network", "rm", network)
		mustDocker(t, "network", "create", network)
		t.Cleanup(func() { _, _ = docker("network", "rm", network) })
		upstream := runContainer(t, "upstream", "--network", network, "--network-alias", "upstream", "-e", "ATMKIT_KEYS="+imageKey, tag)
		upstream.waitHealthy()

		dir := filepath.Join(t.TempDir(), "cassettes")
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil { // the umask aside: writable by the image's user
			t.Fatal(err)
		}
		rec := runContainer(t, "record", "--network", network, "-p", "127.0.0.1::8080",
			"-v", dir+":/data/cassettes", tag,
			"record", "--upstream", "http://upstream:8080", "--cassette", "cassettes/atm", "--save-interval", "0")
		rec.waitHealthy()
		params := mocktest.ParamsFor(asmx.OpReturnAtmSearchByCity, imageKey)
		status, recorded := mocktest.Call(t, rec.url(), asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, params)
		if status != http.StatusOK {
			t.Fatalf("a call through the recorder: got %d %.300s, want 200", status, recorded)
		}
		rec.stop("atmkit: saved cassettes/atm.yaml: 1 interactions")
		rec.assertKeyNotLogged()
		upstream.stop("atmkit: stopped")
		upstream.assertKeyNotLogged()

		cassette := filepath.Join(dir, "atm.yaml")
		st, err := os.Stat(cassette)
		if err != nil {
			t.Fatalf("the recorder wrote no cassette to the mount: %v\nlogs:\n%s", err, rec.logs())
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); !ok || sys.Uid != 65532 {
			t.Errorf("%s: owner %v, want uid 65532 (the image's user)", cassette, st.Sys())
		}
		data, err := os.ReadFile(cassette)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(imageKey)) || !bytes.Contains(data, []byte(asmx.OpReturnAtmSearchByCity)) {
			t.Errorf("%s: want the call recorded and the key scrubbed, got:\n%.1000s", cassette, data)
		}

		replay := runContainer(t, "replay", "-p", "127.0.0.1::8080", "-v", dir+":/data/cassettes:ro",
			"-e", "ATMKIT_KEYS="+imageKey, tag, "serve", "--replay", "cassettes/atm.yaml")
		replay.waitHealthy()
		status, replayed := mocktest.Call(t, replay.url(), asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, params)
		if status != http.StatusOK || !bytes.Equal(replayed, recorded) {
			t.Errorf("the replayed call: got %d %.300s, want 200 and the recorded answer %.300s", status, replayed, recorded)
		}
		// A call never recorded is a miss (--on-miss fault), not an answer
		// from the embedded data set.
		status, missed := mocktest.Call(t, replay.url(), asmx.DefaultNamespace, asmx.HTTPGet, asmx.OpReturnProvinces, mocktest.ParamsFor(asmx.OpReturnProvinces, imageKey))
		if status == http.StatusOK {
			t.Errorf("a call never recorded: got 200 %.300s, want a miss fault", missed)
		}
		replay.stop("atmkit: stopped")
		replay.assertKeyNotLogged()
	})
}
