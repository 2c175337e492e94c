/* Derive: every view of results files that needs the registry.  The binary is
 * the only reader of results: the figures (through `mmladder table`), the
 * claims (claims.h) and the paper's values (values.h) all take their numbers
 * from here, so that a rule (which row is a rung's best, what a rung is
 * compared with, what a square size is) is written once.  The code is in
 * harness/views/derive*.c, one file for each thing derive does (derive_parts.h lists
 * them).
 *
 * Terms used throughout:
 *   - a run: one results file, loaded under a role ("h100", "repro", "mine");
 *   - an ordinary row: a passed row that is not a transfer point (host_memory
 *     empty);
 *   - a rung's best at a shape: its ordinary row of highest GFLOP/s there, over
 *     all its configurations (tile, WPT, -O level);
 *   - a square size n: M = N = K = n and n a multiple of 32 (the sizes axis of
 *     the experiments; square odd shapes such as 4095 are edge tests);
 *   - a rung's reference: the cuBLAS line of its precision (registry.h);
 *   - a step: a rung's best over the best of the rung before it in the ladder
 *     with the same device and precision, at the same shape;
 *   - the global-load model of a configuration: FLOP per byte of A and B read
 *     from global memory when each FMA reads its operands there (untiled rungs,
 *     0.25) or each block reads a block tile of A and B per k (tiled rungs,
 *     2 BM BN / (4 (BM + BN))); the compulsory intensity of a shape is
 *     2MNK / (4 (MK + KN + MN)), each matrix moved once. */
#ifndef HARNESS_DERIVE_H
#define HARNESS_DERIVE_H

#include <stdio.h>

#include "core/core.h"
#include "results/results.h"

struct run {
    char role[32];
    char path[4096];
    struct results_file f;
    /* from the root attributes ("" or NaN where the file has none) */
    char gpu_name[128], created_utc[32], git_commit[48], cpu_model[128], nvcc_version[32];
    char seed[32], cc_version[160];
    char gpu_serial[160], experiment[64];   /* a merged file's serials: "A, B" */
    int kernel_timer;                       /* its GPU samples timed by CUPTI too */
    char differs[512];                    /* a merged file's merge_differs (merge.h) */
    int merged;                           /* it says it was merged (merged_shards) */
    char gpu_rule[320], host_rule[320];   /* the sampling rules, "name=value ..." */
    double peak_gflops, copy_gbs, wall_s, sms, clock_mhz, l2_bytes, driver;
    double estimated_s;                   /* the plan's estimate of wall_s */
    double telemetry_refresh_ms;          /* how often NVML's power reading changed, as
                                             measured at the run's start */
    /* The rows by group (rung, shape, host memory), each group in file order
     * (derive_index): "best" is then a search, not a scan of every row.  NULL:
     * derive scans.  spans: where each rung's rows begin and end in by_group,
     * in strcmp order of the rung's name (n_spans of them). */
    const struct result_row **by_group;
    struct rung_span {
        const char *name;
        size_t lo, hi;
    } *spans;
    size_t n_spans;
};

/* Load `path` under `role` (letters, digits, '_' and '-').  0, or -1 with err.
 * Rows of files of schema < 5 get the geometry their (tile, wpt) names
 * (derive_upgrade). */
int derive_open(struct run *r, const char *role, const char *path, char *err, size_t errlen);
/* derive_open of n runs, their files read at once: 0 with all open, or -1 with
 * none and err saying why (the first to fail, in the order given). */
int derive_open_all(struct run *runs, const char *const *roles, const char *const *paths, size_t n,
                    char *err, size_t errlen);
void derive_close(struct run *r);
/* The last component of its path: the file's name. */
const char *derive_file_name(const struct run *r);
/* Sort r's rows into r->by_group (derive_open does); 0, or -1 out of memory
 * (derive then scans).  derive_unindex frees it. */
int derive_index(struct run *r);
/* The order of derive_index's groups: by rung, M, N, K, then host memory. */
int derive_group_cmp(const struct result_row *x, const struct result_row *y);
void derive_unindex(struct run *r);
/* The rows of rung `name` in r->by_group (which must be there), [lo, hi): by
 * shape, then host memory, each group in file order; lo = hi, where its rows
 * would be, when it has none. */
struct rung_span derive_rung_rows(const struct run *r, const char *name);
/* Rows of files of schema < 5 name a configuration by (tile, wpt) alone: give
 * them the geometry their kernel file declares for that pair (as derive_open
 * does; for readers of a bare results_file). */
void derive_upgrade(struct results_file *f);

struct shape {
    int M, N, K;
};
/* "4096" (square) or "4095x4095x4095": 0, or -1. */
int shape_parse(const char *s, struct shape *out);
/* n when the shape is a square size (above), else 0. */
int shape_square(struct shape s);
/* "4096" for a square size, else "MxNxK". */
void shape_label(struct shape s, char *buf, size_t len);

/* The rows a search for a rung at a shape looks at: its group (without host
 * memory, in file order) when the run is indexed, else every row; the caller
 * still checks each row's rung and shape. */
struct row_span {
    const struct result_row *const *group;   /* NULL: `all` instead */
    const struct result_row *all;
    size_t n;
};
struct row_span derive_rows_of(const struct run *r, const char *variant, struct shape s);
/* The same for every shape of the rung: its rows by shape where r has an index,
 * else every row of the run (the caller checks the name either way). */
struct row_span derive_rows_of_rung(const struct run *r, const char *variant);
static inline const struct result_row *row_span_at(const struct row_span *c, size_t i)
{
    return c->group ? c->group[i] : &c->all[i];
}
/* The rung's best ordinary row at the shape, or NULL. */
const struct result_row *derive_best(const struct run *r, const struct variant *v, struct shape s);
/* Its GFLOP/s; NaN when there is none. */
double derive_gflops(const struct run *r, const struct variant *v, struct shape s);
/* One estimate of 100 x the rung's speed over its reference's at s: from the
 * best row's paired samples (schema 6: the mean ratio of pairs taken side by
 * side) when it has them, else the ratio of the two rows' medians (older
 * files).  What the project calls the rung's "% of cuBLAS" is the lowest of
 * the estimates a run has (estimates_pct_ref, estimates.h), not this one. */
double derive_pct_paired(const struct run *r, const struct variant *v, struct shape s);
/* Half the width of its 95% confidence interval, in points of %; NaN unpaired. */
double derive_pct_ref_ci95(const struct run *r, const struct variant *v, struct shape s);
/* 100 x best / the run's FP32 peak, for GPU FP32 rungs; NaN otherwise. */
double derive_pct_peak(const struct run *r, const struct variant *v, struct shape s);
/* The rung before v in its step (above) that the run has at the shape, or NULL;
 * and the step itself (NaN without one). */
const struct variant *derive_prev(const struct run *r, const struct variant *v, struct shape s);
double derive_step(const struct run *r, const struct variant *v, struct shape s);

/* The global-load model of a row's configuration (NaN for host and library
 * rows), and the compulsory intensity of a shape. */
double derive_intensity(const struct variant *v, const struct result_row *row);
double derive_compulsory_intensity(struct shape s);
/* stddev / mean of a row's samples; NaN without samples. */
double derive_rel_stddev(const struct result_row *row);
/* "32x32 block, 16x1 per thread", "-O2", "" (cuBLAS): a row's configuration. */
void derive_config_label(const struct variant *v, const struct result_row *row, char *buf,
                         size_t len);

/* The square sizes the run has ordinary rows at (of rungs on `device`, or of
 * any rung when device < 0), ascending; returns how many (at most max). */
size_t derive_squares(const struct run *r, int device, int *out, size_t max);

/* The best passed row of the (rung, shape, host memory) group that x belongs
 * to, in f; NULL if the group has none. */
const struct result_row *derive_best_of_group(const struct results_file *f,
                                              const struct result_row *x);

/* The shape suite (experiments/shapes.ini).  A shape's class, by a rule over
 * (M, N, K) alone, the first that holds:
 *   decode   min(M, N) <= 32 and max(M, N) >= 2048   (a few tokens through a layer)
 *   long_k   min(M, N) <= 256 and K >= 32768         (a small output, a long K)
 *   short_k  K <= 128 and min(M, N) >= 2048          (rank-k updates)
 *   small    max(M, N, K) <= 512
 *   odd      a dimension not a multiple of 32
 *   aspect   max(M, N, K) >= 8 min(M, N, K)          (tall, wide, deep)
 *   large    the rest
 * In that order (decode, small, long_k, short_k, odd, aspect, large) the
 * figures and tables show them. */
enum shape_class { SC_DECODE, SC_SMALL, SC_LONG_K, SC_SHORT_K, SC_ODD, SC_ASPECT, SC_LARGE,
                   SC_COUNT };
enum shape_class shape_class_of(struct shape s);
const char *shape_class_name(enum shape_class c);
/* By name ("decode"): 0, or -1. */
int shape_class_parse(const char *name, enum shape_class *out);
/* The corpora's classes (derive_corpus, below). */
enum corpus_class { CC_GEMV, CC_SHORT_K, CC_FEW, CC_REST, CC_COUNT };

/* One shape of a run for one precision: the fastest hand-written GPU rung there
 * (its best row over all configurations; neither a reference nor a dispatch
 * row), the dispatch row of the precision, and the reference (cuBLAS). */
struct suite_point {
    struct shape s;
    enum shape_class cls;
    const struct variant *best, *dispatch, *ref;
    const struct result_row *best_row, *dispatch_row, *ref_row;   /* dispatch: NULL if none */
    double best_pct, best_ci95;   /* `best`'s % of the reference (estimates_pct_ref: the
                                     lowest estimate), and the paired one's interval */
    double dispatch_pct;          /* of the dispatch row; NaN without one */
    double best_pct_events, dispatch_pct_events;   /* derive_corpus's points: by the
                                     events alone (the row over the reference's, each
                                     timed by CUDA events), which the second timer's
                                     is held against */
    enum corpus_class corpus;     /* derive_corpus's points: the corpus class */
    /* derive_corpus's points: best_pct and dispatch_pct by the second timer
     * (the rows' kernel_ms_median, CUPTI's records); NaN where the run had it off */
    double best_pct_kernel, dispatch_pct_kernel;
};
/* The shapes at which run r has a hand-written GPU rung of precision p and its
 * reference, one point each, by class, then FLOP count, then M; returns the
 * count (at most max). */
size_t derive_suite(const struct run *r, enum precision p, struct suite_point *out, size_t max);
/* Room for every shape of run r, and so for every point derive_suite and
 * derive_corpus can return (one per shape; a shape has at least one row). */
size_t derive_suite_room(const struct run *r);
/* The geometric mean of the points' best_pct (dispatch = 0) or dispatch_pct
 * (dispatch = 1); NaN when n is 0 or a value is missing. */
double derive_suite_geomean(const struct suite_point *pt, size_t n, int dispatch);

/* The corpora (experiments/tuning-*.ini, heldout.ini).  A shape's class, by the
 * rule the held-out protocol reports, the first that holds:
 *   gemv     min(M, N) <= 8     (GEMV-like: one pass over the large operand)
 *   short_k  K <= 64            (writing C is most of the work)
 *   few      min(M, N) <= 32
 *   rest     the others         (mid-size and large) */
enum corpus_class corpus_class_of(struct shape s);
const char *corpus_class_name(enum corpus_class c);
/* By name ("gemv"): 0, or -1. */
int corpus_class_parse(const char *name, enum corpus_class *out);
/* One point of a corpus run per shape for precision p: the fastest hand-written
 * GPU rung at least as precise as p (for TF32, a TF32 or an FP32 rung: a call
 * that allows TF32 may get FP32's result, as the dispatch row's may), the
 * dispatch row of p, and the reference of p (cuBLAS at that precision).  The
 * %s are standalone: the rows' best GFLOP/s over the reference row's (an FP32
 * rung is paired with cuBLAS FP32, not TF32, so no paired estimate exists for
 * every point); best_ci95 is NaN.  Ordered by corpus class, then FLOP count, M;
 * `cls` is left as the suite's class. */
size_t derive_corpus(const struct run *r, enum precision p, struct suite_point *out, size_t max);
/* The bytes a product must move, A and B read and C written once (4 bytes an
 * element), and the % of the run's measured copy bandwidth at which a corpus
 * point's fastest row moves them (NaN without a bandwidth). */
double corpus_bytes(struct shape s);
double corpus_copy_pct(const struct run *r, const struct suite_point *q);
/* A corpus run's points of one class (cls; CC_COUNT: every class) summed up:
 * how many, the geometric mean and the lowest of the fastest rung's % and of
 * the dispatch row's (NaN where a point has none), the share of points (in %)
 * where the fastest rung reaches 90% of cuBLAS, and the two geometric means by
 * the second timer (NaN where a point has none); NaN with no point.  And the
 * dispatch's regret, a point's dispatch row's median time over its fastest
 * rung's: its median and 90th percentile (the nearest rank: the smallest
 * regret that 90% of the points are at or under), and the share of points (in
 * %) within 10% of the fastest (regret at most 1.1); NaN where a point has no
 * dispatch row. */
struct corpus_summary {
    size_t shapes;
    double best_geomean, best_min, dispatch_geomean, dispatch_min, best_share_90;
    double kernel_geomean, kernel_dispatch_geomean;   /* by the second timer */
    double events_geomean, events_dispatch_geomean;   /* by the events alone */
    double regret_median, regret_p90, dispatch_share_10;
};
void derive_corpus_summary(const struct suite_point *pt, size_t n, int cls,
                           struct corpus_summary *out);

/* A row's decomposition, for the shape study: its tiles of C (ceil(M / BM)
 * ceil(N / BN); NaN without a block geometry: library and dispatch rows), the
 * waves of its grid (grid_blocks over blocks_per_sm x the run's SMs; NaN
 * without them), and the K each block multiplies (K / k_splits). */
double derive_tiles(const struct result_row *row);
double derive_waves(const struct run *r, const struct result_row *row);
double derive_k_per_block(const struct result_row *row);

/* The (rung, shape, host memory) groups of run a that run b also has, with
 * the best passed row of each (transfer points compared as such). */
struct pair {
    const struct variant *v;
    struct shape s;
    const char *memory;
    const struct result_row *a, *b;
    double ratio;                     /* a / b, GFLOP/s */
    const struct result_row *a_first; /* the group's first row in a (pairs come in that order) */
};
/* Returns the count; *out is malloc'd (free it). */
size_t derive_pairs(const struct run *a, const struct run *b, struct pair **out);

/* The views `mmladder table` prints (tab-separated, a header row first; "-"
 * for a missing value).  runs[0] is the run a view is of; `compare` takes two
 * and `runs` any number.  -1 with err for an unknown view or missing runs. */
/* Cells of a view's line, for the views other modules write (estimates.h): an
 * integer (as "%lld" prints it, without printf's parsing: a table of 10^6 rows
 * prints millions of cells), a number ('-' when not finite), a string (blanks
 * for tabs, '-' when empty), and the rung-and-shape columns every per-rung view
 * begins with. */
void derive_cell_int(FILE *out, long long v);
void derive_cell_num(FILE *out, double x);
void derive_cell_str(FILE *out, const char *s);
void derive_row_head(FILE *out);
void derive_row_cells(FILE *out, const struct variant *v, struct shape s);

/* The runs view as a Markdown table, one line per run (data/README.md's): its
 * file, role, GPU and serial, date, wall time beside the plan's estimate, and
 * its points by disposition. */
void derive_runs_markdown(FILE *out, const struct run *runs, size_t nruns);
int derive_table(FILE *out, const char *view, const struct run *runs, size_t nruns,
                 const char *arg, char *err, size_t errlen);
/* The names of the views, for usage text. */
extern const char *const DERIVE_VIEWS;

#endif
