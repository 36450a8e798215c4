// Times sppark's prime-field NTT (github.com/supranational/sppark, ntt/ntt.cuh)
// with the data on the device, for gfpoly's comparison table (issue 24).
// Compiled once per field by compare.sh (-DFEATURE_GOLDILOCKS,
// -DFEATURE_BABY_BEAR or -DFEATURE_BN254) against unmodified sppark and blst
// sources. Every figure is the median over SAMPLES samples, each timed with
// CUDA events around INNER calls launched back to back on sppark's own
// stream, after WARM untimed samples, divided by INNER; the same protocol as
// gfpoly's TestSpparkTable (gpu/primentt).
//
// Output, one line per measurement, read by TestSpparkTable:
//   copy <bytes read + written per second>            device-to-device copy
//   ntt <lg> <NR|NN> <fwd|inv> <ms>                     NTT::Base_dev_ptr
//   lde <lg> <lg_blowup> <ms>                           LDE_aux's composition on the device
//   batch <cols> <lg> <ms>                              Base_dev_ptr once per column (NR, forward)
//
//   driver <min lg> <max lg>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <random>

#if defined(FEATURE_GOLDILOCKS)
# include <ff/goldilocks.hpp>
static const char *FIELD = "goldilocks";
#elif defined(FEATURE_BABY_BEAR)
# include <ff/baby_bear.hpp>
static const char *FIELD = "babybear";
#elif defined(FEATURE_BN254)
# include <ff/alt_bn128.hpp>
static const char *FIELD = "bn254";
#else
# error "define FEATURE_GOLDILOCKS, FEATURE_BABY_BEAR or FEATURE_BN254"
#endif
#include <ntt/ntt.cuh>

static const int WARM = 2, SAMPLES = 9, INNER = 8;

#define CK(x)                                                                   \
    do {                                                                        \
        cudaError_t e_ = (x);                                                   \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                    cudaGetErrorString(e_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

// LDE_aux's device work, as its host entry point composes it: the inverse
// NTT (NR) of the domain data aligned to the end of the extended buffer, the
// spread with the coset shift's powers, the forward NTT (RN) of the extended
// domain.
struct LDE : public NTT {
    static void run(stream_t &s, fr_t *ext, uint32_t lg, uint32_t lgb) {
        fr_t *dom = ext + ((size_t)1 << (lg + lgb)) - ((size_t)1 << lg);
        NTT_internal(dom, lg, InputOutputOrder::NR, Direction::inverse, Type::standard, s);
        const auto gen_powers = NTTParameters::all()[s.id()].partial_group_gen_powers;
        LDE_launch(s, ext, dom, gen_powers, lg, lgb);
        NTT_internal(ext, lg + lgb, InputOutputOrder::RN, Direction::forward, Type::standard, s);
    }
};

// random elements below the modulus, as words (canonical Montgomery forms)
static void fill(std::vector<uint64_t> &w, size_t n) {
    std::mt19937_64 r(42);
    size_t per = sizeof(fr_t) / 8 ? sizeof(fr_t) / 8 : 1;
    if (sizeof(fr_t) == 4) {
        uint32_t *p = reinterpret_cast<uint32_t *>(w.data());
        for (size_t i = 0; i < n; i++) p[i] = (uint32_t)(r() % 2013265921u);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < per; j++) w[i * per + j] = r();
        if (per == 1) w[i] %= 0xffffffff00000001ull;
        else w[i * per + 3] %= 0x30644e72e131a029ull;
    }
}

template <class F>
static double timeit(stream_t &s, F f) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < WARM; i++)
        for (int j = 0; j < INNER; j++) f();
    CK(cudaStreamSynchronize(s));
    std::vector<double> t;
    for (int i = 0; i < SAMPLES; i++) {
        CK(cudaEventRecord(a, s));
        for (int j = 0; j < INNER; j++) f();
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / INNER);
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv) {
    int lo = argc > 1 ? atoi(argv[1]) : 12, hi = argc > 2 ? atoi(argv[2]) : 26;
    const gpu_t &gpu = select_gpu(0);
    stream_t &s = gpu;
    fprintf(stderr, "sppark %s on %s\n", FIELD, gpu.props().name);

    const size_t maxN = (size_t)1 << std::max(hi, 26);
    const size_t words = maxN * sizeof(fr_t) / 8;
    std::vector<uint64_t> host(words);
    fill(host, maxN);
    fr_t *d, *d2;
    CK(cudaMalloc(&d, maxN * sizeof(fr_t)));
    CK(cudaMalloc(&d2, maxN * sizeof(fr_t)));
    CK(cudaMemcpy(d, host.data(), maxN * sizeof(fr_t), cudaMemcpyHostToDevice));

    // copy rate: 2^26 elements (bytes read + written)
    {
        size_t bytes = maxN * sizeof(fr_t);
        double ms = timeit(s, [&] { CK(cudaMemcpyAsync(d2, d, bytes, cudaMemcpyDeviceToDevice, s)); });
        printf("copy %.4e\n", 2.0 * bytes / (ms * 1e-3));
    }

    typedef NTT::InputOutputOrder IO;
    typedef NTT::Direction Dir;
    for (int lg = lo; lg <= hi; lg++) {
        for (IO o : {IO::NR, IO::NN}) {
            for (Dir dir : {Dir::forward, Dir::inverse}) {
                double ms = timeit(s, [&] { NTT::Base_dev_ptr(s, d, lg, o, dir, NTT::Type::standard); });
                printf("ntt %d %s %s %.5f\n", lg, o == IO::NR ? "NR" : "NN", dir == Dir::forward ? "fwd" : "inv", ms);
                fflush(stdout);
            }
        }
    }
    for (int lg : {22, 24}) {
        if (lg + 2 > std::max(hi, 26)) continue;
        double ms = timeit(s, [&] { LDE::run(s, d, lg, 2); });
        printf("lde %d 2 %.5f\n", lg, ms);
        fflush(stdout);
    }
    for (auto cb : {std::make_pair(256, 16), std::make_pair(64, 20)}) {
        int cols = cb.first, lg = cb.second;
        size_t n = (size_t)1 << lg;
        if (cols * n > maxN) continue;
        double ms = timeit(s, [&] {
            for (int c = 0; c < cols; c++)
                NTT::Base_dev_ptr(s, d + c * n, lg, IO::NR, Dir::forward, NTT::Type::standard);
        });
        printf("batch %d %d %.5f\n", cols, lg, ms);
        fflush(stdout);
    }
    CK(cudaFree(d));
    CK(cudaFree(d2));
    return 0;
}
