/* Claims: every statement the README and the paper make about the results, as
 * a check over the data with a tolerance (ReFrame's references with bounds are
 * the model).  They are declared in one file (paper/claims.ini), one section a
 * claim:
 *
 *   [fp32_best_vs_cublas]
 *   text    = the cp.async pipeline reaches {range}% of cuBLAS FP32
 *   value   = pct_ref gpu_async_copy      ; what is measured (below)
 *   runs    = h100 h200                   ; the runs (roles) it is measured in
 *   shapes  = 4096 8192                   ; at these shapes ("4096" or MxNxK)
 *   expect  = at_least 95                 ; every value must satisfy this
 *   negation = at_most 90                 ; optional: the values that would make
 *                                         ; the text false; a band that passes
 *                                         ; any of them (more than a shared end)
 *                                         ; is refused when the file is read
 *   scope   = reference                   ; any: holds on any GPU; reference:
 *                                         ; only on the GPU models of its runs
 *                                         ; (a claim over host rows: any x86-64
 *                                         ; core, or the reference machines'
 *                                         ; CPUs: see claims_evaluate_mine)
 *   figure  = 1                           ; where it is shown
 *   command = make reproduce              ; how a reader checks it
 *   time    = 6 min on an H100 or H200
 *
 * Values, one per (run, shape) unless said otherwise:
 *   pct_ref R       R's "% of cuBLAS": its best as % of its reference (cuBLAS,
 *                   same precision), the lowest of the estimates the run has
 *                   (estimates_pct_ref, estimates.h), the one number every
 *                   table, figure and text prints for it
 *   pct_ref_paired R  one of those estimates: the mean of the best row's paired
 *                   samples' ratios (NaN where the row was not paired)
 *   pct_ref_ci R    half the width of the paired estimate's 95% confidence
 *                   interval, in points of % (paired rows only)
 *   pct_ref_kernel R, pct_ref_alone R, estimates_spread R
 *                   of R's fastest paired row: the second timer's estimate of
 *                   its % of the reference, the standalone rows' estimate, and
 *                   the points between the highest and the lowest (estimates.h)
 *   ref_in_pairs R  of R's fastest paired row: the reference's median time in
 *                   the pairs over the reference's own row (1: pairing left
 *                   the reference as it runs alone)
 *   clock_in_pairs R  of the same row: the SM clock its pairs ran at over the
 *                   reference's own row's (probe_mhz_mean)
 *   pct_peak R      R's best as % of the run's FP32 peak
 *   tflops R        R's best, TFLOP/s
 *   ratio R S       R's best over S's best
 *   step R          R's best over the rung before it (derive.h)
 *   rel_stddev R    R's best row: stddev / mean of its samples, %
 *   copy_ratio R    R's transfer points: copies in and out (h2d + d2h) through
 *                   pageable host memory over the same through pinned memory
 *   agreement       per (rung, shape) of the GPU rows both runs have: first run
 *                   over second (runs = exactly two); optional filters: rungs
 *                   (a list), except_rungs (a list left out), precision (fp32
 *                   or tf32), shapes, and device (gpu, the default, or host:
 *                   the host rows instead)
 *   unverified      per run: points incorrect or failed
 *   stable_share    per run: % of the passed GPU points of >= 1 ms (median) whose
 *                   samples' relative stddev is at most 1%
 *   stable_share_uncapped  the same over those of them that had no throttled
 *                   sample (telemetry.h: a power, thermal or slowdown reason)
 *   suite_pct_ref   per (run, shape of the shape suite: derive_suite): the
 *                   fastest hand-written rung's % of its reference there
 *                   (needs precision; optional filters: classes, a list of
 *                   shape classes, and shapes)
 *   suite_geomean   per run: the geometric mean of those values over the suite
 *                   (needs precision; classes and shapes filter it too)
 *   dispatch_share  per run: the dispatch row's geometric mean of % of its
 *                   reference over that of the fastest hand-written rungs, in %
 *                   (needs precision): what one call gets of what the ladder
 *                   can reach
 *   corpus_pct_ref  per (run, shape of a corpus run: derive_corpus): the
 *                   fastest rung's standalone % of cuBLAS at the precision
 *                   (needs precision, as every corpus value; classes: corpus
 *                   classes, gemv short_k few rest)
 *   corpus_dispatch_pct  the same of the dispatch row
 *   corpus_geomean, corpus_dispatch_geomean  per run: their geometric means
 *   corpus_dispatch_share  per run: the second over the first, in %
 *   corpus_share_90 per run: the % of shapes where the fastest rung reaches 90%
 *   corpus_regret_median, corpus_regret_p90  per run: the dispatch's regret (a
 *                   shape's dispatch row time over its fastest rung's) as a
 *                   median and a 90th percentile (nearest rank)
 *   corpus_dispatch_share_10  per run: the % of shapes where the dispatch row
 *                   is within 10% of the fastest rung (regret at most 1.1)
 *   corpus_copy_pct per (run, corpus shape): the % of the run's copy bandwidth
 *                   at which the fastest rung moves A, B and C once
 *   agreement_share the same pairs, filtered the same way: the % of them within
 *                   AGREEMENT_CLOSE (2%) of 1
 *   estimate        per run: its wall time over the plan's estimate (the file's
 *                   estimated_s, plan.h): how well `mmladder plan` foretold it
 *   wall_s          per run: its wall time, seconds
 *   corpus_estimates_share  over a corpus run: % of its shapes (of the
 *                   precision, and classes) whose fastest rung was sampled
 *                   paired with the corpus's cuBLAS line where the paired
 *                   estimate of its % of cuBLAS (ref_ratio) and the standalone
 *                   one (the two rows' GFLOP/s, as the corpus values take it)
 *                   agree within ESTIMATES_CLOSE
 *   corpus_kernel_geomean, corpus_kernel_dispatch_geomean  per corpus run:
 *                   corpus_geomean and corpus_dispatch_geomean by the second
 *                   timer (a run with --kernel-timer: the rows' kernel times,
 *                   CUPTI's records, in place of their event times)
 *   corpus_kernel_gap  per corpus run: how far, in points, those two lie from
 *                   the events' (the larger of the two differences)
 *   corpus_kernel_share  per corpus run: % of its shapes where the fastest
 *                   rung's % of cuBLAS by the two timers agree within
 *                   ESTIMATES_CLOSE
 *   corpus_kernel_apart_ms  per corpus run: the longest time of cuBLAS's row
 *                   (ms, events) at a shape where those two do not agree
 *                   (0 where every one does)
 *   wall_ratio      two runs: the first's wall time over the second's (a run
 *                   cut over GPUs and merged against one run on one of them)
 *   unstable_uncapped  per run: how many of those had a relative stddev above 1%
 *                   (for the three noise values, `rungs` and `shapes` name
 *                   exceptions: those rungs' points at those shapes, or at every
 *                   shape without `shapes`, are left out)
 * Optional row filters for R: opt_levels, tiles, wpts (lists); for S:
 * other_opt_levels, other_tiles, other_wpts, and other_shapes (S's shape for
 * each of `shapes`, in order).
 * Expectations: at_least X, at_most X, between X Y, about X P% (X within
 * P%); a negation may also be outside X Y.  Text placeholders: {range} ("94.1-96.6", or one value), {min}, {max},
 * {count}, {min_at} and {max_at} (where the lowest and highest value were
 * measured: the shape, for values over the suite with its rung), and {cpus}
 * (whose CPUs measured a host claim's values: "the reference machines' CPUs",
 * or on a reviewer's run "this machine's CPU").
 *
 * A claim passes when it has values and every one satisfies its expectation;
 * it is "not evaluated" when a run it needs was not given.
 *
 * Bands are stated before the data that judge them.  A band moved after its
 * runs keeps a record, one line a move, oldest first:
 *   revised = at_least 90 -> at_least 75 (2026-11-28, cfb9a75): why it moved
 * and the last record's new band is the claim's expect.  With the history of
 * the file (claims_history_load: when each band was stated, and the band
 * before it, from git) a claim is predicted (its band stated before the
 * earliest of its runs was made), revised (moved after, and recorded), or
 * stated after its data (a claim new since its runs); a band moved after its
 * runs without the record fails. */
#ifndef HARNESS_CLAIMS_CHECK_H
#define HARNESS_CLAIMS_CHECK_H

#include <stdio.h>

#include "views/views.h"

#define CLAIM_MAX 256
#define CLAIM_MAX_LIST 16
#define CLAIM_MAX_REVISIONS 8

enum claim_value { CV_PCT_REF, CV_PCT_PEAK, CV_TFLOPS, CV_RATIO, CV_STEP, CV_REL_STDDEV,
                   CV_COPY_RATIO, CV_AGREEMENT, CV_UNVERIFIED, CV_PCT_REF_CI, CV_STABLE_SHARE,
                   CV_STABLE_UNCAPPED, CV_UNSTABLE_UNCAPPED, CV_SUITE_PCT_REF, CV_SUITE_GEOMEAN,
                   CV_DISPATCH_SHARE, CV_ESTIMATE, CV_WALL_S, CV_AGREEMENT_SHARE,
                   CV_PCT_REF_KERNEL, CV_PCT_REF_ALONE, CV_PCT_REF_PAIRED, CV_ESTIMATES_SPREAD,
                   CV_REF_IN_PAIRS, CV_CLOCK_IN_PAIRS, CV_CORPUS_PCT_REF, CV_CORPUS_GEOMEAN,
                   CV_CORPUS_DISPATCH_PCT, CV_CORPUS_DISPATCH_GEOMEAN, CV_CORPUS_DISPATCH_SHARE,
                   CV_CORPUS_SHARE_90, CV_WALL_RATIO, CV_CORPUS_ESTIMATES_SHARE,
                   CV_CORPUS_COPY_PCT, CV_CORPUS_KERNEL_GEOMEAN,
                   CV_CORPUS_KERNEL_DISPATCH_GEOMEAN, CV_CORPUS_KERNEL_GAP,
                   CV_CORPUS_KERNEL_SHARE, CV_CORPUS_KERNEL_APART_MS, CV_CORPUS_REGRET_MEDIAN,
                   CV_CORPUS_REGRET_P90, CV_CORPUS_DISPATCH_SHARE_10 };

/* agreement_share counts the pairs within this of 1 */
#define AGREEMENT_CLOSE 0.02
/* corpus_estimates_share counts the shapes whose two estimates are within this */
#define ESTIMATES_CLOSE 0.05
enum claim_expect { CE_AT_LEAST, CE_AT_MOST, CE_BETWEEN };

struct claim {
    char id[48];
    int line;
    char text[512];
    enum claim_value value;
    int has_value;             /* the file gave value = (else the claim is refused) */
    char rung[32], other[32];
    char runs[CLAIM_MAX_LIST][32];
    int n_runs;
    struct shape shapes[CLAIM_MAX_LIST];
    int n_shapes;
    struct shape other_shapes[CLAIM_MAX_LIST];   /* ratio: S at these instead */
    int n_other_shapes;
    struct claim_filter {       /* rows a rung's best is taken over (empty: all) */
        int opt_levels[4], n_opt, tiles[CLAIM_MAX_LIST], n_tiles, wpts[CLAIM_MAX_LIST], n_wpts;
    } filter, other_filter;     /* for R, and for S */
    char only[CLAIM_MAX_LIST][32];   /* agreement: these rungs only (none: all) */
    int n_only;
    char except[CLAIM_MAX_LIST][32]; /* agreement: all but these rungs */
    int n_except;
    int precision;             /* agreement, suite values: -1 both, else PREC_FP32 or PREC_TF32 */
    unsigned classes;          /* suite values: 1 << enum shape_class for each, corpus values:
                                  1 << enum corpus_class; 0: all */
    char class_names[CLAIM_MAX_LIST * 12];   /* as the file gave them */
    int host_rows;             /* agreement: the host rows instead of the GPU rows */
    enum claim_expect expect;
    double lo, hi;             /* the bounds every value must lie within */
    char expect_text[64];      /* as the file gave it, e.g. "at_least 95" */
    char negation_text[64];    /* negation: what the text rules out ("" when not given) */
    double neg_lo, neg_hi;     /* its band: [neg_lo, neg_hi], or all but that */
    int neg_outside;           /*   when neg_outside */
    int any_gpu;               /* scope = any */
    char figure[32], command[96];
    /* revised = OLD -> NEW (WHEN): WHY, once per band changed after the runs
     * that judge it, oldest first: the last one's NEW is the claim's expect */
    struct claim_revision {
        char old_band[64], new_band[64], when[64], why[320];
    } rev[CLAIM_MAX_REVISIONS];
    int n_rev;
};

/* [roles]: the GPU each role's run must be from, as `ROLE = WORD`: the run's
 * gpu_name holds WORD (e.g. h100 = H100).  A run of another GPU under that role
 * is refused: its numbers would be read as the other GPU's. */
#define CLAIM_MAX_ROLES 32
struct claim_role {
    char role[32], gpu[64];
    int line;
};

struct claims {
    char path[512];
    size_t n;
    struct claim c[CLAIM_MAX];
    size_t n_roles;
    struct claim_role roles[CLAIM_MAX_ROLES];
};

/* Parse a claims file: 0, or -1 with "FILE:LINE: ..." in err. */
int claims_load(const char *path, struct claims *out, char *err, size_t errlen);

/* Every run whose role [roles] names is of that GPU: 0, or -1 with err. */
int claims_check_roles(const struct claims *cs, const struct run *runs, size_t n, char *err,
                       size_t errlen);

enum claim_verdict { CLAIM_PASSED, CLAIM_FAILED, CLAIM_NOT_EVALUATED };

struct claim_result {
    enum claim_verdict verdict;
    size_t count;              /* values measured */
    double min, max;
    char worst[128];           /* where the value farthest outside (or nearest the
                                  bound) was measured: "h100 4096" */
    char min_at[96], max_at[96];   /* where the lowest and highest were: "4096x16x4096
                                      (gpu_splitk)" */
    char why[160];             /* not evaluated: what it needs */
    char text[640];            /* the claim's text with its values filled in */
    char measured[64], expected[80];   /* formatted, as printed */
    char time[128];            /* how long its runs took, from their files */
    int mine;                  /* evaluated on a reviewer's run (claims_evaluate_mine) */
    enum claim_stated {        /* when its band was stated (claims_classify) */
        STATED_UNKNOWN,        /* no history given, or a run it needs not given */
        STATED_BEFORE,         /* before its runs: predicted */
        STATED_REVISED,        /* moved after its runs, recorded */
        STATED_AFTER,          /* a claim new since its runs */
        STATED_UNRECORDED,     /* moved after its runs without a record: a failure */
    } stated;
    char stated_text[640];     /* in words, e.g. "predicted: stated 2026-11-25, its runs
                                  from 2026-11-27" */
    int elsewhere;             /* and a claim about the reference machines' CPUs, so
                                  that run's verdict is reported, never a failure */
};

/* Evaluate claim c over the given runs (matched by role). */
void claims_evaluate(const struct claim *c, const struct run *runs, size_t nruns,
                     struct claim_result *r);

/* Evaluate claim c on one reviewer's run alone, in place of the claim's runs:
 *   - a claim over host rows, of any scope (a run without a GPU has host rows
 *     alone, and checks these claims only); one of scope `reference` is about
 *     the reference machines' CPUs, so its verdict there is marked `elsewhere`:
 *     reported, never counted as a failure (claims_report);
 *   - a claim over GPU rows: of scope `any` on a GPU run; of scope `reference`
 *     only when the run's GPU is that of one of the claim's runs among `refs`;
 *   - agreement claims (two reference runs compared) are not evaluated. */
void claims_evaluate_mine(const struct claim *c, const struct run *mine, const struct run *refs,
                          size_t nrefs, struct claim_result *r);

/* Does the claim read host rows (the agreement of the host rows, or values of
 * a host rung), which a machine without a GPU can measure again? */
int claims_on_host(const struct claim *c);

/* Where the claim holds, by its scope and rows: "any x86-64 core" or "the
 * reference machines' CPUs" for a claim over host rows, "any GPU" or "the GPU
 * models of its runs" for one over GPU rows. */
const char *claims_holds_on(const struct claim *c);

/* A band (at_least X, at_most X, between X Y, about X P%) into [lo, hi]: 0 or -1. */
int claims_parse_band(const char *v, double *lo, double *hi);
/* A band's text with single spaces, as bands are compared. */
void claims_band_text(const char *v, char *dst, size_t len);

/* When each claim's band was stated (scripts/claim-history.sh's lines): the
 * time, the commit, and the band just before ("" for a claim new then). */
struct claim_history {
    char stated[24];           /* YYYY-MM-DDTHH:MM:SSZ */
    char commit[48];
    char previous[64];
};

/* Read a history file for the claims of cs, into h[cs->n] (in cs's order): 0,
 * or -1 with "FILE:LINE: ..." in err (a claim missing or unknown, a bad line). */
int claims_history_load(const char *path, const struct claims *cs, struct claim_history *h,
                        char *err, size_t errlen);

/* Classify claim c by its history h against the runs it reads (their
 * created_utc), into r->stated and r->stated_text. */
void claims_classify(const struct claim *c, const struct claim_history *h, const struct run *runs,
                     size_t nruns, struct claim_result *r);

/* The verdicts as an aligned table (or Markdown for the README); returns the
 * number of failed claims, a verdict marked `elsewhere` not among them.  Of
 * results from claims_evaluate_mine (`mine`), those not evaluated are left
 * out, and the verdicts read "held", "NOT HELD" and, `elsewhere`, "not held
 * here". */
size_t claims_report(FILE *out, const struct claims *cs, const struct claim_result *rs,
                     int markdown);

#endif
