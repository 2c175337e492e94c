/* Values: the numbers and words the paper prints, pulled by key.  The paper
 * names what it wants, \val{KEY} or \valtable{NAME}; `mmladder values` scans the
 * LaTeX sources for those, answers every one from derive.h and claims.h, and
 * fails on a key it cannot answer (naming file:line).  Nothing else reaches the
 * paper: no number in its prose is typed by hand, and no key spells a number
 * but the rung, size or configuration it is about.
 *
 * Keys (ROLE: a run's role, RUNG: a registry name, SHAPE: 4096 or MxNxK):
 *   ROLE.gpu  ROLE.gpu_model  ROLE.date  ROLE.commit  ROLE.cpu
 *   ROLE.peak_tflops  ROLE.copy_tbs  ROLE.sms  ROLE.clock_mhz  ROLE.l2_mib
 *   ROLE.points  ROLE.passed  ROLE.skipped  ROLE.wall_min
 *   ROLE.gflops.RUNG.SHAPE    ROLE.tflops.RUNG.SHAPE   ROLE.pct_ref.RUNG.SHAPE
 *   ROLE.pct_peak.RUNG.SHAPE  ROLE.step.RUNG.SHAPE     ROLE.config.RUNG.SHAPE
 *   ROLE.rel_stddev.RUNG.SHAPE (%)   ROLE.rel_err.RUNG.SHAPE
 *   ROLE.ratio.RUNG.RUNG.SHAPE
 *   ROLE.largest_step.SHAPE  ROLE.largest_step_rung.SHAPE  (GPU FP32 rungs)
 *   ROLE.smallest_step.SHAPE ROLE.smallest_step_rung.SHAPE
 *   claim.ID.text  claim.ID.measured  claim.ID.expected  claim.ID.verdict
 *   claim.ID.min  claim.ID.max
 * Tables (rows only; the paper writes the header):
 *   ladder.ROLE-ROLE.SHAPE-SHAPE   per GPU rung: its best configuration, then for
 *                                  each (role, shape) TFLOP/s and % of its reference
 *   host.ROLE-ROLE                 per host shape: host_restrict / host_naive at
 *                                  -O1, -O2, -O3 in each role
 *   hardware.ROLE-ROLE             per property: its value in each role
 *   transfers.ROLE.RUNG            per size: copies in and out (pinned, pageable),
 *                                  the kernel, and the copies' share */
#ifndef HARNESS_VALUES_H
#define HARNESS_VALUES_H

#include <stddef.h>

#include "claims.h"
#include "derive.h"

/* The value of one key as LaTeX text, into out.  0, or -1 with why. */
int values_key(const char *key, const struct run *runs, size_t nruns, const struct claims *cs,
               const struct claim_result *rs, char *out, size_t outlen, char *why, size_t whylen);

/* Scan `tex` files for \val{...} and \valtable{...}; write every value to
 * OUT (\valdef{KEY}{TEXT} lines) and every table to TABLEDIR/table-NAME.tex.
 * 0, or -1 with err naming the first key it could not answer (file:line). */
int values_write(const char *const *tex, size_t ntex, const char *out, const char *tabledir,
                 const struct run *runs, size_t nruns, const struct claims *cs,
                 const struct claim_result *rs, char *err, size_t errlen);

#endif
