/* Rung 12, past the seeds: a cp.async pipeline, three slices of BK = 32 deep.
 *
 * Adds over rung 11: global memory is copied straight into shared memory by
 * cp.async (LDGSTS), without passing through registers.  Rung 11 staged the
 * next slice in registers, which capped the slice at BK = 8 (at BK = 16 the
 * staging registers spill beyond the 128 that two blocks per SM allow); here
 * the copies need no registers, so two slices of 32 are in flight while the
 * block multiplies a third, with one barrier per 32 k steps instead of per 8.
 * cp.async cannot transpose 16-byte chunks, so the A slice is copied element
 * by element (4-byte copies) into its transposed place; eight consecutive k of
 * four rows per warp instruction keep both the global reads (full 32-byte
 * sectors) and the shared stores (pitch BM + 4: bank 4k + r) free of waste.
 * Blocks inside the matrix skip all bounds tests; at the edges out-of-range
 * elements are zero-filled by the copy itself (source size 0).
 *
 * Expected effect: the loop becomes almost only LDS.128 and FFMA; latency is
 * covered by two slices (2 x 2048 FMAs per thread) instead of one.
 * Prediction: 1.1-1.2x rung 11.  Measured (H100): 1.08x with the products in
 * rung 11's row-by-row order; ncu showed 0.4-1.0 cycles of dispatch stall per
 * instruction, which moved with nothing but the order of the FFMAs (ptxas
 * picks the accumulators' registers, hence their banks, from it).  Column by
 * column with the rows alternating direction gave the fewest: 1.11x rung 11,
 * the same 2 blocks and 128 registers.  Blocks are launched down groups of
 * 2048 rows of C (block_order.cuh), as in rung 14: by count, a wave at 8192^3
 * then needs about 40% less of A and B at once; +0.7-0.9% (H100, n = 4096, 8192). */
#include "rung_config.h"
#include "async_pipeline.cuh"   /* the pipeline itself, shared with rungs 15 and 16 */

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "block_order.cuh"
#include "load4.cuh"
#include "launch.cuh"
#include "matmul.h"

/* Block tile BM x BN (rows x columns) and TM x 8 outputs per thread, as rung
 * 11; square tiles run two blocks per SM, the 128 x 256 tile one. */
template <int BM, int BN, int TM, bool VEC>
__global__ void __launch_bounds__(async_threads<BM, BN, TM>(), BM == BN ? 2 : 1)
gpu_async_copy(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
               int M, int N, int K)
{
    extern __shared__ __align__(16) float smem[];
    const int tid = threadIdx.x;
    int tr, tc;   /* the thread's first quarter inside the block tile */
    quarter_origin<BN, TM>(tid, tr, tc);
    int bx, by;   /* launch order: down groups of GROUP_ROWS rows of C */
    grouped_block(blockIdx.x + gridDim.x * blockIdx.y, gridDim.x, gridDim.y, GROUP_ROWS / BM, bx, by);
    const int row0 = by * BM, col0 = bx * BN;
    float acc[TM][8];
    async_mainloop<BM, BN, TM, VEC>(acc, A, B, M, N, K, row0, col0, 0, -1, smem, tid, tr, tc);
    store_quarters<TM, VEC>(C, acc, row0 + tr, col0 + tc, M, N);
}

template <int BM, int BN, int TM>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BN - 1) / BN, (L->M + BM - 1) / BM), block(async_threads<BM, BN, TM>());
    const size_t smem = ASYNC_SMEM(BM, BN);
    if (rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0)
        return launch_or_describe(L, gpu_async_copy<BM, BN, TM, true>, grid, block, smem);
    return launch_or_describe(L, gpu_async_copy<BM, BN, TM, false>, grid, block, smem);
}

#endif

/* tile = block tile 64 x 64, 128 x 128, or 256: 128 rows x 256 columns;
 * WPT 64 or 128 = 8 x 8 or 16 x 8 outputs per thread */
#define CONFIGS(X)                                         \
    X(64, 64, 64, 64, 8, 8, ASYNC_SMEM(64, 64), (launch<64, 64, 8>))           \
    X(64, 128, 64, 64, 16, 8, ASYNC_SMEM(64, 64), (launch<64, 64, 16>))        \
    X(128, 64, 128, 128, 8, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 8>))      \
    X(128, 128, 128, 128, 16, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 16>))   \
    X(256, 64, 128, 256, 8, 8, ASYNC_SMEM(128, 256), (launch<128, 256, 8>))      \
    X(256, 128, 128, 256, 16, 8, ASYNC_SMEM(128, 256), (launch<128, 256, 16>))
RUNG_CONFIGS(gpu_async_copy, CONFIGS)
