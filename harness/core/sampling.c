/* The sampling rule and sample statistics: see sampling.h. */
#define _POSIX_C_SOURCE 200809L
#include "sampling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sampling_rule sampling_default_gpu(void)
{
    /* nvbench's rule, scaled to a matrix that must finish in minutes: at least
     * 10 samples and 50 ms of kernel time, stop at 0.5% relative stddev, after
     * 0.5 s of sampling, or at 1000 samples (which keeps every sample storable). */
    return (struct sampling_rule){
        .min_samples = 10,
        .max_samples = 1000,
        .min_time_ms = 50.0,
        .timeout_ms = 500.0,
        .target_rel_stddev = 0.005,
        .long_point_ms = 60000.0,
        /* 5 ms per sample: the event timer's 0.5 us is 0.01% of it; 50 ms
         * under the power cap, to span many of the clock's steps there.
         * Warm-up: 200 ms at least before the first point of a shape (the GPU
         * idled while the inputs were made), 20 ms before the points after
         * it, which find the GPU busy and warm; up to 3 s (CUTLASS's profiling
         * guidance) for the clock to settle, judged over windows of 20 ms. */
        .min_sample_ms = 5.0,
        .capped_sample_ms = 50.0,
        .shape_warmup_ms = 200.0,
        .warmup_min_ms = 20.0,
        .warmup_max_ms = 3000.0,
        .warmup_window_ms = 20.0,
        .parity_timeout_ms = 0.0,
    };
}

struct sampling_rule sampling_default_host(void)
{
    /* At least 3 samples; one sample over 10 s is a point of its own. */
    return (struct sampling_rule){
        .min_samples = 3,
        .max_samples = 1000,
        .min_time_ms = 200.0,
        .timeout_ms = 2000.0,
        .target_rel_stddev = 0.005,
        .long_point_ms = 10000.0,
    };
}

const char *stop_rule_name(enum stop_rule r)
{
    switch (r) {
    case STOP_CONVERGED: return "converged";
    case STOP_TIMEOUT: return "timeout";
    case STOP_MAX_SAMPLES: return "max_samples";
    case STOP_LONG_POINT: return "long_point";
    case STOP_NONE: break;
    }
    return "";
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct sample_stats sample_stats_of(const double *ms, int n)
{
    struct sample_stats s = {.n = n};
    if (n <= 0) return s;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted) abort();
    memcpy(sorted, ms, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);

    double sum = 0;
    for (int i = 0; i < n; i++) sum += ms[i];
    s.mean = sum / n;
    double ss = 0;
    for (int i = 0; i < n; i++) ss += (ms[i] - s.mean) * (ms[i] - s.mean);
    s.stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
    return s;
}

void sample_acc_add(struct sample_acc *a, double ms)
{
    a->n++;
    a->total += ms;
    a->last = ms;
    const double d = ms - a->mean;
    a->mean += d / a->n;
    a->m2 += d * (ms - a->mean);
}

void sample_acc_add_launches(struct sample_acc *a, double ms, int launches)
{
    sample_acc_add(a, ms);
    a->total += ms * (launches - 1);
}

enum stop_rule sampling_should_stop(const struct sampling_rule *r, const struct sample_acc *a,
                                    double elapsed_ms)
{
    const int n = a->n;
    if (n <= 0) return STOP_NONE;
    if (n < r->min_samples && a->last >= r->long_point_ms) return STOP_LONG_POINT;
    if (n >= r->max_samples) return STOP_MAX_SAMPLES;
    if (n < r->min_samples) return STOP_NONE;
    if (a->total >= r->min_time_ms) {
        const double stddev = n > 1 ? sqrt(a->m2 / (n - 1)) : 0.0;
        if (a->mean > 0 && stddev / a->mean <= r->target_rel_stddev) return STOP_CONVERGED;
    }
    if (elapsed_ms >= r->timeout_ms) return STOP_TIMEOUT;
    return STOP_NONE;
}

double t_quantile_975(int df)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
                                 2.228,  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
                                 2.093,  2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
                                 2.048,  2.045, 2.042};
    if (df < 1) return INFINITY;
    if (df <= 30) return t[df - 1];
    return 1.960 + 2.4 / df;   /* within 0.003 of the exact value beyond 30 */
}

double sample_ci95(const struct sample_acc *a)
{
    if (a->n < 2) return INFINITY;
    return t_quantile_975(a->n - 1) * sqrt(a->m2 / (a->n - 1)) / sqrt((double)a->n);
}

enum stop_rule sampling_should_stop_paired(const struct sampling_rule *r,
                                           const struct sample_acc *a,
                                           const struct sample_acc *ratio, double elapsed_ms)
{
    const int near = fabs(ratio->mean - 1.0) <= PARITY_BAND;
    const double timeout = near && r->parity_timeout_ms > r->timeout_ms ? r->parity_timeout_ms
                                                                         : r->timeout_ms;
    struct sampling_rule rr = *r;
    rr.timeout_ms = timeout;
    enum stop_rule s = sampling_should_stop(&rr, a, elapsed_ms);
    if (s != STOP_CONVERGED) return s;
    if (ratio->mean > 0 && sample_ci95(ratio) <= r->target_rel_stddev * ratio->mean) return s;
    return elapsed_ms >= timeout ? STOP_TIMEOUT : STOP_NONE;
}

int clock_settled(double previous_mhz, double newest_mhz)
{
    return isfinite(previous_mhz) && isfinite(newest_mhz) && previous_mhz > 0 &&
           fabs(newest_mhz - previous_mhz) <= 0.01 * previous_mhz;
}

double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
