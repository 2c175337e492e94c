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

#define CASE(ts, wpt) case ts * 64 + wpt: return launch<ts, wpt>(L);

extern "C" const char *gputiled_wpt_launch(const struct gpu_launch *L)
{
    switch (L->wpt >= 1 && L->wpt <= 32 ? L->tile * 64 + L->wpt : 0) {
    CASE(8, 1) CASE(8, 2) CASE(8, 4) CASE(8, 8)
    CASE(16, 1) CASE(16, 2) CASE(16, 4) CASE(16, 8) CASE(16, 16)
    CASE(32, 1) CASE(32, 2) CASE(32, 4) CASE(32, 8) CASE(32, 16) CASE(32, 32)
    default: return "unsupported TS/WPT combination";
    }
}
