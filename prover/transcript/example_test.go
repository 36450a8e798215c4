package transcript_test

import (
	"fmt"

	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// A prover and a verifier run the same transcript: absorb a root, draw a
// challenge, grind, draw query indices.
func Example() {
	root := make([]byte, 32) // a Merkle root
	run := func(nonce *uint64) (gf128.Element, []int, error) {
		tr, err := transcript.New("example protocol v1")
		if err != nil {
			return gf128.Element{}, nil, err
		}
		tr.AbsorbRoot("trace", root)
		alpha, err := transcript.Draw[gf128.Element](tr, "alpha")
		if err != nil {
			return gf128.Element{}, nil, err
		}
		if *nonce == ^uint64(0) { // the prover
			if *nonce, err = tr.Grind(8); err != nil {
				return gf128.Element{}, nil, err
			}
		} else if err = tr.CheckGrind(8, *nonce); err != nil { // the verifier
			return gf128.Element{}, nil, err
		}
		idx, err := tr.DrawIndices("queries", 1<<10, 4)
		return alpha, idx, err
	}
	nonce := ^uint64(0)
	a, qa, err := run(&nonce)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, qb, err := run(&nonce)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a == b, fmt.Sprint(qa) == fmt.Sprint(qb))
	// Output: true true
}

// Draw's challenges, printed as canonical integers; the same bytes read
// by prover.DrawExt give the same elements.
func ExampleDraw() {
	tr, err := transcript.New("gfpoly example")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr.AbsorbBytes("claim", []byte("hello"))
	alpha, _ := transcript.Draw[gf128.Element](tr, "alpha")
	beta, _ := transcript.Draw[bbext.E4](tr, "beta")
	fmt.Println(alpha)
	fmt.Println(beta.B0.A0.String(), beta.B0.A1.String(), beta.B1.A0.String(), beta.B1.A1.String())
	// Output:
	// 0xe6743ade1837d7d6+0x0ea1f4f32de3ca29*y
	// 692895939 1071379252 224701123 1104297577
}
