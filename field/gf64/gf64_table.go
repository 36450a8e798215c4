package gf64

// Multiplication by a fixed constant in pure Go. Multiplying by c is GF(2)-
// linear in the other operand, so a·c is the XOR of the products of c with the
// eight bytes of a, which can be looked up in tables built once per
// constant. The generic by-constant vector functions (ScaleVec, MulAddVec,
// Butterfly, InvButterfly) use them once a vector is long enough to pay for
// the tables; the assembly paths do not (a carry-less multiplication
// instruction is faster than eight loads).

// byteTable holds t[k][j] = j·x^(8k)·c for every byte value j and byte
// position k: 16 KiB, built with 2048 XORs.
type byteTable [8][256]Element

// byteTableMin is the shortest vector for which building a byteTable (about
// 1.7 µs) pays: BenchmarkConstTables measures the cross-over, near 100
// elements on the development machine. Nibble tables (2 KiB, 16 lookups per
// product) were measured too and lost to the general multiplication at
// every length.
const byteTableMin = 128

// mulX8 returns a·x^8.
func mulX8(a Element) Element {
	t := uint64(a) >> 56
	// t·x^64 = t·(x^4 + x^3 + x + 1), at most 12 bits: no second step.
	return Element(uint64(a)<<8 ^ t ^ t<<1 ^ t<<3 ^ t<<4)
}

// mulX returns a·x.
func mulX(a Element) Element {
	t := uint64(a) >> 63
	return Element(uint64(a)<<1 ^ t*Poly)
}

func (t *byteTable) init(c Element) {
	base := c
	for k := range t {
		row := &t[k]
		row[0] = 0
		b := base
		for bit := 1; bit < 256; bit <<= 1 {
			row[bit] = b
			for j := 1; j < bit; j++ {
				row[bit|j] = b ^ row[j]
			}
			b = mulX(b)
		}
		base = mulX8(base)
	}
}

func (t *byteTable) mul(a Element) Element {
	return t[0][uint8(a)] ^ t[1][uint8(a>>8)] ^ t[2][uint8(a>>16)] ^ t[3][uint8(a>>24)] ^
		t[4][uint8(a>>32)] ^ t[5][uint8(a>>40)] ^ t[6][uint8(a>>48)] ^ t[7][uint8(a>>56)]
}
