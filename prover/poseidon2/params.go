package poseidon2

import (
	"fmt"
	"unsafe"

	"github.com/consensys/gnark-crypto/field/babybear"
	bbp2 "github.com/consensys/gnark-crypto/field/babybear/poseidon2"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	glp2 "github.com/consensys/gnark-crypto/field/goldilocks/poseidon2"
	"github.com/consensys/gnark-crypto/field/koalabear"
	kbp2 "github.com/consensys/gnark-crypto/field/koalabear/poseidon2"
)

// table is a parameter set in canonical integers, the form in which
// Plonky3 publishes its constants.
type table struct {
	width, fullRounds, partialRounds, sboxDegree int
	mds                                          MDS4
	external                                     []uint64 // fullRounds·width: the initial rounds, then the final ones
	internal                                     []uint64 // partialRounds
	diag                                         []uint64 // width
}

// gnarkRounds are the round numbers (full, partial) of gnark-crypto's
// parameters: GetDefaultParameters for the narrow width, the sponge
// parameters its doc names for the wide one.
func gnarkRounds(f field, width int) (rf, rp int, ok bool) {
	switch {
	case f == fieldBabyBear && width == 16:
		return 8, 13, true
	case f == fieldBabyBear && width == 24:
		return 8, 21, true
	case f == fieldKoalaBear && (width == 16 || width == 24):
		return 6, 21, true
	case f == fieldGoldilocks && (width == 8 || width == 12):
		return 6, 17, true
	}
	return 0, 0, false
}

// gnarkGoldilocksDiag holds gnark-crypto's Goldilocks internal diagonals
// (diag8, diag12 in field/goldilocks/poseidon2/hash.go; canonical); its
// BabyBear and KoalaBear diagonals are Plonky3's.
var gnarkGoldilocksDiag = map[int][]uint64{
	8: {12216033376705242021, 2072934925475504800, 16432743296706583078, 1287600597097751715,
		10482065724875379356, 3057917794534811537, 4460508886913832365, 4574242228824269566},
	12: {14102670999874605824, 15585654191999307702, 940187017142450255, 8747386241522630711,
		6750641561540124747, 7440998025584530007, 6136358134615751536, 12413576830284969611,
		11675438539028694709, 17580553691069642926, 892707462476851331, 15167485180850043744},
}

func plonky3Table(f field, width int) *table {
	switch {
	case f == fieldBabyBear && width == 16:
		return &plonky3BabyBear16
	case f == fieldBabyBear && width == 24:
		return &plonky3BabyBear24
	case f == fieldKoalaBear && width == 16:
		return &plonky3KoalaBear16
	case f == fieldKoalaBear && width == 24:
		return &plonky3KoalaBear24
	case f == fieldGoldilocks && width == 8:
		return &plonky3Goldilocks8
	case f == fieldGoldilocks && width == 12:
		return &plonky3Goldilocks12
	}
	return nil
}

// PresetParams returns the parameters of preset at width (a fresh copy).
func PresetParams[E Element](preset Preset, width int) (Params[E], error) {
	f := fieldOf[E]()
	widths := "16 and 24"
	if f == fieldGoldilocks {
		widths = "8 and 12"
	}
	switch preset {
	case Plonky3:
		t := plonky3Table(f, width)
		if t == nil {
			return Params[E]{}, fmt.Errorf("%w: %d for %v over %s (it has %s)", ErrWidth, width, preset, fieldName(f), widths)
		}
		return tableParams[E](t), nil
	case Gnark:
		rf, rp, ok := gnarkRounds(f, width)
		if !ok {
			return Params[E]{}, fmt.Errorf("%w: %d for %v over %s (it has %s)", ErrWidth, width, preset, fieldName(f), widths)
		}
		return gnarkParams[E](width, rf, rp), nil
	}
	return Params[E]{}, fmt.Errorf("%w: %d", ErrPreset, int(preset))
}

func tableParams[E Element](t *table) Params[E] {
	conv := fromCanonical[E]
	prm := Params[E]{
		Width: t.width, FullRounds: t.fullRounds, PartialRounds: t.partialRounds,
		SBoxDegree: t.sboxDegree, MDS: t.mds,
		InternalDiag: conv(t.diag), InternalConstants: conv(t.internal),
	}
	for r := range t.fullRounds {
		prm.ExternalConstants = append(prm.ExternalConstants, conv(t.external[r*t.width:(r+1)*t.width]))
	}
	return prm
}

// gnarkParams reads the round keys of gnark-crypto's NewParameters(width,
// rf, rp) (full rounds of width keys, partial rounds of one) into Params.
func gnarkParams[E Element](width, rf, rp int) Params[E] {
	var keys [][]E
	prm := Params[E]{Width: width, FullRounds: rf, PartialRounds: rp, SBoxDegree: sboxDegree[E](), MDS: MDSMat4}
	switch f := fieldOf[E](); f {
	case fieldBabyBear:
		keys = any(bbp2.NewParameters(width, rf, rp).RoundKeys).([][]E)
		prm.InternalDiag = fromCanonical[E](plonky3Table(f, width).diag)
	case fieldKoalaBear:
		keys = any(kbp2.NewParameters(width, rf, rp).RoundKeys).([][]E)
		prm.InternalDiag = fromCanonical[E](plonky3Table(f, width).diag)
	case fieldGoldilocks:
		keys = any(glp2.NewParameters(width, rf, rp).RoundKeys).([][]E)
		prm.InternalDiag = fromCanonical[E](gnarkGoldilocksDiag[width])
		prm.MDS = HLMDSMat4
	}
	for r, k := range keys {
		if r >= rf/2 && r < rf/2+rp {
			prm.InternalConstants = append(prm.InternalConstants, k[0])
		} else {
			prm.ExternalConstants = append(prm.ExternalConstants, append([]E(nil), k...))
		}
	}
	return prm
}

// gnarkPermutation returns gnark-crypto's own permutation of one state for
// its preset at width.
func gnarkPermutation[E Element](width int) func([]E) {
	f := fieldOf[E]()
	rf, rp, _ := gnarkRounds(f, width)
	switch f {
	case fieldBabyBear:
		g := bbp2.NewPermutation(width, rf, rp)
		return func(s []E) { _ = g.Permutation(asBB(s)) }
	case fieldKoalaBear:
		g := kbp2.NewPermutation(width, rf, rp)
		return func(s []E) { _ = g.Permutation(asKB(s)) }
	}
	g := glp2.NewPermutation(width, rf, rp)
	return func(s []E) { _ = g.Permutation(asGL(s)) }
}

// fromCanonical converts canonical integers to elements.
func fromCanonical[E Element](v []uint64) []E {
	out := make([]E, len(v))
	for i, x := range v {
		switch z := any(&out[i]).(type) {
		case *babybear.Element:
			z.SetUint64(x)
		case *koalabear.Element:
			z.SetUint64(x)
		case *goldilocks.Element:
			z.SetUint64(x)
		}
	}
	return out
}

func asBB[E Element](v []E) []babybear.Element {
	return unsafe.Slice((*babybear.Element)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

func asKB[E Element](v []E) []koalabear.Element {
	return unsafe.Slice((*koalabear.Element)(unsafe.Pointer(unsafe.SliceData(v))), len(v))
}

func fieldName(f field) string {
	return [...]string{"BabyBear", "KoalaBear", "Goldilocks"}[f]
}
