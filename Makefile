# Builds atmkit with Go alone, and its container image with Go and Docker.
#
#   make build      bin/atmkit for this machine, stamped with version, commit, date
#   make image      the container image $(IMAGE) from the working tree
#   make snapshot   the release archives of the six platforms (GoReleaser, offline)
#   make pgo        cmd/atmkit/default.pgo anew from atmkit bench's CPU profiles
#   make clean      removes bin/, build/ and dist/
#
# IMAGE=name:tag names the image (default atmkit:dev); IMAGE_ARCH=arm64 builds
# it for another architecture (where Docker has buildx, or is arm64).
# Version, commit and date come from git (or
# VERSION=, COMMIT=, DATE=): `go build` alone cannot stamp them where
# GOFLAGS=-buildvcs=false. The date is the commit's, not the build's, as
# GoReleaser stamps it: one commit builds the same binary.

IMAGE      ?= atmkit:dev
GO         ?= go
DOCKER     ?= docker
VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE       ?= $(shell TZ=UTC git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null || echo unknown)
IMAGE_ARCH ?= $(shell $(GO) env GOARCH)

LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
CONTEXT    ?= build/image

.PHONY: build image snapshot pgo clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/atmkit ./cmd/atmkit

# The build context is assembled as GoReleaser assembles its own: the
# Dockerfile, image/ and the binary at linux/<arch>/atmkit. COPY keeps the
# context's modes, which the umask made (under umask 027 or 077 /atmkit
# was root's alone and the image's user could not start it, exit 126):
# they are set as a release's are, readable by all, executable where
# executable at all.
#
# An image of another architecture than the Docker daemon's (IMAGE_ARCH)
# needs BuildKit (docker buildx): the legacy builder labels every image
# with the daemon's platform, so an arm64 binary went into an image that
# claimed amd64, and its --platform fails on FROM scratch. Without buildx
# make refuses it, before building anything; with it, make builds it with
# docker buildx build --load.
DOCKER_ARCH = $(shell $(DOCKER) version --format '{{.Server.Arch}}' 2>/dev/null)

image:
	@if [ -n "$(DOCKER_ARCH)" ] && [ "$(DOCKER_ARCH)" != "$(IMAGE_ARCH)" ] && ! $(DOCKER) buildx version >/dev/null 2>&1; then \
		echo "make image: IMAGE_ARCH=$(IMAGE_ARCH), but the Docker daemon is $(DOCKER_ARCH) and has no buildx: its legacy builder would label the image $(DOCKER_ARCH); build it where Docker has buildx or is $(IMAGE_ARCH) (the release images: GoReleaser)" >&2; \
		exit 2; \
	fi
	rm -rf $(CONTEXT)
	mkdir -p $(CONTEXT)/linux/$(IMAGE_ARCH)
	CGO_ENABLED=0 GOOS=linux GOARCH=$(IMAGE_ARCH) $(GO) build -trimpath -ldflags '$(LDFLAGS)' \
		-o $(CONTEXT)/linux/$(IMAGE_ARCH)/atmkit ./cmd/atmkit
	cp -R Dockerfile .dockerignore image $(CONTEXT)/
	chmod -R u=rwX,go=rX $(CONTEXT)
	$(if $(filter-out $(IMAGE_ARCH),$(DOCKER_ARCH)),$(DOCKER) buildx build --load --platform linux/$(IMAGE_ARCH),$(DOCKER) build) \
		--build-arg TARGETPLATFORM=linux/$(IMAGE_ARCH) \
		--build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg DATE=$(DATE) \
		-t $(IMAGE) $(CONTEXT)

# GoReleaser drops all it read from git (the commit, its date) when the
# checkout has no remote, as a clone of a local repository or a git
# worktree may not, and stamps commit none, date 0001-01-01: the project's
# remote is named for this command only (git reads config from
# GIT_CONFIG_*; nothing is fetched). GoReleaser refuses a umask that
# takes read or execute from others (the images' files would be
# unreadable to their user); the archives' modes are fixed, so the
# snapshot sets umask 022 for itself.
SNAPSHOT_ENV = $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/atmkit/atmkit.git)

snapshot:
	umask 022; $(SNAPSHOT_ENV) goreleaser release --snapshot --clean --skip=docker

# cmd/atmkit/default.pgo is the CPU profile every build of atmkit is
# optimised with (profile-guided optimisation: go build, go run, GoReleaser
# and make take it by themselves). It is made from `atmkit bench` of the
# default search in the five bindings, by a build without it. Run this on a
# quiet machine after changes to the serving path (docs/performance.md).
pgo:
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) build -pgo=off -o "$$tmp/atmkit" ./cmd/atmkit && \
	for b in soap11 soap12 get post json; do \
		"$$tmp/atmkit" bench --binding $$b -d 6s --cpuprofile "$$tmp/$$b.pprof" || exit 1; \
	done && \
	$(GO) tool pprof -proto "$$tmp"/*.pprof > cmd/atmkit/default.pgo.tmp && \
	mv cmd/atmkit/default.pgo.tmp cmd/atmkit/default.pgo

clean:
	rm -rf bin build dist
