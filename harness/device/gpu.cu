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

#include "dispatch.h"
#include "gpu.h"
#include "kernel_timer.h"
#include "gpu_parts.h"

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
const char *fail(struct gpu *g, const char *fmt, ...)
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
const char *ck(struct gpu *g, cudaError_t e, const char *fmt, ...)
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
const char *ckb(struct gpu *g, cublasStatus_t s, const char *fmt, ...)
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
const char *wait_event(struct gpu *g, cudaEvent_t ev, const char *what)
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
const char *wait_stream(struct gpu *g, const char *what)
{
    const char *e = ck(g, cudaEventRecord(g->done, g->stream), "cudaEventRecord(%s)", what);
    return e ? e : wait_event(g, g->done, what);
}

/* ---- kernels --------------------------------------------------------------- */
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

unsigned grid_for(const struct gpu *g, size_t n, unsigned threads)
{
    size_t blocks = (n + threads - 1) / threads;
    const size_t cap = (size_t)g->sm_count * 8;
    if (blocks > cap)
        blocks = cap;
    return blocks ? (unsigned)blocks : 1u;
}

/* The neutral kernel's preference for the largest L1, set once at open. */
const char *prefer_l1_for_neutral(struct gpu *g)
{
    return ck(g, cudaFuncSetAttribute(neutral_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                      (int)cudaSharedmemCarveoutMaxL1),
              "cudaFuncSetAttribute(neutral kernel, carveout: largest L1)");
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

const char *gpu_dispatch_candidates(struct gpu *g, int tf32, int M, int N, int K,
                                    struct dispatch_choice *out, int cap, int *count, int *pick)
{
    const char *m = dispatch_candidates(tf32, M, N, K, out, cap, count, pick);
    return m ? fail(g, "the %s dispatch's candidates at %dx%dx%d: %s", tf32 ? "TF32" : "FP32", M,
                    N, K, m)
             : NULL;
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
