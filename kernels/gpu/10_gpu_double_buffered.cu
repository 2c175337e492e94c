/* Rung 10, past the seeds: double buffering.
 *
 * Adds over rung 09: two shared-memory stages.  While the block multiplies the
 * slice in one stage, each thread already has the next slice's global loads in
 * flight into registers, and stores them into the other stage afterwards: the
 * latency of global memory overlaps the FMAs instead of stalling them, and one
 * __syncthreads per slice suffices (the stage written in step t was last read
 * in step t-1, before that step's barrier).
 *
 * Expected effect: rung 09 waits for every slice's loads with the FMA pipes
 * idle; with 8 x 8 blocks per thread the loop has 512 FMAs per slice to hide
 * them, so we expect 1.1-1.3x rung 09 at large n. */
#include "rung_config.h"
#include "block_tile.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "load4.cuh"
#include "launch.cuh"
#include "matmul.h"

template <int BT, int T, bool VEC>
__global__ void __launch_bounds__((BT / T) * (BT / T))
gpu_double_buffered(float *__restrict__ C, const float *__restrict__ A,
                    const float *__restrict__ B, int M, int N, int K)
{
    constexpr int BK = 8, NT = (BT / T) * (BT / T);
    constexpr int LOADS = (BT * BK / 4 + NT - 1) / NT;   /* float4s of A (and of B) per thread */
    __shared__ __align__(16) float As[2][BK][BT];         /* transposed: As[s][k][row] */
    __shared__ __align__(16) float Bs[2][BK][BT];
    const int tid = threadIdx.x;
    const int tr = tid / (BT / T), tc = tid % (BT / T);
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float4 ra[LOADS], rb[LOADS];

    auto fetch = [&](int k0) {   /* global -> registers */
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const int i = tid + j * NT;
            if (i < BT * BK / 4) {
                ra[j] = load4<VEC>(A, row0 + i / (BK / 4), k0 + (i % (BK / 4)) * 4, M, K);
                rb[j] = load4<VEC>(B, k0 + i / (BT / 4), col0 + (i % (BT / 4)) * 4, K, N);
            }
        }
    };
    auto stash = [&](int s) {    /* registers -> shared stage s */
#pragma unroll
        for (int j = 0; j < LOADS; j++) {
            const int i = tid + j * NT;
            if (i < BT * BK / 4) {
                const int r = i / (BK / 4), k = (i % (BK / 4)) * 4;
                As[s][k][r] = ra[j].x; As[s][k + 1][r] = ra[j].y;
                As[s][k + 2][r] = ra[j].z; As[s][k + 3][r] = ra[j].w;
                *reinterpret_cast<float4 *>(&Bs[s][i / (BT / 4)][(i % (BT / 4)) * 4]) = rb[j];
            }
        }
    };

    float acc[T][T] = {};
    fetch(0);
    stash(0);
    __syncthreads();
    for (int k0 = 0, s = 0; k0 < K; k0 += BK, s ^= 1) {
        const bool more = k0 + BK < K;
        if (more) fetch(k0 + BK);
#pragma unroll
        for (int k = 0; k < BK; k++) multiply_step<BT, T>(As[s][k], Bs[s][k], tr, tc, acc);
        if (more) stash(s ^ 1);
        __syncthreads();
    }
    store_block<T>(C, acc, row0 + tr * T, col0 + tc * T, M, N);
}

template <int BT, int T>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BT - 1) / BT, (L->M + BT - 1) / BT), block((BT / T) * (BT / T));
    if (rows_16_byte_aligned(L->A, L->B, L->N, L->K))
        return launch_or_describe(L, gpu_double_buffered<BT, T, true>, grid, block);
    return launch_or_describe(L, gpu_double_buffered<BT, T, false>, grid, block);
}

#endif

RUNG_CONFIGS(gpu_double_buffered, BLOCK_TILE_CONFIGS)
