/* Corpora: shapes from a documented source with a seed, so that a rule made on
 * one set of shapes (a split, a dispatch, a tile choice, the plan's estimate)
 * can be judged on another it never saw.  A sweep names one (experiment.h:
 * corpus, corpus_seed, corpus_range, corpus_flops); the plan expands it; the
 * results file holds the shapes (its rows) and the experiment text, seed
 * included, from which they are made again.
 *
 *   loguniform COUNT   M, N and K each log-uniform over the integers of
 *                      [lo, hi] (P(x) proportional to log((x+1)/x)), the
 *                      triple drawn again while 2MNK lies outside the FLOP
 *                      window or the shape repeats one already in the sweep.
 *                      Two seeds give a tuning set and a held-out set.
 *   llama3 PART        the projections of a Llama 3 layer, 8B (hidden 4096,
 *                      MLP 14336) and 70B (8192, 28672), both with 8 KV heads
 *                      of 128: QKV (N = hidden + 2048), output (N = K =
 *                      hidden), gate and up fused (N = 2 x MLP), down (K = MLP,
 *                      N = hidden), each at M = 1, 2, 4, ... 16384 tokens and
 *                      split over 1, 2, 4 or 8 GPUs (tensor parallel: N / t for
 *                      QKV and gate/up, K / t for output and down); those in
 *                      corpus_range (if given) and the FLOP window.  PART: all, or tuning or
 *                      heldout, the two halves a hash of (seed, M, N, K) puts
 *                      each shape in.
 *   deepbench PART     the 166 GEMM sizes of Baidu's DeepBench (training,
 *                      inference server and device), M x N x K, transposes
 *                      dropped; in corpus_range (if given) and the window; its
 *                      halves as llama3's.
 */
#ifndef HARNESS_CORPUS_H
#define HARNESS_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#define CORPUS_MAX_COUNT 20000
#define CORPUS_MAX_DIM 65536        /* corpus_range's largest; each matrix within INT_MAX elements */
#define CORPUS_DRAWS_PER_SHAPE 1000 /* give up (an error) after this many draws a shape */

enum corpus_kind { CORPUS_NONE = 0, CORPUS_LOGUNIFORM, CORPUS_LLAMA3, CORPUS_DEEPBENCH };
enum corpus_part { CORPUS_ALL = 0, CORPUS_TUNING, CORPUS_HELDOUT };

struct corpus_spec {
    enum corpus_kind kind;
    int count;                    /* loguniform: how many */
    enum corpus_part part;        /* llama3, deepbench: which half */
    uint64_t seed;
    int lo, hi;                   /* each of M, N, K in [lo, hi] */
    int range_given;              /* corpus_range given: else a listed corpus (llama3,
                                     deepbench) takes every size */
    double flops_lo, flops_hi;    /* 2MNK in [flops_lo, flops_hi] */
    int line;                     /* where `corpus` was given */
};

struct corpus_shape {
    int M, N, K;
};

/* The spec's defaults: range 1..16384, no FLOP window. */
void corpus_defaults(struct corpus_spec *s);

/* The corpus's shapes, none equal to another or to one of avoid[0..n_avoid),
 * into *out (malloc'd; free it) and *n.  Returns 0, or -1 with a message in
 * err (a window no draw reaches, say, or out of memory). */
int corpus_shapes(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                  struct corpus_shape **out, size_t *n, char *err, size_t errlen);

#endif
