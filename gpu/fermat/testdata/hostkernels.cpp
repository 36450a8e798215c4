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
// files); outputs are written there. It includes C headers only: the C++
// library's <functional>, <string> and <vector> took g++ more time than
// the kernels (0.8 s of 1.3 at -O0).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

struct dim3h {
    unsigned x, y, z;
};
dim3h threadIdx, blockIdx, blockDim, gridDim;

// The fibers of the block being run: fiber t is CUDA thread t; the
// scheduler (launch) sets threadIdx before it resumes a fiber.
static ucontext_t scheduler;
static ucontext_t *fibers;
static char **stacks;
static char *finished;
static unsigned nfibers;
static unsigned current;
static void (*kernelCall)(const void *); // calls the kernel closure at kernelArg
static const void *kernelArg;
static const size_t stackBytes = 256 << 10;

#define __device__ inline
#define __forceinline__
#define __global__
#define __shared__ static
#define __launch_bounds__(...)
inline void __syncthreads() { swapcontext(&fibers[current], &scheduler); }

static void fiberMain() {
    kernelCall(kernelArg);
    finished[current] = 1;
} // returns to uc_link, the scheduler
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
struct ulonglong2 {
    unsigned long long x, y;
};
#include "fermat.cu"

static void *alloc(size_t bytes) {
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p)
        exit(3);
    return p;
}

// vec is a file's words or a buffer of them.
struct vec {
    u64 *p;
    u64 n;
};

static vec mkvec(u64 n) { return vec{(u64 *)alloc(8 * n), n}; }

static vec dup(vec v) {
    vec d = mkvec(v.n);
    memcpy(d.p, v.p, 8 * v.n);
    return d;
}

static const char *dir;

static FILE *open(const char *name, const char *mode) {
    char f[4096];
    snprintf(f, sizeof f, "%s/%s", dir, name);
    FILE *fp = fopen(f, mode);
    if (!fp) {
        perror(f);
        exit(2);
    }
    return fp;
}

static vec rd(const char *name) {
    FILE *fp = open(name, "rb");
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    vec v = mkvec(sz / 8);
    if (sz > 0 && fread(v.p, 1, sz, fp) != (size_t)sz)
        exit(2);
    fclose(fp);
    return v;
}

// rdf reads the file named by the format and number: rdf("in_%d.bin", k).
static vec rdf(const char *format, u64 i) {
    char name[256];
    snprintf(name, sizeof name, format, (int)i);
    return rd(name);
}

// wrf writes the n words at p and the m at q to the file named as rdf's.
static void wrf(const char *format, u64 i, const u64 *p, u64 n, const u64 *q = 0, u64 m = 0) {
    char name[256];
    snprintf(name, sizeof name, format, (int)i);
    FILE *fp = open(name, "wb");
    if (fwrite(p, 8, n, fp) != n || (m && fwrite(q, 8, m, fp) != m))
        exit(2);
    fclose(fp);
}

// launch runs k on grid x block threads; sync: the kernel calls
// __syncthreads, so each block's threads run as fibers, round by round.
template <class K> static void launch(unsigned grid, unsigned block, bool sync, const K &k) {
    blockDim = {block, 1, 1};
    gridDim = {grid, 1, 1};
    if (sync && nfibers < block) {
        fibers = (ucontext_t *)realloc(fibers, block * sizeof *fibers);
        stacks = (char **)realloc(stacks, block * sizeof *stacks);
        finished = (char *)realloc(finished, block);
        if (!fibers || !stacks || !finished)
            exit(3);
        for (unsigned t = nfibers; t < block; t++)
            stacks[t] = (char *)alloc(stackBytes);
        nfibers = block;
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
        kernelCall = [](const void *c) { (*(const K *)c)(); };
        kernelArg = &k;
        for (unsigned t = 0; t < block; t++) {
            getcontext(&fibers[t]);
            fibers[t].uc_stack.ss_sp = stacks[t];
            fibers[t].uc_stack.ss_size = stackBytes;
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
static void transform(u64 *a, u64 *scr, const u64 *tw, const u64 *inv, int logn, bool inverse) {
    u64 n = 1ULL << logn;
    u64 *res = a;
    if (n > 1) {
        u64 *src = a, *dst = scr;
        int first = logn % 4 ? logn % 4 : 4;
        int logns = 0;
        for (int lr = first;; lr = 4) {
            if (lr == 4) {
                launch((unsigned)((n / 16 + 31) / 32), 256, true,
                       [=] { fermat_pass16(dst, src, tw, logn, logns); });
            } else {
                unsigned g = (unsigned)(((n >> lr) + 127) / 128);
                if (lr == 1)
                    launch(g, 128, false, [=] { fermat_pass2(dst, src, logn); });
                if (lr == 2)
                    launch(g, 128, false, [=] { fermat_pass4(dst, src, logn); });
                if (lr == 3)
                    launch(g, 128, false, [=] { fermat_pass8(dst, src, logn); });
            }
            u64 *t = src;
            src = dst;
            dst = t;
            logns += lr;
            if (logns == logn)
                break;
        }
        res = src;
    }
    if (inverse) {
        launch(grid(n / 2 + 1), 256, false, [=] { fermat_revscale(a, res, logn, inv); });
    } else if (res != a) {
        memcpy(a, res, 64 * n);
    }
}

int main(int argc, char **argv) {
    if (argc != 2)
        return 2;
    dir = argv[1];
    vec cfg = rd("config.bin"); // transform lengths (log2), then product cases
    u64 nt = cfg.p[0];
    for (u64 i = 0; i < nt; i++) {
        int k = (int)cfg.p[1 + i];
        vec in = rdf("in_%d.bin", k), tw = rdf("tw_%d.bin", k), inv = rdf("inv_%d.bin", k);
        vec a = dup(in), scr = mkvec(in.n);
        transform(a.p, scr.p, tw.p, inv.p, k, false);
        wrf("fft_%d.bin", k, a.p, a.n);
        memcpy(a.p, in.p, 8 * in.n);
        transform(a.p, scr.p, tw.p, inv.p, k, true);
        wrf("ifft_%d.bin", k, a.p, a.n);
        free(in.p), free(tw.p), free(inv.p), free(a.p), free(scr.p);
    }
    u64 np = cfg.p[1 + nt];
    for (u64 c = 0; c < np; c++) {
        // case: b, na, nb, log2 n; operands x, y; the product's words out
        vec p = rdf("mb_%d.bin", c), x = rdf("mbx_%d.bin", c), y = rdf("mby_%d.bin", c);
        unsigned b = (unsigned)p.p[0];
        u64 na = p.p[1], nb = p.p[2];
        int k = (int)p.p[3];
        u64 n = 1ULL << k, count = na + nb - 1, nz = x.n + y.n;
        vec tw = rdf("mbtw_%d.bin", c), inv = rdf("mbinv_%d.bin", c);
        u64 *ea = mkvec(8 * n).p, *eb = mkvec(8 * n).p, *scr = mkvec(8 * n).p, *lo = mkvec(nz).p, *hi = mkvec(nz).p;
        launch(grid(n), 256, false, [&] { fermat_from_chunks(ea, x.p, x.n, na, b, n); });
        launch(grid(n), 256, false, [&] { fermat_from_chunks(eb, y.p, y.n, nb, b, n); });
        transform(ea, scr, tw.p, inv.p, k, false);
        transform(eb, scr, tw.p, inv.p, k, false);
        launch(grid(n), 256, false, [&] { fermat_mulvec(ea, ea, eb, n); });
        transform(ea, scr, tw.p, inv.p, k, true);
        launch(grid(count), 256, false, [&] { fermat_to_words(ea, count); });
        launch(grid(nz), 256, false, [&] { fermat_gather(lo, hi, ea, count, b, nz); });
        wrf("mbz_%d.bin", c, lo, nz, hi, nz);
        free(p.p), free(x.p), free(y.p), free(tw.p), free(inv.p);
        free(ea), free(eb), free(scr), free(lo), free(hi);
    }
    return 0;
}
