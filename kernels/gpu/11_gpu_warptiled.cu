/* Rung 11, past the seeds: warp tiling and a shared layout free of bank conflicts.
 *
 * Adds over rung 10: the same block tile, 8-deep slices and double buffering,
 * but the threads' blocks of C are laid out by warp.  Each thread holds TM x 8
 * outputs as 4 x 4 quarters, 16 rows and 32 columns apart; a warp owns a
 * 4TM x 64 tile of C.  In rung 10 a thread's block was 8 contiguous columns, so
 * the 16-byte reads of a B row by eight neighbouring threads hit every bank
 * twice; here eight neighbours read 32 contiguous floats (one pass) and the A
 * values they need are one broadcast.  The transposed A slice gets a row pitch
 * of BT + 4 floats, so that the four scalar stores of each loaded float4 land
 * in distinct banks too (with pitch BT, the two threads sharing a row wrote
 * the same bank).  WPT selects TM = 8 (8 x 8 per thread, as rung 10) or
 * TM = 16 (16 x 8: 128 accumulators, one warp per 64 x 64 tile).
 *
 * Expected effect: rung 10 spends two shared-memory passes per B read and two
 * per transposed store; removing them shortens the non-FMA part of each k step
 * by about a third.  Prediction: 1.1-1.2x rung 10.  Measured (H100, 8192):
 * 1.15x at TM = 8, 1.19x at TM = 16. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "load4.cuh"
#include "launch.cuh"
#include "warp_tile.cuh"
#include "matmul.h"

/* Block tile BT x BT; each thread TM x 8 outputs (TM/4 x 2 quarters of 4 x 4), so
 * a warp owns 4TM x 64 of C and a block has BT*BT/(8TM) threads. */
template <int BT, int TM, bool VEC>
__global__ void __launch_bounds__(BT * BT / (8 * TM), 2)
gpu_warptiled(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
              int M, int N, int K)
{
    constexpr int BK = 8, NT = BT * BT / (8 * TM);   /* threads */
    constexpr int LOADS = BT * BK / 4 / NT;   /* float4s of A (and of B) per thread */
    constexpr int PA = BT + 4;                /* padded pitch of the transposed A slice */
    __shared__ __align__(16) float As[2][BK][PA];
    __shared__ __align__(16) float Bs[2][BK][BT];
    const int tid = threadIdx.x;
    int tr, tc;   /* the thread's first quarter inside the block tile */
    quarter_origin<BT, TM>(tid, tr, tc);
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float4 ra[LOADS], rb[LOADS];

    auto fetch = [&](int k0) {   /* global -> registers */
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const int i = tid + j * NT;
            ra[j] = load4<VEC>(A, row0 + i / (BK / 4), k0 + (i % (BK / 4)) * 4, M, K);
            rb[j] = load4<VEC>(B, k0 + i / (BT / 4), col0 + (i % (BT / 4)) * 4, K, N);
        }
    };
    auto stash = [&](int s) {    /* registers -> shared stage s, A transposed */
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const int i = tid + j * NT, r = i / (BK / 4), k = (i % (BK / 4)) * 4;
            As[s][k][r] = ra[j].x; As[s][k + 1][r] = ra[j].y;
            As[s][k + 2][r] = ra[j].z; As[s][k + 3][r] = ra[j].w;
            *reinterpret_cast<float4 *>(&Bs[s][i / (BT / 4)][(i % (BT / 4)) * 4]) = rb[j];
        }
    };

    float acc[TM][8] = {};
    fetch(0);
    stash(0);
    __syncthreads();
    for (int k0 = 0, s = 0; k0 < K; k0 += BK, s ^= 1) {
        const bool more = k0 + BK < K;
        if (more) fetch(k0 + BK);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[TM], b[8];
            load_quarters<TM>(As[s][k], Bs[s][k], tr, tc, a, b);
#pragma unroll
            for (int m = 0; m < TM; m++)
#pragma unroll
                for (int n = 0; n < 8; n++) acc[m][n] += a[m] * b[n];
        }
        if (more) stash(s ^ 1);
        __syncthreads();
    }
    store_quarters<TM, VEC>(C, acc, row0 + tr, col0 + tc, M, N);
}

template <int BT, int TM>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BT - 1) / BT, (L->M + BT - 1) / BT), block(BT * BT / (8 * TM));
    if (rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0)
        return launch_or_describe(L, gpu_warptiled<BT, TM, true>, grid, block);
    return launch_or_describe(L, gpu_warptiled<BT, TM, false>, grid, block);
}

#endif

/* tile = block tile BT x BT (64 or 128); WPT 64 or 128 = 8 x 8 or 16 x 8
 * outputs per thread */
#define CONFIGS(X)                                     \
    X(64, 64, 64, 64, 8, 8, 0, (launch<64, 8>))           \
    X(64, 128, 64, 64, 16, 8, 0, (launch<64, 16>))        \
    X(128, 64, 128, 128, 8, 8, 0, (launch<128, 8>))       \
    X(128, 128, 128, 128, 16, 8, 0, (launch<128, 16>))
RUNG_CONFIGS(gpu_warptiled, CONFIGS)
