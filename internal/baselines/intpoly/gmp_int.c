/* GMP's mpz_mul on two integers of exactly BITS bits, one thread.
 *
 *   gmp_int BITS RUNS */
#include <gmp.h>
#include "common.h"

static void fill(mpz_t x, long bits) {
	long w = (bits + 63) / 64;
	uint64_t *l = malloc(w * sizeof(uint64_t));
	for (long t = 0; t < w; t++) l[t] = splitmix64();
	mpz_import(x, w, -1, sizeof(uint64_t), 0, 0, l);
	free(l);
	mpz_fdiv_r_2exp(x, x, bits);
	mpz_setbit(x, bits - 1);
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: gmp_int BITS RUNS\n");
		return 2;
	}
	long bits = atol(argv[1]);
	int runs = atoi(argv[2]);
	mpz_t x, y, z;
	mpz_inits(x, y, z, NULL);
	fill(x, bits);
	fill(y, bits);
	double ms[64];
	mpz_mul(z, x, y); /* warm-up */
	for (int r = 0; r < runs; r++) {
		double t = now();
		mpz_mul(z, x, y);
		ms[r] = (now() - t) * 1e3;
	}
	char size[64];
	snprintf(size, sizeof size, "bits=%ld", bits);
	report("gmp_mpz_mul", size, ms, runs);
	return 0;
}
