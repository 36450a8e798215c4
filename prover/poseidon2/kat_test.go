package poseidon2

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The files of testdata/plonky3 are ../shared/vectors/plonky3-poseidon2,
// unchanged (its README says where every number comes from).
const katDir = "testdata/plonky3"

type katConstants struct {
	ExternalInitial [][]uint64 `json:"external_initial"`
	ExternalFinal   [][]uint64 `json:"external_final"`
	Internal        []uint64   `json:"internal"`
}

type katVector struct {
	Field         string        `json:"field"`
	Width         int           `json:"width"`
	RoundsF       int           `json:"rounds_f"`
	RoundsP       int           `json:"rounds_p"`
	SBoxDegree    int           `json:"sbox_degree"`
	ConstantsKind string        `json:"constants_kind"`
	Input         []uint64      `json:"input"`
	Output        []uint64      `json:"output"`
	InternalDiag  []uint64      `json:"internal_diag"`
	SourceTest    string        `json:"source_test"`
	RNG           *katConstants `json:"rng_constants"`
}

type katTable struct {
	katConstants
	Field        string   `json:"field"`
	Width        int      `json:"width"`
	RoundsF      int      `json:"rounds_f"`
	RoundsP      int      `json:"rounds_p"`
	SBoxDegree   int      `json:"sbox_degree"`
	InternalDiag []uint64 `json:"internal_diag"`
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(katDir, name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, v), name)
}

// katParams builds the parameters of a table from canonical integers.
func katParams[E Element](width, rf, rp, deg int, diag []uint64, c katConstants) Params[E] {
	prm := Params[E]{
		Width: width, FullRounds: rf, PartialRounds: rp, SBoxDegree: deg, MDS: MDSMat4,
		InternalDiag: fromCanonical[E](diag), InternalConstants: fromCanonical[E](c.Internal),
	}
	for _, r := range append(append([][]uint64{}, c.ExternalInitial...), c.ExternalFinal...) {
		prm.ExternalConstants = append(prm.ExternalConstants, fromCanonical[E](r))
	}
	return prm
}

// katPerm returns the permutation a vector names: the Plonky3 preset for
// table constants at the preset widths; the vector's own constants (RNG)
// or the table file (the widths that are no preset) through NewWithParams.
func katPerm[E Element](t *testing.T, v katVector) *Permutation[E] {
	t.Helper()
	if v.ConstantsKind == "rng" {
		require.NotNil(t, v.RNG)
		p, err := NewWithParams(katParams[E](v.Width, v.RoundsF, v.RoundsP, v.SBoxDegree, v.InternalDiag, *v.RNG))
		require.NoError(t, err)
		return p
	}
	if plonky3Table(fieldOf[E](), v.Width) != nil {
		return mustNew[E](t, Plonky3, v.Width)
	}
	var tab katTable
	readJSON(t, fmt.Sprintf("constants_%s_%d.json", v.Field, v.Width), &tab)
	p, err := NewWithParams(katParams[E](tab.Width, tab.RoundsF, tab.RoundsP, tab.SBoxDegree, tab.InternalDiag, tab.katConstants))
	require.NoError(t, err)
	return p
}

func checkKAT[E Element](t *testing.T, v katVector) {
	p := katPerm[E](t, v)
	state := fromCanonical[E](v.Input)
	require.NoError(t, p.Permute(state))
	assert.Equal(t, v.Output, toCanonical(state), "Permute")

	// The same vector through the batch path, among other states.
	states := make([]E, 0, 37*v.Width)
	for range 37 {
		states = append(states, fromCanonical[E](v.Input)...)
	}
	require.NoError(t, p.PermuteBatch(states))
	for i := range 37 {
		require.Equal(t, v.Output, toCanonical(states[i*v.Width:(i+1)*v.Width]), "PermuteBatch, state %d", i)
	}
}

// TestPlonky3KAT checks every Plonky3 known answer of the fields the
// package has (all but Mersenne31's), on every path.
func TestPlonky3KAT(t *testing.T) {
	var vs, extra []katVector
	readJSON(t, "vectors.json", &vs)
	readJSON(t, "vectors_extra_widths.json", &extra)
	vs = append(vs, extra...)
	eachPath(t, func(t *testing.T) {
		ran := 0
		for _, v := range vs {
			name := fmt.Sprintf("%s/%d/%s", v.Field, v.Width, v.SourceTest)
			switch v.Field {
			case "babybear":
				t.Run(name, func(t *testing.T) { checkKAT[babybear.Element](t, v) })
			case "koalabear":
				t.Run(name, func(t *testing.T) { checkKAT[koalabear.Element](t, v) })
			case "goldilocks":
				t.Run(name, func(t *testing.T) { checkKAT[goldilocks.Element](t, v) })
			default:
				continue
			}
			ran++
		}
		assert.Equal(t, 13, ran, "known answers run")
	})
}

// TestPlonky3Constants compares the preset tables with Plonky3's literal
// tables.
func TestPlonky3Constants(t *testing.T) {
	for _, c := range []struct {
		field string
		width int
		check func(t *testing.T, tab katTable)
	}{
		{"babybear", 16, checkTable[babybear.Element]},
		{"babybear", 24, checkTable[babybear.Element]},
		{"koalabear", 16, checkTable[koalabear.Element]},
		{"koalabear", 24, checkTable[koalabear.Element]},
		{"goldilocks", 8, checkTable[goldilocks.Element]},
		{"goldilocks", 12, checkTable[goldilocks.Element]},
	} {
		t.Run(fmt.Sprintf("%s/%d", c.field, c.width), func(t *testing.T) {
			var tab katTable
			readJSON(t, fmt.Sprintf("constants_%s_%d.json", c.field, c.width), &tab)
			require.Equal(t, c.field, tab.Field)
			require.Equal(t, c.width, tab.Width)
			c.check(t, tab)
		})
	}
}

func checkTable[E Element](t *testing.T, tab katTable) {
	prm, err := PresetParams[E](Plonky3, tab.Width)
	require.NoError(t, err)
	assert.Equal(t, tab.RoundsF, prm.FullRounds)
	assert.Equal(t, tab.RoundsP, prm.PartialRounds)
	assert.Equal(t, tab.SBoxDegree, prm.SBoxDegree)
	assert.Equal(t, MDSMat4, prm.MDS)
	assert.Equal(t, tab.InternalDiag, toCanonical(prm.InternalDiag), "internal diagonal")
	assert.Equal(t, tab.Internal, toCanonical(prm.InternalConstants), "internal constants")
	require.Len(t, prm.ExternalConstants, tab.RoundsF)
	for r := range tab.RoundsF / 2 {
		assert.Equal(t, tab.ExternalInitial[r], toCanonical(prm.ExternalConstants[r]), "initial round %d", r)
		assert.Equal(t, tab.ExternalFinal[r], toCanonical(prm.ExternalConstants[tab.RoundsF/2+r]), "final round %d", r)
	}
}

func TestModuli(t *testing.T) {
	assert.Equal(t, babybear.Modulus().Uint64(), uint64(pBabyBear))
	assert.Equal(t, koalabear.Modulus().Uint64(), uint64(pKoalaBear))
	assert.Equal(t, goldilocks.Modulus().Uint64(), uint64(pGoldilocks))
}
