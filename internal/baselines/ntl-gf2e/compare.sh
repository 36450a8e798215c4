#!/usr/bin/env bash
# Compares field/gf2n's MulVec with NTL's GF2E multiplication on the same
# fields, one core each, a batch of 2^16 random elements (the issue's size),
# for n = 128 … 2048. NTL (Debian's libntl-dev) and our benchmark run one
# after the other ROUNDS times so that both see the same machine load; the
# script prints the median over the rounds of each figure, in millions of
# products per second, and the ratio to NTL.
#
#   internal/baselines/ntl-gf2e/compare.sh [ROUNDS]   (from anywhere; default 5)
#   internal/baselines/ntl-gf2e/compare.sh vectors    known answers, to stdout
#                                                     (field/gf2n/testdata/ntl_vectors.txt)
#
# "best" is the fastest single pass over the batch, "run" the average over
# all passes (NTL: 5 passes; Go: the benchmark's whole run). The Go
# benchmark runs with -test.cpu 1, so MulVec stays on one goroutine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)

need=()
[ -f /usr/include/NTL/GF2E.h ] || need+=(libntl-dev)
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
g++ -O2 -o "$tmp/ntl_gf2e" "$here/ntl_gf2e.cpp" -lntl -lgmp -lpthread

if [ "${1:-}" = vectors ]; then
	"$tmp/ntl_gf2e" vectors
	exit 0
fi

rounds=${1:-5}
(cd "$root" && go test -c -o "$tmp/gf2n.test" ./field/gf2n/)
echo "NTL: $(dpkg-query -W -f '${Version}' libntl-dev 2>/dev/null || echo unknown); $(go version); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
	"$tmp/ntl_gf2e" bench 16 5 >>"$tmp/ntl.txt"
	"$tmp/gf2n.test" -test.run '^$' -test.bench '^BenchmarkMulVec$' -test.cpu 1 \
		-test.benchtime=5x >>"$tmp/go.txt"
done
python3 - "$tmp/ntl.txt" "$tmp/go.txt" <<'PY'
import re, statistics, sys
ntl = {}  # n -> {"best": [...], "run": [...]}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "ntl-gf2e":
        n = int(f[1].split("=")[1])
        d = ntl.setdefault(n, {"best": [], "run": []})
        d["best"].append(float(f[f.index("best-Mprod/s") + 1]))
        d["run"].append(float(f[f.index("run-Mprod/s") + 1]))
ours = {}  # (path, n) -> {"best": [...], "run": [...]}
for line in open(sys.argv[2]):
    m = re.match(r"BenchmarkMulVec/(\w+)/n=(\d+)\S*\s", line)
    if not m:
        continue
    f = line.split()
    d = ours.setdefault((m.group(1), int(m.group(2))), {"best": [], "run": []})
    d["best"].append(float(f[f.index("best-Mprod/s") - 1]))
    d["run"].append(float(f[f.index("Mprod/s") - 1]))
med = statistics.median
paths = [p for p in ("generic", "pclmulqdq", "avx512") if any(k[0] == p for k in ours)]
print("MulVec, batch 2^16, one core: median Mprod/s over the rounds, best pass / run; ratio = best / NTL best")
hdr = "| n | NTL GF2E | " + " | ".join(f"{p} | ratio" for p in paths) + " |"
print(hdr)
print("|---:|---:|" + "---:|---:|" * len(paths))
for n in sorted(ntl):
    nb, nr = med(ntl[n]["best"]), med(ntl[n]["run"])
    row = f"| {n} | {nb:.3g} / {nr:.3g} |"
    for p in paths:
        d = ours.get((p, n))
        if not d:
            row += " — | — |"
            continue
        b, r = med(d["best"]), med(d["run"])
        row += f" {b:.4g} / {r:.4g} | {b / nb:.1f}× |"
    print(row)
PY
