//go:build amd64 && !purego

package ntt64

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAsmRoots: the roots the assembly has built in (ω_4 = ±2^48 for the
// radix-4 steps, the 8th roots as shifts for the 8-point kernels) are those
// of the real twiddle tables, so the wrappers never fall back to the generic
// kernels for them; and they are what the comments say.
func TestAsmRoots(t *testing.T) {
	fwd, inv := twiddleTables(3)
	assert.Equal(t, 0, omega4Sign(fwd.r2), "forward ω_4")
	assert.Equal(t, 1, omega4Sign(inv.r2), "inverse ω_4")
	assert.Equal(t, 0, smallRoots(fwd.r2), "forward 8th roots")
	assert.Equal(t, 1, smallRoots(inv.r2), "inverse 8th roots")
	assert.Equal(t, -1, smallRoots([]uint64{0, 1, 1, 5, 1, 2, 3, 4}), "other roots")
	w8 := RootOfUnity(3)
	assert.Equal(t, exp(2, 120), w8, "ω_8 = 2^120")
	assert.Equal(t, P-1<<24, w8, "2^120 = −2^24")
	assert.Equal(t, exp(2, 72), inverse(w8), "ω_8^-1 = 2^72")
	for e := range uint64(192) { // 2^96 ≡ −1: 2 has order 192
		want := uint64(1)
		if e == 0 {
			assert.Equal(t, want, exp(2, 192), "2^192")
		}
		assert.Equal(t, P-exp(2, e), exp(2, e+96), "2^(%d+96)", e)
	}
}
