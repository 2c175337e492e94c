/* The ladder, in order.  One line per rung; see registry.h. */
#include "registry.h"

#include <stdio.h>
#include <string.h>

#if MM_HAVE_CUDA
#define GPU(fn) fn
#else
#define GPU(fn) NULL
#endif

/* Each GPU rung's configurations, from its kernel file (rung_config.h). */
#define CONFIG_TABLE(name) extern const struct rung_config name##_configs[];
CONFIG_TABLE(gpumult0) CONFIG_TABLE(gpumult1) CONFIG_TABLE(gputiled) CONFIG_TABLE(gputiled1)
CONFIG_TABLE(gputiled_wpt) CONFIG_TABLE(gpu_regblock) CONFIG_TABLE(gpu_vectorized)
CONFIG_TABLE(gpu_double_buffered) CONFIG_TABLE(gpu_warptiled) CONFIG_TABLE(gpu_async_copy)
CONFIG_TABLE(tf32_mma_sync) CONFIG_TABLE(tf32_wgmma_tma) CONFIG_TABLE(cublas_fp32)
CONFIG_TABLE(cublas_tf32)

#if MM_TEST_RUNGS
/* Wrong on purpose, for the tests only (tests/faulty_kernels.cu). */
CONFIG_TABLE(test_racy_tiled) CONFIG_TABLE(test_one_off) CONFIG_TABLE(test_nan)
CONFIG_TABLE(test_unwritten)
#endif

#define HOST(fn) NULL, 0, {NULL, fn##_O1, fn##_O2, fn##_O3}, NULL
#define KERNEL(fn) fn##_configs, 0, {NULL}, GPU(fn##_launch)
#define TILED(fn) fn##_configs, 1, {NULL}, GPU(fn##_launch)
#define FP32 PREC_FP32, "cublas_fp32"
#define TF32 PREC_TF32, "cublas_tf32"

/*  name, seed name, device, precision and reference, colour, point type, adds,
 *  code (configurations, tiled, launchers), nominal GFLOP/s */
static const struct variant LADDER[] = {
    {"host_naive", "hostmult0", DEV_HOST, PREC_FP32, NULL, "#8C510A", 5,
     "triple loop accumulating in C (the baseline)", HOST(hostmult0), 0.5},
    {"host_restrict", "hostmult1", DEV_HOST, PREC_FP32, NULL, "#D8A300", 15,
     "__restrict lets the compiler keep C[i][j] in a register", HOST(hostmult1), 0.6},
    {"gpu_naive_global", "gpumult0", DEV_GPU, FP32, "#D62728", 9,
     "one thread per output, accumulating in global memory", KERNEL(gpumult0), 1500},
    {"gpu_naive", "gpumult1", DEV_GPU, FP32, "#FF7F0E", 11,
     "accumulates in a register, one store per output", KERNEL(gpumult1), 5000},
    {"gpu_tiled", "gputiled<TS>", DEV_GPU, FP32, "#2CA02C", 7,
     "TS x TS tiles of A and B in shared memory: TS times fewer global loads",
     TILED(gputiled), 8000},
    {"gpu_tiled_unrolled", "gputiled1<TS>", DEV_GPU, FP32, "#17A2B8", 15,
     "the tile's inner product loop fully unrolled", TILED(gputiled1), 9000},
    {"gpu_tiled_wpt", "gputiled<TS,WPT,RTS>", DEV_GPU, FP32, "#1F4FB4", 13,
     "WPT outputs per thread reuse each B value from shared memory WPT times",
     TILED(gputiled_wpt), 15000},
    {"gpu_regblock", "(past the seeds)", DEV_GPU, FP32, "#E377C2", 7,
     "each thread a sqrt(WPT)^2 block of C in registers, A tile transposed",
     TILED(gpu_regblock), 25000},
    {"gpu_vectorized", "(past the seeds)", DEV_GPU, FP32, "#8C564B", 9,
     "16-byte loads from global and shared memory", TILED(gpu_vectorized), 30000},
    {"gpu_double_buffered", "(past the seeds)", DEV_GPU, FP32, "#7F7F00", 13,
     "two shared-memory stages: the next slice's loads overlap the FMAs",
     TILED(gpu_double_buffered), 33000},
    {"gpu_warptiled", "(past the seeds)", DEV_GPU, FP32, "#00897B", 11,
     "warp tiles of 4x4 quarters: shared loads and stores free of bank conflicts",
     TILED(gpu_warptiled), 40000},
    {"gpu_async_copy", "(past the seeds)", DEV_GPU, FP32, "#C2185B", 5,
     "cp.async pipeline of 32-deep slices: global to shared without registers",
     TILED(gpu_async_copy), 45000},
    {"tf32_mma_sync", "(past the seeds)", DEV_GPU, TF32, "#00A3E0", 13,
     "TF32 tensor cores, warp-level mma.sync (a different precision)", TILED(tf32_mma_sync),
     150000},
    {"tf32_wgmma_tma", "(past the seeds)", DEV_GPU, TF32, "#6B9E00", 15,
     "Hopper warpgroup MMA (wgmma) fed by the tensor memory accelerator (TMA)",
     TILED(tf32_wgmma_tma), 300000},
    {"cublas_fp32", "cublasSgemm", DEV_GPU, PREC_FP32, NULL, "#000000", 5,
     "cuBLAS SGEMM, strict FP32 (no tensor cores): the 100% line", KERNEL(cublas_fp32), 50000},
    {"cublas_tf32", "cublasSgemm (TF32)", DEV_GPU, PREC_TF32, NULL, "#7B3294", 5,
     "cuBLAS with TF32 tensor cores allowed: a reference line, not FP32", KERNEL(cublas_tf32),
     300000},
#if MM_TEST_RUNGS
    /* Not rungs: kernels that are wrong on purpose, built only into the test
     * binaries build/tests/mmladder-faulty and build/tests/sanitize-one. */
    {"test_racy_tiled", "gputiled<TS> without __syncthreads", DEV_GPU, FP32, "#808080", 1,
     "seed 002's exercise: the tiled kernel with a shared-memory race", TILED(test_racy_tiled),
     8000},
    {"test_one_off", "(test only)", DEV_GPU, FP32, "#808080", 1, "one element off by 0.01",
     KERNEL(test_one_off), 5000},
    {"test_nan", "(test only)", DEV_GPU, FP32, "#808080", 1, "one element NaN", KERNEL(test_nan),
     5000},
    {"test_unwritten", "(test only)", DEV_GPU, FP32, "#808080", 1,
     "the last row of C never written", KERNEL(test_unwritten), 5000},
#endif
};

size_t registry_count(void) { return sizeof LADDER / sizeof LADDER[0]; }

const struct variant *registry_at(size_t i) { return i < registry_count() ? &LADDER[i] : NULL; }

const struct variant *registry_find(const char *name)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (strcmp(LADDER[i].name, name) == 0) return &LADDER[i];
    return NULL;
}

int registry_number(const struct variant *v)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (&LADDER[i] == v) return (int)i + 1;
    return 0;
}

unsigned registry_axes(const struct variant *v)
{
    if (v->device == DEV_HOST) return AXIS_OPT;
    unsigned a = 0;
    for (const struct rung_config *c = v->configs; c && c->tile >= 0; c++)
        a |= (c->tile ? AXIS_TILE : 0) | (c->wpt ? AXIS_WPT : 0);
    return a;
}

int registry_is_reference(const struct variant *v)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (LADDER[i].reference && strcmp(LADDER[i].reference, v->name) == 0) return 1;
    return 0;
}

int registry_supports(const struct variant *v, int tile, int wpt, int opt_level,
                      const struct rung_config **cfg, char *why, size_t whylen)
{
    if (cfg) *cfg = NULL;
    if (v->device == DEV_HOST) {
        if (opt_level < 1 || opt_level > 3 || !v->host[opt_level]) {
            snprintf(why, whylen, "-O%d not built (built: -O1 -O2 -O3)", opt_level);
            return 0;
        }
        return 1;
    }
    const struct rung_config *c = rung_config_find(v->configs, tile, wpt);
    if (!c) {
        snprintf(why, whylen, "%s", rung_config_error(v->configs, v->name, tile, wpt));
        return 0;
    }
    if (cfg) *cfg = c;
    return 1;
}

const char *registry_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < registry_count() && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", LADDER[i].name);
    return buf;
}
