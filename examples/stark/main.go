package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

	"github.com/gfpoly/gfpoly/examples/internal/stark"
	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
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
	switch f {
	case fri.BabyBear:
		return demo[babybear.Element, bbext.E4](stdout, f, *logRows, cfg)
	case fri.KoalaBear:
		return demo[koalabear.Element, kbext.E4](stdout, f, *logRows, cfg)
	case fri.Goldilocks:
		return demo[goldilocks.Element, glext.E2](stdout, f, *logRows, cfg)
	case fri.BN254:
		return demo[fr.Element, fr.Element](stdout, f, *logRows, cfg)
	default:
		return demo[gf64.Element, gf128.Element](stdout, f, *logRows, cfg)
	}
}

// demo proves the Fibonacci AIR over the trace domain of dimension logRows,
// verifies the proof from its bytes, and prints the figures.
func demo[E fri.Element, X fri.Challenge](w io.Writer, f fri.Field, logRows int, cfg fri.Config) error {
	p, err := stark.NewProver[E, X](cfg)
	if err != nil {
		return err
	}
	defer p.Close()
	// The encoder's transform tables are built once per size, outside the
	// measured proofs.
	if err := p.Prepare(logRows); err != nil {
		return err
	}
	trace, output, err := stark.Fibonacci[E, X](logRows)
	if err != nil {
		return err
	}

	// A first proof builds what the prover keeps for the next ones of the
	// same size (the successors' transform plans, pooled buffers); the
	// second is the one measured.
	start := time.Now()
	if _, err := p.Prove(trace, output); err != nil {
		return err
	}
	firstTime := time.Since(start)
	start = time.Now()
	proof, err := p.Prove(trace, output)
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
	var got stark.Proof[E, X]
	if err := got.UnmarshalBinary(data); err != nil {
		return err
	}
	if err := stark.Verify(cfg, logRows, output, &got); err != nil {
		return err
	}
	verifyTime := time.Since(start)

	friBits, algBits, err := stark.Security[E, X](cfg, logRows)
	if err != nil {
		return err
	}
	sz := got.Opening.Sizes()
	ph := p.Phases()
	rows := fmt.Sprintf("2^%d", logRows)
	if len(trace[0]) != 1<<logRows {
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
