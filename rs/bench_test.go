package rs

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
)

// Run with -cpu 1,2: a Code without WithWorkers uses GOMAXPROCS workers,
// read at each call.

func benchCode(b *testing.B, kind, k, n int) *Code {
	b.Helper()
	S, T := spaces(b, newRand(b, uint64(k*100+n)), kind, k, n)
	c, err := New(S, T)
	require.NoError(b, err)
	return c
}

// BenchmarkEncode: one column, 2^k evaluations to 2^n. "coset" is the STARK
// layout (codeword space a coset disjoint from the message space, sharing
// its basis), "prefix" the systematic one.
func BenchmarkEncode(b *testing.B) {
	for _, sz := range []struct{ k, n int }{{16, 18}, {20, 22}} {
		for _, kind := range []int{kindCoset, kindPrefix} {
			b.Run(fmt.Sprintf("%s/%d-%d", kindName(kind), sz.k, sz.n), func(b *testing.B) {
				c := benchCode(b, kind, sz.k, sz.n)
				msg := randVec(newRand(b, 1), 1<<sz.k)
				dst := make([]gf64.Element, 1<<sz.n)
				b.SetBytes(8 << sz.n)
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU()
				for range b.N {
					require.NoError(b, c.Encode(dst, msg))
				}
				reportCPU(b, cpu)
			})
		}
	}
}

// BenchmarkEncodeBatch: 64 columns of 2^16 rows, blowup 4.
func BenchmarkEncodeBatch(b *testing.B) {
	const cols, k, n = 64, 16, 18
	b.Run(fmt.Sprintf("coset/%dx%d-%d", cols, k, n), func(b *testing.B) {
		c := benchCode(b, kindCoset, k, n)
		r := newRand(b, 2)
		msgs := make([][]gf64.Element, cols)
		dst := make([][]gf64.Element, cols)
		for i := range msgs {
			msgs[i] = randVec(r, 1<<k)
			dst[i] = make([]gf64.Element, 1<<n)
		}
		b.SetBytes(cols * 8 << n)
		b.ReportAllocs()
		b.ResetTimer()
		cpu := processCPU()
		for range b.N {
			require.NoError(b, c.EncodeBatch(dst, msgs))
		}
		reportCPU(b, cpu)
	})
}

// BenchmarkVerify: one codeword of 2^n symbols.
func BenchmarkVerify(b *testing.B) {
	const k, n = 16, 18
	c := benchCode(b, kindCoset, k, n)
	cw := make([]gf64.Element, 1<<n)
	require.NoError(b, c.Encode(cw, randVec(newRand(b, 3), 1<<k)))
	b.SetBytes(8 << n)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU()
	for range b.N {
		ok, err := c.Verify(cw)
		require.NoError(b, err)
		require.True(b, ok, "Verify(codeword)")
	}
	reportCPU(b, cpu)
}

// BenchmarkDecode: 2^16 → 2^17, half the positions erased at random (the
// limit), recovering the codeword (Reconstruct) and the message (Decode).
func BenchmarkDecode(b *testing.B) {
	const k, n = 16, 17
	for _, kind := range []int{kindPrefix, kindCoset} {
		c := benchCode(b, kind, k, n)
		r := newRand(b, 4)
		cw := make([]gf64.Element, 1<<n)
		require.NoError(b, c.Encode(cw, randVec(r, 1<<k)))
		present := erasePattern(r, n, 1<<(n-1), 0)
		b.Run(fmt.Sprintf("reconstruct/%s/%d-%d", kindName(kind), k, n), func(b *testing.B) {
			dst := make([]gf64.Element, 1<<n)
			b.SetBytes(8 << n)
			b.ReportAllocs()
			cpu := processCPU()
			for range b.N {
				require.NoError(b, c.Reconstruct(dst, cw, present))
			}
			reportCPU(b, cpu)
		})
		b.Run(fmt.Sprintf("message/%s/%d-%d", kindName(kind), k, n), func(b *testing.B) {
			msg := make([]gf64.Element, 1<<k)
			b.SetBytes(8 << n)
			b.ReportAllocs()
			cpu := processCPU()
			for range b.N {
				require.NoError(b, c.Decode(msg, cw, present))
			}
			reportCPU(b, cpu)
		})
	}
}
