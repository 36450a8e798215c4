package poseidon2

// perm31 is a permutation over BabyBear or KoalaBear on Montgomery words
// (x·2^32 mod p, the form of babybear.Element and koalabear.Element), in
// pure Go. Every word it reads and writes is below p.
type perm31 struct {
	p, ninv, pinv uint32 // the modulus; −p⁻¹ and p⁻¹ mod 2^32
	width, half   int    // state size; R_F/2
	partial, deg  int    // R_P; S-box degree
	hl            bool   // HLMDSMat4 rather than MDSMat4
	ext           []uint32
	intl          []uint32
	diag          []uint32
	kernel        bool     // the 16-lane kernel computes this instance
	kext, kintl   []uint32 // p − c for the round constants c of ext and intl, as the kernels take them
}

func newPerm31(p uint32, deg int, diag, ext, intl []uint32, half int, hl bool) *perm31 {
	inv := p // Newton's iteration for p⁻¹ mod 2^32: each step doubles the correct low bits (p·p ≡ 1 mod 8)
	for range 4 {
		inv *= 2 - p*inv
	}
	k := &perm31{
		p: p, ninv: -inv, pinv: inv, width: len(diag), half: half, partial: len(intl), deg: deg, hl: hl,
		ext: append([]uint32(nil), ext...), intl: append([]uint32(nil), intl...), diag: append([]uint32(nil), diag...),
	}
	k.kernel = kernelFits(k)
	if k.kernel {
		k.kext, k.kintl = negated(k.ext, p), negated(k.intl, p)
	}
	return k
}

// negated returns p − c for each c of cs.
func negated(cs []uint32, p uint32) []uint32 {
	out := make([]uint32, len(cs))
	for i, c := range cs {
		out[i] = p - c
	}
	return out
}

func add31(a, b, p uint32) uint32 {
	r := a + b         // below 2^32: p < 2^31
	return min(r, r-p) // r − p wraps past r when r < p
}

// mul31 is Montgomery's product a·b·2^−32 mod p.
func mul31(a, b, p, ninv uint32) uint32 {
	x := uint64(a) * uint64(b)
	q := uint32(x) * ninv
	r := uint32((x + uint64(q)*uint64(p)) >> 32) // x + q·p < 2^64, ≡ 0 mod 2^32; r < 2p
	return min(r, r-p)
}

func (k *perm31) sbox(x uint32) uint32 {
	p, ni := k.p, k.ninv
	x2 := mul31(x, x, p, ni)
	if k.deg == 3 {
		return mul31(x2, x, p, ni)
	}
	x3 := mul31(x2, x, p, ni)
	x4 := mul31(x2, x2, p, ni)
	return mul31(x3, x4, p, ni)
}

// external multiplies s by circ(2·M4, M4, …, M4).
func (k *perm31) external(s []uint32) {
	p := k.p
	for i := 0; i+4 <= len(s); i += 4 {
		x := (*[4]uint32)(s[i : i+4])
		if k.hl {
			t0 := add31(x[0], x[1], p)
			t1 := add31(x[2], x[3], p)
			t2 := add31(add31(x[1], x[1], p), t1, p)
			t3 := add31(add31(x[3], x[3], p), t0, p)
			t1 = add31(t1, t1, p)
			t4 := add31(add31(t1, t1, p), t3, p)
			t0 = add31(t0, t0, p)
			t5 := add31(add31(t0, t0, p), t2, p)
			x[0], x[1], x[2], x[3] = add31(t3, t5, p), t5, add31(t2, t4, p), t4
			continue
		}
		t01 := add31(x[0], x[1], p)
		t23 := add31(x[2], x[3], p)
		t0123 := add31(t01, t23, p)
		t01123 := add31(t0123, x[1], p)
		t01233 := add31(t0123, x[3], p)
		x[3] = add31(t01233, add31(x[0], x[0], p), p)
		x[1] = add31(t01123, add31(x[2], x[2], p), p)
		x[0] = add31(t01123, t01, p)
		x[2] = add31(t01233, t23, p)
	}
	var c [4]uint32
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			c[j] = add31(c[j], s[i+j], p)
		}
	}
	for i := 0; i+4 <= len(s); i += 4 {
		for j := range 4 {
			s[i+j] = add31(s[i+j], c[j], p)
		}
	}
}

func (k *perm31) full(s, rc []uint32) {
	for i := range s {
		s[i] = k.sbox(add31(s[i], rc[i], k.p))
	}
	k.external(s)
}

// permute is the permutation of one state of width words.
func (k *perm31) permute(s []uint32) {
	s = s[:k.width]
	p, ni, w := k.p, k.ninv, k.width
	diag := k.diag[:w]
	k.external(s)
	for r := range k.half {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
	for _, c := range k.intl {
		s[0] = k.sbox(add31(s[0], c, p))
		var sum uint32
		for _, x := range s {
			sum = add31(sum, x, p)
		}
		for i := range s {
			s[i] = add31(mul31(s[i], diag[i], p, ni), sum, p)
		}
	}
	for r := k.half; r < 2*k.half; r++ {
		k.full(s, k.ext[r*w:(r+1)*w])
	}
}

// lanes holds up to 16 states of width at most 24 transposed: word j of
// the state in lane l is at [j][l].
type lanes [24][16]uint32

// lanes reports whether the 16-lane kernel is on for this instance.
func (k *perm31) lanes() bool { return k.kernel && useKernel }

// permute16 permutes the 16 states of st.
func (k *perm31) permute16(st *lanes) {
	if k.lanes() {
		kernel16(k, st)
		return
	}
	var s [32]uint32
	for l := range 16 {
		for j := range k.width {
			s[j] = st[j][l]
		}
		k.permute(s[:k.width])
		for j := range k.width {
			st[j][l] = s[j]
		}
	}
}

// permuteRows permutes the states laid end to end in s, 16 at a time.
func (k *perm31) permuteRows(s []uint32) {
	w := k.width
	n := len(s) / w
	base := 0
	if w == 16 && k.lanes() {
		for ; base+16 <= n; base += 16 {
			kernelRows16(k, (*[256]uint32)(s[base*16:]))
		}
	}
	var st lanes
	for ; base < n; base += 16 {
		m := min(16, n-base)
		st.gather(s[base*w:], w, 0, w, m)
		k.permute16(&st)
		st.scatter(s[base*w:], w, 0, w, m)
	}
}

// gather sets word j0+j of lane l to src[l·stride+j], for j < n and l < m
// (the rows of src stride words apart).
func (st *lanes) gather(src []uint32, stride, j0, n, m int) {
	j := 0
	if m == 16 && useKernel {
		_ = src[15*stride+n-1]
		for ; j+8 <= n; j += 8 {
			rowsToLanes8((*[8][16]uint32)(st[j0+j:j0+j+8]), &src[j], 4*stride)
		}
	}
	for l := range m {
		for i, v := range src[l*stride+j : l*stride+n] {
			st[j0+j+i][l] = v
		}
	}
}

// scatter is the inverse of gather: dst[l·stride+j] = word j0+j of lane l.
func (st *lanes) scatter(dst []uint32, stride, j0, n, m int) {
	j := 0
	if m == 16 && useKernel {
		_ = dst[15*stride+n-1]
		for ; j+8 <= n; j += 8 {
			lanesToRows8(&dst[j], 4*stride, (*[8][16]uint32)(st[j0+j:j0+j+8]))
		}
	}
	for l := range m {
		row := dst[l*stride+j : l*stride+n]
		for i := range row {
			row[i] = st[j0+j+i][l]
		}
	}
}

// useKernel switches the kernels; it starts as haveKernel (the CPU
// and the build have it) and tests turn it off to run the Go paths.
var useKernel = haveKernel

// kernelFits reports whether the 16-lane kernels compute k: widths 16 and
// 24, MDSMat4, the field's S-box degree (NewWithParams checks it), at
// least one round of each kind, and the internal diagonal the kernels
// have built in, the one of the presets (Plonky3's, which gnark-crypto's
// BabyBear and KoalaBear share).
func kernelFits(k *perm31) bool {
	if (k.width != 16 && k.width != 24) || k.hl || k.half < 1 || k.partial < 1 {
		return false
	}
	f := fieldBabyBear
	if k.p == pKoalaBear {
		f = fieldKoalaBear
	}
	for i, v := range plonky3Table(f, k.width).diag {
		if k.diag[i] != uint32(v<<32%uint64(k.p)) {
			return false
		}
	}
	return true
}
