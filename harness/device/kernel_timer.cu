/* The second timer, from CUPTI's kernel activity records: see kernel_timer.h. */
#include <cupti.h>

#include <algorithm>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_timer.h"

enum { BUFFER_BYTES = 8 << 20, RECORD_ALIGN = 8 };

struct record {
    uint64_t start, end;
    const char *name;             /* a kernel's, CUPTI's own string; NULL for a copy or a memset */
};

/* The activity kinds recorded: the kernels, and the copies and memsets a
 * launcher queues on the GPU beside them (rung 14 pads an operand with a
 * device-to-device copy; that copy is part of what its events time). */
static const CUpti_ActivityKind recorded[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                              CUPTI_ACTIVITY_KIND_MEMCPY,
                                              CUPTI_ACTIVITY_KIND_MEMSET};

/* The one collector (CUPTI's callbacks carry no context): the records that
 * buffer_done appends, which CUPTI calls from its own thread when a buffer
 * fills, or from inside cuptiActivityFlushAll. */
static struct {
    std::mutex mu;
    int started, registered;      /* the callbacks are CUPTI's for the process's life */
    struct record *recs;
    size_t n, cap;
    int untimed, out_of_memory;   /* records without timestamps; records lost to malloc */
    char msg[256];
} collector;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = (uint8_t *)aligned_alloc(RECORD_ALIGN, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;   /* as many as fit */
}

static void CUPTIAPI buffer_done(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t valid)
{
    std::lock_guard<std::mutex> lock(collector.mu);
    CUpti_Activity *rec = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        struct record r;
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
            r = {k->start, k->end, k->name ? k->name : ""};
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const CUpti_ActivityMemcpy6 *c = (const CUpti_ActivityMemcpy6 *)rec;
            r = {c->start, c->end, NULL};
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
            r = {m->start, m->end, NULL};
        } else {
            continue;
        }
        if (r.start == 0 || r.end < r.start) {
            collector.untimed++;
            continue;
        }
        if (collector.n == collector.cap) {
            const size_t cap = collector.cap ? 2 * collector.cap : 4096;
            struct record *p = (struct record *)realloc(collector.recs, cap * sizeof *p);
            if (!p) {
                collector.out_of_memory++;
                continue;
            }
            collector.recs = p;
            collector.cap = cap;
        }
        collector.recs[collector.n++] = r;
    }
    free(buffer);
}

static const char *cupti_fail(CUptiResult r, const char *call)
{
    const char *m = NULL;
    if (cuptiGetResultString(r, &m) != CUPTI_SUCCESS || !m) m = "unknown CUPTI error";
    snprintf(collector.msg, sizeof collector.msg, "%s: %s (%d)", call, m, (int)r);
    return collector.msg;
}

#define CUPTI_TRY(call)                                        \
    do {                                                       \
        const CUptiResult r_ = (call);                         \
        if (r_ != CUPTI_SUCCESS) return cupti_fail(r_, #call); \
    } while (0)

const char *kernel_timer_start(void)
{
    if (collector.started) return "the kernel timer is already started in this process";
    if (!collector.registered)
        CUPTI_TRY(cuptiActivityRegisterCallbacks(buffer_requested, buffer_done));
    collector.registered = 1;
    for (CUpti_ActivityKind kind : recorded) {
        const CUptiResult r = cuptiActivityEnable(kind);
        if (r != CUPTI_SUCCESS) {
            for (CUpti_ActivityKind k : recorded) cuptiActivityDisable(k);
            return cupti_fail(r, "cuptiActivityEnable");
        }
    }
    collector.started = 1;
    return NULL;
}

void kernel_timer_stop(void)
{
    if (!collector.started) return;
    for (CUpti_ActivityKind kind : recorded) cuptiActivityDisable(kind);
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    kernel_timer_clear();
    std::lock_guard<std::mutex> lock(collector.mu);
    free(collector.recs);
    collector.recs = NULL;
    collector.cap = 0;
    collector.started = 0;
}

const char *kernel_timer_now(uint64_t *ns)
{
    CUPTI_TRY(cuptiGetTimestamp(ns));
    return NULL;
}

const char *kernel_timer_collect(void)
{
    if (!collector.started) return "the kernel timer is not started";
    CUPTI_TRY(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    size_t dropped = 0;
    CUPTI_TRY(cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped));
    std::lock_guard<std::mutex> lock(collector.mu);
    if (dropped || collector.out_of_memory || collector.untimed) {
        snprintf(collector.msg, sizeof collector.msg,
                 "CUPTI lost kernel records: %zu dropped (its buffers were full), %d without "
                 "timestamps, %d for want of host memory", dropped, collector.untimed,
                 collector.out_of_memory);
        return collector.msg;
    }
    std::sort(collector.recs, collector.recs + collector.n,
              [](const struct record &a, const struct record &b) { return a.start < b.start; });
    return NULL;
}

void kernel_timer_sum(uint64_t t0, uint64_t t1, struct kernel_times *out)
{
    std::lock_guard<std::mutex> lock(collector.mu);
    *out = (struct kernel_times){0};
    const struct record *begin = collector.recs, *end = collector.recs + collector.n;
    const struct record *r = std::lower_bound(
        begin, end, t0, [](const struct record &a, uint64_t t) { return a.start < t; });
    for (; r < end && r->start <= t1; r++) {
        const double ms = (double)(r->end - r->start) * 1e-6;
        out->total_ms += ms;
        if (!r->name) {
            out->copies++;
            continue;
        }
        out->kernels++;
        if (ms > out->longest_ms) {
            out->longest_ms = ms;
            snprintf(out->longest, sizeof out->longest, "%s", r->name);
        }
    }
}

void kernel_timer_clear(void)
{
    std::lock_guard<std::mutex> lock(collector.mu);
    collector.n = 0;
    collector.untimed = collector.out_of_memory = 0;
}
