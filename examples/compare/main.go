// Command compare answers "binary or prime backend, CPU or GPU?" with whole
// proofs: it proves and verifies the worked STARK of examples/internal/stark
// (a Fibonacci AIR: trace LDE and commitment, the constraints' quotient and
// its commitment, the out-of-domain check, one DEEP-FRI opening, the
// verifier) over every field — GF(2^64) with challenges in GF(2^128),
// BabyBear and KoalaBear with E4, Goldilocks with E2, BN254 — on the CPU and,
// where a GPU is present, on the GPU, all at one target security: the same
// FRI parameters (fri.NewConfig's preset for -bits at -blowup: the same
// blowup, queries, grinding, arity and final degree) for every row. Each row
// is proved -runs times; the table gives the median and the spread (min–max)
// of each time, and the proof's bytes and memory; a closing recommendation,
// computed from the rows, names the fastest prover, the smallest proof and
// the fastest verifier for the shape. With -svg it writes the medians and
// their spreads as a chart.
//
//	go run ./examples/compare                      # 2^16 rows, 100 bits, blowup 4, 5 runs
//	go run ./examples/compare -log-rows 20 -runs 9 -svg compare.svg
//	go run ./examples/compare -bits 120 -blowup 8 -fields babybear,gf64 -device cpu
//
// Columns of the table (one row per field and device, "field/device"):
//
//	ext        [X : E], the degree of the challenge field over the trace field
//	           (GF(2^128) over GF(2^64) is 2, E4 4, E2 2, BN254 1)
//	bits       the row's conjectured security: the smaller of FRI's
//	           (fri.Params.ConjecturedBits: queries·log2(blowup) + grinding,
//	           capped by the challenge field) and the algebraic errors' around
//	           it (stark.Security), rounded down; the same for every row, the
//	           target, unless a row says otherwise below the table
//	commit     the commitment phase: the trace's LDE and Merkle commitment, the
//	           quotient over the LDE and its commitment
//	open       the DEEP-FRI opening (values at z, quotients, folds, layers,
//	           grinding, queries)
//	prove      the whole Prove call (commit + open + the transcript)
//	verify     decoding the proof's bytes and verifying it
//	           (each time: median [min–max] over -runs runs, in ms)
//	proof      the proof's bytes: len(MarshalBinary)
//	heap MiB   peak host memory of a proof: the largest Go heap (runtime/metrics
//	           /memory/classes/heap/objects:bytes, live and not yet swept
//	           objects, sampled every millisecond and once at the end) during
//	           Prove above the heap after a GC before it, the largest over the
//	           runs; memory outside the Go heap (CUDA's pinned staging) is not
//	           counted
//	dev MiB    peak device memory of a GPU row: the device's used memory
//	           (cuMemGetInfo: total − free, every process's) sampled every
//	           millisecond during one extra, untimed proof, above what was
//	           used before the row's prover was made (its kernels, its
//	           encoder's buffers, its commitments); n/a on the CPU
//
// On a GPU row the trace's LDE and commitment run on the device and stay
// there; the quotient, its commitment's tree and the FRI opening's folds run
// on the CPU, the trace's evaluations and combinations on the device
// (examples/internal/stark, "On a GPU encoder").
//
// Flags changed from the LDE-only comparison of earlier versions: -cols is
// gone (the trace is the AIR's, 2 columns; -cols 2 is accepted), -blowup is
// the FRI blowup (2 … 16), and -log-rows (also -logrows) is the trace
// domain's dimension (GF(2^64)'s trace has 2^k − 1 rows).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/gfpoly/gfpoly/examples/internal/stark"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover/fri"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "compare:", err)
		}
		os.Exit(2)
	}
}

// options are the command's flags.
type options struct {
	logRows   int
	bits      int
	logBlowup int
	runs      int
	fields    []fri.Field
	device    string // cpu, gpu or all
	svg       string
	warmup    bool
}

func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	logRowsUsage := fmt.Sprintf("log2 of the trace domain (%d..%d): 2^k trace rows, 2^k − 1 for gf64", stark.MinLogRows, stark.MaxLogRows)
	fs.IntVar(&o.logRows, "log-rows", 16, logRowsUsage)
	fs.IntVar(&o.logRows, "logrows", 16, "the same as -log-rows")
	fs.IntVar(&o.bits, "bits", 100, "target conjectured security, in bits, the same for every row")
	blowup := fs.Int("blowup", 4, "codeword length / trace length (FRI's 1/ρ): 2, 4, 8 or 16")
	fs.IntVar(&o.runs, "runs", 5, "measured proofs per row (after the warm-up): the median and the spread of each time")
	fields := fs.String("fields", "all", "comma-separated fields (gf64, babybear, koalabear, goldilocks, bn254) or all")
	fs.StringVar(&o.device, "device", "all", "cpu, gpu or all (the GPU where one is present)")
	fs.StringVar(&o.svg, "svg", "", "write the chart to this file (default: no chart)")
	fs.BoolVar(&o.warmup, "warmup", true, "prove and verify once per row before measuring (builds the successors' plans, fills pools)")
	fs.Func("cols", "trace columns: only 2, the AIR's (the LDE-only comparison of earlier versions took any)", func(s string) error {
		if s != strconv.Itoa(stark.Columns) {
			return fmt.Errorf("the proved trace is the Fibonacci AIR's %d columns", stark.Columns)
		}
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.logRows < stark.MinLogRows || o.logRows > stark.MaxLogRows {
		return o, fmt.Errorf("-log-rows %d: want %d..%d", o.logRows, stark.MinLogRows, stark.MaxLogRows)
	}
	switch *blowup {
	case 2, 4, 8, 16:
		o.logBlowup = bits.TrailingZeros(uint(*blowup))
	default:
		return o, fmt.Errorf("-blowup %d: want 2, 4, 8 or 16", *blowup)
	}
	if o.bits < fri.MinBits || o.bits > 256 {
		return o, fmt.Errorf("-bits %d: want %d..256", o.bits, fri.MinBits)
	}
	if o.runs < 1 || o.runs > 1000 {
		return o, fmt.Errorf("-runs %d: want 1..1000", o.runs)
	}
	if *fields == "all" {
		o.fields = stark.Fields
	} else {
		seen := map[fri.Field]bool{}
		for _, s := range strings.Split(*fields, ",") {
			f, err := stark.ParseField(strings.TrimSpace(s))
			if err != nil {
				return o, fmt.Errorf("-fields: %w", err)
			}
			if !seen[f] {
				seen[f] = true
				o.fields = append(o.fields, f)
			}
		}
	}
	switch o.device {
	case "cpu", "gpu", "all":
	default:
		return o, fmt.Errorf("-device %q: want cpu, gpu or all", o.device)
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	var dev *gpu.Device
	var noGPU string
	if o.device != "cpu" {
		d, err := gpu.Open()
		if err != nil {
			fmt.Fprintf(stdout, "GPU: none (%v)\n", err)
			if o.device == "gpu" {
				return err
			}
			noGPU = err.Error()
		} else {
			dev = d
			defer dev.Close()
			fmt.Fprintf(stdout, "GPU: %s\n", dev.Info())
		}
	}
	fmt.Fprintf(stdout, "CPU: %d cores (GOMAXPROCS %d), %s/%s, %s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())

	rows, skipped, cfg, err := measureAll(o, dev)
	if err != nil {
		return err
	}
	if noGPU != "" {
		var names []string
		for _, f := range o.fields {
			names = append(names, f.String()+"/gpu")
		}
		skipped = append(skipped, fmt.Sprintf("%s: no GPU (%s)", strings.Join(names, ", "), noGPU))
	}
	fmt.Fprintf(stdout, "proof: %s\n", shape(o))
	if cfg != nil {
		fmt.Fprintf(stdout, "FRI: %s\n", describe(*cfg))
	}
	fmt.Fprintf(stdout, "each time: median [min–max] of %d runs, ms\n\n", o.runs)
	writeTable(stdout, rows, o)
	for _, s := range skipped {
		fmt.Fprintln(stdout, "not run:", s)
	}
	if len(rows) > 0 {
		fmt.Fprintln(stdout)
		writeRecommendation(stdout, recommend(rows), o)
	}
	if o.svg != "" && len(rows) > 0 {
		if err := os.WriteFile(o.svg, []byte(chart(rows, o)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "chart: %s\n", o.svg)
	}
	return nil
}

// shape is the proof every row proves.
func shape(o options) string {
	return fmt.Sprintf("Fibonacci AIR, 2^%d rows (2^%d − 1 for gf64) × %d columns, blowup %d, target %d conjectured bits",
		o.logRows, o.logRows, stark.Columns, 1<<o.logBlowup, o.bits)
}

// describe is the FRI parameters every row shares.
func describe(c fri.Config) string {
	return fmt.Sprintf("blowup %d, %d queries, %d grinding bits, folding arity %d, final degree 2^%d, SHA-256 Merkle trees",
		1<<c.LogBlowup, c.Queries, c.GrindingBits, c.Arity, c.LogFinalDegree)
}
