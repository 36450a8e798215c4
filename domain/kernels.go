package domain

import "github.com/gfpoly/gfpoly/internal/cpufeat"

// The kernel sets of the transforms, chosen here and nowhere else:
//
//   - generic: no AVX-512 (pure Go, but for the SSE2 XOR on amd64); the
//     network runs radix-4 sweeps on big blocks, gf64.Butterfly per block
//     and the lane transposition in the chunks.
//   - avx512 (amd64, not purego): the radix-8 passes and the net16/net64
//     register kernels of kernels_network_amd64.s for the network, and the XOR, fused
//     Taylor, 128-element Taylor and gather kernels of kernels_convert_amd64.s.
//
// Every assembly kernel has a generic twin with the same contract (the
// *Generic functions), which the tests compare it with. The set is
// registered in internal/cpufeat as "domain", so that tests walk both; a
// plan records the set it was built for (tuning.net) and each Subspace
// keeps one plan per set.
const (
	kernelsGeneric = iota
	kernelsAVX512
	numKernels
)

// useAVX512 says whether the AVX-512 kernel set is active: the fastest the
// machine supports unless a test selects another through cpufeat.
var useAVX512 = avx512Available

func activeKernels() int {
	if useAVX512 {
		return kernelsAVX512
	}
	return kernelsGeneric
}

func init() {
	cpufeat.Register("domain",
		[]cpufeat.Impl{{Name: "generic", Available: true}, {Name: "avx512", Available: avx512Available}},
		func(name string) { useAVX512 = name == "avx512" },
		func() string {
			if useAVX512 {
				return "avx512"
			}
			return "generic"
		})
}
