/* Rungs 22 and 23, past the seeds: one entry point per precision that picks
 * the rung and configuration from the shape alone, by the rule below, as a
 * library's heuristics do: what one call gets, where the best-of-all is what
 * the ladder reaches when every configuration is tried.  It launches nothing of
 * its own: it calls the rung it picks (whose split-K rule, if it has one, then
 * divides K: split_k.cuh), and its rows say what it picked (`chosen`).
 *
 * The rule is a decision tree grown on the tuning corpus alone by
 * scripts/grow-dispatch.py, from data/tuning-random-h100-*-20261127T094243Z.h5,
 * data/tuning-llama3-h100-*-20261127T094731Z.h5,
 * data/tuning-deepbench-h100-*-20261127T095140Z.h5 and
 * data/tuning-narrow-h100-*-20261127T094131Z.h5 (601 shapes on an H100,
 * every configuration of rungs 12 and 15-19, K divided by each rung's rule): at
 * each node the split of one feature that most lowers the summed log of
 * (picked configuration's time / fastest one's), or, where no split of one
 * feature gains, the split whose two sides split once more gain most (cuts at
 * 16 quantiles of each feature: outputs of 34-64 columns, where the faster tile
 * turns on the product's size, need two splits before either gains); each
 * leaf the one configuration best over its shapes, nine levels at most, a
 * split kept only where it gains 0.5 in that sum and leaves 4 shapes a side;
 * each threshold then the roundest number between the tuning shapes on
 * either side.  Nine levels because cross-validation said so: FP32 91.0% of
 * cuBLAS at four levels, 91.9, 92.4, 92.9, 93.6, 93.8 at nine, 93.7 at ten;
 * TF32 85.8, 85.8, 86.1, 86.2, 86.5, 86.7 at nine, 86.8 at ten, 86.5 at
 * twelve.
 * Features: 2MNK, M, N, K, min(M, N), M N, the 128 x 128 tiles against the
 * SMs, and whether N and K are multiples of 4.  TF32 may pick an FP32 rung: it
 * computes with more precision, and where it is faster a library that may use
 * TF32 would use it too.  A configuration made for some shapes only
 * (GEMV-like, short K) is picked only under its limits.
 * Prediction (five-fold cross-validation over the tuning shapes): 93.8% of
 * cuBLAS FP32 and 86.7% of cuBLAS TF32 in geometric mean, against the fastest
 * configuration's 96.6% and 91.4%: the fourth part, outputs of 6 to 64
 * columns beside thousands of rows, is where every rung is weak (the fastest
 * configuration 76% FP32 and 67% TF32 at its 33-64 columns).  The rule
 * before, grown from the first three parts, measured 65.1% (FP32) and 62.8%
 * (TF32) of cuBLAS at the fourth part's shapes of 33 to 64 columns, shapes it
 * had not seen.  The held-out corpus, shapes of the same distributions that no
 * rule was made from, is the test. */
#include "async_pipeline.cuh"
#include "dispatch.h"
#include "rung_config.h"

#define PICK(r, t, w) \
    do {              \
        p.rung = r;   \
        p.tile = t;   \
        p.wpt = w;    \
        return p;     \
    } while (0)

#ifdef __cplusplus
extern "C"
#endif
struct dispatch_pick dispatch_rule(int tf32, int M, int N, int K, int sms, long smem_optin)
{
    struct dispatch_pick p;
    const double flops = 2.0 * M * N * K, MN = (double)M * N;
    const double tiles = (double)((M + 127) / 128) * ((N + 127) / 128);   /* of 128 x 128 */
    /* the 256 x 16 tile, where the GPU gives a block its shared memory */
    const int narrow = smem_optin >= ASYNC_SMEM(256, 16) ? 16 : 64;
    const int aligned = N % 4 == 0 && K % 4 == 0;   /* rows TMA can address */
    if (!tf32) {
        if (N < 34) {
            if (N < 7) {
                if (M < 500) PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 4 shapes */
                if (M < 9000) PICK("gpu_gemv", 32, 8);   /* 32 shapes */
                PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 5 shapes */
            }
            if (flops < 31000000) {
                if (N < 28) {
                    if (flops < 12000000) PICK("gpu_splitk", 32, 32);   /* 11 shapes */
                    PICK("gpu_splitk", 64, 64);   /* 7 shapes */
                }
                PICK("gpu_splitk", 32, 32);   /* 5 shapes */
            }
            if (N < 33) PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 41 shapes */
            PICK("gpu_splitk", 64, 64);   /* 12 shapes */
        }
        if (flops < 8000000000) {
            if (K < 45) {
                if (MN < 98000) PICK("gpu_splitk", 32, 32);   /* 4 shapes */
                PICK("gpu_short_k", 64, 0);   /* 40 shapes */
            }
            if (M < 8000) {
                if (N < 5000) {
                    if (flops < 2380000000) {
                        if (tiles / sms < 0.7) {
                            if (N < 70) {
                                if (flops < 94000000) PICK("gpu_splitk", 32, 32);   /* 31 shapes */
                                PICK("gpu_splitk", 64, 64);   /* 23 shapes */
                            }
                            PICK("gpu_splitk", 32, 32);   /* 121 shapes */
                        }
                        PICK("gpu_async_copy", 128, 64);   /* 4 shapes */
                    }
                    if ((M < N ? M : N) < 100) PICK("gpu_splitk", 64, 64);   /* 5 shapes */
                    PICK("gpu_splitk", 128, 64);   /* 25 shapes */
                }
                if (M <= 8) PICK("gpu_gemv", 256, 8);   /* 42 shapes */
                PICK("gpu_splitk", 32, 32);   /* 30 shapes */
            }
            if (flops < 100000000) PICK("gpu_splitk", 32, 32);   /* 4 shapes */
            PICK("gpu_splitk", 64, 64);   /* 18 shapes */
        }
        if ((M < N ? M : N) < 100) PICK("gpu_streamk", 64, 64);   /* 6 shapes */
        if (tiles / sms < 1) PICK("gpu_splitk", 128, 64);   /* 24 shapes */
        if (MN < 3600000) PICK("gpu_streamk", 128, 64);   /* 9 shapes */
        PICK("gpu_async_copy", 128, 64);   /* 98 shapes */
    }
    if (flops < 93000000) {
        if (N < 7) {
            if (M < 500) PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 4 shapes */
            PICK("gpu_gemv", 32, 8);   /* 30 shapes */
        }
        if (K < 17) PICK("gpu_short_k", 64, 0);   /* 27 shapes */
        if (N < 3000) {
            if (!aligned) {
                if ((M < N ? M : N) < 110) {
                    if (M < 8000) {
                        if (flops < 15000000) {
                            if ((M < N ? M : N) < 55) PICK("gpu_splitk", 32, 32);   /* 42 shapes */
                            PICK("tf32_splitk_tma", 16, 0);   /* 7 shapes */
                        }
                        if (N < 20) PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 5 shapes */
                        PICK("gpu_splitk", 32, 32);   /* 34 shapes */
                    }
                    PICK("tf32_splitk_tma", 256, 0);   /* 10 shapes */
                }
                if (N < 800) PICK("tf32_splitk_tma", 32, 0);   /* 5 shapes */
                PICK("tf32_splitk_tma", 128, 0);   /* 4 shapes */
            }
            if (N < 34) PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 6 shapes */
            PICK("tf32_splitk_tma", 64, 0);   /* 11 shapes */
        }
        PICK("tf32_splitk_tma", 16, 0);   /* 19 shapes */
    }
    if (M < 130) {
        if (M < 33) {
            if (M < 20) PICK("tf32_splitk_tma", 16, 0);   /* 61 shapes */
            PICK("tf32_splitk_tma", 32, 0);   /* 19 shapes */
        }
        if (M < 90) PICK("tf32_splitk_tma", 64, 0);   /* 23 shapes */
        if (N < 2000) PICK("tf32_splitk_tma", 64, 0);   /* 4 shapes */
        PICK("tf32_splitk_tma", 128, 0);   /* 17 shapes */
    }
    if (N < 14) {
        if (N < 5) PICK("gpu_gemv", 32, 8);   /* 4 shapes */
        PICK("gpu_splitk", narrow, narrow == 16 ? 32 : 64);   /* 13 shapes */
    }
    if (K < 34) PICK("gpu_short_k", 64, 0);   /* 7 shapes */
    if (flops < 170000000) {
        if (MN < 200000) {
            if (N < 30) PICK("tf32_splitk_tma", 256, 0);   /* 5 shapes */
            PICK("gpu_splitk", 64, 64);   /* 4 shapes */
        }
        PICK("tf32_splitk_tma", 128, 0);   /* 4 shapes */
    }
    if (tiles / sms < 0.14) {
        if (MN < 44000) PICK("tf32_splitk_tma", 256, 0);   /* 5 shapes */
        PICK("tf32_splitk_tma", 128, 0);   /* 12 shapes */
    }
    if (MN < 1576000) {
        if (N < 100) PICK("tf32_splitk_tma", 256, 0);   /* 50 shapes */
        if (K < 4300) PICK("tf32_splitk_tma", 128, 0);   /* 23 shapes */
        PICK("tf32_splitk_tma", 256, 0);   /* 9 shapes */
    }
    if (tiles / sms < 1 && flops < 16000000000) PICK("tf32_splitk_tma", 128, 0);   /* 7 shapes */
    PICK("tf32_splitk_tma", 256, 0);   /* 130 shapes */
}

#ifdef __CUDACC__
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "matmul.h"

extern "C" const char *gpu_async_copy_launch(const struct gpu_launch *L);
extern "C" const char *gpu_splitk_launch(const struct gpu_launch *L);
extern "C" const char *gpu_streamk_launch(const struct gpu_launch *L);
extern "C" const char *tf32_splitk_tma_launch(const struct gpu_launch *L);
extern "C" const char *gpu_gemv_launch(const struct gpu_launch *L);
extern "C" const char *gpu_short_k_launch(const struct gpu_launch *L);

/* The launchers the rule may pick, by registry name. */
static gpu_launch_fn launcher(const char *rung)
{
    static const struct {
        const char *name;
        gpu_launch_fn fn;
    } picks[] = {{"gpu_async_copy", gpu_async_copy_launch}, {"gpu_splitk", gpu_splitk_launch},
                 {"gpu_streamk", gpu_streamk_launch},       {"tf32_splitk_tma", tf32_splitk_tma_launch},
                 {"gpu_gemv", gpu_gemv_launch},             {"gpu_short_k", gpu_short_k_launch}};
    for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++)
        if (!strcmp(picks[i].name, rung)) return picks[i].fn;
    return NULL;
}

/* Run (or describe) what the rule picks, saying what it was. */
static const char *dispatch(const struct gpu_launch *L, int tf32)
{
    int dev = 0, sms = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    const struct dispatch_pick p = dispatch_rule(tf32, L->M, L->N, L->K, sms, optin);
    const gpu_launch_fn fn = launcher(p.rung);
    if (!fn) return "dispatch: the rule picked a rung it cannot launch";
    struct gpu_launch picked = *L;
    picked.tile = p.tile, picked.wpt = p.wpt, picked.split = 0;
    const char *err = fn(&picked);
    if (!err && L->describe)
        snprintf(L->describe->chosen, sizeof L->describe->chosen, "%s %d/%d, K in %d", p.rung,
                 p.tile, p.wpt, L->describe->k_splits);
    return err;
}

static const char *fp32(const struct gpu_launch *L) { return dispatch(L, 0); }
static const char *tf32(const struct gpu_launch *L) { return dispatch(L, 1); }
#endif

/* one entry point each: the configuration is the rule's, chosen per call */
#define FP32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, fp32)
#define TF32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, tf32)
RUNG_CONFIGS(dispatch_fp32, FP32_CONFIGS)
RUNG_CONFIGS(dispatch_tf32, TF32_CONFIGS)
