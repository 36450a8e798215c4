package domain

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/internal/cpufeat"
	"github.com/gfpoly/gfpoly/internal/testutil"
)

// The digest test pins the output of every operation, bit for bit, for fixed
// seeds at m = 0 … digestMaxDim: the constants below were recorded before
// the engine was restructured (issue 25), and every implementation, core
// count and build tag must reproduce them.

var printDigests = flag.Bool("digest.print", false, "print the digest table instead of checking it")

const digestMaxDim = 22

// digestQuickDim: above it, the digests are checked on all cores only,
// unless -digest.full (1, 2 and all cores at every size).
const digestQuickDim = 18

// Without GFPOLY_LONG (testutil.Long) every implementation and core count
// is checked up to digestEveryImplDim (2^15 elements: the first size whose
// conversions run as fused passes, fuseMin), and the default
// implementations on all cores up to digestDefaultDim (one size past 2^18
// elements, where the single transforms split over the cores); the long run
// goes to digestMaxDim.
const (
	digestEveryImplDim = 15
	digestDefaultDim   = 19
)

var fullDigests = flag.Bool("digest.full", false, "check the digests above digestQuickDim on 1 and 2 cores too")

// wantDigests[m] is the SHA-256 of digestOutputs(m).
var wantDigests = [digestMaxDim + 1]string{
	"95c3ffa5eefc79d8818b643e2ed75aca6ee901f2422272bcca0df506243514d2", // m = 0
	"e235dadece151d3a7c84f735e991f691cb5ed0d7906b3cbb3682022577895fcb", // m = 1
	"563c4d8beb8e69c119eb2f08f2b7ad726c42d1f24b271ad04e3d444f0396513a", // m = 2
	"26ee5476dab7b44d4e69aedcc7da0efb1be141cc04fc1b2856129d526de67c8b", // m = 3
	"4d9c171a131edaba9ff4228432bc61a94b06764649a5655a4ba2850799c4bf0b", // m = 4
	"13197d0e4e2bfa54a8662b4390319be3a254ed967b07c7af7b1966806ef64acc", // m = 5
	"b63ba53144ea1aebf90d30d731feee403f38d5e98406748beea0db5ea4229598", // m = 6
	"51377b27a4ebea03887af8f71f1790b4d69c6d6b362170f0f253d20ec76ad790", // m = 7
	"6f2adb4437747bca06a6868db94d02a1e4044e571a390f242f7d362e7681c2dc", // m = 8
	"c27e59874af2e2b19ee656a5545f0396b351a6537a173d9b907a842934383bac", // m = 9
	"1e458fb5e0809d8c9309168b64cf92791d08093a50883bd17fe891a5936607e0", // m = 10
	"3f33da3184ec762135fae2a66311574fd3491c0c4d09a2da1f07dbe3392e6352", // m = 11
	"39db6e3c17cd7db8954c3225c66b676c3528819169ef7fdb41e89014e82b8591", // m = 12
	"e7e4175ff04bf4a5e3fd0947ac9e6a31c1a4e0d34175b9dd3f148ae1e6555ab1", // m = 13
	"f71ec45ee251ca390a20569f374d5bade3c9e062856c5ae87baa1712cc322b66", // m = 14
	"4167d7db6345836f87c2aa5a37a85c21c9e2c71e94655f99bd08009bfefbcf2b", // m = 15
	"fbc4edd94eca8feb43b6e120692faa6953c07e492ffd4c226d1e77a1ba3c4e8d", // m = 16
	"4ef67f48d792cda283ef230db4bcc5ace411580f7a16fcfa2c22be1a0cbffffa", // m = 17
	"09829386cd692bdb5b63878d14493605cfa49476a04901ba42ad87173e9ad2c3", // m = 18
	"4e332b7a3d4bd2f071d5d24b60ed3d8d67555eef91a01138bc3d478fc6bd4bad", // m = 19
	"5eae8bdb5c8a80877341982cfff50544599c6f75ab0cc8a284e69e251bb784af", // m = 20
	"8bf3afebd0d00d6222455b2c4f77d8d41ef3dda6f58bfbbfe9bbcf6696523aaf", // m = 21
	"6120d3d02907c9ce209797854979040e4d723f2a69eec6f3fa28b40d3a5494c4", // m = 22
}

// digestOutputs runs every operation on inputs drawn from a seed fixed by m
// and hashes, per operation, its name and output (little-endian words); the
// result is the SHA-256 of that stream. ops receives each operation's name
// for the failure message.
func digestOutputs(t testing.TB, m int) (string, []string) {
	t.Helper()
	r := newRand(t, 2500+uint64(m))
	s := randSubspace(t, r, m, 0)
	n := s.Size()
	c := randVec(r, n)
	k := max(m-2, 0)
	from, err := s.Sub(k)
	require.NoError(t, err)
	stark, err := s.WithShift(randElem(r)) // basis starts with from's: the fast LDE
	require.NoError(t, err)
	coset, err := from.WithShift(randElem(r)) // same dimension, another coset
	require.NoError(t, err)
	other := randSubspace(t, r, m, 0) // unrelated basis: through the monomial basis
	src := randVec(r, from.Size())
	cols := [][]gf64.Element{randVec(r, n), randVec(r, n)}
	srcCols := [][]gf64.Element{randVec(r, from.Size()), randVec(r, from.Size())}

	h := sha256.New()
	var ops []string
	put := func(name string, err error, outs ...[]gf64.Element) {
		require.NoError(t, err, "m=%d %s", m, name)
		oh := sha256.New()
		oh.Write([]byte(name))
		var w [8]byte
		for _, o := range outs {
			for _, x := range o {
				binary.LittleEndian.PutUint64(w[:], uint64(x))
				oh.Write(w[:])
			}
		}
		sum := oh.Sum(nil)
		h.Write(sum)
		ops = append(ops, fmt.Sprintf("%s=%x", name, sum[:8]))
	}
	one := func(name string, f func([]gf64.Element) error) {
		a := slices.Clone(c)
		put(name, f(a), a)
	}
	one("FFT", s.FFT)
	one("IFFT", s.IFFT)
	one("NovelFFT", s.NovelFFT)
	one("NovelIFFT", s.NovelIFFT)
	one("MonomialToNovel", s.MonomialToNovel)
	one("NovelToMonomial", s.NovelToMonomial)
	for _, nc := range []int{1, max(n/4, 1), n - n/3} {
		a := slices.Clone(c)
		put(fmt.Sprintf("FFTTrunc(%d)", nc), s.FFTTrunc(a, nc), a)
	}
	for _, to := range []struct {
		name string
		s    *Subspace
	}{{"stark", stark}, {"coset", coset}, {"unrelated", other}} {
		dst := make([]gf64.Element, to.s.Size())
		put("LDE "+to.name, LDE(dst, src, from, to.s), dst)
	}
	batch := func(name string, f func([][]gf64.Element) error) {
		b := [][]gf64.Element{slices.Clone(cols[0]), slices.Clone(cols[1])}
		put(name, f(b), b...)
	}
	batch("FFTBatch", s.FFTBatch)
	batch("IFFTBatch", s.IFFTBatch)
	batch("NovelFFTBatch", s.NovelFFTBatch)
	batch("NovelIFFTBatch", s.NovelIFFTBatch)
	for _, to := range []*Subspace{stark, other} {
		dst := [][]gf64.Element{make([]gf64.Element, to.Size()), make([]gf64.Element, to.Size())}
		put("LDEBatch", LDEBatch(dst, srcCols, from, to), dst...)
	}
	return hex.EncodeToString(h.Sum(nil)), ops
}

// digestCores returns the GOMAXPROCS values to check: 1, 2 and all cores.
func digestCores() []int {
	cores := []int{1, 2}
	if n := runtime.NumCPU(); n > 2 {
		cores = append(cores, n)
	}
	return cores
}

// eachImpl runs f under every registered implementation of gf64 (with this
// package's default) and of this package (with gf64's default); with
// -digest.full under every combination.
func eachImpl(f func(name string)) {
	if *fullDigests {
		cpufeat.Each("gf64", func(g string) {
			cpufeat.Each("domain", func(d string) { f("gf64=" + g + " domain=" + d) })
		})
		return
	}
	cpufeat.Each("gf64", func(name string) { f("gf64=" + name) })
	def := cpufeat.Active("domain")
	cpufeat.Each("domain", func(name string) {
		if name != def {
			f("domain=" + name)
		}
	})
}

func TestDigests(t *testing.T) {
	long := testutil.Long() || *fullDigests
	maxDim := testutil.Sweep(digestEveryImplDim, digestDefaultDim, digestMaxDim)
	if long {
		maxDim = digestMaxDim
	}
	defaultImpl := "gf64=" + cpufeat.Active("gf64")
	if *printDigests {
		var b strings.Builder
		for m := 0; m <= digestMaxDim; m++ {
			d, _ := digestOutputs(t, m)
			fmt.Fprintf(&b, "\t%q, // m = %d\n", d, m)
		}
		t.Logf("digest table:\n%s", b.String())
		return
	}
	prev := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	eachImpl(func(impl string) {
		for _, procs := range digestCores() {
			runtime.GOMAXPROCS(procs)
			for m := 0; m <= maxDim; m++ {
				// Above digestQuickDim only the run on all cores, unless
				// -digest.full: the batches already take the one-goroutine
				// paths at every size, and the generic kernels are slow.
				if m > digestQuickDim && procs != runtime.NumCPU() && !*fullDigests {
					continue
				}
				if m > digestEveryImplDim && !long && (impl != defaultImpl || procs != runtime.NumCPU()) {
					continue
				}
				got, ops := digestOutputs(t, m)
				require.Equal(t, wantDigests[m], got, "%s GOMAXPROCS=%d m=%d: digest of every operation changed; per operation: %v",
					impl, procs, m, ops)
			}
		}
	})
}
