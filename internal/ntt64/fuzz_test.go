package ntt64

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// FuzzTransform: any values (reduced below P), any size to 2^12, any
// variant and number of tasks: every implementation gives the generic
// one's result, and the inverse transform gives the input back; the
// extension by 2..16 agrees across implementations too.
func FuzzTransform(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint8(3), uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint8(12), uint8(0xff))
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint8(7), uint8(0x2a))
	f.Fuzz(func(t *testing.T, data []byte, logN, sel uint8) {
		logN %= 13
		n := 1 << logN
		in := make([]uint64, n)
		if len(data) > 0 {
			var buf [8]byte
			for i := range in {
				for j := range buf {
					buf[j] = data[(8*i+j)%len(data)]
				}
				in[i] = binary.LittleEndian.Uint64(buf[:]) % P
			}
		}
		p, err := NewPlan(int(logN), 7+uint64(sel>>4))
		require.NoError(t, err)
		v := variants[sel%8]
		tasks := 1 + int(sel>>3)%4
		want := reference(p, in, v)
		var ext *Extender
		var extWant []uint64
		if logB := 1 + int(sel>>5)%4; int(logN)+logB <= 14 {
			large, err := NewPlan(int(logN)+logB, 3)
			require.NoError(t, err)
			ext, err = NewExtender(p, large)
			require.NoError(t, err)
			extWant = make([]uint64, n<<logB)
			copy(extWant[len(extWant)-n:], in)
			func() {
				defer cpufeat.Select("ntt64", "generic")()
				ext.Extend(extWant, 1)
			}()
		}
		cpufeat.Each("ntt64", func(name string) {
			a := append([]uint64(nil), in...)
			p.Transform(a, v.dit, v.inverse, v.coset, tasks)
			testutil.RequireEqualSlices(t, want, a, "%s 2^%d %v tasks=%d", name, logN, v, tasks)
			p.Transform(a, !v.dit, !v.inverse, v.coset, tasks)
			testutil.RequireEqualSlices(t, in, a, "%s 2^%d %v round trip", name, logN, v)
			if ext != nil {
				b := make([]uint64, len(extWant))
				copy(b[len(b)-n:], in)
				ext.Extend(b, tasks)
				testutil.RequireEqualSlices(t, extWant, b, "%s 2^%d extension", name, logN)
			}
		})
	})
}
