/* The GPU's timed samples of one point, for the runner: the warm-up until the
 * SM clock and the power have settled, then samples under the sampling rule,
 * paired with the reference where the rung has one, each timed by the events
 * and (when switched on) by the second timer, each followed by a reading of the
 * SM clock as the SMs count it.
 *
 * Settled (core/sampling.h: clock_settled): the mean SM clock of one window, read by
 * gpu_sm_clock_mhz after each warm-up sample, within 1% of the window before;
 * and where the power comes near the GPU's limit (where the cap can move the
 * clock), the mean power within 2% too (NVML's instant power where the driver
 * gives it, else its average), over windows no shorter than the period at
 * which the telemetry's power reading changes, measured at the start of the
 * run (gpu_sampling_measure_refresh), so that two windows never compare one
 * value with itself.  The first window is compared with the one before the
 * warm-up, the previous point's tail.  No warm-up of a row sampled alone
 * ends before the power reading has changed since it began (a reading that
 * can show the new load: whether it comes near the cap is judged from that
 * reading on); a paired row's kernels share what the cap does meanwhile. */
#ifndef HARNESS_GPU_SAMPLING_H
#define HARNESS_GPU_SAMPLING_H

#include <signal.h>

#include "device/device.h"
#include "core/core.h"
#include "plan.h"
#include "results/results.h"

enum { GPU_CLOCK_LOG = 256 };   /* the clock readings kept for the windows */

/* A point's sample records, grown on demand (never shrunk), and the second
 * timer's windows of the rung's and the reference's sample of each. */
struct sample_rows {
    struct sample_row *sr;
    struct gpu_kernels *ka, *kb;
    int cap;
};
/* Room for `need` records: 0, or -1 (out of memory; the old ones stay). */
int sample_rows_reserve(struct sample_rows *s, int need);
/* The statistics of one column of n records (the double at `offset` of each),
 * NaN values left out; n = 0 when none is finite or memory ran out. */
struct sample_stats sample_rows_stats(const struct sample_row *sr, int n, size_t offset);

struct gpu_sampler {
    struct gpu *g;
    struct telemetry *tm;                  /* NULL: no telemetry */
    volatile sig_atomic_t *interrupted;
    double t_start;                        /* now_ms() when the run began */
    double window_floor_ms;                /* the telemetry's refresh period (0: unknown) */
    int instant;                           /* the telemetry has the instant power */
    int kernel_timer;                      /* the second timer is on */
    int shape_warm;                        /* the shape has had its first warm-up; the
                                              runner clears it at each new shape */
    /* The newest SM clock readings, oldest overwritten. */
    double clock_t[GPU_CLOCK_LOG], clock_mhz[GPU_CLOCK_LOG];
    int clocks;
};

/* At the start of a run: keep the GPU busy for `ms` while the telemetry reads,
 * and set s->window_floor_ms and s->instant from what changed.  *refresh_ms and
 * *instant_refresh_ms: the measured periods (NaN when not measurable). */
const char *gpu_sampling_measure_refresh(struct gpu_sampler *s, double ms, double *refresh_ms,
                                         double *instant_refresh_ms);

/* Sample a point whose inputs stay on the device (gpu_set_inputs, a verified
 * gpu_run_once): the timing prepared, the warm-up, then samples until the rule
 * stops them, into rows->sr[0 .. *n); the row gets the timing, warm-up,
 * pairing, second-timer and telemetry columns.  NULL, or the error
 * ("interrupted" when it was). */
const char *gpu_sample_point(struct gpu_sampler *s, const struct sampling_rule *rule,
                             const struct point *pt, struct result_row *row,
                             struct sample_rows *rows, int *n, enum stop_rule *stop);

/* The NVML clock, power and clock-event reasons over [t0, t1] (now_ms()) into
 * a sample's record, with its time; NaN and 0 without telemetry. */
void gpu_sample_telemetry(const struct gpu_sampler *s, double t0, double t1, struct sample_row *out);

/* The row's telemetry over its samples [t0, now]: clock, power, temperature,
 * the reasons seen, and the samples during which power or heat held the clock. */
void gpu_row_telemetry(const struct gpu_sampler *s, const struct sample_row *sr, int n, double t0,
                       struct result_row *row);

#endif
