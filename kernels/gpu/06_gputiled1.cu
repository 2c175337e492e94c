/* gputiled1 -- rung 06.
 *
 * Adds over gputiled (05): the inner k loop over the shared tiles is fully
 * unrolled (`#pragma unroll`; TS is a template constant).  Same TS x TS blocks,
 * tiles, zero-filled edges and barriers as 05.
 *
 * Expected effect: the loop counter, compare and branch disappear, and the
 * shared-memory row of A is read with 128-bit LDS (TS/4 loads instead of TS),
 * so nearly every remaining instruction is an LDS of B or an FFMA.
 *
 * The seed also puts `#pragma unroll 3` on the outer loop over tiles.  It is
 * left out, and that loop left to nvcc (which unrolls it by 3 by itself at
 * TS = 8 only): its trip count is known only at run time and each iteration
 * is bounded by two barriers and a global load, so copying its body mostly
 * adds code and a remainder loop; and this rung stays one change away from 05. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

template <int TS>
__global__ void gputiled1(float *__restrict__ C, const float *__restrict__ A,
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
#pragma unroll
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
    return launch_or_describe(L, gputiled1<TS>, grid, block);
}

#endif

/* TS = 8, 16, 32: a TS x TS block of threads computes a TS x TS tile of C, one
 * output per thread */
#define CONFIGS(X)                          \
    X(8, 0, 8, 8, 1, 1, 0, (launch<8>))        \
    X(16, 0, 16, 16, 1, 1, 0, (launch<16>))    \
    X(32, 0, 32, 32, 1, 1, 0, (launch<32>))
RUNG_CONFIGS(gputiled1, CONFIGS)
