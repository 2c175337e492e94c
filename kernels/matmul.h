/* The whole launcher interface between the harness and the ladder's kernels.
 *
 * Every rung computes C = A * B in single precision, row-major, for any
 * M, N, K >= 1:  A is M x K, B is K x N, C is M x N.  No rung may assume that a
 * dimension is square or a multiple of its tile; edges are guarded.
 *
 * Host rungs are plain C functions, built once per optimisation level.
 * GPU rungs are CUDA C behind extern "C" launchers: a launcher enqueues its work
 * on the given stream, never synchronises, and returns NULL when the launch was
 * accepted or a static error string (cudaGetErrorString, cuBLAS's status
 * string, or its own message for an unsupported tile/WPT) when it was not. */
#ifndef MATMUL_H
#define MATMUL_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- host rungs -------------------------------------------------------- */

typedef void (*host_matmul_fn)(float *C, const float *A, const float *B, int M, int N, int K);

/* Each host rung file is compiled at -O1, -O2 and -O3 with -DOPT_LEVEL=n, and
 * HOST_RUNG(name) gives each build its own symbol: hostmult0 -> hostmult0_O2. */
#define HOST_RUNG_CAT2(a, b) a##_O##b
#define HOST_RUNG_CAT(a, b) HOST_RUNG_CAT2(a, b)
#define HOST_RUNG(name) HOST_RUNG_CAT(name, OPT_LEVEL)

#define HOST_OPT_LEVELS_DECLARE(name)                                                   \
    void name##_O1(float *C, const float *A, const float *B, int M, int N, int K);      \
    void name##_O2(float *C, const float *A, const float *B, int M, int N, int K);      \
    void name##_O3(float *C, const float *A, const float *B, int M, int N, int K)

HOST_OPT_LEVELS_DECLARE(hostmult0);
HOST_OPT_LEVELS_DECLARE(hostmult1);

/* ---- GPU rungs --------------------------------------------------------- */

struct gpu_launch {
    float *C;            /* device, M x N, row-major */
    const float *A;      /* device, M x K */
    const float *B;      /* device, K x N */
    int M, N, K;
    int tile;            /* tile width TS, for the tiled rungs; else 0 */
    int wpt;             /* outputs per thread, for the WPT rung; else 0 */
    void *stream;        /* cudaStream_t */
    void *blas;          /* cublasHandle_t bound to that stream (cuBLAS rows only) */
    struct kernel_resources *describe;   /* non-NULL: fill it in, launch nothing */
};

/* What a rung's kernel (the instantiation the launcher would pick for these
 * arguments) uses of the GPU: from cudaFuncGetAttributes and the occupancy
 * calculator.  Library rows (cuBLAS) leave `known` at 0. */
struct kernel_resources {
    int known;
    int registers;          /* per thread */
    int shared_bytes;       /* static + dynamic, per block */
    int local_bytes;        /* per thread: stack frame and spills */
    int threads;            /* per block */
    int blocks_per_sm;      /* resident blocks per SM at that size */
};

typedef const char *(*gpu_launch_fn)(const struct gpu_launch *L);

const char *gpumult0_launch(const struct gpu_launch *L);          /* 03 */
const char *gpumult1_launch(const struct gpu_launch *L);          /* 04 */
const char *gputiled_launch(const struct gpu_launch *L);          /* 05 */
const char *gputiled1_launch(const struct gpu_launch *L);         /* 06 */
const char *gputiled_wpt_launch(const struct gpu_launch *L);      /* 07 */
const char *gpu_regblock_launch(const struct gpu_launch *L);      /* 08 */
const char *gpu_vectorized_launch(const struct gpu_launch *L);    /* 09 */
const char *gpu_double_buffered_launch(const struct gpu_launch *L); /* 10 */
const char *gpu_warptiled_launch(const struct gpu_launch *L);     /* 11 */
const char *gpu_async_copy_launch(const struct gpu_launch *L);    /* 12 */
const char *tf32_mma_sync_launch(const struct gpu_launch *L);     /* 13, TF32 */
const char *tf32_wgmma_tma_launch(const struct gpu_launch *L);    /* 14, TF32, sm_90a */
const char *cublas_fp32_launch(const struct gpu_launch *L);       /* reference line */
const char *cublas_tf32_launch(const struct gpu_launch *L);       /* reference line */

/* The tiled launchers instantiate TS in {8, 16, 32} and, for 07, every WPT in
 * {1, 2, 4, 8, 16, 32} that divides TS; 08 to 10 take a block tile of 64 or
 * 128 and WPT 16 or 64 (a 4x4 or 8x8 block of C per thread); any other value returns an error
 * string (the plan records such points as skipped before they get here). */

#ifdef __cplusplus
}
#endif
#endif
