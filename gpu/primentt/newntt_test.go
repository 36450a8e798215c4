package primentt

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
)

// BenchmarkNewNTT times building a transform's tables and uploading them
// (NewNTT, then Close), the gnark-crypto domain made beforehand, and
// reports the device memory the tables took (devMiB: the driver's free
// memory before and after, in its allocation granules).
func BenchmarkNewNTT(b *testing.B) {
	d := gputest.Device(b)
	b.Run("bn254", func(b *testing.B) { benchNewNTT(b, d, bn254Case()) })
	b.Run("goldilocks", func(b *testing.B) { benchNewNTT(b, d, goldilocksCase()) })
	b.Run("babybear", func(b *testing.B) { benchNewNTT(b, d, babybearCase()) })
}

func benchNewNTT[E Element](b *testing.B, d *gpu.Device, c primeCase[E]) {
	for _, logn := range []int{16, 20, 24, 26} {
		b.Run(fmt.Sprintf("2^%d", logn), func(b *testing.B) {
			dom := c.domain(uint64(1)<<logn, nil)
			var used uint64
			for b.Loop() {
				free0, _, err := d.MemInfo()
				require.NoError(b, err)
				ntt, err := NewNTT[E](d, dom)
				require.NoError(b, err)
				free1, _, err := d.MemInfo()
				require.NoError(b, err)
				used = free0 - free1
				require.NoError(b, ntt.Close())
			}
			b.ReportMetric(float64(used)/(1<<20), "devMiB")
		})
	}
}
