/* Rung 16, past the seeds: stream-K over rung 12's pipeline (Osama et al.,
 * PPoPP 2023).
 *
 * Adds over rung 15: split-K fills the GPU when C has fewer tiles than it holds
 * blocks, but cannot help a C of 2.2 waves of tiles, whose third wave runs a
 * fifth full.  Here a persistent grid of G blocks (the GPU's resident blocks)
 * shares the work out by multiply-add iterations (32-deep slices of K) rather
 * than by tiles: the tiles of the partial wave (T mod G of them, or all T when
 * T < G) are cut into G equal runs of iterations, one a block, and the whole
 * waves go tile by tile after them (block b takes tiles b, b + G, ...), so that
 * every block ends at the same time.  A tile whose iterations two or more
 * blocks share is fixed up without waiting: each block writes its part into the
 * workspace and counts itself in with an integer atomic on the tile's counter;
 * the last to arrive adds the parts in block order (the same bits on every run,
 * whichever block finishes last), stores the tile and resets the counter.  No
 * block waits for another, so nothing depends on which blocks are resident.
 *
 * The rule.  Iterations shared out this way run about half as fast as whole
 * tiles (development runs, H100: a C cut entirely into runs, 8192 x 1024 x
 * 1024, ran at 76% of cuBLAS where whole tiles ran at 96%), likely because
 * blocks that start their runs at different depths of K no longer read the
 * same slices of A and B at the same time, so that L2 serves fewer of them
 * (not yet measured with ncu).  So the partial
 * wave is shared out only when it is at most half full (else it runs as
 * whole tiles, as in rung 12) and gives each block SK_MIN_SLICES slices or more,
 * and a C of fewer tiles than G is shared by at most SK_SHARE blocks a tile,
 * each of at least SK_MIN_SLICES slices (the last
 * block adds the parts one after another: split-K's second pass does that in
 * parallel, and is the better choice for a few tiles with long K).
 * Prediction (H100, 2 blocks of 128 x 128 per SM, G = 264): 2999 x 3001 x 2997
 * is 576 tiles = 2.18 waves; rung 12 takes 3 tile-times, here 2 + 2 x 0.18 =
 * 2.4: ~1.25x rung 12. */
#include "rung_config.h"
#include "async_pipeline.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "block_order.cuh"
#include "launch.cuh"
#include "load4.cuh"
#include "matmul.h"
#include "split_k.cuh"
#include "stream_k.cuh"

constexpr int SK_SHARE = 8;         /* most blocks per stream-K tile, by the grid's size */
constexpr int SK_MIN_SLICES = 4;    /* fewest slices a block */

template <int BM, int BN, int TM, bool VEC>
__global__ void __launch_bounds__(async_threads<BM, BN, TM>(), 2)
gpu_streamk(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M,
            int N, int K, sk_plan p, float4 *__restrict__ parts, int *__restrict__ count)
{
    constexpr int NT = async_threads<BM, BN, TM>(), Q = 2 * TM;   /* float4s of a thread's acc */
    extern __shared__ __align__(16) float smem[];
    /* Where the block's run stands, and whether it is the last at a shared tile:
     * in shared memory, so that none of it stays in registers across the
     * pipeline (the 128 x 128 tile has none to spare: rung 12 uses all 128). */
    __shared__ int pos, dp, last;
    float acc[TM][8];

    /* First the stream-K run of iterations [sk_begin(b), sk_begin(b + 1)), then
     * whole tiles b + G apart from tile sk on: one tile (or part of one) a turn,
     * read from (pos, dp) before the pipeline and again after it. */
    struct unit {
        int t, k0, k1, in_sk;
    };
    auto next = [&]() {
        const int end = (int)sk_begin(p, fresh_ctaid() + 1), x = pos, in_sk = x < end;
        const int t = in_sk ? x / p.I : dp;
        return unit{t, in_sk ? x - t * p.I : 0, in_sk ? min(p.I, end - t * p.I) : p.I, in_sk};
    };
    if (threadIdx.x == 0) pos = (int)sk_begin(p, blockIdx.x), dp = p.sk + blockIdx.x;
    __syncthreads();
    for (;;) {
        unit u = next();
        if (u.t >= p.T) break;
        int tid = fresh_tid(), tr, tc, bx, by;
        quarter_origin<BN, TM>(tid, tr, tc);
        grouped_block(u.t, p.tx, p.ty, GROUP_ROWS / BM, bx, by);
        async_mainloop<BM, BN, TM, VEC>(acc, A, B, M, N, K, by * BM, bx * BN, u.k0, u.k1, smem, tid, tr, tc);
        __syncthreads();   /* every warp is done with the stages */
        u = next();
        tid = fresh_tid();
        const int b = fresh_ctaid();
        quarter_origin<BN, TM>(tid, tr, tc);
        grouped_block(u.t, p.tx, p.ty, GROUP_ROWS / BM, bx, by);
        const int t = u.t;
        int done = u.k0 == 0 && u.k1 == p.I;   /* the whole tile is this block's */
        if (!done) {   /* a tile shared with other blocks */
            /* slot 2b: the tile the run starts in; 2b + 1: the one it ends in */
            const int first = sk_block_of(p, (long long)t * p.I);
            const int final = sk_block_of(p, (long long)(t + 1) * p.I - 1);
            part_store<TM, 8>(parts + ((size_t)(2 * b + (t == sk_begin(p, b) / p.I ? 0 : 1)) * NT + tid) * Q, acc);
            done = last_to_arrive(&count[t], final - first + 1, tid, last);
            if (done) {   /* the last to arrive: the parts in block order, each from its slot */
#pragma unroll
                for (int m = 0; m < TM; m++)
#pragma unroll
                    for (int n = 0; n < 8; n++) acc[m][n] = 0.0f;
#pragma unroll 1
                for (int o = first; o <= final; o++)
                    part_add<TM, 8>(acc, parts + ((size_t)(2 * o + (t == sk_begin(p, o) / p.I ? 0 : 1)) * NT + tid) * Q);
                last_done(&count[t], tid);
            }
        }
        if (done)
            store_quarters<TM, VEC>(C, acc, by * BM + tr, bx * BN + tc, M, N);
        __syncthreads();   /* all have read pos, dp and last */
        if (tid == 0) {
            if (u.in_sk) pos = t * p.I + u.k1;
            else dp += p.D;
        }
        __syncthreads();
    }
}

template <int BM, int BN, int TM>
static const char *launch(const struct gpu_launch *L)
{
    const bool vec = rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0;
    auto kernel = vec ? gpu_streamk<BM, BN, TM, true> : gpu_streamk<BM, BN, TM, false>;
    async_shape a;
    const char *why = async_shape_of<BM, BN, TM>(kernel, &a);
    if (why) return why;
    const sk_plan p = sk_plan_for(L->M, L->N, L->K, BM, BN, SLICE, a.resident, SK_MIN_SLICES, SK_SHARE);
    /* the workspace: two part slots a block, then a counter a stream-K tile */
    const size_t parts = p.sk ? (size_t)2 * p.G * BM * BN * sizeof(float) : 0,
                 need = parts + (size_t)p.sk * sizeof(int);
    why = L->describe ? describe_kernel(L->describe, kernel, a.threads, a.smem, dim3(p.D)) : NULL;
    if (!why) why = sk_check(L, p, need);
    if (why || L->describe) return why;
    float4 *slots = (float4 *)L->workspace;
    int *count = (int *)((char *)L->workspace + parts);
    kernel<<<p.D, a.threads, a.smem, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K, p,
                                                            slots, count);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

#endif

/* tile 64 and 128: 64 x 64 and 128 x 128 block tiles, 8 x 8 per thread */
#define CONFIGS(X)                                                           \
    X(64, 64, 64, 64, 8, 8, ASYNC_SMEM(64, 64), (launch<64, 64, 8>))         \
    X(128, 64, 128, 128, 8, 8, ASYNC_SMEM(128, 128), (launch<128, 128, 8>))
RUNG_CONFIGS(gpu_streamk, CONFIGS)
