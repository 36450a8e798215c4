package ntt64

import "github.com/gfpoly/gfpoly/internal/cpufeat"

// kernelSet is one implementation of the transform kernels. The generic set
// (kernels_generic.go) is always there; kernels_amd64.go adds the AVX-512
// one where the build and the CPU allow it.
type kernelSet struct {
	name                 string
	difRadix2, ditRadix2 func(a []uint64, m int, tw []uint64)
	difRadix4, ditRadix4 func(a []uint64, q, j0, j1 int, tw, tw3 []uint64)
	difTail              func(a, tw []uint64)
	ditHead              func(a, tw []uint64, skip int)
	replicate            func(dst, src []uint64, logB int)
	bitrevTiles          func(x, y []uint64, stride int)
	mulVec               func(a, b []uint64)
	scaleVec             func(a []uint64, c uint64)
}

var genericKernels = kernelSet{
	name:        "generic",
	difRadix2:   difRadix2Generic,
	ditRadix2:   ditRadix2Generic,
	difRadix4:   difRadix4Generic,
	ditRadix4:   ditRadix4Generic,
	difTail:     difTailGeneric,
	ditHead:     ditHeadGeneric,
	replicate:   replicateGeneric,
	bitrevTiles: bitrevTilesGeneric,
	mulVec:      mulVecGeneric,
	scaleVec:    scaleVecGeneric,
}

// impls lists the implementations this build knows, slowest first, and
// whether this CPU can run each (implsAvailable, per build).
var impls = append([]*kernelSet{&genericKernels}, asmKernels...)

// k is the active implementation: the fastest available, chosen at package
// initialisation. Only tests change it, through cpufeat.Select.
var k = bestKernels()

func bestKernels() *kernelSet {
	best := impls[0]
	for i, ks := range impls {
		if asmAvailable(i) {
			best = ks
		}
	}
	return best
}

func asmAvailable(i int) bool { return i == 0 || asmKernelsAvailable[i-1] }

func init() {
	list := make([]cpufeat.Impl, len(impls))
	for i, ks := range impls {
		list[i] = cpufeat.Impl{Name: ks.name, Available: asmAvailable(i)}
	}
	cpufeat.Register("ntt64", list, selectKernels, func() string { return k.name })
}

func selectKernels(name string) {
	for i, ks := range impls {
		if ks.name == name && asmAvailable(i) {
			k = ks
			return
		}
	}
	panic("ntt64: no available implementation " + name)
}

// Implementation names the active kernels: "generic" or "avx512".
func Implementation() string { return k.name }
