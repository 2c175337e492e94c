/* The private parts of device/ that gpu.cu (run, time, compare; the kernels
 * the harness launches) and gpu_open.cu (open and close, inputs and reference)
 * share: the struct behind gpu.h's handle and the checked-call helpers. */
#ifndef HARNESS_GPU_PARTS_H
#define HARNESS_GPU_PARTS_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <signal.h>

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

/* Formats "<context>" into g->msg and returns it. */
const char *fail(struct gpu *g, const char *fmt, ...);
/* NULL when e is cudaSuccess, else "<context>: <message> (<name>)" in g->msg
 * (the runtime's last error cleared). */
const char *ck(struct gpu *g, cudaError_t e, const char *fmt, ...);
/* The same for cuBLAS statuses. */
const char *ckb(struct gpu *g, cublasStatus_t s, const char *fmt, ...);
/* Wait for ev by polling, so that an interrupt (g->interrupt) is seen at once. */
const char *wait_event(struct gpu *g, cudaEvent_t ev, const char *what);
/* Everything enqueued on the stream so far has finished. */
const char *wait_stream(struct gpu *g, const char *what);
/* Blocks for n elements of `threads` threads, at most 8 a SM. */
unsigned grid_for(const struct gpu *g, size_t n, unsigned threads);
/* The neutral kernel's preference for the largest L1, set once at open. */
const char *prefer_l1_for_neutral(struct gpu *g);

#define TRY(expr)                       \
    do {                                \
        const char *err_ = (expr);      \
        if (err_)                       \
            return err_;                \
    } while (0)

#endif
