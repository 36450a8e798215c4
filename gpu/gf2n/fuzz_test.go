package gf2n

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	field "github.com/gfpoly/gfpoly/field/gf2n"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/internal/gputest"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// FuzzMulVecHost feeds MulVecHost slices of any lengths built from the
// fuzzer's bytes, in any field and design: lengths it cannot take must give
// gpu.ErrLength and leave z alone, the others field/gf2n's products.
func FuzzMulVecHost(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint16(2), uint16(2), uint16(2), []byte{1, 2, 3})
	f.Add(uint8(4), uint8(1), uint16(64), uint16(64), uint16(64), []byte{0xff})
	f.Add(uint8(2), uint8(3), uint16(9), uint16(8), uint16(8), []byte{})
	f.Add(uint8(1), uint8(2), uint16(132), uint16(132), uint16(132), []byte{7, 7})
	f.Fuzz(func(t *testing.T, nsel, dsel uint8, lz, lx, ly uint16, data []byte) {
		d := gputest.Device(t)
		sizes := field.Sizes()
		fd, err := field.New(sizes[int(nsel)%len(sizes)])
		require.NoError(t, err)
		m, err := New(d, fd, Designs[int(dsel)%len(Designs)])
		require.NoError(t, err)
		defer m.Close()
		words := func(n uint16, salt uint64) []uint64 {
			s := make([]uint64, int(n)%2048)
			for i := range s {
				var b [8]byte
				for j := range b {
					if len(data) > 0 {
						b[j] = data[(i*8+j)%len(data)]
					}
				}
				s[i] = binary.LittleEndian.Uint64(b[:]) ^ salt*uint64(i+1)
			}
			return s
		}
		z, x, y := words(lz, 0), words(lx, 0x9e3779b97f4a7c15), words(ly, 0xc2b2ae3d27d4eb4f)
		z0 := append([]uint64(nil), z...)
		err = m.MulVecHost(z, x, y)
		want := make([]uint64, len(z))
		werr := fd.MulVec(want, x, y)
		if len(z) != len(x) || werr != nil {
			require.Error(t, err)
			assert.True(t, errors.Is(err, gpu.ErrLength), "error %v does not wrap gpu.ErrLength", err)
			testutil.EqualSlices(t, z0, z, "z written on an error")
			return
		}
		require.NoError(t, err)
		testutil.EqualSlices(t, want, z)
	})
}
