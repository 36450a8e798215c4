package gf128

import "github.com/gfpoly/gfpoly/internal/cpufeat"

// The implementations of the multiplication kernels, slowest first. Which
// ones exist depends on the build (gf128_amd64.go, gf128_noasm.go).
const (
	implGeneric = iota
	implPCLMULQDQ
	implAVX512
	numImpls
)

var implNames = [numImpls]string{"generic", "pclmulqdq", "avx512"}

// impl is the choice among them: the fastest available, chosen once at
// package initialisation. Only tests change it, through cpufeat.Select.
var impl = cpufeat.NewChoice("gf128", implNames[:], implAvailable[:])

// Implementation describes one implementation of the multiplication kernels
// (Mul and the vector functions).
type Implementation struct {
	Name      string // "generic", "pclmulqdq" or "avx512"
	Available bool   // this CPU and this build can run it
	Active    bool   // it is the one in use
}

// Implementations lists the implementations this package knows, slowest
// first: the generic pure-Go code (always available), PCLMULQDQ assembly and
// AVX-512 VPCLMULQDQ assembly (amd64 without the purego tag, where the CPU
// supports them). The active one is the fastest available.
func Implementations() []Implementation {
	out := make([]Implementation, numImpls)
	for i := range out {
		out[i] = Implementation{Name: implNames[i], Available: implAvailable[i], Active: i == impl.Index()}
	}
	return out
}
