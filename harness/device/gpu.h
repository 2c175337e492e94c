/* Device services for the harness: what the run, verify and measure stages
 * need from the GPU, behind plain C.  Implemented in gpu.cu (nvcc builds) and
 * gpu_none.c (host-only builds, where gpu_open always reports "no GPU").
 *
 * Every function returns NULL on success or a static/contextual error string;
 * every CUDA call and every launch inside is checked. */
#ifndef HARNESS_GPU_H
#define HARNESS_GPU_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "matmul.h"
#include "core/core.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpu_info {
    char name[128];
    int cc_major, cc_minor;
    int sm_count;
    int max_clock_mhz;            /* cudaDevAttrClockRate */
    int mem_clock_mhz;            /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;             /* cudaDevAttrGlobalMemoryBusWidth */
    double mem_bandwidth_gbs;     /* 2 * mem clock * bus width / 8: the datasheet figure */
    double fp32_peak_gflops;      /* SMs * FP32 lanes per SM * 2 * max clock */
    int fp32_lanes_per_sm;
    long long l2_bytes;
    long long global_mem_bytes;
    int max_threads_per_block;
    long long smem_per_block_optin;
    int driver_version, runtime_version;   /* e.g. 13000 */
    char nvcc_version[32];                  /* of the compiler that built gpu.cu */
    char uuid[48];                /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi */
    char pci_bus_id[32];          /* "0000:18:00.0" (cudaDeviceGetPCIBusId) */
};

struct gpu;  /* opaque: device, stream, events, cuBLAS handle, buffers */

/* What gpu_open says on a machine without an NVIDIA GPU or its driver. */
#define NO_GPU_MESSAGE "no NVIDIA GPU or driver found"

/* Open device 0.  On failure *g is NULL and the message says why (NO_GPU_MESSAGE,
 * or the runtime's error when a GPU is there but unusable). */
const char *gpu_open(struct gpu **g, struct gpu_info *info);
void gpu_close(struct gpu *g);

/* Waits for the device poll *stop and give up when it is set (the message then
 * ends in "interrupted"); NULL: never. */
void gpu_set_interrupt(struct gpu *g, volatile sig_atomic_t *stop);

/* Free and total device memory in bytes, now. */
const char *gpu_mem_info(struct gpu *g, size_t *free_bytes, size_t *total_bytes);

/* Bytes of device memory a shape needs: its input sets, C and the reference's
 * output (float), the float64 reference C (and A, B in float64 while it is
 * computed) and the fixed buffers below; computed by gpu_bytes_formula. */
size_t gpu_bytes_needed(int M, int N, int K, long long l2_bytes);

/* What gpu_open allocates: cuBLAS's workspace (set explicitly, 32 MiB as cuBLAS
 * recommends for Hopper; stream capture needs it set) and a small scratch
 * buffer for reductions.  The rungs' own workspace (split-K partial sums,
 * stream-K tile counters; matmul.h) is allocated as a point asks for it, at
 * most GPU_WORKSPACE_MAX_BYTES. */
#define GPU_BLAS_WORKSPACE_BYTES ((size_t)32 << 20)
#define GPU_SCRATCH_BYTES ((size_t)256)
#define GPU_MAX_INPUT_SETS 1024

/* Bytes of one copy of A or B, each starting on a 256-byte boundary as
 * cudaMalloc's would (the vectorised and TMA rungs need 16). */
static inline size_t gpu_matrix_stride(size_t floats)
{
    return (floats * sizeof(float) + 255) / 256 * 256;
}

/* The copies of (A, B) timed launches rotate over: enough that between two
 * launches on one copy the others have read at least twice the L2, so no launch
 * finds its inputs there (what a memset flush did, without the memset in the
 * stream); at most GPU_MAX_INPUT_SETS (inputs under ~100 KiB then cover less). */
static inline int gpu_input_sets(int M, int N, int K, long long l2_bytes)
{
    const size_t set = gpu_matrix_stride((size_t)M * K) + gpu_matrix_stride((size_t)K * N);
    const size_t others = (2 * (size_t)(l2_bytes > 0 ? l2_bytes : 0) + set - 1) / set;
    return others + 1 > GPU_MAX_INPUT_SETS ? GPU_MAX_INPUT_SETS : (int)others + 1;
}

/* The formula behind gpu_bytes_needed, shared by gpu.cu and gpu_none.c. */
static inline size_t gpu_bytes_formula(int M, int N, int K, long long l2_bytes)
{
    const size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    const size_t set = gpu_matrix_stride(mk) + gpu_matrix_stride(kn);
    return set * (size_t)gpu_input_sets(M, N, K, l2_bytes) + 2 * mn * sizeof(float) +
           mn * sizeof(double) + (mk + kn) * sizeof(double) + GPU_BLAS_WORKSPACE_BYTES +
           GPU_SCRATCH_BYTES + GPU_WORKSPACE_MAX_BYTES;
}

/* Make (A, B) of this shape current: copy them to the device and compute the
 * float64 reference C = A*B there (cuBLAS DGEMM on float64 copies of A and B).
 * Reuses the buffers while the shape is unchanged. */
const char *gpu_set_inputs(struct gpu *g, const float *A, const float *B, int M, int N, int K);

/* Fill C with NaN (every byte 0xFF), so unwritten elements fail verification. */
const char *gpu_poison_output(struct gpu *g);

/* Launch one rung on the current inputs, configuration (tile, wpt, split),
 * with the workspace it asks for (allocated here, zeroed first); waits for
 * completion and checks errors. */
const char *gpu_run_once(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split);

/* How a point's samples are taken (gpu_timing_prepare). */
struct gpu_timing {
    char method[12];     /* "graph": one CUDA graph of `launches` launches per sample;
                            "launch": that many launches enqueued one by one */
    int launches;        /* per sample; the sample's time is their total / launches */
    int input_sets;      /* copies of (A, B) the launches rotate over (gpu_input_sets) */
};

/* Prepare the samples of fn (and of `ref`, the reference, into an output of its
 * own, when ref is not NULL): launches per sample, counted for each of the two
 * on its own, so that a sample takes at least min_sample_ms (from single
 * launches timed here; the event timer's 0.5 us is then at most 0.5 us /
 * min_sample_ms of it), a whole number of rotations over the input sets,
 * captured as a CUDA graph where capture works.  Launching one at a time when
 * one launch alone takes min_sample_ms.  `launches` is the rung's count. */
const char *gpu_timing_prepare(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                               gpu_launch_fn ref, double min_sample_ms, struct gpu_timing *out);
/* Switch on the second timer (kernel_timer.h: CUPTI's records of each kernel's
 * own start and end, and what they cost the event times) for every later
 * sample.  NULL, or why it cannot be. */
const char *gpu_kernel_timer_on(struct gpu *g);

/* What the second timer saw of one sample.  gpu_timing_sample notes the
 * window while the timer is on; gpu_kernels_resolve, once the samples are
 * taken, fills in the rest. */
struct gpu_kernels {
    uint64_t t0, t1;              /* the sample's window on CUPTI's clock */
    int launches;
    double ms;                    /* the kernels' and copies' own durations summed, per launch */
    double per_launch;            /* kernels per launch (a split-K rung makes two) */
    double copies_per_launch;     /* copies and memsets per launch (rung 14 pads by a copy) */
    char name[96];                /* the longest kernel's name */
};

/* One sample of the prepared launches: of fn (which = 0) or of the reference
 * (which = 1); *ms is one event pair's elapsed time divided by the launches, and
 * *k (when not NULL) what the second timer saw.  Every sample, warm-up ones
 * too, begins after a neutral launch outside its events (a kernel of no work
 * that prefers the largest L1): no sample inherits the state of the SMs that
 * the launch before it left (the configuration of their L1 and shared memory;
 * see data/README.md, "Pairing"). */
const char *gpu_timing_sample(struct gpu *g, int which, double *ms, struct gpu_kernels *k);
/* The second timer's records of n samples' windows, the rung's (a) and the
 * reference's (b, NULL when not paired), all of them finished: fetched at once
 * and summed into each; every record is then dropped.  A sample whose window
 * holds fewer kernels than launches is an error. */
const char *gpu_kernels_resolve(struct gpu *g, struct gpu_kernels *a, struct gpu_kernels *b, int n);

/* After sampling: fill the output of fn (which = 0) or of the reference (1)
 * with NaN and launch it once more from its workspace as the samples left it,
 * then wait, so that gpu_compare judges a launch that could not find an earlier
 * launch's result in C. */
const char *gpu_rerun_poisoned(struct gpu *g, int which);
/* Free the graphs of the last gpu_timing_prepare (gpu_set_inputs and gpu_close
 * do it too). */
void gpu_timing_release(struct gpu *g);

/* The SM clock now, as the SMs count it: a kernel of one warp per SM reads
 * each SM's cycle counter over 20 us of the GPU's global timer (%globaltimer),
 * so the reading is the clock of that moment, not a value the driver refreshed
 * some time before.  MHz, the mean over the SMs. */
const char *gpu_sm_clock_mhz(struct gpu *g, double *mhz);

/* Keep every SM busy for about `ms` (a kernel spinning on the global timer);
 * for the telemetry's refresh, measured while the GPU works. */
const char *gpu_spin(struct gpu *g, double ms);

/* The PCI bus id of the device ("00000000:1B:00.0"), for NVML. */
const char *gpu_pci_bus_id(struct gpu *g, char *buf, size_t len);

/* The resources of the kernel `fn` would launch on the current inputs (registers,
 * shared and local memory, threads, resident blocks per SM, grid, parts of K,
 * workspace); launches nothing. */
const char *gpu_describe(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                         struct kernel_resources *out);

/* The candidates the dispatch of this precision (tf32: the TF32 row) weighs at
 * M x N x K on this GPU, each with its plan and predicted time, and the pick
 * (kernels/dispatch.h's dispatch_candidates, which this calls); needs no
 * inputs. */
struct dispatch_choice;
const char *gpu_dispatch_candidates(struct gpu *g, int tf32, int M, int N, int K,
                                    struct dispatch_choice *out, int cap, int *count, int *pick);

/* Host memory for transfer points: page-locked (cudaMallocHost) or plain malloc. */
const char *gpu_host_alloc(struct gpu *g, void **p, size_t bytes, int pinned);
void gpu_host_free(void *p, int pinned);

/* One sample of the whole trip of seed 002, for the current shape: copy A and B
 * from the host buffers to the device, run the rung once on them (timed by an
 * event pair), copy C back into hC.  Copies are timed on the host clock around
 * the asynchronous copy and a stream synchronisation (so a pageable copy's
 * staging counts).  hA and hB must hold the current inputs. */
const char *gpu_time_round_trip(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                                const float *hA, const float *hB, float *hC, double *h2d_ms,
                                double *kernel_ms, double *d2h_ms);

/* Compare the current C (which = 0), or the reference's output of the timed
 * samples (which = 1), with the float64 reference on the device. */
const char *gpu_compare(struct gpu *g, int which, struct err_stats *out);

/* Copy C back to the host (M*N floats). */
const char *gpu_copy_output(struct gpu *g, float *host_C);

/* Device-to-device copy bandwidth, GB/s counting bytes read plus written
 * (median of several cudaMemcpyAsync of `bytes`). */
const char *gpu_copy_bandwidth_gbs(struct gpu *g, size_t bytes, double *gbs);

#ifdef __cplusplus
}
#endif
#endif
