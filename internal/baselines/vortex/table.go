//go:build ignore

// Command table reads `go test -bench` output of BenchmarkCommit (this
// package) and BenchmarkVsCompressx16 (prover/poseidon2), run in rounds
// (compare.sh: every sub-benchmark once a round), on stdin and prints
// Markdown tables, one per benchmark and GOMAXPROCS: the medians over the
// rounds, and the ratios to the peers as the median of each round's ratio
// (both sides of a ratio ran back to back, so that a slow phase of a
// shared machine falls on both):
//
//	go run table.go < bench.txt
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

type key struct {
	bench, name string
	cpu         int
}

// sample is one run of one sub-benchmark: value by unit.
type sample map[string]float64

var line = regexp.MustCompile(`^(Benchmark[^/\s]+)/(\S+?)(?:-(\d+))?\s+\d+\s+(.*)$`)

var runs = map[key][]sample{} // in the order of the rounds
var order []key

func main() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		k := key{bench: m[1], name: m[2], cpu: 1}
		if m[3] != "" {
			k.cpu, _ = strconv.Atoi(m[3])
		}
		if runs[k] == nil {
			order = append(order, k)
		}
		s := sample{}
		f := strings.Fields(m[4])
		for i := 0; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				s[f[i+1]] = v
			}
		}
		runs[k] = append(runs[k], s)
	}
	var cpus []int
	for _, k := range order {
		if !slices.Contains(cpus, k.cpu) {
			cpus = append(cpus, k.cpu)
		}
	}
	for _, bench := range []string{"BenchmarkCommit", "BenchmarkVsCompressx16"} {
		for _, cpu := range cpus {
			var ks []key
			for _, k := range order {
				if k.bench == bench && k.cpu == cpu {
					ks = append(ks, k)
				}
			}
			if len(ks) == 0 {
				continue
			}
			fmt.Printf("\n%s, GOMAXPROCS=%d (medians of %d rounds)\n\n", bench, cpu, len(runs[ks[0]]))
			if bench == "BenchmarkCommit" {
				commitTable(ks)
			} else {
				permTable(ks)
			}
		}
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// med is the median of unit over k's runs.
func med(k key, unit string) float64 {
	var v []float64
	for _, s := range runs[k] {
		v = append(v, s[unit])
	}
	return median(v)
}

// ratio is the median over the rounds of ref(round)/value (or value/ref
// with inverse), unit from k's run of that round.
func ratio(k key, unit string, ref func(round int) float64, inverse bool) float64 {
	var v []float64
	for r, s := range runs[k] {
		if x := ref(r); x > 0 && s[unit] > 0 {
			if inverse {
				v = append(v, s[unit]/x)
			} else {
				v = append(v, x/s[unit])
			}
		}
	}
	return median(v)
}

// commitTable: milliseconds per commitment and its phases; the ratio is
// the fastest Poseidon2 vortex peer's time over the row's (> 1: the row is
// faster).
func commitTable(ks []key) {
	fastest := func(r int) float64 {
		best := 0.0
		for _, k := range ks {
			if strings.HasPrefix(k.name, "vortex/poseidon2") && r < len(runs[k]) {
				if t := runs[k][r]["ns/op"]; best == 0 || t < best {
					best = t
				}
			}
		}
		return best
	}
	fmt.Println("| commitment | ms | LDE ms | hash ms | tree ms | fastest Poseidon2 vortex ÷ this |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, k := range ks {
		fmt.Printf("| %s | %.1f | %.1f | %.1f | %.1f | %.2f× |\n", k.name, med(k, "ns/op")/1e6,
			med(k, "encode-ms"), med(k, "hash-ms"), med(k, "tree-ms"), ratio(k, "ns/op", fastest, false))
	}
}

// permTable: millions of permutations per second; the ratios are to
// gnark-crypto's Compressx16 of 16 pairs (colSize 8) and to its fastest
// row, on the same number of workers (> 1: the row is faster).
func permTable(ks []key) {
	fmt.Println("| permutation | workers | Mperm/s | ÷ Compressx16 (16 pairs) | ÷ fastest gnark-crypto |")
	fmt.Println("|---|---|---:|---:|---:|")
	for _, w := range []string{"workers=1", "workers=all"} {
		pick := func(r int, pred func(string) bool) float64 {
			best := 0.0
			for _, k := range ks {
				if strings.HasSuffix(k.name, "/"+w) && pred(k.name) && r < len(runs[k]) {
					best = max(best, runs[k][r]["perm/s"])
				}
			}
			return best
		}
		pairs := func(r int) float64 {
			return pick(r, func(n string) bool { return strings.HasPrefix(n, "gnark/Compressx16/colSize=8/") })
		}
		fastest := func(r int) float64 {
			return pick(r, func(n string) bool { return strings.HasPrefix(n, "gnark/") })
		}
		for _, k := range ks {
			if !strings.HasSuffix(k.name, "/"+w) {
				continue
			}
			fmt.Printf("| %s | %s | %.2f | %.2f× | %.2f× |\n", strings.TrimSuffix(k.name, "/"+w), strings.TrimPrefix(w, "workers="),
				med(k, "perm/s")/1e6, ratio(k, "perm/s", pairs, true), ratio(k, "perm/s", fastest, true))
		}
	}
}
