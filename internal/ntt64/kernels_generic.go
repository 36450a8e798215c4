package ntt64

// The generic kernels: the reference the assembly kernels are tested
// against, and the code the transforms run where there is no assembly. Every
// kernel takes canonical values (< P) and leaves canonical values.
//
// tw is a twiddle table (twiddleSet.r2): tw[m+j] = ω_{2m}^j for the stage of
// half-size m (blocks of 2m elements), 0 ≤ j < m. The radix-4 kernels also
// take twiddleSet.r3, which the generic ones do not need.

// difRadix2Generic runs one decimation-in-frequency stage of half-size m on
// every block of 2m elements of a: (u, v) ← (u + v, (u − v)·ω_{2m}^j).
func difRadix2Generic(a []uint64, m int, tw []uint64) {
	t := tw[m : 2*m]
	for b := 0; b+2*m <= len(a); b += 2 * m {
		x, y := a[b:b+m], a[b+m:b+2*m]
		y, t := y[:len(x)], t[:len(x)]
		for j := range x {
			u, v := x[j], y[j]
			x[j] = add(u, v)
			y[j] = mul(sub(u, v), t[j])
		}
	}
}

// difRadix4Generic runs the two decimation-in-frequency stages of half-sizes
// 2q and q on every block of 4q elements of a, for the columns j0 ≤ j < j1
// of each block: the radix-2 stages fused, so each element is loaded and
// stored once for both.
func difRadix4Generic(a []uint64, q, j0, j1 int, tw, _ []uint64) {
	w2, w2q, w1 := tw[2*q+j0:2*q+j1], tw[3*q+j0:3*q+j1], tw[q+j0:q+j1]
	for b := 0; b+4*q <= len(a); b += 4 * q {
		x0 := a[b+j0 : b+j1]
		x1 := a[b+q+j0 : b+q+j1][:len(x0)]
		x2 := a[b+2*q+j0 : b+2*q+j1][:len(x0)]
		x3 := a[b+3*q+j0 : b+3*q+j1][:len(x0)]
		w2, w2q, w1 := w2[:len(x0)], w2q[:len(x0)], w1[:len(x0)]
		for j := range x0 {
			u0, u1, u2, u3 := x0[j], x1[j], x2[j], x3[j]
			// half-size 2q: (x0, x2) and (x1, x3)
			y0 := add(u0, u2)
			y2 := mul(sub(u0, u2), w2[j])
			y1 := add(u1, u3)
			y3 := mul(sub(u1, u3), w2q[j])
			// half-size q: (y0, y1) and (y2, y3)
			w := w1[j]
			x0[j] = add(y0, y1)
			x1[j] = mul(sub(y0, y1), w)
			x2[j] = add(y2, y3)
			x3[j] = mul(sub(y2, y3), w)
		}
	}
}

// difTailGeneric runs the last three decimation-in-frequency stages
// (half-sizes 4, 2, 1) on every block of 8 elements of a (len(a) a multiple
// of 8).
func difTailGeneric(a []uint64, tw []uint64) {
	w1, w2, w3, w4 := tw[5], tw[6], tw[7], tw[3]
	for b := 0; b+8 <= len(a); b += 8 {
		x := (*[8]uint64)(a[b : b+8])
		// half-size 4
		y0, y4 := add(x[0], x[4]), sub(x[0], x[4])
		y1, y5 := add(x[1], x[5]), mul(sub(x[1], x[5]), w1)
		y2, y6 := add(x[2], x[6]), mul(sub(x[2], x[6]), w2)
		y3, y7 := add(x[3], x[7]), mul(sub(x[3], x[7]), w3)
		// half-size 2
		z0, z2 := add(y0, y2), sub(y0, y2)
		z1, z3 := add(y1, y3), mul(sub(y1, y3), w4)
		z4, z6 := add(y4, y6), sub(y4, y6)
		z5, z7 := add(y5, y7), mul(sub(y5, y7), w4)
		// half-size 1
		x[0], x[1] = add(z0, z1), sub(z0, z1)
		x[2], x[3] = add(z2, z3), sub(z2, z3)
		x[4], x[5] = add(z4, z5), sub(z4, z5)
		x[6], x[7] = add(z6, z7), sub(z6, z7)
	}
}

// ditRadix2Generic runs one decimation-in-time stage of half-size m on every
// block of 2m elements of a: v' = v·ω_{2m}^j, (u, v) ← (u + v', u − v').
func ditRadix2Generic(a []uint64, m int, tw []uint64) {
	t := tw[m : 2*m]
	for b := 0; b+2*m <= len(a); b += 2 * m {
		x, y := a[b:b+m], a[b+m:b+2*m]
		y, t := y[:len(x)], t[:len(x)]
		for j := range x {
			u, v := x[j], mul(y[j], t[j])
			x[j] = add(u, v)
			y[j] = sub(u, v)
		}
	}
}

// ditRadix4Generic runs the two decimation-in-time stages of half-sizes q and
// 2q on every block of 4q elements of a, for the columns j0 ≤ j < j1.
func ditRadix4Generic(a []uint64, q, j0, j1 int, tw, _ []uint64) {
	w2, w2q, w1 := tw[2*q+j0:2*q+j1], tw[3*q+j0:3*q+j1], tw[q+j0:q+j1]
	for b := 0; b+4*q <= len(a); b += 4 * q {
		x0 := a[b+j0 : b+j1]
		x1 := a[b+q+j0 : b+q+j1][:len(x0)]
		x2 := a[b+2*q+j0 : b+2*q+j1][:len(x0)]
		x3 := a[b+3*q+j0 : b+3*q+j1][:len(x0)]
		w2, w2q, w1 := w2[:len(x0)], w2q[:len(x0)], w1[:len(x0)]
		for j := range x0 {
			w := w1[j]
			u0, u2 := x0[j], x2[j]
			v1, v3 := mul(x1[j], w), mul(x3[j], w)
			// half-size q: (x0, x1) and (x2, x3)
			y0, y1 := add(u0, v1), sub(u0, v1)
			y2, y3 := add(u2, v3), sub(u2, v3)
			// half-size 2q: (y0, y2) and (y1, y3)
			v2, v3 := mul(y2, w2[j]), mul(y3, w2q[j])
			x0[j], x2[j] = add(y0, v2), sub(y0, v2)
			x1[j], x3[j] = add(y1, v3), sub(y1, v3)
		}
	}
}

// ditHeadGeneric runs the first three decimation-in-time stages (half-sizes
// 1, 2, 4) on every block of 8 elements of a, leaving out the first skip of
// them (0 ≤ skip ≤ 2; the extension kernels skip the stages that would only
// copy replicated values).
func ditHeadGeneric(a []uint64, tw []uint64, skip int) {
	if skip > 0 {
		for m := 1 << skip; m < 8; m *= 2 {
			ditRadix2Generic(a, m, tw)
		}
		return
	}
	w1, w2, w3, w4 := tw[5], tw[6], tw[7], tw[3]
	for b := 0; b+8 <= len(a); b += 8 {
		x := (*[8]uint64)(a[b : b+8])
		// half-size 1
		y0, y1 := add(x[0], x[1]), sub(x[0], x[1])
		y2, y3 := add(x[2], x[3]), sub(x[2], x[3])
		y4, y5 := add(x[4], x[5]), sub(x[4], x[5])
		y6, y7 := add(x[6], x[7]), sub(x[6], x[7])
		// half-size 2
		y3, y7 = mul(y3, w4), mul(y7, w4)
		z0, z2 := add(y0, y2), sub(y0, y2)
		z1, z3 := add(y1, y3), sub(y1, y3)
		z4, z6 := add(y4, y6), sub(y4, y6)
		z5, z7 := add(y5, y7), sub(y5, y7)
		// half-size 4
		z5, z6, z7 = mul(z5, w1), mul(z6, w2), mul(z7, w3)
		x[0], x[4] = add(z0, z4), sub(z0, z4)
		x[1], x[5] = add(z1, z5), sub(z1, z5)
		x[2], x[6] = add(z2, z6), sub(z2, z6)
		x[3], x[7] = add(z3, z7), sub(z3, z7)
	}
}

// replicateGeneric sets dst[u<<logB + r] = src[u] for u < len(src) and
// r < 2^logB (len(dst) = len(src)<<logB), for increasing u, reading src[u]
// before writing its copies (ditLeafSpread relies on the order).
func replicateGeneric(dst, src []uint64, logB int) {
	b := 1 << logB
	dst = dst[:len(src)<<logB]
	for u, x := range src {
		d := dst[u<<logB : u<<logB+b]
		for r := range d {
			d[r] = x
		}
	}
}

// rev3 is the bit reversal of 0..7 over three bits.
var rev3 = [8]int{0, 4, 2, 6, 1, 5, 3, 7}

// bitrevTilesGeneric exchanges the 8×8 tiles X and Y (rows h at x[h·stride:]
// and y[h·stride:], eight elements each) with both transposed and their
// coordinates bit-reversed: X[rev3(l)][rev3(h)] = Y[h][l] and the other way
// round. x and y may be the same tile.
func bitrevTilesGeneric(x, y []uint64, stride int) {
	var tx, ty [8][8]uint64
	for h := range 8 {
		copy(tx[h][:], x[h*stride:h*stride+8])
		copy(ty[h][:], y[h*stride:h*stride+8])
	}
	for h := range 8 {
		for l := range 8 {
			x[rev3[l]*stride+rev3[h]] = ty[h][l]
			y[rev3[l]*stride+rev3[h]] = tx[h][l]
		}
	}
}

// mulVecGeneric sets a[i] = a[i]·b[i] for i < len(a) (len(b) ≥ len(a)).
func mulVecGeneric(a, b []uint64) {
	b = b[:len(a)]
	for i := range a {
		a[i] = mul(a[i], b[i])
	}
}

// scaleVecGeneric sets a[i] = a[i]·c.
func scaleVecGeneric(a []uint64, c uint64) {
	for i := range a {
		a[i] = mul(a[i], c)
	}
}
