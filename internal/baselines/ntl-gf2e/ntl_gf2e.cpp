// ntl_gf2e: the peer of field/gf2n, NTL's GF2E on the same fields.
//
//   ntl_gf2e bench [LOGBATCH] [PASSES]  products per second of GF2E mul over
//                                       a batch of 2^LOGBATCH (default 16)
//                                       random elements, every n, one core
//   ntl_gf2e vectors                    known answers for field/gf2n's tests
//
// The polynomials are field/gf2n's (Field.Poly); the program checks that each
// is irreducible (NTL's IterIrredTest) and that it is the one NTL's own
// BuildSparseIrred picks, and exits with status 1 if not.
#include <NTL/GF2E.h>
#include <NTL/GF2XFactoring.h>
#include <NTL/vec_GF2E.h>
#include <NTL/version.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace NTL;

struct Size {
	long n;
	long exps[3];
};

static const Size sizes[] = {
	{128, {7, 2, 1}}, {256, {10, 5, 2}}, {512, {8, 5, 2}}, {1024, {19, 6, 1}}, {2048, {19, 14, 13}},
};

// splitmix64: the inputs of the known answers, reproducible anywhere.
static uint64_t sm_state;
static uint64_t splitmix64() {
	uint64_t z = (sm_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static GF2X modulus(const Size &s) {
	GF2X f;
	SetCoeff(f, s.n);
	for (long e : s.exps) SetCoeff(f, e);
	SetCoeff(f, 0);
	return f;
}

static bool checkModulus(const Size &s, const GF2X &f) {
	GF2X g;
	BuildSparseIrred(g, s.n);
	if (!IterIrredTest(f) || g != f) {
		fprintf(stderr, "n=%ld: the polynomial is not NTL's sparse irreducible one\n", s.n);
		return false;
	}
	return true;
}

// words -> element: bit j of word i is the coefficient of x^(64i+j).
static GF2E fromWords(const std::vector<uint64_t> &w) {
	GF2X p;
	for (size_t i = 0; i < w.size(); i++)
		for (int j = 0; j < 64; j++)
			if (w[i] >> j & 1) SetCoeff(p, 64 * i + j);
	return conv<GF2E>(p);
}

// hex writes an element as n/4 hexadecimal digits, x^(n-1) first.
static std::string hex(const GF2E &a, long n) {
	const GF2X &p = rep(a);
	std::string s;
	for (long d = n / 4 - 1; d >= 0; d--) {
		int v = 0;
		for (int b = 3; b >= 0; b--) v = v << 1 | (int)IsOne(coeff(p, 4 * d + b));
		s += "0123456789abcdef"[v];
	}
	return s;
}

static int vectors() {
	printf("# Known answers for field/gf2n, computed with NTL %s GF2E by\n", NTL_VERSION);
	printf("# internal/baselines/ntl-gf2e (compare.sh vectors). One line per case:\n");
	printf("# n x y x*y x^2 x^-1, elements in hexadecimal, coefficient of x^(n-1) first.\n");
	for (const Size &s : sizes) {
		GF2X f = modulus(s);
		if (!checkModulus(s, f)) return 1;
		GF2E::init(f);
		long w = s.n / 64;
		sm_state = (uint64_t)s.n;
		std::vector<std::vector<uint64_t>> xs;
		auto word = [&](long i, uint64_t v) { std::vector<uint64_t> e(w, 0); e[i] = v; return e; };
		xs.push_back(word(0, 1));                       // 1
		xs.push_back(word(0, 2));                       // x
		xs.push_back(word(w - 1, 1ULL << 63));          // x^(n-1)
		xs.push_back(std::vector<uint64_t>(w, ~0ULL));  // all ones
		xs.push_back(word(w - 1, ~0ULL));               // the top word full
		for (int k = 0; k < 11; k++) {
			std::vector<uint64_t> e(w);
			for (auto &v : e) v = splitmix64();
			xs.push_back(e);
		}
		for (size_t i = 0; i < xs.size(); i++) {
			GF2E x = fromWords(xs[i]), y = fromWords(xs[(i * 7 + 3) % xs.size()]);
			GF2E xy = x * y, xx = sqr(x), xi = inv(x);
			printf("%ld %s %s %s %s %s\n", s.n, hex(x, s.n).c_str(), hex(y, s.n).c_str(),
			       hex(xy, s.n).c_str(), hex(xx, s.n).c_str(), hex(xi, s.n).c_str());
		}
	}
	return 0;
}

static int bench(long logBatch, int passes) {
	long count = 1L << logBatch;
	for (const Size &s : sizes) {
		GF2X f = modulus(s);
		if (!checkModulus(s, f)) return 1;
		GF2E::init(f);
		vec_GF2E a, b, c;
		a.SetLength(count);
		b.SetLength(count);
		c.SetLength(count);
		for (long i = 0; i < count; i++) {
			random(a[i]);
			random(b[i]);
			c[i] = a[i]; // sized once, outside the timed loop
		}
		double best = 1e30, total = 0;
		for (int p = 0; p < passes; p++) {
			auto t0 = std::chrono::steady_clock::now();
			for (long i = 0; i < count; i++) mul(c[i], a[i], b[i]);
			double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
			best = std::min(best, sec);
			total += sec;
		}
		printf("ntl-gf2e n=%ld batch=%ld best-Mprod/s %.3f run-Mprod/s %.3f\n", s.n, count,
		       count / best / 1e6, count * passes / total / 1e6);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv) {
	if (argc >= 2 && strcmp(argv[1], "vectors") == 0) return vectors();
	if (argc >= 2 && strcmp(argv[1], "bench") == 0) {
		long logBatch = argc >= 3 ? atol(argv[2]) : 16;
		int passes = argc >= 4 ? atoi(argv[3]) : 5;
		if (logBatch < 0 || logBatch > 24 || passes < 1) {
			fprintf(stderr, "usage: ntl_gf2e bench [LOGBATCH 0..24] [PASSES >= 1]\n");
			return 2;
		}
		return bench(logBatch, passes);
	}
	fprintf(stderr, "usage: ntl_gf2e bench [LOGBATCH] [PASSES] | ntl_gf2e vectors\n");
	return 2;
}
