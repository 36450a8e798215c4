package gf2n

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ntlCase is one line of testdata/ntl_vectors.txt.
type ntlCase struct {
	n                  int
	x, y, xy, xx, xInv []uint64
}

// parseHexElem reads an element written as n/4 hexadecimal digits, the
// coefficient of x^(n−1) first.
func parseHexElem(t *testing.T, s string, n int) []uint64 {
	require.Len(t, s, n/4, "element %q", s)
	w := n / 64
	z := make([]uint64, w)
	for i := range w {
		v, err := strconv.ParseUint(s[len(s)-16*(i+1):len(s)-16*i], 16, 64)
		require.NoError(t, err)
		z[i] = v
	}
	return z
}

func readNTLVectors(t *testing.T) []ntlCase {
	f, err := os.Open("testdata/ntl_vectors.txt")
	require.NoError(t, err)
	defer f.Close()
	var cases []ntlCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		require.Len(t, fields, 6, "line %q", line[:min(len(line), 40)])
		n, err := strconv.Atoi(fields[0])
		require.NoError(t, err)
		c := ntlCase{n: n}
		for i, p := range []*[]uint64{&c.x, &c.y, &c.xy, &c.xx, &c.xInv} {
			*p = parseHexElem(t, fields[i+1], n)
		}
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// TestNTLVectors checks products, squares and inverses against known
// answers computed by NTL's GF2E (internal/baselines/ntl-gf2e, which also
// checks that NTL's BuildSparseIrred picks the same polynomials), on every
// path.
func TestNTLVectors(t *testing.T) {
	cases := readNTLVectors(t)
	perSize := map[int]int{}
	for _, c := range cases {
		perSize[c.n]++
	}
	for _, n := range Sizes() {
		require.GreaterOrEqual(t, perSize[n], 10, "known answers for n = %d", n)
	}
	forEachPath(t, func(t *testing.T) {
		batch := map[int][3][]uint64{} // n → x, y, x·y of every case, one batch
		for _, c := range cases {
			fd, err := New(c.n)
			require.NoError(t, err)
			z := make([]uint64, fd.Words())
			fd.Mul(z, c.x, c.y)
			assert.Equal(t, c.xy, z, "n = %d: x·y, x = %x", c.n, c.x)
			fd.Square(z, c.x)
			assert.Equal(t, c.xx, z, "n = %d: x², x = %x", c.n, c.x)
			require.NoError(t, fd.Inverse(z, c.x))
			assert.Equal(t, c.xInv, z, "n = %d: x⁻¹, x = %x", c.n, c.x)
			b := batch[c.n]
			b[0], b[1], b[2] = append(b[0], c.x...), append(b[1], c.y...), append(b[2], c.xy...)
			batch[c.n] = b
		}
		for n, b := range batch {
			fd, err := New(n)
			require.NoError(t, err)
			z := make([]uint64, len(b[0]))
			require.NoError(t, fd.MulVec(z, b[0], b[1]))
			assert.Equal(t, b[2], z, "n = %d: MulVec over the %d cases", n, len(b[0])/fd.Words())
		}
	})
}
