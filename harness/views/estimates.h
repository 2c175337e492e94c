/* Estimates: the three measures of one rung's % of its reference (cuBLAS at
 * the same precision) at one shape and configuration, from a run's rows:
 *
 *   paired    the mean of the paired samples' ratios (reference / rung), each
 *             pair taken side by side at one clock (the row's ref_ratio);
 *   kernel    the same pairs timed by the second timer: the kernels' own
 *             durations (CUPTI), no launch gap or event placement in them
 *             (the row's kernel_ratio; NaN where the timer was off);
 *   alone     the reference's own row over the rung's own row, each sampled
 *             alone: the rung's row of `pairing = none` with the same
 *             configuration where the run has one, else the rung's samples in
 *             the pairs (then `alone_kind` says so: it is the reference alone
 *             against the rung beside it).
 *
 * They differ where pairing changes what each kernel meets: the state the
 * launch before leaves the SMs in (harness/device/gpu.cu: the neutral launch), the
 * clock both share under the power cap where alone each finds its own, the
 * launch gaps of microsecond kernels.  The spread is the largest difference
 * between any two of them, in points. */
#ifndef HARNESS_ESTIMATES_H
#define HARNESS_ESTIMATES_H

#include <stdio.h>

#include "derive.h"

struct estimates {
    double paired, paired_ci95;    /* % of the reference, and half its interval */
    double kernel;                 /* % (NaN: no second timer) */
    double alone;                  /* % (NaN: no row of the reference alone) */
    int alone_rows;                /* 1: both rows alone; 0: the rung's pairs */
    double spread;                 /* points between the highest and the lowest */
    double lowest;                 /* the lowest: the one that flatters the rung least */
    double ref_in_pairs;           /* the reference's median in the pairs over its own
                                      row's (1: pairing did not change it; NaN: no row) */
    double clock_in_pairs;         /* the SM clock the pairs ran at (probe_mhz_mean) over
                                      the reference's own row's: under the power cap a pair
                                      shares one clock where alone each finds its own */
    const struct result_row *ref_row, *alone_row;   /* NULL where the run has none */
};

/* The estimates of a paired row of run r (pairs > 1); every value NaN for
 * another row. */
void estimates_of(const struct run *r, const struct result_row *row, struct estimates *out);

/* The rung's paired row of highest GFLOP/s at shape s (NULL: none). */
const struct result_row *estimates_best_paired(const struct run *r, const struct variant *v,
                                               struct shape s);

/* One estimate of the fastest paired row of v at s (estimates_best_paired),
 * or the lowest of the three that the run has (the one that flatters the rung
 * least), their spread, its ref_in_pairs or clock_in_pairs; NaN where the run
 * has none. */
enum estimate_kind {
    EST_PAIRED, EST_KERNEL, EST_ALONE, EST_LOWEST, EST_SPREAD, EST_REF_IN_PAIRS, EST_CLOCK_IN_PAIRS
};
double estimates_at(const struct run *r, const struct variant *v, struct shape s,
                    enum estimate_kind kind);

/* A rung's "% of cuBLAS" wherever the project prints one (tables, figures,
 * claims, the paper, the README): the lowest of every estimate the run has of
 * it at s, the one that flatters the rung least.  They are the three of its
 * fastest paired row (estimates_of) and the ratio of the rung's best row to the
 * reference's best row at s (each row's median, timed by events); a run
 * without pairs has the ratio alone.  NaN without the rung or the reference. */
double estimates_pct_ref(const struct run *r, const struct variant *v, struct shape s);

/* The same for one row against its reference's row (the corpora's points,
 * whose best row is any configuration): the lowest of the rows' ratio, the
 * row's own estimates when it was paired with that reference (estimates_of),
 * and the second timer's ratio of the two rows when both have one. */
double estimates_pct_of_row(const struct run *r, const struct result_row *row,
                            const struct result_row *ref_row);

/* `mmladder table estimates FILE`: one line per paired row, with the times each
 * estimate is made of, so that a reader can recompute alone and see why paired
 * is a mean of ratios (not a ratio of medians). */
void estimates_view(FILE *out, const struct run *r);

#endif
