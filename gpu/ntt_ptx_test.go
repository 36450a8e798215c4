package gpu

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"

	"github.com/gfpoly/gfpoly/cuda"
)

// ptxBlock returns the instructions of the asm block between "// BEGIN PTX
// name" and "// END PTX name" in cuda/ntt_prime.cu.
func ptxBlock(t *testing.T, name string) []string {
	t.Helper()
	src, err := cuda.Sources.ReadFile("ntt_prime.cu")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	a := strings.Index(s, "// BEGIN PTX "+name+"\n")
	b := strings.Index(s, "// END PTX "+name+"\n")
	if a < 0 || b < a {
		t.Fatalf("no PTX block %s", name)
	}
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
// with the carry flag, mul.lo/hi, mov, and, shr.s32, setp.ne, selp) with operands %0..%n
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
				t.Fatalf("immediate %q: %v", s, err)
			}
			return uint32(v)
		}
		v, ok := reg[s]
		if !ok {
			t.Fatalf("read of unset register %s", s)
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
				t.Fatalf("unset predicate %s", args[3])
			}
			if p {
				r = uint64(val(args[1]))
			} else {
				r = uint64(val(args[2]))
			}
		default:
			t.Fatalf("unknown instruction %q", ins)
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

// TestBN254PTX checks the 32-bit-limb BN254 blocks of cuda/ntt_prime.cu
// (the four-step passes' field) against gnark-crypto's fr on random,
// extreme and Montgomery-edge values.
func TestBN254PTX(t *testing.T) {
	mul, add, sub := ptxBlock(t, "bn254_mul"), ptxBlock(t, "bn254_add"), ptxBlock(t, "bn254_sub")
	r := rand.New(rand.NewPCG(1, 2))
	var qm1, one, two fr.Element
	qm1.SetInt64(-1)
	one.SetOne()
	two.SetUint64(2)
	edge := []fr.Element{{}, {1}, qm1, one, two, {0, 0, 0, 0x30644e72e131a029}, {0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff, 0x30644e72e131a028}}
	n := 2000
	if testing.Short() {
		n = 300
	}
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
				{"add", add, func(z *fr.Element) *fr.Element { return z.Add(&x, &y) }},
				{"sub", sub, func(z *fr.Element) *fr.Element { return z.Sub(&x, &y) }},
			} {
				ops := make([]uint32, 24)
				copy(ops[8:], limbs32(x))
				copy(ops[16:], limbs32(y))
				got := runPTX(t, c.prog, ops)[:8]
				var z fr.Element
				if want := limbs32(*c.want(&z)); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s(%v, %v): PTX %x, fr %x", c.name, x, y, got, want)
				}
			}
		}
	}
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
	var edge []uint64
	for _, c := range []uint64{0, 1 << 32, 1 << 63, p, 0xffffffff} {
		for d := uint64(0); d < 3; d++ {
			edge = append(edge, c+d, c-d-1)
		}
	}
	edge = append(edge, p-2, 0xfffffffffffffffe, 0xffffffff<<32, 0xfffffffeffffffff, 0x100000000ffffffff>>1)
	r := rand.New(rand.NewPCG(3, 4))
	vals := slices.Clone(edge)
	n := 4000
	if testing.Short() {
		n = 500
	}
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
			if got := run(k.prog, a, b); mod(0, got) != k.want {
				t.Fatalf("%s(%#x, %#x) = %#x ≡ %#x, want %#x", k.name, a, b, got, mod(0, got), k.want)
			}
		}
	}
	for _, a := range vals {
		if got := run(canon, a, 0); got != mod(0, a) {
			t.Fatalf("canon(%#x) = %#x, want %#x", a, got, mod(0, a))
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
