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
 *                    never written */
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
RUNG_CONFIGS(test_racy_tiled, RACY)
RUNG_CONFIGS(test_one_off, ONE_OFF_C)
RUNG_CONFIGS(test_nan, NAN_C)
RUNG_CONFIGS(test_unwritten, UNWRITTEN_C)
