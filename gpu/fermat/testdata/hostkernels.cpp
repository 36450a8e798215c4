// Runs cuda/fermat.cu's kernels on the host, for gpu/fermat's
// TestKernelsOnHost: the CUDA keywords become plain C++, blocks run one
// after another, and the threads of a block that meets at __syncthreads
// run as fibers (ucontext) on one host thread: each runs until its next
// __syncthreads, then the next one does, so one round over the block's
// fibers is one barrier interval. (Host threads at a std::barrier, one per
// CUDA thread, cost a thread start per thread and block and a scheduler
// round trip per thread and barrier: half a minute for the test's sizes.)
// The launch sequences are gpu/fermat's (queueTransform, mulWordsDevice).
// Usage: hostkernels DIR, DIR holding the test's inputs (little-endian u64
// files); outputs are written there.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <ucontext.h>
#include <vector>

struct dim3h {
    unsigned x, y, z;
};
dim3h threadIdx, blockIdx, blockDim, gridDim;

// The fibers of the block being run: fiber t is CUDA thread t; the
// scheduler (launch) sets threadIdx before it resumes a fiber.
static ucontext_t scheduler;
static std::vector<ucontext_t> fibers;
static std::vector<std::vector<char>> stacks;
static std::vector<char> finished;
static unsigned current;
static const std::function<void()> *kernel;
static const size_t stackBytes = 256 << 10;

#define __device__ inline
#define __forceinline__
#define __global__
#define __shared__ static
#define __launch_bounds__(...)
inline void __syncthreads() { swapcontext(&fibers[current], &scheduler); }

static void fiberMain() {
    (*kernel)();
    finished[current] = 1;
} // returns to uc_link, the scheduler
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
struct ulonglong2 {
    unsigned long long x, y;
};
#include "fermat.cu"

static std::string dir;

static std::vector<u64> rd(const std::string &name) {
    std::string f = dir + "/" + name;
    FILE *fp = fopen(f.c_str(), "rb");
    if (!fp) {
        perror(f.c_str());
        exit(2);
    }
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    std::vector<u64> v(sz / 8);
    if (sz > 0 && fread(v.data(), 1, sz, fp) != (size_t)sz)
        exit(2);
    fclose(fp);
    return v;
}

static void wr(const std::string &name, const std::vector<u64> &v) {
    std::string f = dir + "/" + name;
    FILE *fp = fopen(f.c_str(), "wb");
    if (!fp || fwrite(v.data(), 8, v.size(), fp) != v.size())
        exit(2);
    fclose(fp);
}

// launch runs k on grid x block threads; sync: the kernel calls
// __syncthreads, so each block's threads run as fibers, round by round.
static void launch(unsigned grid, unsigned block, bool sync, const std::function<void()> &k) {
    blockDim = {block, 1, 1};
    gridDim = {grid, 1, 1};
    if (sync && fibers.size() < block) {
        fibers.resize(block);
        stacks.resize(block);
        finished.resize(block);
    }
    for (unsigned b = 0; b < grid; b++) {
        blockIdx = {b, 0, 0};
        if (!sync) {
            for (unsigned t = 0; t < block; t++) {
                threadIdx = {t, 0, 0};
                k();
            }
            continue;
        }
        kernel = &k;
        for (unsigned t = 0; t < block; t++) {
            stacks[t].resize(stackBytes);
            getcontext(&fibers[t]);
            fibers[t].uc_stack.ss_sp = stacks[t].data();
            fibers[t].uc_stack.ss_size = stacks[t].size();
            fibers[t].uc_link = &scheduler;
            makecontext(&fibers[t], fiberMain, 0);
            finished[t] = 0;
        }
        for (unsigned live = block; live > 0;) {
            for (unsigned t = 0; t < block; t++) {
                if (finished[t])
                    continue;
                current = t;
                threadIdx = {t, 0, 0};
                swapcontext(&scheduler, &fibers[t]);
                if (finished[t])
                    live--;
            }
        }
    }
}

static unsigned grid(u64 n) { return (unsigned)((n + 255) / 256); }

// transform is queueTransform: in place on a, scr as scratch.
static void transform(std::vector<u64> &a, std::vector<u64> &scr, const std::vector<u64> &tw,
                      const std::vector<u64> &inv, int logn, bool inverse) {
    u64 n = 1ULL << logn;
    u64 *res = a.data();
    if (n > 1) {
        u64 *src = a.data(), *dst = scr.data();
        int first = logn % 4 ? logn % 4 : 4;
        int logns = 0;
        for (int lr = first;; lr = 4) {
            if (lr == 4) {
                launch((unsigned)((n / 16 + 31) / 32), 256, true,
                       [=, &tw] { fermat_pass16(dst, src, tw.data(), logn, logns); });
            } else {
                unsigned g = (unsigned)(((n >> lr) + 127) / 128);
                if (lr == 1)
                    launch(g, 128, false, [=] { fermat_pass2(dst, src, logn); });
                if (lr == 2)
                    launch(g, 128, false, [=] { fermat_pass4(dst, src, logn); });
                if (lr == 3)
                    launch(g, 128, false, [=] { fermat_pass8(dst, src, logn); });
            }
            std::swap(src, dst);
            logns += lr;
            if (logns == logn)
                break;
        }
        res = src;
    }
    if (inverse) {
        launch(grid(n / 2 + 1), 256, false, [&] { fermat_revscale(a.data(), res, logn, inv.data()); });
    } else if (res != a.data()) {
        memcpy(a.data(), res, 64 * n);
    }
}

int main(int argc, char **argv) {
    if (argc != 2)
        return 2;
    dir = argv[1];
    auto cfg = rd("config.bin"); // transform lengths (log2), then product cases
    u64 nt = cfg[0];
    for (u64 i = 0; i < nt; i++) {
        int k = (int)cfg[1 + i];
        std::string s = std::to_string(k);
        auto in = rd("in_" + s + ".bin"), tw = rd("tw_" + s + ".bin"), inv = rd("inv_" + s + ".bin");
        std::vector<u64> a = in, scr(in.size());
        transform(a, scr, tw, inv, k, false);
        wr("fft_" + s + ".bin", a);
        a = in;
        transform(a, scr, tw, inv, k, true);
        wr("ifft_" + s + ".bin", a);
    }
    u64 np = cfg[1 + nt];
    for (u64 c = 0; c < np; c++) {
        // case: b, na, nb, log2 n; operands x, y; the product's words out
        std::string s = std::to_string(c);
        auto p = rd("mb_" + s + ".bin"), x = rd("mbx_" + s + ".bin"), y = rd("mby_" + s + ".bin");
        unsigned b = (unsigned)p[0];
        u64 na = p[1], nb = p[2];
        int k = (int)p[3];
        u64 n = 1ULL << k, count = na + nb - 1, nz = x.size() + y.size();
        std::string ks = std::to_string(k);
        auto tw = rd("mbtw_" + s + ".bin"), inv = rd("mbinv_" + s + ".bin");
        std::vector<u64> ea(8 * n), eb(8 * n), scr(8 * n), lo(nz), hi(nz);
        launch(grid(n), 256, false, [&] { fermat_from_chunks(ea.data(), x.data(), x.size(), na, b, n); });
        launch(grid(n), 256, false, [&] { fermat_from_chunks(eb.data(), y.data(), y.size(), nb, b, n); });
        transform(ea, scr, tw, inv, k, false);
        transform(eb, scr, tw, inv, k, false);
        launch(grid(n), 256, false, [&] { fermat_mulvec(ea.data(), ea.data(), eb.data(), n); });
        transform(ea, scr, tw, inv, k, true);
        launch(grid(count), 256, false, [&] { fermat_to_words(ea.data(), count); });
        launch(grid(nz), 256, false, [&] { fermat_gather(lo.data(), hi.data(), ea.data(), count, b, nz); });
        std::vector<u64> lohi(lo);
        lohi.insert(lohi.end(), hi.begin(), hi.end());
        wr("mbz_" + s + ".bin", lohi);
    }
    return 0;
}
