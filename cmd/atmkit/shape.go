package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/learnfrom"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

func (m *Main) runShape(ctx context.Context, args []string) error {
	return m.Dispatch(ctx, "shape", helpText("shape"), args,
		cli.Sub{Name: "show", Run: m.runShapeShow},
		cli.Sub{Name: "learn", Run: m.runShapeLearn})
}

func (m *Main) runShapeShow(_ context.Context, args []string) error {
	fs := cli.NewFlagSet("shape show", "shape show [--shape FILE]", helpText("shape-show"), m.Stderr)
	path := fs.String("shape", "", "shape file to show (-: standard input; default: the built-in shape)")
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	sh, err := m.LoadShape(fs, *path)
	if err != nil {
		return err
	}
	header := "atmkit result shape: " + filepath.Base(cli.ShownInput(*path))
	if sh == nil {
		sh = shape.Default()
		header = "atmkit's built-in result shape: XML nodes in no namespace whose names mirror\n" +
			"the JSON fields. Edit a copy and serve it with: atmkit serve --shape FILE"
	}
	_, err = m.Stdout.Write(shape.Marshal(sh, header))
	return err
}

// shapeLearnFlags are the flags of atmkit shape learn.
type shapeLearnFlags struct {
	wsdl     string
	cassette cli.List
	out      string
	timeout  time.Duration
	encoding cli.RecordedEncoding // --request-encoding: how the recorded parameters are read
	reach    cli.Reach            // --ca-cert, --header, …: how --wsdl's deployment is reached
}

func (m *Main) runShapeLearn(ctx context.Context, args []string) error {
	var f shapeLearnFlags
	fs := cli.NewFlagSet("shape learn", "shape learn [--wsdl URL|FILE] [--cassette PATH]... [--request-encoding NAME] --out FILE", helpText("shape-learn"), m.Stderr)
	fs.StringVar(&f.wsdl, "wsdl", "", "the deployment's WSDL: a URL (service.asmx; WSDL is added to its query) or a file (-: standard input)")
	fs.Var(&f.cassette, "cassette", "cassette file or directory recorded from the deployment (repeatable)")
	fs.StringVar(&f.out, "out", "", "shape file to write (required; written atomically; a missing directory is made; one already there is replaced only when empty or a shape file); -: standard output, the report then on stderr")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "how long fetching the WSDL may take")
	f.encoding.Register(fs, "; answers to the same call over different bindings are paired by them")
	f.reach.Register(fs, "--wsdl's deployment", false)
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	m.HideKeys(f.reach.Secrets()...)
	switch {
	case f.wsdl == "" && len(f.cassette) == 0:
		return cli.Usagef("shape learn", "give --wsdl, --cassette or both")
	case f.out == "":
		return cli.Usagef("shape learn", "--out FILE is required")
	}
	files, err := learnfrom.CassetteFiles(f.cassette)
	if err != nil {
		return cli.Usagef("shape learn", "%v", err)
	}
	if err := m.FirstBad(fs, cli.Bad("out", learnfrom.CheckOut(f.out)), cli.Bad("out", learnfrom.OutIsSource(f.out, f.wsdl, files)), cli.Bad("out", learnfrom.CheckOutKind(f.out)),
		cli.Bad("timeout", cli.When(f.timeout <= 0, "must be positive, e.g. 30s")), f.encoding.Check()); err != nil { // before fetching and learning
		return err
	}
	var in learn.Input
	var sources []string
	if f.wsdl != "" {
		rt, err := m.Transport(fs, &f.reach, "wsdl")
		if err != nil {
			return err
		}
		if line := learnfrom.Reading(f.wsdl, f.timeout); line != "" { // a wait of up to --timeout, or for stdin
			fmt.Fprintf(m.Stderr, "atmkit: shape learn: %s\n", line)
		}
		data, from, err := learnfrom.ReadTelling(ctx, f.wsdl, f.timeout, rt, 15*time.Second, func(d time.Duration) {
			fmt.Fprintf(m.Stderr, "atmkit: shape learn: still fetching the WSDL, %s so far (Ctrl-C stops it)\n", d.Round(time.Second))
		})
		if err != nil { // exit 2: no such file, or the deployment could not be read
			return cli.Exitf(exitUsage, "shape learn: %w", err)
		}
		in.WSDL = data
		sources = append(sources, "the WSDL "+from)
	}
	if len(files) > 0 {
		n, recordedWSDL, notUTF8, err := learnfrom.Cassettes(ctx, &in, files, f.encoding.Encoding())
		if err != nil {
			// exit 2, as cassette list and serve --replay: a cassette that cannot be read
			return cli.Interrupted(ctx, cli.Exitf(exitUsage, "shape learn: %w", err), "shape learn: interrupted while reading the cassettes; %s was not written", learnfrom.Dest(f.out))
		}
		banner.NotUTF8(m.StderrUnlessGiven(fs, "request-encoding"), "shape learn", notUTF8, 0)
		sources = append(sources, banner.Plural(n, "recorded answer")+" in "+banner.Plural(len(files), "cassette"))
		if recordedWSDL != "" {
			sources = append(sources, "the WSDL recorded in "+recordedWSDL)
		}
	}
	fmt.Fprintf(m.Stderr, "atmkit: shape learn: learning from %s (Ctrl-C stops it)\n", strings.Join(sources, ", "))
	sh, rep, err := learnfrom.LearnTelling(ctx, in, 15*time.Second, func(d time.Duration) {
		fmt.Fprintf(m.Stderr, "atmkit: shape learn: still learning, %s so far (Ctrl-C stops it)\n", d.Round(time.Second))
	})
	report, dest := m.Stdout, learnfrom.Dest(f.out) // --out -: the shape on stdout, the rest on stderr
	if f.out == "-" {
		report = m.Stderr
	}
	if rep != nil {
		_ = rep.WriteText(report)
	}
	if err != nil {
		return cli.Interrupted(ctx, fmt.Errorf("shape learn: %w", err), "shape learn: interrupted while learning; %s was not written", dest)
	}
	wrote, serve, err := learnfrom.Write(f.out, m.Stdout, sh, sources, rep, in.WSDL, m.ShellArg)
	if err != nil {
		return fmt.Errorf("shape learn: %w", err)
	}
	fmt.Fprintf(report, "\natmkit: learned from %s%s; wrote %s\n  serve it: %s\n", strings.Join(sources, ", "), learnfrom.Counts(rep), wrote, serve)
	return nil
}
