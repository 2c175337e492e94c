/* Shared by the rungs that load 16 bytes at a time (09 onwards). */
#ifndef KERNELS_GPU_LOAD4_CUH
#define KERNELS_GPU_LOAD4_CUH

#include <cuda_runtime.h>

/* Four consecutive floats of row `r` from column `c` of an R x W row-major
 * matrix, zero outside it; one 16-byte load when VEC (rows 16-byte aligned) and
 * all four are in bounds, else four guarded scalar loads. */
template <bool VEC>
__device__ __forceinline__ float4 load4(const float *__restrict__ P, int r, int c, int R, int W)
{
    if (VEC && r < R && c + 3 < W) return *reinterpret_cast<const float4 *>(P + (size_t)r * W + c);
    float v[4];
#pragma unroll
    for (int j = 0; j < 4; j++) v[j] = (r < R && c + j < W) ? P[(size_t)r * W + c + j] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

/* May float4 loads be used for A (M x K) and B (K x N)? */
static inline bool rows_16_byte_aligned(const float *A, const float *B, int N, int K)
{
    return K % 4 == 0 && N % 4 == 0 && ((size_t)A | (size_t)B) % 16 == 0;
}

#endif
