package intpoly

import (
	"math/big"
	"math/bits"
	mrand "math/rand"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

// TestPrimeFamilies recomputes the properties the families promise: each
// prime is prime (checked again with 20 Miller–Rabin rounds), lies in
// (2^(bits−1), 2^bits), is ≡ 1 mod 2^maxLog, the list is strictly
// descending with no NTT-friendly prime skipped, and the root has order
// exactly 2^maxLog.
func TestPrimeFamilies(t *testing.T) {
	for _, f := range []*primeFamily{primes62, primes50} {
		ps := f.get(40)
		var x big.Int
		prevC := (uint64(1)<<f.bits - 1) >> f.maxLog
		for i, q := range ps {
			require.True(t, x.SetUint64(q.p).ProbablyPrime(20), "p%d = %d", i, q.p)
			assert.Equal(t, uint64(1), q.p%(1<<f.maxLog))
			assert.Equal(t, int(f.bits), bits.Len64(q.p))
			c := q.p >> f.maxLog
			for skipped := c + 1; skipped <= prevC && i > 0; skipped++ {
				assert.False(t, x.SetUint64(skipped<<f.maxLog+1).ProbablyPrime(20), "prime %d skipped", skipped<<f.maxLog+1)
			}
			prevC = c - 1
			assert.Equal(t, q.p-1, powMod(q.root, 1<<(f.maxLog-1), q.p), "root order")
		}
	}
	// Independent values (a deterministic Miller–Rabin in Python): the largest
	// primes c·2^28 + 1 below 2^62 and below 2^50.
	assert.Equal(t, uint64(0x3ffffff960000001), primes62.get(1)[0].p)
	assert.Equal(t, uint64(0x3fff990000001), primes50.get(1)[0].p)
}

func TestModArith(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, f := range []*primeFamily{primes62, primes50} {
		for _, q := range f.get(4) {
			p := q.p
			mt := newMont(p)
			assert.Equal(t, uint64(1), p*mt.pinv)
			for _, shift := range []uint{52, 64} {
				qf := newQuotFn(p, shift)
				for range 200 {
					w := r.Uint64N(p)
					assert.Equal(t, shoupQuot(w, p, shift), qf.quot(w))
				}
				assert.Equal(t, uint64(0), qf.quot(0))
				assert.Equal(t, shoupQuot(p-1, p, shift), qf.quot(p-1))
			}
			for range 1000 {
				a, w := r.Uint64(), r.Uint64N(p)
				got := shoupMul(a, w, shoupQuot(w, p, 64), p)
				require.Less(t, got, 2*p)
				want := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(w))
				want.Mod(want, new(big.Int).SetUint64(p))
				assert.Equal(t, want.Uint64(), got%p)

				x, y := r.Uint64N(2*p), r.Uint64N(2*p)
				m := mt.mul(x, y)
				require.Less(t, m, 2*p)
				// m·2^64 ≡ x·y
				lhs := new(big.Int).Lsh(new(big.Int).SetUint64(m), 64)
				rhs := new(big.Int).Mul(new(big.Int).SetUint64(x), new(big.Int).SetUint64(y))
				assert.Zero(t, lhs.Sub(lhs, rhs).Mod(lhs, new(big.Int).SetUint64(p)).Sign())
			}
		}
	}
}

// TestWideSum checks the three-word dot product against math/big, with
// all-ones limbs and weights p−1 to carry into the third word.
func TestWideSum(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	for _, f := range []*primeFamily{primes62, primes50} {
		p := f.get(3)[2].p
		d := newWideDot(p)
		for _, n := range []int{1, 6, 17, 64} {
			for trial := range 20 {
				l, w := make([]uint64, n), make([]uint64, 2*n)
				want := new(big.Int)
				for i := range l {
					l[i], w[2*i] = r.Uint64(), r.Uint64N(p)
					if trial == 0 {
						l[i], w[2*i] = ^uint64(0), p-1
					}
					want.Add(want, new(big.Int).Mul(new(big.Int).SetUint64(l[i]), new(big.Int).SetUint64(w[2*i])))
				}
				got := wideSum(&d, l, w, p)
				require.Less(t, got, 2*p)
				assert.Equal(t, want.Mod(want, new(big.Int).SetUint64(p)).Uint64(), got%p)
			}
		}
	}
}

// TestTwiddles checks the tables against the definition Z[b] = ω^brv(b)
// and that a shorter length's table is a prefix of a longer one's.
func TestTwiddles(t *testing.T) {
	for _, ks := range implKernels {
		q := ks.family.get(2)[1]
		long := newTwiddles(q, ks.family.maxLog, 10, ks.shoupShift, false)
		for _, logN := range []int{1, 2, 5, 10} {
			tw := newTwiddles(q, ks.family.maxLog, logN, ks.shoupShift, false)
			w := q.rootOfUnity(logN, ks.family.maxLog)
			assert.Equal(t, q.p-1, powMod(w, 1<<(logN-1), q.p))
			for b := range 1 << (logN - 1) {
				e := uint64(0)
				if logN > 1 {
					e = bits.Reverse64(uint64(b)) >> (64 - (logN - 1))
				}
				z := powMod(w, e, q.p)
				require.Equal(t, z, tw.fwd[2*b], "%s logN %d b %d", ks.name, logN, b)
				require.Equal(t, shoupQuot(z, q.p, ks.shoupShift), tw.fwd[2*b+1])
				require.Equal(t, invMod(z, q.p), tw.inv[2*b])
				require.Equal(t, shoupQuot(tw.inv[2*b], q.p, ks.shoupShift), tw.inv[2*b+1])
			}
			testutil.RequireEqualSlices(t, tw.fwd, long.fwd[:len(tw.fwd)], "prefix")
			// The structure-of-arrays layout holds the same pairs.
			soa := newTwiddles(q, ks.family.maxLog, logN, ks.shoupShift, true)
			h := len(tw.fwd) / 2
			for b := range h {
				require.Equal(t, tw.fwd[2*b:2*b+2], []uint64{soa.fwd[b], soa.fwd[h+b]})
				require.Equal(t, tw.inv[2*b:2*b+2], []uint64{soa.inv[b], soa.inv[h+b]})
			}
		}
	}
}

// TestConvolve checks each implementation's transforms through their
// only use: convolve must give the cyclic convolution modulo each prime,
// computed naively, for every length up to the two-phase ones, inputs
// anywhere in [0, 4p) and squaring.
func TestConvolve(t *testing.T) {
	maxLog := 14
	if testing.Short() {
		maxLog = 13
	}
	forEachPath(t, func(t *testing.T) {
		ks := activeKernels()
		r := rand.New(rand.NewPCG(10, 10))
		for logN := 0; logN <= maxLog; logN++ {
			pl, err := newPlan(ks, 100, logN, 2)
			require.NoError(t, err)
			n := 1 << logN
			// Inputs of n elements; then, where convolve takes a second
			// half as zero without reading it (two phases), inputs of
			// n/2 with garbage after them.
			for _, in := range []int{n, n / 2} {
				if in < n && pl.inputEnd(in) == n {
					continue
				}
				ra, rb, _ := pl.residueBuffers(false)
				for i, q := range pl.primes {
					for j := range n {
						ra[i][j] = r.Uint64N(4 * q.p)
						rb[i][j] = r.Uint64N(4 * q.p)
					}
				}
				a0, b0 := clone2(ra), clone2(rb)
				for i := range a0 {
					clear(a0[i][in:])
					clear(b0[i][in:])
				}
				pl.convolve(ra, rb, in, in)
				sq, _, _ := pl.residueBuffers(true)
				for i := range sq {
					copy(sq[i], ra[i]) // garbage past in
					copy(sq[i], a0[i][:in])
				}
				pl.convolve(sq, nil, in, 0)
				checkConvolve(t, pl, ra, sq, a0, b0, r)
			}
		}
	})
}

// checkConvolve checks ra and sq, convolve's products of a0 by b0 and of
// a0 by itself, at a few indices.
func checkConvolve(t *testing.T, pl *plan, ra, sq, a0, b0 [][]uint64, r *rand.Rand) {
	t.Helper()
	n := 1 << pl.logN
	us := pl.outScale()
	checked := []int{0, n - 1, r.IntN(n), r.IntN(n)}
	for i, q := range pl.primes {
		s := pl.scaleB[i] // the scale the caller folds into b
		for _, j := range checked {
			want := naiveCyclic(a0[i], b0[i], j, q.p)
			got := mulMod(ra[i][j]%q.p, s, q.p)
			require.Equal(t, want, got, "%s N=2^%d prime %d index %d", activeKernels().name, pl.logN, i, j)
			wantSq := naiveCyclic(a0[i], a0[i], j, q.p)
			gotSq := shoupMul(sq[i][j], us[2*i], us[2*i+1], q.p) % q.p
			require.Equal(t, wantSq, gotSq, "square")
		}
		for j := range n {
			require.Less(t, ra[i][j], 2*q.p)
		}
	}
}

func clone2(x [][]uint64) [][]uint64 {
	out := make([][]uint64, len(x))
	for i := range x {
		out[i] = append([]uint64(nil), x[i]...)
	}
	return out
}

// naiveCyclic returns Σ_i a[i]·b[(j−i) mod n] mod p.
func naiveCyclic(a, b []uint64, j int, p uint64) uint64 {
	n := len(a)
	var s uint64
	for i := range n {
		s = (s + mulMod(a[i]%p, b[((j-i)%n+n)%n]%p, p)) % p
	}
	return s
}

// TestCRT compares Garner's reconstruction with math/big's on random
// residues, including 0 and M − 1, for one to many primes.
func TestCRT(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	for _, f := range []*primeFamily{primes62, primes50} {
		for _, k := range []int{1, 2, 3, 7, 40} {
			c := newCRTPlan(f.get(k), f.garnerStep)
			m := new(big.Int).SetInt64(1)
			for _, p := range c.p {
				m.Mul(m, new(big.Int).SetUint64(p))
			}
			half := new(big.Int).Rsh(m, 1)
			// One block of crtBlock − 3 values (the vector kernels and their
			// scalar tail), then single ones.
			for _, n := range []int{crtBlock - 3, 1, 1, 1} {
				vs := make([]*big.Int, n)
				res := make([][]uint64, k)
				for i := range res {
					res[i] = make([]uint64, n)
				}
				for trial := range n {
					v := new(big.Int).Rand(r2rand(r), m)
					switch trial {
					case 0:
						v.SetInt64(0)
					case 1:
						v.Sub(m, big.NewInt(1))
					case 2:
						v.Set(half)
					case 3:
						v.Add(half, big.NewInt(1))
					}
					vs[trial] = v
					for i, p := range c.p {
						res[i][trial] = new(big.Int).Mod(v, new(big.Int).SetUint64(p)).Uint64()
						if trial%2 == 0 {
							res[i][trial] += p // lazy residues in [p, 2p) are accepted
						}
					}
				}
				s := c.newScratch()
				c.digitsBlock(res, 0, n, nil, s)
				for j, v := range vs {
					l, neg := c.coeff(s, j, false)
					assert.False(t, neg)
					require.Zero(t, v.Cmp(new(big.Int).SetBits(limbWords(s.x[:l]))), "k=%d j=%d", k, j)
					l, neg = c.coeff(s, j, true)
					got := new(big.Int).SetBits(limbWords(s.x[:l]))
					want := new(big.Int).Set(v)
					if v.Cmp(half) > 0 {
						want.Sub(m, v)
					}
					assert.Equal(t, v.Cmp(half) > 0, neg)
					require.Zero(t, want.Cmp(got))
				}
			}
		}
	}
}

// r2rand adapts math/rand/v2 to the *math/rand.Rand big.Int.Rand needs.
func r2rand(r *rand.Rand) *mrand.Rand { return mrand.New(&randSource{r}) }

type randSource struct{ r *rand.Rand }

func (s *randSource) Int63() int64 { return int64(s.r.Uint64() >> 1) }
func (s *randSource) Seed(int64)   {}

// TestScatter checks each kernel set's scatter (non-temporal stores on
// IFMA) against gatherCols: a scratch block written back into rows of a
// longer vector, at an aligned start and at a misaligned one (the plain
// copy), leaving the other columns alone.
func TestScatter(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		ks := activeKernels()
		r := rand.New(rand.NewPCG(21, 21))
		const stride, rows = 256, 9
		// a0: the first 64-byte aligned element of x.
		x0 := make([]uint64, 8+colBlock+rows*stride)
		a0 := int((64 - uintptr(unsafe.Pointer(&x0[0]))%64) % 64 / 8)
		for _, off := range []int{a0, a0 + colBlock, a0 + 1, a0 + 3} {
			x := x0[:off+rows*stride]
			for i := range x {
				x[i] = r.Uint64()
			}
			s := make([]uint64, rows*colBlock)
			for i := range s {
				s[i] = r.Uint64()
			}
			want := append([]uint64(nil), x...)
			for row := range rows {
				copy(want[off+row*stride:off+row*stride+colBlock], s[row*colBlock:])
			}
			ks.scatter(x[off:], s, stride, rows)
			require.Equal(t, want, x, "%s offset %d", ks.name, off)
			back := make([]uint64, len(s))
			gatherCols(back, x[off:], stride, rows)
			assert.Equal(t, s, back)
		}
	})
}

// TestSumDigits checks each kernel set's sumDigits against sums of
// mulMod products, for 1 … 13 digits of its width (all ones among them),
// lengths with and without a tail past a multiple of 8, and the plan's
// primes.
func TestSumDigits(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		ks := activeKernels()
		r := rand.New(rand.NewPCG(23, 23))
		pl, err := newPlan(ks, 300, 4, 1)
		require.NoError(t, err)
		mask := ^uint64(0) >> (64 - ks.digitBits)
		for _, n := range []int{1, 8, 13, 64, 67} {
			for pieces := 1; pieces <= 13; pieces++ {
				dg := make([]uint64, n*pieces)
				for i := range dg {
					dg[i] = r.Uint64() & mask
					if r.IntN(4) == 0 {
						dg[i] = mask
					}
				}
				pw := pl.digitPowers(pieces, int(ks.digitBits), pl.scaleB)
				for i, q := range pl.primes {
					d := make([]uint64, n)
					ks.sumDigits(d, dg, pw[i], q.p)
					for j := range n {
						var want uint64
						for l := range pieces {
							want = (want + mulMod(dg[l*n+j]%q.p, pw[i][2*l], q.p)) % q.p
						}
						require.Less(t, d[j], 4*q.p)
						require.Equal(t, want, d[j]%q.p, "%s n %d pieces %d prime %d j %d", ks.name, n, pieces, i, j)
					}
				}
			}
		}
	})
}

// TestAdviseHuge runs the huge-page advice on buffers too small for it and
// on a large one from a misaligned start: it changes no data.
func TestAdviseHuge(t *testing.T) {
	adviseHuge(nil)
	adviseHuge(make([]uint64, 3))
	b := make([]uint64, 5<<20/8+3)
	for i := range b {
		b[i] = uint64(i)
	}
	adviseHuge(b[3:])
	adviseHuge(b)
	for i := range b {
		require.Equal(t, uint64(i), b[i])
	}
}
