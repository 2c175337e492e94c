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

/* Dynamic shared memory of a BM x BN block tile: three stages of a 32-deep slice
 * of A (BM rows, padded by 4) and of B (BN columns), floats. */
#define ASYNC_SMEM(BM, BN) (3 * 32 * ((BM) + 4 + (BN)) * 4)

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "block_order.cuh"
#include "load4.cuh"
#include "launch.cuh"
#include "warp_tile.cuh"
#include "matmul.h"

/* Copy `bytes` (4 or 16) from global `src` to shared `dst` if `valid`, else zero-fill. */
template <int bytes>
__device__ __forceinline__ void copy_async(float *dst, const float *src, bool valid)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                     "r"(valid ? 16 : 0));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src),
                     "r"(valid ? 4 : 0));
}

constexpr int SLICE = 32, STAGES = 3;

/* Block tile BM x BN (rows x columns) and TM x 8 outputs per thread, as rung
 * 11; square tiles run two blocks per SM, the 128 x 256 tile one. */
template <int BM, int BN, int TM, bool VEC>
__global__ void __launch_bounds__(BM * BN / (8 * TM), BM == BN ? 2 : 1)
gpu_async_copy(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
               int M, int N, int K)
{
    constexpr int BK = SLICE, NT = BM * BN / (8 * TM), PA = BM + 4;
    extern __shared__ __align__(16) float smem[];
    float(*As)[BK][PA] = reinterpret_cast<float(*)[BK][PA]>(smem);   /* [stage][k][row] */
    float(*Bs)[BK][BN] = reinterpret_cast<float(*)[BK][BN]>(smem + STAGES * BK * PA);
    const int tid = threadIdx.x;
    int tr, tc;   /* the thread's first quarter inside the block tile */
    quarter_origin<BN, TM>(tid, tr, tc);
    int bx, by;   /* launch order: down groups of GROUP_ROWS rows of C */
    grouped_block(blockIdx.x + gridDim.x * blockIdx.y, gridDim.x, gridDim.y, GROUP_ROWS / BM, bx, by);
    const int row0 = by * BM, col0 = bx * BN;
    /* A: this thread copies columns k = tid % 8 + 8h of rows tid / 8 + NT/8 * j;
     * B: BW columns from bc of slice rows bk + BRS * j (16-byte copies: BW = 4). */
    const int ak = tid % 8, ar = tid / 8;
    constexpr int BW = VEC ? 4 : 1, BPR = BN / BW, BRS = NT >= BPR ? NT / BPR : 1;
    const int bc = (tid % BPR) * BW, bk = tid / BPR;
    /* Away from the edges every copy is in range: no per-element tests there. */
    const bool inner = VEC && row0 + BM <= M && col0 + BN <= N;

    auto fetch = [&](int k0, int s) {   /* slice k0.. into stage s */
        if (inner && k0 + BK <= K) {
            const float *pa = A + (size_t)(row0 + ar) * K + k0 + ak;
            const float *pb = B + (size_t)(k0 + bk) * N + col0 + bc;
#pragma unroll
            for (int j = 0; j < BM / (NT / 8); j++, pa += (size_t)(NT / 8) * K)
#pragma unroll
                for (int h = 0; h < BK / 8; h++) copy_async<4>(&As[s][ak + 8 * h][ar + j * (NT / 8)], pa + 8 * h, true);
#pragma unroll
            for (int j = 0; j < BK / BRS; j++, pb += (size_t)BRS * N)
                copy_async<16>(&Bs[s][bk + j * BRS][bc], pb, true);
            return;
        }
#pragma unroll
        for (int h = 0; h < BK / 8; h++)
#pragma unroll
            for (int j = 0; j < BM / (NT / 8); j++) {
                const int r = ar + j * (NT / 8), k = ak + 8 * h;
                const bool ok = row0 + r < M && k0 + k < K;
                copy_async<4>(&As[s][k][r], ok ? &A[(size_t)(row0 + r) * K + k0 + k] : A, ok);
            }
#pragma unroll
        for (int j = 0; j < BK * BPR / NT; j++) {
            int k = bk + j * BRS, c = bc;
            if constexpr (NT < BPR) k = (tid + j * NT) / BPR, c = ((tid + j * NT) % BPR) * BW;
            const bool ok = k0 + k < K && col0 + c < N;   /* VEC: N % 4 == 0, all four in */
            copy_async<4 * BW>(&Bs[s][k][c], ok ? &B[(size_t)(k0 + k) * N + col0 + c] : B, ok);
        }
    };

    const int slices = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < slices) fetch(s * BK, s);
        asm volatile("cp.async.commit_group;\n");
    }
    float acc[TM][8] = {};
    for (int t = 0; t < slices; t++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
        __syncthreads();   /* slice t has landed for everyone; stage (t-1) % STAGES is free */
        if (t + STAGES - 1 < slices) fetch((t + STAGES - 1) * BK, (t + STAGES - 1) % STAGES);
        asm volatile("cp.async.commit_group;\n");
        const int s = t % STAGES;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[TM], b[8];
            load_quarters<TM>(As[s][k], Bs[s][k], tr, tc, a, b);
            /* Column by column, the rows in alternating direction: b[n] is reused
             * from the operand cache; the order decides the registers' banks
             * (see above). */
#pragma unroll
            for (int n = 0; n < 8; n++)
#pragma unroll
                for (int i = 0; i < TM; i++) {
                    const int m = (n & 1) ? TM - 1 - i : i;
                    acc[m][n] += a[m] * b[n];
                }
        }
    }
    store_quarters<TM, VEC>(C, acc, row0 + tr, col0 + tc, M, N);
}

template <int BM, int BN, int TM>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BN - 1) / BN, (L->M + BM - 1) / BM), block(BM * BN / (8 * TM));
    static_assert(STAGES == 3 && SLICE == 32, "ASYNC_SMEM above says 3 stages of 32");
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
