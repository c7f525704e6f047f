package main

import (
	"context"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/health"
)

// runHealth runs atmkit health (health.Run).
func (m *Main) runHealth(ctx context.Context, args []string) error {
	return health.Run(ctx, &m.Env, helpText("health"), args)
}
