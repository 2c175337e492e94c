/* The ladder, in order: see registry.h. */
#include "registry.h"

#include <stdio.h>
#include <string.h>

/* The ladder, one line a rung, in order:
 *   HOST(name, seed name, colour, point, what it adds, code, nominal GFLOP/s)
 *   GPU(name, seed name, precision, colour, point, what it adds, code, tiled,
 *       needs, nominal GFLOP/s)
 *   PICK(the same but `tiled`): an entry point that picks a rung and its
 *       configuration from the shape (registry.h's `dispatch`)
 * where `code` is the base name of the rung's functions (hostmult0_O2;
 * gpu_async_copy_launch and gpu_async_copy_configs, from its kernel file), the
 * precision FP32 or TF32 (which also names the cuBLAS line it is measured
 * against: REF for the cuBLAS lines themselves), and `tiled` 1 when A and B pass
 * through shared memory one block tile at a time (derive.h's load model), and
 * `needs` what the GPU must have: ANY_GPU, CC(80) (compute capability 8.0 or
 * later: cp.async, TF32 mma.sync) or ONLY(90) (exactly 9.0, a kernel built for
 * sm_90a alone: wgmma, TMA).  The
 * list declares what it names, so a new rung is its file and one line here. */
#define LADDER(HOST, GPU, PICK)                                                             \
    HOST("host_naive", "hostmult0", "#8C510A", 5,                                           \
         "triple loop accumulating in C (the baseline)", hostmult0, 0.5)                    \
    HOST("host_restrict", "hostmult1", "#D8A300", 15,                                       \
         "__restrict lets the compiler keep C[i][j] in a register", hostmult1, 0.6)         \
    GPU("gpu_naive_global", "gpumult0", FP32, "#D62728", 9,                                 \
        "one thread per output, accumulating in global memory", gpumult0, 0, ANY_GPU, 1500)          \
    GPU("gpu_naive", "gpumult1", FP32, "#FF7F0E", 11,                                       \
        "accumulates in a register, one store per output", gpumult1, 0, ANY_GPU, 5000)               \
    GPU("gpu_tiled", "gputiled<TS>", FP32, "#2CA02C", 7,                                    \
        "TS x TS tiles of A and B in shared memory: TS times fewer global loads", gputiled, \
        1, ANY_GPU, 8000)                                                                            \
    GPU("gpu_tiled_unrolled", "gputiled1<TS>", FP32, "#17A2B8", 15,                         \
        "the tile's inner product loop fully unrolled", gputiled1, 1, ANY_GPU, 9000)                 \
    GPU("gpu_tiled_wpt", "gputiled<TS,WPT,RTS>", FP32, "#1F4FB4", 13,                       \
        "WPT outputs per thread reuse each B value from shared memory WPT times",           \
        gputiled_wpt, 1, ANY_GPU, 15000)                                                             \
    GPU("gpu_regblock", "(past the seeds)", FP32, "#E377C2", 7,                             \
        "each thread a sqrt(WPT)^2 block of C in registers, A tile transposed",            \
        gpu_regblock, 1, ANY_GPU, 25000)                                                             \
    GPU("gpu_vectorized", "(past the seeds)", FP32, "#8C564B", 9,                           \
        "16-byte loads from global and shared memory", gpu_vectorized, 1, ANY_GPU, 30000)            \
    GPU("gpu_double_buffered", "(past the seeds)", FP32, "#7F7F00", 13,                     \
        "two shared-memory stages: the next slice's loads overlap the FMAs",                \
        gpu_double_buffered, 1, ANY_GPU, 33000)                                                      \
    GPU("gpu_warptiled", "(past the seeds)", FP32, "#00897B", 11,                           \
        "warp tiles of 4x4 quarters: shared loads and stores free of bank conflicts",       \
        gpu_warptiled, 1, ANY_GPU, 40000)                                                            \
    GPU("gpu_async_copy", "(past the seeds)", FP32, "#C2185B", 5,                           \
        "cp.async pipeline of 32-deep slices: global to shared without registers",          \
        gpu_async_copy, 1, CC(80), 45000)                                                           \
    GPU("tf32_mma_sync", "(past the seeds)", TF32, "#00A3E0", 13,                           \
        "TF32 tensor cores, warp-level mma.sync (a different precision)", tf32_mma_sync, 1, \
        CC(80), 150000)                                                                             \
    GPU("tf32_wgmma_tma", "(past the seeds)", TF32, "#6B9E00", 15,                          \
        "Hopper warpgroup MMA (wgmma) fed by the tensor memory accelerator (TMA)",          \
        tf32_wgmma_tma, 1, ONLY(90), 300000)                                                          \
    GPU("gpu_splitk", "(past the seeds)", FP32, "#E6550D", 7,                                \
        "split-K over rung 12: a tile's K shared by S blocks, parts added in a fixed order", \
        gpu_splitk, 1, CC(80), 40000)                                                                \
    GPU("gpu_streamk", "(past the seeds)", FP32, "#3182BD", 9,                               \
        "stream-K over rung 12: a persistent grid shares the multiply-adds out evenly",     \
        gpu_streamk, 1, CC(80), 45000)                                                               \
    GPU("tf32_splitk_tma", "(past the seeds)", TF32, "#31A354", 13,                          \
        "split-K over rung 14, and tiles of 16 to 64 rows for outputs of a few rows",       \
        tf32_splitk_tma, 1, ONLY(90), 250000)                                                         \
    GPU("gpu_gemv", "(past the seeds)", FP32, "#AD494A", 6,                                  \
        "outputs of a few rows or columns: one pass over the large operand, K split",       \
        gpu_gemv, 0, ANY_GPU, 2000)                                                                  \
    GPU("gpu_short_k", "(past the seeds)", FP32, "#5254A3", 8,                               \
        "a short K: all of it staged once, C stored a whole line per warp", gpu_short_k, 1, \
        ANY_GPU, 20000)                                                                              \
    GPU("tf32_persistent_tma", "(past the seeds)", TF32, "#2E7D32", 11,                      \
        "rung 14 made persistent: a pair of blocks per SM pair walks the tiles, its ring of stages running on", \
        tf32_persistent_tma, 1, ONLY(90), 300000)                                                     \
    GPU("gpu_tail_split", "(past the seeds)", FP32, "#9E9AC8", 7,                           \
        "split-K for the last wave alone, in one launch: its tiles cut in K, the last part adds them", \
        gpu_tail_split, 1, CC(80), 45000)                                                            \
    GPU("gpu_shallow_slices", "(past the seeds)", FP32, "#BCBD22", 9,                       \
        "slices 8 deep in 4 stages and 4 warps a 64 x 64 tile: mid-size and unaligned products", \
        gpu_shallow_slices, 1, CC(80), 30000)                                                        \
    PICK("dispatch_fp32", "(one entry point)", FP32, "#636363", 4,                           \
         "one call, FP32: one of rungs 12, 15, 16, 18, 19, 21, 22 and its configuration, the least time a model fitted on tuning runs predicts", \
         dispatch_fp32, CC(80), 40000)                                                               \
    PICK("dispatch_tf32", "(one entry point)", TF32, "#A1D99B", 4,                           \
         "one call, TF32: rung 17, 20 or an FP32 rung and its configuration, the least time a model fitted on tuning runs predicts", \
         dispatch_tf32, ONLY(90), 250000)                                                            \
    GPU("cublas_fp32", "cublasSgemm", REF_FP32, "#000000", 5,                               \
        "cuBLAS SGEMM, strict FP32 (no tensor cores): the 100% line", cublas_fp32, 0,       \
        ANY_GPU, 50000)                                                                              \
    GPU("cublas_tf32", "cublasSgemm (TF32)", REF_TF32, "#7B3294", 5,                        \
        "cuBLAS with TF32 tensor cores allowed: a reference line, not FP32", cublas_tf32,   \
        0, CC(80), 300000)

/* Wrong on purpose, for the tests only (tests/faulty_kernels.cu): not rungs, and
 * built only into the test binaries build/tests/mmladder-faulty and
 * build/tests/sanitize-one. */
#if MM_TEST_RUNGS
#define TEST_RUNGS(GPU)                                                                     \
    GPU("test_racy_tiled", "gputiled<TS> without __syncthreads", FP32, "#808080", 1,        \
        "seed 002's exercise: the tiled kernel with a shared-memory race", test_racy_tiled, \
        1, ANY_GPU, 8000)                                                                   \
    GPU("test_one_off", "(test only)", FP32, "#808081", 1, "one element off by 0.01",       \
        test_one_off, 0, ANY_GPU, 5000)                                                              \
    GPU("test_nan", "(test only)", FP32, "#808082", 1, "one element NaN", test_nan, 0, ANY_GPU, 5000) \
    GPU("test_unwritten", "(test only)", FP32, "#808083", 1,                                \
        "the last row of C never written", test_unwritten, 0, ANY_GPU, 5000)               \
    GPU("test_stale_counter", "(test only)", FP32, "#808084", 1,                            \
        "a tile counter never reset: right on a fresh workspace only", test_stale_counter, 0, \
        ANY_GPU, 5000)
#else
#define TEST_RUNGS(GPU)
#endif

#define FP32 PREC_FP32, "cublas_fp32"
#define TF32 PREC_TF32, "cublas_tf32"
#define REF_FP32 PREC_FP32, NULL
#define REF_TF32 PREC_TF32, NULL
#define ANY_GPU 0, 0
#define CC(cc) cc, 0
#define ONLY(cc) cc, 1

/* What the lines name: host rungs' functions per -O level, GPU rungs' launchers
 * and configuration tables. */
#define DECLARE_HOST(name, seed, colour, point, adds, code, nominal) \
    HOST_OPT_LEVELS_DECLARE(code);
#define DECLARE_GPU(name, seed, prec, colour, point, adds, code, tiled, needs, nominal) \
    extern const struct rung_config code##_configs[];                            \
    const char *code##_launch(const struct gpu_launch *L);
#define DECLARE_PICK(name, seed, prec, colour, point, adds, code, needs, nominal) \
    extern const struct rung_config code##_configs[];                             \
    const char *code##_launch(const struct gpu_launch *L);
LADDER(DECLARE_HOST, DECLARE_GPU, DECLARE_PICK)
TEST_RUNGS(DECLARE_GPU)

#if MM_HAVE_CUDA
#define LAUNCHER(code) code##_launch
#else
#define LAUNCHER(code) NULL   /* built without nvcc: configurations only */
#endif

#define HOST_ENTRY(name, seed, colour, point, adds, code, nominal)                          \
    {name, seed, DEV_HOST, PREC_FP32, NULL, colour, point, adds, NULL, 0,                   \
     {NULL, code##_O1, code##_O2, code##_O3}, NULL, nominal, 0, 0, 0},
#define GPU_ENTRY(name, seed, prec, colour, point, adds, code, tiled, needs, nominal)       \
    {name, seed, DEV_GPU, prec, colour, point, adds, code##_configs, tiled, {NULL},          \
     LAUNCHER(code), nominal, needs, 0},
#define PICK_ENTRY(name, seed, prec, colour, point, adds, code, needs, nominal)             \
    {name, seed, DEV_GPU, prec, colour, point, adds, code##_configs, 0, {NULL},              \
     LAUNCHER(code), nominal, needs, 1},

static const struct variant RUNGS[] = {LADDER(HOST_ENTRY, GPU_ENTRY, PICK_ENTRY)
                                           TEST_RUNGS(GPU_ENTRY)};

size_t registry_count(void) { return sizeof RUNGS / sizeof RUNGS[0]; }

const struct variant *registry_at(size_t i) { return i < registry_count() ? &RUNGS[i] : NULL; }

const struct variant *registry_find(const char *name)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (strcmp(RUNGS[i].name, name) == 0) return &RUNGS[i];
    return NULL;
}

int registry_number(const struct variant *v)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (&RUNGS[i] == v) return (int)i + 1;
    return 0;
}

unsigned registry_axes(const struct variant *v)
{
    if (v->device == DEV_HOST) return AXIS_OPT;
    unsigned a = 0;
    for (const struct rung_config *c = v->configs; c && c->tile >= 0; c++)
        a |= (c->tile ? AXIS_TILE : 0) | (c->wpt ? AXIS_WPT : 0) | (c->max_split ? AXIS_SPLIT : 0);
    return a;
}

int registry_is_reference(const struct variant *v)
{
    for (size_t i = 0; i < registry_count(); i++)
        if (RUNGS[i].reference && strcmp(RUNGS[i].reference, v->name) == 0) return 1;
    return 0;
}

int registry_config_fits(const struct rung_config *c, int M, int N, int K, char *why,
                         size_t whylen)
{
    if (rung_config_fits(c, M, N, K)) return 1;
    if (c->for_rows && M > c->for_rows)
        snprintf(why, whylen, "%d/%d is for outputs of at most %d rows (M = %d)", c->tile, c->wpt,
                 c->for_rows, M);
    else if (c->for_cols && N > c->for_cols)
        snprintf(why, whylen, "%d/%d is for outputs of at most %d columns (N = %d)", c->tile,
                 c->wpt, c->for_cols, N);
    else
        snprintf(why, whylen, "%d/%d is for K of at most %d (K = %d)", c->tile, c->wpt,
                 c->for_depth, K);
    return 0;
}

int registry_supports(const struct variant *v, int tile, int wpt, int split, int opt_level,
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
    if (split < 0 || split > c->max_split) {
        if (c->max_split)
            snprintf(why, whylen, "split %d: %s divides K into 1 to %d parts (0: by its rule)",
                     split, v->name, c->max_split);
        else
            snprintf(why, whylen, "split %d: %s does not divide K (expected 0)", split, v->name);
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
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", RUNGS[i].name);
    return buf;
}
