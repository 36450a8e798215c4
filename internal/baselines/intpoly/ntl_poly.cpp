// NTL's ZZX multiplication on two polynomials of N coefficients of BITS
// bits (two's complement, random signs), one thread.
//
//   ntl_poly N BITS RUNS
#include <NTL/ZZX.h>
#include <NTL/BasicThreadPool.h>
extern "C" {
#include "common.h"
}
using namespace NTL;

static void fill(ZZX &a, long n, int bits) {
	uint64_t limbs[64];
	int w = (bits + 63) / 64;
	a.SetLength(n);
	for (long i = 0; i < n; i++) {
		int neg = fill_coeff(limbs, bits);
		unsigned char bytes[512];
		for (int t = 0; t < w; t++)
			for (int j = 0; j < 8; j++) bytes[8 * t + j] = (unsigned char)(limbs[t] >> (8 * j));
		ZZ c = ZZFromBytes(bytes, 8 * w);
		if (neg) c = -c;
		SetCoeff(a, i, c);
	}
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: ntl_poly N BITS RUNS\n");
		return 2;
	}
	long n = atol(argv[1]);
	int bits = atoi(argv[2]), runs = atoi(argv[3]);
	SetNumThreads(1);
	ZZX a, b, c;
	fill(a, n, bits);
	fill(b, n, bits);
	double ms[64];
	mul(c, a, b); // warm-up
	for (int r = 0; r < runs; r++) {
		double t = now();
		mul(c, a, b);
		ms[r] = (now() - t) * 1e3;
	}
	char size[64];
	snprintf(size, sizeof size, "n=%ld/bits=%d", n, bits);
	report("ntl_zzx_mul", size, ms, runs);
	return 0;
}
