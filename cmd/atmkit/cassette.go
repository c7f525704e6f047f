package main

import (
	"context"
	"errors"
)

// runCassette is a placeholder until its issue lands.
func (m *Main) runCassette(ctx context.Context, args []string) error {
	return errors.New("cassette: not implemented yet")
}
