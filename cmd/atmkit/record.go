package main

import (
	"context"
	"errors"
)

// runRecord is a placeholder until its issue lands.
func (m *Main) runRecord(ctx context.Context, args []string) error {
	return errors.New("record: not implemented yet")
}
