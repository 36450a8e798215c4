// Command bn254shoup writes the PTX block bn254_shoup of cuda/ntt_bn254.cu
// (a Shoup product a·w mod q, result below 2q) with the rows of its two
// products spread over groups of even/odd accumulators: -q groups the rows
// of floor(a·ws/2^256), -l the rows of Q·(2^256 − q), ';' between groups
// (the defaults, one group each, are the block's design). Measured on an
// H200 (BENCHMARKS.md, "BN254's 1/n by a Shoup product..."): every split
// was slower, so the block stays; this is kept in history to rerun that.
// Paste its output between the BEGIN/END PTX bn254_shoup markers and run
// TestBN254LazyPTX, which interprets the block against math/big.
package main

import (
	"flag"
	"fmt"
	"math/big"
	"os"
	"strings"
)

var (
	qGroups = flag.String("q", "0,1,2,3,4,5,6,7", "row groups of the Q phase, ';' separated")
	lGroups = flag.String("l", "0,1,2,3,4,5,6,7", "row groups of Q*c, ';' separated (group 0 continues on a*w)")
)

type gen struct {
	out  []string
	regs []string
}

func (g *gen) e(f string, a ...any) { g.out = append(g.out, fmt.Sprintf(f, a...)) }

// term: word (lo or hi of x*y) at column col
type term struct {
	x, y string
	hi   bool
	col  int
}

// acc is an accumulator: words base..base+n-1
type acc struct {
	name  string
	base  int
	n     int
	bound *big.Int // value bound (exclusive), of the accumulator's full value (columns from 0)
	mod   bool     // modulo 2^(32*(base+n)): carries past the top are dropped
	used  bool
}

func (a *acc) reg(c int) string { return fmt.Sprintf("%s%d", a.name, c) }

var one = big.NewInt(1)

func pow2(k int) *big.Int { return new(big.Int).Lsh(one, uint(k)) }

// addChain adds a chain of terms at consecutive columns starting at terms[0].col.
func (g *gen) addChain(a *acc, ts []term) {
	if len(ts) == 0 {
		return
	}
	// bound update
	for _, t := range ts {
		a.bound.Add(a.bound, new(big.Int).Lsh(big.NewInt(0xffffffff), uint(32*t.col)))
	}
	top := a.base + a.n - 1
	// how far the carry must go
	need := ts[len(ts)-1].col
	if !a.mod {
		for c := need + 1; c <= top; c++ {
			if a.bound.Cmp(pow2(32*c)) > 0 {
				need = c
			}
		}
	} else {
		need = top
	}
	last := ts[len(ts)-1].col
	if last > top {
		panic("term above accumulator")
	}
	for i, t := range ts {
		if t.col != ts[0].col+i {
			panic("not consecutive")
		}
		op := "mad"
		if i > 0 {
			op = "madc"
		}
		part := "lo"
		if t.hi {
			part = "hi"
		}
		cc := ".cc"
		if t.col == need {
			cc = ""
		}
		g.e("%s.%s%s.u32 %s, %s, %s, %s", op, part, cc, a.reg(t.col), t.x, t.y, a.reg(t.col))
	}
	for c := last + 1; c <= need; c++ {
		cc := ".cc"
		if c == need {
			cc = ""
		}
		g.e("addc%s.u32 %s, %s, 0", cc, a.reg(c), a.reg(c))
	}
	a.used = true
}

// rowChains splits a row's terms into the even and odd chains (by the column of a pair's lo word).
func rowChains(ts []term) (even, odd []term) {
	// pairs: a lo at col c followed by hi at c+1; hi-only terms join the chain whose next word is theirs.
	byCol := map[int][]term{}
	for _, t := range ts {
		byCol[t.col] = append(byCol[t.col], t)
	}
	_ = byCol
	for _, t := range ts {
		start := t.col
		if t.hi {
			start = t.col - 1
		}
		// a hi-only term (no lo partner) at column c: its pair would start at c-1
		if start%2 == 0 {
			even = append(even, t)
		} else {
			odd = append(odd, t)
		}
	}
	return
}

func parseGroups(s string) [][]int {
	var out [][]int
	for _, g := range strings.Split(s, ";") {
		var rows []int
		for _, r := range strings.Split(g, ",") {
			var v int
			fmt.Sscan(r, &v)
			rows = append(rows, v)
		}
		out = append(out, rows)
	}
	return out
}

func limbs(x *big.Int) [8]uint32 {
	var l [8]uint32
	w := new(big.Int).Set(x)
	for i := range l {
		l[i] = uint32(new(big.Int).And(w, big.NewInt(0xffffffff)).Uint64())
		w.Rsh(w, 32)
	}
	return l
}

// sumInto adds b into a (same columns) with a full carry chain over a's words from col from.
func (g *gen) sumInto(a, b *acc, from int) {
	top := a.base + a.n - 1
	for c := from; c <= top; c++ {
		op := "addc.cc"
		if c == from {
			op = "add.cc"
		}
		if c == top {
			if c == from {
				op = "add"
			} else {
				op = "addc"
			}
		}
		g.e("%s.u32 %s, %s, %s", op, a.reg(c), a.reg(c), b.reg(c))
	}
	a.bound.Add(a.bound, b.bound)
}

func main() {
	flag.Parse()
	q, _ := new(big.Int).SetString("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16)
	cnum := new(big.Int).Sub(pow2(256), q)
	cl := limbs(cnum)
	ql := limbs(q)
	A := func(i int) string { return fmt.Sprintf("%%%d", 8+i) }
	W := func(i int) string { return fmt.Sprintf("%%%d", 16+i) }
	WS := func(i int) string { return fmt.Sprintf("%%%d", 24+i) }
	g := &gen{}
	var decl []string

	// Q phase
	qg := parseGroups(*qGroups)
	var qacc []*acc
	for gi := range qg {
		for _, p := range []string{"e", "o"} {
			a := &acc{name: fmt.Sprintf("q%s%d_", p, gi), base: 7, n: 9, bound: new(big.Int)}
			qacc = append(qacc, a)
			decl = append(decl, fmt.Sprintf("%s<16>", a.name))
			for c := 7; c < 16; c++ {
				g.e("mov.u32 %s, 0", a.reg(c))
			}
		}
	}
	// rows interleaved across groups
	maxLen := 0
	for _, r := range qg {
		maxLen = max(maxLen, len(r))
	}
	for k := 0; k < maxLen; k++ {
		for gi, rows := range qg {
			if k >= len(rows) {
				continue
			}
			i := rows[k]
			var ts []term
			for j := 0; j < 8; j++ {
				if i+j == 6 {
					ts = append(ts, term{A(i), WS(j), true, 7})
				} else if i+j >= 7 {
					ts = append(ts, term{A(i), WS(j), false, i + j}, term{A(i), WS(j), true, i + j + 1})
				}
			}
			ev, od := rowChains(ts)
			g.addChain(qacc[2*gi], ev)
			g.addChain(qacc[2*gi+1], od)
		}
	}
	// sum the Q accumulators: pairwise tree into qacc[0]
	list := qacc
	for len(list) > 1 {
		var next []*acc
		for i := 0; i+1 < len(list); i += 2 {
			g.sumInto(list[i], list[i+1], 7)
			next = append(next, list[i])
		}
		if len(list)%2 == 1 {
			next = append(next, list[len(list)-1])
		}
		list = next
	}
	Q := list[0]
	Qw := func(k int) string { return Q.reg(8 + k) }

	// L phase
	lg := parseGroups(*lGroups)
	var lacc []*acc
	for gi := range lg {
		for _, p := range []string{"e", "o"} {
			a := &acc{name: fmt.Sprintf("l%s%d_", p, gi), base: 0, n: 8, bound: new(big.Int), mod: true}
			lacc = append(lacc, a)
			decl = append(decl, fmt.Sprintf("%s<8>", a.name))
		}
	}
	// zero-init the L accumulators
	for _, a := range lacc {
		for c := 0; c < 8; c++ {
			g.e("mov.u32 %s, 0", a.reg(c))
		}
	}
	lowTerms := func(x func(int) string, i int, y func(int) string) []term {
		var ts []term
		for j := 0; i+j < 8; j++ {
			ts = append(ts, term{x(i), y(j), false, i + j})
			if i+j+1 < 8 {
				ts = append(ts, term{x(i), y(j), true, i + j + 1})
			}
		}
		return ts
	}
	// a*w into group 0's accumulators (modular chains end at col 7)
	addMod := func(a *acc, ts []term) {
		if len(ts) == 0 {
			return
		}
		for i, t := range ts {
			op := "mad"
			if i > 0 {
				op = "madc"
			}
			part := "lo"
			if t.hi {
				part = "hi"
			}
			cc := ".cc"
			if t.col == 7 {
				cc = ""
			}
			g.e("%s.%s%s.u32 %s, %s, %s, %s", op, part, cc, a.reg(t.col), t.x, t.y, a.reg(t.col))
		}
		for c := ts[len(ts)-1].col + 1; c <= 7; c++ {
			cc := ".cc"
			if c == 7 {
				cc = ""
			}
			g.e("addc%s.u32 %s, %s, 0", cc, a.reg(c), a.reg(c))
		}
	}
	for i := 0; i < 8; i++ {
		ev, od := rowChains(lowTerms(A, i, W))
		addMod(lacc[0], ev)
		addMod(lacc[1], od)
	}
	cimm := func(j int) string { return fmt.Sprintf("%d", cl[j]) }
	maxLen = 0
	for _, r := range lg {
		maxLen = max(maxLen, len(r))
	}
	for k := 0; k < maxLen; k++ {
		for gi, rows := range lg {
			if k >= len(rows) {
				continue
			}
			kk := rows[k]
			ev, od := rowChains(lowTerms(Qw, kk, cimm))
			addMod(lacc[2*gi], ev)
			addMod(lacc[2*gi+1], od)
		}
	}
	// sum L accumulators mod 2^256
	list = lacc
	for len(list) > 1 {
		var next []*acc
		for i := 0; i+1 < len(list); i += 2 {
			g.sumInto(list[i], list[i+1], 0)
			next = append(next, list[i])
		}
		if len(list)%2 == 1 {
			next = append(next, list[len(list)-1])
		}
		list = next
	}
	L := list[0]
	// conditional subtraction of q: result < 3q -> < 2q
	for c := 0; c < 8; c++ {
		op := "subc.cc"
		if c == 0 {
			op = "sub.cc"
		}
		g.e("%s.u32 se%d, %s, %d", op, c, L.reg(c), ql[c])
	}
	g.e("subc.u32 bw, 0, 0")
	g.e("setp.ne.u32 p, bw, 0")
	for c := 0; c < 8; c++ {
		g.e("selp.b32 %%%d, %s, se%d, p", c, L.reg(c), c)
	}
	decl = append(decl, "se<8>", "bw")

	var b strings.Builder
	b.WriteString("__device__ __forceinline__ void bn254x32_shoup(u32 *r, const u32 *a, const u32 *b, const u32 *c) {\n")
	b.WriteString("    asm(\"{\\n\\t\"\n")
	fmt.Fprintf(&b, "        \".reg .u32 %s;\\n\\t\"\n", strings.Join(decl, ", "))
	b.WriteString("        \".reg .pred p;\\n\\t\"\n")
	for _, l := range g.out {
		fmt.Fprintf(&b, "        \"%s;\\n\\t\"\n", l)
	}
	b.WriteString("        \"}\"\n")
	b.WriteString("        : \"=r\"(r[0]), \"=r\"(r[1]), \"=r\"(r[2]), \"=r\"(r[3]), \"=r\"(r[4]), \"=r\"(r[5]), \"=r\"(r[6]), \"=r\"(r[7])\n")
	b.WriteString("        : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"r\"(a[4]), \"r\"(a[5]), \"r\"(a[6]), \"r\"(a[7]), \"r\"(b[0]), \"r\"(b[1]), \"r\"(b[2]), \"r\"(b[3]), \"r\"(b[4]), \"r\"(b[5]), \"r\"(b[6]), \"r\"(b[7]), \"r\"(c[0]), \"r\"(c[1]), \"r\"(c[2]), \"r\"(c[3]), \"r\"(c[4]), \"r\"(c[5]), \"r\"(c[6]), \"r\"(c[7]));\n")
	b.WriteString("}\n")
	os.Stdout.WriteString(b.String())
	fmt.Fprintf(os.Stderr, "instructions %d\n", len(g.out))
}
