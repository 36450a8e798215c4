package fri

import (
	"errors"
	"sync"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbext "github.com/consensys/gnark-crypto/field/babybear/extensions"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf128"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// fuzzCase is a small honest proof, made once: two commitments of 2^4 and
// 2^2 rows, arity 4, blowup 2, 4 queries.
type fuzzCase[E Element, X Challenge] struct {
	cfg   Config
	stmts []Statement[X]
	bytes []byte
}

var (
	fuzzBBOnce, fuzzGFOnce sync.Once
	fuzzBB                 fuzzCase[babybear.Element, bbext.E4]
	fuzzGF                 fuzzCase[gf64.Element, gf128.Element]
)

func makeFuzzCase[E Element, X Challenge](t testing.TB, c *fuzzCase[E, X]) {
	c.cfg = Config{LogBlowup: 1, Arity: 4, LogFinalDegree: 1, Queries: 4, GrindingBits: 1, AllowInsecure: true, BinaryDomains: NestedBinaryDomains(4)}
	stmts, p, err := proveRef[E, X](t, c.cfg, []int{4, 2}, 2, 3, 0)
	require.NoError(t, err)
	c.stmts = stmts
	c.bytes, err = p.MarshalBinary()
	require.NoError(t, err)
}

// fuzzProof parses data as a proof and verifies it: either an error
// wrapping ErrProof, or (for the honest bytes) nil; never a panic.
func fuzzProof[E Element, X Challenge](t *testing.T, c *fuzzCase[E, X], data []byte) {
	var p Proof[E, X]
	if err := p.UnmarshalBinary(data); err != nil {
		if !errors.Is(err, ErrProof) {
			t.Fatalf("UnmarshalBinary: %v does not wrap ErrProof", err)
		}
		return
	}
	b, err := p.MarshalBinary()
	require.NoError(t, err)
	require.Equal(t, data, b, "a parsed proof re-encodes to other bytes")
	err = Verify(newTranscript(t, "fri test"), c.cfg, c.stmts, &p)
	if err != nil && !errors.Is(err, ErrProof) {
		t.Fatalf("Verify: %v does not wrap ErrProof", err)
	}
	if err == nil && string(data) != string(c.bytes) {
		// Another encoding that verifies would be a second proof of the
		// same statement: possible only through equal parsed contents.
		require.Equal(t, c.bytes, data, "other bytes verify")
	}
}

func FuzzUnmarshalProof(f *testing.F) {
	fuzzBBOnce.Do(func() { makeFuzzCase(f, &fuzzBB) })
	f.Add(fuzzBB.bytes)
	f.Add(fuzzBB.bytes[:len(fuzzBB.bytes)/2])
	f.Add([]byte{1, 2, 32, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Proof[babybear.Element, bbext.E4]
		if err := p.UnmarshalBinary(data); err != nil {
			if !errors.Is(err, ErrProof) {
				t.Fatalf("%v does not wrap ErrProof", err)
			}
			return
		}
		b, err := p.MarshalBinary()
		require.NoError(t, err)
		require.Equal(t, data, b)
	})
}

func FuzzVerify(f *testing.F) {
	fuzzBBOnce.Do(func() { makeFuzzCase(f, &fuzzBB) })
	fuzzGFOnce.Do(func() { makeFuzzCase(f, &fuzzGF) })
	f.Add(false, fuzzBB.bytes)
	f.Add(true, fuzzGF.bytes)
	f.Fuzz(func(t *testing.T, binary bool, data []byte) {
		if binary {
			fuzzProof(t, &fuzzGF, data)
		} else {
			fuzzProof(t, &fuzzBB, data)
		}
	})
}
