package cuda

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrograms checks that every program assembles from the embedded files,
// with its defines first and the files it names in order.
func TestPrograms(t *testing.T) {
	names := Programs()
	require.Len(t, names, 6+len(merkleTypes)+len(poseidon2Fields)+3*len(nttFields)+1+len(gf2nSizes))
	assert.IsIncreasing(t, names)
	file := func(name string) string {
		b, err := Sources.ReadFile(name)
		require.NoError(t, err)
		return string(b)
	}
	for _, name := range names {
		src, err := Program(name)
		require.NoError(t, err, name)
		assert.NotEmpty(t, src, name)
	}
	src, err := Program("gf64.cu")
	require.NoError(t, err)
	assert.Equal(t, file("gf64.cu"), src)
	src, err = Program("fft.cu")
	require.NoError(t, err)
	assert.Equal(t, file("gf64.cu")+"\n"+file("fft.cu"), src)
	src, err = Program("gf128.cu")
	require.NoError(t, err)
	assert.Equal(t, file("gf64.cu")+"\n"+file("gf128.cu"), src)
	src, err = Program(IntNTTProgram)
	require.NoError(t, err)
	assert.Equal(t, file("intntt.cu"), src)
	src, err = Program(FermatProgram)
	require.NoError(t, err)
	assert.Equal(t, file("fermat.cu"), src)
	for _, typ := range merkleTypes {
		src, err := Program(MerkleProgram(typ))
		require.NoError(t, err, typ)
		assert.True(t, strings.HasPrefix(src, "#define RH_ONLY 1\n#define RH_ONLY_"+typ+" 1\n"), typ)
		assert.True(t, strings.HasSuffix(src, file("merkle.cu")), typ)
	}
	for f := range nttFields {
		src, err := Program(NTTProgram(f))
		require.NoError(t, err, f)
		assert.Contains(t, src, "#define NTT_ONLY_"+f+" 1\n", f)
		assert.True(t, strings.HasSuffix(src, file("ntt_combine.cu")), f)
		assert.Equal(t, f == "bn254", strings.Contains(src, file("ntt_bn254.cu")), f)
		assert.Contains(t, src, file("ntt_fields.cu")+"\n"+file("ntt_passes.cu")+"\n"+file("ntt_fourstep.cu"), f)
	}
	for f := range nttFields {
		src, err := Program(ExtProgram(f))
		require.NoError(t, err, f)
		assert.Equal(t, "#define NTT_ONLY 1\n#define NTT_ONLY_"+f+" 1\n"+file("ntt_fields.cu")+"\n"+file("ntt_ext.cu"), src, f)
	}
	for f := range nttFields {
		src, err := Program(FRIProgram(f))
		require.NoError(t, err, f)
		assert.Equal(t, "#define NTT_ONLY 1\n#define NTT_ONLY_"+f+" 1\n#define FRI_PRIME 1\n"+file("ntt_fields.cu")+"\n"+file("ntt_ext.cu")+"\n"+file("fri.cu")+"\n"+file("fieldvec.cu"), src, f)
	}
	src, err = Program(FRIProgram("gf64"))
	require.NoError(t, err)
	assert.Equal(t, "#define FRI_BINARY 1\n"+file("gf64.cu")+"\n"+file("gf128.cu")+"\n"+file("fri.cu")+"\n"+file("fieldvec.cu"), src)
	for _, f := range poseidon2Fields {
		src, err := Program(Poseidon2Program(f))
		require.NoError(t, err, f)
		assert.Equal(t, "#define P2_"+strings.ToUpper(f)+" 1\n"+file("poseidon2.cu"), src, f)
	}
	for _, n := range gf2nSizes {
		src, err := Program(GF2nProgram(n))
		require.NoError(t, err, n)
		assert.Equal(t, fmt.Sprintf("#define GF2N_W %d\n", n/64)+file("gf2n.cu"), src, n)
	}
	_, err = Program("nosuch.cu")
	assert.ErrorContains(t, err, "nosuch.cu")
}
