/* The ladder, in order.  One line per rung; see registry.h. */
#include "registry.h"

#include <stdio.h>
#include <string.h>

#if MM_HAVE_CUDA
#define GPU(fn) fn
#else
#define GPU(fn) NULL
#endif

#if MM_TEST_RUNGS
/* Wrong on purpose, for the tests only (tests/faulty_kernels.cu). */
const char *test_racy_tiled_launch(const struct gpu_launch *L);
const char *test_one_off_launch(const struct gpu_launch *L);
const char *test_nan_launch(const struct gpu_launch *L);
const char *test_unwritten_launch(const struct gpu_launch *L);
#endif

#define HOST_LEVELS(fn) {NULL, fn##_O1, fn##_O2, fn##_O3}
#define TILES {8, 16, 32, 0}
#define WPTS {1, 2, 4, 8, 16, 32, 0}

static const struct variant LADDER[] = {
    {"host_naive", "hostmult0", DEV_HOST, AXIS_OPT, PREC_FP32,
     "triple loop accumulating in C (the baseline)", {0}, {0}, HOST_LEVELS(hostmult0), NULL, 0.5},
    {"host_restrict", "hostmult1", DEV_HOST, AXIS_OPT, PREC_FP32,
     "__restrict lets the compiler keep C[i][j] in a register", {0}, {0},
     HOST_LEVELS(hostmult1), NULL, 0.6},
    {"gpu_naive_global", "gpumult0", DEV_GPU, 0, PREC_FP32,
     "one thread per output, accumulating in global memory", {0}, {0}, {0},
     GPU(gpumult0_launch), 1500},
    {"gpu_naive", "gpumult1", DEV_GPU, 0, PREC_FP32,
     "accumulates in a register, one store per output", {0}, {0}, {0},
     GPU(gpumult1_launch), 5000},
    {"gpu_tiled", "gputiled<TS>", DEV_GPU, AXIS_TILE, PREC_FP32,
     "TS x TS tiles of A and B in shared memory: TS times fewer global loads", TILES, {0},
     {0}, GPU(gputiled_launch), 8000},
    {"gpu_tiled_unrolled", "gputiled1<TS>", DEV_GPU, AXIS_TILE, PREC_FP32,
     "the tile's inner product loop fully unrolled", TILES, {0}, {0},
     GPU(gputiled1_launch), 9000},
    {"gpu_tiled_wpt", "gputiled<TS,WPT,RTS>", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "WPT outputs per thread reuse each B value from shared memory WPT times", TILES, WPTS,
     {0}, GPU(gputiled_wpt_launch), 15000},
    {"gpu_regblock", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "each thread a sqrt(WPT)^2 block of C in registers, A tile transposed", {64, 128, 0},
     {16, 64, 0}, {0}, GPU(gpu_regblock_launch), 25000},
    {"gpu_vectorized", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "16-byte loads from global and shared memory", {64, 128, 0}, {16, 64, 0}, {0},
     GPU(gpu_vectorized_launch), 30000},
    {"gpu_double_buffered", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "two shared-memory stages: the next slice's loads overlap the FMAs", {64, 128, 0},
     {16, 64, 0}, {0}, GPU(gpu_double_buffered_launch), 33000},
    {"gpu_warptiled", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "warp tiles of 4x4 quarters: shared loads and stores free of bank conflicts", {64, 128, 0},
     {64, 128, 0}, {0}, GPU(gpu_warptiled_launch), 40000},
    {"gpu_async_copy", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_FP32,
     "cp.async pipeline of 32-deep slices: global to shared without registers",
     {64, 128, 256, 0}, {64, 128, 0}, {0}, GPU(gpu_async_copy_launch), 45000},
    {"tf32_mma_sync", "(past the seeds)", DEV_GPU, AXIS_TILE | AXIS_WPT, PREC_TF32,
     "TF32 tensor cores, warp-level mma.sync (a different precision)", {128, 0}, {64, 128, 0},
     {0}, GPU(tf32_mma_sync_launch), 150000},
    {"tf32_wgmma_tma", "(past the seeds)", DEV_GPU, AXIS_TILE, PREC_TF32,
     "Hopper warpgroup MMA (wgmma) fed by the tensor memory accelerator (TMA)", {128, 256, 0},
     {0}, {0}, GPU(tf32_wgmma_tma_launch), 300000},
    {"cublas_fp32", "cublasSgemm", DEV_GPU, 0, PREC_FP32,
     "cuBLAS SGEMM, strict FP32 (no tensor cores): the 100% line", {0}, {0}, {0},
     GPU(cublas_fp32_launch), 50000},
    {"cublas_tf32", "cublasSgemm (TF32)", DEV_GPU, 0, PREC_TF32,
     "cuBLAS with TF32 tensor cores allowed: a reference line, not FP32", {0}, {0}, {0},
     GPU(cublas_tf32_launch), 300000},
#if MM_TEST_RUNGS
    /* Not rungs: kernels that are wrong on purpose, built only into the test
     * binaries build/tests/mmladder-faulty and build/tests/sanitize-one. */
    {"test_racy_tiled", "gputiled<TS> without __syncthreads", DEV_GPU, AXIS_TILE, PREC_FP32,
     "seed 002's exercise: the tiled kernel with a shared-memory race", {16, 0}, {0}, {0},
     GPU(test_racy_tiled_launch), 8000},
    {"test_one_off", "(test only)", DEV_GPU, 0, PREC_FP32, "one element off by 0.01", {0}, {0},
     {0}, GPU(test_one_off_launch), 5000},
    {"test_nan", "(test only)", DEV_GPU, 0, PREC_FP32, "one element NaN", {0}, {0}, {0},
     GPU(test_nan_launch), 5000},
    {"test_unwritten", "(test only)", DEV_GPU, 0, PREC_FP32, "the last row of C never written",
     {0}, {0}, {0}, GPU(test_unwritten_launch), 5000},
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

static int in_list(const int *list, int x)
{
    for (int i = 0; i < REG_MAX_VALUES && list[i]; i++)
        if (list[i] == x) return 1;
    return 0;
}

static void list_str(const int *list, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < REG_MAX_VALUES && list[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? " " : "", list[i]);
}

int registry_supports(const struct variant *v, int tile, int wpt, int opt_level, char *why,
                      size_t whylen)
{
    char have[64];
    if (v->axes & AXIS_TILE) {
        if (!in_list(v->tiles, tile)) {
            list_str(v->tiles, have, sizeof have);
            if (tile > 0 && (long)tile * tile > 1024)
                snprintf(why, whylen, "TS %d needs %d threads per block (> 1024)", tile,
                         tile * tile);
            else
                snprintf(why, whylen, "TS %d not instantiated (built: %s)", tile, have);
            return 0;
        }
    }
    if (v->axes & AXIS_WPT) {
        if (!in_list(v->wpts, wpt)) {
            list_str(v->wpts, have, sizeof have);
            snprintf(why, whylen, "WPT %d not instantiated (built: %s)", wpt, have);
            return 0;
        }
        if (tile % wpt != 0) {
            snprintf(why, whylen, "WPT %d does not divide TS %d", wpt, tile);
            return 0;
        }
    }
    if (v->axes & AXIS_OPT) {
        if (opt_level < 0 || opt_level > 3 || !v->host[opt_level]) {
            snprintf(why, whylen, "-O%d not built (built: -O1 -O2 -O3)", opt_level);
            return 0;
        }
    }
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
