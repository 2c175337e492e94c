/* Test-only GPU kernels that are wrong on purpose.  They are never part of
 * bin/mmladder: the registry lists them only when built with MM_TEST_RUNGS (for
 * build/tests/mmladder-faulty and build/tests/sanitize-one), so that the tests
 * can show that verification calls every point of theirs incorrect and that
 * compute-sanitizer's racecheck catches the race.
 *
 *   test_racy_tiled  seed 002's exercise: rung 05's tiled kernel with both
 *                    __syncthreads() removed (it may still compute the right
 *                    numbers: a race is a hazard, not a certain wrong result)
 *   test_one_off     the right product, except one element off by 0.01
 *   test_nan         the right product, except one element NaN
 *   test_unwritten   the right product, except that the last row of C is
 *                    never written
 *   test_stale_counter  K in two halves, each a block, whose tile the second
 *                    block to count itself in on the tile's counter sums and
 *                    stores: right on a fresh workspace, but the counter is
 *                    never reset, so every later launch stores nothing (the
 *                    bug planted in rung 16 for issue 29's check: caught only
 *                    when C is poisoned before a launch from the workspace as
 *                    the earlier launches left it) */
#include <cuda_runtime.h>

#include "gpu/launch.cuh"
#include "rung_config.h"
#include "matmul.h"

template <int TS>
__global__ void racy_tiled(float *__restrict__ C, const float *__restrict__ A,
                           const float *__restrict__ B, int M, int N, int K)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
    float csum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
        /* missing: __syncthreads() */
        for (int k = 0; k < TS; k++) csum += As[ty][k] * Bs[k][tx];
        /* missing: __syncthreads() */
    }
    if (row < M && col < N) C[row * N + col] = csum;
}

enum fault { ONE_OFF, NAN_ONE, UNWRITTEN };

/* One thread per output, as rung 04, then the fault. */
template <enum fault F>
__global__ void faulty(float *__restrict__ C, const float *__restrict__ A,
                       const float *__restrict__ B, int M, int N, int K)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    if (F == UNWRITTEN && row == M - 1) return;
    float c = 0.0f;
    for (int k = 0; k < K; k++) c += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    if (row == M / 2 && col == N / 2) {
        if (F == ONE_OFF) c += 0.01f;
        if (F == NAN_ONE) c = __int_as_float(0x7fc00000);
    }
    C[(size_t)row * N + col] = c;
}

/* One 16 x 16 tile of C per (x, y), half of K per z; parts[2 tiles][256] then
 * one counter per tile in the workspace. */
__global__ void stale_counter(float *__restrict__ C, const float *__restrict__ A,
                              const float *__restrict__ B, int M, int N, int K, float *parts,
                              int *count)
{
    __shared__ int last;
    const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    const int tile = blockIdx.y * gridDim.x + blockIdx.x, t = threadIdx.y * 16 + threadIdx.x;
    const int k0 = blockIdx.z * (K / 2), k1 = blockIdx.z ? K : K / 2;
    float c = 0.0f;
    if (row < M && col < N)
        for (int k = k0; k < k1; k++) c += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    parts[((size_t)tile * 2 + blockIdx.z) * 256 + t] = c;
    __threadfence();
    __syncthreads();
    if (t == 0) last = atomicAdd(&count[tile], 1) == 1;   /* planted: never reset to 0 */
    __syncthreads();
    if (!last || row >= M || col >= N) return;
    __threadfence();
    C[(size_t)row * N + col] = __ldcg(&parts[(size_t)tile * 2 * 256 + t]) +
                               __ldcg(&parts[((size_t)tile * 2 + 1) * 256 + t]);
}

static const char *stale(const struct gpu_launch *L)
{
    const dim3 block(16, 16), grid((L->N + 15) / 16, (L->M + 15) / 16, 2);
    const size_t tiles = (size_t)grid.x * grid.y, parts = tiles * 2 * 256 * sizeof(float),
                 need = parts + tiles * sizeof(int);
    if (L->describe) {
        const char *why = describe_kernel(L->describe, stale_counter, 256, 0, grid);
        L->describe->k_splits = 2;
        L->describe->workspace_bytes = need;
        return why;
    }
    if (need > GPU_WORKSPACE_MAX_BYTES || !L->workspace || L->workspace_bytes < need)
        return "test_stale_counter: no workspace of the size it asked for";
    stale_counter<<<grid, block, 0, (cudaStream_t)L->stream>>>(
        L->C, L->A, L->B, L->M, L->N, L->K, (float *)L->workspace,
        (int *)((char *)L->workspace + parts));
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

static dim3 grid_of(const struct gpu_launch *L, dim3 block)
{
    return dim3((L->N + block.x - 1) / block.x, (L->M + block.y - 1) / block.y);
}

static const char *racy(const struct gpu_launch *L)
{
    return launch_or_describe(L, racy_tiled<16>, grid_of(L, dim3(16, 16)), dim3(16, 16));
}

template <enum fault F>
static const char *launch(const struct gpu_launch *L)
{
    return launch_or_describe(L, faulty<F>, grid_of(L, dim3(16, 16)), dim3(16, 16));
}

/* one configuration each: 16 x 16 threads, one output each */
#define RACY(X) X(16, 0, 16, 16, 1, 1, 0, racy)
#define ONE_OFF_C(X) X(0, 0, 16, 16, 1, 1, 0, (launch<ONE_OFF>))
#define NAN_C(X) X(0, 0, 16, 16, 1, 1, 0, (launch<NAN_ONE>))
#define UNWRITTEN_C(X) X(0, 0, 16, 16, 1, 1, 0, (launch<UNWRITTEN>))
#define STALE_C(X) X(0, 0, 16, 16, 1, 1, 0, stale)
RUNG_CONFIGS(test_racy_tiled, RACY)
RUNG_CONFIGS(test_one_off, ONE_OFF_C)
RUNG_CONFIGS(test_nan, NAN_C)
RUNG_CONFIGS(test_unwritten, UNWRITTEN_C)
RUNG_CONFIGS(test_stale_counter, STALE_C)
