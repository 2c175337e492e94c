/* Rung 08, past the seeds: 2D register blocking.
 *
 * Adds over rung 07: each thread owns a T x T block of C (T = sqrt(WPT)), not a
 * column strip, and a block computes a BT x BT tile of C (BT = the `tile` axis,
 * 64 or 128) from BK = 8 deep slices of A and B.  Per k step a thread loads T
 * values of A and T of B from shared memory into registers and does T*T FMAs
 * from them: 2T shared loads feed T^2 FMAs (rung 07: WPT + 1 loads for WPT
 * FMAs).  A is stored transposed (As[k][row]) so that the T values of A a
 * thread needs are contiguous, like those of B.
 *
 * Expected effect: shared-memory traffic per FMA falls from about 1 to 2/T
 * (1/4 at T = 8), which was rung 07's limit; at 8192 we expect roughly 1.5x
 * rung 07.  Global loads are still scalar (rung 09 widens them).
 * Every load is guarded (zero outside the matrices) and every store, so any
 * M, N, K >= 1 is correct. */
#include "rung_config.h"
#include "block_tile.cuh"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

template <int BT, int T>
__global__ void __launch_bounds__((BT / T) * (BT / T))
gpu_regblock(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
             int M, int N, int K)
{
    constexpr int BK = 8, NT = (BT / T) * (BT / T);
    __shared__ float As[BK][BT];   /* transposed: As[k][row] */
    __shared__ float Bs[BK][BT];
    const int tid = threadIdx.x;
    const int tr = tid / (BT / T), tc = tid % (BT / T);   /* this thread's T x T block */
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;

    float acc[T][T] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int i = tid; i < BT * BK; i += NT) {   /* consecutive threads: along a row of A */
            const int r = i / BK, k = i % BK;
            As[k][r] = (row0 + r < M && k0 + k < K) ? A[(size_t)(row0 + r) * K + k0 + k] : 0.0f;
        }
#pragma unroll
        for (int i = tid; i < BK * BT; i += NT) {   /* consecutive threads: along a row of B */
            const int k = i / BT, c = i % BT;
            Bs[k][c] = (k0 + k < K && col0 + c < N) ? B[(size_t)(k0 + k) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[T], b[T];
#pragma unroll
            for (int m = 0; m < T; m++) a[m] = As[k][tr * T + m];
#pragma unroll
            for (int n = 0; n < T; n++) b[n] = Bs[k][tc * T + n];
#pragma unroll
            for (int m = 0; m < T; m++)
#pragma unroll
                for (int n = 0; n < T; n++) acc[m][n] += a[m] * b[n];
        }
        __syncthreads();
    }
    store_block<T>(C, acc, row0 + tr * T, col0 + tc * T, M, N);
}

template <int BT, int T>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BT - 1) / BT, (L->M + BT - 1) / BT), block((BT / T) * (BT / T));
    return launch_or_describe(L, gpu_regblock<BT, T>, grid, block);
}

#endif

RUNG_CONFIGS(gpu_regblock, BLOCK_TILE_CONFIGS)
