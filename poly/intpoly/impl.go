package intpoly

import "github.com/gfpoly/gfpoly/internal/cpufeat"

// The implementations of the transform kernels, slowest first, are
// implKernels, with implAvailable saying which this CPU runs; which exist
// depends on the build (intpoly_amd64.go, intpoly_noasm.go).

// impl indexes the active implementation: the fastest available, chosen at
// package initialisation. Only tests change it, through cpufeat.Select.
var impl = 0

func init() {
	impls := make([]cpufeat.Impl, len(implKernels))
	for i, ks := range implKernels {
		impls[i] = cpufeat.Impl{Name: ks.name, Available: implAvailable[i]}
		if implAvailable[i] {
			impl = i
		}
	}
	cpufeat.Register("intpoly", impls, func(name string) {
		for i, ks := range implKernels {
			if ks.name == name && implAvailable[i] {
				impl = i
				return
			}
		}
		panic("intpoly: no available implementation " + name)
	}, func() string { return implKernels[impl].name })
}

func activeKernels() *kernels { return implKernels[impl] }
