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

#include <stddef.h>

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


/* ---- GPU rungs --------------------------------------------------------- */

struct gpu_launch {
    float *C;            /* device, M x N, row-major */
    const float *A;      /* device, M x K */
    const float *B;      /* device, K x N */
    int M, N, K;
    int tile;            /* tile width TS, for the tiled rungs; else 0 */
    int wpt;             /* outputs per thread, for the WPT rung; else 0 */
    int split;           /* the rungs that divide K among blocks: into how many parts
                            per tile of C, 0 for the rung's own rule; else 0 */
    void *stream;        /* cudaStream_t */
    void *blas;          /* cublasHandle_t bound to that stream (cuBLAS rows only) */
    void *workspace;     /* device scratch of workspace_bytes, at least what `describe`
                            asked for; zero before a point's first launch, and each
                            launch leaves the bytes it uses as counters zero again */
    size_t workspace_bytes;
    struct kernel_resources *describe;   /* non-NULL: fill it in, launch nothing */
};

/* No launch may ask for more workspace than this (its launcher refuses). */
#define GPU_WORKSPACE_MAX_BYTES ((size_t)256 << 20)

/* What a rung's kernel (the instantiation the launcher would pick for these
 * arguments) uses of the GPU: from cudaFuncGetAttributes and the occupancy
 * calculator, and how the launch divides the work.  Library rows (cuBLAS)
 * leave it all 0. */
struct kernel_resources {
    int known;
    int registers;          /* per thread */
    int shared_bytes;       /* static + dynamic, per block */
    int local_bytes;        /* per thread: stack frame and spills */
    int threads;            /* per block */
    int blocks_per_sm;      /* resident blocks per SM at that size */
    int grid_blocks;        /* blocks the (main) kernel launches */
    int k_splits;           /* the most blocks that share one tile of C along K: 1 when
                               each block computes its tile over all of K */
    size_t workspace_bytes; /* device workspace the launch needs (0: none) */
    char chosen[48];        /* a dispatch row's pick: "gpu_splitk 64/64 split 8" */
};

typedef const char *(*gpu_launch_fn)(const struct gpu_launch *L);

/* Each rung's functions are declared by the registry (harness/core/registry.c), which
 * is the one list of them: a host rung's name_O1..name_O3, a GPU rung's
 * name_launch and name_configs (kernels/rung_config.h). */

#ifdef __cplusplus
}
#endif
#endif
