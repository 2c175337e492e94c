/* Corpora: shapes drawn from a documented distribution with a seed, so that a
 * rule made on one set of shapes (a split, a dispatch, a tile choice, the
 * plan's estimate) can be judged on another it never saw.  A sweep names one
 * (experiment.h: corpus, corpus_seed, corpus_range, corpus_flops); the plan
 * draws it; the results file holds the shapes (its rows) and the experiment
 * text, seed included, from which they are drawn again.
 *
 *   loguniform COUNT   M, N and K each log-uniform over the integers of
 *                      [lo, hi] (P(x) proportional to log((x+1)/x)), the
 *                      triple drawn again while 2MNK lies outside the FLOP
 *                      window or the shape repeats one already in the sweep.
 *
 * Two sets drawn with different seeds are a tuning set and a held-out set. */
#ifndef HARNESS_CORPUS_H
#define HARNESS_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#define CORPUS_MAX_COUNT 20000
#define CORPUS_MAX_DIM 32768        /* every A, B and C within INT_MAX elements */
#define CORPUS_DRAWS_PER_SHAPE 1000 /* give up (an error) after this many draws a shape */

enum corpus_kind { CORPUS_NONE = 0, CORPUS_LOGUNIFORM };

struct corpus_spec {
    enum corpus_kind kind;
    int count;
    uint64_t seed;
    int lo, hi;                   /* each of M, N, K in [lo, hi] */
    double flops_lo, flops_hi;    /* 2MNK in [flops_lo, flops_hi] */
    int line;                     /* where `corpus` was given */
};

struct corpus_shape {
    int M, N, K;
};

/* The spec's defaults: range 1..16384, no FLOP window. */
void corpus_defaults(struct corpus_spec *s);

/* Draw s->count shapes into out[0..count), none equal to another or to one of
 * avoid[0..n_avoid).  Returns 0, or -1 with a message in err (a window no draw
 * reaches, say). */
int corpus_draw(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                struct corpus_shape *out, char *err, size_t errlen);

#endif
