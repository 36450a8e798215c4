package gf2n

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// fromGHASH converts a 16-byte GHASH block to an element of GF(2^128): GHASH
// puts the coefficient of x^i at bit 7 − i%8 of byte i/8 (the most
// significant bit of byte 0 is x^0).
func fromGHASH(b []byte) []uint64 {
	z := make([]uint64, 2)
	for i := range 128 {
		if b[i/8]>>(7-i%8)&1 == 1 {
			z[i/64] |= 1 << (i % 64)
		}
	}
	return z
}

// TestGHASH checks GF(2^128) products against Go's AES-GCM, an independent
// implementation of the same field (GHASH uses x^128 + x^7 + x^2 + x + 1).
// With an empty plaintext and additional data A_1 … A_k (whole blocks), the
// tag is E_K(J0) + X, where X = GHASH_H(A) is Horner's rule in H = E_K(0):
// X_0 = 0, X_i = (X_{i−1} + A_i)·H, X = (X_k + L)·H, L the lengths block.
// The test recomputes X with Field.Mul on every path.
func TestGHASH(t *testing.T) {
	fd, err := New(128)
	require.NoError(t, err)
	rng := newRand(t)
	forEachPath(t, func(t *testing.T) {
		for trial := range iters(200, 20) {
			key := make([]byte, 16)
			for i := range key {
				key[i] = byte(rng.Uint32())
			}
			k := 1 + trial%4
			ad := make([]byte, 16*k)
			for i := range ad {
				ad[i] = byte(rng.Uint32())
			}
			if trial%10 == 0 {
				for i := range ad {
					ad[i] = 0xff
				}
			}
			nonce := make([]byte, 12)
			for i := range nonce {
				nonce[i] = byte(rng.Uint32())
			}

			block, err := aes.NewCipher(key)
			require.NoError(t, err)
			gcm, err := cipher.NewGCM(block)
			require.NoError(t, err)
			tag := gcm.Seal(nil, nonce, nil, ad)
			require.Len(t, tag, 16)

			var h, j0, ek [16]byte
			block.Encrypt(h[:], h[:])
			copy(j0[:], nonce)
			j0[15] = 1
			block.Encrypt(ek[:], j0[:])
			for i := range tag {
				tag[i] ^= ek[i] // now GHASH_H(A, ∅)
			}

			var lens [16]byte
			binary.BigEndian.PutUint64(lens[:8], uint64(8*len(ad)))
			H := fromGHASH(h[:])
			x := make([]uint64, 2)
			for i := range k {
				fd.Add(x, x, fromGHASH(ad[16*i:16*i+16]))
				fd.Mul(x, x, H)
			}
			fd.Add(x, x, fromGHASH(lens[:]))
			fd.Mul(x, x, H)
			require.Equal(t, fromGHASH(tag), x, "key %x, additional data %x", key, ad)
		}
	})
}
