/* A GPU rung's configurations, declared once, in its kernel file:
 *
 *     #define CONFIGS(X)                                   \
 *         X(128,  64, 128, 128,  8, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 8>)) \
 *         X(256,  64, 128, 256,  8, 8, ASYNC_SMEM(128, 256), (launch<128, 256, 8>))
 *     RUNG_CONFIGS(gpu_async_copy, CONFIGS)
 *
 * Each entry gives the two numbers an experiment file selects it by (`tiles`
 * and `wpts`; 0 where the rung has no such axis), the block tile of C it
 * computes (rows x columns), the outputs of one thread (rows x columns; 0 x 0
 * where the rung does not say, as for cuBLAS), the dynamic shared memory a
 * block asks for at launch (bytes; 0 for kernels with static shared memory
 * alone, which stays within the 48 KiB every GPU offers), and the function that
 * launches it.  The plan skips a configuration whose shared memory the GPU
 * cannot give a block.  RUNG_CONFIGS(name, LIST) defines from that one list
 *   - name_configs[], the table that the registry, the plan (its skip reasons)
 *     and the results (the block and thread columns) read, ending in an entry
 *     of tile -1; it is C, so builds without nvcc have it too (the kernel file
 *     is compiled as C, where everything else sits under __CUDACC__);
 *   - under nvcc, the launcher name_launch(L), which runs the entry whose
 *     (tile, wpt) L names, or says which pairs exist.
 * A rung that divides K among blocks declares its list with
 * RUNG_CONFIGS_SPLIT(name, LIST) instead: each entry then also takes the
 * `splits` axis, the parts of K per tile of C: 0 (the rung's own rule) or 1 to
 * RUNG_MAX_SPLIT, which the launcher finds in L->split.  A configuration
 * made for outputs of a few rows or a few columns (a GEMV-like kernel, right
 * but slow elsewhere), or for a short K, says so with RUNG_CONFIGS_FOR(name,
 * LIST) or RUNG_CONFIGS_SPLIT_FOR, whose entries take three numbers more before
 * the function: the most rows and the most columns of C, and the most K, it is
 * for (0: any); the plan skips the shapes outside. */
#ifndef KERNELS_RUNG_CONFIG_H
#define KERNELS_RUNG_CONFIG_H

#include "matmul.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rung_config {
    int tile, wpt;                  /* how experiment files name it */
    int block_rows, block_cols;     /* the tile of C one block computes */
    int thread_rows, thread_cols;   /* the outputs of one thread */
    long smem_bytes;                /* dynamic shared memory per block; 0: static only */
    int max_split;                  /* 0: no `splits` axis; else its largest value */
    int for_rows, for_cols;         /* the shapes it is for: C of at most this many
                                       rows, columns (0: any) */
    int for_depth;                  /* and K of at most this (0: any) */
};

#define RUNG_MAX_SPLIT 256

/* "tile 96 / WPT 8: not a configuration of NAME (it has 64/64 128/64 ...)", in a
 * buffer of the calling thread. */
const char *rung_config_error(const struct rung_config *c, const char *name, int tile, int wpt);

/* The entry of c with this (tile, wpt), or NULL. */
const struct rung_config *rung_config_find(const struct rung_config *c, int tile, int wpt);

/* Is M x N x K within the shapes c is for (its for_rows, for_cols, for_depth)?
 * 1 for an entry without limits, or NULL. */
int rung_config_fits(const struct rung_config *c, int M, int N, int K);

#ifdef __cplusplus
}
#endif

#define RUNG_CONFIG_ENTRY(t, w, br, bc, tr, tc, sm, fn) {t, w, br, bc, tr, tc, sm, 0, 0, 0, 0},
#define RUNG_SPLIT_CONFIG_ENTRY(t, w, br, bc, tr, tc, sm, fn) \
    {t, w, br, bc, tr, tc, sm, RUNG_MAX_SPLIT, 0, 0, 0},
#define RUNG_FOR_ENTRY(t, w, br, bc, tr, tc, sm, rows, cols, depth, fn) \
    {t, w, br, bc, tr, tc, sm, 0, rows, cols, depth},
#define RUNG_SPLIT_FOR_ENTRY(t, w, br, bc, tr, tc, sm, rows, cols, depth, fn) \
    {t, w, br, bc, tr, tc, sm, RUNG_MAX_SPLIT, rows, cols, depth},
#define RUNG_CONFIG_END {-1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0}

#ifdef __CUDACC__
#define RUNG_CONFIG_CASE(t, w, br, bc, tr, tc, sm, fn) \
    if (L->tile == (t) && L->wpt == (w)) return fn(L);
#define RUNG_FOR_CASE(t, w, br, bc, tr, tc, sm, rows, cols, depth, fn) \
    if (L->tile == (t) && L->wpt == (w)) return fn(L);
#define RUNG_CONFIGS_AS(name, LIST, ENTRY, CASE)                                           \
    extern "C" const struct rung_config name##_configs[] = {LIST(ENTRY) RUNG_CONFIG_END};  \
    extern "C" const char *name##_launch(const struct gpu_launch *L)                       \
    {                                                                                      \
        LIST(CASE)                                                                         \
        return rung_config_error(name##_configs, #name, L->tile, L->wpt);                 \
    }
#else
#define RUNG_CONFIGS_AS(name, LIST, ENTRY, CASE) \
    const struct rung_config name##_configs[] = {LIST(ENTRY) RUNG_CONFIG_END};
#endif
#define RUNG_CONFIGS(name, LIST) RUNG_CONFIGS_AS(name, LIST, RUNG_CONFIG_ENTRY, RUNG_CONFIG_CASE)
#define RUNG_CONFIGS_SPLIT(name, LIST) \
    RUNG_CONFIGS_AS(name, LIST, RUNG_SPLIT_CONFIG_ENTRY, RUNG_CONFIG_CASE)
#define RUNG_CONFIGS_FOR(name, LIST) RUNG_CONFIGS_AS(name, LIST, RUNG_FOR_ENTRY, RUNG_FOR_CASE)
#define RUNG_CONFIGS_SPLIT_FOR(name, LIST) \
    RUNG_CONFIGS_AS(name, LIST, RUNG_SPLIT_FOR_ENTRY, RUNG_FOR_CASE)

#endif
