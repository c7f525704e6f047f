//go:build !windows

package main

import (
	"archive/tar"
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
// the image when the test ends. It returns the tag and the build context
// make assembled (the binary is at linux/<arch>/atmkit in it).
func buildImage(t *testing.T) (tag, context string) {
	t.Helper()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	// Read here, the files make and docker read become part of what go
	// test's cache keys this test's result on.
	for _, f := range []string{"Makefile", "Dockerfile", ".dockerignore", "image/root/etc/passwd", "image/root/etc/group", "image/tmp.tar", "cmd/atmkit/default.pgo"} {
		if _, err := os.ReadFile(filepath.Join(root, f)); err != nil {
			t.Fatalf("the image's sources: %v", err)
		}
	}
	tag = fmt.Sprintf("atmkit:test-%d", os.Getpid())
	context = filepath.Join(t.TempDir(), "context")
	// Under the strictest umask: the files make writes and copies into
	// the context get modes that keep all but their owner, root, out,
	// unless make sets them (the image's user could not start /atmkit).
	cmd := exec.Command("sh", "-c", `umask 077 && exec make image IMAGE="$1" CONTEXT="$2"`, "sh", tag, context)
	cmd.Dir = root
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make image IMAGE=%s: %v\n%s", tag, err, out)
	}
	t.Logf("make image IMAGE=%s: %s", tag, time.Since(start).Round(time.Second))
	t.Cleanup(func() { _, _ = docker("rmi", "-f", tag) })
	return tag, context
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
	// Removed also where docker run fails: it may have created the
	// container all the same (exit 126: it could not start /atmkit).
	t.Cleanup(func() { _, _ = docker("rm", "-f", name) })
	mustDocker(t, append([]string{"run", "-d", "--name", name}, args...)...)
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
	tag, context := buildImage(t)

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

	// The files' modes in the image, whatever the umask of the machine
	// that built it (buildImage's is 077): the image's user, or any
	// other (--user), runs /atmkit, enters /data and reads /etc/passwd.
	t.Run("file modes", func(t *testing.T) {
		id := mustDocker(t, "create", tag)
		t.Cleanup(func() { _, _ = docker("rm", "-f", id) })
		cmd := exec.Command("docker", "export", id)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		tr := tar.NewReader(out)
		for {
			h, err := tr.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Errorf("docker export: %v", err)
				}
				break
			}
			got[strings.TrimSuffix(h.Name, "/")] = fmt.Sprintf("%v %d:%d", h.FileInfo().Mode(), h.Uid, h.Gid)
		}
		_ = cmd.Wait()
		for name, want := range map[string]string{
			"atmkit": "-rwxr-xr-x 0:0", "data": "drwxr-xr-x 65532:65532", "etc": "drwxr-xr-x 0:0",
			"etc/passwd": "-rw-r--r-- 0:0", "etc/group": "-rw-r--r-- 0:0", "tmp": "dtrwxrwxrwx 0:0",
		} {
			if got[name] != want {
				t.Errorf("/%s in the image: got %q, want %q", name, got[name], want)
			}
		}
	})

	// make image IMAGE_ARCH=<not the daemon's>: an image that says it is
	// of that architecture, or, where Docker has only the legacy builder
	// (which labels every image with the daemon's), a refusal that says
	// so, before building anything.
	t.Run("another architecture", func(t *testing.T) {
		daemon := mustDocker(t, "version", "--format", "{{.Server.Arch}}")
		other := "arm64"
		if daemon == "arm64" {
			other = "amd64"
		}
		otherTag := tag + "-" + other
		cmd := exec.Command("make", "image", "IMAGE="+otherTag, "IMAGE_ARCH="+other, "CONTEXT="+filepath.Join(t.TempDir(), "context"))
		cmd.Dir = repoRoot
		out, err := cmd.CombinedOutput()
		if err != nil {
			if want := "make image: IMAGE_ARCH=" + other + ", but the Docker daemon is " + daemon + " and has no buildx"; !strings.Contains(string(out), want) {
				t.Errorf("make image IMAGE_ARCH=%s: %v, want a success or %q:\n%s", other, err, want, out)
			}
			return
		}
		t.Cleanup(func() { _, _ = docker("rmi", "-f", otherTag) })
		if got := mustDocker(t, "image", "inspect", "--format", "{{.Os}}/{{.Architecture}}", otherTag); got != "linux/"+other {
			t.Errorf("make image IMAGE_ARCH=%s: the image says %s, want linux/%s", other, got, other)
		}
	})

	t.Run("built with the profile", func(t *testing.T) {
		// Every build of atmkit takes cmd/atmkit/default.pgo by itself
		// (profile-guided optimisation): the image's binary too.
		bin := filepath.Join(context, "linux", runtime.GOARCH, "atmkit")
		info, err := buildinfo.ReadFile(bin)
		if err != nil {
			t.Fatalf("read the build information of the image's binary: %v", err)
		}
		var pgo string
		for _, s := range info.Settings {
			if s.Key == "-pgo" {
				pgo = s.Value
			}
		}
		if filepath.Base(pgo) != "default.pgo" {
			t.Errorf("the image's binary: built with -pgo=%q, want cmd/atmkit/default.pgo", pgo)
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
		if !strings.Contains(out, "\ncommitted ") {
			t.Errorf("atmkit version in the image:\n%s\nwant the commit's date", out)
		}
	})

	t.Run("serves", func(t *testing.T) {
		// The options docs/ci.md gives GitHub Actions: they tune the image's
		// own exec-form health check (no --health-cmd: it would need a shell).
		c := runContainer(t, "serve", "-p", "127.0.0.1::8080", "-e", "ATMKIT_KEYS="+imageKey,
			"--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag)
		c.waitHealthy()
		base := c.url()
		if top := mustDocker(t, "top", c.name, "-o", "pid,uid,comm"); !strings.Contains(top, "65532") {
			t.Errorf("docker top: want atmkit running as uid 65532, got:\n%s", top)
		}
		if code, out, errOut := runAtmkit(nil, "health", "--url", base); code != 0 {
			t.Errorf("atmkit health --url %s from the host: exit %d\n%s%s", base, code, out, errOut)
		}
		// The banner says how the host reaches it: the port published, not
		// the container's own host name.
		if want := "  reachable:  on every interface of this container; from the host: the port published (docker run -p PORT:8080)\n"; !strings.Contains(c.logs(), want) {
			t.Errorf("the banner lacks %q:\n%s", want, c.logs())
		}
		// No admin token: the warning advises one, not 127.0.0.1, which
		// the published port would not reach.
		if logs := c.logs(); !strings.Contains(logs, "with no admin token") || strings.Contains(logs, "or listen on 127.0.0.1") {
			t.Errorf("want the open admin API warned of, without the advice to listen on 127.0.0.1:\n%s", logs)
		}
		// Every operation in one binding, with the key from ATMKIT_KEYS.
		for _, op := range asmx.Operations() {
			status, body := mocktest.Call(t, base, asmx.DefaultNamespace, asmx.SOAP11.String(), op.Name, mocktest.ParamsFor(op.Name, imageKey))
			if status != http.StatusOK || !bytes.Contains(body, []byte("<"+op.Name+"Result")) {
				t.Errorf("%s over SOAP 1.1: got %d %.300s, want 200 with %sResult", op.Name, status, body, op.Name)
			}
		}
		// Another key is refused: the container took its keys from ATMKIT_KEYS.
		if status, body := mocktest.Call(t, base, asmx.DefaultNamespace, asmx.SOAP11.String(), asmx.OpReturnProvinces, mocktest.ParamsFor(asmx.OpReturnProvinces, "another-key")); status != http.StatusInternalServerError {
			t.Errorf("another key: got %d %.300s, want 500 (a key fault)", status, body)
		}
		if code, out := runConformProcess(t, "--target", base, "--key", imageKey); code != 0 {
			t.Errorf("atmkit conform --target %s: exit %d, want 0\n%s", base, code, out)
		}
		c.stop("atmkit: stopped")
		c.assertKeyNotLogged()
	})

	// The health check reaches a mock whose TLS the ATMKIT_TLS_* variables
	// set (https, a throwaway certificate); the authority's file goes to
	// /tmp, which is every user's, also in a container run as another.
	t.Run("HTTPS from ATMKIT_TLS_SELF_SIGNED, as another user", func(t *testing.T) {
		c := runContainer(t, "tls", "--user", "12345:12345", "-p", "127.0.0.1::8080",
			"-e", "ATMKIT_TLS_SELF_SIGNED=true", "-e", "ATMKIT_KEYS="+imageKey,
			"--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag)
		c.waitHealthy()
		logs := c.logs()
		if !strings.Contains(logs, "listening on https://127.0.0.1:8080") {
			t.Errorf("%s: want HTTPS:\n%s", c.name, logs)
		}
		if strings.Contains(logs, "TLS handshake error") {
			t.Errorf("%s: the health check spoke plain HTTP to the HTTPS mock:\n%s", c.name, logs)
		}
		// The authority's file is the container's: the banner says how
		// the host copies it, and the copy is trusted as it says.
		caFile := strings.Fields(bannerLine(t, logs, "CA:"))[0]
		if want := "that path is in this container; from the host: docker cp <container>:" + caFile + " ca.pem (then --cacert ca.pem)"; !strings.Contains(logs, want) {
			t.Errorf("%s: want %q in the banner:\n%s", c.name, want, logs)
		}
		hostCA := filepath.Join(t.TempDir(), "ca.pem")
		mustDocker(t, "cp", c.name+":"+caFile, hostCA)
		base := strings.Replace(c.url(), "http://", "https://", 1)
		if status, body, err := fetch(httpsClient(t, hostCA, "", ""), base+"/__admin/health"); err != nil || status != 200 {
			t.Errorf("%s: the health endpoint with the copied authority: got %d %q, %v", c.name, status, body, err)
		}
		c.stop("atmkit: stopped")
	})

	// Mutual TLS: the health check presents the client certificate of its
	// own variables (a mount), not serve's, and the container turns healthy.
	t.Run("mutual TLS with ATMKIT_HEALTH_CLIENT_CERT", func(t *testing.T) {
		certs := newCerts(t)
		if err := os.Chmod(certs.dir, 0o755); err != nil { // readable by the image's user
			t.Fatal(err)
		}
		for _, f := range []string{certs.serverKey, certs.clientKey, certs.serverCert, certs.clientCert, certs.caFile} {
			if err := os.Chmod(f, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		in := func(f string) string { return "/certs/" + filepath.Base(f) }
		c := runContainer(t, "mtls", "-p", "127.0.0.1::8080", "-v", certs.dir+":/certs:ro",
			"-e", "ATMKIT_TLS_CERT="+in(certs.serverCert), "-e", "ATMKIT_TLS_KEY="+in(certs.serverKey),
			"-e", "ATMKIT_TLS_CLIENT_CA="+in(certs.caFile),
			"-e", "ATMKIT_HEALTH_CLIENT_CERT="+in(certs.clientCert), "-e", "ATMKIT_HEALTH_CLIENT_KEY="+in(certs.clientKey),
			"--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag)
		c.waitHealthy()
		if logs := c.logs(); strings.Contains(logs, "TLS handshake error") {
			t.Errorf("%s: a handshake failed:\n%s", c.name, logs)
		}
		c.stop("atmkit: stopped")
	})

	// ATMKIT_ADDR=127.0.0.1:8080 is the container's own loopback: healthy
	// (its check runs inside), but the published port reaches nothing.
	// The banner says so.
	t.Run("listening on the container's loopback", func(t *testing.T) {
		c := runContainer(t, "loopback", "-p", "127.0.0.1::8080", "-e", "ATMKIT_ADDR=127.0.0.1:8080",
			"--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag)
		c.waitHealthy()
		if want := "  reachable:  only inside this container (127.0.0.1 is its own): neither the host, through a published port, nor other containers reach it"; !strings.Contains(c.logs(), want) {
			t.Errorf("the banner lacks %q:\n%s", want, c.logs())
		}
		c.stop("atmkit: stopped")
	})

	// conform against the host's 127.0.0.1, as from the host: the
	// container's own, where nothing listens; the message says how to
	// reach the host.
	t.Run("conform of the container's loopback", func(t *testing.T) {
		code, out := dockerRunCode(t, "run", "--rm", tag, "conform", "--target", "http://127.0.0.1:8080", "--key", imageKey)
		if code != 2 || !strings.Contains(out, "atmkit runs in a container here, whose 127.0.0.1 is its own") || !strings.Contains(out, "--add-host=host.docker.internal:host-gateway") {
			t.Errorf("conform --target http://127.0.0.1:8080 in the container: exit %d, want 2 and how to reach the host:\n%s", code, out)
		}
	})

	t.Run("read-only root file system", func(t *testing.T) {
		c := runContainer(t, "read-only", "--read-only", "--user", "12345:12345", "-p", "127.0.0.1::8080", "-e", "ATMKIT_KEYS="+imageKey,
			"--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag)
		c.waitHealthy()
		c.stop("atmkit: stopped")
		// The throwaway authority cannot go to /tmp: one line naming the
		// flag that names a file on a mount instead, exit 2.
		code, out := dockerRunCode(t, "run", "--rm", "--read-only", tag, "serve", "--tls-self-signed")
		if code != 2 || strings.Count(strings.TrimSpace(out), "\n") != 0 || !strings.Contains(out, "--tls-ca-out") {
			t.Errorf("serve --tls-self-signed on a read-only root: exit %d, want 2 and one line naming --tls-ca-out:\n%s", code, out)
		}
	})

	// A recorder killed (docker kill) leaves its cassette's lock file,
	// owned by the image's user; a recorder run as another user (--user
	// "$(id -u)", as docs/ci.md suggests) takes it over.
	t.Run("records over the lock a killed recorder of another user left", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "cassettes")
		if err := os.Mkdir(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o777); err != nil { // the umask aside: writable by both users
			t.Fatal(err)
		}
		args := []string{"-v", dir + ":/data/cassettes", "--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30", tag,
			"record", "--upstream", "http://127.0.0.1:9", "--cassette", "cassettes/atm"}
		first := runContainer(t, "lock-first", args...)
		first.waitHealthy()
		mustDocker(t, "kill", first.name)
		lock := filepath.Join(dir, ".atm.yaml.lock")
		if _, err := os.Stat(lock); err != nil {
			t.Fatalf("the killed recorder left no lock file: %v", err)
		}
		second := runContainer(t, "lock-second", append([]string{"--user", "12345:12345"}, args...)...)
		second.waitHealthy()
		mustDocker(t, "stop", "-t", "3", second.name)
		if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the lock file after the second recorder stopped: %v, want it removed\nlogs:\n%s", err, second.logs())
		}
	})

	t.Run("memory limit from docker run --memory", func(t *testing.T) {
		if ok, err := docker("info", "--format", "{{.MemoryLimit}}"); err != nil || ok != "true" {
			t.Skipf("this Docker daemon cannot limit a container's memory (docker info: MemoryLimit %q, %v)", ok, err)
		}
		for _, c := range []struct {
			name string
			env  []string // -e options
			want string   // the banner's memory line; "": none
		}{
			{"memory", nil, "  memory:     limit 691 MiB, 90 % of the container's 768 MiB (GOMEMLIMIT overrides)\n"},
			{"memory-gomemlimit", []string{"-e", "GOMEMLIMIT=300MiB"}, "  memory:     limit 300 MiB, from GOMEMLIMIT\n"},
			{"memory-off", []string{"-e", "GOMEMLIMIT=off"}, ""},
		} {
			args := append(append([]string{"--memory", "768m", "--health-interval", "1s", "--health-timeout", "3s", "--health-retries", "30"}, c.env...), tag)
			ctr := runContainer(t, c.name, args...)
			ctr.waitHealthy()
			if got := ctr.inspect("{{.HostConfig.Memory}}"); got != "805306368" {
				t.Fatalf("%s: docker inspect HostConfig.Memory: got %s, want 805306368 (768 MiB)", ctr.name, got)
			}
			logs := ctr.logs()
			if c.want == "" && strings.Contains(logs, "  memory:") {
				t.Errorf("%s (%s): the banner shows a memory limit:\n%s", ctr.name, strings.Join(c.env, " "), logs)
			}
			if c.want != "" && !strings.Contains(logs, c.want) {
				t.Errorf("%s (%s): the banner lacks %q:\n%s", ctr.name, strings.Join(c.env, " "), c.want, logs)
			}
		}
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
		status, recorded := mocktest.Call(t, rec.url(), asmx.DefaultNamespace, asmx.HTTPGet.String(), asmx.OpReturnAtmSearchByCity, params)
		if status != http.StatusOK {
			t.Fatalf("a call through the recorder: got %d %.300s, want 200", status, recorded)
		}
		rec.stop("atmkit: saved cassettes/atm.yaml: 1 interaction")
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
		status, replayed := mocktest.Call(t, replay.url(), asmx.DefaultNamespace, asmx.HTTPGet.String(), asmx.OpReturnAtmSearchByCity, params)
		if status != http.StatusOK || !bytes.Equal(replayed, recorded) {
			t.Errorf("the replayed call: got %d %.300s, want 200 and the recorded answer %.300s", status, replayed, recorded)
		}
		// A call never recorded is a miss (--on-miss fault), not an answer
		// from the embedded data set.
		status, missed := mocktest.Call(t, replay.url(), asmx.DefaultNamespace, asmx.HTTPGet.String(), asmx.OpReturnProvinces, mocktest.ParamsFor(asmx.OpReturnProvinces, imageKey))
		if status == http.StatusOK {
			t.Errorf("a call never recorded: got 200 %.300s, want a miss fault", missed)
		}
		replay.stop("atmkit: stopped")
		replay.assertKeyNotLogged()
	})

	testComposeFiles(t, tag)

	t.Run("Node Testcontainers snippet of docs/ci.md", func(t *testing.T) {
		src := filepath.Join(repoRoot, "docs", "ci", "node")
		modules, err := filepath.Abs(filepath.Join(src, "node_modules"))
		if err != nil {
			t.Fatal(err)
		}
		_, errNode := exec.LookPath("node")
		if _, err := os.Stat(filepath.Join(modules, "testcontainers")); err != nil || errNode != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("node or docs/ci/node/node_modules missing (CI=true: .ci/install-docker.sh runs npm ci there)")
			}
			t.Skip("node or docs/ci/node/node_modules missing; run .ci/install-docker.sh to install Testcontainers for Node")
		}
		doc, err := os.ReadFile(filepath.Join(src, "atmkit.test.mjs"))
		if err != nil {
			t.Fatal(err)
		}
		file := strings.Replace(string(doc), `"atmkit/atmkit:latest"`, `"`+tag+`"`, 1)
		if file == string(doc) {
			t.Fatal(`docs/ci/node/atmkit.test.mjs no longer names "atmkit/atmkit:latest": update this test`)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "atmkit.test.mjs"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", "--test", "atmkit.test.mjs")
		cmd.Dir = dir
		// Its reaper (Ryuk) is an image from a registry, which cannot be
		// pulled here; the snippet stops its container itself.
		cmd.Env = append(os.Environ(), "TESTCONTAINERS_RYUK_DISABLED=true")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "# pass 1") {
			t.Errorf("node --test atmkit.test.mjs: %v, want 1 test passed:\n%s", err, out)
		}
	})

	t.Run("Go Testcontainers snippet of docs/ci.md", func(t *testing.T) {
		// A module of its own (docs/ci/go), run offline: its modules must be
		// in the cache already (.ci/install-docker.sh downloads them).
		src := filepath.Join(repoRoot, "docs", "ci", "go")
		dir := t.TempDir()
		for _, name := range []string{"go.mod", "go.sum", "atmkit_test.go"} {
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			if name == "atmkit_test.go" {
				edited := strings.Replace(string(b), `"atmkit/atmkit:latest"`, `"`+tag+`"`, 1)
				if edited == string(b) {
					t.Fatal(`docs/ci/go/atmkit_test.go no longer names "atmkit/atmkit:latest": update this test`)
				}
				b = []byte(edited)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly -buildvcs=false", "TESTCONTAINERS_RYUK_DISABLED=true")
		// Inside a container (as CI machines may be), Testcontainers takes
		// the default gateway for the Docker host; the ports are published
		// on this machine's loopback interface.
		if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" && (os.Getenv("DOCKER_HOST") == "" || strings.HasPrefix(os.Getenv("DOCKER_HOST"), "unix://")) {
			env = append(env, "TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1")
		}
		list := exec.Command("go", "list", "-deps", "-test", "./...")
		list.Dir, list.Env = dir, env
		if out, err := list.CombinedOutput(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the modules of docs/ci/go are not in the module cache (CI=true: .ci/install-docker.sh downloads them): %v\n%s", err, out)
			}
			t.Skipf("the modules of docs/ci/go are not in the module cache; run (cd docs/ci/go && go mod download): %v", err)
		}
		cmd := exec.Command("go", "test", "-count=1", "-v", "./...")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestProvinces") {
			t.Errorf("go test in docs/ci/go: %v, want TestProvinces to pass:\n%s", err, out)
		}
	})
}

// dockerRunCode runs the docker command and returns its exit code and its
// standard output and error together.
func dockerRunCode(t *testing.T, args ...string) (int, string) {
	t.Helper()
	out, err := exec.Command("docker", args...).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("docker %s: %v", strings.Join(args, " "), err)
	}
	return 0, string(out)
}

// editLines returns s with each line that is old (indentation aside)
// replaced by new, keeping the indentation: pairs of old and new. A line
// not found fails the test: the docs' file changed under it.
func editLines(t *testing.T, s string, pairs ...string) string {
	t.Helper()
	lines := strings.Split(s, "\n")
	for i := 0; i+1 < len(pairs); i += 2 {
		found := false
		for j, l := range lines {
			if strings.TrimSpace(l) == pairs[i] {
				lines[j] = l[:len(l)-len(strings.TrimLeft(l, " "))] + pairs[i+1]
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no line %q in the docs' file: update this test", pairs[i])
		}
	}
	return strings.Join(lines, "\n")
}
