/* Rung 18, past the seeds: outputs of a few rows or a few columns (GEMV-like).
 *
 * Adds over rungs 15 and 17: when C has at most 8 rows (a decode step of a few
 * tokens) the work is one pass over B, K x N, and 2 M flops per 4 bytes read:
 * at M = 1 a quarter of a flop per byte, a hundredth of what the GPU needs to be
 * bound by arithmetic.  A block tile of 32 or 16 rows computes 4-32 times the
 * useful work and stages B through shared memory for reuse that is not there.
 * Here nothing but the few rows of A go through shared memory: each thread
 * streams 4 columns of B straight from global memory (16-byte loads, eight rows
 * of B in flight a thread) and keeps M x 4 sums.  Outputs of a few columns (C
 * = A x B with N <= 8, as the weight on the left computes a decode step) are
 * the mirror image: one pass over A, M x K; a warp takes four rows of A, its
 * lanes along K (16-byte loads), B's few columns staged in shared memory once
 * a chunk for the block's eight warps, and the lanes' partial sums added by
 * shuffles at the end.  Short outputs give too few blocks to keep the memory
 * system busy, so K is split (split_k.cuh: partials added in a fixed order,
 * the same bits on every run) until the GPU's resident blocks are filled.
 *
 * Configurations (tile / wpt name the block tile's long and short side):
 *   256/8  "few rows": 8 rows x 256 columns a block (64 threads x 4 columns);
 *          M <= 8 takes the fewest rows of 1, 2, 4, 8 that hold it; more rows
 *          are groups of 8 (gridDim.z), correct but not what it is for.
 *   32/8   "few columns": 32 rows x 8 columns a block (8 warps x 4 rows);
 *          N <= 8 as above; more columns are groups of 8.
 * Floor and prediction (H100, copies measured at ~3.0 TB/s): M = 1, K = N =
 * 16384 reads B (1.07 GB) once: 0.36 ms at 3.0 TB/s; predicted 85-90% of that
 * bandwidth (the partials and the second pass add 2S/K of the bytes), at or
 * above cuBLAS, which runs a GEMV of its own there.  At a few MB the launch and
 * the second pass (3-5 us) dominate, and cuBLAS's single launch will win. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"
#include "split_k.cuh"

constexpr int ROWS_KC = 256, ROWS_THREADS = 64;      /* few rows: K chunk, threads */
constexpr int COLS_KC = 512, COLS_WARPS = 8, COLS_WR = 4;   /* few columns */
constexpr int PART = 32;   /* K is split at multiples of 32 (split_k.cuh's slices) */

/* C's rows blockIdx.z R .. + R (R >= M here, or a group of 8), columns of this
 * thread 4 t .. 4 t + 3, over part blockIdx.y of S of K: one pass over B. */
template <int R, bool VEC>
__global__ void __launch_bounds__(ROWS_THREADS)
gemv_rows(float *__restrict__ P, const float *__restrict__ A, const float *__restrict__ B, int M,
          int N, int K, int S)
{
    __shared__ __align__(16) float As[R][ROWS_KC];
    const int n0 = (blockIdx.x * ROWS_THREADS + threadIdx.x) * 4, m0 = blockIdx.z * R;
    const int slices = (K + PART - 1) / PART;
    const int k0 = split_begin(blockIdx.y, S, slices) * PART;
    const int k1 = min(K, split_begin(blockIdx.y + 1, S, slices) * PART);
    const bool full = VEC && n0 + 3 < N;
    float acc[R][4] = {};
    for (int kc = k0; kc < k1; kc += ROWS_KC) {
        const int kn = min(ROWS_KC, k1 - kc);
        __syncthreads();
        for (int i = threadIdx.x; i < R * kn; i += ROWS_THREADS) {   /* the chunk's columns only */
            const int r = i / kn, k = i % kn;
            As[r][k] = m0 + r < M ? A[(size_t)(m0 + r) * K + kc + k] : 0.0f;
        }
        __syncthreads();
        if (n0 >= N) continue;
#pragma unroll 8
        for (int k = 0; k < kn; k++) {
            const float *b = B + (size_t)(kc + k) * N + n0;
            float4 v;
            if (full) v = __ldcs(reinterpret_cast<const float4 *>(b));
            else v = make_float4(b[0], n0 + 1 < N ? b[1] : 0.f, n0 + 2 < N ? b[2] : 0.f,
                                 n0 + 3 < N ? b[3] : 0.f);
#pragma unroll
            for (int r = 0; r < R; r++) {
                const float a = As[r][k];
                acc[r][0] += a * v.x, acc[r][1] += a * v.y;
                acc[r][2] += a * v.z, acc[r][3] += a * v.w;
            }
        }
    }
    float *out = P + (size_t)blockIdx.y * M * N;
#pragma unroll
    for (int r = 0; r < R; r++)
        if (m0 + r < M)
            for (int j = 0; j < 4 && n0 + j < N; j++) out[(size_t)(m0 + r) * N + n0 + j] = acc[r][j];
}

/* C's columns blockIdx.z R .. + R, rows of this warp 4 w .. 4 w + 3, over part
 * blockIdx.y of S of K: one pass over A, lane l taking K's 4 l .. 4 l + 3 of
 * each 128. */
template <int R, bool VEC>
__global__ void __launch_bounds__(COLS_WARPS * 32)
gemv_cols(float *__restrict__ P, const float *__restrict__ A, const float *__restrict__ B, int M,
          int N, int K, int S)
{
    __shared__ __align__(16) float Bs[R][COLS_KC + 4];   /* + 4: stores free of bank conflicts */
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, n0 = blockIdx.z * R;
    const int m0 = (blockIdx.x * COLS_WARPS + warp) * COLS_WR;
    const int slices = (K + PART - 1) / PART;
    const int k0 = split_begin(blockIdx.y, S, slices) * PART;
    const int k1 = min(K, split_begin(blockIdx.y + 1, S, slices) * PART);
    float acc[COLS_WR][R] = {};
    for (int kc = k0; kc < k1; kc += COLS_KC) {
        const int kn = min(COLS_KC, k1 - kc);
        __syncthreads();
        for (int i = threadIdx.x; i < R * COLS_KC; i += COLS_WARPS * 32) {
            const int k = i / R, c = i % R;   /* B's rows are contiguous: read along them */
            Bs[c][k] = (n0 + c < N && k < kn) ? B[(size_t)(kc + k) * N + n0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = lane * 4; k < kn; k += 128) {
            float4 b[R];
#pragma unroll
            for (int c = 0; c < R; c++) b[c] = *reinterpret_cast<const float4 *>(&Bs[c][k]);
#pragma unroll
            for (int r = 0; r < COLS_WR; r++) {
                const int m = m0 + r;
                if (m >= M) break;
                const float *a = A + (size_t)m * K + kc + k;
                float4 v;
                if (VEC && k + 3 < kn) v = __ldcs(reinterpret_cast<const float4 *>(a));
                else v = make_float4(a[0], k + 1 < kn ? a[1] : 0.f, k + 2 < kn ? a[2] : 0.f,
                                     k + 3 < kn ? a[3] : 0.f);
#pragma unroll
                for (int c = 0; c < R; c++)
                    acc[r][c] += v.x * b[c].x + v.y * b[c].y + v.z * b[c].z + v.w * b[c].w;
            }
        }
    }
    float *out = P + (size_t)blockIdx.y * M * N;
#pragma unroll
    for (int r = 0; r < COLS_WR; r++)
#pragma unroll
        for (int c = 0; c < R; c++) {
            float s = acc[r][c];
            for (int d = 16; d > 0; d /= 2) s += __shfl_xor_sync(0xffffffffu, s, d);
            if (lane == 0 && m0 + r < M && n0 + c < N) out[(size_t)(m0 + r) * N + n0 + c] = s;
        }
}

/* Launch (or describe) kernel over `grid` (x, 1, z) with K split by the rule of
 * split_k.cuh (parts of at least `floor` slices), then the second pass. */
template <typename Kernel>
static const char *run(const struct gpu_launch *L, Kernel kernel, int threads, unsigned gx,
                       unsigned gz, int floor)
{
    int sms = 0;
    long long resident = 0;
    const char *why = resident_blocks(kernel, threads, 0, &sms, &resident);
    if (why) return why;
    const int S = split_parts(L->split, (long long)gx * gz, resident, (L->K + PART - 1) / PART,
                              floor, L->M, L->N, &why);
    if (!S) return why;
    return split_k_launch(L, kernel, dim3(gx, S, gz), threads, 0, S, sms);
}

/* The fewest of 1, 2, 4, 8 that hold d (8 for more: groups of 8). */
static int group_of(int d) { return d <= 1 ? 1 : d <= 2 ? 2 : d <= 4 ? 4 : 8; }

template <int R>
static const char *rows_at(const struct gpu_launch *L)
{
    const bool vec = L->N % 4 == 0 && (size_t)L->B % 16 == 0;
    const unsigned gx = (unsigned)((L->N + 4 * ROWS_THREADS - 1) / (4 * ROWS_THREADS));
    const unsigned gz = (unsigned)((L->M + R - 1) / R);
    /* parts of one slice (32 rows of B) or more: a short B needs its K split
     * finely to put enough loads in flight (with parts of at least 4 slices
     * and 512 columns a block, 1 x 4096 x 512 ran as 32 blocks, at 9% of
     * cuBLAS FP32) */
    return vec ? run(L, gemv_rows<R, true>, ROWS_THREADS, gx, gz, 1)
               : run(L, gemv_rows<R, false>, ROWS_THREADS, gx, gz, 1);
}

template <int R>
static const char *cols_at(const struct gpu_launch *L)
{
    const bool vec = L->K % 4 == 0 && (size_t)L->A % 16 == 0;
    const unsigned gx = (unsigned)((L->M + COLS_WARPS * COLS_WR - 1) / (COLS_WARPS * COLS_WR));
    const unsigned gz = (unsigned)((L->N + R - 1) / R);
    /* parts of at least 8 slices (256 of K): two steps of a warp before its shuffles */
    return vec ? run(L, gemv_cols<R, true>, COLS_WARPS * 32, gx, gz, 8)
               : run(L, gemv_cols<R, false>, COLS_WARPS * 32, gx, gz, 8);
}

static const char *few_rows(const struct gpu_launch *L)
{
    switch (group_of(L->M)) {
    case 1: return rows_at<1>(L);
    case 2: return rows_at<2>(L);
    case 4: return rows_at<4>(L);
    default: return rows_at<8>(L);
    }
}

static const char *few_cols(const struct gpu_launch *L)
{
    switch (group_of(L->N)) {
    case 1: return cols_at<1>(L);
    case 2: return cols_at<2>(L);
    case 4: return cols_at<4>(L);
    default: return cols_at<8>(L);
    }
}
#endif

/* 256/8: 8 x 256 block tile, 8 x 4 outputs a thread (at most; fewer rows when M
 * is smaller), A's rows in shared memory; for C of at most 8 rows.  32/8: 32 x
 * 8, B's columns there; for C of at most 8 columns.  (Static shared memory: 8
 * and 16 KiB.) */
#define CONFIGS(X)                                   \
    X(256, 8, 8, 256, 8, 4, 0, 8, 0, 0, few_rows)    \
    X(32, 8, 32, 8, 4, 8, 0, 0, 8, 0, few_cols)
RUNG_CONFIGS_SPLIT_FOR(gpu_gemv, CONFIGS)
