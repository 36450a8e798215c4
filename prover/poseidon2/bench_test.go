package poseidon2

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbp2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbp2 "github.com/consensys/gnark-crypto/field/koalabear/poseidon2"
)

func benchPermute[E Element](b *testing.B, preset Preset, width int) {
	p := mustNew[E](b, preset, width)
	s := randElems[E](rand.New(rand.NewPCG(1, 2)), width)
	b.SetBytes(int64(width) * int64(unsafe.Sizeof(s[0])))
	b.ReportAllocs()
	for b.Loop() {
		_ = p.Permute(s)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "perm/s")
}

func benchBatch[E Element](b *testing.B, preset Preset, width, n, workers int) {
	p := mustNew[E](b, preset, width, WithWorkers(workers))
	s := randElems[E](rand.New(rand.NewPCG(1, 2)), n*width)
	b.SetBytes(int64(n*width) * int64(unsafe.Sizeof(s[0])))
	b.ReportAllocs()
	for b.Loop() {
		_ = p.PermuteBatch(s)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
}

type benchCase struct {
	name  string
	width int
	one   func(*testing.B, Preset, int)
	batch func(*testing.B, Preset, int, int, int)
}

var benchCases = []benchCase{
	{"BabyBear", 16, benchPermute[babybear.Element], benchBatch[babybear.Element]},
	{"BabyBear", 24, benchPermute[babybear.Element], benchBatch[babybear.Element]},
	{"KoalaBear", 16, benchPermute[koalabear.Element], benchBatch[koalabear.Element]},
	{"KoalaBear", 24, benchPermute[koalabear.Element], benchBatch[koalabear.Element]},
	{"Goldilocks", 8, benchPermute[goldilocks.Element], benchBatch[goldilocks.Element]},
	{"Goldilocks", 12, benchPermute[goldilocks.Element], benchBatch[goldilocks.Element]},
}

// benchPaths runs f with the kernel on (where there is one) and off.
func benchPaths(b *testing.B, f func(b *testing.B)) {
	saved := useKernel
	defer func() { useKernel = saved }()
	if haveKernel {
		useKernel = true
		b.Run("kernel=avx512", f)
	}
	useKernel = false
	b.Run("kernel=go", f)
}

// BenchmarkPermute: one state per call.
func BenchmarkPermute(b *testing.B) {
	for _, c := range benchCases {
		for _, pr := range presets {
			b.Run(fmt.Sprintf("%s/%v/%d", c.name, pr, c.width), func(b *testing.B) { c.one(b, pr, c.width) })
		}
	}
}

// BenchmarkPermuteBatch: n states per call, on one core and on all.
func BenchmarkPermuteBatch(b *testing.B) {
	for _, c := range benchCases {
		for _, pr := range presets {
			for _, logn := range []int{10, 12, 14, 16} {
				for _, w := range []int{1, runtime.GOMAXPROCS(0)} {
					name := fmt.Sprintf("%s/%v/%d/n=2^%d/workers=%d", c.name, pr, c.width, logn, w)
					b.Run(name, func(b *testing.B) {
						benchPaths(b, func(b *testing.B) { c.batch(b, pr, c.width, 1<<logn, w) })
					})
				}
			}
		}
	}
}

// BenchmarkGnarkBaseline: gnark-crypto's own permutation of its preset, one
// state per call over a batch on one core (width 24 of the 31-bit fields
// also through its Permutation16x24), the baseline of the Gnark rows of
// BenchmarkPermuteBatch.
func BenchmarkGnarkBaseline(b *testing.B) {
	for _, c := range []struct {
		name  string
		width int
		run   func(b *testing.B, width int)
	}{
		{"BabyBear", 16, gnarkBaseline[babybear.Element]},
		{"BabyBear", 24, gnarkBaseline[babybear.Element]},
		{"KoalaBear", 16, gnarkBaseline[koalabear.Element]},
		{"KoalaBear", 24, gnarkBaseline[koalabear.Element]},
		{"Goldilocks", 8, gnarkBaseline[goldilocks.Element]},
		{"Goldilocks", 12, gnarkBaseline[goldilocks.Element]},
	} {
		b.Run(fmt.Sprintf("%s/%d/n=2^12", c.name, c.width), func(b *testing.B) { c.run(b, c.width) })
	}
}

func gnarkBaseline[E Element](b *testing.B, width int) {
	const n = 1 << 12
	g := gnarkOf[E](width)
	s := randElems[E](rand.New(rand.NewPCG(1, 2)), n*width)
	b.SetBytes(int64(n*width) * int64(unsafe.Sizeof(s[0])))
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(s); i += width {
			_ = g(s[i : i+width])
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
}

// BenchmarkGnark16x24: gnark-crypto's Permutation16x24 (16 states of width
// 24 in AVX-512 lanes, transposed by the caller), against
// BenchmarkKernelOnly.
func BenchmarkGnark16x24(b *testing.B) {
	b.Run("BabyBear", gnark16x24Bench[babybear.Element])
	b.Run("KoalaBear", gnark16x24Bench[koalabear.Element])
}

func gnark16x24Bench[E Element](b *testing.B) {
	x16 := gnark16x24[E]()
	var st [24][16]E
	b.SetBytes(16 * 24 * int64(unsafe.Sizeof(st[0][0])))
	for b.Loop() {
		x16(&st)
	}
	b.ReportMetric(16*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
}

func gnark16x24[E Element]() func(*[24][16]E) {
	rf, rp, _ := gnarkRounds(fieldOf[E](), 24)
	if fieldOf[E]() == fieldBabyBear {
		g := bbp2.NewPermutation(24, rf, rp)
		return func(st *[24][16]E) { g.Permutation16x24((*[24][16]babybear.Element)(unsafe.Pointer(st))) }
	}
	g := kbp2.NewPermutation(24, rf, rp)
	return func(st *[24][16]E) { g.Permutation16x24((*[24][16]koalabear.Element)(unsafe.Pointer(st))) }
}

// BenchmarkHashRows: leaves of a matrix of 2^14 rows and cols columns
// (row-major, and as columns), all cores.
func BenchmarkHashRows(b *testing.B) {
	for _, c := range []struct {
		name string
		run  func(b *testing.B, preset Preset, width, cols int)
	}{
		{"BabyBear/16", hashBench[babybear.Element]},
		{"KoalaBear/16", hashBench[koalabear.Element]},
		{"KoalaBear/24", hashBench[koalabear.Element]},
		{"Goldilocks/8", hashBench[goldilocks.Element]},
		{"Goldilocks/12", hashBench[goldilocks.Element]},
	} {
		var width int
		fmt.Sscanf(c.name[len(c.name)-2:], "%d", &width)
		if width == 0 {
			fmt.Sscanf(c.name[len(c.name)-1:], "%d", &width)
		}
		for _, cols := range []int{8, 64, 256} {
			b.Run(fmt.Sprintf("%s/cols=%d", c.name, cols), func(b *testing.B) { c.run(b, Plonky3, width, cols) })
		}
	}
}

func hashBench[E Element](b *testing.B, preset Preset, width, cols int) {
	const n = 1 << 14
	p := mustNew[E](b, preset, width)
	s := p.Sponge()
	m := randElems[E](rand.New(rand.NewPCG(1, 2)), n*cols)
	cm := make([][]E, cols)
	for c := range cm {
		cm[c] = make([]E, n)
		for i := range n {
			cm[c][i] = m[i*cols+c]
		}
	}
	dst := make([]E, n*s.Out())
	size := int64(n*cols) * int64(unsafe.Sizeof(m[0]))
	b.Run("rows", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			_ = s.HashRows(dst, m, cols)
		}
	})
	b.Run("columns", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			_ = s.HashColumns(dst, cm)
		}
	})
}

// BenchmarkCompressLayer: one layer of 2^16 parents, all cores.
func BenchmarkCompressLayer(b *testing.B) {
	b.Run("BabyBear/16", compressBench[babybear.Element](16))
	b.Run("KoalaBear/16", compressBench[koalabear.Element](16))
	b.Run("Goldilocks/8", compressBench[goldilocks.Element](8))
}

func compressBench[E Element](width int) func(b *testing.B) {
	return func(b *testing.B) {
		const n = 1 << 16
		p := mustNew[E](b, Plonky3, width)
		c := p.Compression()
		kids := randElems[E](rand.New(rand.NewPCG(1, 2)), 2*n*c.Chunk())
		dst := make([]E, n*c.Chunk())
		b.SetBytes(int64(len(kids)) * int64(unsafe.Sizeof(kids[0])))
		b.ReportAllocs()
		for b.Loop() {
			_ = c.CompressLayer(dst, kids)
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
	}
}

// BenchmarkKernelOnly: one call of the 16-lane kernel (16 states), without
// the transposition from and to rows.
func BenchmarkKernelOnly(b *testing.B) {
	if !haveKernel {
		b.Skip("no 16-lane kernel in this build or on this CPU")
	}
	for _, c := range []struct {
		name string
		k    *perm31
	}{
		{"BB24gnark", mustNew[babybear.Element](b, Gnark, 24).f31},
		{"BB16", mustNew[babybear.Element](b, Plonky3, 16).f31},
		{"KB24gnark", mustNew[koalabear.Element](b, Gnark, 24).f31},
		{"KB16", mustNew[koalabear.Element](b, Plonky3, 16).f31},
	} {
		b.Run(c.name, func(b *testing.B) {
			var st lanes
			for b.Loop() {
				kernel16(c.k, &st)
			}
			b.ReportMetric(16*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
		})
	}
}

// BenchmarkVsCompressx16: KoalaBear width-16 permutations, ours
// (PermuteBatch, both presets) against gnark-crypto's 16-lane AVX-512
// Compressx16 (its 6+21-round permutation, the one of our gnark-crypto
// preset), on the same number of states (2^12 per op), on one worker and
// on GOMAXPROCS (workers=all). Compressx16(matrix, colSize, result) runs 16
// Merkle–Damgård chains of colSize/8 compressions, one permutation each:
// colSize 8 is 16 permutations a call (16 pairs, gathered from 16 rows and
// scattered back), colSize 512 (vortex's SIS key size) 1024 in one call;
// Compressx16Columns takes the same input transposed (no gather). With
// GOMAXPROCS workers gnark-crypto's calls are spread over as many
// goroutines. perm/s is permutations per second.
func BenchmarkVsCompressx16(b *testing.B) {
	const n = 1 << 12
	// workers: 1, or 0 for GOMAXPROCS (read in the sub-benchmark, under -cpu)
	workers := func(w int) int {
		if w == 0 {
			return runtime.GOMAXPROCS(0)
		}
		return w
	}
	for _, w := range []int{1, 0} {
		wname := map[int]string{1: "workers=1", 0: "workers=all"}[w]
		for _, pr := range presets {
			b.Run(fmt.Sprintf("ours/%v/PermuteBatch/%s", pr, wname), func(b *testing.B) {
				benchBatch[koalabear.Element](b, pr, 16, n, workers(w))
			})
		}
		g := kbp2.NewPermutation(16, 6, 21)
		for _, colSize := range []int{8, 512} {
			for _, cols := range []bool{false, true} {
				name := "Compressx16"
				if cols {
					name = "Compressx16Columns"
				}
				b.Run(fmt.Sprintf("gnark/%s/colSize=%d/%s", name, colSize, wname), func(b *testing.B) {
					per := 16 * colSize / 8 // permutations a call
					calls := n / per
					m := randElems[koalabear.Element](rand.New(rand.NewPCG(1, 2)), calls*16*colSize)
					res := make([][8]koalabear.Element, 16*calls)
					run := func(lo, hi int) {
						for c := lo; c < hi; c++ {
							blk, r := m[c*16*colSize:(c+1)*16*colSize], res[16*c:16*(c+1)]
							if cols {
								g.Compressx16Columns(blk, colSize, r)
							} else {
								g.Compressx16(blk, colSize, r)
							}
						}
					}
					b.SetBytes(int64(len(m)) * 4)
					for b.Loop() {
						spread(calls, 1, workers(w), run)
					}
					b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "perm/s")
				})
			}
		}
	}
}
