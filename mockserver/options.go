package mockserver

import (
	"fmt"
	"log/slog"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// DefaultMaxBodyBytes is the default cap on a request body (1 MiB).
const DefaultMaxBodyBytes = 1 << 20

// Option configures a mock server.
type Option func(*config) error

// config is what the options set.
type config struct {
	dataset      *fixtures.Dataset
	datasetDir   string
	keys         []string
	namespace    string
	maxBodyBytes int64
	logger       *slog.Logger
	replayer     Replayer
	onMiss       MissPolicy
	journalSize  int          // requests the journal keeps; 0 keeps none
	faults       []Fault      // faults active from the start
	adminToken   string       // bearer token the admin API requires; empty: none
	shape        *shape.Shape // how results are written; nil: shape.Default()
}

func defaultConfig() config {
	return config{namespace: asmx.DefaultNamespace, maxBodyBytes: DefaultMaxBodyBytes, journalSize: DefaultJournalSize}
}

// WithDataset serves ds instead of the embedded default data set. ds is
// validated and must not be modified afterwards.
func WithDataset(ds *fixtures.Dataset) Option {
	return func(c *config) error { c.dataset = ds; return nil }
}

// WithFixturesDir serves the data set in dir (as written by atmkit fixtures generate).
func WithFixturesDir(dir string) Option {
	return func(c *config) error { c.datasetDir = dir; return nil }
}

// WithGeneratedDataset serves a data set generated with seed (not 0) and
// atms ATM locations, as atmkit fixtures generate makes it: the same seed and
// size give the same data set.
func WithGeneratedDataset(seed uint64, atms int) Option {
	return func(c *config) error {
		ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: seed, ATMs: atms})
		if err != nil {
			return fmt.Errorf("mock server data set: %w", err)
		}
		c.dataset, c.datasetDir = ds, ""
		return nil
	}
}

// WithKeys sets the accepted service keys. With none, any non-empty key is accepted.
func WithKeys(keys ...string) Option {
	return func(c *config) error {
		for _, k := range keys {
			if k != "" {
				c.keys = append(c.keys, k)
			}
		}
		return nil
	}
}

// WithNamespace sets the service namespace (default http://tempuri.org/atmService).
func WithNamespace(ns string) Option {
	return func(c *config) error {
		if ns != "" {
			c.namespace = ns
		}
		return nil
	}
}

// WithMaxBodyBytes caps request bodies; larger ones get a 413 in the binding's form.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) error {
		if n > 0 {
			c.maxBodyBytes = n
		}
		return nil
	}
}

// WithLogger sets the logger for request and error logs (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error { c.logger = l; return nil }
}
