package primentt

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestFS31Stream checks the BabyBear and KoalaBear transforms of three
// four-step passes on a stream: every transform and order at 2^21, 2^22 and
// 2^24 (passes of 7 and 8 bits), two columns, against gnark-crypto; then 4
// FFT DIF / FFTInverse DIT pairs queued back to back, which must give the
// input back.
func TestFS31Stream(t *testing.T) {
	d := gputest.Device(t)
	t.Run("babybear", func(t *testing.T) { testFS31Stream(t, d, babybearCase()) })
	t.Run("koalabear", func(t *testing.T) { testFS31Stream(t, d, koalabearCase()) })
}

func testFS31Stream[E Element](t *testing.T, d *gpu.Device, c primeCase[E]) {
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	sizes := []int{21, 22, 24}
	if testing.Short() {
		sizes = []int{21}
	}
	for _, logn := range sizes {
		n := 1 << logn
		dom := c.domain(uint64(n), nil)
		ntt, err := NewNTT[E](d, dom)
		require.NoError(t, err)
		require.Len(t, ntt.fsPlan, 3, "2^%d: four-step passes", logn)
		const cols = 2
		buf, err := gpu.Alloc[E](d, cols*n)
		require.NoError(t, err)
		got := make([]E, cols*n)
		for _, op := range primeOps {
			for _, o := range primeOrders {
				in := primeRandom(c, cols*n, uint64(logn*100+int(o)))
				require.NoError(t, buf.Upload(in))
				require.NoError(t, ntt.do(op, s, buf, o))
				require.NoError(t, s.Synchronize())
				require.NoError(t, buf.Download(got))
				for col := range cols {
					c.gnark(dom, in[col*n:(col+1)*n], o, op.inverse, op.coset)
				}
				testutil.RequireEqualSlices(t, in, got, "%s 2^%d %s %v: device against gnark-crypto", c.name, logn, op.name, o)
			}
		}
		in := primeRandom(c, cols*n, uint64(logn))
		require.NoError(t, buf.Upload(in))
		for range 4 {
			require.NoError(t, ntt.FFT(s, buf, DIF))
			require.NoError(t, ntt.FFTInverse(s, buf, DIT))
		}
		require.NoError(t, s.Synchronize())
		require.NoError(t, buf.Download(got))
		testutil.RequireEqualSlices(t, in, got, "%s 2^%d: 4 FFT/FFTInverse pairs back to back against the input", c.name, logn)
		require.NoError(t, buf.Free())
		require.NoError(t, ntt.Close())
	}
}
