package poseidon2

import (
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/koalabear"
)

func BenchmarkKernelOnly(b *testing.B) {
	for _, c := range []struct {
		name string
		k    *perm31
	}{
		{"BB24gnark", mustNew[babybear.Element](b, Gnark, 24).f31},
		{"BB16", mustNew[babybear.Element](b, Plonky3, 16).f31},
		{"KB24gnark", mustNew[koalabear.Element](b, Gnark, 24).f31},
		{"KB16", mustNew[koalabear.Element](b, Plonky3, 16).f31},
	} {
		b.Run(c.name, func(b *testing.B) {
			var st lanes
			for b.Loop() {
				kernel16(c.k, &st)
			}
			b.ReportMetric(16*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
		})
	}
}
