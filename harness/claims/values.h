/* Values: the numbers and words the paper prints, pulled by key.  The paper
 * names what it wants, \val{KEY} or \valtable{NAME}; `mmladder values` scans the
 * LaTeX sources for those, answers every one from derive.h and claims.h, and
 * fails on a key it cannot answer (naming file:line).  Nothing else reaches the
 * paper: no number in its prose is typed by hand, and no key spells a number
 * but the rung, size or configuration it is about.
 *
 * Keys (ROLE: a run's role, RUNG: a registry name, SHAPE: 4096 or MxNxK,
 * DEVICE: gpu or host, PREC: fp32 or tf32):
 *   ROLE.gpu  ROLE.gpu_model  ROLE.gpu_short  ROLE.date  ROLE.commit  ROLE.cpu
 *                            (gpu_model: the name without "NVIDIA "; gpu_short:
 *                            its first word, "H100")
 *   ROLE.peak_tflops  ROLE.copy_tbs  ROLE.sms  ROLE.clock_mhz  ROLE.l2_mib
 *   ROLE.points  ROLE.passed  ROLE.skipped  ROLE.wall_min  ROLE.wall_s
 *   ROLE.estimated_s         the plan's estimate of its wall time (plan.h)
 *   ROLE.telemetry_refresh_ms  how often NVML's power reading changed, measured
 *                            at the run's start (telemetry.h)
 *   ROLE.file                the results file's name (without its folder)
 *   ROLE.seed                the inputs' seed; ROLE.cc_version: the host
 *                            compiler's version (last word of cc_version)
 *   ROLE.rows.DEVICE         passed ordinary rows on the device
 *   ROLE.stopped.DEVICE.RULE those of them whose sampling stopped by RULE
 *                            (converged, timeout, max_samples, long_point)
 *   ROLE.median_rel_stddev   median over the passed ordinary GPU rows of
 *                            stddev / mean of their samples (%)
 *   ROLE.max_err_pct_tol     the largest error of any passed point (norm-wise or
 *                            element-wise, verify.h) as % of its tolerance
 *   ROLE.max_rel_err.PREC    the largest norm-wise error of a passed row of PREC
 *   ROLE.min_clock.PREC      the lowest SM clock (MHz) read after a passed row
 *                            of PREC (GPU rows)
 *   ROLE.gpu_rule.NAME  ROLE.host_rule.NAME   a parameter of the run's sampling
 *                            rule as its file records it (min_samples,
 *                            max_samples, min_time_ms, timeout_ms,
 *                            long_point_ms), or target_pct (target_rel_stddev
 *                            in %) or long_point_s
 *   ROLE.gflops.RUNG.SHAPE (3 significant digits below 100)
 *   ROLE.tflops.RUNG.SHAPE
 *   ROLE.pct_ref.RUNG.SHAPE  the rung's "% of cuBLAS": the lowest of the
 *                            estimates the run has (estimates_pct_ref), as
 *                            every table and claim prints it
 *   ROLE.pct_ref_paired.RUNG.SHAPE  ROLE.pct_ref_kernel.RUNG.SHAPE
 *   ROLE.pct_ref_alone.RUNG.SHAPE   ROLE.estimates_spread.RUNG.SHAPE
 *                            of the rung's fastest paired row: its paired,
 *                            second timer's and standalone estimates of its %
 *                            of the reference, and the points between the
 *                            highest and the lowest of the three (estimates.h).
 *                            They are printed only together, all three of one
 *                            row in one paragraph or table: one estimate alone
 *                            is never a rung's % of cuBLAS
 *   ROLE.ref_in_pairs.RUNG.SHAPE  the reference's median in those pairs over
 *                            its own row's (3 decimals)
 *   ROLE.clock_in_pairs.RUNG.SHAPE  the SM clock of those pairs over the
 *                            reference's own row's (3 decimals)
 *   ROLE.pct_peak.RUNG.SHAPE  ROLE.step.RUNG.SHAPE     ROLE.config.RUNG.SHAPE
 *   ROLE.rel_stddev.RUNG.SHAPE (%)   ROLE.rel_err.RUNG.SHAPE
 *   ROLE.samples.RUNG.SHAPE  the best row's samples; ROLE.stop.RUNG.SHAPE: its
 *                            stop rule in words ("converged", "timed out",
 *                            "reached the sample limit", ...)
 *   ROLE.clock.RUNG.SHAPE    the SM clock (MHz) read right after the best row
 *   ROLE.intensity.RUNG.SHAPE       the best row's global-load model (derive.h),
 *                                   FLOP/B
 *   ROLE.implied_bw_pct.RUNG.SHAPE  the bandwidth the best row would need if
 *                                   every load of that model came from DRAM, as
 *                                   % of the run's measured copy bandwidth
 *   ROLE.copy_pct.RUNG.SHAPE.MEMORY  a transfer point (MEMORY pinned or
 *                                   pageable): the copies' share of the trip, %
 *   ROLE.waves.RUNG.SHAPE  ROLE.tiles.RUNG.SHAPE  ROLE.k_per_block.RUNG.SHAPE
 *                            the best row's decomposition (derive.h); and its
 *   ROLE.splits.RUNG.SHAPE  ROLE.grid.RUNG.SHAPE  ROLE.blocks_per_sm.RUNG.SHAPE
 *                            k_splits, grid_blocks and blocks_per_sm
 *   ROLE.ratio.RUNG.RUNG.SHAPE  the first rung's best over the second's (two
 *                            decimals below 10, one below 100, then none)
 *   ROLE.largest_step.SHAPE  ROLE.largest_step_rung.SHAPE  (GPU FP32 rungs)
 *   ROLE.smallest_step.SHAPE ROLE.smallest_step_rung.SHAPE
 *   registry.rungs  registry.host_rungs  registry.seed_rungs  registry.past_rungs
 *   registry.last_kernel     the ladder's entries (registry.h) that the runs
 *                            measured: all of them, the host rungs, the GPU
 *                            kernels written as the tutorials write them, the
 *                            hand-written GPU kernels past them (dispatch entries
 *                            and cuBLAS not counted), and the number of the last
 *                            hand-written GPU kernel
 *   registry.number.RUNG     a rung's number in the ladder (its place in the
 *                            registry, as the tables print it)
 *   claim.ID.text  claim.ID.measured  claim.ID.expected  claim.ID.verdict
 *                            (a range of numbers printed with an en dash)
 *   claim.ID.min  claim.ID.max  claim.ID.min_at  claim.ID.max_at (where they
 *                            were measured: the shape, with the rung for values
 *                            over the shape suite)
 *   claim.ID.dev_pct         the largest |value - 1| of a ratio or agreement
 *                            claim, in % ("within 8.0%")
 *   claims.count  claims.predicted  claims.revised  claims.after
 *                            how many claims, and of them how many bands were
 *                            stated before the runs that judge them, moved
 *                            after them (with their records), or stated after
 *                            them (claims_classify; values --history)
 * Tables (rows only; the paper writes the header):
 *   ladder.ROLE-ROLE.SHAPE-SHAPE   per GPU rung: its best configuration, then for
 *                                  each (role, shape) TFLOP/s and its % of
 *                                  cuBLAS (pct_ref: the lowest estimate, at most
 *                                  the ratio of two TFLOP/s cells of the table)
 *   estimates.ROLE-ROLE.RUNG-RUNG.SHAPE-SHAPE
 *                                  per rung, shape and role: the GPU, the rung,
 *                                  the shape, the configuration of its fastest
 *                                  paired row, and that row's estimates of its %
 *                                  of the reference (paired +- half its 95%
 *                                  interval, standalone, second timer) and their
 *                                  spread (estimates.h); the rung's % of cuBLAS
 *                                  is the ladder table's, of the paper runs
 *   host.ROLE-ROLE                 per host shape: host_restrict / host_naive at
 *                                  -O1, -O2, -O3 in each role
 *   hardware.ROLE-ROLE             per property: its value in each role
 *   transfers.ROLE.RUNG            per size: copies in and out (pinned, pageable),
 *                                  the kernel, and the copies' share
 *   shapes.ROLE                    per shape of the suite (derive_suite): its
 *                                  class, then for FP32 and for TF32 the fastest
 *                                  hand-written rung, its % of the reference, the
 *                                  waves of its grid, the K per block, and the
 *                                  dispatch row's % of the reference
 *   claims.revisions               per claim whose band moved after its runs
 *                                  (claims_classify): its id, the band before and
 *                                  now, when, and why
 *   claims.host                    per claim over host rows (claims_on_host), in
 *                                  the claims file's order: its id, measured
 *                                  range, bounds, and where it holds
 *                                  (claims_holds_on: any x86-64 core, or the
 *                                  reference machines' CPUs)
 *   corpus.ROLE                    per precision and corpus class, then all of
 *                                  them (derive_corpus_summary): the shapes, the
 *                                  fastest rung's geometric mean and lowest % of
 *                                  cuBLAS, the dispatch row's, and the % of
 *                                  shapes where the fastest reaches 90% */
#ifndef HARNESS_VALUES_H
#define HARNESS_VALUES_H

#include <stddef.h>

#include "check.h"
#include "views/views.h"

/* The value of one key as LaTeX text, into out.  0, or -1 with why. */
int values_key(const char *key, const struct run *runs, size_t nruns, const struct claims *cs,
               const struct claim_result *rs, char *out, size_t outlen, char *why, size_t whylen);

/* Scan `tex` files for \val{...} and \valtable{...} (outside comments, and not
 * a macro's own \val{#1}); write every value to
 * OUT (\valdef{KEY}{TEXT} lines) and every table to TABLEDIR/table-NAME.tex.
 * 0, or -1 with err naming the first key it could not answer (file:line).  OUT
 * and the tables are never files values_write did not write (their first
 * line says so): an existing other file, or one of the sources, is refused
 * and left as it was.  On -1 nothing it wrote is left: OUT and every table of
 * this call are removed. */
int values_write(const char *const *tex, size_t ntex, const char *out, const char *tabledir,
                 const struct run *runs, size_t nruns, const struct claims *cs,
                 const struct claim_result *rs, char *err, size_t errlen);

#endif
