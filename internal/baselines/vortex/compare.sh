#!/usr/bin/env bash
# Compares gfpoly's Poseidon2 trace commitment with gnark-crypto's vortex on
# the same trace (64 KoalaBear polynomials of 2^16 evaluations, blowup 4),
# and gfpoly's KoalaBear width-16 batch permutation with gnark-crypto's
# Compressx16, and prints Markdown tables of the medians with the ratios
# (> 1: gfpoly is faster).
#
#   internal/baselines/vortex/compare.sh [commit|perm|all]   (default all)
#
# Each of COUNT rounds (default 5) runs every sub-benchmark once at each
# GOMAXPROCS of CPUS (default 1,2), both peers back to back, so that slow
# phases of a shared machine fall on both; the tables take the medians over
# the rounds. COMMIT_BENCHTIME (default 5x: five commitments a run, after one
# untimed) and PERM_BENCHTIME (default 200ms) set -benchtime. vortex.Commit
# with SIS (seconds a commitment) runs only with SIS=1. The raw output,
# which benchstat reads, is kept in $OUT (default a temporary file).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=${1:-all}
count=${COUNT:-5}
cpus=${CPUS:-1,2}
out=${OUT:-$(mktemp)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
commits='^BenchmarkCommit$/^(gfpoly|vortex)$/^poseidon2'
if [ "${SIS:-0}" = 1 ]; then
	commits='^BenchmarkCommit$'
fi
cd "$root"
go test -tags baselines -c -o "$tmp/vortex.test" ./internal/baselines/vortex
go test -c -o "$tmp/poseidon2.test" ./prover/poseidon2

{
	echo "# $(go version); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | xargs), $(nproc) cores"
	echo "# $count rounds of -cpu $cpus; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
} | tee "$out"
for i in $(seq "$count"); do
	if [ "$mode" = commit ] || [ "$mode" = all ]; then
		(cd internal/baselines/vortex && "$tmp/vortex.test" -test.run '^$' -test.bench "$commits" \
			-test.cpu "$cpus" -test.benchtime "${COMMIT_BENCHTIME:-5x}") | tee -a "$out"
	fi
	if [ "$mode" = perm ] || [ "$mode" = all ]; then
		(cd prover/poseidon2 && "$tmp/poseidon2.test" -test.run '^$' -test.bench '^BenchmarkVsCompressx16$' \
			-test.cpu "$cpus" -test.benchtime "${PERM_BENCHTIME:-200ms}") | tee -a "$out"
	fi
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" | tee -a "$out"
echo
echo "raw output: $out"
go run "$here/table.go" <"$out"
