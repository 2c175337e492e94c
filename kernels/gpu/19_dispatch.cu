/* Rung 19 (and 20), past the seeds: one entry point per precision that picks the rung
 * and configuration from the shape alone, by the rule below, as a library's
 * heuristics do: what one call gets, where the suite's best-of-all is what the
 * ladder can reach when every configuration is tried.  It launches nothing of
 * its own: it calls rung 15 (FP32) or rung 17 (TF32), whose split-K rule then
 * divides K (split_k.cuh), and its rows say what it picked (`chosen`).
 *
 * The rule was read off the shape suite's development run on an H100 (every
 * configuration of rungs 11-17 at 25 shapes) and is checked, not refitted, on
 * the others:
 *   FP32 (rung 15): a 32 x 128 block tile for outputs of up to 128 rows, and for
 *     problems of up to 512 rows with K <= 1024 (small problems want many small
 *     blocks); 256 x 16 when C has at most 16 columns (where the GPU gives a block
 *     its shared memory), 64 x 64 when it has at most 32 (a 128-wide tile would
 *     be mostly empty); 128 x 128 otherwise.
 *   TF32 (rung 17, 128 columns a block): 16 rows for outputs of up to 16 rows,
 *     32 for up to 32, 16 for the smallest problems (M N K <= 2^26), 64 for up
 *     to 256 rows; 256 when C has at most 32 columns or K >= 8192 (long K is
 *     split, and large tiles move the fewest bytes per flop); else the largest
 *     of 256, 128, 64 rows whose grid fills half the SMs or more without
 *     splitting (a split costs the second pass; a grid of half the SMs already
 *     keeps the tensor cores busier than a quarter-full second wave).
 * Prediction: within 5% of the best-of-all geometric mean at each precision
 * (on that H100 run the rule lands at 99% of it for FP32 and 98.5% for TF32:
 * in-sample, so the H200 run is the test). */
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
    if (!tf32) {
        if (M <= 128 || (M <= 512 && K <= 1024)) PICK("gpu_splitk", 32, 32);
        if (N <= 16 && smem_optin >= ASYNC_SMEM(256, 16)) PICK("gpu_splitk", 16, 32);
        if (N <= 32) PICK("gpu_splitk", 64, 64);
        PICK("gpu_splitk", 128, 64);
    }
    if (M <= 16) PICK("tf32_splitk_tma", 16, 0);
    if (M <= 32) PICK("tf32_splitk_tma", 32, 0);
    if ((double)M * N * K <= (double)(1 << 26)) PICK("tf32_splitk_tma", 16, 0);
    if (M <= 256) PICK("tf32_splitk_tma", 64, 0);
    if (N <= 32 || K >= 8192) PICK("tf32_splitk_tma", 256, 0);
    const long long pairs = ((long long)N + 255) / 256;   /* clusters of two 128-column blocks */
    for (int t = 256; t >= 128; t /= 2)
        if (((long long)M + t - 1) / t * pairs * 2 * 2 >= sms) PICK("tf32_splitk_tma", t, 0);
    PICK("tf32_splitk_tma", 64, 0);
}

#ifdef __CUDACC__
#include <cuda_runtime.h>
#include <stdio.h>

#include "matmul.h"

extern "C" const char *gpu_splitk_launch(const struct gpu_launch *L);
extern "C" const char *tf32_splitk_tma_launch(const struct gpu_launch *L);

/* Run (or describe) what the rule picks, saying what it was. */
static const char *dispatch(const struct gpu_launch *L, int tf32)
{
    int dev = 0, sms = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    const struct dispatch_pick p = dispatch_rule(tf32, L->M, L->N, L->K, sms, optin);
    struct gpu_launch picked = *L;
    picked.tile = p.tile, picked.wpt = p.wpt, picked.split = 0;
    const char *err = (tf32 ? tf32_splitk_tma_launch : gpu_splitk_launch)(&picked);
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
