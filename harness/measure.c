/* The sampling rule and sample statistics: see measure.h. */
#define _POSIX_C_SOURCE 200809L
#include "measure.h"

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

double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
