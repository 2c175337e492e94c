/* One quantity, one number: the checks `mmladder values` makes over what a
 * paper prints, beyond each key having an answer.
 *
 * A rung's "% of cuBLAS" is one quantity with one key, ROLE.pct_ref.RUNG.SHAPE
 * (the lowest of the run's estimates, estimates.h); claims print it as
 * `value = pct_ref`.  Two things would let a text print it twice with two
 * numbers, and each is refused here:
 *
 *   an estimate alone   ROLE.pct_ref_paired / _alone / _kernel of one row are
 *                       printed only together: a paragraph that prints one of
 *                       them prints every one of them that the run has (so
 *                       the text compares estimates, and never quotes the one
 *                       that flatters the rung as its % of cuBLAS);
 *   other runs          two claims that the paper prints and that measure the
 *                       same thing (the same kind of value, of the same rungs,
 *                       precision, classes and configurations, at shapes they
 *                       share, or both over a suite or corpus) span the same
 *                       runs: a range printed twice is one range; and a claim
 *                       whose value a printed table shows (below) spans the
 *                       runs the tables of that kind show, so that the range
 *                       in the text is the range of the table beside it.
 *
 * The tables (values.h) and what they show:
 *   ladder.ROLES.SHAPES     pct_ref and tflops of every GPU rung at SHAPES
 *   shapes.ROLE             suite_pct_ref, suite_geomean, dispatch_share
 *   corpus.ROLE             corpus_pct_ref, corpus_geomean, corpus_dispatch_pct,
 *                           corpus_dispatch_geomean, corpus_share_90
 *   host.ROLES              ratio host_restrict host_naive
 *   estimates.ROLES.RUNGS.SHAPES  pct_ref_paired, pct_ref_alone, pct_ref_kernel,
 *                           estimates_spread of RUNGS at SHAPES
 * (ROLES, RUNGS and SHAPES '-'-separated).
 *
 * A paragraph is the text between blank lines of one source file. */
#ifndef HARNESS_QUANTITY_H
#define HARNESS_QUANTITY_H

#include <stddef.h>

#include "check.h"

#define QUANTITY_MAX_PER_PARAGRAPH 64

struct quantity_paragraph {
    size_t n;
    struct quantity_estimate {
        char row[128];      /* ROLE.RUNG.SHAPE */
        unsigned kinds;     /* 1 << the estimates printed: paired, alone, kernel */
        char file[256];
        int line;           /* where the first of them was printed */
    } e[QUANTITY_MAX_PER_PARAGRAPH];
};

/* Note a key printed at file:line; keys other than the estimates are ignored.
 * 0, or -1 with err when the paragraph holds too many. */
int quantity_note(struct quantity_paragraph *p, const char *key, const char *file, int line,
                  char *err, size_t errlen);

/* The end of a paragraph: 0, or -1 with err (file:line and the key missing)
 * when a row's estimate was printed without another one that `answers` (a
 * key's value exists: 1) says the run has; the paragraph is emptied. */
int quantity_paragraph_end(struct quantity_paragraph *p, int (*answers)(const char *key, void *ctx),
                           void *ctx, char *err, size_t errlen);

/* The n keys a paper printed, \val keys and (table[i] 1) \valtable names:
 * 0, or -1 with err naming the first two claims it prints (claim.ID.WHAT)
 * that measure one quantity over different runs, or the first such claim whose
 * runs are not those of the tables it prints that show its value. */
int quantity_claims_agree(const struct claims *cs, const char (*keys)[128],
                          const unsigned char *table, size_t n, char *err, size_t errlen);

#endif
