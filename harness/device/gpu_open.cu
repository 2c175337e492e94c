/* Device services (gpu.h): opening the device and closing it, and the inputs
 * of a shape with their float64 reference.  Every CUDA and cuBLAS call is
 * checked, as in gpu.cu (gpu_parts.h). */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_parts.h"

static thread_local char open_msg[512];

/* Can the NVIDIA driver's library (libcuda) be loaded at all? */
static bool driver_library_present(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return false;
    dlclose(h);
    return true;
}

__global__ void widen_to_double(double *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = (double)in[i];
}

/* ---- open and close -------------------------------------------------------- */

/* FP32 lanes (results per clock per SM of 32-bit fmaf) by compute capability,
 * from the table "Throughput of Native Arithmetic Instructions" in the CUDA C++
 * Programming Guide.  0 means not in the table: the peak is then reported as 0. */
static int fp32_lanes_per_sm(int major, int minor)
{
    switch (major) {
    case 7: return 64;
    case 8: return minor == 0 ? 64 : (minor == 6 || minor == 9) ? 128 : 0;
    case 9: return minor == 0 ? 128 : 0;
    case 10: return 128;
    case 12: return 128;
    default: return 0;
    }
}

static const char *open_device(struct gpu *g, struct gpu_info *info)
{
    g->device = 0;
    TRY(ck(g, cudaSetDevice(0), "cudaSetDevice(0)"));

    cudaDeviceProp p;
    TRY(ck(g, cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties(0)"));
    int clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
    TRY(ck(g, cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0),
           "cudaDeviceGetAttribute(cudaDevAttrClockRate)"));
    TRY(ck(g, cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0),
           "cudaDeviceGetAttribute(cudaDevAttrMemoryClockRate)"));
    TRY(ck(g, cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0),
           "cudaDeviceGetAttribute(cudaDevAttrGlobalMemoryBusWidth)"));

    struct gpu_info in;
    memset(&in, 0, sizeof in);
    snprintf(in.name, sizeof in.name, "%.*s", (int)sizeof in.name - 1, p.name);
    in.cc_major = p.major;
    in.cc_minor = p.minor;
    in.sm_count = p.multiProcessorCount;
    in.max_clock_mhz = clock_khz / 1000;
    in.mem_clock_mhz = mem_clock_khz / 1000;
    in.mem_bus_bits = bus_bits;
    /* Double data rate: two transfers per memory clock. */
    in.mem_bandwidth_gbs = 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    in.fp32_lanes_per_sm = fp32_lanes_per_sm(p.major, p.minor);
    /* One fmaf counts as two floating-point operations. */
    in.fp32_peak_gflops = (double)in.sm_count * in.fp32_lanes_per_sm * 2.0 * clock_khz * 1e3 / 1e9;
    in.l2_bytes = p.l2CacheSize;
    in.global_mem_bytes = (long long)p.totalGlobalMem;
    in.max_threads_per_block = p.maxThreadsPerBlock;
    in.smem_per_block_optin = (long long)p.sharedMemPerBlockOptin;
    TRY(ck(g, cudaDriverGetVersion(&in.driver_version), "cudaDriverGetVersion"));
    TRY(ck(g, cudaRuntimeGetVersion(&in.runtime_version), "cudaRuntimeGetVersion"));
    snprintf(in.nvcc_version, sizeof in.nvcc_version, "%d.%d.%d", __CUDACC_VER_MAJOR__,
             __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
    const unsigned char *u = (const unsigned char *)p.uuid.bytes;
    snprintf(in.uuid, sizeof in.uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    TRY(ck(g, cudaDeviceGetPCIBusId(in.pci_bus_id, (int)sizeof in.pci_bus_id, 0),
           "cudaDeviceGetPCIBusId"));
    g->sm_count = in.sm_count;

    TRY(ck(g, cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), "cudaStreamCreate"));
    TRY(ck(g, cudaEventCreate(&g->start), "cudaEventCreate(start)"));
    TRY(ck(g, cudaEventCreate(&g->stop), "cudaEventCreate(stop)"));
    TRY(ck(g, cudaEventCreateWithFlags(&g->done, cudaEventDisableTiming),
           "cudaEventCreate(done)"));

    TRY(ckb(g, cublasCreate(&g->blas), "cublasCreate"));
    /* cublasSetStream resets the workspace to cuBLAS's own pool, so the stream
     * is set first and our workspace (counted in gpu_bytes_needed) after it.
     * CUBLAS_DEFAULT_MATH is set explicitly: TF32, BF16x9 and FP64 emulation
     * are all opt-in math modes, so FP32 stays FP32 and DGEMM stays FP64. */
    TRY(ckb(g, cublasSetStream(g->blas, g->stream), "cublasSetStream"));
    TRY(ck(g, cudaMalloc(&g->blas_workspace, GPU_BLAS_WORKSPACE_BYTES),
           "cudaMalloc(cuBLAS workspace, %zu bytes)", GPU_BLAS_WORKSPACE_BYTES));
    TRY(ckb(g, cublasSetWorkspace(g->blas, g->blas_workspace, GPU_BLAS_WORKSPACE_BYTES),
            "cublasSetWorkspace(%zu bytes)", GPU_BLAS_WORKSPACE_BYTES));
    TRY(ckb(g, cublasSetMathMode(g->blas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode(default)"));

    TRY(ck(g, cudaMalloc((void **)&g->scratch, GPU_SCRATCH_BYTES),
           "cudaMalloc(scratch, %zu bytes)", GPU_SCRATCH_BYTES));
    TRY(ck(g, cudaMalloc((void **)&g->probe, 2 * sizeof(unsigned long long) * (size_t)in.sm_count),
           "cudaMalloc(clock probe, %d SMs)", in.sm_count));
    TRY(prefer_l1_for_neutral(g));
    g->l2_bytes = in.l2_bytes;

    if (info)
        *info = in;
    return NULL;
}

const char *gpu_open(struct gpu **out, struct gpu_info *info)
{
    *out = NULL;
    if (info)
        memset(info, 0, sizeof *info);
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    /* Without the driver's library the runtime says "CUDA driver version is
     * insufficient", which misleads on a machine that has no NVIDIA driver at
     * all; only a driver that is there and too old deserves that message. */
    if ((e == cudaErrorInsufficientDriver && !driver_library_present()) ||
        e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
        return NO_GPU_MESSAGE;
    if (e != cudaSuccess) {
        snprintf(open_msg, sizeof open_msg, "no usable CUDA device: %s (%s)",
                 cudaGetErrorString(e), cudaGetErrorName(e));
        return open_msg;
    }

    struct gpu *g = (struct gpu *)calloc(1, sizeof *g);
    if (!g)
        return "gpu_open: out of host memory";
    const char *err = open_device(g, info);
    if (err) {
        snprintf(open_msg, sizeof open_msg, "gpu_open: %s", err);
        gpu_close(g);
        return open_msg;
    }
    *out = g;
    return NULL;
}

static void free_shape(struct gpu *g)
{
    gpu_timing_release(g);
    cudaFree(g->sets);
    cudaFree(g->dC);
    cudaFree(g->dCref);
    cudaFree(g->dR);
    g->sets = NULL;
    g->dA = g->dB = g->dC = g->dCref = NULL;
    g->dR = NULL;
    g->input_sets = 0;
    g->M = g->N = g->K = 0;
}

/* Releases what exists; errors are ignored, there is nobody left to tell. */
void gpu_close(struct gpu *g)
{
    if (!g)
        return;
    if (g->stream)
        cudaStreamSynchronize(g->stream);
    if (g->kernel_timer)
        kernel_timer_stop();
    free_shape(g);
    cudaFree(g->scratch);
    cudaFree(g->probe);
    cudaFree(g->workspace);
    if (g->blas)
        cublasDestroy(g->blas);
    cudaFree(g->blas_workspace);
    if (g->start)
        cudaEventDestroy(g->start);
    if (g->stop)
        cudaEventDestroy(g->stop);
    if (g->done)
        cudaEventDestroy(g->done);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    (void)cudaGetLastError();
    free(g);
}

void gpu_set_interrupt(struct gpu *g, volatile sig_atomic_t *interrupt)
{
    g->interrupt = interrupt;
}

const char *gpu_mem_info(struct gpu *g, size_t *free_bytes, size_t *total_bytes)
{
    return ck(g, cudaMemGetInfo(free_bytes, total_bytes), "cudaMemGetInfo");
}

size_t gpu_bytes_needed(int M, int N, int K, long long l2_bytes)
{
    return gpu_bytes_formula(M, N, K, l2_bytes);
}

/* ---- inputs and reference -------------------------------------------------- */

static const char *alloc_shape(struct gpu *g, int M, int N, int K)
{
    const size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    g->b_offset = gpu_matrix_stride(mk);
    g->set_bytes = g->b_offset + gpu_matrix_stride(kn);
    g->input_sets = gpu_input_sets(M, N, K, g->l2_bytes);
    const size_t all = g->set_bytes * (size_t)g->input_sets;
    TRY(ck(g, cudaMalloc((void **)&g->sets, all), "cudaMalloc(%d input sets, %zu bytes)",
           g->input_sets, all));
    g->dA = (float *)g->sets;
    g->dB = (float *)(g->sets + g->b_offset);
    TRY(ck(g, cudaMalloc((void **)&g->dC, mn * sizeof(float)), "cudaMalloc(C, %zu bytes)",
           mn * sizeof(float)));
    TRY(ck(g, cudaMalloc((void **)&g->dCref, mn * sizeof(float)),
           "cudaMalloc(the reference's C, %zu bytes)", mn * sizeof(float)));
    TRY(ck(g, cudaMalloc((void **)&g->dR, mn * sizeof(double)), "cudaMalloc(R, %zu bytes)",
           mn * sizeof(double)));
    g->M = M;
    g->N = N;
    g->K = K;
    return NULL;
}

/* Copy the first set (A, B) into every other set. */
static const char *copy_sets(struct gpu *g)
{
    const size_t a = (size_t)g->M * g->K * sizeof(float), b = (size_t)g->K * g->N * sizeof(float);
    for (int i = 1; i < g->input_sets; i++) {
        unsigned char *s = g->sets + (size_t)i * g->set_bytes;
        TRY(ck(g, cudaMemcpyAsync(s, g->dA, a, cudaMemcpyDeviceToDevice, g->stream),
               "cudaMemcpy(A into input set %d)", i));
        TRY(ck(g, cudaMemcpyAsync(s + g->b_offset, g->dB, b, cudaMemcpyDeviceToDevice, g->stream),
               "cudaMemcpy(B into input set %d)", i));
    }
    return NULL;
}

/* R = A * B in float64: widen A and B on the device, then DGEMM (row-major
 * through column-major as C^T = B^T * A^T, see kernels/gpu/08_cublas.cu). */
static const char *compute_reference(struct gpu *g, double *A64, double *B64)
{
    const int M = g->M, N = g->N, K = g->K;
    const size_t mk = (size_t)M * K, kn = (size_t)K * N;
    widen_to_double<<<grid_for(g, mk, 256), 256, 0, g->stream>>>(A64, g->dA, mk);
    TRY(ck(g, cudaGetLastError(), "launch widen_to_double(A)"));
    widen_to_double<<<grid_for(g, kn, 256), 256, 0, g->stream>>>(B64, g->dB, kn);
    TRY(ck(g, cudaGetLastError(), "launch widen_to_double(B)"));
    const double one = 1.0, zero = 0.0;
    TRY(ckb(g, cublasDgemm(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B64, N, A64, K,
                           &zero, g->dR, N),
            "cublasDgemm(reference, %dx%dx%d)", M, N, K));
    char what[96];
    snprintf(what, sizeof what, "computing the float64 reference (%dx%dx%d)", M, N, K);
    return wait_stream(g, what);
}

const char *gpu_set_inputs(struct gpu *g, const float *A, const float *B, int M, int N, int K)
{
    if (M < 1 || N < 1 || K < 1)
        return fail(g, "gpu_set_inputs: shape %dx%dx%d: every dimension must be >= 1", M, N, K);
    /* The rungs index with int: no matrix may hold more than INT_MAX elements. */
    if ((long long)M * K > INT_MAX || (long long)K * N > INT_MAX || (long long)M * N > INT_MAX)
        return fail(g, "gpu_set_inputs: shape %dx%dx%d: a matrix has more than %d elements", M,
                    N, K, INT_MAX);

    const char *err = NULL;
    gpu_timing_release(g);
    if (M != g->M || N != g->N || K != g->K) {
        free_shape(g);
        if ((err = alloc_shape(g, M, N, K))) {
            free_shape(g);
            return err;
        }
    }

    const size_t mk = (size_t)M * K, kn = (size_t)K * N;
    double *A64 = NULL, *B64 = NULL;
    if (!(err = ck(g, cudaMemcpyAsync(g->dA, A, mk * sizeof(float), cudaMemcpyHostToDevice, g->stream),
                   "cudaMemcpy(A, %zu bytes, host to device)", mk * sizeof(float))) &&
        !(err = ck(g, cudaMemcpyAsync(g->dB, B, kn * sizeof(float), cudaMemcpyHostToDevice, g->stream),
                   "cudaMemcpy(B, %zu bytes, host to device)", kn * sizeof(float))) &&
        !(err = ck(g, cudaMalloc((void **)&A64, mk * sizeof(double)),
                   "cudaMalloc(A as float64, %zu bytes)", mk * sizeof(double))) &&
        !(err = ck(g, cudaMalloc((void **)&B64, kn * sizeof(double)),
                   "cudaMalloc(B as float64, %zu bytes)", kn * sizeof(double))))
        err = compute_reference(g, A64, B64);
    if (!err)
        err = copy_sets(g);

    /* The stream is idle here on success; on failure wait before freeing. */
    cudaStreamSynchronize(g->stream);
    const cudaError_t e1 = cudaFree(A64), e2 = cudaFree(B64);
    if (!err)
        err = ck(g, e1 != cudaSuccess ? e1 : e2, "cudaFree(float64 copies of A and B)");
    if (err) {
        free_shape(g);   /* no half-valid inputs: the next call starts afresh */
        (void)cudaGetLastError();
    }
    return err;
}
