package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glext "github.com/consensys/gnark-crypto/field/goldilocks/extensions"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbext "github.com/consensys/gnark-crypto/field/koalabear/extensions"

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
	field := fs.String("field", "babybear", "trace field: babybear, koalabear, goldilocks or bn254")
	logRows := fs.Int("log-rows", 16, fmt.Sprintf("log2 of the trace rows (%d..%d)", minLogRows, maxLogRows))
	bits := fs.Int("bits", 100, "conjectured security of the FRI parameters, in bits")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *logRows < minLogRows || *logRows > maxLogRows {
		return fmt.Errorf("-log-rows %d: want %d..%d", *logRows, minLogRows, maxLogRows)
	}
	switch *field {
	case "babybear":
		return demo[babybear.Element, bbext.E4](stdout, *logRows, *bits)
	case "koalabear":
		return demo[koalabear.Element, kbext.E4](stdout, *logRows, *bits)
	case "goldilocks":
		return demo[goldilocks.Element, glext.E2](stdout, *logRows, *bits)
	case "bn254":
		return demo[fr.Element, fr.Element](stdout, *logRows, *bits)
	}
	return fmt.Errorf("-field %q: want babybear, koalabear, goldilocks or bn254", *field)
}

// demo proves the Fibonacci AIR over a trace of 2^logRows rows, verifies the
// proof from its bytes, and prints the figures.
func demo[E fri.Base, X fri.Ext](w io.Writer, logRows, bits int) error {
	p, err := newProver[E, X](bits)
	if err != nil {
		return err
	}
	defer p.Close()
	// The encoder's transform tables are built once per size, outside the
	// measured proof.
	if err := p.enc.Prepare(logRows, columns); err != nil {
		return err
	}
	trace, output := fibonacci(p.f, logRows)

	start := time.Now()
	proof, err := p.prove(trace, output)
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
	var got Proof[E, X]
	if err := got.UnmarshalBinary(data); err != nil {
		return err
	}
	if err := verify(p.cfg, logRows, output, &got); err != nil {
		return err
	}
	verifyTime := time.Since(start)

	friBits, algBits, err := security[E, X](p.cfg, logRows)
	if err != nil {
		return err
	}
	sz := got.Opening.Sizes()
	ph := p.phases
	fmt.Fprintf(w, "Fibonacci AIR over %v, 2^%d rows × %d columns, blowup %d, challenges of %.1f bits\n",
		p.f.field(), logRows, columns, blowup, p.f.field().ExtBits())
	fmt.Fprintf(w, "prove     %v (trace LDE and commitment %v, quotient %v and its commitment %v, DEEP-FRI opening %v)\n",
		round(proveTime), round(ph.Trace), round(ph.Quotient), round(ph.Commit), round(ph.Opening))
	fmt.Fprintf(w, "verify    %v\n", round(verifyTime))
	fmt.Fprintf(w, "proof     %d bytes (values %d, commitments' openings %d, layers %d, final %d)\n",
		len(data), sz.Values, sz.Trace, sz.Layers, sz.Final)
	fmt.Fprintf(w, "security  %.0f conjectured bits (FRI: %d queries × %d + %d grinding bits); algebraic errors 2^-%.0f\n",
		min(friBits, algBits), p.cfg.Queries, logBlowup, p.cfg.GrindingBits, algBits)
	return nil
}

func round(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Microsecond)
}
