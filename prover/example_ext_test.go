package prover_test

import (
	"crypto/sha256"
	"fmt"
	"log"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/prover"
)

// transcript is a toy Fiat–Shamir byte stream: SHA-256 of the commitment's
// root and a counter, block after block.
type transcript struct {
	seed []byte
	ctr  byte
	buf  []byte
}

func (t *transcript) Read(p []byte) (int, error) {
	for n := 0; n < len(p); {
		if len(t.buf) == 0 {
			h := sha256.Sum256(append(append([]byte(nil), t.seed...), t.ctr))
			t.ctr++
			t.buf = h[:]
		}
		k := copy(p[n:], t.buf)
		t.buf, n = t.buf[k:], n+k
	}
	return len(p), nil
}

// A BabyBear prover commits its trace, draws its challenges from the
// field's degree-4 extension (124 bits, where BabyBear itself gives 31),
// batches the columns into one codeword and opens the trace polynomials
// at an out-of-domain point.
func Example_challenges() {
	enc, err := prover.New[babybear.Element](prover.WithBlowup(4))
	if err != nil {
		log.Fatal(err)
	}
	trace, err := prover.RandomTrace[babybear.Element](10, 8, 1) // 2^10 rows, 8 columns
	if err != nil {
		log.Fatal(err)
	}
	c, err := enc.Commit(trace)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	ts := &transcript{seed: c.Root()}
	alpha, err := prover.DrawExt[extensions.E4](ts) // one challenge, its powers batch the columns
	if err != nil {
		log.Fatal(err)
	}
	z, err := prover.DrawExt[extensions.E4](ts) // the out-of-domain point
	if err != nil {
		log.Fatal(err)
	}

	batch, err := prover.CombinePowers(c, alpha) // Σ_j alpha^j·column_j over the LDE
	if err != nil {
		log.Fatal(err)
	}
	// The powers are CombineExt's coefficients alpha^0, alpha^1, …
	coeffs := make([]extensions.E4, c.Columns())
	coeffs[0].SetOne()
	for j := 1; j < len(coeffs); j++ {
		coeffs[j].Mul(&coeffs[j-1], &alpha)
	}
	same, err := prover.CombineExt(c, coeffs)
	if err != nil {
		log.Fatal(err)
	}

	// The trace polynomials at z, and at a point of the codeword domain
	// (embedded in E4), where they are the committed row.
	x, err := c.CodewordPoint(5)
	if err != nil {
		log.Fatal(err)
	}
	var xe extensions.E4
	xe.B0.A0 = x
	vals, err := prover.Evaluate(c, []extensions.E4{z, xe})
	if err != nil {
		log.Fatal(err)
	}
	lde, err := c.LDE()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows:", len(batch), "equal:", batch[7] == same[7])
	fmt.Println("values at z:", len(vals[0]), "columns")
	fmt.Println("at a codeword point, column 3 is row 5:", vals[1][3].B0.A0 == lde[3][5] && vals[1][3].B1.IsZero())
	// Output:
	// rows: 4096 equal: true
	// values at z: 8 columns
	// at a codeword point, column 3 is row 5: true
}
