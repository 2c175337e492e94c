/* gputiled_more_work (WPT) -- rung 07.
 *
 * Adds over gputiled1 (06): more work per thread.  A block of TS x RTS threads,
 * RTS = TS / WPT, still computes a TS x TS tile of C, but each thread owns WPT
 * outputs of one column (rows ty + w*RTS).  Both tiles are loaded
 * cooperatively, WPT elements of each per thread, zero outside the matrices.
 * Every loop over w is fully unrolled, so accum[] is indexed by constants only
 * and stays in registers.
 *
 * Expected effect: one value of B from shared memory feeds WPT multiply-adds,
 * so shared loads per FFMA drop from 2 towards 1 + 1/WPT (A is a broadcast),
 * and WPT independent FFMA chains per thread hide latency; the price is WPT
 * times fewer threads per tile and more registers per thread. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

template <int TS, int WPT>
__global__ void gputiled_wpt(float *__restrict__ C, const float *__restrict__ A,
                             const float *__restrict__ B, int M, int N, int K)
{
    constexpr int RTS = TS / WPT;
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TS;       /* first row of the tile in A and C */
    const int col = blockIdx.x * TS + tx;   /* column of B and C */

    float accum[WPT] = {0.0f};
    for (int k0 = 0; k0 < K; k0 += TS) {
#pragma unroll
        for (int w = 0; w < WPT; w++) {
            const int r = ty + w * RTS;     /* row within the tiles */
            As[r][tx] = (row0 + r < M && k0 + tx < K) ? A[(row0 + r) * K + k0 + tx] : 0.0f;
            Bs[r][tx] = (k0 + r < K && col < N) ? B[(k0 + r) * N + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++) {
            const float b = Bs[k][tx];
#pragma unroll
            for (int w = 0; w < WPT; w++)
                accum[w] += As[ty + w * RTS][k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int w = 0; w < WPT; w++) {
        const int row = row0 + ty + w * RTS;
        if (row < M && col < N)
            C[row * N + col] = accum[w];
    }
}

template <int TS, int WPT>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 block(TS, TS / WPT);
    const dim3 grid((L->N + TS - 1) / TS, (L->M + TS - 1) / TS);
    return launch_or_describe(L, gputiled_wpt<TS, WPT>, grid, block);
}

#endif

/* TS = 8, 16, 32 and every WPT = 1 ... 32 that divides TS: a TS x TS tile of C
 * per block, WPT outputs of one column per thread */
#define CONFIGS(X)                                                                     \
    X(8, 1, 8, 8, 1, 1, 0, (launch<8, 1>)) X(8, 2, 8, 8, 2, 1, 0, (launch<8, 2>))            \
    X(8, 4, 8, 8, 4, 1, 0, (launch<8, 4>)) X(8, 8, 8, 8, 8, 1, 0, (launch<8, 8>))            \
    X(16, 1, 16, 16, 1, 1, 0, (launch<16, 1>)) X(16, 2, 16, 16, 2, 1, 0, (launch<16, 2>))    \
    X(16, 4, 16, 16, 4, 1, 0, (launch<16, 4>)) X(16, 8, 16, 16, 8, 1, 0, (launch<16, 8>))    \
    X(16, 16, 16, 16, 16, 1, 0, (launch<16, 16>))                                         \
    X(32, 1, 32, 32, 1, 1, 0, (launch<32, 1>)) X(32, 2, 32, 32, 2, 1, 0, (launch<32, 2>))    \
    X(32, 4, 32, 32, 4, 1, 0, (launch<32, 4>)) X(32, 8, 32, 32, 8, 1, 0, (launch<32, 8>))    \
    X(32, 16, 32, 32, 16, 1, 0, (launch<32, 16>))                                         \
    X(32, 32, 32, 32, 32, 1, 0, (launch<32, 32>))
RUNG_CONFIGS(gputiled_wpt, CONFIGS)
