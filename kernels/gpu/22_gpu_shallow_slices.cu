/* Rung 22, past the seeds: shallow slices and more warps a tile, for the
 * mid-size products whose rows are not 16-byte aligned.
 *
 * Adds over rung 12: rung 12's 64 x 64 tile runs 2 warps on 32-deep slices in 3
 * stages (50.7 KB of shared memory a block), so an SM holds 8 warps of it, a K
 * of 69 is two slices and a fifth, and the pipeline's first multiply waits for
 * 64 k of A and B. Where N or K is not a multiple of 4 its copies of B are 4
 * bytes each, with bounds tests, and its stores one float per lane four columns
 * apart: at 7972 x 187 x 69 (H100, ncu) it runs 28.8 us against 18.3 at 7972 x
 * 188 x 72, stalled on instruction fetch, where cuBLAS launches a 64 x 64 x 8
 * tile of 4 warps in 3 stages at either (11.6 us). Here a 64 x 64 tile has 4
 * warps, each thread 4 rows x 8 columns; slices are 8 deep in 4 stages (17 KB),
 * so 5 blocks, 20 warps, share an SM (by registers) and the first multiply
 * waits for 8 k. A thread copies 4 floats of A a slice (8 consecutive k of a
 * row a group of 8 lanes, stored transposed) and 4 of B (one 16-byte copy where
 * rows are aligned), with no tests inside C and a full slice. C goes out
 * through shared memory, each warp storing whole rows of the tile: every line
 * written once, whatever N is.
 * The last wave's tiles are cut in parts of K as rung 21 cuts them.
 * Prediction (H100): the unaligned mid-size shapes of the tuning corpus at
 * their aligned neighbours' time, 1.2-1.6x rung 12's and 80-100% of cuBLAS FP32
 * where K <= 140; at the squares below rung 12 (one shared load to 10.7 FMAs,
 * against 1 to 16 in its 64 x 64 tile); cut in parts, K of a few hundred and
 * more at rung 21's time. Measured (H100, NOTES): 96 registers; at the 7
 * unaligned tuning-mid shapes of K 39-104 it leaves whole, 1.3-2.1x rung 12's
 * speed and 67-88% of cuBLAS FP32 (the fastest of rungs 12, 15 and 21:
 * 50-68%); 70% of cuBLAS at 4096^3 (rung 12: 96%). The parts missed: 1407 x 163 x 926 in 10 ran as whole
 * (60.5 us; rung 21 32.4). Over the tuning corpus its cut plans run at 0.44 of
 * the fastest other rung's speed (geometric mean, 616 shapes, the fastest at
 * none), its whole ones at 0.995 where rows are unaligned and K <= 140 (126
 * shapes, the fastest at 75): the dispatch weighs the two apart. */
#include "rung_config.h"
#include "async_pipeline.cuh"   /* copy_async */

/* 64 x 64 tile, 128 threads, slices 8 deep in 4 stages (A's pitch 68: bank
 * 4k + r); C staged at pitch 65 after them, in the same bytes */
#define SS_BM 64
#define SS_BN 64
#define SS_BK 8
#define SS_STAGES 4
#define SS_THREADS 128
#define SS_PA (SS_BM + 4)
#define SS_STAGE (SS_BK * SS_PA + SS_BK * SS_BN)
#define SS_PC (SS_BN + 1)
#define SS_SMEM (4L * (SS_STAGES * SS_STAGE > SS_BM * SS_PC ? SS_STAGES * SS_STAGE : SS_BM * SS_PC))

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "load4.cuh"
#include "matmul.h"
#include "split_k.cuh"

/* A part's floor: 8 slices (64 k), twice the stages, so that its pipeline
 * fills within the first half of it. */
constexpr int SS_FLOOR = 8;

/* acc = A[row0.., slices kb0..kb1) B[slices kb0..kb1, col0..]: thread (tx, ty)
 * = (tid % 8, tid / 8) keeps rows 4 ty .. 4 ty + 3, columns 4 tx .. 4 tx + 3
 * and 32 + 4 tx ...  A function of its own, called once (rung 21's reason:
 * the code after it does not move its registers); it ends with every copy
 * landed and every thread past its last read of the stages. */
template <bool VEC>
__device__ __noinline__ void ss_mainloop(float (&acc)[4][8], const float *__restrict__ A,
                                         const float *__restrict__ B, int M, int N, int K, int row0,
                                         int col0, int kb0, int kb1, float *smem)
{
    const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
    const bool inner = row0 + SS_BM <= M && col0 + SS_BN <= N;
    /* A: k = tid % 8 of rows tid / 8 + 16 j; B: VEC, columns 4 (tid % 16).. of
     * slice row tid / 16; else column tid % 64 of slice rows tid / 64 + 2 j */
    const int ak = tid % 8, ar = tid / 8;

    auto fetch = [&](int k0, int s) {
        float *As = smem + s * SS_STAGE, *Bs = As + SS_BK * SS_PA;
        const bool full = inner && k0 + SS_BK <= K;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int r = ar + 16 * j;
            const bool ok = full || (row0 + r < M && k0 + ak < K);
            copy_async<4>(&As[ak * SS_PA + r], ok ? &A[(size_t)(row0 + r) * K + k0 + ak] : A, ok);
        }
        if (VEC) {   /* N % 4 == 0: a group of 4 columns is all in or all out */
            const int c = (tid % 16) * 4, k = tid / 16;
            const bool ok = full || (col0 + c < N && k0 + k < K);
            copy_async<16>(&Bs[k * SS_BN + c], ok ? &B[(size_t)(k0 + k) * N + col0 + c] : B, ok);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const int c = tid % 64, k = tid / 64 + 2 * j;
                const bool ok = full || (col0 + c < N && k0 + k < K);
                copy_async<4>(&Bs[k * SS_BN + c], ok ? &B[(size_t)(k0 + k) * N + col0 + c] : B, ok);
            }
        }
    };

    const int slices = kb1 - kb0;
#pragma unroll
    for (int s = 0; s < SS_STAGES - 1; s++) {
        if (s < slices) fetch((kb0 + s) * SS_BK, s);
        asm volatile("cp.async.commit_group;\n");
    }
    float sum[4][8] = {};
    for (int t = 0; t < slices; t++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(SS_STAGES - 2));
        __syncthreads();   /* slice t is in for everyone; the stage of t - 1 is free */
        const int next = t + SS_STAGES - 1;
        if (next < slices) fetch((kb0 + next) * SS_BK, next % SS_STAGES);
        asm volatile("cp.async.commit_group;\n");
        const float *As = smem + (t % SS_STAGES) * SS_STAGE, *Bs = As + SS_BK * SS_PA;
#pragma unroll
        for (int k = 0; k < SS_BK; k++) {
            const float4 a = *reinterpret_cast<const float4 *>(&As[k * SS_PA + 4 * ty]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k * SS_BN + 4 * tx]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k * SS_BN + 32 + 4 * tx]);
            const float av[4] = {a.x, a.y, a.z, a.w};
            const float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int n = 0; n < 8; n++) sum[i][n] += av[i] * bv[n];
        }
    }
    asm volatile("cp.async.wait_group 0;\n");
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int n = 0; n < 8; n++) acc[i][n] = sum[i][n];
}

/* Block b: tile t of the tail plan p (rung 21's, on slices of 8), over its
 * slices [k0, k1); a part of a cut tile stores its accumulators, and the last
 * of the tile's S to arrive adds them in the order z = 0, 1, ... and stores C. */
template <bool VEC>
__global__ void __launch_bounds__(SS_THREADS)
gpu_shallow_slices(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
                   int M, int N, int K, tail_plan p, float4 *__restrict__ parts, int *__restrict__ count)
{
    constexpr int Q = SS_BM * SS_BN / 4;   /* float4s of a part */
    extern __shared__ __align__(16) float smem[];
    __shared__ int last;
    int t, k0, k1;
    tail_unit(p, blockIdx.x, t, k0, k1);
    const int row0 = t / p.tx * SS_BM, col0 = t % p.tx * SS_BN;
    float acc[4][8];
    ss_mainloop<VEC>(acc, A, B, M, N, K, row0, col0, k0, k1, smem);
    const int tid = fresh_tid(), b = fresh_ctaid();
    if (b >= p.whole) {
        const int u = (b - p.whole) / p.S;
        part_store<4, 8>(parts + (size_t)(b - p.whole) * Q + tid * 8, acc);
        if (!last_to_arrive(&count[u], p.S, tid, last)) return;
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int n = 0; n < 8; n++) acc[i][n] = 0.0f;
#pragma unroll 1
        for (int z = 0; z < p.S; z++) part_add<4, 8>(acc, parts + (size_t)(u * p.S + z) * Q + tid * 8);
        last_done(&count[u], tid);
    }
    const int tx = tid % 8, ty = tid / 8;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int n = 0; n < 8; n++)
            smem[(4 * ty + i) * SS_PC + 4 * tx + n % 4 + 32 * (n / 4)] = acc[i][n];
    __syncthreads();
    /* thread: column tid % 64 of rows tid / 64, + 2, ...: a warp stores 32
     * consecutive floats of one row a step */
    const int c = tid % SS_BN;
    if (col0 + c < N)
        for (int r = tid / SS_BN; r < SS_BM && row0 + r < M; r += SS_THREADS / SS_BN)
            C[(size_t)(row0 + r) * N + col0 + c] = smem[r * SS_PC + c];
}

static const char *launch(const struct gpu_launch *L)
{
    const bool vec = rows_16_byte_aligned(L->A, L->B, L->N, L->K);
    auto kernel = vec ? gpu_shallow_slices<true> : gpu_shallow_slices<false>;
    int sms = 0;
    long long resident = 0;
    const char *why = resident_blocks(kernel, SS_THREADS, (size_t)SS_SMEM, &sms, &resident);
    if (why) return why;
    const tail_plan p = tail_plan_for(L->M, L->N, L->K, SS_BM, SS_BN, SS_BK, resident, L->split, SS_FLOOR, &why);
    if (why) return why;
    const tail_space w = tail_space_of(p, SS_BM, SS_BN);
    why = L->describe ? describe_kernel(L->describe, kernel, SS_THREADS, (size_t)SS_SMEM, w.grid) : NULL;
    if (!why) why = parts_check(L, p.S, w.need);
    if (why || L->describe) return why;
    int *count = (int *)((char *)L->workspace + w.counters);
    kernel<<<w.grid, SS_THREADS, SS_SMEM, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K, p,
                                                                    (float4 *)L->workspace, count);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}
#endif

/* one configuration: a 64 x 64 block tile, 4 x 8 outputs a thread, slices 8 deep
 * in 4 stages (17 KB of shared memory), the last wave's tiles in 1 to
 * RUNG_MAX_SPLIT parts of K, or by the rule */
#define CONFIGS(X) X(64, 32, 64, 64, 4, 8, SS_SMEM, launch)
RUNG_CONFIGS_SPLIT(gpu_shallow_slices, CONFIGS)
