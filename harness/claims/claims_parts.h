/* The private parts of claims/ that the reading of a claims file (claims.c)
 * and the evaluation of its claims (claims_eval.c) share. */
#ifndef HARNESS_CLAIMS_PARTS_H
#define HARNESS_CLAIMS_PARTS_H

#include "check.h"
#include "views/views.h"

/* The values that compare two runs pair by pair. */
int claim_pairwise(enum claim_value v);

/* The corpus values by the second timer: a run without it is refused */
int claim_by_kernel_timer(enum claim_value v);

/* The values over a corpus run (derive_corpus). */
int claim_over_corpus(enum claim_value v);

/* The values over the shape suite (derive_suite) or a corpus. */
int claim_over_suite(enum claim_value v);

/* Over the passed GPU points of >= 1 ms (median) of a run (those without a
 * throttled sample, for the _UNCAPPED values; without the claim's named
 * exceptions): the % within 1% relative stddev, or the count outside it; NaN
 * without any point. */
double claim_stability(const struct claim *c, const struct run *r);

/* The values of two runs together: the pairwise ones and the ratio of wall times. */
int claim_of_two_runs(enum claim_value v);

/* The values that take one number per run: the noise of its long GPU points. */
int claim_per_run(enum claim_value v);

#endif
