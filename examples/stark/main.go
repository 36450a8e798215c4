package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"time"

	"github.com/gfpoly/gfpoly/examples/internal/stark"
	"github.com/gfpoly/gfpoly/prover/fri"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "stark:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stark", flag.ContinueOnError)
	fs.SetOutput(stderr)
	field := fs.String("field", "babybear", "trace field: babybear, koalabear, goldilocks, bn254 or gf64")
	logRows := fs.Int("log-rows", 16, fmt.Sprintf("log2 of the trace domain (%d..%d): 2^k rows, 2^k − 1 for gf64", stark.MinLogRows, stark.MaxLogRows))
	bitsFlag := fs.Int("bits", 100, "conjectured security of the FRI parameters, in bits")
	blowup := fs.Int("blowup", 4, "codeword length / trace length: 2, 4, 8 or 16")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *logRows < stark.MinLogRows || *logRows > stark.MaxLogRows {
		return fmt.Errorf("-log-rows %d: want %d..%d", *logRows, stark.MinLogRows, stark.MaxLogRows)
	}
	logBlowup := 0
	switch *blowup {
	case 2, 4, 8, 16:
		logBlowup = bits.TrailingZeros(uint(*blowup))
	default:
		return fmt.Errorf("-blowup %d: want 2, 4, 8 or 16", *blowup)
	}
	f, err := stark.ParseField(*field)
	if err != nil {
		return fmt.Errorf("-field: %w", err)
	}
	cfg, err := fri.NewConfig(f, *bitsFlag, logBlowup)
	if err != nil {
		return err
	}
	return demo(stdout, f, *logRows, cfg)
}

// demo proves the Fibonacci AIR over the trace domain of dimension logRows,
// verifies the proof from its bytes, and prints the figures. It runs the
// field chosen at run time through stark.Instance; a prover of one field
// calls stark.NewProver[E, X] directly (the package's example).
func demo(w io.Writer, f fri.Field, logRows int, cfg fri.Config) error {
	// New prepares the prover: the encoder's transform tables for this
	// size are built outside the measured proofs.
	in, err := stark.New(f, logRows, cfg)
	if err != nil {
		return err
	}
	defer in.Close()

	// A first proof builds what the prover keeps for the next ones of the
	// same size (the successors' transform plans, pooled buffers); the
	// second is the one measured.
	start := time.Now()
	if _, err := in.Prove(); err != nil {
		return err
	}
	firstTime := time.Since(start)
	start = time.Now()
	proof, err := in.Prove()
	if err != nil {
		return err
	}
	proveTime := time.Since(start)
	data, err := proof.MarshalBinary()
	if err != nil {
		return err
	}

	// The verifier's side: the Config, the trace height, the public output
	// and the bytes.
	start = time.Now()
	if err := in.Verify(data); err != nil {
		return err
	}
	verifyTime := time.Since(start)

	friBits, algBits, err := in.Security()
	if err != nil {
		return err
	}
	sz := in.Sizes()
	ph := in.Phases()
	rows := fmt.Sprintf("2^%d", logRows)
	if in.Rows() != 1<<logRows {
		rows += " − 1"
	}
	fmt.Fprintf(w, "Fibonacci AIR over %v, %s rows × %d columns, blowup %d, challenges of %.1f bits\n",
		f, rows, stark.Columns, 1<<cfg.LogBlowup, f.ExtBits())
	fmt.Fprintf(w, "prove     %v (trace LDE and commitment %v, quotient %v and its commitment %v, DEEP-FRI opening %v; the first proof %v)\n",
		round(proveTime), round(ph.Trace), round(ph.Quotient), round(ph.Commit), round(ph.Opening), round(firstTime))
	fmt.Fprintf(w, "verify    %v\n", round(verifyTime))
	fmt.Fprintf(w, "proof     %d bytes (values %d, commitments' openings %d, layers %d, final %d)\n",
		len(data), sz.Values, sz.Trace, sz.Layers, sz.Final)
	fmt.Fprintf(w, "security  %.0f conjectured bits (FRI: %d queries × %d + %d grinding bits); algebraic errors 2^-%.0f\n",
		min(friBits, algBits), cfg.Queries, cfg.LogBlowup, cfg.GrindingBits, algBits)
	return nil
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Microsecond)
}
