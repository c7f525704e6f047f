package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = ""

func (m *Main) runVersion(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("version", "version", helpText("version"), m.Stderr)
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	v := version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	fmt.Fprintf(m.Stdout, "atmkit %s %s %s/%s\n", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
