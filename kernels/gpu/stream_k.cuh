/* Stream-K's decomposition, shared by the rungs that share a persistent grid's
 * work out by slices of K rather than by tiles (16 on the FP32 pipeline, 20 on
 * wgmma), the same on host and device.  T tiles of I slices each, D workers
 * (blocks, or clusters of blocks that share their operands); the first `sk`
 * tiles are cut into runs of slices (W = sk I of them), one for each of the
 * first G workers (G <= D), worker b's run being [sk_begin(b), sk_begin(b + 1)),
 * and the remaining tiles go whole, worker b taking tiles sk + b, sk + b + D, ...
 * A tile two or more runs share is fixed up by whichever of them finishes last
 * (each rung's kernel says how). */
#ifndef KERNELS_GPU_STREAM_K_CUH
#define KERNELS_GPU_STREAM_K_CUH

#ifdef __CUDACC__
#include <climits>

#include "matmul.h"
#include "split_k.cuh"

struct sk_plan {
    int T, tx, ty, I, G, sk;
    long long W;
    int D;
};

/* The first iteration of worker b's run (W past the G runs), and the worker whose run
 * holds iteration x. */
__host__ __device__ inline long long sk_begin(const sk_plan &p, int b) { return b < p.G ? b * p.W / p.G : p.W; }
__host__ __device__ inline int sk_block_of(const sk_plan &p, long long x)
{
    return (int)(((x + 1) * p.G + p.W - 1) / p.W - 1);
}

/* The plan for C in tiles of bm x bn, K in slices of `slice`, on `resident`
 * workers.  The partial wave is shared out only when it is at most half full
 * (else it runs as whole tiles) and gives each worker min_slices or more; a C of
 * fewer tiles than workers is shared by at most `share` workers a tile, each of
 * at least min_slices.  `aligned`: each shared tile is cut into the same number
 * of equal runs, as many as fit in the workers (a run ends where its tile does;
 * the workers left over start on whole tiles; where fewer than two fit, no tile
 * is shared), so that runs of a tile row or
 * column at the same depth of K read the same slices of A or B at about the
 * same time; else the runs are cut from all the shared slices in a row, one a
 * worker, and start at any depth. */
static inline sk_plan sk_plan_for(int M, int N, int K, int bm, int bn, int slice, long long resident,
                                  int min_slices, int share, bool aligned = false)
{
    sk_plan p;
    p.tx = (N + bn - 1) / bn, p.ty = (M + bm - 1) / bm, p.T = p.tx * p.ty;
    p.I = (K + slice - 1) / slice;
    long long G = resident;
    const long long rem = p.T % G;
    p.sk = p.T < G                                                ? p.T
           : 2 * rem <= G && rem * p.I >= G * min_slices ? (int)rem
                                                          : 0;
    if (p.T < G) {   /* all of C shared out: bound the workers per tile and per slice */
        G = G < (long long)p.T * share ? G : (long long)p.T * share;
        const long long by_slices = (long long)p.T * p.I / min_slices;
        G = G < by_slices ? G : by_slices;
        G = G > 1 ? G : 1;
    }
    p.D = (int)G;
    if (aligned && p.sk) {   /* runs a tile: as many as fit, none under min_slices */
        const long long runs = G / p.sk < p.I / min_slices ? G / p.sk : p.I / min_slices;
        if (runs >= 2)
            G = p.sk * runs;
        else   /* one run a tile is a whole tile: no tile shared, a worker a tile */
            p.sk = 0, G = p.D = (int)(resident < p.T ? resident : p.T);
    }
    p.G = (int)G, p.W = (long long)p.sk * p.I;
    return p;
}

/* The most workers that share one tile. */
static inline int sk_most_shared(const sk_plan &p)
{
    int most = 1;
    for (int t = 0; t < p.sk; t++) {
        const int n = sk_block_of(p, (long long)(t + 1) * p.I - 1) - sk_block_of(p, (long long)t * p.I) + 1;
        most = n > most ? n : most;
    }
    return most;
}

/* The plan's checks before a launch, and what a `describe` call reports of it
 * (split_k.cuh's parts_check: the most parts a tile, and `need`, the bytes of
 * parts and counters); NULL when the launch may go on. */
static inline const char *sk_check(const struct gpu_launch *L, const sk_plan &p, size_t need)
{
    if (p.W + p.I > INT_MAX) return "stream-K: more than INT_MAX slices (K too large)";
    if (p.sk && p.W < p.G) return "stream-K: a worker without slices (the plan is wrong)";
    return parts_check(L, L->describe ? sk_most_shared(p) : 0, need);
}

/* Worker b's work in order, one piece at a time: tile t, slices [k0, k1) of it. */
struct sk_walk {
    long long x, end;
    int dp;
    __host__ __device__ sk_walk(const sk_plan &p, int b) : x(sk_begin(p, b)), end(sk_begin(p, b + 1)), dp(p.sk + b) {}
    __host__ __device__ bool next(const sk_plan &p, int &t, int &k0, int &k1)
    {
        if (x < end) {   /* the run first */
            const long long left = end - (long long)(x / p.I) * p.I;
            t = (int)(x / p.I), k0 = (int)(x - (long long)t * p.I);
            k1 = left < p.I ? (int)left : p.I;
            x = (long long)t * p.I + k1;
            return true;
        }
        t = dp, k0 = 0, k1 = p.I, dp += p.D;
        return t < p.T;
    }
};
#endif

#endif
