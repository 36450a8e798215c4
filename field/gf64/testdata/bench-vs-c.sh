#!/usr/bin/env bash
# Compares the gf64 MulVec kernels at n = 2^16 with the C baseline
# (../shared/baselines/clmul.c, scalar PCLMULQDQ and AVX-512 VPCLMULQDQ),
# alternating the two ROUNDS times so that both see the same machine load, and
# prints the median and maximum over the runs of each, in millions of
# products per second. The C program reports the best of five passes; the Go
# benchmark reports both its whole-run rate and its best pass.
# Usage: field/gf64/testdata/bench-vs-c.sh [ROUNDS]  (from the repository root;
# BASELINE=path/to/clmul.c overrides where the C file is looked for).
set -euo pipefail
rounds=${1:-10}
src=${BASELINE:-$(cd "$(dirname "$0")/../../.." && pwd)/../shared/baselines/clmul.c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O3 -march=native -o "$tmp/clmul" "$src"
go test -c -o "$tmp/gf64.test" ./field/gf64/
for _ in $(seq "$rounds"); do
	"$tmp/clmul" 16 >>"$tmp/c.txt"
	"$tmp/gf64.test" -test.run '^$' -test.bench 'BenchmarkMulVec/(pclmulqdq|avx512)/n=65536$' \
		-test.benchtime=20x -test.count=3 >>"$tmp/go.txt"
done
python3 - "$tmp/c.txt" "$tmp/go.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    if "Mmul/s" in line:
        f = line.split()
        rows.setdefault(line[:22].strip() + " (best of 5 passes)", []).append(float(f[f.index("Mmul/s") - 1]))
for line in open(sys.argv[2]):
    f = line.split()
    if line.startswith("Benchmark"):
        for unit, what in (("Mprod/s", "whole run"), ("best-Mprod/s", "best pass")):
            rows.setdefault(f"{f[0]} ({what})", []).append(float(f[f.index(unit) - 1]))
for name, v in rows.items():
    print(f"{name:58s} runs={len(v):3d}  median={statistics.median(v):6.0f}  max={max(v):6.0f}  Mprod/s")
PY
