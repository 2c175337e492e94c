/* gputiled -- rung 05.
 *
 * Adds over gpumult1 (04): shared-memory tiling.  A block of TS x TS threads
 * computes a TS x TS tile of C; for each of the ceil(K/TS) steps along K it
 * copies one TS x TS tile of A and one of B into shared memory (each thread
 * one element of each, zero outside the matrices), synchronises, and
 * accumulates TS products from shared memory.  TS in {8, 16, 32}.
 *
 * Expected effect: every element read from global memory is reused TS times
 * from shared memory, so global traffic drops by a factor of TS; shared-memory
 * bandwidth and the two barriers per step become the limit.
 *
 * The inner k loop carries `#pragma unroll 1`: nvcc unrolls a loop of constant
 * trip count TS by itself, which would make this rung the same code as 06.
 * Kept rolled, it pays the loop counter, compare and branch per product that
 * 06 removes. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

template <int TS>
__global__ void gputiled(float *__restrict__ C, const float *__restrict__ A,
                         const float *__restrict__ B, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty;   /* row of A and C */
    const int col = blockIdx.x * TS + tx;   /* column of B and C */

    float csum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll 1
        for (int k = 0; k < TS; k++)
            csum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = csum;
}

template <int TS>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 block(TS, TS);
    const dim3 grid((L->N + TS - 1) / TS, (L->M + TS - 1) / TS);
    return launch_or_describe(L, gputiled<TS>, grid, block);
}

#endif

/* TS = 8, 16, 32: a TS x TS block of threads computes a TS x TS tile of C, one
 * output per thread */
#define CONFIGS(X)                          \
    X(8, 0, 8, 8, 1, 1, 0, (launch<8>))        \
    X(16, 0, 16, 16, 1, 1, 0, (launch<16>))    \
    X(32, 0, 32, 32, 1, 1, 0, (launch<32>))
RUNG_CONFIGS(gputiled, CONFIGS)
