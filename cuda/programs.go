package cuda

import (
	"fmt"
	"slices"
	"strings"
)

// A program is one compilation unit: the text that NVRTC compiles into one
// module. Some programs are a single .cu file; others put defines before a
// file (one element type or one field per module, so that a module holds
// only the kernels one operation needs) or join files (the transforms use
// gf64.cu's multiplication). package gpu compiles them by name
// (gpu.Device.Module) and prebuilds the images of every one of them.

// merkleTypes are the element types of merkle.cu's modules.
var merkleTypes = []string{"gf64", "goldilocks", "babybear", "koalabear", "bn254"}

// nttFields are the fields of the NTT modules, with the largest four-step
// pass (bits) each field's module holds (NTT_FS_MAX, gpu/primentt's
// fsMaxNST).
var nttFields = map[string]int{"bn254": 9, "goldilocks": 11, "babybear": 10, "koalabear": 10}

// poseidon2Fields are the fields of poseidon2.cu's modules.
var poseidon2Fields = []string{"babybear", "koalabear", "goldilocks"}

// gf2nSizes are the field sizes n of gf2n.cu's modules, one module per size
// (GF2N_W, the words of an element, is n/64; gpu/gf2n loads them).
var gf2nSizes = []int{128, 256, 512, 1024, 2048}

// programs maps each program name to the function that assembles its text.
var programs = func() map[string]func() (string, error) {
	p := map[string]func() (string, error){
		"gf64.cu":     func() (string, error) { return join("", "gf64.cu") },
		"gf32.cu":     func() (string, error) { return join("", "gf32.cu") },
		"fft.cu":      func() (string, error) { return join("", "gf64.cu", "fft.cu") },
		"gf128.cu":    func() (string, error) { return join("", "gf64.cu", "gf128.cu") },
		IntNTTProgram: func() (string, error) { return join("", "intntt.cu") },
		FermatProgram: func() (string, error) { return join("", "fermat.cu") },
	}
	for _, t := range merkleTypes {
		p[MerkleProgram(t)] = func() (string, error) {
			return join("#define RH_ONLY 1\n#define RH_ONLY_"+t+" 1\n", "merkle.cu")
		}
	}
	for f, max := range nttFields {
		files := []string{"ntt_fields.cu", "ntt_passes.cu", "ntt_fourstep.cu"}
		if f == "bn254" {
			files = append(files, "ntt_bn254.cu")
		}
		files = append(files, "ntt_combine.cu")
		p[NTTProgram(f)] = func() (string, error) {
			return join(fmt.Sprintf("#define NTT_ONLY 1\n#define NTT_ONLY_%s 1\n#define NTT_FS_MAX %d\n", f, max), files...)
		}
	}
	for f := range nttFields {
		p[ExtProgram(f)] = func() (string, error) {
			return join("#define NTT_ONLY 1\n#define NTT_ONLY_"+f+" 1\n", "ntt_fields.cu", "ntt_ext.cu")
		}
	}
	for f := range nttFields {
		p[FRIProgram(f)] = func() (string, error) {
			return join("#define NTT_ONLY 1\n#define NTT_ONLY_"+f+" 1\n#define FRI_PRIME 1\n", "ntt_fields.cu", "ntt_ext.cu", "fri.cu", "fieldvec.cu")
		}
	}
	p[FRIProgram("gf64")] = func() (string, error) {
		return join("#define FRI_BINARY 1\n", "gf64.cu", "gf128.cu", "fri.cu", "fieldvec.cu")
	}
	for _, f := range poseidon2Fields {
		p[Poseidon2Program(f)] = func() (string, error) {
			return join("#define P2_"+strings.ToUpper(f)+" 1\n", "poseidon2.cu")
		}
	}
	for _, n := range gf2nSizes {
		p[GF2nProgram(n)] = func() (string, error) {
			return join(fmt.Sprintf("#define GF2N_W %d\n", n/64), "gf2n.cu")
		}
	}
	return p
}()

// join returns defines followed by the files, separated by newlines.
func join(defines string, files ...string) (string, error) {
	var b strings.Builder
	b.WriteString(defines)
	for i, f := range files {
		src, err := Sources.ReadFile(f)
		if err != nil {
			return "", err
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.Write(src)
	}
	return b.String(), nil
}

// Programs returns the names of every program the library compiles, sorted:
// "gf64.cu" and "gf32.cu" (the vector kernels), "gf128.cu" (GF(2^128),
// gf64.cu joined with gf128.cu), "fft.cu" (the additive transforms), IntNTTProgram, FermatProgram, MerkleProgram of each element type, Poseidon2Program of each of its fields, NTTProgram, ExtProgram and FRIProgram of each
// field (FRIProgram also of "gf64") and GF2nProgram of each binary field size.
func Programs() []string {
	names := make([]string, 0, len(programs))
	for n := range programs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Program returns the text of the named program (one of Programs).
func Program(name string) (string, error) {
	f, ok := programs[name]
	if !ok {
		return "", fmt.Errorf("cuda: no program %q", name)
	}
	return f()
}

// MerkleProgram names the row-hashing program of one element type: "gf64",
// "goldilocks", "babybear", "koalabear" or "bn254".
func MerkleProgram(elem string) string { return "merkle_" + elem + ".cu" }

// Poseidon2Program names the Poseidon2 program of one field (cuda/poseidon2.cu:
// the permutations and the field Merkle trees of gpu/poseidon2 and
// gpu/rowhash): "babybear", "koalabear" or "goldilocks".
func Poseidon2Program(field string) string { return "poseidon2_" + field + ".cu" }

// IntNTTProgram names the multi-modular integer product program
// (cuda/intntt.cu, gpu/intntt).
const IntNTTProgram = "intntt.cu"

// FermatProgram names the generalized Fermat prime field FFT program
// (cuda/fermat.cu, gpu/fermat).
const FermatProgram = "fermat.cu"

// NTTProgram names the prime-field NTT program of one field: "bn254",
// "goldilocks", "babybear" or "koalabear".
func NTTProgram(field string) string { return "ntt_prime_" + field + ".cu" }

// ExtProgram names the extension-field program of one prime field (the
// kernels of gpu/primentt's CombineExt and EvalCoset, cuda/ntt_ext.cu after
// ntt_fields.cu): "bn254", "goldilocks", "babybear" or "koalabear".
func ExtProgram(field string) string { return "ntt_ext_" + field + ".cu" }

// FRIProgram names the FRI prover program of one trace field (the DEEP
// quotient and the folds of package prover/fri's Open on the device,
// cuda/fri.cu, and the field's vector arithmetic of package gpu/fieldvec,
// cuda/fieldvec.cu): "gf64" (after gf64.cu and gf128.cu), or "bn254",
// "goldilocks", "babybear" or "koalabear" (after ntt_fields.cu and
// ntt_ext.cu).
func FRIProgram(field string) string { return "fri_" + field + ".cu" }

// GF2nProgram names the GF(2^n) product program of one field size n: 128,
// 256, 512, 1024 or 2048.
func GF2nProgram(n int) string { return fmt.Sprintf("gf2n_%d.cu", n) }
