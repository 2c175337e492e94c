/* gpumult0 -- rung 03, the first GPU rung.
 *
 * Adds over the host rungs: one thread per element of C, so M*N products run
 * in parallel instead of one after another.  It keeps the seed's accumulation
 * in global memory: C[i][j] = 0, then K times C[i][j] += A[i][k] * B[k][j].
 * C is not __restrict__, so the compiler must assume a store to C may change A
 * or B and has to store C back before every next load: SASS shows one STG per
 * k step (the running value itself is forwarded in a register, no reload).
 *
 * Blocks are 32 x 8 threads with grid.x over the columns of C: a warp is 32
 * consecutive columns of one row, so its loads of B and its stores of C are
 * one 128-byte line each and its load of A is a single broadcast address.
 * (16 x 16 would split every warp over two rows: two half lines per access.)
 *
 * Expected effect: far faster than the host rungs, yet bound by K global
 * stores of C per output and by two global loads per multiply-add. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void gpumult0(float *C, const float *A, const float *B, int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;

    C[row * N + col] = 0.0f;
    for (int k = 0; k < K; k++)
        C[row * N + col] += A[row * K + k] * B[k * N + col];
}

static const char *launch(const struct gpu_launch *L)
{
    const dim3 block(BLOCK_X, BLOCK_Y);
    const dim3 grid((L->N + BLOCK_X - 1) / BLOCK_X, (L->M + BLOCK_Y - 1) / BLOCK_Y);
    return launch_or_describe(L, gpumult0, grid, block);
}
#endif

/* one configuration: a block of 32 x 8 threads, one output each (rows x columns
 * of C: 8 x 32) */
#define CONFIGS(X) X(0, 0, 8, 32, 1, 1, 0, launch)
RUNG_CONFIGS(gpumult0, CONFIGS)
