#!/usr/bin/env bash
# Builds sppark's NTT driver (driver.cu) for Goldilocks, BabyBear and BN254.
#
#   internal/baselines/sppark/build.sh SPPARK BLST OUT
#
# SPPARK and BLST are unmodified source trees of github.com/supranational/
# sppark and github.com/supranational/blst (../shared/peers/ has both).
# libblst.a (BN254's host-side types need it) is built into OUT with blst's
# own build.sh, portable x86-64 code, on any machine with a C compiler; the
# three drivers (OUT/sppark_<field>) need nvcc and are compiled in parallel
# for sm_90a (H100, H200). What exists in OUT already is kept: run it once
# without nvcc to make libblst.a, then on the GPU machine for the drivers.
# BLST_ONLY=1 stops after libblst.a.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SPPARK BLST OUT" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
sppark=$(cd "$1" && pwd)
blst=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)

if [ ! -f "$out/libblst.a" ]; then
	mkdir -p "$out/blst-build"
	(cd "$out/blst-build" && sh "$blst/build.sh" -D__BLST_PORTABLE__ >/dev/null)
	cp "$out/blst-build/libblst.a" "$out/libblst.a"
	rm -rf "$out/blst-build"
fi
[ -n "${BLST_ONLY:-}" ] && exit 0

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
declare -A feature=([goldilocks]=FEATURE_GOLDILOCKS [babybear]=FEATURE_BABY_BEAR [bn254]=FEATURE_BN254)
pids=()
for f in goldilocks babybear bn254; do
	[ -x "$out/sppark_$f" ] && continue
	"$nvcc" -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I "$sppark" -I "$blst/src" \
		-D"${feature[$f]}" -DTAKE_RESPONSIBILITY_FOR_ERROR_MESSAGE \
		"$here/driver.cu" "$sppark/util/all_gpus.cpp" "$out/libblst.a" -o "$out/sppark_$f" \
		>"$out/build_$f.log" 2>&1 &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
if [ $status -ne 0 ]; then
	cat "$out"/build_*.log >&2
	exit 1
fi
