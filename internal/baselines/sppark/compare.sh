#!/usr/bin/env bash
# Times sppark's prime-field NTT beside gfpoly's on this machine's GPU and
# prints one table (issue 24): every size 2^MIN..2^MAX (default 12..26) of
# Goldilocks, BabyBear and BN254, orders NR (gfpoly's DIF) and NN (Natural),
# forward and inverse, the LDE x4 from 2^22 and 2^24 (natural orders) and
# batches of 256 columns of 2^16 and 64 of 2^20 (sppark called once per
# column). Both sides: data on the device, median of 9 samples of 8 calls
# launched back to back, timed with events. Ratios are sppark's time over
# gfpoly's (> 1: gfpoly is faster); "% of floor" is the time of one read and
# one write of the data at the copy rate measured in the same run.
#
#   internal/baselines/sppark/compare.sh SPPARK BLST [OUT]
#
# SPPARK and BLST: source trees of sppark and blst (../shared/peers/);
# OUT (default a temporary folder) keeps libblst.a, the drivers and their
# output. On a GPU machine without Go, PRIMENTT_TEST names a test binary
# built elsewhere: CGO_ENABLED=0 go test -c -o primentt.test ./gpu/primentt
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 SPPARK BLST [OUT]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${3:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
min=${MIN:-12}
max=${MAX:-26}

"$here/build.sh" "$1" "$2" "$out"
for f in goldilocks babybear bn254; do
	"$out/sppark_$f" "$min" "$max" >"$out/sppark_$f.txt"
done
test=${PRIMENTT_TEST:-}
if [ -z "$test" ]; then
	test="$out/primentt.test"
	(cd "$root" && CGO_ENABLED=0 go test -c -o "$test" ./gpu/primentt)
fi
"$test" -test.run '^TestSpparkTable$' -test.v -gpu.sppark="$out" -gpu.spparkmin="$min" -gpu.spparkmax="$max"
