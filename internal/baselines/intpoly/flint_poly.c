/* FLINT's fmpz_poly_mul on two polynomials of N coefficients of BITS bits
 * (two's complement, random signs), one thread.
 *
 *   flint_poly N BITS RUNS [WARM]  timing line after WARM warm-up calls
 *                                  (default 1)
 *   flint_poly vectors         known answers for poly/intpoly's tests */
#include <flint/flint.h>
#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>
#include <string.h>
#include "common.h"

static void fill(fmpz_poly_t a, long n, int bits) {
	uint64_t limbs[64];
	fmpz_t c;
	fmpz_init(c);
	fmpz_poly_fit_length(a, n);
	for (long i = 0; i < n; i++) {
		int w = (bits + 63) / 64;
		int neg = fill_coeff(limbs, bits);
		fmpz_set_ui_array(c, (const ulong *)limbs, w);
		if (neg) fmpz_neg(c, c);
		fmpz_poly_set_coeff_fmpz(a, i, c);
	}
	fmpz_clear(c);
}

static void print_poly(const char *tag, const fmpz_poly_t a, long n) {
	printf("%s %ld", tag, n);
	for (long i = 0; i < n; i++) {
		fmpz_t c;
		fmpz_init(c);
		fmpz_poly_get_coeff_fmpz(c, a, i);
		printf(" ");
		fmpz_print(c);
		fmpz_clear(c);
	}
	printf("\n");
}

int main(int argc, char **argv) {
	flint_set_num_threads(1);
	if (argc == 2 && strcmp(argv[1], "vectors") == 0) {
		/* Mixed lengths and sizes: 70 x 45 coefficients of 200 and 130 bits,
		 * and 33 x 33 of 1000 bits. */
		long shapes[][4] = {{70, 200, 45, 130}, {33, 1000, 33, 1000}};
		for (int s = 0; s < 2; s++) {
			fmpz_poly_t a, b, c;
			fmpz_poly_init(a); fmpz_poly_init(b); fmpz_poly_init(c);
			fill(a, shapes[s][0], (int)shapes[s][1]);
			fill(b, shapes[s][2], (int)shapes[s][3]);
			fmpz_poly_mul(c, a, b);
			print_poly("a", a, shapes[s][0]);
			print_poly("b", b, shapes[s][2]);
			print_poly("c", c, shapes[s][0] + shapes[s][2] - 1);
			fmpz_poly_clear(a); fmpz_poly_clear(b); fmpz_poly_clear(c);
		}
		return 0;
	}
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: flint_poly N BITS RUNS [WARM] | flint_poly vectors\n");
		return 2;
	}
	long n = atol(argv[1]);
	int bits = atoi(argv[2]), runs = atoi(argv[3]), warm = argc == 5 ? atoi(argv[4]) : 1;
	if (runs < 1 || runs > 64 || warm < 0) {
		fprintf(stderr, "flint_poly: RUNS must be 1..64, WARM at least 0\n");
		return 2;
	}
	fmpz_poly_t a, b, c;
	fmpz_poly_init(a); fmpz_poly_init(b); fmpz_poly_init(c);
	fill(a, n, bits);
	fill(b, n, bits);
	double ms[64];
	for (int w = 0; w < warm; w++)
		fmpz_poly_mul(c, a, b);
	for (int r = 0; r < runs; r++) {
		double t = now();
		fmpz_poly_mul(c, a, b);
		ms[r] = (now() - t) * 1e3;
	}
	char size[64];
	snprintf(size, sizeof size, "n=%ld/bits=%d", n, bits);
	report("flint_fmpz_poly_mul", size, ms, runs);
	return 0;
}
