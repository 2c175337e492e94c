/* The cp.async pipeline of rung 12, shared by the rungs that decompose the work
 * differently over it (15 split-K, 16 stream-K): one block's BM x BN tile of C
 * over a range of 32-deep slices of K, accumulated in registers (the warp tile
 * layout of warp_tile.cuh).  Rung 12 runs it over all of K. */
#ifndef KERNELS_GPU_ASYNC_PIPELINE_CUH
#define KERNELS_GPU_ASYNC_PIPELINE_CUH

/* Dynamic shared memory of a BM x BN block tile: three stages of a 32-deep slice
 * of A (BM rows, padded by 4) and of B (BN columns), floats. */
#define ASYNC_SMEM(BM, BN) (3 * 32 * ((BM) + 4 + (BN)) * 4)

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "warp_tile.cuh"

constexpr int SLICE = 32, STAGES = 3;
static_assert(STAGES == 3 && SLICE == 32, "ASYNC_SMEM above says 3 stages of 32");

/* Threads of a block with a BM x BN tile and TM x TN outputs each (TN = 8: the
 * warp tile of warp_tile.cuh; TN = 4: its narrow layout, BN = 16 or 32). */
template <int BM, int BN, int TM, int TN = 8>
__host__ __device__ constexpr int async_threads() { return BM * BN / (TN * TM); }

/* How a kernel of this pipeline at BM x BN (TM rows a thread) is launched, and
 * how many of its blocks the GPU holds at once (for rungs that size their grid
 * or their split by it). */
struct async_shape {
    int threads, sms;
    size_t smem;
    long long resident;
};
template <int BM, int BN, int TM, int TN = 8, typename... Params>
static const char *async_shape_of(void (*kernel)(Params...), async_shape *s)
{
    s->threads = async_threads<BM, BN, TM, TN>(), s->smem = ASYNC_SMEM(BM, BN);
    return resident_blocks(kernel, s->threads, s->smem, &s->sms, &s->resident);
}

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

/* acc = A[row0 .. row0+BM, slices kb0..kb1) * B[slices kb0..kb1, col0 .. col0+BN),
 * slice k covering columns (rows of B) 32k .. 32k+31 of K (kb1 < 0: to the end of
 * K, counted here); tid is threadIdx.x and (tr, tc) the thread's first quarter
 * (quarter_origin), read once by the caller.  (The order of these steps, and the accumulators' own
 * array, are rung 12's before they moved here: with the slice count or
 * threadIdx.x taken elsewhere, or the caller's array zeroed, ptxas chose other
 * registers and rung 12 ran 6.5% slower.)  `smem` holds ASYNC_SMEM(BM, BN)
 * bytes; the caller synchronises before it is used for anything else.  VEC: N
 * and K multiples of 4 and A, B 16-byte aligned (16-byte copies of B). */
template <int BM, int BN, int TM, bool VEC, int TN = 8>
__device__ __forceinline__ void async_mainloop(float (&acc)[TM][TN], const float *__restrict__ A,
                                               const float *__restrict__ B, int M, int N, int K,
                                               int row0, int col0, int kb0, int kb1, float *smem,
                                               int tid, int tr, int tc)
{
    constexpr int BK = SLICE, NT = async_threads<BM, BN, TM, TN>(), PA = BM + 4;
    float(*As)[BK][PA] = reinterpret_cast<float(*)[BK][PA]>(smem);   /* [stage][k][row] */
    float(*Bs)[BK][BN] = reinterpret_cast<float(*)[BK][BN]>(smem + STAGES * BK * PA);
    /* A: this thread copies columns k = tid % 8 + 8h of rows tid / 8 + NT/8 * j;
     * B: BW columns from bc of slice rows bk + BRS * j (16-byte copies: BW = 4). */
    const int ak = tid % 8, ar = tid / 8;
    constexpr int BW = VEC ? 4 : 1, BPR = BN / BW, BRS = NT >= BPR ? NT / BPR : 1;
    const int bc = (tid % BPR) * BW, bk = tid / BPR;
    /* Away from the edges every copy is in range: no per-element tests there
     * (without VEC too: then B's copies are 4 bytes, BW = 1, where each thread's
     * columns are one per row of the slice, NT >= BPR). */
    const bool inner = (VEC || NT >= BPR) && row0 + BM <= M && col0 + BN <= N;

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
                copy_async<4 * BW>(&Bs[s][bk + j * BRS][bc], pb, true);
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

    const int slices = (kb1 < 0 ? (K + BK - 1) / BK : kb1) - kb0;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < slices) fetch((kb0 + s) * BK, s);
        asm volatile("cp.async.commit_group;\n");
    }
    float sum[TM][TN] = {};   /* (declared here as rung 12 did: see above) */
    for (int t = 0; t < slices; t++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
        __syncthreads();   /* slice t has landed for everyone; stage (t-1) % STAGES is free */
        if (t + STAGES - 1 < slices) fetch((t + STAGES - 1 + kb0) * BK, (t + STAGES - 1) % STAGES);
        asm volatile("cp.async.commit_group;\n");
        const int s = t % STAGES;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
            if constexpr (TN == 8) load_quarters<TM>(As[s][k], Bs[s][k], tr, tc, a, b);
            else load_narrow<BN, TM>(As[s][k], Bs[s][k], tr, tc, a, b);
            /* Column by column, the rows in alternating direction: b[n] is reused
             * from the operand cache; the order decides the registers' banks
             * (rung 12's comment). */
#pragma unroll
            for (int n = 0; n < TN; n++)
#pragma unroll
                for (int i = 0; i < TM; i++) {
                    const int m = (n & 1) ? TM - 1 - i : i;
                    sum[m][n] += a[m] * b[n];
                }
        }
    }
#pragma unroll
    for (int m = 0; m < TM; m++)
#pragma unroll
        for (int n = 0; n < TN; n++) acc[m][n] = sum[m][n];
}

#endif /* __CUDACC__ */
#endif
