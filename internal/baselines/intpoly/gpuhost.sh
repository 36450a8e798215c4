#!/usr/bin/env bash
# Issue 19's GPU targets on one machine: gpu/intntt's products and the
# peers (FLINT's fmpz_poly_mul and GMP's mpz_mul, one thread) measured in
# the same session on the GPU host. That host has no Go and no Debian -dev
# packages, so everything is built on a development machine and carried:
#
#   gpuhost.sh bundle DIR   (dev) builds into DIR: gmp_int and ntl_poly
#                           statically linked; flint_poly dynamically (Debian
#                           ships no libflint.a) with the shared libraries it
#                           loads and their loader in DIR/lib; the test
#                           binary intntt.test (CGO_ENABLED=0). All gzipped.
#   gpuhost.sh run DIR OUT  (GPU host) unpacks DIR, runs gpu/intntt's tests
#                           (full, not -short; NOTESTS=1 skips them) and the
#                           shorter FLINT products while the three longest
#                           run on three cores of their own (taskset), then
#                           GMP and the GPU benchmarks back to back on the
#                           otherwise idle machine, and prints the tables;
#                           logs go to OUT.
#
# Peers' operands come from common.h (|x| < 2^(BITS-1), random signs), ours
# from fastPacked (|x| < 2^BITS, random signs): the same transform sizes
# and prime counts up to one bit of bound.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mode=${1:?usage: gpuhost.sh bundle DIR | run DIR OUT}
dir=${2:?usage: gpuhost.sh bundle DIR | run DIR OUT}

if [ "$mode" = bundle ]; then
	mkdir -p "$dir/lib"
	gcc -O2 -static -o "$dir/gmp_int" "$here/gmp_int.c" -lgmp
	g++ -O2 -static -o "$dir/ntl_poly" "$here/ntl_poly.cpp" -lntl -lgmp -lpthread
	gcc -O2 -o "$dir/flint_poly" "$here/flint_poly.c" -lflint -lgmp
	# The libraries flint_poly loads, and the loader that runs it with them
	# (so that the host's own glibc version does not matter).
	ldd "$dir/flint_poly" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }' | while read -r l; do
		cp -L "$l" "$dir/lib/"
	done
	(cd "$root" && CGO_ENABLED=0 go test -c -o "$dir/intntt.test" ./gpu/intntt)
	gzip -f "$dir"/gmp_int "$dir"/ntl_poly "$dir"/flint_poly "$dir"/intntt.test "$dir"/lib/*
	du -sh "$dir"
	exit 0
fi

out=${3:?usage: gpuhost.sh run DIR OUT}
mkdir -p "$out"
gunzip -f "$dir"/*.gz "$dir"/lib/*.gz 2>/dev/null || true
chmod +x "$dir"/gmp_int "$dir"/ntl_poly "$dir"/flint_poly "$dir"/intntt.test "$dir"/lib/ld-linux*
pin() { # pin CORES CMD...: CMD on those cores where taskset exists
	local c=$1
	shift
	if command -v taskset >/dev/null && [ "$(nproc)" -ge 4 ]; then taskset -c "$c" "$@"; else "$@"; fi
}
flintcmd=("$dir"/lib/ld-linux-x86-64.so.2 --library-path "$dir/lib" "$dir/flint_poly")
ms() { sed 's/.*median_ms=\([^ ]*\).*/\1/'; }
cores=$(nproc)
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $cores cores; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo no nvidia-smi)"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"

# The longest FLINT products, one cold call each, on the last three cores;
# meanwhile the tests (NOTESTS=1 skips them) on the others, then the other
# FLINT products on core 0.
last=$((cores - 1))
pin $last "${flintcmd[@]}" $((1 << 24)) 64 1 0 >"$out/flint_24_64.txt" &
pin $((last - 1)) "${flintcmd[@]}" $((1 << 20)) 1024 1 0 >"$out/flint_20_1024.txt" &
pin $((last - 2)) "${flintcmd[@]}" $((1 << 20)) 256 1 1 >"$out/flint_20_256.txt" &
if [ -z "${NOTESTS:-}" ]; then
	pin 0-$((last - 3)) "$dir/intntt.test" -test.v -test.timeout 150s ${TESTRUN:+-test.run "$TESTRUN"} >"$out/tests.txt" 2>&1 && echo "tests: PASS" || echo "tests: FAIL"
	grep -E '^(--- |ok|FAIL|PASS)|intntt_test|emu_test' "$out/tests.txt" | tail -40 || true
fi
declare -A peer
for s in 16:64:7 16:256:7 16:1024:3 20:64:3; do
	IFS=: read -r lg bits runs <<<"$s"
	peer[$lg:$bits]=$(pin 0 "${flintcmd[@]}" $((1 << lg)) "$bits" "$runs" | ms)
done
wait

# GMP, then the GPU benchmarks (the machine otherwise idle).
peer[24:64]=$(ms <"$out/flint_24_64.txt")
peer[20:1024]=$(ms <"$out/flint_20_1024.txt")
peer[20:256]=$(ms <"$out/flint_20_256.txt")
for lg in 20 24 28; do
	runs=3
	peer[int:$lg]=$("$dir/gmp_int" $((1 << lg)) "$runs" | ms)
done
# (-test.bench splits its pattern at slashes, one part a level: MulPacked's
# names have four levels, MulBig's three.)
for pat in 'MulPacked$/.*/.*/gpu' 'MulBig$/.*/gpu'; do
	"$dir/intntt.test" -test.run '^$' -test.bench "$pat" -test.benchtime 3x >>"$out/bench.txt" 2>&1 || { tail -20 "$out/bench.txt"; exit 1; }
done

# field VALUE-BEFORE-UNIT LINE-PATTERN: the number before the unit on the
# benchmark line matching the pattern.
field() {
	awk -v pat="$2" -v unit="$1" '{ name = $1; sub(/-[0-9]+$/, "", name) } name == pat { for (i = 2; i <= NF; i++) if ($(i+1) == unit) { print $i; exit } }' "$out/bench.txt"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1f", a / b; else print "-" }'; }
echo
echo "| polynomial | FLINT 1 thread ms | GPU host to host ms | GPU device ms | FLINT / GPU host to host | FLINT / GPU device |"
echo "|---|---|---|---|---|---|"
for s in 16:64 16:256 16:1024 20:64 20:256 20:1024 24:64; do
	lg=${s%%:*} bits=${s##*:}
	h=$(field ns/op "BenchmarkMulPacked/n=2^$lg/bits=$bits/gpu")
	h=$(awk -v v="$h" 'BEGIN { if (v != "") printf "%.3f", v / 1e6 }')
	dv=$(field device-ms "BenchmarkMulPacked/n=2^$lg/bits=$bits/gpu-device")
	f=${peer[$lg:$bits]}
	echo "| 2^$lg × $bits-bit | $f | $h | $dv | $(ratio "$f" "$h") | $(ratio "$f" "$dv") |"
done
echo
echo "| integers | GMP 1 thread ms | GPU MulBig ms | GPU MulNat host to host ms | GPU device ms | GMP / MulBig | GMP / MulNat | GMP / device |"
echo "|---|---|---|---|---|---|---|---|"
for lg in 20 24 28; do
	mb=$(field ns/op "BenchmarkMulBig/bits=2^$lg/gpu")
	mn=$(field ns/op "BenchmarkMulBig/bits=2^$lg/gpu-nat")
	dv=$(field device-ms "BenchmarkMulBig/bits=2^$lg/gpu-device")
	mb=$(awk -v v="$mb" 'BEGIN { if (v != "") printf "%.3f", v / 1e6 }')
	mn=$(awk -v v="$mn" 'BEGIN { if (v != "") printf "%.3f", v / 1e6 }')
	g=${peer[int:$lg]}
	echo "| 2^$lg bits | $g | $mb | $mn | $dv | $(ratio "$g" "$mb") | $(ratio "$g" "$mn") | $(ratio "$g" "$dv") |"
done
