/* The pieces of derive and what they share with each other; derive.h is their
 * interface to the rest of the binary, and nothing outside derive*.c includes
 * this one.
 *
 *   derive.c          runs: a results file loaded under a role, its root
 *                     attributes, the index of its rows by group
 *   derive_best.c     shapes; a rung's best row at a shape and what it is
 *                     measured against; a row's configuration and decomposition
 *   derive_compare.c  two runs' shared groups (derive_pairs) and the compare view
 *   derive_suite.c    the shape suite: classes, points, the shapes and suite views
 *   derive_corpus.c   the corpora: classes, points, summaries, the corpus views
 *   derive_order.c    the orders shapes are shown in, a shape's rank in a table
 *   derive_ladder.c   the views of each rung's rows: ladder, configs, speedup,
 *                     transfers
 *   derive_samples.c  the views of the samples: samples, telemetry
 *   derive_table.c    a view's cells, the rungs and runs views, `table`'s
 *                     dispatch of a view's name to its printer */
#ifndef HARNESS_DERIVE_PARTS_H
#define HARNESS_DERIVE_PARTS_H

#include <stdio.h>
#include <string.h>

#include "derive.h"

/* ---- names of classes (derive_suite.c, derive_corpus.c) ----------------------------- */

/* names[i] where 0 <= i < n, else "?" */
static inline const char *name_at(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : "?";
}

/* The index of name among names[0..n), or -1. */
static inline int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

/* ---- rows and shapes (every piece) ---------------------------------------------- */

/* An ordinary row (derive.h): passed, not a transfer point. */
static inline int ordinary(const struct result_row *row)
{
    return !strcmp(row->disposition, "passed") && row->host_memory[0] == '\0';
}

static inline struct shape shape_of(const struct result_row *row)
{
    return (struct shape){row->M, row->N, row->K};
}

static inline int same_shape(struct shape a, struct shape b)
{
    return a.M == b.M && a.N == b.N && a.K == b.K;
}

/* ---- the index (derive.c) -------------------------------------------------------- */

/* rows[0..n) into by, in derive_group_cmp's order (each group in file order);
 * 0, or -1 out of memory. */
int derive_sort_groups(const struct result_row *rows, size_t n, const struct result_row **by);

/* ---- the suite's points (derive_suite.c; the corpora take them too) ------------- */

/* The hand-written rungs a suite point takes its best from */
int derive_hand_written(const struct variant *v, enum precision p);
/* At pt->s: the fastest rung that `takes` for precision p (its best row), and
 * the dispatch row of p */
void derive_best_and_dispatch(const struct run *r, enum precision p,
                              int (*takes)(const struct variant *, enum precision),
                              struct suite_point *pt);

/* ---- orders (derive_order.c) ----------------------------------------------------- */

/* By FLOP count, then M, then N */
static inline int flops_before(struct shape a, struct shape b)
{
    const double fa = (double)a.M * a.N * a.K, fb = (double)b.M * b.N * b.K;
    return fa < fb || (fa == fb && (a.M < b.M || (a.M == b.M && a.N < b.N)));
}

/* Shapes in the order every figure shows them: the square sizes ascending, then
 * the other shapes by FLOP count, then M. */
int shape_before(struct shape a, struct shape b);
/* The suite's order: class, then FLOP count */
int suite_before(struct shape a, struct shape b);

/* The distinct shapes of a table, in an order (cmp: by_shape_before or
 * by_suite_before); shapes_add gathers them, shapes_sort puts them in order
 * once all are in, and shape_rank is then a shape's 1-based place among them
 * (the x position figures give it; 0 if absent), found by a binary search. */
struct shapes {
    struct shape *s;
    size_t n, room;
    int (*cmp)(const void *, const void *);
};
int by_shape_before(const void *a, const void *b);
int by_suite_before(const void *a, const void *b);
/* before(a, b) as a total order for qsort and bsearch (-1, 0, 1): ties (shapes
 * of one FLOP count whose product rounds alike) by M, N and K */
int shape_order(int (*before)(struct shape, struct shape), const struct shape *a,
                const struct shape *b);
void shapes_add(struct shapes *t, struct shape s);
void shapes_sort(struct shapes *t);
int shape_rank(const struct shapes *t, struct shape s);
/* Into t (its cmp set, empty): the distinct shapes of r's ordinary rows of the
 * rungs that takes(v, p) accepts, sorted (derive_suite.c) */
void derive_shapes_of(const struct run *r, enum precision p,
                      int (*takes)(const struct variant *, enum precision), struct shapes *t);

/* ---- a view's line (derive_table.c): derive.h's cells by short names ------------- */

static inline void num(FILE *out, double x) { derive_cell_num(out, x); }
static inline void str(FILE *out, const char *s) { derive_cell_str(out, s); }
static inline void row_head(FILE *out) { derive_row_head(out); }
static inline void row_cells(FILE *out, const struct variant *v, struct shape s)
{
    derive_row_cells(out, v, s);
}

/* ---- the views, by the piece that prints them ----------------------------------- */

void view_ladder(FILE *out, const struct run *r);                       /* derive_ladder.c */
void view_configs(FILE *out, const struct run *r);
void view_speedup(FILE *out, const struct run *r);
void view_transfers(FILE *out, const struct run *r);
void view_samples(FILE *out, const struct run *r, const char *arg);     /* derive_samples.c */
void view_telemetry(FILE *out, const struct run *r);
void view_shapes(FILE *out, const struct run *r);                       /* derive_suite.c */
void view_suite(FILE *out, const struct run *r);
void view_corpus(FILE *out, const struct run *r);                       /* derive_corpus.c */
void view_corpus_classes(FILE *out, const struct run *r);
void view_corpus_cdf(FILE *out, const struct run *r);
void view_compare(FILE *out, const struct run *a, const struct run *b); /* derive_compare.c */

#endif
