/* Shared by the warp-tiled rungs (11 onwards, FP32): each thread holds TM x 8
 * outputs of C as TM/4 x 2 quarters of 4 x 4, 16 rows and 32 columns apart, so
 * that eight neighbouring lanes read 32 contiguous floats of a B row and share
 * one broadcast of A.  A warp owns a 4TM x 64 tile of C.  (And a narrow layout
 * of TM x 4 outputs a thread for tiles of 16 or 32 columns: below.) */
#ifndef KERNELS_GPU_WARP_TILE_CUH
#define KERNELS_GPU_WARP_TILE_CUH

#include <cuda_runtime.h>

/* Row and column, inside a BT-wide block tile, of this thread's first quarter. */
template <int BT, int TM>
__device__ __forceinline__ void quarter_origin(int tid, int &tr, int &tc)
{
    const int warp = tid / 32, lane = tid % 32, wc = BT / 64;   /* warps across a block row */
    tr = (warp / wc) * 4 * TM + (lane / 8) * 4;
    tc = (warp % wc) * 64 + (lane % 8) * 4;
}

/* The thread's TM values of A (row k of the transposed slice) and 8 of B (row k
 * of the B slice), as 16-byte shared loads. */
template <int TM>
__device__ __forceinline__ void load_quarters(const float *As_k, const float *Bs_k, int tr, int tc,
                                              float (&a)[TM], float (&b)[8])
{
#pragma unroll
    for (int q = 0; q < TM / 4; q++)
        *reinterpret_cast<float4 *>(&a[4 * q]) = *reinterpret_cast<const float4 *>(&As_k[tr + 16 * q]);
    *reinterpret_cast<float4 *>(&b[0]) = *reinterpret_cast<const float4 *>(&Bs_k[tc]);
    *reinterpret_cast<float4 *>(&b[4]) = *reinterpret_cast<const float4 *>(&Bs_k[tc + 32]);
}

/* The thread's quarters of C from (row, col) = block origin + (tr, tc), guarded
 * at the edges; 16-byte stores when VEC (C and N allow them). */
template <int TM, bool VEC>
__device__ __forceinline__ void store_quarters(float *__restrict__ C, const float (&acc)[TM][8],
                                               int row, int col, int M, int N)
{
#pragma unroll
    for (int m = 0; m < TM; m++) {
        const int r = row + (m % 4) + (m / 4) * 16;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int c = col + h * 32;
            const float *v = &acc[m][h * 4];
            if (VEC && r < M && c + 3 < N)
                *reinterpret_cast<float4 *>(&C[(size_t)r * N + c]) = make_float4(v[0], v[1], v[2], v[3]);
            else
                for (int j = 0; j < 4; j++)
                    if (r < M && c + j < N) C[(size_t)r * N + c + j] = v[j];
        }
    }
}

/* The narrow warp tile, for block tiles of BN = 16 or 32 columns (outputs of a
 * few columns, where a 64-wide warp tile computes mostly outside C): each
 * thread holds TM x 4 outputs as TM/4 quarters of 4 x 4, 4 LR rows apart; LC =
 * BN / 4 lanes share a row of quarters and LR = 32 / LC lanes stack down, so a
 * warp owns a (LR TM) x BN tile, and the LR rows of quarters a warp reads of A
 * at one k are contiguous (one 128-byte access per quarter). */
template <int BN> __host__ __device__ constexpr int narrow_lanes_down() { return 32 / (BN / 4); }

template <int BN, int TM>
__device__ __forceinline__ void narrow_origin(int tid, int &tr, int &tc)
{
    constexpr int LC = BN / 4, LR = narrow_lanes_down<BN>();
    const int warp = tid / 32, lane = tid % 32;
    tr = warp * LR * TM + (lane / LC) * 4;
    tc = (lane % LC) * 4;
}

template <int BN, int TM>
__device__ __forceinline__ void load_narrow(const float *As_k, const float *Bs_k, int tr, int tc,
                                            float (&a)[TM], float (&b)[4])
{
#pragma unroll
    for (int q = 0; q < TM / 4; q++)
        *reinterpret_cast<float4 *>(&a[4 * q]) =
            *reinterpret_cast<const float4 *>(&As_k[tr + 4 * narrow_lanes_down<BN>() * q]);
    *reinterpret_cast<float4 *>(&b[0]) = *reinterpret_cast<const float4 *>(&Bs_k[tc]);
}

template <int BN, int TM, bool VEC>
__device__ __forceinline__ void store_narrow(float *__restrict__ C, const float (&acc)[TM][4], int row,
                                             int col, int M, int N)
{
#pragma unroll
    for (int m = 0; m < TM; m++) {
        const int r = row + (m % 4) + (m / 4) * 4 * narrow_lanes_down<BN>();
        if (VEC && r < M && col + 3 < N)
            *reinterpret_cast<float4 *>(&C[(size_t)r * N + col]) =
                make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
        else
            for (int j = 0; j < 4; j++)
                if (r < M && col + j < N) C[(size_t)r * N + col + j] = acc[m][j];
    }
}

#endif
