package prover_test

import (
	"fmt"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/prover"
	"github.com/gfpoly/gfpoly/prover/fri"
	ts "github.com/gfpoly/gfpoly/prover/transcript"
)

// A prover commits a BabyBear trace of 2^12 rows × 8 columns at blowup 4,
// draws an out-of-domain point z from the transcript, and proves every
// column at z and at z·ω (the next row: ω generates the trace domain); the
// verifier replays the transcript from the same state and checks the proof
// with the Config, the statement and the proof bytes alone.
func ExampleOracle() {
	const logRows = 12
	enc, _ := prover.New[babybear.Element](prover.WithBlowup(4))
	defer enc.Close()
	trace, _ := prover.RandomTrace[babybear.Element](logRows, 8, 1)
	c, _ := enc.Commit(trace)
	defer c.Close()

	cfg, _ := fri.NewConfig(fri.BabyBear, 100, 2) // 100 conjectured bits at blowup 4
	tr, _ := ts.New("example stark")
	tr.AbsorbRoot("trace", c.Root())
	z, _ := ts.Draw[bbext.E4](tr, "z")
	omega, _ := babybear.Generator(1 << logRows)
	var zNext bbext.E4
	zNext.MulByElement(&z, &omega)
	verifier := tr.Clone()

	proof, err := fri.Open(tr, cfg, fri.Batch[babybear.Element, bbext.E4]{
		Oracle: prover.Oracle[bbext.E4](c), Points: []bbext.E4{z, zNext}})
	if err != nil {
		fmt.Println(err)
		return
	}
	bytes, _ := proof.MarshalBinary()

	// The verifier's side: bytes, root and shape.
	var got fri.Proof[babybear.Element, bbext.E4]
	if err := got.UnmarshalBinary(bytes); err != nil {
		fmt.Println(err)
		return
	}
	st := []fri.Statement[bbext.E4]{{Root: c.Root(), LogRows: logRows, Columns: 8, Points: []bbext.E4{z, zNext}}}
	err = fri.Verify(verifier, cfg, st, &got)
	params, _ := cfg.Schedule(fri.BabyBear, logRows)
	fmt.Printf("verified: %v; %d queries, folds %v, %.0f conjectured bits\n", err == nil, cfg.Queries, params.Arities, params.ConjecturedBits())
	want, _ := prover.Evaluate(c, []bbext.E4{z})
	fmt.Println("proven value of column 3 at z is p_3(z):", got.Values[0][0][3] == want[0][3])
	fmt.Println("proof bytes:", len(bytes) == got.Sizes().Total)
	// Output:
	// verified: true; 42 queries, folds [8 8 8], 100 conjectured bits
	// proven value of column 3 at z is p_3(z): true
	// proof bytes: true
}
