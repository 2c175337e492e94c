/* Progress while a run goes: one redrawn bar with an ETA on a terminal, one
 * plain line per point otherwise. */
#ifndef HARNESS_PROGRESS_H
#define HARNESS_PROGRESS_H

#include <stdio.h>

#include "results/results.h"

struct progress {
    FILE *out;
    int tty;              /* 1: one redrawn bar with ETA; 0: one plain line per point */
    size_t total;         /* points in the plan */
    double total_est_s;   /* estimated seconds for the whole plan */
    double start_ms;
    double done_est_s;    /* estimated seconds of the points done so far */
};

void progress_start(struct progress *p, FILE *out, size_t total, double total_est_s);
/* After point `index` (0-based) was recorded; `est_s` is that point's estimate.
 * `said` 1: the row's outcome was already said for all such rows at once (no
 * GPU), so no line of its own is printed; the bar still moves. */
void progress_point(struct progress *p, size_t index, const struct result_row *row, double est_s,
                    int said);
void progress_end(struct progress *p);

#endif
