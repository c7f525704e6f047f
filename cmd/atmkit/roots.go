package main

// The trust roots of public certificate authorities (Mozilla's, as Go
// publishes them), compiled into the binary and used only where the
// system has none: in the container image, which is FROM scratch, so that
// record, conform, cassette verify and serve --upstream reach HTTPS
// deployments with publicly issued certificates. Where the system has its
// own roots (any Linux distribution, macOS, Windows), these are ignored.
import _ "golang.org/x/crypto/x509roots/fallback"
