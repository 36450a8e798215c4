/* Shared by the intpoly baselines: a deterministic generator of the same
 * kind of operands the Go benchmarks use (random two's-complement
 * coefficients of BITS bits, i.e. |x| < 2^(BITS-1), random signs; random
 * integers of exactly BITS bits), a monotonic clock and the result line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t splitmix64(void) {
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* fill_coeff writes |x| as (bits+63)/64 limbs with |x| < 2^(bits-1) and
 * returns the sign (1: negative). */
static int fill_coeff(uint64_t *limbs, int bits) {
	int w = (bits + 63) / 64;
	for (int t = 0; t < w; t++) limbs[t] = splitmix64();
	int top = bits - 1 - 64 * (w - 1); /* magnitude bits in the top limb */
	if (top < 64) limbs[w - 1] &= (top == 0) ? 0 : ((1ull << top) - 1);
	return (int)(splitmix64() & 1);
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The result line compare.sh reads: name, size, median and best of the
 * timed runs in milliseconds. */
static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *name, const char *size, double *ms, int runs) {
	qsort(ms, runs, sizeof(double), cmp_double);
	printf("%s %s median_ms=%.3f best_ms=%.3f runs=%d\n", name, size, ms[runs / 2], ms[0], runs);
}
