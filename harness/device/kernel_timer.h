/* The second timer: every kernel's own start and end on the GPU, from CUPTI's
 * activity records (CONCURRENT_KERNEL, and MEMCPY and MEMSET for the copies a
 * launcher queues beside its kernels), beside the event
 * pair that times a sample.  Where the events measure the span between two
 * points of the stream (launch gaps and graph overheads included), these
 * records hold the kernels alone and their names: what cuBLAS chose, and how
 * many kernels a launch made.  Used by gpu.cu only, in CUDA builds.
 *
 * Asking CUPTI for its records (a flush) between two samples added 0.3-0.5 ms
 * to the next sample's events (H100, cuBLAS SGEMM), so records are fetched
 * once a point's samples are taken: a sample notes CUPTI's clock before its
 * first launch and after its last (kernel_timer_now), then
 * kernel_timer_collect fetches every record and kernel_timer_sum gives each
 * sample the kernels that started in its window.  Even so the records cost
 * the kernels they time, and not only while traced: in a process where CUPTI
 * traced once, 801 launches of a kernel of a few microseconds (n = 128) spread
 * by 1-9% where they spread by 0.1% in a process without it (H100); from
 * n = 2048 the events and the records agree within 0.3%.  A run that needs
 * microsecond kernels' event times keeps the timer off.
 *
 * CUPTI hands its records to callbacks that carry no context of ours, so the
 * collector is the process's one instance: one thread may use it at a time. */
#ifndef HARNESS_KERNEL_TIMER_H
#define HARNESS_KERNEL_TIMER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the GPU ran that started in one window. */
struct kernel_times {
    int kernels;              /* kernel records in the window */
    int copies;               /* copy and memset records in the window */
    double total_ms;          /* the sum of all their durations (end - start) */
    double longest_ms;        /* the longest of them */
    char longest[96];         /* its name (mangled as CUPTI gives it, cut to fit) */
};

/* Record the kernels from now on.  NULL, or why not (CUPTI's message). */
const char *kernel_timer_start(void);
/* Stop recording and drop every record; harmless when not started. */
void kernel_timer_stop(void);
/* CUPTI's clock now (ns; the records' time base). */
const char *kernel_timer_now(uint64_t *ns);
/* Fetch every record of the kernels that have finished (the caller has waited
 * for them), in start order.  NULL or why not: CUPTI's failure, records it
 * dropped, or a record without timestamps. */
const char *kernel_timer_collect(void);
/* The collected records that started in [t0, t1]. */
void kernel_timer_sum(uint64_t t0, uint64_t t1, struct kernel_times *out);
/* Drop the collected records (the next collect starts afresh). */
void kernel_timer_clear(void);

#ifdef __cplusplus
}
#endif
#endif
