// Command encode-trace encodes an execution trace the way a prover does: the
// low-degree extension of every column and a Merkle commitment to the rows,
// then opens a few rows and verifies them. It prints the Merkle root and the
// time of each phase.
//
// With no flags it encodes a synthetic trace of 2^16 rows × 16 columns of
// random GF(2^64) elements with blowup 4, on the GPU if there is one with a
// backend for the field, else on the CPU (and says which):
//
//	go run ./examples/encode-trace
//	go run ./examples/encode-trace -log-rows 20 -cols 32 -blowup 4
//	go run ./examples/encode-trace -backend goldilocks/cpu
//	go run ./examples/encode-trace -in trace.bin -cols 8
//	go run ./examples/encode-trace -in trace.csv -backend babybear
//
// -backend is auto, cpu, gpu, a field (gf64, goldilocks, babybear, koalabear,
// bn254: that field, GPU if possible) or field/cpu, field/gpu. -in reads a
// trace file instead of a synthetic one; see input.go for the two formats
// (little-endian binary uint64 column-major, or CSV rows of uint64 values).
package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "encode-trace:", err)
		}
		os.Exit(2)
	}
}

type options struct {
	logRows, cols, blowup, open int
	repeat                      int
	field                       prover.Field
	device                      string // auto, cpu, gpu
	in, format, progress        string
	seed                        uint64
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("encode-trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.logRows, "log-rows", 16, "log2 of the number of rows of the synthetic trace (0..26)")
	fs.IntVar(&o.cols, "cols", 16, "number of columns (of the synthetic trace, or of a binary -in file)")
	fs.IntVar(&o.blowup, "blowup", 4, "codeword length / trace length: 2, 4, 8 or 16")
	backend := fs.String("backend", "auto", "auto, cpu, gpu, a field (gf64, goldilocks, babybear, koalabear, bn254) or field/cpu, field/gpu")
	fs.StringVar(&o.in, "in", "", "read the trace from this file (binary little-endian uint64 column-major, or CSV rows) instead of a synthetic one")
	fs.StringVar(&o.format, "format", "", "format of -in: bin or csv (default: from the file extension, .csv is CSV, else binary)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the synthetic trace")
	fs.IntVar(&o.open, "open", 8, "number of random rows to open and verify")
	fs.IntVar(&o.repeat, "repeat", 0, "commit the trace this many more times and report the steady state (the fastest), against which the first commit's one-time costs show")
	fs.StringVar(&o.progress, "progress", "auto", "progress bar on stderr: auto (long runs on a terminal), on or off")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var err error
	if o.field, o.device, err = parseBackend(*backend); err != nil {
		return err
	}
	switch o.field {
	case prover.GF64:
		return runField[gf64.Element](o, stdout, stderr)
	case prover.Goldilocks:
		return runField[goldilocks.Element](o, stdout, stderr)
	case prover.BabyBear:
		return runField[babybear.Element](o, stdout, stderr)
	case prover.KoalaBear:
		return runField[koalabear.Element](o, stdout, stderr)
	default:
		return runField[fr.Element](o, stdout, stderr)
	}
}

// parseBackend reads -backend: auto, cpu, gpu, FIELD, FIELD/cpu, FIELD/gpu.
func parseBackend(s string) (prover.Field, string, error) {
	field, device, found := strings.Cut(s, "/")
	if !found {
		switch s {
		case "auto", "cpu", "gpu":
			return prover.GF64, s, nil
		}
		device = "auto"
	}
	f, err := prover.ParseField(field)
	if err != nil {
		return 0, "", fmt.Errorf("-backend %q: %w", s, err)
	}
	switch device {
	case "auto", "cpu", "gpu":
		return f, device, nil
	}
	return 0, "", fmt.Errorf("-backend %q: device %q is not cpu, gpu or auto", s, device)
}

// newEncoder opens the GPU when asked or when auto, and falls back to the
// CPU, saying why, in auto mode.
func newEncoder[E prover.Element](o options, opts []prover.Option, stdout io.Writer) (prover.Encoder[E], func(), error) {
	if o.device != "cpu" {
		dev, err := gpu.Open()
		if err == nil {
			enc, err2 := prover.New[E](append(opts, prover.WithGPU(dev))...)
			if err2 == nil {
				return enc, func() { enc.Close(); dev.Close() }, nil
			}
			dev.Close()
			err = fmt.Errorf("GPU %s: %w", dev.Info().Name, err2)
		}
		if o.device == "gpu" {
			return nil, nil, err
		}
		fmt.Fprintf(stdout, "GPU: not used (%v); running on the CPU\n", err)
	}
	enc, err := prover.New[E](opts...)
	if err != nil {
		return nil, nil, err
	}
	return enc, func() { enc.Close() }, nil
}

func runField[E prover.Element](o options, stdout, stderr io.Writer) error {
	var bar *progressBar
	opts := []prover.Option{}
	if o.blowup != 4 {
		opts = append(opts, prover.WithBlowup(o.blowup))
	}
	if _, err := prover.New[E](opts...); err != nil {
		return err
	}

	// The trace: synthetic or from a file.
	t0 := time.Now()
	var src prover.Source[E]
	what := "synthetic (random elements)"
	if o.in != "" {
		format := o.format
		if format == "" {
			format = "bin"
			if strings.EqualFold(filepath.Ext(o.in), ".csv") {
				format = "csv"
			}
		}
		switch format {
		case "csv":
			f, err := os.Open(o.in)
			if err != nil {
				return err
			}
			tr, err := readCSV[E](f, o.in)
			f.Close()
			if err != nil {
				return err
			}
			src = tr
		case "bin":
			bs, err := openBinary[E](o.in, o.cols)
			if err != nil {
				return err
			}
			defer bs.Close()
			src = bs
		default:
			return fmt.Errorf("-format %q: want bin or csv", format)
		}
		what = o.in + " (" + format + ")"
	} else {
		tr, err := prover.RandomTrace[E](o.logRows, o.cols, o.seed)
		if err != nil {
			return err
		}
		src = tr
	}
	logRows, cols, err := src.Shape()
	if err != nil {
		return err
	}
	tLoad := time.Since(t0)

	showBar := o.progress == "on" || (o.progress == "auto" && isTerminal(stderr) && (cols<<logRows)*o.blowup >= 1<<25)
	if showBar {
		bar = &progressBar{w: stderr}
		opts = append(opts, prover.WithProgress(bar.update))
	}
	enc, closeEnc, err := newEncoder[E](o, opts, stdout)
	if err != nil {
		return err
	}
	defer closeEnc()

	fmt.Fprintf(stdout, "trace:   %s, 2^%d rows × %d columns of %v, blowup %d → %d codeword rows\n",
		what, logRows, cols, prover.FieldOf[E](), enc.Blowup(), enc.Blowup()<<logRows)
	fmt.Fprintf(stdout, "backend: %s on %s\n", enc.Name(), enc.Device())
	tPrep := time.Now()
	if err := enc.Prepare(logRows, cols); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "prepared in %s (tables, kernels, staging: once per encoder and size)\n", ms(time.Since(tPrep)))

	c, err := enc.Commit(src)
	bar.done()
	if err != nil {
		return err
	}

	// Open random rows and verify them, as a verifier would.
	t1 := time.Now()
	r := rand.New(rand.NewPCG(o.seed, 7))
	idx := make([]int, o.open)
	for i := range idx {
		idx[i] = r.IntN(c.Rows())
	}
	op, err := c.Open(idx)
	if err != nil {
		return err
	}
	if err := prover.Verify(c.Root(), c.Rows(), op.Indices, op.Rows, op.Paths, nil); err != nil {
		return err
	}
	tOpen := time.Since(t1)

	phase := "generate"
	if o.in != "" {
		phase = "read"
	}
	fmt.Fprintf(stdout, "%-12s %10s\n", "phase", "time")
	fmt.Fprintf(stdout, "%-12s %10s\n", phase, ms(tLoad))
	fmt.Fprintf(stdout, "%-12s %10s   (LDE of %d columns)\n", "encode", ms(c.Timings.Encode), cols)
	fmt.Fprintf(stdout, "%-12s %10s   (SHA-256 Merkle tree over %d rows)\n", "commit", ms(c.Timings.Commit), c.Rows())
	fmt.Fprintf(stdout, "%-12s %10s   (%d rows opened and verified)\n", "open+verify", ms(tOpen), len(idx))
	first := c.Timings.Encode + c.Timings.Commit
	fmt.Fprintf(stdout, "%-12s %10s\n", "encode+commit", ms(first))
	if on, why := c.Resident(); on {
		fmt.Fprintf(stdout, "lde:     kept on the device (%.0f MiB of device memory with its tree)\n", float64(enc.DeviceMemory().InUse)/(1<<20))
	} else if why != "" {
		fmt.Fprintf(stdout, "lde:     in host memory: %s\n", why)
	}
	fmt.Fprintf(stdout, "root: %s\n", hex.EncodeToString(c.Root()))
	if err := c.Close(); err != nil {
		return err
	}
	if o.repeat > 0 {
		var best time.Duration
		for i := range o.repeat {
			c, err := enc.Commit(src)
			if err != nil {
				return err
			}
			if d := c.Timings.Encode + c.Timings.Commit; i == 0 || d < best {
				best = d
			}
			if err := c.Close(); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "steady state: encode+commit %s (fastest of %d more); the first commit took %.2f× that\n",
			ms(best), o.repeat, float64(first)/float64(best))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar draws "encode [#####.....]  50%" on one line.
type progressBar struct {
	w     io.Writer
	phase string
	pct   int
	drawn bool
}

func (b *progressBar) update(p prover.Progress) {
	if p.Total <= 0 {
		return
	}
	pct := 100 * p.Done / p.Total
	if p.Phase == b.phase && pct == b.pct {
		return
	}
	b.phase, b.pct, b.drawn = p.Phase, pct, true
	const width = 40
	fill := width * p.Done / p.Total
	fmt.Fprintf(b.w, "\r%-7s [%s%s] %3d%%", p.Phase, strings.Repeat("#", fill), strings.Repeat(".", width-fill), pct)
}

func (b *progressBar) done() {
	if b != nil && b.drawn {
		fmt.Fprintln(b.w)
	}
}
