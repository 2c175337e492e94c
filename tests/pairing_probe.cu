/* What a cuBLAS SGEMM launch inherits from the launch before it: the probe
 * behind the neutral launch (harness/device/gpu.cu, data/README.md "Pairing").
 *
 *     make build/tests/pairing-probe && build/tests/pairing-probe [N [REPS]]
 *
 * Runs sequences of launches on one stream at N^3 (default 4096), REPS times
 * each (default 12), and prints, per sequence, the median of cuBLAS FP32's own
 * kernel time (the second timer: CUPTI's records, harness/device/kernel_timer.h) at
 * each of the four cuBLAS launches that follow what came before them.  Each
 * launch reads its own copy of A and B (two copies, each over twice the L2 at
 * N = 4096), as the harness's samples do.  Not a test: it measures, and a
 * reader compares the lines. */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <vector>

#include "device/kernel_timer.h"
#include "matmul.h"

extern "C" const char *gpu_async_copy_launch(const struct gpu_launch *L);
extern "C" const char *gpu_warptiled_launch(const struct gpu_launch *L);

static void check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return;
    fprintf(stderr, "pairing-probe: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
}
static void check_msg(const char *m, const char *what)
{
    if (!m) return;
    fprintf(stderr, "pairing-probe: %s: %s\n", what, m);
    exit(1);
}
#define CK(x) check((x), #x)
#define CKS(x) check_msg((x), #x)

/* Shared memory a block asks for; one block per SM of 200 KiB, or two of 100. */
__global__ void smem_kernel(float *sink)
{
    extern __shared__ float s[];
    s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (s[(threadIdx.x + 1) % blockDim.x] < -1.0f) sink[0] = 1.0f;
}

__global__ void empty_kernel(void) {}

__global__ void fill(float *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 13, x *= 0x5bd1e995u, x ^= x >> 15;
        p[i] = (float)(x & 0xffffff) / 8388608.0f - 1.0f;
    }
}

struct probe {
    int n, sms;
    float *A[2], *B[2], *C, *Cref, *sink, *flush;
    size_t flush_bytes;
    cudaStream_t s;
    cublasHandle_t h;
    unsigned set;
    std::vector<std::pair<uint64_t, uint64_t>> windows;   /* each cuBLAS launch's */
};

static struct gpu_launch args(probe &p, int tile, int wpt, float *C)
{
    struct gpu_launch L = {};
    L.C = C, L.A = p.A[p.set & 1], L.B = p.B[p.set & 1], p.set++;
    L.M = L.N = L.K = p.n, L.tile = tile, L.wpt = wpt, L.stream = p.s, L.blas = p.h;
    return L;
}

static void cublas_fp32(probe &p)
{
    const struct gpu_launch L = args(p, 0, 0, p.Cref);
    const float one = 1.0f, zero = 0.0f;
    uint64_t t0, t1;
    CK(cudaStreamSynchronize(p.s));
    CKS(kernel_timer_now(&t0));
    if (cublasGemmEx(p.h, CUBLAS_OP_N, CUBLAS_OP_N, L.N, L.M, L.K, &one, L.B, CUDA_R_32F, L.N, L.A,
                     CUDA_R_32F, L.K, &zero, L.C, CUDA_R_32F, L.N, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        CKS("cublasGemmEx failed");
    CK(cudaStreamSynchronize(p.s));
    CKS(kernel_timer_now(&t1));
    p.windows.push_back({t0, t1});
}

/* One step of a sequence, by name. */
static void step(probe &p, const char *what)
{
    if (!strcmp(what, "cublas")) {
        cublas_fp32(p);
        return;
    }
    struct gpu_launch L;
    if (!strcmp(what, "rung12")) L = args(p, 128, 64, p.C), CKS(gpu_async_copy_launch(&L));
    else if (!strcmp(what, "rung12w")) L = args(p, 256, 128, p.C), CKS(gpu_async_copy_launch(&L));
    else if (!strcmp(what, "rung11")) L = args(p, 128, 128, p.C), CKS(gpu_warptiled_launch(&L));
    else if (!strcmp(what, "smem2x100")) smem_kernel<<<2 * p.sms, 256, 100 << 10, p.s>>>(p.sink);
    else if (!strcmp(what, "smem1x200")) smem_kernel<<<p.sms, 256, 200 << 10, p.s>>>(p.sink);
    else if (!strcmp(what, "empty")) empty_kernel<<<p.sms, 256, 0, p.s>>>();
    else if (!strcmp(what, "memset")) CK(cudaMemsetAsync(p.flush, 0, p.flush_bytes, p.s));
    else if (!strcmp(what, "idle")) CK(cudaStreamSynchronize(p.s)), usleep(20000);
    else CKS("unknown step");
    CK(cudaGetLastError());
}

static void sequence(probe &p, const char *label, const char *steps, int reps)
{
    CK(cudaStreamSynchronize(p.s));
    CKS(kernel_timer_collect());
    kernel_timer_clear();
    p.windows.clear();
    char buf[256];
    for (int r = 0; r < reps; r++) {
        snprintf(buf, sizeof buf, "%s", steps);
        for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) step(p, t);
    }
    CK(cudaStreamSynchronize(p.s));
    CKS(kernel_timer_collect());
    const size_t per = p.windows.size() / reps;   /* cuBLAS launches per repetition */
    printf("%-42s", label);
    for (size_t k = 0; k < per; k++) {
        std::vector<double> ms;
        for (int r = 0; r < reps; r++) {
            struct kernel_times kt;
            kernel_timer_sum(p.windows[r * per + k].first, p.windows[r * per + k].second, &kt);
            ms.push_back(kt.total_ms);
        }
        std::sort(ms.begin(), ms.end());
        printf("  %8.4f", ms[ms.size() / 2]);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    probe p = {};
    p.n = argc > 1 ? atoi(argv[1]) : 4096;
    const int reps = argc > 2 ? atoi(argv[2]) : 12;
    if (p.n < 256 || p.n > 16384 || reps < 1 || reps > 1000) {
        fprintf(stderr, "usage: pairing-probe [N (256..16384, default 4096) [REPS (1..1000)]]\n");
        return 2;
    }
    CK(cudaSetDevice(0));
    CK(cudaDeviceGetAttribute(&p.sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaStreamCreateWithFlags(&p.s, cudaStreamNonBlocking));
    if (cublasCreate(&p.h) != CUBLAS_STATUS_SUCCESS || cublasSetStream(p.h, p.s) != CUBLAS_STATUS_SUCCESS)
        CKS("cublasCreate");
    CK(cudaFuncSetAttribute(smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
    CK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                            (int)cudaSharedmemCarveoutMaxL1));
    const size_t e = (size_t)p.n * p.n;
    for (int i = 0; i < 2; i++) {
        CK(cudaMalloc(&p.A[i], e * 4)), CK(cudaMalloc(&p.B[i], e * 4));
        fill<<<1024, 256, 0, p.s>>>(p.A[i], e, 1 + i), fill<<<1024, 256, 0, p.s>>>(p.B[i], e, 7 + i);
    }
    p.flush_bytes = (size_t)200 << 20;
    CK(cudaMalloc(&p.C, e * 4)), CK(cudaMalloc(&p.Cref, e * 4)), CK(cudaMalloc(&p.sink, 16));
    CK(cudaMalloc(&p.flush, p.flush_bytes));
    CKS(kernel_timer_start());

    printf("cuBLAS FP32 at %d^3, its kernel's own time (ms, median of %d) at each launch after\n",
           p.n, reps);
    sequence(p, "(warm-up)", "cublas cublas rung12 rung12w rung11 smem2x100 smem1x200", reps);
    sequence(p, "cuBLAS alone", "cublas cublas cublas cublas", reps);
    sequence(p, "rung 12, 128 x 128 tile (2 blocks/SM)", "rung12 cublas cublas cublas cublas", reps);
    sequence(p, "rung 12, 128 x 256 tile (1 block/SM)", "rung12w cublas cublas cublas cublas", reps);
    sequence(p, "rung 11, 128 x 128 tile", "rung11 cublas cublas cublas cublas", reps);
    sequence(p, "a kernel of 2 x 100 KiB per SM", "smem2x100 cublas cublas cublas cublas", reps);
    sequence(p, "a kernel of 1 x 200 KiB per SM", "smem1x200 cublas cublas cublas cublas", reps);
    sequence(p, "rung 12, then 20 ms idle", "rung12 idle cublas cublas cublas cublas", reps);
    sequence(p, "rung 12, then a memset of 200 MiB", "rung12 memset cublas cublas cublas cublas", reps);
    sequence(p, "rung 12, then an empty kernel", "rung12 empty cublas cublas cublas cublas", reps);
    kernel_timer_stop();
    return 0;
}
