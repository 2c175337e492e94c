/* Rung 13, past the seeds: TF32 tensor cores (mma.sync).
 *
 * Adds over rung 12 (FP32 FMAs fed by a cp.async multistage pipeline): the
 * products move onto the tensor cores.  Each warp issues
 * mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32 (16x8x8 multiply-adds in one
 * instruction) on operands rounded to TF32 (10-bit mantissa, about 1e-3
 * relative error), accumulating in FP32.  A different precision: compare it
 * with cuBLAS TF32, never with the FP32 line.
 *
 * Design.  A block computes a 128 x 128 tile of C; slices of BK = 32 arrive by
 * 16-byte cp.async.cg (zero-filled past the edges; 4-byte copies when rows are
 * not 16-byte aligned) in a 3-stage pipeline, 35 KiB a stage, 105 KiB of
 * dynamic shared memory, 2 blocks per SM, one barrier per slice.  A sits
 * k-contiguous with rows padded to 36 floats, so ldmatrix.x4 (8 rows x 16 B,
 * i.e. 8 rows x 4 floats per matrix) hands out a whole 16x8 A fragment free of
 * bank conflicts; B sits n-contiguous, rows padded to 136 floats, and each B
 * value comes by a conflict-free LDS.32 straight into the register pair the
 * mma wants (an LDS.128 of four n costs a move per pair and more).  Each
 * fragment value is rounded with cvt.rna.tf32.f32 (nearest, ties away: a
 * compare and a predicated add on sm_90; cvt.rn would be one F2FP, but
 * conversions have low throughput on Hopper).  WPT 64: 8 warps (256 threads)
 * of 64 x 32; WPT 128: 4 warps (128 threads) of 64 x 64.
 *
 * Expected effect: the H100's TF32 tensor cores peak at 1024 FMA/clk/SM, 535
 * TFLOP/s dense at the 1.98 GHz of the FP32 floor (66.9 TFLOP/s): 8x.  Per
 * HMMA (16x8x8) the main loop issues 5.1 instructions at WPT 128 (6.4 at WPT
 * 64: 1.5x the conversions per HMMA, and 96 KiB of fragment loads per 512K
 * FMA, i.e. shared memory caps it at 67% of peak), so issue alone would allow
 * ~75%; mma.sync's own rate on Hopper (wgmma, rung 14, gets the rest) and the
 * barrier per slice bring us to an expected 40% of peak: ~210 TFLOP/s at
 * 4096^3 for WPT 128 (~180 for WPT 64), 55% of cuBLAS TF32, ~5x rung 12. */
#include "rung_config.h"

/* Dynamic shared memory: three stages of a 128 x 32 slice of A (rows padded to
 * 36) and a 32 x 128 slice of B (rows padded to 136), floats. */
#define MMA_SMEM (3 * (128 * 36 + 32 * 136) * 4)

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "load4.cuh"
#include "launch.cuh"
#include "matmul.h"

constexpr int BT = 128, BK = 32, STAGES = 3;
constexpr int AS = BK + 4, BS = BT + 8;               /* padded row lengths, floats */
constexpr int STAGE = BT * AS + BK * BS;              /* floats per stage: A then B */
constexpr size_t SMEM = STAGES * STAGE * sizeof(float);
static_assert(SMEM == MMA_SMEM, "MMA_SMEM above is the kernel's shared memory");

__device__ __forceinline__ unsigned sptr(const float *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* Four floats from global src into shared dst, zeros past the edges: row_in
 * says the row exists, `left` how many columns remain from src's.  One 16-byte
 * copy when VEC (left is then a multiple of 4), else four 4-byte ones.  A copy
 * of 0 bytes reads nothing, but still names a valid address: the base P. */
template <bool VEC>
__device__ __forceinline__ void copy4(float *dst, const float *src, const float *P, bool row_in, int left)
{
#pragma unroll
    for (int q = 0; q < (VEC ? 1 : 4); q++) {
        const bool in = row_in && q < left;
        const unsigned d = sptr(dst + q);
        const size_t from = __cvta_generic_to_global(in ? src + q : P);
        if (VEC)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(from), "r"(in ? 16 : 0) : "memory");
        else
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(from), "r"(in ? 4 : 0) : "memory");
    }
}

__device__ __forceinline__ unsigned tf32(unsigned x)
{
    unsigned y;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(y) : "r"(x));
    return y;
}

template <int WM, int WN, bool VEC>
__global__ void __launch_bounds__(32 * (BT / WM) * (BT / WN), 2)
tf32_mma_sync(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
              int M, int N, int K)
{
    constexpr int NT = 32 * (BT / WM) * (BT / WN), MI = WM / 16, NJ = WN / 8;
    extern __shared__ __align__(16) float smem[];
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, g = lane / 4, t = lane % 4;
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    const int wm = warp / (BT / WN) * WM, wn = warp % (BT / WN) * WN;
    const int KT = (K + BK - 1) / BK;
    /* This thread's copies: rows ar + j AR of A's slice at its column ac, rows
     * br + j BR of B's slice at column bc. */
    constexpr int J = BT * BK / 4 / NT, AR = NT / (BK / 4), BR = NT / (BT / 4);
    const int ar = tid / (BK / 4), ac = tid % (BK / 4) * 4, br = tid / (BT / 4), bc = tid % (BT / 4) * 4;
    const float *Ag = A + (size_t)(row0 + ar) * K + ac, *Bg = B + (size_t)br * N + col0 + bc;

    auto load_slice = [&](int kt, int s) {   /* slice kt of A and B -> stage s */
        float *As = smem + s * STAGE + ar * AS + ac, *Bs = smem + s * STAGE + BT * AS + br * BS + bc;
        const int k0 = kt * BK;
#pragma unroll
        for (int j = 0; j < J; j++) {
            copy4<VEC>(As + j * AR * AS, Ag + (size_t)j * AR * K + k0, A, row0 + ar + j * AR < M, K - k0 - ac);
            copy4<VEC>(Bs + j * BR * BS, Bg + (size_t)(k0 + j * BR) * N, B, k0 + br + j * BR < K, N - col0 - bc);
        }
    };

    float acc[MI][NJ][4] = {};
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < KT) load_slice(s, s);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    }
    for (int kt = 0, rs = 0, ws = STAGES - 1; kt < KT; kt++) {   /* stages read and written */
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2) : "memory");
        __syncthreads();   /* slice kt is in; everyone is done with stage ws (slice kt - 1) */
        if (kt + STAGES - 1 < KT) load_slice(kt + STAGES - 1, ws);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
        const float *As = smem + rs * STAGE, *Bs = As + BT * AS;
        rs = rs == STAGES - 1 ? 0 : rs + 1;
        ws = ws == STAGES - 1 ? 0 : ws + 1;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            unsigned a[MI][4], b[NJ][2];
#pragma unroll
            for (int i = 0; i < MI; i++) {   /* matrices: rows 0-7 / 8-15, k 0-3 / 4-7 */
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                             : "r"(sptr(As + (wm + i * 16 + lane % 16) * AS + kk + lane / 16 * 4)));
#pragma unroll
                for (int r = 0; r < 4; r++) a[i][r] = tf32(a[i][r]);
            }
#pragma unroll
            for (int j = 0; j < NJ; j++)   /* b0: k = t, b1: k = t + 4; n = g */
#pragma unroll
                for (int h = 0; h < 2; h++)
                    b[j][h] = tf32(__float_as_uint(Bs[(kk + t + 4 * h) * BS + wn + j * 8 + g]));
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++)
                    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                        "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                        : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                        : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
        }
    }

    /* c0, c1: row g, columns 2t and 2t + 1 of tile j; c2, c3: row g + 8. */
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = row0 + wm + i * 16 + g + 8 * h, c = col0 + wn + j * 8 + 2 * t;
                const float x = acc[i][j][2 * h], y = acc[i][j][2 * h + 1];
                if (r >= M) continue;
                if (VEC && c + 1 < N)
                    *reinterpret_cast<float2 *>(C + (size_t)r * N + c) = make_float2(x, y);
                else {
                    if (c < N) C[(size_t)r * N + c] = x;
                    if (c + 1 < N) C[(size_t)r * N + c + 1] = y;
                }
            }
}

template <int WM, int WN>
static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + BT - 1) / BT, (L->M + BT - 1) / BT), block(32 * (BT / WM) * (BT / WN));
    if (rows_16_byte_aligned(L->A, L->B, L->N, L->K) && (size_t)L->C % 16 == 0)
        return launch_or_describe(L, tf32_mma_sync<WM, WN, true>, grid, block, SMEM);
    return launch_or_describe(L, tf32_mma_sync<WM, WN, false>, grid, block, SMEM);
}

#endif

/* a 128 x 128 tile of C per block; WPT 64: warps of 64 x 32, WPT 128: of 64 x 64.
 * A thread holds (rows r, r + 8) x (columns 2c, 2c + 1) of each 16 x 8 MMA
 * tile: WM / 8 rows x WN / 4 columns. */
#define CONFIGS(X)                                     \
    X(128, 64, 128, 128, 8, 8, MMA_SMEM, (launch<64, 32>))       \
    X(128, 128, 128, 128, 8, 16, MMA_SMEM, (launch<64, 64>))
RUNG_CONFIGS(tf32_mma_sync, CONFIGS)
