package main

import (
	"context"
	"errors"
)

// runBench is a placeholder until its issue lands.
func (m *Main) runBench(ctx context.Context, args []string) error {
	return errors.New("bench: not implemented yet")
}
