/* Rung 21, past the seeds: split-K for the last wave alone, in one launch.
 *
 * Adds over rung 16: stream-K evens out the last wave of tiles, but its
 * persistent loop over tiles runs rung 12's pipeline 15-20% slower at every
 * shape (NOTES: the same instructions over a fifth more cycles; 80% of cuBLAS
 * at 4096^3 where rung 12 reaches 96%).  Here every block computes one piece,
 * as in rung 12, and there is no loop: the tiles of the whole waves go a block
 * each, and only the last wave's tiles are cut into S parts of K (S = the
 * blocks the GPU holds over the tiles left, split_k.cuh's tail_plan), launched
 * after them in the same grid.  Each part writes its accumulators into the
 * workspace and counts itself in on its tile's counter; the last to arrive adds
 * the S parts in the order z = 0, 1, ... (the same bits on every run) and
 * stores the tile: no second launch, as rung 15 needs.  Block tiles of 128 x
 * 128, 64 x 128, 64 x 64 and 32 x 128 (the wave a shape leaves depends on the
 * tile), and 128 x 64 and 128 x 32 for C of a few dozen columns.
 *
 * Prediction (H100, 128 x 128, 264 blocks at once), against rung 12: a last
 * wave of `tail` lone blocks takes about 0.55-0.6 of a full wave's time (a
 * block alone on its SM issues faster), and S parts take 1/S of a wave.
 * 2999 x 3001 x 2997 (576 tiles: 2 waves and 48, in 5 parts) +10-20%; 2304^2
 * x 8192 (324: 1 and 60, in 4) +10-25%; 1920 x 640 x 2560 (75, in 3) +30-60%;
 * 1000 x 1000 x 3000 (64, in 4) +40-90%; at 4096^3 and 8192^3 the last wave
 * is over half full (232 and 136 of 264): not cut, rung 12's time.
 * Measured (H100, three boards, NOTES): +0.8-1.1% at 2999 x 3001 x 2997, +14-15%
 * at 2304^2 x 8192 (the best of all rungs there), +28-29% and +61-62% at the
 * other two, -1.4 to -2% at 4352^2 x 4096.  A block's parts share its SM with
 * another's, which the model left out.  Where every tile is cut, rung 15 (a
 * second pass) was 6-30% faster, its last block reading S parts a thread's 16
 * floats together.  Now the parts are tiles of C's layout, added back
 * coalesced, and the pipeline is a function compiled apart, so that the code
 * after it does not move its registers (inline, that cost 5-10%): +11-24%
 * where every tile is cut, 0-4% elsewhere, 97% of cuBLAS at 2304^2 x 8192
 * (NOTES).  The tile of 128 x 64 reached 62-72% of cuBLAS at 9000 x 33, 48
 * and 57 x 2500, where the best other rung had 45-54% (the three estimates
 * agree there); 64 x 64, for the shapes between, was the fastest of rung 21's
 * tiles at 1536^3 (88% of cuBLAS, 11 parts a tile; rung 12 70%) and
 * 6289 x 271 x 1000 (NOTES). */
#include "rung_config.h"
#include "async_pipeline.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "block_order.cuh"
#include "launch.cuh"
#include "load4.cuh"
#include "matmul.h"
#include "split_k.cuh"

/* The rule's floor: a part may be four 32-deep slices (its pipeline of three
 * fills); rung 15's floor of one is for C of a few tiles, where the parts are
 * all there is. */
constexpr int TAIL_FLOOR = 4;

/* The pipeline as a function of its own, called once: ptxas then assigns its
 * registers apart from what the kernel does after it (NOTES: inlined, the
 * parts' code moved them, and the main loop ran 5-10% slower). */
template <int BM, int BN, int TM, int TN, bool VEC>
__device__ __noinline__ void mainloop_apart(float (&acc)[TM][TN], const float *__restrict__ A,
                                            const float *__restrict__ B, int M, int N, int K, int row0, int col0,
                                            int k0, int k1, float *smem)
{
    int tr, tc;
    const int tid = threadIdx.x;
    if constexpr (TN == 8) quarter_origin<BN, TM>(tid, tr, tc);
    else narrow_origin<BN, TM>(tid, tr, tc);
    async_mainloop<BM, BN, TM, VEC, TN>(acc, A, B, M, N, K, row0, col0, k0, k1, smem, tid, tr, tc);
}

template <int BM, int BN, int TM, int TN, bool VEC>
__global__ void __launch_bounds__(async_threads<BM, BN, TM, TN>(), BM == 128 ? 2 : 3)
gpu_tail_split(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M, int N,
               int K, tail_plan p, float4 *__restrict__ parts, int *__restrict__ count)
{
    constexpr int Q = TM * TN / 4;   /* float4s of a thread's acc */
    extern __shared__ __align__(16) float smem[];
    __shared__ int last;
    const int tid = threadIdx.x;
    int tr, tc, t, k0, k1, bx, by;
    if constexpr (TN == 8) quarter_origin<BN, TM>(tid, tr, tc);
    else narrow_origin<BN, TM>(tid, tr, tc);
    tail_unit(p, blockIdx.x, t, k0, k1);
    grouped_block(t, p.tx, p.ty, GROUP_ROWS / BM, bx, by);
    float acc[TM][TN];
    mainloop_apart<BM, BN, TM, TN, VEC>(acc, A, B, M, N, K, by * BM, bx * BN, k0, k1, smem);
    const int b = fresh_ctaid();   /* not t: held across the loop, it moved the loop's registers */
    if (b >= p.whole) {   /* a part: into its slot; the last of the tile's S adds them all */
        const int u = (b - p.whole) / p.S;
        float *slot = (float *)parts + (size_t)(b - p.whole) * BM * BN;   /* a tile of C's layout */
        if constexpr (TN == 8) store_quarters<TM, true>(slot, acc, tr, tc, BM, BN);
        else part_store<TM, TN>((float4 *)slot + tid * Q, acc);
        if (!last_to_arrive(&count[u], p.S, tid, last)) return;
#pragma unroll
        for (int m = 0; m < TM; m++)
#pragma unroll
            for (int n = 0; n < TN; n++) acc[m][n] = 0.0f;
#pragma unroll 1
        for (int z = 0; z < p.S; z++) {
            const float *part = (const float *)parts + (size_t)(u * p.S + z) * BM * BN;
            if constexpr (TN == 8) part_add_quarters<TM>(acc, part, tr, tc, BN);
            else part_add<TM, TN>(acc, (const float4 *)part + tid * Q);
        }
        last_done(&count[u], tid);
    }
    if constexpr (TN == 8) store_quarters<TM, VEC>(C, acc, by * BM + tr, bx * BN + tc, M, N);
    else store_narrow<BN, TM, VEC>(C, acc, by * BM + tr, bx * BN + tc, M, N);
}

template <int BM, int BN, int TM, int TN = 8>
static const char *launch(const struct gpu_launch *L)
{
    const bool vec = rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0;
    auto kernel = vec ? gpu_tail_split<BM, BN, TM, TN, true> : gpu_tail_split<BM, BN, TM, TN, false>;
    async_shape a;
    const char *why = async_shape_of<BM, BN, TM, TN>(kernel, &a);
    if (why) return why;
    const tail_plan p = tail_plan_for(L->M, L->N, L->K, BM, BN, SLICE, a.resident, L->split, TAIL_FLOOR, &why);
    if (why) return why;
    const tail_space w = tail_space_of(p, BM, BN);
    why = L->describe ? describe_kernel(L->describe, kernel, a.threads, a.smem, w.grid) : NULL;
    if (!why) why = parts_check(L, p.S, w.need);
    if (why || L->describe) return why;
    int *count = (int *)((char *)L->workspace + w.counters);
    kernel<<<w.grid, a.threads, a.smem, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K, p,
                                                                 (float4 *)L->workspace, count);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

#endif

/* tile = rows of the block tile, wpt = outputs a thread: 128/64 128 x 128 (8 x 8
 * a thread, 256 threads, two blocks an SM), 64/64 64 x 128 (8 x 8, 128
 * threads), 64/32 64 x 64 (4 x 8, 128 threads), 32/32 32 x 128 (4 x 8, 128
 * threads); and for C of a few dozen columns 128/32 128 x 64 (4 x 8, 256
 * threads) and 128/16 128 x 32 (4 x 4, the narrow layout of warp_tile.cuh, 256
 * threads); each with the last wave's tiles in 1 to RUNG_MAX_SPLIT parts, or by
 * the rule */
#define CONFIGS(X)                                                          \
    X(32, 32, 32, 128, 4, 8, ASYNC_SMEM(32, 128), (launch<32, 128, 4>))     \
    X(64, 32, 64, 64, 4, 8, ASYNC_SMEM(64, 64), (launch<64, 64, 4>))        \
    X(64, 64, 64, 128, 8, 8, ASYNC_SMEM(64, 128), (launch<64, 128, 8>))     \
    X(128, 64, 128, 128, 8, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 8>)) \
    X(128, 32, 128, 64, 4, 8, ASYNC_SMEM(128, 64), (launch<128, 64, 4>))    \
    X(128, 16, 128, 32, 4, 4, ASYNC_SMEM(128, 32), (launch<128, 32, 4, 4>))
RUNG_CONFIGS_SPLIT(gpu_tail_split, CONFIGS)
