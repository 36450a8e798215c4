package primentt

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// ptxBlock returns the instructions of the asm block between "// BEGIN PTX
// name" and "// END PTX name" in the BN254 NTT program (which holds every
// field's arithmetic).
func ptxBlock(t *testing.T, name string) []string {
	t.Helper()
	s, err := cuda.Program(cuda.NTTProgram("bn254"))
	require.NoError(t, err)
	a := strings.Index(s, "// BEGIN PTX "+name+"\n")
	b := strings.Index(s, "// END PTX "+name+"\n")
	require.True(t, a >= 0 && b > a, "no PTX block %s", name)
	var out []string
	for _, line := range strings.Split(s[a:b], "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, ":") {
			break
		}
		if !strings.HasPrefix(line, `"`) {
			continue
		}
		ins := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(line, `"`), `\n\t`), ";")
		if ins == "{" || ins == "}" || ins == `{\n\t` || strings.HasPrefix(ins, ".reg") {
			continue
		}
		out = append(out, ins)
	}
	return out
}

// runPTX interprets the 32-bit integer PTX the generator emits (add/sub/mad
// with the carry flag, mul.lo/hi, mov, and, shl, shr, shf.l.clamp, setp.ne, selp) with operands %0..%n
// bound to ops; it returns the operands after the block.
func runPTX(t *testing.T, prog []string, ops []uint32) []uint32 {
	reg := map[string]uint32{}
	pred := map[string]bool{}
	var cf uint32
	val := func(s string) uint32 {
		if s[0] == '%' {
			i, _ := strconv.Atoi(s[1:])
			return ops[i]
		}
		if s[0] >= '0' && s[0] <= '9' {
			v, err := strconv.ParseUint(s, 0, 32)
			if err != nil {
				require.NoError(t, err, "immediate %q", s)
			}
			return uint32(v)
		}
		v, ok := reg[s]
		if !ok {
			require.FailNow(t, "read of unset register "+s)
		}
		return v
	}
	set := func(s string, v uint32) {
		if s[0] == '%' {
			i, _ := strconv.Atoi(s[1:])
			ops[i] = v
			return
		}
		reg[s] = v
	}
	for _, ins := range prog {
		sp := strings.IndexByte(ins, ' ')
		op, args := ins[:sp], strings.Split(ins[sp+1:], ", ")
		cin := uint64(0)
		if strings.Contains(op, "addc") || strings.Contains(op, "subc") || strings.HasPrefix(op, "madc") {
			cin = uint64(cf)
		}
		writeCC := strings.Contains(op, ".cc.")
		var r uint64
		switch {
		case strings.HasPrefix(op, "add"):
			r = uint64(val(args[1])) + uint64(val(args[2])) + cin
		case strings.HasPrefix(op, "sub"):
			r = uint64(val(args[1])) - uint64(val(args[2])) - cin
		case strings.HasPrefix(op, "mad"):
			p := uint64(val(args[1])) * uint64(val(args[2]))
			if strings.Contains(op, ".hi") {
				p >>= 32
			} else {
				p &= 0xffffffff
			}
			r = p + uint64(val(args[3])) + cin
		case op == "shr.s32":
			r = uint64(uint32(int32(val(args[1])) >> (val(args[2]) & 31)))
		case op == "shl.b32":
			r = uint64(val(args[1]) << min(val(args[2]), 32))
		case op == "shr.u32":
			r = uint64(val(args[1]) >> min(val(args[2]), 32))
		case op == "shf.l.clamp.b32": // high word of (b:a) << min(c, 32)
			r = (uint64(val(args[2]))<<32 | uint64(val(args[1]))) << min(val(args[3]), 32) >> 32 & 0xffffffff
		case op == "mul.lo.u32":
			r = uint64(val(args[1]) * val(args[2]))
		case op == "mul.hi.u32":
			r = uint64(val(args[1])) * uint64(val(args[2])) >> 32
		case op == "mov.u32":
			r = uint64(val(args[1]))
		case op == "and.b32":
			r = uint64(val(args[1]) & val(args[2]))
		case op == "setp.ne.u32":
			pred[args[0]] = val(args[1]) != val(args[2])
			continue
		case op == "selp.b32":
			p, ok := pred[args[3]]
			if !ok {
				require.FailNow(t, "unset predicate "+args[3])
			}
			if p {
				r = uint64(val(args[1]))
			} else {
				r = uint64(val(args[2]))
			}
		default:
			require.FailNow(t, fmt.Sprintf("unknown instruction %q", ins))
		}
		if writeCC {
			cf = uint32(r>>32) & 1 // carry out, or borrow out for sub
		}
		set(args[0], uint32(r))
	}
	return ops
}

func limbs32(e fr.Element) []uint32 {
	out := make([]uint32, 8)
	for i, l := range e {
		out[2*i], out[2*i+1] = uint32(l), uint32(l>>32)
	}
	return out
}

// TestBN254PTX checks the 32-bit-limb BN254 Montgomery product of
// cuda/ntt_prime.cu (coset powers and 1/n in the four-step passes) against
// gnark-crypto's fr on random, extreme and Montgomery-edge values.
func TestBN254PTX(t *testing.T) {
	mul := ptxBlock(t, "bn254_mul")
	r := rand.New(rand.NewPCG(1, 2))
	var qm1, one, two fr.Element
	qm1.SetInt64(-1)
	one.SetOne()
	two.SetUint64(2)
	edge := []fr.Element{{}, {1}, qm1, one, two, {0, 0, 0, 0x30644e72e131a029}, {0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x30644e72e131a028}}
	n := testutil.Sweep(300, 300, 2000)
	vals := append([]fr.Element(nil), edge...)
	for range n {
		vals = append(vals, fr.Element{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64N(0x30644e72e131a029)})
	}
	for i, x := range vals {
		for j := range 8 {
			y := vals[(i*7+j*131)%len(vals)]
			if i < len(edge) {
				y = vals[j%len(edge)]
			}
			for _, c := range []struct {
				name string
				prog []string
				want func(z *fr.Element) *fr.Element
			}{
				{"mul", mul, func(z *fr.Element) *fr.Element { return z.Mul(&x, &y) }},
			} {
				ops := make([]uint32, 24)
				copy(ops[8:], limbs32(x))
				copy(ops[16:], limbs32(y))
				got := runPTX(t, c.prog, ops)[:8]
				var z fr.Element
				require.Equal(t, limbs32(*c.want(&z)), got, "%s(%v, %v): PTX against fr", c.name, x, y)
			}
		}
	}
}

var bn254Q, _ = new(big.Int).SetString("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16)

func bigLimbs32(x *big.Int) []uint32 {
	out := make([]uint32, 8)
	w := new(big.Int).Set(x)
	m := big.NewInt(0xffffffff)
	for i := range out {
		out[i] = uint32(new(big.Int).And(w, m).Uint64())
		w.Rsh(w, 32)
	}
	return out
}

func limbsBig32(l []uint32) *big.Int {
	x := new(big.Int)
	for i := len(l) - 1; i >= 0; i-- {
		x.Lsh(x, 32)
		x.Or(x, big.NewInt(int64(l[i])))
	}
	return x
}

// TestBN254LazyPTX checks the blocks of the lazily reduced BN254 four-step
// passes against math/big: Shoup's product by a constant (any 256-bit a, w
// < q, ws = floor(w·2^256/q): a·w mod q, below 2q), addition and subtraction
// modulo 2q and a − b + 2q (operands below 2q), the reduction from [0, 2q)
// to [0, q), and
// the Montgomery product with its first operand in [q, 2q) (coset powers
// and 1/n on lazily reduced values).
func TestBN254LazyPTX(t *testing.T) {
	shoup, ladd, lsub := ptxBlock(t, "bn254_shoup"), ptxBlock(t, "bn254_ladd"), ptxBlock(t, "bn254_lsub")
	canon, mul, sub2q := ptxBlock(t, "bn254_canon"), ptxBlock(t, "bn254_mul"), ptxBlock(t, "bn254_sub2q")
	q := bn254Q
	q2 := new(big.Int).Lsh(q, 1)
	top := new(big.Int).Lsh(big.NewInt(1), 256)
	rinv := new(big.Int).ModInverse(new(big.Int).Mod(top, q), q)
	r := rand.New(rand.NewPCG(3, 4))
	below := func(m *big.Int) *big.Int {
		b := make([]byte, 33)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return new(big.Int).Mod(new(big.Int).SetBytes(b), m)
	}
	sub1 := func(x *big.Int) *big.Int { return new(big.Int).Sub(x, big.NewInt(1)) }
	edges := func(m *big.Int) []*big.Int {
		out := []*big.Int{big.NewInt(0), big.NewInt(1), sub1(q), new(big.Int).Set(q), sub1(m)}
		if m.Cmp(q2) >= 0 {
			out = append(out, new(big.Int).Add(q, big.NewInt(1)), sub1(q2))
		}
		var keep []*big.Int
		for _, x := range out {
			if x.Cmp(m) < 0 {
				keep = append(keep, x)
			}
		}
		return keep
	}
	n := testutil.Sweep(400, 400, 3000)
	pick := func(i int, m *big.Int) *big.Int {
		if e := edges(m); i < len(e)*len(e) {
			return e[i%len(e)]
		}
		return below(m)
	}
	pick2 := func(i int, m *big.Int) *big.Int {
		if e := edges(m); i < len(e)*len(e) {
			return e[i/len(e)]
		}
		return below(m)
	}
	run := func(prog []string, args ...*big.Int) *big.Int {
		ops := make([]uint32, 8*(len(args)+1))
		for k, a := range args {
			copy(ops[8*(k+1):], bigLimbs32(a))
		}
		return limbsBig32(runPTX(t, prog, ops)[:8])
	}
	mod := func(x *big.Int) *big.Int { return new(big.Int).Mod(x, q) }
	for i := range n {
		// Shoup: a any 256-bit value, w < q.
		a, w := pick(i, top), pick2(i, q)
		ws := new(big.Int).Div(new(big.Int).Lsh(w, 256), q)
		got := run(shoup, a, w, ws)
		require.True(t, got.Cmp(q2) < 0 && mod(got).Cmp(mod(new(big.Int).Mul(a, w))) == 0, "shoup(%x, %x) = %x", a, w, got)
		// lazy add, sub, canon: operands below 2q.
		a, b := pick(i, q2), pick2(i, q2)
		got = run(ladd, a, b)
		require.True(t, got.Cmp(q2) < 0 && mod(got).Cmp(mod(new(big.Int).Add(a, b))) == 0, "ladd(%x, %x) = %x", a, b, got)
		got = run(lsub, a, b)
		require.True(t, got.Cmp(q2) < 0 && mod(got).Cmp(mod(new(big.Int).Sub(a, b))) == 0, "lsub(%x, %x) = %x", a, b, got)
		got = run(sub2q, a, b)
		require.Zero(t, got.Cmp(new(big.Int).Add(new(big.Int).Sub(a, b), q2)), "sub2q(%x, %x) = %x", a, b, got)
		got = run(canon, a)
		require.Zero(t, got.Cmp(mod(a)), "canon(%x) = %x", a, got)
		// Montgomery product, a below 2q, b below q: canonical a·b/R.
		b = pick2(i, q)
		want := mod(new(big.Int).Mul(new(big.Int).Mul(a, b), rinv))
		got = run(mul, a, b)
		require.Zero(t, got.Cmp(want), "mul(%x, %x) = %x, want %x", a, b, got, want)
	}
}

// TestBN254ShoupK checks the first part of the Shoup table each size takes:
// every pass of its plans but the top one above 2^18 finds its twist in one
// entry.
func TestBN254ShoupK(t *testing.T) {
	f := nttFields["bn254"]
	want := map[int]int{12: 12, 13: 13, 16: 16, 17: 17, 18: 18, 19: 16, 22: 16, 24: 16, 25: 17, 26: 18, 27: 18, 28: 16}
	for logn, k := range want {
		plans := [][]nttPass{planFS(logn, f), planWide(logn, f, 132), lonePlans["bn254"][logn], loneNatPlans["bn254"][logn]}
		assert.Equal(t, k, bn254ShoupK(logn, plans...), "2^%d", logn)
		for _, p := range plans {
			for _, s := range p {
				if s.lo+s.nst <= bn254ShoupMaxK {
					assert.LessOrEqual(t, s.lo+s.nst, k, "2^%d: pass %v takes two products", logn, s)
				}
			}
		}
	}
}

// TestBN254ShoupTable checks the constants of the BN254 four-step passes
// and the kernel's choice of them (ntt_bn254_fs: inner twiddles, pass
// twiddles from one or two entries) against powers of the domain's root.
func TestBN254ShoupTable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ logn, k int }{{12, 12}, {17, 17}, {18, 16}, {21, 16}, {26, 18}} {
		logn, k := c.logn, c.k
		if testing.Short() && logn > 18 {
			continue
		}
		// the generator of the order-2^logn subgroup, as NewDomain(2^logn)
		// has it, without the domain's precomputed tables (2^26: gigabytes)
		w, err := bn254fft.Generator(1 << logn)
		require.NoError(t, err, "2^%d: generator", logn)
		tab := bn254ShoupTable(w, logn, k)
		require.Len(t, tab, 2*((1<<k)+(1<<(logn-k))), "2^%d: table", logn)
		// entry x as a plain value, its Shoup companion checked
		entry := func(x int) *big.Int {
			v := limbsBig64(tab[2*x])
			s := limbsBig64(tab[2*x+1])
			require.True(t, v.Cmp(bn254Q) < 0 && s.Cmp(new(big.Int).Div(new(big.Int).Lsh(v, 256), bn254Q)) == 0, "2^%d: entry %d: %x, %x", logn, x, v, s)
			return v
		}
		pow := func(e int) *big.Int {
			var p fr.Element
			p.Exp(w, big.NewInt(int64(e)))
			return p.BigInt(new(big.Int))
		}
		mulq := func(a, b *big.Int) *big.Int { return new(big.Int).Mod(new(big.Int).Mul(a, b), bn254Q) }
		n := 1 << logn
		for range 300 {
			// inner twiddle of stage q, index j: ω_(2^(q+1))^j
			q := r.IntN(8)
			j := r.IntN(1 << q)
			require.Zero(t, entry(j<<(k-1-q)).Cmp(pow(j*(n>>(q+1)))), "2^%d: inner twiddle q=%d j=%d", logn, q, j)
			// pass twiddle ω_M^e, M = 2^(lo+nst), as the kernel reads it
			nst := 5 + r.IntN(4)
			lo := r.IntN(logn - nst + 1)
			e := r.IntN(1 << (lo + nst))
			var got *big.Int
			if lo+nst <= k {
				got = entry(e << (k - lo - nst))
			} else {
				sa := logn - k
				e2 := e << (logn - lo - nst)
				got = mulq(entry(e2>>sa), entry((1<<k)+(e2&(1<<sa-1))))
			}
			require.Zero(t, got.Cmp(pow(e*(n>>(lo+nst)))), "2^%d: pass twiddle lo=%d nst=%d e=%d", logn, lo, nst, e)
		}
	}
}

// TestBN254ShoupNInv checks the pair the inverse's last four-step pass
// multiplies by (ntt_bn254_fs under F_POST_CONST): 1/n in plain form and
// its Shoup companion, and that the PTX product by it turns a Montgomery
// form x·R into (x/n)·R, below 2q, for lazily reduced inputs up to 2q.
func TestBN254ShoupNInv(t *testing.T) {
	shoup := ptxBlock(t, "bn254_shoup")
	r := rand.New(rand.NewPCG(7, 8))
	var sp bn254Shoup
	for _, logn := range []int{12, 20, 28} {
		var ninv fr.Element // a domain's CardinalityInv
		ninv.SetUint64(1 << logn)
		ninv.Inverse(&ninv)
		w, ws := sp.pair(ninv)
		v, s := limbsBig64(w), limbsBig64(ws)
		n := big.NewInt(1 << logn)
		require.Equal(t, int64(1), new(big.Int).Mod(new(big.Int).Mul(v, n), bn254Q).Int64(), "2^%d: 1/n", logn)
		require.Zero(t, s.Cmp(new(big.Int).Div(new(big.Int).Lsh(v, 256), bn254Q)), "2^%d: companion", logn)
		q2 := new(big.Int).Lsh(bn254Q, 1)
		for i := range 200 {
			b := make([]byte, 33)
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			a := new(big.Int).Mod(new(big.Int).SetBytes(b), q2)
			if i == 0 {
				a.Sub(q2, big.NewInt(1)) // the largest lazily reduced value
			}
			ops := make([]uint32, 32)
			copy(ops[8:], bigLimbs32(a))
			copy(ops[16:], bigLimbs32(v))
			copy(ops[24:], bigLimbs32(s))
			got := limbsBig32(runPTX(t, shoup, ops)[:8])
			want := new(big.Int).Mod(new(big.Int).Mul(a, v), bn254Q)
			require.True(t, got.Cmp(q2) < 0 && new(big.Int).Mod(got, bn254Q).Cmp(want) == 0, "2^%d: shoup(%x, 1/n) = %x", logn, a, got)
		}
	}
}

func limbsBig64(e fr.Element) *big.Int {
	x := new(big.Int)
	for i := 3; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(e[i]))
	}
	return x
}

// TestGoldilocksPTX checks the Goldilocks blocks of cuda/ntt_prime.cu, which
// take and return any 64-bit representative (canon: the canonical one),
// against arithmetic mod p on representatives across the whole range: 0,
// p − 1, p..2^64 − 1, values next to 2^32 and 2^63, and random ones
// (canonical and not).
func TestGoldilocksPTX(t *testing.T) {
	const p = 0xffffffff00000001
	mul, add, sub := ptxBlock(t, "goldilocks_mul"), ptxBlock(t, "goldilocks_add"), ptxBlock(t, "goldilocks_sub")
	canon := ptxBlock(t, "goldilocks_canon")
	shl := map[uint][]string{24: ptxBlock(t, "goldilocks_shl24"), 48: ptxBlock(t, "goldilocks_shl48"), 72: ptxBlock(t, "goldilocks_shl72")}
	var edge []uint64
	for _, c := range []uint64{0, 1 << 32, 1 << 63, p, 0xffffffff} {
		for d := uint64(0); d < 3; d++ {
			edge = append(edge, c+d, c-d-1)
		}
	}
	edge = append(edge, p-2, 0xfffffffffffffffe, 0xffffffff<<32, 0xfffffffeffffffff, 0x100000000ffffffff>>1)
	r := rand.New(rand.NewPCG(3, 4))
	vals := slices.Clone(edge)
	n := testutil.Sweep(500, 500, 4000)
	for i := range n {
		v := r.Uint64()
		if i%2 == 0 {
			v = r.Uint64N(p)
		} else if i%8 == 1 {
			v = p + r.Uint64N(1<<32-1) // not canonical
		}
		vals = append(vals, v)
	}
	mod := func(hi, lo uint64) uint64 { return bits.Rem64(hi, lo, p) }
	run := func(prog []string, a, b uint64) uint64 {
		ops := runPTX(t, prog, []uint32{0, 0, uint32(a), uint32(a >> 32), uint32(b), uint32(b >> 32)})
		return uint64(ops[1])<<32 | uint64(ops[0])
	}
	check := func(a, b uint64) {
		hi, lo := bits.Mul64(a, b)
		s, c := bits.Add64(a, b, 0)
		ma, mb := mod(0, a), mod(0, b)
		diff := ma - mb
		if ma < mb {
			diff = ma + (p - mb)
		}
		for _, k := range []struct {
			name string
			prog []string
			want uint64
		}{
			{"mul", mul, mod(hi, lo)},
			{"add", add, mod(c, s)},
			{"sub", sub, diff},
		} {
			got := run(k.prog, a, b)
			require.Equal(t, k.want, mod(0, got), "%s(%#x, %#x) = %#x", k.name, a, b, got)
		}
	}
	checkShl := func(a uint64) {
		for sh, prog := range shl {
			want := new(big.Int).Lsh(new(big.Int).SetUint64(a), sh)
			want.Mod(want, new(big.Int).SetUint64(p))
			got := run(prog, a, 0)
			require.Equal(t, want.Uint64(), mod(0, got), "shl%d(%#x) = %#x", sh, a, got)
		}
	}
	for _, a := range vals {
		require.Equal(t, mod(0, a), run(canon, a, 0), "canon(%#x)", a)
		checkShl(a)
	}
	// shifts of a near the carries of the shifted limbs: (2^32 − d)·2^k,
	// 2^k ± d, 2^64 − 2^k ± d
	for k := range uint(64) {
		for d := uint64(0); d < 4; d++ {
			for _, a := range []uint64{(1<<32 - d) << k, 1<<k + d, 1<<k - d, -(uint64(1) << k) + d, -(uint64(1) << k) - d} {
				checkShl(a)
			}
		}
	}
	for _, a := range edge {
		for _, b := range vals {
			check(a, b)
			check(b, a)
		}
	}
	for i, a := range vals {
		for j := range 4 {
			check(a, vals[(i*7+j*131)%len(vals)])
		}
	}
}
