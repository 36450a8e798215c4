// Command _gen writes two files of package poseidon2. It is its own module;
// from prover/poseidon2/:
//
//	(cd _gen && go run . -constants > ../constants_plonky3.go)
//	(cd _gen && go run . -asm 31 > ../kernels31_amd64.s)
//	(cd _gen && go run . -asm goldilocks > ../kernelsgl_amd64.s)
//
// -constants turns the literal round-constant tables of Plonky3 (canonical
// integers, ../testdata/plonky3/constants_<field>_<width>.json, copied from
// Plonky3's baby-bear, koala-bear and goldilocks poseidon2.rs) into Go
// tables. -asm writes the AVX-512 kernels: 16 lanes for the 31-bit
// fields, 8 for Goldilocks.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	constants := flag.Bool("constants", false, "write constants_plonky3.go")
	asm := flag.String("asm", "", "write the kernels of the 31-bit fields (31) or of Goldilocks (goldilocks)")
	dir := flag.String("testdata", "../testdata/plonky3", "folder of the Plonky3 constant tables")
	flag.Parse()
	var out string
	var err error
	switch {
	case *constants && *asm == "":
		out, err = genConstants(*dir)
	case !*constants && (*asm == "31" || *asm == "goldilocks"):
		out, err = genAsm(*dir, *asm)
	default:
		err = fmt.Errorf("give one of -constants and -asm")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "_gen:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}
