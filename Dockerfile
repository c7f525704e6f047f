# The atmkit container image: the static atmkit binary on an empty base,
# run as a non-root user. Build it with `make image` (Go and Docker alone);
# GoReleaser builds the release images from the same file. The build
# context is not this directory but the one they assemble: this file,
# image/ and the binary at linux/<arch>/atmkit. Nothing is pulled, and no
# BuildKit-only syntax is used: the legacy builder builds it too.
FROM scratch

# The platform whose binary is copied: BuildKit sets it (GoReleaser), the
# legacy builder takes it from --build-arg (make image passes it). No
# default: BuildKit would take a default for a value set by hand and copy
# that platform's binary into every image.
ARG TARGETPLATFORM
ARG VERSION=dev
ARG COMMIT=unknown
ARG DATE=unknown

LABEL org.opencontainers.image.title="atmkit" \
      org.opencontainers.image.description="Mock server, record and replay, and conformance suite for the ATM Location Lookup Service (ASMX)" \
      org.opencontainers.image.source="https://github.com/atmkit/atmkit" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${COMMIT}" \
      org.opencontainers.image.created="${DATE}"

# /etc/passwd and /etc/group name the user; /data (mounted cassettes and
# data sets; a named volume mounted on /data starts out owned by the user)
# belongs to it. /tmp is every user's, mode 1777 as on any system, for a
# container run with --user as someone else (--tls-self-signed writes its
# authority there): ADD unpacks it from a tar, which keeps that mode where
# a COPY would take the checkout's (and --chmod needs BuildKit). The binary
# carries its own trust roots for HTTPS (no /etc/ssl).
COPY image/root/ /
COPY --chown=65532:65532 image/nonroot/ /
ADD image/tmp.tar /
COPY ${TARGETPLATFORM}/atmkit /atmkit

USER 65532:65532
WORKDIR /data

# Every command listens on all interfaces of the container, on 8080; atmkit
# health (the HEALTHCHECK) reads the port from ATMKIT_ADDR too. In-flight
# requests get 5 s to finish on SIGTERM, within docker stop's 10 s.
ENV ATMKIT_ADDR=0.0.0.0:8080 \
    ATMKIT_GRACE=5s
EXPOSE 8080

HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/atmkit", "health"]

ENTRYPOINT ["/atmkit"]
CMD ["serve"]
