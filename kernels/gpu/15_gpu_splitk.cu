/* Rung 15, past the seeds: split-K over rung 12's pipeline.
 *
 * Adds over rung 12: rung 12 gives each tile of C to one block, which runs over
 * all of K.  A small C is then a handful of blocks on a GPU that holds 264 of
 * them (132 SMs x 2): 128 x 128 x 65536 is one tile, one block, one SM busy,
 * 1.3% of cuBLAS.  Here the S parts of K of a tile go to S blocks (gridDim.z),
 * each writing its partial tile into the workspace, and a second pass adds the
 * parts in a fixed order (split_k.cuh): the same inputs give the same bits.
 * `splits` = 0 takes the rule of split_k.cuh: enough parts to fill the GPU
 * once.  A 32-row block tile (4 x 8 per thread, 128 threads) is added for
 * outputs of a few rows, as in decoding (M = 16): a 128-row tile there computes
 * eight times the useful work.  And a 256 x 16 tile (8 x 4 per thread, the
 * narrow layout of warp_tile.cuh) for outputs of a few columns: with N = 16 the
 * narrowest other tile (64 columns) computes four times the useful work, and
 * 4096 x 16 x 4096 ran at 50% of cuBLAS.  Prediction there: 16 tiles x 16 parts,
 * bound by reading A (64 MB) once at 2-2.5 TB/s: 27-32 us, 130-150% of
 * cuBLAS's 41 us.
 *
 * Cost: the partials are written and read back once (S M N floats each way,
 * mostly in L2), and the second pass is one more launch (a few us).
 * Prediction (H100): 128 x 128 x 65536 goes from one block to 256 (S = 256 by
 * the rule at tile 128, 1% of the GPU busy to all of it): from 1.3% to about
 * 80-100% of cuBLAS (which takes 63 us there); 16 x 4096 x 4096 at tile 32 (32
 * tiles x 8 parts) streams B (64 MB) at 2-2.5 TB/s: 25-30 us against cuBLAS's
 * 76 us, which computes 128-row tiles.  Large C (tiles >= resident blocks):
 * S = 1, rung 12's time. */
#include "rung_config.h"
#include "async_pipeline.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "block_order.cuh"
#include "launch.cuh"
#include "load4.cuh"
#include "matmul.h"
#include "split_k.cuh"

/* The rule's floor (split_k.cuh): a part may be one 32-deep slice.  A floor of
 * four, so that each part's pipeline fills, cost the small problems most: in a
 * development sweep (H100, 32-row tile) one slice a part ran 1.24-1.35x faster
 * than the parts of four at 96^3, 128^3, 256^3 and 200 x 300 x 100, where the
 * number of blocks at work, not the depth of each one's pipeline, sets the time.
 * (At 512^3 the rule now takes 6 parts, 102% of cuBLAS against 105% for 4.) */
constexpr int SPLITK_FLOOR = 1;

/* Part blockIdx.z of S of the BM x BN tile of C at grid (x, y), into P + z M N
 * (P is C itself when S = 1); TM x TN outputs a thread (TN = 4: the narrow
 * layout of warp_tile.cuh). */
template <int BM, int BN, int TM, int TN, bool VEC>
__global__ void __launch_bounds__(async_threads<BM, BN, TM, TN>(), BM == BN || BM < 64 || TN == 4 ? 2 : 1)
gpu_splitk(float *__restrict__ P, const float *__restrict__ A, const float *__restrict__ B,
           int M, int N, int K, int S)
{
    extern __shared__ __align__(16) float smem[];
    const int tid = threadIdx.x;
    int tr, tc, bx, by;
    if constexpr (TN == 8) quarter_origin<BN, TM>(tid, tr, tc);
    else narrow_origin<BN, TM>(tid, tr, tc);
    grouped_block(blockIdx.x + gridDim.x * blockIdx.y, gridDim.x, gridDim.y, GROUP_ROWS / BM, bx, by);
    const int row0 = by * BM, col0 = bx * BN, z = blockIdx.z, slices = (K + SLICE - 1) / SLICE;
    float acc[TM][TN];
    async_mainloop<BM, BN, TM, VEC, TN>(acc, A, B, M, N, K, row0, col0, split_begin(z, S, slices),
                                        split_begin(z + 1, S, slices), smem, tid, tr, tc);
    if constexpr (TN == 8) store_quarters<TM, VEC>(P + (size_t)z * M * N, acc, row0 + tr, col0 + tc, M, N);
    else store_narrow<BN, TM, VEC>(P + (size_t)z * M * N, acc, row0 + tr, col0 + tc, M, N);
}

template <int BM, int BN, int TM, int TN = 8>
static const char *launch(const struct gpu_launch *L)
{
    const bool vec = rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0;
    auto kernel = vec ? gpu_splitk<BM, BN, TM, TN, true> : gpu_splitk<BM, BN, TM, TN, false>;
    async_shape a;
    const char *why = async_shape_of<BM, BN, TM, TN>(kernel, &a);
    if (why) return why;
    const int tx = (L->N + BN - 1) / BN, ty = (L->M + BM - 1) / BM;
    const int S = split_parts(L->split, (long long)tx * ty, a.resident, (L->K + SLICE - 1) / SLICE,
                              SPLITK_FLOOR, L->M, L->N, &why);
    if (!S) return why;
    return split_k_launch(L, kernel, dim3(tx, ty, S), a.threads, a.smem, S, a.sms);
}

#endif

/* tile 16: a 256 x 16 block tile, 8 x 4 per thread (128 threads, the narrow
 * layout); tile 32: a 32 x 128 block tile, 4 x 8 per thread (128 threads); tile
 * 64 and 128: 64 x 64 and 128 x 128, 8 x 8 per thread (64 and 256 threads);
 * each with K in 1 to RUNG_MAX_SPLIT parts, or by the rule */
#define CONFIGS(X)                                                           \
    X(16, 32, 256, 16, 8, 4, ASYNC_SMEM(256, 16), (launch<256, 16, 8, 4>))   \
    X(32, 32, 32, 128, 4, 8, ASYNC_SMEM(32, 128), (launch<32, 128, 4>))      \
    X(64, 64, 64, 64, 8, 8, ASYNC_SMEM(64, 64), (launch<64, 64, 8>))         \
    X(128, 64, 128, 128, 8, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 8>))
RUNG_CONFIGS_SPLIT(gpu_splitk, CONFIGS)
