package primentt

import (
	"fmt"

	"github.com/gfpoly/gfpoly/gpu"
)

// LDE is the low-degree extension from a small gnark-crypto domain of n
// elements to a large one of N = blowup·n (blowup 2, 4, 8 or 16) on device
// buffers: a column of n evaluations on ⟨ω_n⟩ becomes the N evaluations of
// the same polynomial on the large domain's coset g·⟨ω_N⟩, g its
// FrMultiplicativeGen. The result equals gnark-crypto's small.FFTInverse
// followed by large.FFT(·, fft.OnCoset()) on the zero-padded coefficients, bit
// for bit.
type LDE[E Element] struct {
	small, large *NTT[E]
	logb         int
}

// NewLDE builds the LDE from small to large (both gnark-crypto
// *fft.Domain of E's field); errors as NewNTT, and ErrDomain for a
// blowup other than 2, 4, 8, 16.
func NewLDE[E Element](d *gpu.Device, small, large any) (*LDE[E], error) {
	s, err := NewNTT[E](d, small)
	if err != nil {
		return nil, fmt.Errorf("small domain: %w", err)
	}
	l, err := NewNTT[E](d, large)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("large domain: %w", err)
	}
	logb := l.logn - s.logn
	if logb < 1 || logb > 4 {
		s.Close()
		l.Close()
		return nil, fmt.Errorf("%w: large domain 2^%d, small 2^%d: the blowup must be 2, 4, 8 or 16", ErrDomain, l.logn, s.logn)
	}
	return &LDE[E]{small: s, large: l, logb: logb}, nil
}

// Close frees both domains' tables.
func (l *LDE[E]) Close() error {
	e1 := l.small.Close()
	e2 := l.large.Close()
	if e1 != nil {
		return e1
	}
	return e2
}

// Blowup returns N / n.
func (l *LDE[E]) Blowup() int { return 1 << l.logb }

// Encode writes the extension of every column of src (k columns of n) into
// dst (k columns of N). Natural reads and writes natural order,
// DIF reads natural and writes bit-reversed order, DIT reads
// bit-reversed and writes natural order. src is left unchanged; it must not
// overlap dst. Encode uses k·n elements of temporary device memory.
func (l *LDE[E]) Encode(s *gpu.Stream, dst, src *gpu.Buffer[E], o Order) error {
	if o < DIF || o > Natural {
		return fmt.Errorf("primentt: LDE: unknown order %v", o)
	}
	cols, err := l.small.columns("LDE src", src)
	if err != nil {
		return err
	}
	dcols, err := l.large.columns("LDE dst", dst)
	if err != nil {
		return err
	}
	if cols != dcols {
		return fmt.Errorf("primentt: LDE: %d src columns, %d dst columns: %w", cols, dcols, gpu.ErrLength)
	}
	if src.Device() != dst.Device() {
		return fmt.Errorf("primentt: LDE: src and dst on different devices")
	}
	if l.small.tw.Freed() {
		return fmt.Errorf("primentt: LDE: closed: %w", gpu.ErrClosed)
	}
	d := l.small.d
	n, bigN := uint64(1)<<l.small.logn, uint64(1)<<l.large.logn
	es := uint64(l.small.k.elemSize())
	return d.Do(s, func(q *gpu.Queue) error {
		return q.Scratch(int(uint64(cols)*n*es), func(tmp gpu.DevicePtr) error {
			if err := q.Copy(tmp, src.Ptr(), int(uint64(cols)*n*es)); err != nil {
				return err
			}
			// Coefficients in tmp, then laid out in dst and multiplied by
			// the coset powers (n products, not N), then the NTT.
			intt, mode, ntt := DIF, uint32(0), DIT // Natural
			switch o {
			case DIF:
				intt, mode, ntt = DIF, 1, DIF
			case DIT:
				intt, mode, ntt = DIT, 2, DIT
			}
			if err := l.small.launch(q, uint64(tmp), n, cols, intt, true, false); err != nil {
				return err
			}
			k := l.small.k
			g := min(int(bigN+255)/256, max(1, d.Info().Multiprocessors*16))
			for c0 := 0; c0 < cols; c0 += maxGridY {
				cn := min(cols-c0, maxGridY)
				if err := launchNTT(q, k.spreadK, gpu.Dim3{X: g, Y: cn}, gpu.Dim3{X: 256}, 0,
					dst.Ptr()+gpu.DevicePtr(uint64(c0)*bigN*es), bigN, tmp+gpu.DevicePtr(uint64(c0)*n*es), n,
					uint32(l.small.logn), uint32(l.logb), mode, l.large.cosetFwd.Ptr(), uint32(l.large.tabH)); err != nil {
					return err
				}
			}
			return l.large.launch(q, uint64(dst.Ptr()), bigN, cols, ntt, false, false)
		})
	})
}
