/* Device services for the harness (see gpu.h): one device, one non-default
 * stream on which everything is enqueued, one cuBLAS handle bound to it, and
 * the buffers of the current shape.
 *
 * Every CUDA and cuBLAS call is checked; a failure is reported as
 * "<what was being done>: <CUDA's message> (<CUDA's error name>)" in the
 * struct's message buffer, which stays valid until the next call on the same
 * struct gpu.  gpu_open's own failures go to a thread-local buffer instead,
 * since no struct exists to hold them. */
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <chrono>
#include <dlfcn.h>
#include <signal.h>
#include <time.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "kernel_timer.h"

enum { REDUCE_THREADS = 256, TIMED_COPIES = 10 };

/* Layout of the scratch buffer (GPU_SCRATCH_BYTES): the comparison's sums and
 * maxima. */
struct compare_sums {
    double sum_sq_diff, sum_sq_ref;
    unsigned long long max_abs_diff_bits, max_abs_ref_bits;   /* non-negative doubles */
    unsigned long long nonfinite;
};
struct scratch {
    struct compare_sums sums;
};
static_assert(sizeof(struct scratch) <= GPU_SCRATCH_BYTES, "scratch outgrew GPU_SCRATCH_BYTES");

/* What a timed sample launches. */
struct timed {
    gpu_launch_fn fn;
    int tile, wpt, split;
    float *C;
    int launches;                 /* per sample */
    cudaGraphExec_t exec;         /* NULL: launch one by one */
};

struct gpu {
    int device;
    int sm_count;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cublasHandle_t blas;
    void *blas_workspace;
    long long l2_bytes;
    unsigned char *sets;          /* input_sets copies of (A, B), set_bytes apart */
    size_t set_bytes, b_offset;   /* B of a set starts b_offset bytes after its A */
    int input_sets;
    float *dA, *dB, *dC;          /* the first set, and the output */
    float *dCref;                 /* the reference's output in paired samples */
    double *dR;                   /* float64 reference of the current inputs */
    int M, N, K;                  /* current shape; 0 when there is none */
    struct timed timed[2];        /* the prepared samples: [0] the rung, [1] its reference */
    int n_timed;
    unsigned next_set;            /* the set the next single launch reads */
    struct scratch *scratch;
    unsigned long long *probe;    /* clock_probe_kernel's output, 2 per SM */
    void *workspace;              /* the rungs' workspace (matmul.h), grown on demand */
    size_t workspace_bytes;
    cudaEvent_t done;             /* recorded to wait for the stream without blocking */
    int kernel_timer;             /* the second timer is on (gpu_kernel_timer_on) */
    volatile sig_atomic_t *interrupt;   /* set: waits give up ("interrupted") */
    char msg[512];
};

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

/* ---- error reporting ----------------------------------------------------- */

static const char *vfail(struct gpu *g, const char *detail, const char *fmt, va_list ap)
{
    int n = vsnprintf(g->msg, sizeof g->msg, fmt, ap);
    if (n < 0)
        n = 0;
    if (detail && (size_t)n < sizeof g->msg)
        snprintf(g->msg + n, sizeof g->msg - (size_t)n, ": %s", detail);
    return g->msg;
}

/* Formats "<context>" into g->msg and returns it. */
static const char *fail(struct gpu *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(g, NULL, fmt, ap);
    va_end(ap);
    return g->msg;
}

/* NULL when e is cudaSuccess, else "<context>: <message> (<name>)" in g->msg.
 * A failed call also leaves its error as the runtime's "last error", which the
 * next launcher's cudaGetLastError would report as its own: it is cleared here
 * (a sticky error, which breaks the context, stays and fails later calls). */
static const char *ck(struct gpu *g, cudaError_t e, const char *fmt, ...)
{
    if (e == cudaSuccess)
        return NULL;
    (void)cudaGetLastError();
    char detail[192];
    snprintf(detail, sizeof detail, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    va_list ap;
    va_start(ap, fmt);
    vfail(g, detail, fmt, ap);
    va_end(ap);
    return g->msg;
}

/* The same for cuBLAS statuses. */
static const char *ckb(struct gpu *g, cublasStatus_t s, const char *fmt, ...)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return NULL;
    (void)cudaGetLastError();
    va_list ap;
    va_start(ap, fmt);
    vfail(g, cublasGetStatusString(s), fmt, ap);
    va_end(ap);
    return g->msg;
}

/* Wait for `ev` by polling, not in the driver, so that an interrupt (g->interrupt)
 * is seen within a fraction of a millisecond even while a kernel runs for
 * seconds; what the wait was for goes into the message of a failure. */
static const char *wait_event(struct gpu *g, cudaEvent_t ev, const char *what)
{
    for (unsigned polls = 0;; polls++) {
        const cudaError_t e = cudaEventQuery(ev);
        if (e == cudaSuccess)
            return NULL;
        if (e != cudaErrorNotReady)
            return ck(g, e, "%s", what);
        if (g->interrupt && *g->interrupt)
            return fail(g, "%s: interrupted", what);
        if (polls > 256) {
            const struct timespec t = {0, 100000};   /* 0.1 ms */
            nanosleep(&t, NULL);
        }
    }
}

/* Everything enqueued on the stream so far has finished. */
static const char *wait_stream(struct gpu *g, const char *what)
{
    const char *e = ck(g, cudaEventRecord(g->done, g->stream), "cudaEventRecord(%s)", what);
    return e ? e : wait_event(g, g->done, what);
}

#define TRY(expr)                       \
    do {                                \
        const char *err_ = (expr);      \
        if (err_)                       \
            return err_;                \
    } while (0)

/* ---- kernels --------------------------------------------------------------- */

__global__ void widen_to_double(double *out, const float *in, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = (double)in[i];
}

/* Error statistics of C against R (see verify.h): per-thread partials over a
 * grid-stride loop, a tree reduction in shared memory, then one set of atomics
 * per block.  The maxima are non-negative doubles, whose bit patterns order
 * like the values, so atomicMax on them as unsigned integers is exact. */
__global__ void __launch_bounds__(REDUCE_THREADS)
compare_kernel(struct compare_sums *out, const float *C, const double *R, size_t n)
{
    __shared__ double ssd[REDUCE_THREADS], ssr[REDUCE_THREADS];
    __shared__ double mad[REDUCE_THREADS], mar[REDUCE_THREADS];
    __shared__ unsigned long long bad[REDUCE_THREADS];
    double sum_sq_diff = 0.0, sum_sq_ref = 0.0, max_abs_diff = 0.0, max_abs_ref = 0.0;
    unsigned long long nonfinite = 0;

    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        const float c = C[i];
        const double r = R[i];
        sum_sq_ref += r * r;
        max_abs_ref = fmax(max_abs_ref, fabs(r));
        if (isfinite(c)) {
            const double d = (double)c - r;
            sum_sq_diff += d * d;
            max_abs_diff = fmax(max_abs_diff, fabs(d));
        } else {
            nonfinite++;
        }
    }
    const unsigned t = threadIdx.x;
    ssd[t] = sum_sq_diff;
    ssr[t] = sum_sq_ref;
    mad[t] = max_abs_diff;
    mar[t] = max_abs_ref;
    bad[t] = nonfinite;
    __syncthreads();
    for (unsigned half = REDUCE_THREADS / 2; half > 0; half /= 2) {
        if (t < half) {
            ssd[t] += ssd[t + half];
            ssr[t] += ssr[t + half];
            mad[t] = fmax(mad[t], mad[t + half]);
            mar[t] = fmax(mar[t], mar[t + half]);
            bad[t] += bad[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(&out->sum_sq_diff, ssd[0]);
        atomicAdd(&out->sum_sq_ref, ssr[0]);
        atomicMax(&out->max_abs_diff_bits, (unsigned long long)__double_as_longlong(mad[0]));
        atomicMax(&out->max_abs_ref_bits, (unsigned long long)__double_as_longlong(mar[0]));
        atomicAdd(&out->nonfinite, bad[0]);
    }
}

__device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Lane 0 of each block: the SM's cycles over `ns` of global time, into out[2b]
 * (cycles) and out[2b + 1] (ns). */
__global__ void clock_probe_kernel(unsigned long long *out, unsigned long long ns)
{
    if (threadIdx.x) return;
    const unsigned long long t0 = global_ns(), c0 = clock64();
    unsigned long long t1;
    do t1 = global_ns(); while (t1 - t0 < ns);
    const unsigned long long c1 = clock64();
    out[2 * blockIdx.x] = c1 - c0;
    out[2 * blockIdx.x + 1] = t1 - t0;
}

/* The launch before every timed sample: no work, and a preference for the
 * largest L1 (set at open), so that the SMs leave whatever configuration of L1
 * and shared memory the kernel before it chose and the sample's first kernel
 * sets up its own.  Measured (H100, cuBLAS SGEMM at 4096^3 and 8192^3): after a
 * kernel running two blocks of ~100 KiB of shared memory per SM, cuBLAS runs
 * 2.5-4% slower, launch after launch and through 20 ms idle, until any kernel
 * that needs another configuration runs; this one restores it.  Two blocks of
 * 1024 threads per SM, each staying `ns`: long enough that the block scheduler
 * gives every SM its share rather than running them all on the few SMs that
 * free up first. */
enum { NEUTRAL_NS = 2000 };
__global__ void neutral_kernel(unsigned long long ns)   /* also gpu_spin's load */
{
    const unsigned long long t0 = global_ns();
    while (global_ns() - t0 < ns) {}
}

static unsigned grid_for(const struct gpu *g, size_t n, unsigned threads)
{
    size_t blocks = (n + threads - 1) / threads;
    const size_t cap = (size_t)g->sm_count * 8;
    if (blocks > cap)
        blocks = cap;
    return blocks ? (unsigned)blocks : 1u;
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
    TRY(ck(g, cudaFuncSetAttribute(neutral_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   (int)cudaSharedmemCarveoutMaxL1),
           "cudaFuncSetAttribute(neutral kernel, carveout: largest L1)"));
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

/* ---- run, time, compare ---------------------------------------------------- */

static const char *need_inputs(struct gpu *g, const char *who)
{
    return g->M ? NULL : fail(g, "%s: no inputs (call gpu_set_inputs first)", who);
}

/* The arguments of a launch on input set `set` writing C. */
static struct gpu_launch launch_on(const struct gpu *g, int tile, int wpt, int split, unsigned set,
                                   float *C)
{
    struct gpu_launch L;
    const unsigned char *s = g->sets + (size_t)(set % (unsigned)g->input_sets) * g->set_bytes;
    L.C = C;
    L.A = (const float *)s;
    L.B = (const float *)(s + g->b_offset);
    L.M = g->M;
    L.N = g->N;
    L.K = g->K;
    L.tile = tile;
    L.wpt = wpt;
    L.split = split;
    L.stream = (void *)g->stream;
    L.blas = (void *)g->blas;
    L.workspace = g->workspace;
    L.workspace_bytes = g->workspace_bytes;
    L.describe = NULL;
    return L;
}

static struct gpu_launch launch_args(const struct gpu *g, int tile, int wpt, int split)
{
    return launch_on(g, tile, wpt, split, 0, g->dC);
}

const char *gpu_describe(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                         struct kernel_resources *out)
{
    TRY(need_inputs(g, "gpu_describe"));
    struct gpu_launch L = launch_args(g, tile, wpt, split);
    L.describe = out;
    const char *m = fn(&L);
    if (m)
        return fail(g, "describing (%dx%dx%d, tile %d, wpt %d, split %d): %s", g->M, g->N, g->K,
                    tile, wpt, split, m);
    return NULL;
}

/* The workspace the launch asks for (its describe), allocated (and zeroed) when
 * the one held is smaller. */
static const char *ensure_workspace(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split)
{
    struct kernel_resources kr;
    TRY(gpu_describe(g, fn, tile, wpt, split, &kr));
    if (kr.workspace_bytes > GPU_WORKSPACE_MAX_BYTES)
        return fail(g, "%dx%dx%d, tile %d, wpt %d, split %d: asks for %zu bytes of workspace, "
                       "more than the %zu a launch may have", g->M, g->N, g->K, tile, wpt, split,
                    kr.workspace_bytes, GPU_WORKSPACE_MAX_BYTES);
    if (kr.workspace_bytes <= g->workspace_bytes)
        return NULL;
    TRY(wait_stream(g, "freeing the workspace"));
    TRY(ck(g, cudaFree(g->workspace), "cudaFree(workspace)"));
    g->workspace = NULL;
    g->workspace_bytes = 0;
    TRY(ck(g, cudaMalloc(&g->workspace, kr.workspace_bytes), "cudaMalloc(workspace, %zu bytes)",
           kr.workspace_bytes));
    g->workspace_bytes = kr.workspace_bytes;
    return ck(g, cudaMemsetAsync(g->workspace, 0, g->workspace_bytes, g->stream),
              "cudaMemset(workspace, 0, %zu bytes)", g->workspace_bytes);
}

const char *gpu_poison_output(struct gpu *g)
{
    TRY(need_inputs(g, "gpu_poison_output"));
    const size_t bytes = (size_t)g->M * g->N * sizeof(float);
    return ck(g, cudaMemsetAsync(g->dC, 0xFF, bytes, g->stream), "cudaMemset(C, 0xFF, %zu bytes)",
              bytes);
}

const char *gpu_run_once(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split)
{
    TRY(need_inputs(g, "gpu_run_once"));
    TRY(ensure_workspace(g, fn, tile, wpt, split));
    if (g->workspace_bytes)   /* whatever an earlier point (or a failed launch) left */
        TRY(ck(g, cudaMemsetAsync(g->workspace, 0, g->workspace_bytes, g->stream),
               "cudaMemset(workspace, 0, %zu bytes)", g->workspace_bytes));
    const struct gpu_launch L = launch_args(g, tile, wpt, split);
    const char *m = fn(&L);
    if (m)
        return fail(g, "launch (%dx%dx%d, tile %d, wpt %d, split %d): %s", g->M, g->N, g->K, tile,
                    wpt, split, m);
    char what[96];
    snprintf(what, sizeof what, "running (%dx%dx%d, tile %d, wpt %d, split %d)", g->M, g->N, g->K,
             tile, wpt, split);
    return wait_stream(g, what);
}

/* ---- timed samples -------------------------------------------------------------- */

void gpu_timing_release(struct gpu *g)
{
    for (int i = 0; i < 2; i++) {
        if (g->timed[i].exec)
            cudaGraphExecDestroy(g->timed[i].exec);
        g->timed[i].exec = NULL;
    }
    g->n_timed = 0;
}

/* Enqueue `n` launches of t, each on the next input set. */
static const char *enqueue(struct gpu *g, const struct timed *t, int n)
{
    for (int i = 0; i < n; i++) {
        const struct gpu_launch L = launch_on(g, t->tile, t->wpt, t->split, g->next_set++, t->C);
        const char *m = t->fn(&L);
        if (m)
            return fail(g, "launch (%dx%dx%d, tile %d, wpt %d, split %d): %s", g->M, g->N, g->K,
                        t->tile, t->wpt, t->split, m);
    }
    return NULL;
}

/* A neutral launch, then events around what `t` enqueues (n launches): the
 * elapsed ms, and with the second timer on, the window on CUPTI's clock in
 * which the sample's kernels start (kt may be NULL). */
static const char *time_events(struct gpu *g, const struct timed *t, int n, double *ms,
                               struct gpu_kernels *kt)
{
    neutral_kernel<<<2 * g->sm_count, 1024, 0, g->stream>>>(NEUTRAL_NS);
    TRY(ck(g, cudaGetLastError(), "launch the neutral kernel"));
    uint64_t t0 = 0, t1 = 0;
    const char *e;
    /* The window opens once the neutral kernel is done and before the
     * sample's first launch is enqueued: it holds the sample's kernels alone. */
    if (g->kernel_timer) {
        TRY(wait_stream(g, "the neutral kernel"));
        if ((e = kernel_timer_now(&t0))) return fail(g, "kernel timer: %s", e);
    }
    TRY(ck(g, cudaEventRecord(g->start, g->stream), "cudaEventRecord(start)"));
    if (t->exec)
        TRY(ck(g, cudaGraphLaunch(t->exec, g->stream), "cudaGraphLaunch(%d launches)", n));
    else
        TRY(enqueue(g, t, n));
    TRY(ck(g, cudaEventRecord(g->stop, g->stream), "cudaEventRecord(stop)"));
    char what[96];
    snprintf(what, sizeof what, "running (%dx%dx%d, tile %d, wpt %d)", g->M, g->N, g->K, t->tile,
             t->wpt);
    TRY(wait_event(g, g->stop, what));
    float elapsed = 0.0f;
    TRY(ck(g, cudaEventElapsedTime(&elapsed, g->start, g->stop), "cudaEventElapsedTime"));
    *ms = elapsed;
    if (g->kernel_timer && (e = kernel_timer_now(&t1))) return fail(g, "kernel timer: %s", e);
    if (kt) *kt = (struct gpu_kernels){t0, t1, n, NAN, NAN, NAN, ""};
    return NULL;
}

/* Capture n launches of t, sets 0..n-1 in turn, as a graph; on any failure the
 * capture is abandoned, the error cleared and t keeps launching one by one. */
static void capture(struct gpu *g, struct timed *t, int n)
{
    cudaGraph_t graph = NULL;
    if (cudaStreamBeginCapture(g->stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    const unsigned keep = g->next_set;
    g->next_set = 0;
    const char *m = enqueue(g, t, n);
    g->next_set = keep;
    const cudaError_t e = cudaStreamEndCapture(g->stream, &graph);
    if (!m && e == cudaSuccess && graph &&
        cudaGraphInstantiate(&t->exec, graph, 0) != cudaSuccess)
        t->exec = NULL;
    if (graph)
        cudaGraphDestroy(graph);
    (void)cudaGetLastError();
}

const char *gpu_timing_prepare(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                               gpu_launch_fn ref, double min_sample_ms, struct gpu_timing *out)
{
    TRY(need_inputs(g, "gpu_timing_prepare"));
    gpu_timing_release(g);
    TRY(ensure_workspace(g, fn, tile, wpt, split));
    g->timed[0] = (struct timed){fn, tile, wpt, split, g->dC, 1, NULL};
    g->timed[1] = (struct timed){ref, 0, 0, 0, g->dCref, 1, NULL};
    g->n_timed = ref ? 2 : 1;
    /* One launch of each (already warm: gpu_run_once ran fn) sets its count:
     * each sample of each lasts min_sample_ms, so that a slow rung paired with
     * a fast reference is not launched as often as the reference. */
    const int sets = g->input_sets;
    for (int i = 0; i < g->n_timed; i++) {
        struct timed *t = &g->timed[i];
        double one;
        TRY(time_events(g, t, 1, &one, NULL));
        if (one >= min_sample_ms) continue;
        const double rounds = ceil(min_sample_ms / (fmax(one, 1e-4) * sets));
        int n = (int)fmin(rounds * sets, 1 << 20);
        n -= n % sets;
        t->launches = n < sets ? sets : n;
        capture(g, t, t->launches);
    }
    out->launches = g->timed[0].launches;
    out->input_sets = sets;
    snprintf(out->method, sizeof out->method, "%s", g->timed[0].exec ? "graph" : "launch");
    return NULL;
}

const char *gpu_kernel_timer_on(struct gpu *g)
{
    if (g->kernel_timer) return NULL;
    const char *e = kernel_timer_start();
    if (e) return fail(g, "starting the kernel timer (CUPTI): %s", e);
    g->kernel_timer = 1;
    return NULL;
}

const char *gpu_timing_sample(struct gpu *g, int which, double *ms, struct gpu_kernels *k)
{
    if (which < 0 || which >= g->n_timed)
        return fail(g, "gpu_timing_sample(%d): not prepared", which);
    double total;
    const struct timed *t = &g->timed[which];
    TRY(time_events(g, t, t->launches, &total, k));
    *ms = total / t->launches;
    return NULL;
}

/* Each window's kernels and copies, from the records collected. */
static const char *sum_windows(struct gpu *g, struct gpu_kernels *k, int n)
{
    for (int i = 0; k && i < n; i++) {
        struct kernel_times kt;
        kernel_timer_sum(k[i].t0, k[i].t1, &kt);
        if (kt.kernels < k[i].launches)
            return fail(g, "kernel timer: %d kernel records in a sample of %d launches", kt.kernels,
                        k[i].launches);
        k[i].ms = kt.total_ms / k[i].launches;
        k[i].per_launch = (double)kt.kernels / k[i].launches;
        k[i].copies_per_launch = (double)kt.copies / k[i].launches;
        snprintf(k[i].name, sizeof k[i].name, "%s", kt.longest);
    }
    return NULL;
}

const char *gpu_kernels_resolve(struct gpu *g, struct gpu_kernels *a, struct gpu_kernels *b, int n)
{
    if (!g->kernel_timer) return fail(g, "the kernel timer is not on");
    const char *e = kernel_timer_collect();
    const char *err = e ? fail(g, "kernel timer: %s", e) : sum_windows(g, a, n);
    if (!err) err = sum_windows(g, b, n);
    kernel_timer_clear();
    return err;
}

const char *gpu_rerun_poisoned(struct gpu *g, int which)
{
    if (which < 0 || which >= g->n_timed)
        return fail(g, "gpu_rerun_poisoned(%d): not prepared", which);
    const struct timed *t = &g->timed[which];
    const size_t bytes = (size_t)g->M * g->N * sizeof(float);
    TRY(ck(g, cudaMemsetAsync(t->C, 0xFF, bytes, g->stream), "cudaMemset(%s, 0xFF, %zu bytes)",
           which ? "the reference's C" : "C", bytes));
    TRY(enqueue(g, t, 1));   /* the workspace as the samples left it: no reset */
    char what[112];
    snprintf(what, sizeof what, "running once more on a poisoned C (%dx%dx%d, tile %d, wpt %d)",
             g->M, g->N, g->K, t->tile, t->wpt);
    return wait_stream(g, what);
}

const char *gpu_sm_clock_mhz(struct gpu *g, double *mhz)
{
    enum { PROBE_NS = 20000 };
    const int sms = g->sm_count;
    unsigned long long h[2 * 1024];
    if (sms < 1 || sms > 1024) return fail(g, "gpu_sm_clock_mhz: %d SMs", sms);
    clock_probe_kernel<<<sms, 32, 0, g->stream>>>(g->probe, PROBE_NS);
    TRY(ck(g, cudaGetLastError(), "launch clock_probe_kernel"));
    TRY(ck(g, cudaMemcpyAsync(h, g->probe, 2 * sizeof h[0] * (size_t)sms, cudaMemcpyDeviceToHost,
                              g->stream),
           "cudaMemcpy(clock probe, device to host)"));
    TRY(wait_stream(g, "reading the SM clock"));
    double cycles = 0, ns = 0;
    for (int i = 0; i < sms; i++) cycles += (double)h[2 * i], ns += (double)h[2 * i + 1];
    if (!(ns > 0)) return fail(g, "gpu_sm_clock_mhz: the global timer did not advance");
    *mhz = cycles / ns * 1e3;
    return NULL;
}

const char *gpu_spin(struct gpu *g, double ms)
{
    for (double left = ms; left > 0; left -= 50) {   /* 50 ms a launch: an interrupt waits no longer */
        neutral_kernel<<<g->sm_count * 4, 128, 0, g->stream>>>(
            (unsigned long long)(fmin(left, 50.0) * 1e6));
        TRY(ck(g, cudaGetLastError(), "launch the spinning kernel"));
        TRY(wait_stream(g, "keeping the GPU busy"));
    }
    return NULL;
}

const char *gpu_pci_bus_id(struct gpu *g, char *buf, size_t len)
{
    return ck(g, cudaDeviceGetPCIBusId(buf, (int)len, g->device), "cudaDeviceGetPCIBusId");
}

const char *gpu_host_alloc(struct gpu *g, void **p, size_t bytes, int pinned)
{
    *p = NULL;
    if (pinned)
        return ck(g, cudaMallocHost(p, bytes), "cudaMallocHost(%zu bytes)", bytes);
    *p = malloc(bytes);
    return *p ? NULL : fail(g, "malloc(%zu bytes) failed", bytes);
}

void gpu_host_free(void *p, int pinned)
{
    if (pinned)
        cudaFreeHost(p);
    else
        free(p);
}

static double host_ms(void)
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

const char *gpu_time_round_trip(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                                const float *hA, const float *hB, float *hC, double *h2d_ms,
                                double *kernel_ms, double *d2h_ms)
{
    TRY(need_inputs(g, "gpu_time_round_trip"));
    const size_t a = (size_t)g->M * g->K * sizeof(float), b = (size_t)g->K * g->N * sizeof(float),
                 c = (size_t)g->M * g->N * sizeof(float);
    double t0 = host_ms();
    TRY(ck(g, cudaMemcpyAsync(g->dA, hA, a, cudaMemcpyHostToDevice, g->stream), "copy A in"));
    TRY(ck(g, cudaMemcpyAsync(g->dB, hB, b, cudaMemcpyHostToDevice, g->stream), "copy B in"));
    TRY(wait_stream(g, "copying A and B in"));
    *h2d_ms = host_ms() - t0;
    TRY(ensure_workspace(g, fn, tile, wpt, split));
    const struct timed once = {fn, tile, wpt, split, g->dC, 1, NULL};
    const unsigned keep = g->next_set;
    g->next_set = 0;   /* the set just copied in */
    const char *e = time_events(g, &once, 1, kernel_ms, NULL);
    g->next_set = keep;
    TRY(e);
    t0 = host_ms();
    TRY(ck(g, cudaMemcpyAsync(hC, g->dC, c, cudaMemcpyDeviceToHost, g->stream), "copy C out"));
    TRY(wait_stream(g, "copying C out"));
    *d2h_ms = host_ms() - t0;
    return NULL;
}

const char *gpu_compare(struct gpu *g, int which, struct err_stats *out)
{
    TRY(need_inputs(g, "gpu_compare"));
    const float *C = which ? g->dCref : g->dC;
    const size_t n = (size_t)g->M * g->N;
    struct compare_sums *d = &g->scratch->sums;
    TRY(ck(g, cudaMemsetAsync(d, 0, sizeof *d, g->stream), "cudaMemset(comparison sums)"));
    compare_kernel<<<grid_for(g, n, REDUCE_THREADS), REDUCE_THREADS, 0, g->stream>>>(d, C, g->dR,
                                                                                     n);
    TRY(ck(g, cudaGetLastError(), "launch compare_kernel"));
    struct compare_sums h;
    TRY(ck(g, cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, g->stream),
           "cudaMemcpy(comparison sums, device to host)"));
    TRY(wait_stream(g, "comparing C with the reference"));
    out->sum_sq_diff = h.sum_sq_diff;
    out->sum_sq_ref = h.sum_sq_ref;
    memcpy(&out->max_abs_diff, &h.max_abs_diff_bits, sizeof(double));
    memcpy(&out->max_abs_ref, &h.max_abs_ref_bits, sizeof(double));
    out->nonfinite = h.nonfinite;
    return NULL;
}

const char *gpu_copy_output(struct gpu *g, float *host_C)
{
    TRY(need_inputs(g, "gpu_copy_output"));
    const size_t bytes = (size_t)g->M * g->N * sizeof(float);
    TRY(ck(g, cudaMemcpyAsync(host_C, g->dC, bytes, cudaMemcpyDeviceToHost, g->stream),
           "cudaMemcpy(C, %zu bytes, device to host)", bytes));
    return ck(g, cudaStreamSynchronize(g->stream), "copying C to the host");
}

/* ---- clock and bandwidth ---------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *time_copies(struct gpu *g, void *dst, void *src, size_t bytes, double *ms)
{
    TRY(ck(g, cudaMemsetAsync(src, 0x5A, bytes, g->stream), "cudaMemset(copy source)"));
    TRY(ck(g, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream),
           "cudaMemcpy(warm-up, %zu bytes, device to device)", bytes));
    for (int i = 0; i < TIMED_COPIES; i++) {
        TRY(ck(g, cudaEventRecord(g->start, g->stream), "cudaEventRecord(start)"));
        TRY(ck(g, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream),
               "cudaMemcpy(%zu bytes, device to device)", bytes));
        TRY(ck(g, cudaEventRecord(g->stop, g->stream), "cudaEventRecord(stop)"));
        TRY(ck(g, cudaEventSynchronize(g->stop), "timing a device-to-device copy"));
        float elapsed = 0.0f;
        TRY(ck(g, cudaEventElapsedTime(&elapsed, g->start, g->stop), "cudaEventElapsedTime"));
        ms[i] = elapsed;
    }
    return NULL;
}

const char *gpu_copy_bandwidth_gbs(struct gpu *g, size_t bytes, double *gbs)
{
    if (bytes == 0)
        return fail(g, "gpu_copy_bandwidth_gbs: 0 bytes");
    void *src = NULL, *dst = NULL;
    double ms[TIMED_COPIES];
    const char *err = ck(g, cudaMalloc(&src, bytes), "cudaMalloc(copy source, %zu bytes)", bytes);
    if (!err)
        err = ck(g, cudaMalloc(&dst, bytes), "cudaMalloc(copy destination, %zu bytes)", bytes);
    if (!err)
        err = time_copies(g, dst, src, bytes, ms);
    cudaStreamSynchronize(g->stream);
    const cudaError_t e1 = cudaFree(src), e2 = cudaFree(dst);
    if (!err)
        err = ck(g, e1 != cudaSuccess ? e1 : e2, "cudaFree(copy buffers)");
    if (err) {
        (void)cudaGetLastError();
        return err;
    }
    qsort(ms, TIMED_COPIES, sizeof ms[0], cmp_double);
    const double median = (ms[TIMED_COPIES / 2 - 1] + ms[TIMED_COPIES / 2]) / 2.0;
    if (!(median > 0.0))
        return fail(g, "gpu_copy_bandwidth_gbs: median copy time %g ms", median);
    *gbs = 2.0 * (double)bytes / median / 1e6;
    return NULL;
}
