/* The shape suite and the corpora read back: each rung's best per shape and
 * its class, the dispatch row, the corpus classes and the finer rungs, the
 * order of the groups of the index, every shape in every view, and the claims
 * a reviewer's host run can check. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "claims/claims.h"
#include "views/derive.h"
#include "experiment/experiment.h"
#include "core/inputs.h"
#include "views/estimates.h"
#include "measure/plan.h"
#include "claims/values.h"
#include "util.h"
#include "derive_parts.h"

/* What claim i of a file gives: its verdict and, where given, its text, how
 * many values it measured (-1: not asked) and where its worst value was (a
 * part of it). */
struct want_claim {
    enum claim_verdict verdict;
    const char *text;
    long count;
    const char *worst;
};

static void expect_claims(const struct claims *cs, const struct claim_result *res,
                          const struct want_claim *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (res[i].verdict != w[i].verdict)
            fail_msg("case %zu ([%s]): verdict %d, wanted %d", i, cs->c[i].id, (int)res[i].verdict,
                     (int)w[i].verdict);
        if (w[i].text && strcmp(res[i].text, w[i].text) != 0)
            fail_msg("case %zu ([%s]): text \"%s\", wanted \"%s\"", i, cs->c[i].id, res[i].text,
                     w[i].text);
        if (w[i].count >= 0 && res[i].count != (size_t)w[i].count)
            fail_msg("case %zu ([%s]): %zu values, wanted %ld", i, cs->c[i].id, res[i].count,
                     w[i].count);
        if (w[i].worst && !strstr(res[i].worst, w[i].worst))
            fail_msg("case %zu ([%s]): worst \"%s\" lacks \"%s\"", i, cs->c[i].id, res[i].worst,
                     w[i].worst);
    }
}

/* A passed row of `rung` at M x N x K with the decomposition given (unpaired:
 * its % of cuBLAS is the ratio of the two rows' GFLOP/s). */
static struct result_row row_at(const char *rung, int M, int N, int K, double gflops, int tile,
                                int bm, int bn, int grid, int per_sm, int splits)
{
    struct result_row r = derive_row_of(rung, 1, gflops, tile, 0);
    r.M = M, r.N = N, r.K = K;
    r.flops = 2.0 * M * N * K;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = r.flops / (gflops * 1e6);
    r.time_ms_stddev = 0.01 * r.time_ms_mean;
    r.block_rows = bm, r.block_cols = bn, r.thread_rows = bm ? 4 : 0, r.thread_cols = bn ? 8 : 0;
    r.grid_blocks = grid, r.blocks_per_sm = per_sm, r.k_splits = splits;
    if (registry_find(rung)->dispatch) snprintf(r.chosen, sizeof r.chosen, "gpu_splitk %d/32", tile);
    return r;
}

/* A view of one run as text (malloc'd), failing the test if it is refused. */
static char *table_text(const char *view, struct run *r)
{
    char err[256], *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    if (derive_table(out, view, r, 1, NULL, err, sizeof err) != 0) fail_msg("%s: %s", view, err);
    fclose(out);
    return buf;
}

/* The corpora: classes by the held-out protocol's rule, in that order; the
 * fastest rung of a precision may be a more precise one (FP32 under TF32), its
 * % taken against cuBLAS at the precision; the class view sums them up. */
static void corpus_points_classes_and_finer_rungs(void **state)
{
    struct known *k = *state;
    char err[256];
    assert_int_equal(corpus_class_of((struct shape){4, 4096, 4096}), CC_GEMV);
    assert_int_equal(corpus_class_of((struct shape){4096, 8, 3}), CC_GEMV);
    assert_int_equal(corpus_class_of((struct shape){5000, 5000, 64}), CC_SHORT_K);
    assert_int_equal(corpus_class_of((struct shape){20, 3000, 3000}), CC_FEW);
    assert_int_equal(corpus_class_of((struct shape){33, 33, 65}), CC_REST);
    struct result_row rows[] = {
        row_at("gpu_async_copy", 2000, 2000, 2000, 900, 128, 128, 128, 256, 2, 1),
        row_at("cublas_fp32", 2000, 2000, 2000, 1000, 0, 0, 0, 0, 0, 0),
        row_at("tf32_splitk_tma", 2000, 2000, 2000, 5000, 128, 128, 128, 256, 1, 1),
        row_at("cublas_tf32", 2000, 2000, 2000, 4000, 0, 0, 0, 0, 0, 0),
        row_at("gpu_gemv", 4, 4096, 4096, 900, 256, 8, 256, 512, 8, 4),
        row_at("tf32_splitk_tma", 4, 4096, 4096, 600, 16, 16, 128, 32, 1, 4),
        row_at("dispatch_tf32", 4, 4096, 4096, 800, 16, 0, 0, 32, 1, 4),
        row_at("cublas_fp32", 4, 4096, 4096, 1000, 0, 0, 0, 0, 0, 0),
        row_at("cublas_tf32", 4, 4096, 4096, 1200, 0, 0, 0, 0, 0, 0),
        row_at("gpu_short_k", 5000, 5000, 16, 2000, 64, 64, 128, 3200, 3, 1),
        row_at("cublas_fp32", 5000, 5000, 16, 1000, 0, 0, 0, 0, 0, 0),
        row_at("cublas_tf32", 5000, 5000, 16, 1000, 0, 0, 0, 0, 0, 0),
    };
    /* paired with cuBLAS: TF32 rung 17 at 2000^3 (1.24 against 1.25 standalone: within
     * 5%), gpu_short_k (1.5 against 2.0) */
    rows[2].pairs = rows[9].pairs = 4;
    snprintf(rows[2].paired_with, sizeof rows[2].paired_with, "cublas_tf32");
    snprintf(rows[9].paired_with, sizeof rows[9].paired_with, "cublas_fp32");
    rows[2].ref_ratio = 1.24, rows[9].ref_ratio = 1.5;
    char path[400];
    snprintf(path, sizeof path, "%s/corpus.h5", k->dir);
    derive_write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
    struct run r;
    if (derive_open(&r, "corpus", path, err, sizeof err) != 0) fail_msg("%s", err);
    struct suite_point pt[8];
    assert_int_equal(derive_corpus(&r, PREC_FP32, pt, 8), 3);
    assert_int_equal(pt[0].corpus, CC_GEMV);
    assert_int_equal(pt[1].corpus, CC_SHORT_K);
    assert_int_equal(pt[2].corpus, CC_REST);
    /* a point's % is the lowest of its estimates: gpu_short_k's paired 150, not
     * the 200 of its row over cuBLAS's (best_pct_events, which the second
     * timer's is held against) */
    assert_true(fabs(pt[0].best_pct - 90) < 1e-9 && fabs(pt[1].best_pct - 150) < 1e-9);
    assert_true(fabs(pt[1].best_pct_events - 200) < 1e-9);
    assert_true(isnan(pt[0].dispatch_pct));
    assert_int_equal(derive_corpus(&r, PREC_TF32, pt, 8), 3);
    assert_string_equal(pt[0].best->name, "gpu_gemv");   /* FP32, faster than the TF32 rung */
    assert_true(fabs(pt[0].best_pct - 75) < 1e-9 && fabs(pt[0].dispatch_pct - 800.0 / 12) < 1e-9);
    assert_string_equal(pt[1].best->name, "gpu_short_k");
    assert_string_equal(pt[2].best->name, "tf32_splitk_tma");
    assert_true(fabs(pt[2].best_pct - 124) < 1e-9 && fabs(pt[2].best_pct_events - 125) < 1e-9);
    /* the suite keeps to its precision: there the TF32 best at 4 x 4096 x 4096 is the TF32 rung */
    const size_t ns = derive_suite(&r, PREC_TF32, pt, 8);
    for (size_t i = 0; i < ns; i++) assert_int_equal(pt[i].best->precision, PREC_TF32);
    char *buf = table_text("corpus-classes", &r);
    assert_non_null(strstr(buf, "tf32\tall\t3\t"));
    assert_non_null(strstr(buf, "fp32\tshort_k\t1\t150\t150\t"));
    free(buf);
    buf = table_text("corpus", &r);
    assert_non_null(strstr(buf, "tf32\t4\t4096\t4096\t4x4096x4096\tgemv\t18\tgpu_gemv\t"));
    /* the roofline's columns: FLOP per byte of A, B and C moved once, and GFLOP/s */
    assert_non_null(strstr(buf, "\tbest_copy_share\tintensity\tbest_gflops\t"));
    assert_true(fabs(corpus_bytes((struct shape){5000, 5000, 16}) - 4.0 * 25160000) < 1e-6);
    free(buf);
    /* the distribution: each series' %s in rising order, the share at or below */
    buf = table_text("corpus-cdf", &r);
    assert_non_null(strstr(buf, "tf32\tbest\t1\t0.333333\t75\ntf32\tbest\t2\t0.666667\t124\n"
                                "tf32\tbest\t3\t1\t200\ntf32\tdispatch\t1\t1\t66.6667\n"));
    free(buf);
    struct corpus_summary su;
    const size_t nt = derive_corpus(&r, PREC_TF32, pt, 8);
    derive_corpus_summary(pt, nt, CC_COUNT, &su);
    assert_int_equal(su.shapes, 3);
    assert_true(fabs(su.best_geomean - cbrt(75.0 * 124 * 200)) < 1e-9 && su.best_min == 75);
    assert_true(isnan(su.dispatch_geomean) && fabs(su.best_share_90 - 200.0 / 3) < 1e-9);
    assert_true(isnan(su.regret_median) && isnan(su.regret_p90) && isnan(su.dispatch_share_10));
    derive_corpus_summary(pt, nt, CC_GEMV, &su);   /* gpu_gemv at 900 GFLOP/s, the dispatch at 800 */
    assert_true(fabs(su.regret_median - 1.125) < 1e-9 && fabs(su.regret_p90 - 1.125) < 1e-9);
    assert_true(su.dispatch_share_10 == 0);
    derive_corpus_summary(pt, nt, CC_FEW, &su);
    assert_true(su.shapes == 0 && isnan(su.best_geomean));
    /* claims over the corpus: its summary, or each shape's %, of some classes */
    char cpath[400];
    snprintf(cpath, sizeof cpath, "%s/corpus.ini", k->dir);
    derive_write_text(cpath, "[geo]\ntext = {range}\nvalue = corpus_geomean\nprecision = tf32\nruns = corpus\n"
                      "expect = between 122 124\n"
                      "[share]\ntext = {range}\nvalue = corpus_share_90\nprecision = tf32\n"
                      "runs = corpus\nexpect = between 66 67\n"
                      "[gemv]\ntext = {min} at {min_at}\nvalue = corpus_pct_ref\nprecision = tf32\n"
                      "classes = gemv\nruns = corpus\nexpect = at_most 80\n"
                      "[none]\ntext = {range}\nvalue = corpus_dispatch_geomean\nprecision = tf32\n"
                      "classes = short_k rest\nruns = corpus\nexpect = at_least 1\n"
                      "[est]\ntext = {range}\nvalue = corpus_estimates_share\nprecision = tf32\n"
                      "runs = corpus\nexpect = at_least 95\n"
                      "[est32]\ntext = {range}\nvalue = corpus_estimates_share\nprecision = fp32\n"
                      "runs = corpus\nexpect = at_least 95\n"
                      "[regret]\ntext = {range}\nvalue = corpus_regret_median\nprecision = tf32\n"
                      "classes = gemv\nruns = corpus\nexpect = between 1.12 1.13\n"
                      "[p90]\ntext = {range}\nvalue = corpus_regret_p90\nprecision = tf32\n"
                      "classes = gemv\nruns = corpus\nexpect = at_most 1.1\n"
                      "[within]\ntext = {range}\nvalue = corpus_dispatch_share_10\nprecision = tf32\n"
                      "classes = gemv\nruns = corpus\nexpect = at_least 90\n"
                      "[regret_all]\ntext = {range}\nvalue = corpus_regret_median\nprecision = tf32\n"
                      "runs = corpus\nexpect = at_most 2\n");
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result res[10];
    assert_int_equal(claims_load(cpath, cs, err, sizeof err), 0);
    for (size_t i = 0; i < 10; i++) claims_evaluate(&cs->c[i], &r, 1, &res[i]);
    const struct want_claim corpus_claims[] = {
        {CLAIM_PASSED, NULL, -1, NULL},
        {CLAIM_PASSED, NULL, -1, NULL},
        {CLAIM_PASSED, "75.0 at 4x4096x4096 (gpu_gemv)", 1, NULL},
        {CLAIM_NOT_EVALUATED, NULL, -1, NULL},   /* no dispatch row there */
        /* of the shapes whose fastest rung was paired with cuBLAS at the
         * precision: TF32 one, within 5%; FP32 one, 25% apart */
        {CLAIM_PASSED, "100.0", -1, NULL},
        {CLAIM_FAILED, "0.0", -1, NULL},
        /* the dispatch's regret at the gemv shape: 900 GFLOP/s over 800 */
        {CLAIM_PASSED, "1.125", -1, NULL},
        {CLAIM_FAILED, "1.125", -1, NULL},
        {CLAIM_FAILED, "0.0", -1, NULL},
        {CLAIM_NOT_EVALUATED, NULL, -1, NULL},   /* two shapes lack a dispatch row */
    };
    expect_claims(cs, res, corpus_claims, 10);

    /* the second timer: a claim on it refuses a run without it, and reads the
     * rows' kernel times where it was on (here each row's event time, but
     * gpu_short_k's kernels at half of it: 400% of cuBLAS TF32 against 200%) */
    char kpath[400];
    snprintf(kpath, sizeof kpath, "%s/corpus-kernel.ini", k->dir);
    derive_write_text(kpath, "[kgeo]\ntext = {range}\nvalue = corpus_kernel_geomean\nprecision = tf32\n"
                      "runs = corpus\nexpect = at_least 1\n"
                      "[kgap]\ntext = {max}\nvalue = corpus_kernel_gap\nprecision = tf32\n"
                      "runs = corpus\nexpect = at_most 40\n"
                      "[kshare]\ntext = {range}\nvalue = corpus_kernel_share\nprecision = tf32\n"
                      "runs = corpus\nexpect = between 60 70\n"
                      "[kapart]\ntext = {max} at {max_at}\nvalue = corpus_kernel_apart_ms\nprecision = tf32\n"
                      "runs = corpus\nexpect = at_most 1\n");
    assert_int_equal(claims_load(kpath, cs, err, sizeof err), 0);
    claims_evaluate(&cs->c[0], &r, 1, &res[0]);
    assert_int_equal(res[0].verdict, CLAIM_FAILED);
    assert_non_null(strstr(res[0].worst, "corpus: no kernel times"));
    derive_close(&r);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        rows[i].kernel_ms_median = rows[i].time_ms_median * (strcmp(rows[i].variant, "gpu_short_k") ? 1.0 : 0.5);
    snprintf(path, sizeof path, "%s/corpus-kernel.h5", k->dir);
    derive_write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
    if (derive_open(&r, "corpus", path, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(derive_corpus(&r, PREC_TF32, pt, 8), 3);
    assert_true(fabs(pt[0].best_pct_kernel - 75) < 1e-9 && fabs(pt[0].dispatch_pct_kernel - 800.0 / 12) < 1e-9);
    assert_true(fabs(pt[1].best_pct_kernel - 400) < 1e-9 && isnan(pt[1].dispatch_pct_kernel));
    for (size_t i = 0; i < 4; i++) claims_evaluate(&cs->c[i], &r, 1, &res[i]);
    char geo[32], gap[32];
    snprintf(geo, sizeof geo, "%.1f", cbrt(75.0 * 400 * 125));
    snprintf(gap, sizeof gap, "%.1f", cbrt(75.0 * 400 * 125) - cbrt(75.0 * 200 * 125));
    const struct want_claim kernel_claims[] = {
        {CLAIM_PASSED, geo, -1, NULL},
        {CLAIM_PASSED, gap, -1, NULL},
        {CLAIM_PASSED, "66.7", -1, NULL},
        /* cuBLAS TF32 at 5000 x 5000 x 16, named by run and shape */
        {CLAIM_PASSED, "0.80 at corpus 5000x5000x16", -1, NULL},
    };
    expect_claims(cs, res, kernel_claims, 4);
    buf = table_text("corpus", &r);
    assert_non_null(strstr(buf, "\tbest_gflops\tbest_pct_kernel\tdispatch_pct_kernel\n"));
    free(buf);
    free(cs);
    derive_close(&r);
}

/* The dispatch's regret over a corpus: each point's dispatch time over its
 * fastest rung's, their median, 90th percentile (nearest rank) and the share
 * within 10%, in the summary and the class view. */
static void corpus_regret_median_p90_and_share(void **state)
{
    struct known *k = *state;
    char err[256], path[400];
    const double regret[] = {1.0, 1.0, 1.02, 1.05, 1.08, 1.09, 1.15, 1.3, 1.6, 2.0};
    struct result_row rows[30];
    for (int i = 0; i < 10; i++) {   /* ten shapes of class rest, in another order than the regrets */
        const int M = 200 + 7 * ((3 * i) % 10);
        rows[3 * i] = row_at("gpu_async_copy", M, 200, 200, 1000, 64, 64, 64, 16, 3, 1);
        rows[3 * i + 1] = row_at("dispatch_fp32", M, 200, 200, 1000 / regret[i], 64, 0, 0, 16, 3, 1);
        rows[3 * i + 2] = row_at("cublas_fp32", M, 200, 200, 1000, 0, 0, 0, 0, 0, 0);
    }
    snprintf(path, sizeof path, "%s/regret.h5", k->dir);
    derive_write_rows(path, rows, 30, 0, 132);
    struct run r;
    if (derive_open(&r, "regret", path, err, sizeof err) != 0) fail_msg("%s", err);
    struct suite_point pt[16];
    const size_t n = derive_corpus(&r, PREC_FP32, pt, 16);
    assert_int_equal(n, 10);
    struct corpus_summary su;
    derive_corpus_summary(pt, n, CC_COUNT, &su);
    assert_true(fabs(su.regret_median - 1.085) < 1e-9);   /* (1.08 + 1.09) / 2 */
    assert_true(fabs(su.regret_p90 - 1.6) < 1e-9);        /* the 9th of 10 */
    assert_true(fabs(su.dispatch_share_10 - 60) < 1e-9);  /* 1.0 to 1.09 */
    derive_corpus_summary(pt, n - 1, CC_COUNT, &su);      /* nine, without the most FLOPs (1.05) */
    assert_int_equal(su.shapes, 9);
    assert_true(fabs(su.regret_median - 1.09) < 1e-9 && fabs(su.regret_p90 - 2.0) < 1e-9);
    assert_true(fabs(su.dispatch_share_10 - 500.0 / 9) < 1e-9);
    char *buf = table_text("corpus-classes", &r);
    assert_non_null(strstr(buf, "\tbest_share_90\tregret_median\tregret_p90\tdispatch_share_10\n"));
    assert_non_null(strstr(buf, "fp32\tall\t10\t"));
    assert_non_null(strstr(buf, "\t1.085\t1.6\t60\n"));
    free(buf);
    derive_close(&r);
}

/* The shape suite: classes by the rule, the fastest hand-written rung per shape
 * (not the dispatch row, not cuBLAS), its decomposition, and the suite's claims;
 * experiments/shapes.ini covers every class. */
static void shape_suite_best_dispatch_and_claims(void **state)
{
    struct known *k = *state;
    static const struct {
        struct shape s;
        const char *cls;
    } classes[] = {{{16, 4096, 4096}, "decode"},      {{4096, 16, 4096}, "decode"},
                   {{200, 300, 100}, "small"},        {{64, 256, 131072}, "long_k"},
                   {{8192, 4096, 128}, "short_k"},    {{1023, 1025, 1027}, "odd"},
                   {{8192, 1024, 1024}, "aspect"},    {{1024, 1024, 16384}, "aspect"},
                   {{2048, 14336, 4096}, "large"},    {{512, 512, 512}, "small"}};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        assert_string_equal(shape_class_name(shape_class_of(classes[i].s)), classes[i].cls);
    enum shape_class c;
    assert_int_equal(shape_class_parse("long_k", &c), 0);
    assert_int_equal(c, SC_LONG_K);
    assert_int_equal(shape_class_parse("tiny", &c), -1);

    /* every class in the shipped suite, and at least 24 shapes */
    struct experiment *e = calloc(1, sizeof *e);
    char err[512];
    assert_non_null(e);
    if (experiment_load("experiments/shapes.ini", e, err, sizeof err) != 0) fail_msg("%s", err);
    struct plan pl;
    if (plan_from_experiment(e, 1, "", &pl, err, sizeof err) != 0) fail_msg("%s", err);
    unsigned seen = 0;
    struct shape distinct[64];
    size_t nd = 0;
    for (size_t i = 0; i < pl.n; i++) {
        const struct shape s = {pl.points[i].M, pl.points[i].N, pl.points[i].K};
        seen |= 1u << shape_class_of(s);
        size_t j = 0;
        while (j < nd && !(distinct[j].M == s.M && distinct[j].N == s.N && distinct[j].K == s.K)) j++;
        if (j == nd && nd < 64) distinct[nd++] = s;
    }
    assert_int_equal(seen, (1u << SC_COUNT) - 1);
    assert_true(nd >= 24);
    plan_free(&pl);
    free(e);

    /* decode: split-K 300 (and 250 at another tile), rung 12 100, dispatch 280,
     * cuBLAS 200; large: rung 12 900, split-K 800, dispatch 800, cuBLAS 1000;
     * long K: split-K 50, rung 12 1, dispatch 50, cuBLAS 100 */
    struct result_row rows[] = {
        row_at("gpu_async_copy", 16, 4096, 4096, 100, 128, 128, 128, 32, 2, 1),
        row_at("gpu_splitk", 16, 4096, 4096, 300, 32, 32, 128, 384, 3, 12),
        row_at("gpu_splitk", 16, 4096, 4096, 250, 128, 128, 128, 264, 2, 8),
        row_at("dispatch_fp32", 16, 4096, 4096, 280, 32, 0, 0, 384, 3, 12),
        row_at("cublas_fp32", 16, 4096, 4096, 200, 0, 0, 0, 0, 0, 0),
        row_at("gpu_async_copy", 1024, 1024, 1024, 900, 128, 128, 128, 64, 2, 1),
        row_at("gpu_splitk", 1024, 1024, 1024, 800, 128, 128, 128, 256, 2, 4),
        row_at("dispatch_fp32", 1024, 1024, 1024, 800, 128, 0, 0, 256, 2, 4),
        row_at("cublas_fp32", 1024, 1024, 1024, 1000, 0, 0, 0, 0, 0, 0),
        row_at("gpu_async_copy", 128, 128, 65536, 1, 128, 128, 128, 1, 2, 1),
        row_at("gpu_splitk", 128, 128, 65536, 50, 32, 32, 128, 396, 3, 99),
        row_at("dispatch_fp32", 128, 128, 65536, 50, 32, 0, 0, 396, 3, 99),
        row_at("cublas_fp32", 128, 128, 65536, 100, 0, 0, 0, 0, 0, 0),
        row_at("tf32_splitk_tma", 1024, 1024, 1024, 5000, 64, 64, 128, 128, 1, 1),
        row_at("cublas_tf32", 1024, 1024, 1024, 4000, 0, 0, 0, 0, 0, 0),
    };
    char path[400];
    snprintf(path, sizeof path, "%s/suite.h5", k->dir);
    derive_write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
    struct run r;
    if (derive_open(&r, "suite", path, err, sizeof err) != 0) fail_msg("%s", err);

    struct suite_point pt[8];
    assert_int_equal(derive_suite(&r, PREC_FP32, pt, 8), 3);
    /* the suite's order: decode, long K, large */
    assert_int_equal(pt[0].cls, SC_DECODE);
    assert_int_equal(pt[1].cls, SC_LONG_K);
    assert_int_equal(pt[2].cls, SC_LARGE);
    assert_string_equal(pt[0].best->name, "gpu_splitk");   /* not the dispatch row */
    assert_true(fabs(pt[0].best_pct - 150) < 1e-9 && fabs(pt[0].dispatch_pct - 140) < 1e-9);
    assert_string_equal(pt[2].best->name, "gpu_async_copy");
    assert_true(fabs(pt[2].best_pct - 90) < 1e-9 && fabs(pt[2].dispatch_pct - 80) < 1e-9);
    assert_true(fabs(derive_tiles(pt[0].best_row) - 32) < 1e-9);
    assert_true(fabs(derive_waves(&r, pt[0].best_row) - 384.0 / (3 * 132)) < 1e-9);
    assert_true(fabs(derive_k_per_block(pt[0].best_row) - 4096.0 / 12) < 1e-9);
    assert_true(isnan(derive_tiles(pt[0].ref_row)));
    /* a dimension near INT_MAX: its tiles counted without overflow */
    struct result_row wide = *pt[0].best_row;
    wide.M = wide.N = 2147483647, wide.block_rows = wide.block_cols = 128;
    assert_true(fabs(derive_tiles(&wide) - 16777216.0 * 16777216.0) < 1.0);
    assert_true(fabs(derive_suite_geomean(pt, 3, 0) - cbrt(150.0 * 90 * 50)) < 1e-9);
    assert_true(fabs(derive_suite_geomean(pt, 3, 1) - cbrt(140.0 * 80 * 50)) < 1e-9);
    assert_int_equal(derive_suite(&r, PREC_TF32, pt, 8), 1);
    assert_true(fabs(pt[0].best_pct - 125) < 1e-9 && isnan(pt[0].dispatch_pct));

    /* the views: one row per (rung, shape), the best marked; one per point */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(derive_table(out, "shapes", &r, 1, NULL, err, sizeof err), 0);
    assert_int_equal(derive_table(out, "suite", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "\tgpu_splitk\tgpu\tfp32\t16\t4096\t4096\t0\t16x4096x4096\t1\tdecode\t1\t300"));
    assert_non_null(strstr(buf, "fp32\t1024\t1024\t1024\t1024\t3\tlarge\t12\tgpu_async_copy"));
    free(buf);

    /* the claims over the suite */
    char p[400];
    snprintf(p, sizeof p, "%s/s.ini", k->dir);
    derive_write_text(p, "[min]\ntext = {min} at {min_at}\nvalue = suite_pct_ref\nprecision = fp32\n"
                  "runs = suite\nexpect = at_least 45\n"
                  "[large]\ntext = t\nvalue = suite_pct_ref\nprecision = fp32\nclasses = large decode\n"
                  "runs = suite\nexpect = at_least 95\n"
                  "[geo]\ntext = {range}\nvalue = suite_geomean\nprecision = fp32\nruns = suite\n"
                  "expect = between 87 88.5\n"
                  "[share]\ntext = {range}\nvalue = dispatch_share\nprecision = fp32\nruns = suite\n"
                  "expect = between 93 95\n");
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result res[4];
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    for (size_t i = 0; i < 4; i++) claims_evaluate(&cs->c[i], &r, 1, &res[i]);
    const struct want_claim suite_claims[] = {
        {CLAIM_PASSED, "50.0 at 128x128x65536 (gpu_splitk)", -1, NULL},
        {CLAIM_FAILED, NULL, 2, "suite 1024 (gpu_async_copy)"},   /* 90 at 1024 */
        {CLAIM_PASSED, NULL, -1, NULL},
        {CLAIM_PASSED, NULL, -1, NULL},
    };
    expect_claims(cs, res, suite_claims, 4);
    const struct {
        const char *text, *expect;
    } bad[] = {
        {"[a]\ntext = t\nvalue = suite_geomean\nruns = x\nexpect = at_least 1\n",
         ":1: [a]: a value over the shape suite or a corpus needs precision"},
        {"[a]\ntext = t\nvalue = suite_geomean\nprecision = fp32\nclasses = tiny\nruns = x\n"
         "expect = at_least 1\n", ":1: [a]: classes: 'tiny' (expected decode"},
        /* a corpus's classes are its own; the error is at its claim's line */
        {"[a]\ntext = t\nvalue = suite_geomean\nprecision = fp32\nruns = x\nexpect = at_least 1\n"
         "[b]\ntext = t\nvalue = corpus_geomean\nprecision = tf32\nclasses = gemv decode\n"
         "runs = x\nexpect = at_least 1\n", ":7: [b]: classes: 'decode' (expected gemv"},
        {"[a]\ntext = t\nvalue = pct_ref gpu_tiled\nclasses = odd\nruns = x\nshapes = 256\n"
         "expect = at_least 1\n", ":1: [a]: classes filter values over the shape suite or a corpus only"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        derive_write_text(p, bad[i].text);
        assert_int_equal(claims_load(p, cs, err, sizeof err), -1);
        if (!strstr(err, bad[i].expect)) fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].expect);
    }
    free(cs);
    derive_close(&r);
}

/* The index sorts rows into groups as derive_group_cmp orders them, each group
 * in file order, however many distinct names the rows carry (the sort ranks
 * the names through a hash table). */
static int by_cmp_then_place(const void *a, const void *b)
{
    const struct result_row *x = *(const struct result_row *const *)a;
    const struct result_row *y = *(const struct result_row *const *)b;
    const int c = derive_group_cmp(x, y);
    return c ? c : (x > y) - (x < y);
}

static void index_orders_groups_like_group_cmp(void **state)
{
    (void)state;
    enum { ROWS = 20000 };
    static const char *const memory[] = {"", "pinned", "pageable"};
    struct run r;
    memset(&r, 0, sizeof r);
    r.f.rows = calloc(ROWS, sizeof *r.f.rows);
    r.f.n_rows = ROWS;
    assert_non_null(r.f.rows);
    uint64_t seed = 31;
    for (size_t i = 0; i < ROWS; i++) {
        struct result_row *x = &r.f.rows[i];
        const uint64_t u = splitmix64(&seed);
        /* a few names shared by many rows, and many names of one row each */
        if (u % 4) snprintf(x->variant, sizeof x->variant, "rung_%u", (unsigned)(u >> 8) % 7);
        else snprintf(x->variant, sizeof x->variant, "z%llu", (unsigned long long)(u >> 16));
        snprintf(x->host_memory, sizeof x->host_memory, "%s", memory[(u >> 40) % 3]);
        x->M = 1 + (int)((u >> 44) % 3), x->N = 1 + (int)((u >> 48) % 3), x->K = 1 + (int)((u >> 52) % 2);
    }
    assert_int_equal(derive_index(&r), 0);
    const struct result_row **want = malloc(ROWS * sizeof *want);
    assert_non_null(want);
    for (size_t i = 0; i < ROWS; i++) want[i] = &r.f.rows[i];
    qsort(want, ROWS, sizeof *want, by_cmp_then_place);
    for (size_t i = 0; i < ROWS; i++)
        if (r.by_group[i] != want[i]) fail_msg("row %zu of the index differs", i);
    /* and a group's rows are found by a search */
    const struct row_span span = derive_rows_of(&r, "rung_3", (struct shape){2, 2, 1});
    const size_t n = span.n;
    assert_non_null(span.group);
    size_t count = 0;
    for (size_t i = 0; i < ROWS; i++)
        count += !strcmp(r.f.rows[i].variant, "rung_3") && r.f.rows[i].M == 2 &&
                 r.f.rows[i].N == 2 && r.f.rows[i].K == 1 && !r.f.rows[i].host_memory[0];
    assert_true(count > 0 && n == count);
    free(want);
    derive_close(&r);
}

/* No view stops at a fixed count of shapes: a rung at 600 shapes has 600
 * ladder rows, each with its own place among the shapes. */
static void views_take_every_shape(void **state)
{
    (void)state;
    enum { SHAPES = 600 };
    struct result_row *rows = malloc(SHAPES * sizeof *rows);
    assert_non_null(rows);
    for (int i = 0; i < SHAPES; i++) rows[i] = derive_row_of("gpu_tiled", 32 * (i + 1), 100 + i, 16, 0);
    char dir[256], path[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/many.h5", dir);
    derive_write_rows(path, rows, SHAPES, 0, 0);
    free(rows);
    struct run r;
    assert_int_equal(derive_open(&r, "many", path, err, sizeof err), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(derive_table(out, "configs", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    size_t lines = 0, last_rank = 0;
    for (char *l = text; (l = strchr(l, '\n')); l++) lines++;
    const char *tail = strrchr(text, '\t');   /* the last row's shape_rank */
    if (tail) last_rank = strtoul(tail + 1, NULL, 10);
    assert_int_equal(lines, SHAPES + 1);
    assert_int_equal(last_rank, SHAPES);
    free(text);
    out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(derive_table(out, "ladder", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    lines = 0;
    for (char *l = text; (l = strchr(l, '\n')); l++) lines++;
    assert_int_equal(lines, SHAPES + 1);
    free(text);
    derive_close(&r);
    test_rmtree(dir);
}

/* The line of a claims report that starts with the claim's id, into buf ("" if none). */
static void report_line(const char *out, const char *id, char *buf, size_t len)
{
    buf[0] = '\0';
    const size_t k = strlen(id);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, id, k) && l[k] == ' ') {
            snprintf(buf, len, "%.*s", (int)strcspn(l, "\n"), l);
            return;
        }
}

/* The host rungs' claims that are written for a machine other than one
 * known in advance: values bounded so that they hold (at_least 0) or fail
 * (at_most 0) on any run's rows, whatever its CPU. */
#define HOST_CLAIM(id, o, expect, scope)                                                   \
    "[" id "]\ntext = restrict over naive at -O" o " on {cpus}: {range}\n"         \
    "value = ratio host_restrict host_naive\nopt_levels = " o "\nother_opt_levels = " o "\n" \
    "runs = h100\nshapes = 32\nexpect = " expect "\nscope = " scope "\n"
static const char REVIEWER_CLAIMS[] =
    HOST_CLAIM("any_holds", "1", "at_least 0", "any")
    HOST_CLAIM("reference_not_held", "3", "at_most 0", "reference")
    HOST_CLAIM("reference_holds", "3", "at_least 0", "reference")
    "[gpu_rows]\ntext = {range}\nvalue = pct_ref gpu_tiled\nruns = h100\nshapes = 32\n"
    "expect = at_least 0\nscope = any\n"
    "[host_agreement]\ntext = {range}\nvalue = agreement\nruns = repro h100\ndevice = host\n"
    "expect = between 0.5 2\nscope = reference\n";

/* A reviewer's own run (claims --mine), here a small run of the host rungs:
 * the claims over host rows are measured on it, one that holds on any x86-64
 * core held to it (exit 1 when it does not hold), one about the reference
 * machines' CPUs reported, never failed; those it cannot check (GPU rows, two
 * reference runs compared) are left out of the report.  The paper's table of
 * the host claims says where each holds. */
static void claims_on_a_reviewers_host_run(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300], cpath[300], line[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/h.ini", dir);
    snprintf(h5, sizeof h5, "%s/h.h5", dir);
    snprintf(cpath, sizeof cpath, "%s/c.ini", dir);
    test_write_file(exp, "[experiment]\nname = h\nseed = 1\n"
                         "[sampling]\nhost_min_samples = 2\nhost_min_time_ms = 1\nhost_timeout_ms = 20\n"
                         "[host]\nvariants = host_naive host_restrict\nsizes = 32\nopt_levels = 1 3\n");
    char *run_argv[] = {(char *)test_binary(), "run", exp, "-o", h5, NULL}, *out, *err;
    int rc = test_run(run_argv, &out, &err);
    if (rc != 0) fail_msg("the host run: exit %d\n%s", rc, err);
    free(out), free(err);

    test_write_file(cpath, REVIEWER_CLAIMS);
    char *argv[] = {(char *)test_binary(), "claims", cpath, "--mine", h5, NULL};
    rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("claims --mine: exit %d\n%s%s", rc, out, err);
    report_line(out, "any_holds", line, sizeof line);
    assert_non_null(strstr(line, " held "));
    assert_non_null(strstr(line, "(holds on any x86-64 core)"));
    report_line(out, "reference_not_held", line, sizeof line);
    assert_non_null(strstr(line, " not held here "));
    assert_non_null(strstr(line, "(about the reference machines' CPUs: reported, never failed)"));
    report_line(out, "reference_holds", line, sizeof line);
    assert_non_null(strstr(line, " held "));
    /* the values are this run's: its text says so where it named the reference CPUs */
    assert_non_null(strstr(out, "restrict over naive at -O3 on this machine's CPU: "));
    assert_null(strstr(out, "-O3 on the reference machines' CPUs: "));
    assert_null(strstr(out, "gpu_rows"));
    assert_null(strstr(out, "host_agreement"));
    assert_non_null(strstr(out, "3 of 5 claims evaluated on "));
    assert_non_null(strstr(out, ": 2 held, 0 not held, 1 not held here"));
    free(out), free(err);

    /* one that says it holds on any x86-64 core, and does not */
    char more[sizeof REVIEWER_CLAIMS + 400];
    snprintf(more, sizeof more, "%s%s", REVIEWER_CLAIMS,
             HOST_CLAIM("any_fails", "1", "at_most 0", "any"));
    test_write_file(cpath, more);
    rc = test_run(argv, &out, &err);
    assert_int_equal(rc, 1);
    report_line(out, "any_fails", line, sizeof line);
    assert_non_null(strstr(line, " NOT HELD "));
    assert_non_null(strstr(line, "mine 32"));
    assert_non_null(strstr(out, "4 of 6 claims evaluated on "));
    assert_non_null(strstr(out, ": 2 held, 1 not held, 1 not held here"));
    free(out), free(err);

    /* the same claims over the run as if it were the reference runs (no
     * --mine): the paper's table of the host claims, each with where it holds,
     * and no claim over GPU rows */
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result *rs = calloc(CLAIM_MAX, sizeof *rs);
    struct run *runs = calloc(2, sizeof *runs);
    char e[600], tex[300], vout[300], table[300];
    assert_int_equal(claims_load(cpath, cs, e, sizeof e), 0);
    assert_int_equal(derive_open(&runs[0], "h100", h5, e, sizeof e), 0);
    assert_int_equal(derive_open(&runs[1], "repro", h5, e, sizeof e), 0);
    for (size_t i = 0; i < cs->n; i++) claims_evaluate(&cs->c[i], runs, 2, &rs[i]);
    snprintf(tex, sizeof tex, "%s/p.tex", dir);
    snprintf(vout, sizeof vout, "%s/values.tex", dir);
    test_write_file(tex, "\\valtable{claims.host}\n");
    const char *const texs[] = {tex};
    if (values_write(texs, 1, vout, dir, runs, 2, cs, rs, e, sizeof e) != 0) fail_msg("%s", e);
    snprintf(table, sizeof table, "%s/table-claims.host.tex", dir);
    char *t = test_read_file(table, NULL);
    assert_non_null(t);
    assert_non_null(strstr(t, "\\code{any\\_holds} & "));
    assert_non_null(strstr(t, " & $\\geq$ 0.00 & any x86-64 core \\\\\n"));
    assert_non_null(strstr(t, "\\code{reference\\_not\\_held} & "));
    assert_non_null(strstr(t, " & $\\leq$ 0.00 & the reference machines' CPUs \\\\\n"));
    assert_non_null(strstr(t, "\\code{host\\_agreement} & 1.00 & 0.50 to 2.00 & the reference machines' CPUs"));
    assert_null(strstr(t, "gpu\\_rows"));
    free(t);
    derive_close(&runs[0]), derive_close(&runs[1]);
    free(cs), free(rs), free(runs);
    test_rmtree(dir);
}

const struct CMUnitTest suite_tests[] = {
    cmocka_unit_test(views_take_every_shape),
    cmocka_unit_test(index_orders_groups_like_group_cmp),
    KNOWN(shape_suite_best_dispatch_and_claims),
    KNOWN(corpus_points_classes_and_finer_rungs),
    KNOWN(corpus_regret_median_p90_and_share),
    cmocka_unit_test(claims_on_a_reviewers_host_run),
};
const size_t suite_tests_count = sizeof suite_tests / sizeof suite_tests[0];
