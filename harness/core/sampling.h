/* Measurement: the sampling rule and the statistics of a point's samples.
 *
 * A point is sampled until one rule stops it, and the rule is recorded:
 *   converged    n >= min_samples, total >= min_time, rel. stddev <= target
 *   timeout      n >= min_samples and the point has sampled for timeout_ms
 *   max_samples  n == max_samples
 *   long_point   one sample alone took longer than long_point_ms (host rows
 *                of tens of seconds), so fewer than min_samples were taken
 * Timing itself is the device's (CUDA events around a sample's launches, which
 * rotate over copies of the inputs larger than the L2; see gpu.h) or the host's
 * (CLOCK_MONOTONIC around one call).
 *
 * On the GPU a point is first warmed up until its SM clock settles (below), and
 * a rung with a reference is sampled paired with it, A B B A ..., so that their
 * ratio comes from samples taken side by side at the same clock; "converged"
 * then also needs the ratio's 95% confidence interval within the target. */
#ifndef HARNESS_SAMPLING_H
#define HARNESS_SAMPLING_H

#include <stddef.h>

struct sampling_rule {
    int min_samples;
    int max_samples;
    double min_time_ms;          /* sum of sample times before "converged" may stop */
    double timeout_ms;           /* wall time spent sampling one point */
    double target_rel_stddev;    /* e.g. 0.005 */
    double long_point_ms;        /* a single sample this long stops at once */
    /* GPU only (0 on the host): */
    double min_sample_ms;        /* launches per sample so that one takes at least this
                                    (longer samples also average the clock's steps
                                    under the power cap) */
    double capped_sample_ms;     /* ... or this, when the warm-up ended under the power or
                                    thermal cap (its clock steps every few ms) */
    double shape_warmup_ms;      /* untimed launches before the first point of a shape at
                                    least this long (the GPU idled while its inputs were
                                    made), before every later point of it */
    double warmup_min_ms;        /* at least this long, */
    double warmup_max_ms;        /* and until the clock settles, at most this long; */
    double warmup_window_ms;     /* settled: the mean clock and power of one window of
                                    this length against the window before */
    double parity_timeout_ms;    /* a paired point within PARITY_BAND of its reference
                                    samples on past timeout_ms, up to this, until its
                                    ratio's interval is within the target (<= timeout_ms:
                                    never) */
};

/* "Near parity": a mean ratio to the reference within 10% of 1, where a rung's
 * standing against cuBLAS (ahead, level or behind) hangs on the interval. */
#define PARITY_BAND 0.10

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
/* A sample that is the mean of `launches` launches: its value is ms, but it
 * counts launches * ms towards the rule's min_time_ms. */
void sample_acc_add_launches(struct sample_acc *a, double ms, int launches);

/* After a new sample: should sampling stop, and by which rule?  `elapsed_ms` is
 * the wall time spent sampling this point so far. */
enum stop_rule sampling_should_stop(const struct sampling_rule *r, const struct sample_acc *a,
                                    double elapsed_ms);

/* The 97.5% quantile of Student's t with df degrees of freedom (df >= 1): the
 * factor of a two-sided 95% confidence interval of a mean of df + 1 values. */
double t_quantile_975(int df);

/* Half the width of the 95% confidence interval of the mean of a->n values. */
double sample_ci95(const struct sample_acc *a);

/* Paired sampling: the rule above on the rung's samples, and "converged" only
 * once the paired ratios' (ratio) 95% interval is within target_rel_stddev of
 * their mean; a point near parity (PARITY_BAND) times out at parity_timeout_ms
 * instead of timeout_ms. */
enum stop_rule sampling_should_stop_paired(const struct sampling_rule *r,
                                           const struct sample_acc *a,
                                           const struct sample_acc *ratio, double elapsed_ms);

/* Warm-up: has the clock settled?  The mean SM clock of the newest window and of
 * the one before it (MHz) differ by at most 1% (a boost step is 15 MHz of
 * ~1980); the runner asks the same of power within 2%.  A NaN (no telemetry)
 * never settles: the warm-up then lasts warmup_min_ms only. */
int clock_settled(double previous_mhz, double newest_mhz);

/* Monotonic wall clock in milliseconds. */
double now_ms(void);

#endif
