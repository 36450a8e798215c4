package intntt

// A transliteration of cuda/intntt.cu's kernels into Go, thread by thread,
// run in the order the Accelerator launches them (forwardPasses,
// inversePasses, the same constants), and checked against poly/intpoly's
// CPU products: the kernels' arithmetic and indexing are tested on any
// machine, so that a device run is a confirmation.

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
	"github.com/gfpoly/gfpoly/poly/intpoly"
)

func eMont(a, b, p, pinv uint32) uint32 {
	t := uint64(a) * uint64(b)
	m := uint32(t) * pinv
	u := uint32((t + uint64(m)*uint64(p)) >> 32)
	if u >= p {
		u -= p
	}
	return u
}

func eAdd(a, b, p uint32) uint32 {
	s := a + b
	if s >= p {
		s -= p
	}
	return s
}

func eSub(a, b, p uint32) uint32 {
	s := a + p - b
	if s >= p {
		s -= p
	}
	return s
}

// eReduce is intntt_reduce.
func eReduce(res []uint32, limbs []uint64, nl, W int, sgn bool, n, N int, c *consts, pw []uint32) {
	for i := range c.k {
		p, pinv := c.p[i], c.pinv[i]
		w := pw[i*(2*W+1):]
		r := res[i*N:]
		for j := range N {
			var acc uint32
			if j < n {
				var top uint64
				for t := range W {
					at := j*W + t
					var v uint64
					if at < nl {
						v = limbs[at]
					}
					top = v
					acc = eAdd(acc, eMont(uint32(v), w[2*t], p, pinv), p)
					acc = eAdd(acc, eMont(uint32(v>>32), w[2*t+1], p, pinv), p)
				}
				if sgn && top>>63 == 1 {
					acc = eSub(acc, w[2*W], p)
				}
			}
			r[j] = acc
		}
	}
}

// eTwiddles is intntt_twiddles.
func eTwiddles(c *consts) []uint32 {
	half := (1 << c.logN) / 2
	tw := make([]uint32, 2*c.k*half)
	for z := range 2 {
		for i := range c.k {
			p, pinv := c.p[i], c.pinv[i]
			for m := range half {
				r, b := c.one[i], c.roots[2*i+z]
				for e := m; e != 0; e >>= 1 {
					if e&1 == 1 {
						r = eMont(r, b, p, pinv)
					}
					b = eMont(b, b, p, pinv)
				}
				tw[(z*c.k+i)*half+m] = r
			}
		}
	}
	return tw
}

// ePass runs one pass of the schedule as the kernels do.
func ePass(res []uint32, c *consts, ps pass, tw []uint32) {
	N := 1 << c.logN
	logN := c.logN
	half := N / 2
	for i := range c.k {
		p, pinv := c.p[i], c.pinv[i]
		x := res[i*N : (i+1)*N]
		base := i * half
		if ps.kind >= inv1 {
			base += c.k * half
		}
		w := tw[base : base+half]
		ls := ps.arg
		switch ps.kind {
		case fwd1, inv1:
			s := 1 << ls
			for t := range N / 2 {
				j := t & (s - 1)
				a := ((t >> ls) << (ls + 1)) | j
				if ps.kind == fwd1 {
					u, v := x[a], x[a+s]
					x[a] = eAdd(u, v, p)
					x[a+s] = eMont(eSub(u, v, p), w[j<<(logN-1-ls)], p, pinv)
				} else {
					u, v := x[a], eMont(x[a+s], w[j<<(logN-1-ls)], p, pinv)
					x[a] = eAdd(u, v, p)
					x[a+s] = eSub(u, v, p)
				}
			}
		case fwd2, inv2:
			s := 1 << ls
			q := s >> 1
			sh := logN - 1 - ls
			for t := range N / 4 {
				j := t & (q - 1)
				a := ((t >> (ls - 1)) << (ls + 1)) | j
				x0, x1, x2, x3 := x[a], x[a+q], x[a+s], x[a+s+q]
				wq := w[j<<(sh+1)]
				if ps.kind == fwd2 {
					y0, y2 := eAdd(x0, x2, p), eMont(eSub(x0, x2, p), w[j<<sh], p, pinv)
					y1, y3 := eAdd(x1, x3, p), eMont(eSub(x1, x3, p), w[(j+q)<<sh], p, pinv)
					x[a] = eAdd(y0, y1, p)
					x[a+q] = eMont(eSub(y0, y1, p), wq, p, pinv)
					x[a+s] = eAdd(y2, y3, p)
					x[a+s+q] = eMont(eSub(y2, y3, p), wq, p, pinv)
				} else {
					v1, v3 := eMont(x1, wq, p, pinv), eMont(x3, wq, p, pinv)
					y0, y1 := eAdd(x0, v1, p), eSub(x0, v1, p)
					y2, y3 := eAdd(x2, v3, p), eSub(x2, v3, p)
					v2, w3 := eMont(y2, w[j<<sh], p, pinv), eMont(y3, w[(j+q)<<sh], p, pinv)
					x[a] = eAdd(y0, v2, p)
					x[a+s] = eSub(y0, v2, p)
					x[a+q] = eAdd(y1, w3, p)
					x[a+s+q] = eSub(y1, w3, p)
				}
			}
		case fwdTile, invTile:
			lb := ps.arg
			B := 1 << lb
			for blk := range N / B {
				sx := x[blk*B : (blk+1)*B]
				levels := func(ls int) {
					s := 1 << ls
					for t := range B / 2 {
						j := t & (s - 1)
						a := ((t >> ls) << (ls + 1)) | j
						if ps.kind == fwdTile {
							u, v := sx[a], sx[a+s]
							sx[a] = eAdd(u, v, p)
							sx[a+s] = eMont(eSub(u, v, p), w[j<<(logN-1-ls)], p, pinv)
						} else {
							u, v := sx[a], eMont(sx[a+s], w[j<<(logN-1-ls)], p, pinv)
							sx[a] = eAdd(u, v, p)
							sx[a+s] = eSub(u, v, p)
						}
					}
				}
				if ps.kind == fwdTile {
					for ls := lb - 1; ls >= 0; ls-- {
						levels(ls)
					}
				} else {
					for ls := range lb {
						levels(ls)
					}
				}
			}
		}
	}
}

// ePointwise is intntt_pointwise.
func ePointwise(a, b []uint32, N int, c *consts) {
	for i := range c.k {
		p, pinv, s := c.p[i], c.pinv[i], c.s[i]
		for j := range N {
			a[i*N+j] = eMont(eMont(a[i*N+j], b[i*N+j], p, pinv), s, p, pinv)
		}
	}
}

// eCRT is intntt_crt.
func eCRT(out []uint64, W, n int, res []uint32, N int, c *consts, sgn bool) {
	k, L := c.k, c.l
	dg := make([]uint32, maxPrimes)
	X := make([]uint32, maxPrimes+2)
	for j := range n {
		dg[0] = res[j]
		for i := 1; i < k; i++ {
			p, pinv := c.p[i], c.pinv[i]
			e := c.e[i*k:]
			a := eSub(eMont(res[i*N+j], e[0], p, pinv), eMont(dg[0], e[0], p, pinv), p)
			for l := 1; l < i; l++ {
				a = eSub(a, eMont(dg[l], e[l], p, pinv), p)
			}
			dg[i] = a
		}
		ln := 1
		X[0] = dg[k-1]
		for i := k - 2; i >= 0; i-- {
			p := uint64(c.p[i])
			cr := uint64(dg[i])
			for t := range ln {
				v := uint64(X[t])*p + cr
				X[t] = uint32(v)
				cr = v >> 32
			}
			if cr != 0 {
				X[ln] = uint32(cr)
				ln++
			}
		}
		for t := ln; t < L; t++ {
			X[t] = 0
		}
		var fill uint32
		if sgn {
			gt := false
			for t := L - 1; t >= 0; t-- {
				if X[t] != c.h[t] {
					gt = X[t] > c.h[t]
					break
				}
			}
			if gt {
				var br uint32
				for t := range L {
					d := uint64(X[t]) - uint64(c.m[t]) - uint64(br)
					X[t] = uint32(d)
					br = uint32(d >> 63)
				}
				fill = 0xffffffff
			}
		}
		o := out[j*W:]
		for t := range W {
			lo, hi := fill, fill
			if 2*t < L {
				lo = X[2*t]
			}
			if 2*t+1 < L {
				hi = X[2*t+1]
			}
			o[t] = uint64(lo) | uint64(hi)<<32
		}
	}
}

// eGather is intntt_gather.
func eGather(lo, hi, co []uint64, n, Wc, c, nz int) {
	for m := range nz {
		jmax := min(m/c, n-1)
		jmin := 0
		if m+1 > Wc {
			jmin = (m + 1 - Wc + c - 1) / c
		}
		var s, h uint64
		for j := jmin; j <= jmax && j < n; j++ {
			v := co[j*Wc+(m-c*j)]
			s += v
			if s < v {
				h++
			}
		}
		lo[m], hi[m] = s, h
	}
}

// eConvolve follows Accelerator.convolve.
func eConvolve(c *consts, x, y []uint64, wx, wy, nx, ny int, signed bool, n, outW int) []uint64 {
	N := 1 << c.logN
	tw := eTwiddles(c)
	ra := make([]uint32, c.k*N)
	eReduce(ra, x, len(x), wx, signed, nx, N, c, c.pw(wx))
	for _, ps := range forwardPasses(c.logN) {
		ePass(ra, c, ps, tw)
	}
	rb := ra
	if y != nil {
		rb = make([]uint32, c.k*N)
		eReduce(rb, y, len(y), wy, signed, ny, N, c, c.pw(wy))
		for _, ps := range forwardPasses(c.logN) {
			ePass(rb, c, ps, tw)
		}
	}
	ePointwise(ra, rb, N, c)
	for _, ps := range inversePasses(c.logN) {
		ePass(ra, c, ps, tw)
	}
	out := make([]uint64, n*outW)
	eCRT(out, outW, n, ra, N, c, signed)
	return out
}

// eMulPacked follows Accelerator.MulPacked.
func eMulPacked(t *testing.T, dst, a, b intpoly.Packed) {
	la, lb := a.Len(), b.Len()
	n := la + lb - 1
	need := maxBits(a) + maxBits(b) + log2Ceil(min(la, lb)) + 1
	c, err := newConsts(log2Ceil(n), need)
	require.NoError(t, err)
	copy(dst.Limbs, eConvolve(c, a.Limbs, b.Limbs, a.Width, b.Width, la, lb, true, n, dst.Width))
}

// eMulNat follows Accelerator.MulNat.
func eMulNat(t *testing.T, z, x, y []uint64) {
	c, cs, err := natShape(len(x), len(y))
	require.NoError(t, err)
	nx, ny := (len(x)+c-1)/c, (len(y)+c-1)/c
	n := nx + ny - 1
	wc := (128*c + log2Ceil(min(nx, ny)) + 63) / 64
	co := eConvolve(cs, x, y, c, c, nx, ny, false, n, wc)
	hi := make([]uint64, len(z))
	eGather(z, hi, co, n, wc, c, len(z))
	require.Zero(t, eCarry(z, hi), "carry out of the product")
}

// eCarry is intntt_carry_blocks, intntt_carry_scan and intntt_carry_apply
// in turn: lo becomes the limbs of lo + 2^64·hi (in place, as MulNatDevice
// runs them); it returns the carry out of the top limb.
func eCarry(lo, hi []uint64) uint32 {
	const T = carryThreads
	nz := len(lo)
	nb := (nz + T - 1) / T
	limb := func(m int) (v uint64, g, p bool) {
		if m >= nz {
			return 0, false, true
		}
		a := lo[m]
		v = a
		if m > 0 {
			v += hi[m-1]
		}
		return v, v < a, v == ^uint64(0)
	}
	agg := make([]uint32, nb+1)
	g, p := make([]bool, T), make([]bool, T)
	for b := range nb {
		allp := true
		for t := range T {
			_, g[t], p[t] = limb(b*T + t)
			allp = allp && p[t]
		}
		_, cout := eBlockCarry(g, p, 0)
		switch {
		case allp:
			agg[b] = 1
		case cout != 0:
			agg[b] = 2
		default:
			agg[b] = 0
		}
	}
	var run uint32
	for base := 0; base < nb; base += T {
		for t := range T {
			st := uint32(1)
			if base+t < nb {
				st = agg[base+t]
			}
			g[t], p[t] = st == 2, st == 1
		}
		c, cout := eBlockCarry(g, p, run)
		for t := range T {
			if base+t < nb {
				agg[base+t] = c[t]
			}
		}
		run = cout
	}
	agg[nb] = run
	v := make([]uint64, T)
	for b := range nb {
		for t := range T {
			v[t], g[t], p[t] = limb(b*T + t)
		}
		c, _ := eBlockCarry(g, p, agg[b])
		for t := range T {
			if m := b*T + t; m < nz {
				lo[m] = v[t] + uint64(c[t])
			}
		}
	}
	return agg[nb]
}

// eBlockCarry is block_carry for the carryThreads threads of a block:
// each thread's carry in, and the block's carry out, given cin.
func eBlockCarry(g, p []bool, cin uint32) ([]uint32, uint32) {
	const warps = carryThreads / 32
	var G, P, wg, wp, wc [warps]uint32
	for t := range carryThreads {
		if g[t] {
			G[t/32] |= 1 << (t % 32)
		}
		if p[t] {
			P[t/32] |= 1 << (t % 32)
		}
	}
	var GG, PP uint32
	for w := range warps {
		wg[w] = uint32((uint64(G[w]|P[w]) + uint64(G[w])) >> 32)
		if P[w] == ^uint32(0) {
			wp[w] = 1
		}
		GG |= (wg[w] & 1) << w
		PP |= wp[w] << w
	}
	s := uint64(GG|PP) + uint64(GG) + uint64(cin)
	for l := range warps {
		wc[l] = ((uint32(s) ^ PP) >> l) & 1
	}
	c := make([]uint32, carryThreads)
	for t := range carryThreads {
		w, l := t/32, t%32
		s := uint64(G[w]|P[w]) + uint64(G[w]) + uint64(wc[w])
		c[t] = ((uint32(s) ^ P[w]) >> l) & 1
	}
	return c, uint32(s >> 32)
}

// carryCase returns lo and hi limbs whose sum has carry chains of every
// reach: runs of all-ones limbs (within a warp, across warps, across
// blocks and, for nz past 2^20, across the scan's chunks), sums that
// overflow, small hi as the gather leaves them, and zeros.
func carryCase(r *rand.Rand, nz int) (lo, hi []uint64) {
	lo, hi = make([]uint64, nz), make([]uint64, nz)
	for m := 0; m < nz; {
		run := 1 + r.IntN(8)
		switch r.IntN(6) {
		case 0:
			run = 1 + r.IntN(3*carryThreads)
			if r.IntN(8) == 0 {
				run = 1 + r.IntN(nz)
			}
			for j := m; j < min(nz, m+run); j++ {
				lo[j] = ^uint64(0)
			}
		case 1:
			for j := m; j < min(nz, m+run); j++ {
				lo[j], hi[j] = ^uint64(0)-uint64(r.IntN(3)), uint64(r.IntN(4))
			}
		case 2: // zeros
		default:
			for j := m; j < min(nz, m+run); j++ {
				lo[j], hi[j] = r.Uint64(), r.Uint64()>>58
			}
		}
		m += run
	}
	hi[nz-1] = 0
	return lo, hi
}

// carryWant is lo + 2^64·hi as limbs (nz of them) and the carry out.
func carryWant(lo, hi []uint64) ([]uint64, uint32) {
	s := natBig(lo)
	s.Add(s, new(big.Int).Lsh(natBig(hi), 64))
	out := make([]uint64, len(lo)+2)
	for i, w := range s.Bits() {
		out[i] = uint64(w)
	}
	c := uint32(0)
	if s.BitLen() > 64*len(lo) {
		c = 1
	}
	return out[:len(lo)], c
}

// TestEmulatedCarry checks the carry kernels' transliteration against
// math/big on carry chains of every reach: within a block of carryThreads
// limbs, across blocks, and past the carryThreads² limbs of one chunk of
// the scan over the blocks (1 chunk boundary; 2 more under GFPOLY_LONG).
func TestEmulatedCarry(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sizes := []int{1, 2, 31, 33, 1023, 1024, 1025, 5000, 70000}
	if !testing.Short() {
		sizes = append(sizes, 1<<20+3)
	}
	if testutil.Long() {
		sizes = append(sizes, 3<<20)
	}
	for _, nz := range sizes {
		for rep := range 3 {
			lo, hi := carryCase(r, nz)
			if rep == 2 { // one chain through every limb, carried out of the top
				for j := range lo {
					lo[j], hi[j] = ^uint64(0), 0
				}
				if nz > 1 { // hi's top limb is zero in a product
					hi[0] = 1
				}
			}
			want, wc := carryWant(lo, hi)
			c := eCarry(lo, hi)
			assert.Equal(t, want, lo, "nz %d rep %d", nz, rep)
			assert.Equal(t, wc, c, "carry out, nz %d rep %d", nz, rep)
		}
	}
}

// randPacked returns n random coefficients of width w, magnitudes below
// 2^bits, signs mixed, with zeros and extreme values among them.
func randPacked(r *rand.Rand, n, w, bits int) (intpoly.Packed, []*big.Int) {
	xs := make([]*big.Int, n)
	lim := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	for i := range xs {
		x := new(big.Int)
		switch r.IntN(8) {
		case 0: // zero
		case 1:
			x.Sub(lim, big.NewInt(1))
		default:
			b := make([]byte, (bits+7)/8)
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			x.SetBytes(b)
			x.Rsh(x, uint(r.IntN(bits+1)))
			x.Mod(x, lim)
		}
		if r.IntN(2) == 0 {
			x.Neg(x)
		}
		xs[i] = x
	}
	p, err := intpoly.PackBig(xs, w)
	if err != nil {
		panic(err)
	}
	return p, xs
}

// cpuPacked is intpoly's CPU product of a and b into a Packed of width w.
func cpuPacked(t *testing.T, a, b intpoly.Packed, bitsA, bitsB, w int) intpoly.Packed {
	m, err := intpoly.NewMultiplier(a.Len(), b.Len(), bitsA, bitsB)
	require.NoError(t, err)
	dst := intpoly.NewPacked(a.Len()+b.Len()-1, max(w, m.OutWidth()))
	require.NoError(t, m.MulPacked(dst, a, b))
	return dst
}

type polyCase struct{ la, lb, bitsA, bitsB int }

func polyCases(short bool) []polyCase {
	cs := []polyCase{
		{1, 1, 1, 1}, {1, 7, 63, 64}, {3, 2, 64, 1}, {17, 33, 64, 64}, {100, 1000, 200, 30},
		{255, 257, 64, 64}, {1 << 11, 1 << 11, 128, 128}, {3000, 2100, 64, 300}, {4096, 4096, 1024, 1024},
		{5000, 4000, 4096, 64},
	}
	if !short {
		cs = append(cs, polyCase{1 << 14, 1 << 14, 64, 64}, polyCase{20000, 12345, 256, 256})
	}
	return cs
}

// emulatedCases are polyCases for the transliteration: the widest
// coefficients on thousands of points (1024 bits on 2^12, 4096 on 5000,
// nearly all of the emulation's time) only under GFPOLY_LONG, the same
// widths on a few hundred points otherwise (as many primes, shorter
// transforms).
func emulatedCases() []polyCase {
	cs := polyCases(testing.Short())
	if testutil.Long() {
		return cs
	}
	cs = slices.DeleteFunc(cs, func(c polyCase) bool { return c.la >= 4096 && c.bitsA >= 1024 })
	return append(cs, polyCase{300, 257, 1024, 1024}, polyCase{500, 400, 4096, 64})
}

// TestEmulatedKernels runs the Go transliteration of the kernels on random
// polynomials and integers and compares with poly/intpoly's CPU products.
func TestEmulatedKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range emulatedCases() {
		a, _ := randPacked(r, tc.la, intpoly.WidthFor(tc.bitsA), tc.bitsA)
		b, _ := randPacked(r, tc.lb, intpoly.WidthFor(tc.bitsB), tc.bitsB)
		want := cpuPacked(t, a, b, tc.bitsA, tc.bitsB, 0)
		got := intpoly.NewPacked(want.Len(), want.Width)
		eMulPacked(t, got, a, b)
		assert.Equal(t, want.Limbs, got.Limbs, "%+v", tc)
	}
	for _, sz := range [][2]int{{1, 1}, {1, 5}, {7, 3}, {64, 64}, {1000, 999}, {4097, 3000}} {
		x := make([]uint64, sz[0])
		y := make([]uint64, sz[1])
		for i := range x {
			x[i] = r.Uint64()
		}
		for i := range y {
			y[i] = r.Uint64()
		}
		x[len(x)-1], y[0] = ^uint64(0), ^uint64(0)
		z := make([]uint64, len(x)+len(y))
		eMulNat(t, z, x, y)
		assert.Equal(t, natBig(x).Mul(natBig(x), natBig(y)).String(), natBig(z).String(), "%v", sz)
	}
}

func natBig(l []uint64) *big.Int {
	ws := make([]big.Word, 0, len(l)*(64/bits.UintSize))
	for _, v := range l {
		ws = append(ws, big.Word(v))
		if bits.UintSize == 32 {
			ws = append(ws, big.Word(v>>32))
		}
	}
	return new(big.Int).SetBits(ws)
}

// TestConsts checks the plan constants against their definitions.
func TestConsts(t *testing.T) {
	for _, logN := range []int{0, 1, 5, 12, 21, 25} {
		c, err := newConsts(logN, 149)
		require.NoError(t, err)
		M := big.NewInt(1)
		for i, q := range c.p {
			p := uint64(q)
			assert.True(t, big.NewInt(int64(p)).ProbablyPrime(20))
			assert.Zero(t, (p-1)%(uint64(1)<<logN))
			assert.Equal(t, uint32(0), q*c.pinv[i]+1, "pinv")
			w := uint64(c.roots[2*i]) * powMod(r32%p, p-2, p) % p
			if logN > 0 {
				assert.Equal(t, p-1, powMod(w, uint64(1)<<(logN-1), p), "primitive root")
			}
			M.Mul(M, new(big.Int).SetUint64(p))
		}
		assert.Greater(t, M.BitLen(), 149)
	}
	_, err := newConsts(28, 10)
	require.ErrorIs(t, err, intpoly.ErrTooLarge)
	_, err = newConsts(26, 4000)
	require.ErrorIs(t, err, intpoly.ErrTooLarge)
	assert.Len(t, forwardPasses(0), 0)
	for _, bits := range [][]uint64{{0}, {1}, {^uint64(0)}, {1 << 63}, {0, 1 << 63}, {^uint64(1), ^uint64(0)}} {
		p := intpoly.Packed{Width: len(bits), Limbs: bits}
		assert.Equal(t, p.Coeff(0).BitLen(), coeffBits(bits), "%x", bits)
	}
}
