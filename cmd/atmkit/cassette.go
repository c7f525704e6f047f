package main

import (
	"context"
	"errors"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

func (m *Main) runCassette(ctx context.Context, args []string) error {
	return m.Dispatch(ctx, "cassette", helpText("cassette"), args,
		cli.Sub{Name: "list", Run: m.runCassetteList},
		cli.Sub{Name: "scrub", Run: m.runCassetteScrub},
		cli.Sub{Name: "verify", Run: m.runCassetteVerify})
}

func (m *Main) runCassetteList(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("cassette list", "cassette list [--request-encoding NAME] PATH...", helpText("cassette-list"), m.Stderr)
	var enc cli.RecordedEncoding
	enc.Register(fs, "")
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	if err := m.FirstBad(fs, enc.Check()); err != nil {
		return err
	}
	files, err := cli.CassetteFiles("cassette list", fs.Args())
	if err != nil {
		return err
	}
	notUTF8, err := banner.CassetteList(ctx, m.Stdout, enc.Encoding(), files...)
	if err != nil {
		if ctx.Err() != nil {
			return cli.Exitf(exitUsage, "cassette list: interrupted")
		}
		return cli.Exitf(exitUsage, "cassette list: %w", err) // not read: nothing listed
	}
	banner.NotUTF8(m.StderrUnlessGiven(fs, "request-encoding"), "cassette list", notUTF8, 0)
	return nil
}

func (m *Main) runCassetteScrub(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("cassette scrub", "cassette scrub [--check] [--scrub-header NAME] PATH...", helpText("cassette-scrub"), m.Stderr)
	check := fs.Bool("check", false, "only report; exit 1 if anything would be redacted")
	var headers cli.List
	fs.Var(&headers, "scrub-header", "also redact this header's values (repeatable; names with key, token, secret, password, credential, signature, session or auth always are)")
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	files, err := cli.CassetteFiles("cassette scrub", fs.Args())
	if err == nil {
		err = m.FirstBad(fs, cli.Bad("scrub-header", m.CheckHeaderNames(headers)))
	}
	if err != nil {
		return err
	}
	if !*check { // rewritten atomically; --check writes nothing
		if f, p := cli.CheckRewrite(files); p != "" {
			return cli.Usagef("cassette scrub", "%s: %s (--check only reports)", f, p)
		}
	}
	total := 0
	for _, f := range files {
		res, err := cassettes.ScrubCassetteContext(ctx, f, *check, headers...)
		if errors.Is(err, cassettes.ErrCassetteBusy) {
			return cli.Exitf(exitUsage, "cassette scrub: %v; run it again when the recording has stopped", err)
		}
		if err != nil { // interrupted or not read: f is left as it was
			if ctx.Err() != nil {
				return cli.Exitf(exitUsage, "cassette scrub: interrupted at %s, which is as it was", f)
			}
			return cli.Exitf(exitUsage, "cassette scrub: %w", err) // not checked: 1 is --check's
		}
		total += res.Replaced
		banner.Scrubbed(m.Stdout, f, res, *check)
	}
	if *check && total > 0 {
		return cli.Exitf(exitFailure, "cassette scrub: %s to redact (run without --check to redact them)", banner.Plural(total, "value"))
	}
	return nil
}
