/* gpumult1 -- rung 04.
 *
 * Adds over gpumult0 (03): the running sum lives in a register (`csum`) and C
 * is written once at the end.  Everything else is kept as in 03 -- the same
 * pointer qualifiers, the same 32 x 8 blocks with grid.x over columns -- so
 * that register accumulation is the only change between the two rungs.
 *
 * Expected effect: register accumulation removes the K global stores of C per
 * output (and the ordering each store imposes on the loads after it), leaving
 * two global loads per multiply-add, mostly served by L1/L2. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void gpumult1(float *C, const float *A, const float *B, int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;

    float csum = 0.0f;
    for (int k = 0; k < K; k++)
        csum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = csum;
}

static const char *launch(const struct gpu_launch *L)
{
    const dim3 block(BLOCK_X, BLOCK_Y);
    const dim3 grid((L->N + BLOCK_X - 1) / BLOCK_X, (L->M + BLOCK_Y - 1) / BLOCK_Y);
    return launch_or_describe(L, gpumult1, grid, block);
}
#endif

/* one configuration: a block of 32 x 8 threads, one output each (rows x columns
 * of C: 8 x 32) */
#define CONFIGS(X) X(0, 0, 8, 32, 1, 1, 0, launch)
RUNG_CONFIGS(gpumult1, CONFIGS)
