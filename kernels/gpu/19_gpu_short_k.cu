/* Rung 19, past the seeds: a short K (rank-k updates, LoRA, the log-uniform
 * corpus's K <= 64), where the work is writing C.
 *
 * Adds over rungs 12 and 15: their pipeline computes 32-deep slices, so at K = 2
 * a block does 16 times the multiply-adds it needs, behind a prologue of three
 * stages; and their quarter layout stores C one float per lane four columns
 * apart where rows are not 16-byte aligned (N % 4 or K % 4), so a warp's
 * store touches a line four times.  At K <= 16 the floor is writing C once
 * (4 bytes an output against 2K flops): 14012 x 15884 x 2 is 890 MB, 0.30 ms
 * at 3 TB/s, where they took 1.0 ms and cuBLAS 0.53.  Here a block stages the
 * whole of K (up to 64; longer K in chunks of 64, correct but not what it is
 * for) of its 64 rows of A and 128 columns of B in shared memory, once, with
 * no pipeline, and each thread keeps 8 rows x 4 columns, lanes on consecutive
 * columns (32 apart within a thread): every store of a warp is 32 consecutive
 * floats of one row, a whole 128-byte line, whatever N is.  Several blocks an
 * SM (48 KiB each) overlap one block's stores with another's loads.
 * Prediction (H100): at K <= 16 C written at 2.3-2.8 TB/s, 1.3-1.6x cuBLAS
 * FP32 at 14012 x 15884 x 2; at K = 64 (2K = 128 flops an output, the FMA
 * units' share) near rung 12's rate; the small shapes launch-bound, as every
 * rung is. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"

constexpr int SK_BM = 64, SK_BN = 128, SK_KC = 64, SK_THREADS = 256;

/* Block (x, y): C's rows 64 y .., columns 128 x ..; thread: rows 8 w .. 8 w + 7
 * of warp w, columns lane + 32 j, j < 4. */
__global__ void __launch_bounds__(SK_THREADS)
gpu_short_k(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int M,
            int N, int K)
{
    __shared__ __align__(16) float As[SK_BM][SK_KC];   /* [row][k]: read 4 k at a time */
    __shared__ __align__(16) float Bs[SK_KC][SK_BN];   /* [k][column] */
    const int lane = threadIdx.x % 32, r0 = threadIdx.x / 32 * 8;
    const int row0 = blockIdx.y * SK_BM, col0 = blockIdx.x * SK_BN;
    float acc[8][4] = {};
    for (int kc = 0; kc < K; kc += SK_KC) {
        const int kn = min(SK_KC, K - kc), k4 = (kn + 3) & ~3;   /* zeros up to k4 */
        __syncthreads();
        for (int i = threadIdx.x; i < SK_BM * k4; i += SK_THREADS) {   /* along A's rows */
            const int r = i / k4, k = i % k4;
            As[r][k] = row0 + r < M && k < kn ? A[(size_t)(row0 + r) * K + kc + k] : 0.0f;
        }
        for (int i = threadIdx.x; i < k4 * SK_BN; i += SK_THREADS) {   /* along B's rows */
            const int k = i / SK_BN, c = i % SK_BN;
            Bs[k][c] = col0 + c < N && k < kn ? B[(size_t)(kc + k) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < k4; k += 4) {
            float4 a[8];
#pragma unroll
            for (int i = 0; i < 8; i++) a[i] = *reinterpret_cast<const float4 *>(&As[r0 + i][k]);
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                float b[4];
#pragma unroll
                for (int j = 0; j < 4; j++) b[j] = Bs[k + kk][lane + 32 * j];
#pragma unroll
                for (int i = 0; i < 8; i++) {
                    const float ai = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
#pragma unroll
                    for (int j = 0; j < 4; j++) acc[i][j] += ai * b[j];
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int r = row0 + r0 + i;
        if (r >= M) break;
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int c = col0 + lane + 32 * j;
            if (c < N) __stcs(C + (size_t)r * N + c, acc[i][j]);   /* streamed: not read again */
        }
    }
}

static const char *launch(const struct gpu_launch *L)
{
    const dim3 grid((L->N + SK_BN - 1) / SK_BN, (L->M + SK_BM - 1) / SK_BM);
    if (grid.y > 65535) return "short K: more than 65535 blocks of 64 rows (M too large)";
    return launch_or_describe(L, gpu_short_k, grid, dim3(SK_THREADS));
}
#endif

/* one configuration: a 64 x 128 block tile, 8 x 4 outputs a thread (static shared
 * memory: 48 KiB); for K of at most 64 */
#define CONFIGS(X) X(64, 0, 64, 128, 8, 4, 0, 0, 0, 64, launch)
RUNG_CONFIGS_FOR(gpu_short_k, CONFIGS)
