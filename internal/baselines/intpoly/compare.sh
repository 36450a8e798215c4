#!/usr/bin/env bash
# Compares poly/intpoly with FLINT (fmpz_poly_mul), NTL (ZZX mul) and GMP
# (mpz_mul), all from Debian packages, at the sizes of issue 19, and with
# math/big. For each size the peers and our benchmark run back to back, so
# that they see the same machine load. Peers run on one thread; ours runs
# with GOMAXPROCS=1 ("go 1 core") and with every core ("go all").
#
#   internal/baselines/intpoly/compare.sh [quick|full]   (default quick)
#   internal/baselines/intpoly/compare.sh vectors        FLINT's known answers, to stdout
#                                                       (poly/intpoly/testdata/flint_mul.txt)
#
# quick: polynomials of 2^16 coefficients (64, 256, 1024 bits) and 2^20 of
# 64 bits; integers of 2^20 and 2^24 bits. full adds 2^20 coefficients of
# 256 and 1024 bits, 2^24 of 64 bits, 2^28-bit integers and math/big at
# 2^28 bits (about two minutes on its own); the environment can change the
# lists (below). Figures are milliseconds: the
# peers' median of RUNS timed calls after a warm-up, Go's ns/op over
# -benchtime RUNSx. Ratios > 1 mean we are faster.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

need=()
[ -f /usr/include/flint/fmpz_poly.h ] || need+=(libflint-dev)
[ -f /usr/include/NTL/ZZX.h ] || need+=(libntl-dev)
[ -f /usr/include/gmp.h ] || need+=(libgmp-dev)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
	sudo=""
	if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -o "$tmp/flint_poly" "$here/flint_poly.c" -lflint -lgmp
gcc -O2 -o "$tmp/gmp_int" "$here/gmp_int.c" -lgmp
g++ -O2 -o "$tmp/ntl_poly" "$here/ntl_poly.cpp" -lntl -lgmp -lpthread

if [ "${1:-quick}" = vectors ]; then
	"$tmp/flint_poly" vectors
	exit 0
fi
mode=${1:-quick}

polys="16:64 16:256 16:1024 20:64"
ints="20 24"
if [ "$mode" = full ]; then
	polys="$polys 20:256 20:1024 24:64"
	ints="$ints 28"
fi
# POLYS="LOG:BITS ..." and INTS="LOG ..." replace the lists; MATHBIG_MAX
# (default 28) is the largest integer size math/big runs at.
polys=${POLYS:-$polys}
ints=${INTS:-$ints}
mathbig_max=${MATHBIG_MAX:-28}

cd "$root"
go test -c -o "$tmp/intpoly.test" ./poly/intpoly
cores=$(nproc)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $cores cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); commit: $(git rev-parse --short HEAD); $(go version | cut -d' ' -f3)"
echo "intpoly kernels: $("$tmp/intpoly.test" -test.run TestMulKnown -test.v 2>/dev/null | grep 'ran paths' || true)"

# gobench PATTERN RUNS CPU ARGS...: ms per op of the first benchmark line.
gobench() {
	local pat=$1 runs=$2 cpu=$3
	shift 3
	"$tmp/intpoly.test" -test.run XXX -test.bench "$pat" -test.benchtime "${runs}x" -test.cpu "$cpu" "$@" |
		awk '/^Benchmark/ { for (i = 1; i <= NF; i++) if ($(i+1) == "ns/op") { printf "%.3f\n", $i / 1e6; exit } }'
}
runs_for() { # fewer runs for the big sizes
	if [ "$1" -ge 24 ]; then echo 1; elif [ "$1" -ge 20 ]; then echo 3; else echo 7; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }

echo
echo "| polynomial | FLINT ms | NTL ms | go 1 core ms | go all ms | FLINT / go 1 core | NTL / go 1 core | FLINT / go all |"
echo "|---|---|---|---|---|---|---|---|"
for s in $polys; do
	lg=${s%%:*} bits=${s##*:}
	n=$((1 << lg)) runs=$(runs_for "$lg")
	f=$("$tmp/flint_poly" "$n" "$bits" "$runs" | sed 's/.*median_ms=\([^ ]*\).*/\1/')
	if [ "$lg" -le 20 ]; then
		l=$("$tmp/ntl_poly" "$n" "$bits" "$runs" | sed 's/.*median_ms=\([^ ]*\).*/\1/')
	else
		l=-
	fi
	g1=$(gobench 'BenchmarkMulPacked$' "$runs" 1 -intpoly.logs="$lg" -intpoly.bits="$bits")
	ga=$(gobench 'BenchmarkMulPacked$' "$runs" "$cores" -intpoly.logs="$lg" -intpoly.bits="$bits")
	echo "| 2^$lg × $bits-bit | $f | $l | $g1 | $ga | $(ratio "$f" "$g1") | $(ratio "$l" "$g1") | $(ratio "$f" "$ga") |"
done

echo
echo "| integers | GMP ms | math/big ms | go 1 core ms | go all ms | GMP / go 1 core | math/big / go all |"
echo "|---|---|---|---|---|---|---|"
for lg in $ints; do
	runs=$(runs_for "$lg")
	gm=$("$tmp/gmp_int" $((1 << lg)) "$runs" | sed 's/.*median_ms=\([^ ]*\).*/\1/')
	g1=$(gobench 'BenchmarkMulBig$/bits=2\^'"$lg"'/intpoly' "$runs" 1 -intpoly.intlogs="$lg")
	ga=$(gobench 'BenchmarkMulBig$/bits=2\^'"$lg"'/intpoly' "$runs" "$cores" -intpoly.intlogs="$lg")
	mb=-
	if [ "$lg" -le "$mathbig_max" ]; then
		mb=$(gobench 'BenchmarkMulBig$/bits=2\^'"$lg"'/mathbig' 1 1 -intpoly.intlogs="$lg" -intpoly.mathbig="$lg")
	fi
	echo "| 2^$lg bits | $gm | $mb | $g1 | $ga | $(ratio "$gm" "$g1") | $(ratio "$mb" "$ga") |"
done
