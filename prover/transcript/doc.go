// Package transcript is the Fiat–Shamir transcript of gfpoly's proofs.
package transcript
