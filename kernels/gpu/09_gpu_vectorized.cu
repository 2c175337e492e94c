/* Rung 09, past the seeds: 16-byte loads.
 *
 * Adds over rung 08: global loads of A and B as float4 (LDG.128), and the
 * thread's values of A and B read from shared memory as float4 (LDS.128): a
 * quarter of the load instructions.  A's float4 is a run of four k of one row,
 * scattered into the transposed tile As[k][row]; B's is four columns of one k.
 * A float4 load needs 16-byte alignment, so it is used when K and N are
 * multiples of 4 (the launcher picks); at the matrices' edges, and when they
 * are not, the loads fall back to guarded scalar ones, so any M, N, K >= 1 works.
 *
 * Expected effect: rung 08 issues about as many load instructions as FMAs in
 * its load phase and 2T LDS per T^2 FMAs in its inner loop; with both a quarter
 * as many, we expect 1.2-1.5x rung 08 at large n. */
#include "rung_config.h"
#include "block_tile.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "load4.cuh"
#include "launch.cuh"
#include "matmul.h"

template <int BT, int T, bool VEC>
__global__ void __launch_bounds__((BT / T) * (BT / T))
gpu_vectorized(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
               int M, int N, int K)
{
    constexpr int BK = 8, NT = (BT / T) * (BT / T);
    __shared__ __align__(16) float As[BK][BT];
    __shared__ __align__(16) float Bs[BK][BT];
    const int tid = threadIdx.x;
    const int tr = tid / (BT / T), tc = tid % (BT / T);
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;

    float acc[T][T] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int i = tid; i < BT * BK / 4; i += NT) {
            const int r = i / (BK / 4), k = (i % (BK / 4)) * 4;
            const float4 a = load4<VEC>(A, row0 + r, k0 + k, M, K);
            As[k][r] = a.x; As[k + 1][r] = a.y; As[k + 2][r] = a.z; As[k + 3][r] = a.w;
        }
#pragma unroll
        for (int i = tid; i < BK * BT / 4; i += NT) {
            const int k = i / (BT / 4), c = (i % (BT / 4)) * 4;
            *reinterpret_cast<float4 *>(&Bs[k][c]) = load4<VEC>(B, k0 + k, col0 + c, K, N);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) multiply_step<BT, T>(As[k], Bs[k], tr, tc, acc);
        __syncthreads();
    }
    store_block<T>(C, acc, row0 + tr * T, col0 + tc * T, M, N);
}

template <int BT, int T>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BT - 1) / BT, (L->M + BT - 1) / BT), block((BT / T) * (BT / T));
    if (rows_16_byte_aligned(L->A, L->B, L->N, L->K))
        return launch_or_describe(L, gpu_vectorized<BT, T, true>, grid, block);
    return launch_or_describe(L, gpu_vectorized<BT, T, false>, grid, block);
}

#endif

RUNG_CONFIGS(gpu_vectorized, BLOCK_TILE_CONFIGS)
