/* Shared by the block-tiled rungs (08 onwards): each block computes a BT x BT
 * tile of C, each thread a T x T block of it in registers, T = sqrt(WPT). */
#ifndef KERNELS_GPU_BLOCK_TILE_CUH
#define KERNELS_GPU_BLOCK_TILE_CUH

#ifdef __CUDACC__
#include <cuda_runtime.h>

/* One k step of a slice in shared memory (As transposed: As[k][row]): T values
 * of A and T of B into registers as 16-byte reads, then T*T FMAs. */
template <int BT, int T>
__device__ __forceinline__ void multiply_step(const float (&As)[BT], const float (&Bs)[BT], int tr,
                                              int tc, float (&acc)[T][T])
{
    float a[T], b[T];
#pragma unroll
    for (int m = 0; m < T; m += 4)
        *reinterpret_cast<float4 *>(&a[m]) = *reinterpret_cast<const float4 *>(&As[tr * T + m]);
#pragma unroll
    for (int n = 0; n < T; n += 4)
        *reinterpret_cast<float4 *>(&b[n]) = *reinterpret_cast<const float4 *>(&Bs[tc * T + n]);
#pragma unroll
    for (int m = 0; m < T; m++)
#pragma unroll
        for (int n = 0; n < T; n++) acc[m][n] += a[m] * b[n];
}

/* The thread's T x T block of C from (row, col), guarded at the edges. */
template <int T>
__device__ __forceinline__ void store_block(float *__restrict__ C, const float (&acc)[T][T],
                                            int row, int col, int M, int N)
{
#pragma unroll
    for (int m = 0; m < T; m++)
#pragma unroll
        for (int n = 0; n < T; n++)
            if (row + m < M && col + n < N) C[(size_t)(row + m) * N + col + n] = acc[m][n];
}

#endif /* __CUDACC__ */

/* The configurations these rungs are built for (rung_config.h): block tile BT
 * x BT of 64 or 128, WPT 16 or 64 = a 4 x 4 or 8 x 8 block of C per thread;
 * `launch` is each file's template <int BT, int T> launcher. */
#define BLOCK_TILE_CONFIGS(X)                          \
    X(64, 16, 64, 64, 4, 4, 0, (launch<64, 4>))           \
    X(64, 64, 64, 64, 8, 8, 0, (launch<64, 8>))           \
    X(128, 16, 128, 128, 4, 4, 0, (launch<128, 4>))       \
    X(128, 64, 128, 128, 8, 8, 0, (launch<128, 8>))

#endif
