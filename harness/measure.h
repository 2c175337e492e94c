/* Measurement: the sampling rule and the statistics of a point's samples.
 *
 * A point is sampled until one rule stops it, and the rule is recorded:
 *   converged    n >= min_samples, total >= min_time, rel. stddev <= target
 *   timeout      n >= min_samples and the point has sampled for timeout_ms
 *   max_samples  n == max_samples
 *   long_point   one sample alone took longer than long_point_ms (host rows
 *                of tens of seconds), so fewer than min_samples were taken
 * Timing itself is the device's (CUDA events around one launch, after an L2
 * flush; see gpu.h) or the host's (CLOCK_MONOTONIC around one call). */
#ifndef HARNESS_MEASURE_H
#define HARNESS_MEASURE_H

#include <stddef.h>

struct sampling_rule {
    int min_samples;
    int max_samples;
    double min_time_ms;          /* sum of sample times before "converged" may stop */
    double timeout_ms;           /* wall time spent sampling one point */
    double target_rel_stddev;    /* e.g. 0.005 */
    double long_point_ms;        /* a single sample this long stops at once */
};

struct sampling_rule sampling_default_gpu(void);
struct sampling_rule sampling_default_host(void);

enum stop_rule { STOP_NONE = 0, STOP_CONVERGED, STOP_TIMEOUT, STOP_MAX_SAMPLES, STOP_LONG_POINT };
const char *stop_rule_name(enum stop_rule r);

struct sample_stats {
    int n;
    double min, median, mean, max, stddev;   /* ms; stddev is the sample stddev (n-1) */
};

/* Statistics of n samples (ms).  Does not reorder `ms`. */
struct sample_stats sample_stats_of(const double *ms, int n);

/* The running count, sum, mean and spread of a point's samples (Welford's
 * update), so that the rule costs the same at the 100 000th sample as at the
 * first. */
struct sample_acc {
    int n;
    double total, mean, m2;   /* m2: sum of squared deviations from the mean */
    double last;              /* the newest sample */
};
void sample_acc_add(struct sample_acc *a, double ms);

/* After a new sample: should sampling stop, and by which rule?  `elapsed_ms` is
 * the wall time spent sampling this point so far. */
enum stop_rule sampling_should_stop(const struct sampling_rule *r, const struct sample_acc *a,
                                    double elapsed_ms);

/* Monotonic wall clock in milliseconds. */
double now_ms(void);

#endif
