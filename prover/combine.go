package prover

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Random linear combinations of committed columns: the first step of what a
// STARK prover does with its LDE (the DEEP/FRI batching of the columns into
// one codeword). On the CPU the combination runs over row blocks on all
// cores; field addition is exact, so every backend gives the same elements.

// combineBlock is the rows one goroutine combines at a time: the partial
// sums of a block stay in cache while every column is folded in.
const combineBlock = 1 << 12

// combineInto sets dst[i] = Σ_j alpha[j]·cols[j][i] over all rows.
func combineInto[E Element](dst []E, cols [][]E, alpha []E) error {
	if len(alpha) != len(cols) {
		return fmt.Errorf("prover: Combine: %d coefficients for %d columns: %w", len(alpha), len(cols), ErrShape)
	}
	if len(cols) == 0 {
		return fmt.Errorf("prover: Combine: no columns: %w", ErrShape)
	}
	n := len(cols[0])
	if len(dst) != n {
		return fmt.Errorf("prover: Combine: destination of %d elements for %d rows: %w", len(dst), n, ErrShape)
	}
	blocks := (n + combineBlock - 1) / combineBlock
	switch d := any(dst).(type) {
	case []gf64.Element:
		c, a := any(cols).([][]gf64.Element), any(alpha).([]gf64.Element)
		parallelFor(blocks, func(b int) {
			lo, hi := b*combineBlock, min((b+1)*combineBlock, n)
			gf64.ScaleVec(d[lo:hi], c[0][lo:hi], a[0])
			for j := 1; j < len(c); j++ {
				gf64.MulAddVec(d[lo:hi], c[j][lo:hi], a[j])
			}
		})
	case []goldilocks.Element:
		combineVec(blocks, n, d, any(cols).([][]goldilocks.Element), any(alpha).([]goldilocks.Element),
			func(dst, a goldilocks.Vector, c *goldilocks.Element) { dst.ScalarMul(a, c) },
			func(dst, a goldilocks.Vector) { dst.Add(dst, a) })
	case []babybear.Element:
		combineVec(blocks, n, d, any(cols).([][]babybear.Element), any(alpha).([]babybear.Element),
			func(dst, a babybear.Vector, c *babybear.Element) { dst.ScalarMul(a, c) },
			func(dst, a babybear.Vector) { dst.Add(dst, a) })
	case []koalabear.Element:
		combineVec(blocks, n, d, any(cols).([][]koalabear.Element), any(alpha).([]koalabear.Element),
			func(dst, a koalabear.Vector, c *koalabear.Element) { dst.ScalarMul(a, c) },
			func(dst, a koalabear.Vector) { dst.Add(dst, a) })
	case []fr.Element:
		combineVec(blocks, n, d, any(cols).([][]fr.Element), any(alpha).([]fr.Element),
			func(dst, a fr.Vector, c *fr.Element) { dst.ScalarMul(a, c) },
			func(dst, a fr.Vector) { dst.Add(dst, a) })
	}
	return nil
}

// combineVec is combineInto for a gnark-crypto field, through its vector
// kernels: V is the field's Vector type ([]E).
func combineVec[E any, V ~[]E](blocks, n int, dst []E, cols [][]E, alpha []E,
	scale func(dst, a V, c *E), add func(dst, a V)) {
	parallelFor(blocks, func(b int) {
		lo, hi := b*combineBlock, min((b+1)*combineBlock, n)
		tmp := make(V, hi-lo)
		scale(V(dst[lo:hi]), V(cols[0][lo:hi]), &alpha[0])
		for j := 1; j < len(cols); j++ {
			scale(tmp, V(cols[j][lo:hi]), &alpha[j])
			add(V(dst[lo:hi]), tmp)
		}
	})
}
