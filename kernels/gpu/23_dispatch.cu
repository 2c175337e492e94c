/* Rungs 23 and 24, past the seeds: one entry point per precision that picks
 * the rung and configuration from the shape alone, as a library's heuristics
 * do: what one call gets, where the best-of-all is what the ladder reaches
 * when every configuration is tried.  It launches nothing of its own: it calls
 * the rung it picks, with K divided by that rung's own rule, and its rows say
 * what it picked and the time it predicted (`chosen`).
 *
 * The pick is the candidate of least predicted time (kernels/dispatch.h): a
 * candidate is a configuration of rungs 12, 15, 16, 18, 19, 21 or 22 (both
 * rows) or 17 or 20 (the TF32 row: they compute in TF32; an FP32 rung computes
 * with more precision, and where it is faster a library that may use TF32
 * would use it too), on rows that 16-byte loads address or not, with K whole
 * or cut where its rule cuts it (the parts and their adding are code of their
 * own: rung 22's cut tiles run at 0.44 of the fastest other rung's speed in
 * geometric mean over the corpus, its whole ones at 0.995 where K <= 140 and
 * rows are unaligned); its plan at the shape (the blocks, how many an SM
 * holds, the parts of K) is its launcher's describe on this GPU; its
 * constants scripts/fit-dispatch.py fitted on the tuning corpus v2
 * (kernels/dispatch_model_table.c).  A configuration made for some shapes only
 * (GEMV-like, short K) is weighed only within its limits; one whose shared
 * memory the GPU cannot give a block, not at all.  The pick is kept per
 * shape, so the describes run once a shape and thread.
 * Prediction (five-fold cross-validation over the corpus's 861 shapes, H100):
 * the pick's time over the fastest candidate's, median 1.000 and 90th
 * percentile 1.084 (FP32) and 1.069 (TF32), within 10% at 91.5% and 92.0% of
 * the shapes; 93.6% and 92.5% of cuBLAS in geometric mean, against the
 * fastest candidate's 95.5% and 94.5%.  The held-out corpus, shapes of the
 * same distributions that the model never saw, is the test. */
#include "dispatch.h"
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "matmul.h"

#define DISPATCHED(X)                                                                        \
    X(gpu_async_copy) X(gpu_splitk) X(gpu_streamk) X(gpu_gemv) X(gpu_short_k) X(gpu_tail_split) \
    X(gpu_shallow_slices) X(tf32_splitk_tma) X(tf32_persistent_tma)
#define DECLARE(r)                                                   \
    extern "C" const char *r##_launch(const struct gpu_launch *L); \
    extern "C" const struct rung_config r##_configs[];
DISPATCHED(DECLARE)

/* The rungs a candidate may name, by registry name. */
static const struct dispatched {
    const char *name;
    gpu_launch_fn fn;
    const struct rung_config *configs;
} rungs[] = {
#define ENTRY(r) {#r, r##_launch, r##_configs},
    DISPATCHED(ENTRY)
#undef ENTRY
};

static const struct dispatched *rung_of(const struct dispatch_candidate *c)
{
    for (size_t i = 0; i < sizeof rungs / sizeof rungs[0]; i++)
        if (!strcmp(rungs[i].name, c->rung)) return &rungs[i];
    return NULL;
}

extern "C" const char *dispatch_candidates(int tf32, int M, int N, int K,
                                           struct dispatch_choice *out, int cap, int *count,
                                           int *pick)
{
    int dev = 0, sms = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    *count = 0, *pick = -1;
    for (int i = 0; i < dispatch_model_count; i++) {
        const struct dispatch_candidate *c = &dispatch_model[i];
        const struct dispatched *r = rung_of(c);
        const struct rung_config *cfg = r ? rung_config_find(r->configs, c->tile, c->wpt) : NULL;
        if (!cfg) return "dispatch: the model names a configuration no rung it launches has";
        if (!dispatch_model_admits(c, tf32, M, N, K, cfg, optin)) continue;
        struct kernel_resources kr = {};
        struct gpu_launch L = {};
        L.M = M, L.N = N, L.K = K, L.tile = c->tile, L.wpt = c->wpt, L.describe = &kr;
        const char *why = r->fn(&L);
        if (why) return why;
        if ((kr.k_splits > 1) != c->cut) continue;   /* the other code path's constants */
        if (kr.workspace_bytes > GPU_WORKSPACE_MAX_BYTES) continue;   /* no launch may have it */
        if (*count >= cap) return "dispatch: more candidates than the room given for them";
        struct dispatch_choice *d = &out[(*count)++];
        d->cand = c;
        d->plan = (struct dispatch_plan){cfg->block_rows, cfg->block_cols, kr.grid_blocks,
                                         kr.blocks_per_sm, kr.k_splits,
                                         1 + (c->second_pass && kr.k_splits > 1)};
        d->ms = dispatch_model_time(c, M, N, K, &d->plan, sms);
        if (*pick < 0 || d->ms < out[*pick].ms) *pick = *count - 1;
    }
    return *count ? NULL : "dispatch: no candidate fits this shape on this GPU";
}

/* The pick at a shape, kept for the next call of that shape (per thread). */
struct kept {
    int dev, tf32, M, N, K;
    const struct dispatch_candidate *cand;
    double ms;
};

static const char *pick_for(int tf32, int M, int N, int K, struct kept *out)
{
    enum { KEPT = 64, ROOM = 128 };
    static thread_local struct kept kept[KEPT];
    static thread_local int used, next;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    for (int i = 0; i < used; i++)
        if (kept[i].dev == dev && kept[i].tf32 == tf32 && kept[i].M == M && kept[i].N == N &&
            kept[i].K == K) {
            *out = kept[i];
            return NULL;
        }
    struct dispatch_choice all[ROOM];
    int count = 0, pick = -1;
    const char *why = dispatch_candidates(tf32, M, N, K, all, ROOM, &count, &pick);
    if (why) return why;
    *out = (struct kept){dev, tf32, M, N, K, all[pick].cand, all[pick].ms};
    kept[next] = *out;
    next = (next + 1) % KEPT;
    if (used < KEPT) used++;
    return NULL;
}

/* Run (or describe) the pick, saying what it was. */
static const char *dispatch(const struct gpu_launch *L, int tf32)
{
    struct kept k;
    const char *err = pick_for(tf32, L->M, L->N, L->K, &k);
    if (err) return err;
    struct gpu_launch picked = *L;
    picked.tile = k.cand->tile, picked.wpt = k.cand->wpt, picked.split = 0;
    err = rung_of(k.cand)->fn(&picked);
    if (!err && L->describe)
        snprintf(L->describe->chosen, sizeof L->describe->chosen, "%s %d/%d, K in %d, %.3g ms",
                 k.cand->rung, k.cand->tile, k.cand->wpt, L->describe->k_splits, k.ms);
    return err;
}

static const char *fp32(const struct gpu_launch *L) { return dispatch(L, 0); }
static const char *tf32(const struct gpu_launch *L) { return dispatch(L, 1); }
#endif

/* one entry point each: the configuration is the model's, chosen per call */
#define FP32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, fp32)
#define TF32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, tf32)
RUNG_CONFIGS(dispatch_fp32, FP32_CONFIGS)
RUNG_CONFIGS(dispatch_tf32, TF32_CONFIGS)
