// Command _gen writes two files of package poseidon2. It is its own module;
// from prover/poseidon2/:
//
//	(cd _gen && go run . -constants > ../constants_plonky3.go)
//
// -constants turns the literal round-constant tables of Plonky3 (canonical
// integers, ../testdata/plonky3/constants_<field>_<width>.json, copied from
// Plonky3's baby-bear, koala-bear and goldilocks poseidon2.rs) into Go
// tables.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	constants := flag.Bool("constants", false, "write constants_plonky3.go")
	dir := flag.String("testdata", "../testdata/plonky3", "folder of the Plonky3 constant tables")
	flag.Parse()
	var out string
	var err error
	switch {
	case *constants:
		out, err = genConstants(*dir)
	default:
		err = fmt.Errorf("give -constants")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "_gen:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}
