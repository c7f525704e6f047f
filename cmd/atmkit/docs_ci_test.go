package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// k8sObject is the part of a Kubernetes object the test reads.
type k8sObject struct {
	Kind     string
	Metadata struct{ Name string }
	Data     map[string]string // ConfigMap
	Spec     struct {
		Template struct {
			Metadata struct{ Labels map[string]string }
			Spec     struct {
				SecurityContext struct {
					RunAsUser int `yaml:"runAsUser"`
				} `yaml:"securityContext"`
				Containers []struct {
					Image string
					Args  []string
					Env   []struct{ Name string }
					Ports []struct {
						ContainerPort int `yaml:"containerPort"`
					}
					ReadinessProbe struct {
						HTTPGet struct {
							Path string
							Port int
						} `yaml:"httpGet"`
					} `yaml:"readinessProbe"`
					LivenessProbe struct {
						Exec struct{ Command []string }
					} `yaml:"livenessProbe"`
					VolumeMounts []struct {
						Name      string
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				}
				Volumes []struct {
					Name      string
					ConfigMap struct{ Name string } `yaml:"configMap"`
				}
			}
		}
		Ports []struct {
			Port       int
			TargetPort int `yaml:"targetPort"`
		}
	}
	raw map[string]any // the whole object, for what the fields above leave out
}

// TestDocsKubernetes checks the Kubernetes example of docs/ci.md, which
// no cluster runs here: the Deployment's probes and ports are the image's,
// its --config names the ConfigMap's file where the volume mounts it, the
// Service selects the pods, and atmkit serve runs with the ConfigMap's
// settings and the Deployment's arguments.
func TestDocsKubernetes(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "ci", "kubernetes.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]*k8sObject{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var o k8sObject
		var node yaml.Node
		if err := dec.Decode(&node); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("docs/ci/kubernetes.yaml: %v", err)
		}
		if err := node.Decode(&o); err != nil {
			t.Fatal(err)
		}
		if err := node.Decode(&o.raw); err != nil {
			t.Fatal(err)
		}
		objs[o.Kind] = &o
	}
	cm, dep, svc := objs["ConfigMap"], objs["Deployment"], objs["Service"]
	if cm == nil || dep == nil || svc == nil {
		t.Fatalf("docs/ci/kubernetes.yaml: want a ConfigMap, a Deployment and a Service, got %v", slices.Collect(maps.Keys(objs)))
	}
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	if got := c.ReadinessProbe.HTTPGet; got.Path != "/__admin/health" || got.Port != 8080 {
		t.Errorf("readiness probe: got GET %s on %d, want GET /__admin/health on 8080", got.Path, got.Port)
	}
	if got := c.LivenessProbe.Exec.Command; !slices.Equal(got, []string{"/atmkit", "health"}) {
		t.Errorf("liveness probe: got %q, want [/atmkit health] (exec form: the image has no shell)", got)
	}
	if len(c.Ports) != 1 || c.Ports[0].ContainerPort != 8080 || len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort != 8080 {
		t.Errorf("ports: want the container's and the Service's target port 8080 (the image's ATMKIT_ADDR)")
	}
	if pod.SecurityContext.RunAsUser != 65532 {
		t.Errorf("runAsUser: got %d, want 65532 (the image's user)", pod.SecurityContext.RunAsUser)
	}
	if !slices.ContainsFunc(c.Env, func(e struct{ Name string }) bool { return e.Name == "ATMKIT_KEYS" }) {
		t.Error("the keys should come from a Secret through ATMKIT_KEYS")
	}
	selector, _ := svc.raw["spec"].(map[string]any)["selector"].(map[string]any)
	for k, v := range dep.Spec.Template.Metadata.Labels {
		if selector[k] != v {
			t.Errorf("the Service's selector %v does not select the pods' labels %v", selector, dep.Spec.Template.Metadata.Labels)
		}
	}

	// --config names the ConfigMap's key where the volume mounts it.
	i := slices.Index(c.Args, "--config")
	if len(c.Args) == 0 || c.Args[0] != "serve" || i < 0 || i+1 >= len(c.Args) {
		t.Fatalf("args: got %q, want serve --config FILE", c.Args)
	}
	configPath := c.Args[i+1]
	mounted := false
	for _, vm := range c.VolumeMounts {
		for _, v := range pod.Volumes {
			if v.Name == vm.Name && v.ConfigMap.Name == cm.Metadata.Name {
				if _, ok := cm.Data[strings.TrimPrefix(configPath, vm.MountPath+"/")]; ok && strings.HasPrefix(configPath, vm.MountPath+"/") {
					mounted = true
				}
			}
		}
	}
	if !mounted {
		t.Fatalf("--config %s is no key of the ConfigMap %s where a volume mounts it", configPath, cm.Metadata.Name)
	}

	// atmkit serve with the Deployment's arguments and the ConfigMap's file.
	file := filepath.Join(t.TempDir(), filepath.Base(configPath))
	if err := os.WriteFile(file, []byte(cm.Data[filepath.Base(configPath)]), 0o644); err != nil {
		t.Fatal(err)
	}
	args := slices.Clone(c.Args)
	args[i+1] = file
	_, base, stderr := startAtmkit(t, append(args, "--addr", "127.0.0.1:0", "--key", "ci-key")...)
	if code, out, errOut := runAtmkit(nil, "health", "--url", base); code != 0 {
		t.Errorf("atmkit health: exit %d\n%s%s\nserve's stderr:\n%s", code, out, errOut, stderr.String())
	}
	if status, body := get(t, base+"/__admin/faults", ""); status != 200 || !strings.Contains(body, `"operation":"ReturnInstitutions"`) {
		t.Errorf("GET /__admin/faults: got %d %s, want the ConfigMap's fault", status, body)
	}
}

// TestDocsYAMLParses: every yaml block of the docs parses as YAML (each of
// its documents), so a recipe pasted into a CI file is at least valid: a
// plain scalar holding ": " (an HTTP header on a run: line) is not.
func TestDocsYAMLParses(t *testing.T) {
	t.Parallel()
	n := 0
	for _, d := range userDocs(t) {
		blocks, _ := d.parse()
		for _, b := range blocks {
			if b.lang != "yaml" || strings.HasSuffix(b.marker, " excerpt") {
				continue // an excerpt elides lines with "..."
			}
			n++
			dec := yaml.NewDecoder(strings.NewReader(strings.Join(b.lines, "\n")))
			for {
				var node yaml.Node
				if err := dec.Decode(&node); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Errorf("%s:%d: the yaml block does not parse: %v", d.path, b.line, err)
					break
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no yaml block found in the docs")
	}
}

// TestDocsGitHubActions checks the GitHub Actions recipes of the docs
// with actionlint (GitHub's workflow schema, expressions, service
// containers), which no runner here can run: a block starting "jobs:" is
// given a trigger, a list of steps (uses: or run:) a job around it.
// Without actionlint on PATH or in GOPATH/bin it skips, but under CI=true
// (.ci/install-actionlint.sh installs it).
func TestDocsGitHubActions(t *testing.T) {
	t.Parallel()
	lint, err := exec.LookPath("actionlint")
	if err != nil {
		if gopath, gerr := exec.Command("go", "env", "GOPATH").Output(); gerr == nil {
			p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", "actionlint")
			if _, serr := os.Stat(p); serr == nil {
				lint, err = p, nil
			}
		}
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("actionlint is needed to check the GitHub Actions recipes (.ci/install-actionlint.sh)")
		}
		t.Skip("actionlint is not installed: the GitHub Actions recipes are not checked")
	}
	n := 0
	for _, d := range userDocs(t) {
		blocks, _ := d.parse()
		for _, b := range blocks {
			workflow := githubWorkflow(b)
			if workflow == "" {
				continue
			}
			n++
			cmd := exec.Command(lint, "-no-color", "-shellcheck=", "-pyflakes=", "-stdin-filename", fmt.Sprintf("%s:%d", d.path, b.line), "-")
			cmd.Stdin = strings.NewReader(workflow)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s:%d: actionlint finds fault with the GitHub Actions recipe (%v; lines counted in the workflow below):\n%s\n%s", d.path, b.line, err, out, workflow)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d GitHub Actions recipes in the docs, want the 3 of docs/ci.md and docs/serving.md", n)
	}
}

// githubWorkflow is a yaml block as a GitHub workflow to lint: a job list
// with a trigger, a step list inside a job; "" for other blocks.
func githubWorkflow(b codeBlock) string {
	if b.lang != "yaml" || len(b.lines) == 0 {
		return ""
	}
	body := strings.Join(b.lines, "\n") + "\n"
	first := strings.TrimSpace(b.lines[0])
	switch {
	case first == "jobs:":
		return "on: push\n" + body
	case strings.HasPrefix(first, "- uses:") || strings.HasPrefix(first, "- name:") && strings.Contains(body, "  run:"):
		var w strings.Builder
		w.WriteString("on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n")
		for _, l := range b.lines {
			w.WriteString("      " + l + "\n")
		}
		return w.String()
	}
	return ""
}

// TestArchiveHoldsLinkedFiles: a release archive holds the README, the
// CHANGELOG and docs/ (.goreleaser.yaml's archive files), and every file
// they link to by a relative path, so that their links work where the
// archive is unpacked, offline, as they do in the repository (a wire
// sample, a cassette, a learned shape).
func TestArchiveHoldsLinkedFiles(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct {
			Files []struct{ Src string }
		}
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: %d archives, want 1", len(cfg.Archives))
	}
	shipped := map[string]bool{}
	for _, f := range cfg.Archives[0].Files {
		matches, err := filepath.Glob(filepath.Join(repoRoot, filepath.FromSlash(f.Src)))
		if err != nil || len(matches) == 0 {
			t.Errorf(".goreleaser.yaml: archive files %q match nothing (%v)", f.Src, err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(repoRoot, m)
			shipped[filepath.ToSlash(rel)] = true
		}
	}
	docs := append(userDocs(t), readDoc(t, filepath.Join(repoRoot, "CHANGELOG.md")))
	for _, d := range docs {
		if !shipped[d.path] {
			t.Errorf("%s is not in the archive", d.path)
		}
		for i, l := range d.lines {
			for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
				file, _, _ := strings.Cut(m[1], "#")
				if file == "" || strings.Contains(file, "://") || strings.HasPrefix(file, "mailto:") {
					continue
				}
				dest := filepath.ToSlash(filepath.Join(filepath.Dir(d.path), file))
				if st, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(dest))); err == nil && st.IsDir() {
					continue // a directory: TestDocsLinks checks it exists
				}
				if !shipped[dest] {
					t.Errorf("%s:%d: links %s, which the release archive lacks: add it to .goreleaser.yaml's archive files", d.path, i+1, dest)
				}
			}
		}
	}
}

// TestReleaseRefusesAStrictUmask: GoReleaser makes the images' build
// context under the umask, and the image's user (65532) reads its files as
// "others": under umask 027 or 077 a release image could not start (exit
// 126), so .goreleaser.yaml's before hook refuses such a umask, naming it,
// and lets 022 and 002 through. `make snapshot` (archives only, whose
// modes are fixed) sets umask 022 itself.
func TestReleaseRefusesAStrictUmask(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Before struct{ Hooks []string }
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Before.Hooks) != 1 || strings.Contains(cfg.Before.Hooks[0], "{{") {
		t.Fatalf(".goreleaser.yaml: before hooks %q, want the one umask check (no templates)", cfg.Before.Hooks)
	}
	hook := cfg.Before.Hooks[0]
	for _, tc := range []struct {
		umask  string
		refuse bool
	}{{"027", true}, {"077", true}, {"007", true}, {"022", false}, {"002", false}, {"000", false}} {
		var stderr bytes.Buffer
		cmd := exec.Command("sh", "-c", "umask "+tc.umask+"; "+hook)
		cmd.Stderr = &stderr
		err := cmd.Run()
		if refused := err != nil; refused != tc.refuse {
			t.Errorf("umask %s: refused %v (%v, %q), want %v", tc.umask, refused, err, stderr.String(), tc.refuse)
		}
		if tc.refuse && !strings.Contains(stderr.String(), "umask 0"+tc.umask) {
			t.Errorf("umask %s: the refusal %q does not name the umask", tc.umask, stderr.String())
		}
	}
	makefile, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, _ := strings.Cut(string(makefile), "\nsnapshot:\n")
	if !strings.HasPrefix(recipe, "\tumask 022;") {
		t.Errorf("Makefile: the snapshot recipe does not set umask 022 first: %.80q", recipe)
	}
}
