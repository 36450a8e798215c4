//go:build !amd64 || purego

package domain

import "github.com/gfpoly/gfpoly/field/gf64"

// xorLong sets dst[i] ^= src[i]; len(src) ≥ len(dst).
func xorLong(dst, src []gf64.Element) { xorGeneric(dst, src) }
