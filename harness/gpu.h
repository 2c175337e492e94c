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
#include "verify.h"

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

/* Bytes of device memory a shape needs: A, B, C (float), the float64 reference
 * C (and A, B in float64 while it is computed), plus the L2-flush buffer and
 * the fixed buffers below; computed by gpu_bytes_formula. */
size_t gpu_bytes_needed(int M, int N, int K, long long l2_bytes);

/* What gpu_open allocates besides the L2-flush buffer: cuBLAS's workspace (set
 * explicitly, 32 MiB as cuBLAS recommends for Hopper) and a small scratch
 * buffer for reductions and the clock reading. */
#define GPU_BLAS_WORKSPACE_BYTES ((size_t)32 << 20)
#define GPU_SCRATCH_BYTES ((size_t)256)

/* The formula behind gpu_bytes_needed, shared by gpu.cu and gpu_none.c: A, B, C
 * (float), R (double), the double copies of A and B that exist while R is
 * computed, the 2 x L2 flush buffer, and the fixed buffers above. */
static inline size_t gpu_bytes_formula(int M, int N, int K, long long l2_bytes)
{
    const size_t mk = (size_t)M * (size_t)K, kn = (size_t)K * (size_t)N, mn = (size_t)M * (size_t)N;
    return (mk + kn + mn) * sizeof(float) + mn * sizeof(double) + (mk + kn) * sizeof(double) +
           2 * (size_t)l2_bytes + GPU_BLAS_WORKSPACE_BYTES + GPU_SCRATCH_BYTES;
}

/* Make (A, B) of this shape current: copy them to the device and compute the
 * float64 reference C = A*B there (cuBLAS DGEMM on float64 copies of A and B).
 * Reuses the buffers while the shape is unchanged. */
const char *gpu_set_inputs(struct gpu *g, const float *A, const float *B, int M, int N, int K);

/* Fill C with NaN (every byte 0xFF), so unwritten elements fail verification. */
const char *gpu_poison_output(struct gpu *g);

/* Launch one rung on the current inputs; waits for completion and checks errors. */
const char *gpu_run_once(struct gpu *g, gpu_launch_fn fn, int tile, int wpt);

/* One timed sample: flush L2 (memset of 2x its size), then one event pair around
 * exactly one launch.  *ms is the elapsed time of the launch alone. */
const char *gpu_time_once(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, double *ms);

/* The resources of the kernel `fn` would launch on the current inputs (registers,
 * shared and local memory, threads, resident blocks per SM); launches nothing. */
const char *gpu_describe(struct gpu *g, gpu_launch_fn fn, int tile, int wpt,
                         struct kernel_resources *out);

/* Host memory for transfer points: page-locked (cudaMallocHost) or plain malloc. */
const char *gpu_host_alloc(struct gpu *g, void **p, size_t bytes, int pinned);
void gpu_host_free(void *p, int pinned);

/* One sample of the whole trip of seed 002, for the current shape: copy A and B
 * from the host buffers to the device, run the rung as gpu_time_once does, copy C
 * back into hC.  Copies are timed on the host clock around the asynchronous copy
 * and a stream synchronisation (so a pageable copy's staging counts), the kernel
 * by events.  hA and hB must hold the current inputs. */
const char *gpu_time_round_trip(struct gpu *g, gpu_launch_fn fn, int tile, int wpt,
                                const float *hA, const float *hB, float *hC, double *h2d_ms,
                                double *kernel_ms, double *d2h_ms);

/* Compare the current C with the float64 reference on the device. */
const char *gpu_compare(struct gpu *g, struct err_stats *out);

/* Copy C back to the host (M*N floats). */
const char *gpu_copy_output(struct gpu *g, float *host_C);

/* Effective SM clock right now, in MHz: a one-block kernel spins for about
 * 1 ms reading clock64() and %globaltimer; cycles / nanoseconds. */
const char *gpu_sm_clock_mhz(struct gpu *g, double *mhz);

/* Device-to-device copy bandwidth, GB/s counting bytes read plus written
 * (median of several cudaMemcpyAsync of `bytes`). */
const char *gpu_copy_bandwidth_gbs(struct gpu *g, size_t bytes, double *gbs);

#ifdef __cplusplus
}
#endif
#endif
