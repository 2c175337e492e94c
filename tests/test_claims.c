/* The claims checked against runs: the claims file's errors at their line, pass,
 * fail and wait, the estimate, agreement, wall-time, noise and telemetry
 * values, the three estimates of a paired row, the paper's values by key, a
 * style for every rung, and the shipped claims on the shipped data. */
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

void derive_write_text(const char *path, const char *text) { test_write_file(path, text); }

/* Evaluate claim c over runs and check its verdict and text; the result, for
 * what else a test checks. */
static struct claim_result expect_claim(const struct claim *c, const struct run *runs, size_t n,
                                        enum claim_verdict verdict, const char *text)
{
    struct claim_result r;
    claims_evaluate(c, runs, n, &r);
    assert_int_equal(r.verdict, verdict);
    assert_string_equal(r.text, text);
    return r;
}

static void claims_file_errors_name_the_line(void **state)
{
    struct known *k = *state;
    char p[400], err[512];
    snprintf(p, sizeof p, "%s/c.ini", k->dir);
    struct claims *cs = calloc(1, sizeof *cs);
    const struct {
        const char *text, *expect;
    } bad[] = {
        {"[a]\ntext = t\nvalue = pct_ref gpu_nope\n", ":3: value: unknown rung 'gpu_nope'"},
        {"[a]\ntext = t\nvalue = ratio gpu_tiled\n", ":3: value: ratio takes 2 rung(s), given 1"},
        {"[a]\ntext = t\nexpect = more_than 3\n", ":3: expect: 'more_than 3'"},
        {"[a]\ntext = t\nvalue = pct_ref gpu_tiled\nruns = x\nexpect = at_least 1\n",
         ":1: [a] needs shapes"},
        {"[a]\nflavour = 1\n", ":2: unknown key 'flavour'"},
        /* a claim must say what it measures (the fuzzer's first find: none was
         * read as pct_ref of no rung) */
        {"[a]\ntext = t\nruns = x\nshapes = 4096\nexpect = at_least 1\n",
         ":1: [a] needs text, value, runs and expect"},
        {"[a]\ntext = t\nvalue = agreement\nruns = x y\nrungs = gpu_naive\nexcept_rungs = gpu_tiled\n"
         "expect = at_least 1\n",
         ":1: [a]: except_rungs filters agreement claims that name no rungs"},
        {"[a]\ntext = t\nvalue = wall_s\nruns = x\nexcept_rungs = gpu_tiled\nexpect = at_least 1\n",
         ":1: [a]: except_rungs filters agreement claims that name no rungs"},
        {"text = t\n", ":1: 'text = t' (expected key = value inside a [claim] or [roles])"},
        {"[roles]\nh100 = H100\nh100 = H200\n", ":3: role 'h100' given twice (first on line 2)"},
        {"[roles]\nh100 =\n", ":2: role 'h100 = ' (expected ROLE = a word of its GPU's name"},
        /* a band that passes what would make the text false checks nothing */
        {"[a]\ntext = t\nvalue = ratio gpu_tiled gpu_naive\nruns = x\nshapes = 4096\n"
         "expect = between 0.9 1.3\nnegation = at_least 1.2\n",
         ":1: [a]: expect = between 0.9 1.3 passes values that its negation (at_least 1.2) passes too"},
        {"[a]\ntext = t\nvalue = ratio gpu_tiled gpu_naive\nruns = x\nshapes = 4096\n"
         "expect = between 0.7 1.4\nnegation = outside 0.8 1.2\n",
         ":1: [a]: expect = between 0.7 1.4 passes values that its negation (outside 0.8 1.2)"},
        {"[a]\ntext = t\nvalue = ratio gpu_tiled gpu_naive\nruns = x\nshapes = 4096\n"
         "expect = at_least 1\nnegation = about 1.1 20%\n",
         ":1: [a]: expect = at_least 1 passes values that its negation (about 1.1 20%)"},
        {"[a]\ntext = t\nnegation = beyond 3\n", ":3: negation: 'beyond 3'"},
        /* about a negative value is a band in order (the claims fuzzer's find:
         * about -45 20% read as -36 to -54), so its negation meets it */
        {"[a]\ntext = t\nvalue = ratio gpu_tiled gpu_naive\nruns = x\nshapes = 4096\n"
         "expect = about -45 20%\nnegation = at_most -50\n",
         ":1: [a]: expect = about -45 20% passes values that its negation (at_most -50)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        derive_write_text(p, bad[i].text);
        assert_int_equal(claims_load(p, cs, err, sizeof err), -1);
        if (!strstr(err, bad[i].expect)) fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].expect);
    }
    free(cs);
}

static void claims_pass_fail_and_wait(void **state)
{
    struct known *k = *state;
    char p[400], err[512];
    snprintf(p, sizeof p, "%s/c.ini", k->dir);
    derive_write_text(p, "[holds]\ntext = tiled reaches {range}%\nvalue = pct_ref gpu_tiled\nruns = x\n"
                  "shapes = 256\nexpect = at_least 30\nnegation = at_most 30\n"
                  "[fails]\ntext = t\nvalue = pct_ref gpu_tiled\nruns = x\nshapes = 256\n"
                  "expect = at_least 50\n"
                  "[waits]\ntext = t\nvalue = pct_ref gpu_tiled\nruns = y\nshapes = 256\n"
                  "expect = at_least 1\n"
                  "[ratio]\ntext = {range}\nvalue = ratio gpu_tiled gpu_tiled\ntiles = 16\n"
                  "other_tiles = 8\nruns = x\nshapes = 256\nexpect = about 1.33 1%\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    assert_int_equal(cs->n, 4);
    struct claim_result r;
    expect_claim(&cs->c[0], &k->run, 1, CLAIM_PASSED, "tiled reaches 40.0%");
    claims_evaluate(&cs->c[1], &k->run, 1, &r);
    assert_int_equal(r.verdict, CLAIM_FAILED);
    assert_string_equal(r.worst, "x 256");
    claims_evaluate(&cs->c[2], &k->run, 1, &r);
    assert_int_equal(r.verdict, CLAIM_NOT_EVALUATED);
    assert_non_null(strstr(r.why, "needs the run 'y'"));
    expect_claim(&cs->c[3], &k->run, 1, CLAIM_PASSED, "1.33");   /* 400 / 300 */
    free(cs);
}

/* The plan's estimate against the run's wall time: one ratio per run; a file
 * from before the estimate was recorded has no value. */
static void estimate_claim_is_wall_over_estimate(void **state)
{
    struct known *k = *state;
    char p[400], err[512];
    snprintf(p, sizeof p, "%s/e.ini", k->dir);
    derive_write_text(p, "[est]\ntext = {range}\nvalue = estimate\nruns = e\nexpect = between 0.85 1.15\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    const struct {
        double wall_s, estimated_s;
        enum claim_verdict verdict;
        const char *text;   /* NULL: not asked */
    } cases[] = {
        {110, 100, CLAIM_PASSED, "1.10"},
        {120, 100, CLAIM_FAILED, NULL},
        {120, NAN, CLAIM_NOT_EVALUATED, NULL},   /* no estimate recorded */
    };
    struct run *run = calloc(1, sizeof *run);
    snprintf(run->role, sizeof run->role, "e");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        run->wall_s = cases[i].wall_s, run->estimated_s = cases[i].estimated_s;
        struct claim_result cr;
        claims_evaluate(&cs->c[0], run, 1, &cr);
        if (cr.verdict != cases[i].verdict)
            fail_msg("case %zu (wall %g s, estimate %g s): verdict %d, wanted %d", i,
                     cases[i].wall_s, cases[i].estimated_s, (int)cr.verdict, (int)cases[i].verdict);
        if (cases[i].text && strcmp(cr.text, cases[i].text) != 0)
            fail_msg("case %zu (wall %g s, estimate %g s): text \"%s\", wanted \"%s\"", i,
                     cases[i].wall_s, cases[i].estimated_s, cr.text, cases[i].text);
    }
    free(run);
    free(cs);
}

/* The three estimates of a % of cuBLAS: a paired row of rung 12 (its pairs'
 * mean ratio 0.95, the second timer's 0.94), cuBLAS's own row, and rung 12's
 * own row of the same configuration (pairing = none) 2% slower than in the
 * pairs; the view, the claims and the paper's keys all give the same numbers. */
static void three_estimates_of_a_paired_row(void **state)
{
    struct known *k = *state;
    char path[400], p[400], err[512];
    snprintf(path, sizeof path, "%s/est.h5", k->dir);
    struct result_row rows[] = {derive_row_of("cublas_fp32", 4096, 1000, 0, 0),
                                derive_row_of("gpu_async_copy", 4096, 950, 128, 64),
                                derive_row_of("gpu_async_copy", 4096, 931, 128, 64),
                                derive_row_of("gpu_async_copy", 4096, 900, 256, 128)};
    struct result_row *pr = &rows[1];
    snprintf(pr->paired_with, sizeof pr->paired_with, "cublas_fp32");
    pr->pairs = 10, pr->ref_ratio = 0.95, pr->ref_ratio_ci95 = 0.002;
    pr->kernel_ratio = 0.94;
    rows[3].pairs = 10, rows[3].ref_ratio = 0.90, rows[3].kernel_ratio = NAN;   /* no row alone */
    snprintf(rows[3].paired_with, sizeof rows[3].paired_with, "cublas_fp32");
    for (size_t i = 0; i < 4; i++) rows[i].ref_ms_median = rows[i].kernel_ratio_ci95 = NAN;
    /* the paired rows and the row alone are two sweeps' points, as in experiments/estimates.ini */
    for (size_t i = 0; i < 4; i++)
        snprintf(rows[i].sweep, sizeof rows[i].sweep, "%s", i == 2 ? "fp32_alone" : "fp32");
    pr->ref_ms_median = 1.02 * rows[0].time_ms_median;   /* cuBLAS 2% slower in the pairs */
    rows[0].probe_mhz_mean = 1980, pr->probe_mhz_mean = 1782;   /* the pairs at 0.9 of its clock */
    derive_write_rows(path, rows, 4, 0, 0);
    struct run run;
    if (derive_open(&run, "e", path, err, sizeof err) != 0) fail_msg("%s", err);

    struct estimates e;
    estimates_of(&run, &run.f.rows[1], &e);
    const double alone = 100.0 * rows[0].time_ms_median / rows[2].time_ms_median;
    assert_true(fabs(e.paired - 95.0) < 1e-9 && fabs(e.kernel - 94.0) < 1e-9);
    assert_true(fabs(e.alone - alone) < 1e-9 && e.alone_rows == 1);
    assert_true(fabs(e.spread - (95.0 - alone)) < 1e-9);
    estimates_of(&run, &run.f.rows[3], &e);   /* against cuBLAS alone, from its pairs */
    assert_true(e.alone_rows == 0 && fabs(e.alone - 90.0) < 1e-6 && isnan(e.kernel));
    estimates_of(&run, &run.f.rows[0], &e);   /* not paired: no estimate */
    assert_true(isnan(e.paired) && isnan(e.spread));

    char *t = derive_view_text("estimates", &run, NULL), c[64];
    assert_int_equal(derive_cell(t, 0, "pct_kernel", c, sizeof c), 0);
    assert_string_equal(c, "94");
    assert_int_equal(derive_cell(t, 1, "alone_rows", c, sizeof c), 0);
    assert_string_equal(c, "0");
    free(t);

    snprintf(p, sizeof p, "%s/est.ini", k->dir);
    derive_write_text(p, "[spread]\ntext = within {max} points\nvalue = estimates_spread gpu_async_copy\n"
                  "runs = e\nshapes = 4096\nexpect = at_most 1\n"
                  "[alone]\ntext = {range}%\nvalue = pct_ref_alone gpu_async_copy\nruns = e\n"
                  "shapes = 4096\nexpect = at_least 90\n"
                  "[ref]\ntext = {range}\nvalue = ref_in_pairs gpu_async_copy\nruns = e\n"
                  "shapes = 4096\nexpect = between 0.99 1.01\n"
                  "[clock]\ntext = {range}\nvalue = clock_in_pairs gpu_async_copy\nruns = e\n"
                  "shapes = 4096\nexpect = at_most 0.95\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    char want[64];
    snprintf(want, sizeof want, "within %.2f points", 95.0 - alone);
    expect_claim(&cs->c[0], &run, 1, CLAIM_FAILED, want);   /* 2.04 points apart */
    snprintf(want, sizeof want, "%.1f%%", alone);
    expect_claim(&cs->c[1], &run, 1, CLAIM_PASSED, want);
    expect_claim(&cs->c[2], &run, 1, CLAIM_FAILED, "1.020");
    expect_claim(&cs->c[3], &run, 1, CLAIM_PASSED, "0.900");
    free(cs);

    char v[64], why[256];
    assert_int_equal(values_key("e.pct_ref_kernel.gpu_async_copy.4096", &run, 1, NULL, NULL, v,
                                sizeof v, why, sizeof why), 0);
    assert_string_equal(v, "94.0");
    /* cuBLAS in the pairs ran 2% slower than its own row */
    assert_int_equal(values_key("e.ref_in_pairs.gpu_async_copy.4096", &run, 1, NULL, NULL, v,
                                sizeof v, why, sizeof why), 0);
    assert_string_equal(v, "1.020");
    assert_int_equal(values_key("e.clock_in_pairs.gpu_async_copy.4096", &run, 1, NULL, NULL, v,
                                sizeof v, why, sizeof why), 0);
    assert_string_equal(v, "0.900");
    /* the rung's % of cuBLAS is the lowest of the three: the standalone rows' (93.1) */
    assert_int_equal(values_key("e.pct_ref.gpu_async_copy.4096", &run, 1, NULL, NULL, v,
                                sizeof v, why, sizeof why), 0);
    snprintf(want, sizeof want, "%.1f", alone);
    assert_string_equal(v, want);
    assert_true(fabs(estimates_at(&run, registry_find("gpu_async_copy"), (struct shape){4096, 4096, 4096},
                                  EST_LOWEST) - alone) < 1e-9);

    /* The paper's table of them: one line per rung, shape and run, the three and
     * their spread; the paper's ladder table gives the % of cuBLAS, the lowest
     * (below the ratio of its own TFLOP/s cells, 95.0). */
    char tex[400], vals[400], tab[500];
    snprintf(tex, sizeof tex, "%s/e.tex", k->dir);
    snprintf(vals, sizeof vals, "%s/values.tex", k->dir);
    derive_write_text(tex, "\\valtable{estimates.e.gpu_async_copy.4096}\n\\valtable{ladder.e.4096}\n");
    const char *texs[] = {tex};
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), 0);
    snprintf(tab, sizeof tab, "%s/table-estimates.e.gpu_async_copy.4096.tex", k->dir);
    char *t2 = test_read_file(tab, NULL);
    snprintf(want, sizeof want, "95.0 $\\pm$ 0.2 & %.1f & 94.0 & %.2f \\\\\n", alone,
             95.0 - alone);
    print_message("%s", t2);
    assert_non_null(strstr(t2, "Test & 12 & \\rung{gpu\\_async\\_copy} & 4096 & "));
    assert_non_null(strstr(t2, want));
    free(t2);
    snprintf(tab, sizeof tab, "%s/table-ladder.e.4096.tex", k->dir);
    t2 = test_read_file(tab, NULL);
    snprintf(want, sizeof want, "& 0.9 & %.1f \\\\", alone);   /* 950 of 1000 GFLOP/s */
    assert_non_null(strstr(t2, want));
    free(t2);
    derive_write_text(tex, "\\valtable{estimates.e.gpu_async_copy.2048}\n");
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no paired row of gpu_async_copy at 2048"));

    /* one estimate of a row is printed with the others the run has, in its
     * paragraph: alone, it is refused */
    derive_write_text(tex, "As paired, \\val{e.pct_ref_paired.gpu_async_copy.4096}.\n\n"
                    "\\val{e.pct_ref_kernel.gpu_async_copy.4096}\n");
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "e.tex:1: an estimate of e.gpu_async_copy.4096 is printed without "
                                "\\val{e.pct_ref_alone.gpu_async_copy.4096}"));

    /* --out never replaces a file values did not write: not a source, not
     * another file; an earlier output it does replace */
    const char *three = "\\val{e.pct_ref_paired.gpu_async_copy.4096} "
                        "\\val{e.pct_ref_alone.gpu_async_copy.4096} "
                        "\\val{e.pct_ref_kernel.gpu_async_copy.4096}\n";
    derive_write_text(tex, three);
    assert_int_equal(values_write(texs, 1, tex, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "is one of the paper's sources"));
    char other[400], *kept = NULL;
    snprintf(other, sizeof other, "%s/notes.tex", k->dir);
    derive_write_text(other, "my notes\n");
    assert_int_equal(values_write(texs, 1, other, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "exists and was not written by mmladder values"));
    kept = test_read_file(other, NULL);
    assert_string_equal(kept, "my notes\n");
    free(kept);
    kept = test_read_file(tex, NULL);
    assert_string_equal(kept, three);
    free(kept);
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), 0);
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), 0);
    derive_close(&run);
}

/* Two runs pair by pair: agreement gives each pair's ratio, agreement_share
 * the % of pairs within 2% of 1; wall_s each run's wall time. */
static void agreement_share_and_wall_time(void **state)
{
    struct known *k = *state;
    char a[400], b[400], p[400], err[512];
    snprintf(a, sizeof a, "%s/a.h5", k->dir);
    snprintf(b, sizeof b, "%s/b.h5", k->dir);
    struct result_row ra[] = {derive_row_of("gpu_naive", 256, 1000, 0, 0), derive_row_of("gpu_naive", 512, 1000, 0, 0),
                              derive_row_of("gpu_tiled", 256, 1000, 16, 0), derive_row_of("gpu_tiled", 512, 1000, 16, 0)};
    struct result_row rb[] = {derive_row_of("gpu_naive", 256, 1010, 0, 0), derive_row_of("gpu_naive", 512, 990, 0, 0),
                              derive_row_of("gpu_tiled", 256, 1050, 16, 0), derive_row_of("gpu_tiled", 512, 1000, 16, 0)};
    derive_write_rows(a, ra, 4, 0, 0);
    derive_write_rows(b, rb, 4, 0, 0);
    struct run *runs = calloc(2, sizeof *runs);
    if (derive_open(&runs[0], "new", b, err, sizeof err) || derive_open(&runs[1], "ref", a, err, sizeof err))
        fail_msg("%s", err);
    snprintf(p, sizeof p, "%s/s.ini", k->dir);
    derive_write_text(p, "[share]\ntext = {range}% of {count}\nvalue = agreement_share\nruns = new ref\n"
                  "expect = at_least 90\n"
                  "[naive]\ntext = {range}\nvalue = agreement_share\nrungs = gpu_naive\n"
                  "runs = new ref\nexpect = at_least 90\n"
                  "[wall]\ntext = {max} s\nvalue = wall_s\nruns = new ref\nexpect = at_most 2\n"
                  "[but]\ntext = {count} pairs, {range}\nvalue = agreement\nexcept_rungs = gpu_tiled\n"
                  "runs = new ref\nexpect = about 1 2%\n"
                  "[ratio]\ntext = {range}\nvalue = wall_ratio\nruns = new ref\nexpect = at_most 0.55\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    struct claim_result cr;
    expect_claim(&cs->c[0], runs, 2, CLAIM_FAILED, "75.0% of 1");   /* 3 of 4 pairs within 2% */
    expect_claim(&cs->c[1], runs, 2, CLAIM_PASSED, "100.0");
    cr = expect_claim(&cs->c[2], runs, 2, CLAIM_PASSED, "1 s");   /* write_rows records 1 s */
    assert_string_equal(cr.time, "1 s on the Test");   /* one entry per GPU model */
    runs[0].wall_s = 240;
    claims_evaluate(&cs->c[2], runs, 2, &cr);
    assert_string_equal(cr.time, "1 s to 4 min on the Test");
    /* gpu_tiled's 1.05 left out */
    expect_claim(&cs->c[3], runs, 2, CLAIM_PASSED, "2 pairs, 0.99-1.01");
    /* the first run's wall time over the second's: 240 s against 1 s, then 0.5 s */
    expect_claim(&cs->c[4], runs, 2, CLAIM_FAILED, "240.00");
    runs[0].wall_s = 0.5;
    expect_claim(&cs->c[4], runs, 2, CLAIM_PASSED, "0.50");
    derive_close(&runs[0]);
    derive_close(&runs[1]);
    free(runs);
    free(cs);
}

/* Times of runs on more GPU models than the claims table's cell holds: whole
 * entries, then ", ...", never a model's name cut off. */
static void run_times_that_do_not_fit_end_whole(void **state)
{
    struct known *k = *state;
    char p[400], err[512], ini[1024];
    struct run *runs = calloc(CLAIM_MAX_LIST, sizeof *runs);
    if (derive_open(&runs[0], "r0", k->path, err, sizeof err)) fail_msg("%s", err);
    int o = snprintf(ini, sizeof ini, "[t]\ntext = {max} s\nvalue = wall_s\nexpect = at_most 2\nruns =");
    for (int i = 0; i < CLAIM_MAX_LIST; i++) {
        if (i) runs[i] = runs[0];   /* the same file under another role and GPU model */
        snprintf(runs[i].role, sizeof runs[i].role, "r%d", i);
        snprintf(runs[i].gpu_name, sizeof runs[i].gpu_name, "NVIDIA Model%02d", i);
        o += snprintf(ini + o, sizeof ini - (size_t)o, " r%d", i);
    }
    snprintf(ini + o, sizeof ini - (size_t)o, "\n");
    snprintf(p, sizeof p, "%s/t.ini", k->dir);
    derive_write_text(p, ini);
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    struct claim_result cr;
    claims_evaluate(&cs->c[0], runs, CLAIM_MAX_LIST, &cr);
    assert_int_equal(cr.verdict, CLAIM_PASSED);
    size_t n = strlen(cr.time);
    assert_true(n > 5 && n < sizeof cr.time);
    assert_string_equal(cr.time + n - 5, ", ...");
    assert_memory_equal(cr.time, "1 s on the Model00, 1 s on the Model01, ", 40);
    /* every entry before ", ..." is whole */
    for (char *e = cr.time; e < cr.time + n - 5; e = strstr(e, ", ") + 2)
        assert_memory_equal(e, "1 s on the Model", 16);
    derive_close(&runs[0]);
    free(runs);
    free(cs);
}

/* The noise claims over long points: one steady, one spread and throttled, one
 * spread at full clock, one short (not counted) -> 33.3% stable, 50.0% of the
 * unthrottled, 1 unthrottled outside 1%; and the telemetry keys of a run. */
static void noise_claims_and_telemetry_keys(void **state)
{
    struct known *k = *state;
    char path[400], p[400], err[512];
    snprintf(path, sizeof path, "%s/noise.h5", k->dir);
    struct result_row rows[] = {
        derive_row_of("gpu_tiled", 2048, 1000, 16, 0), derive_row_of("gpu_tiled", 2048, 1000, 32, 0),
        derive_row_of("gpu_naive", 2048, 1000, 0, 0),  derive_row_of("gpu_naive", 256, 1000, 0, 0),
    };
    rows[0].time_ms_stddev = 0.005 * rows[0].time_ms_mean;
    rows[1].time_ms_stddev = rows[2].time_ms_stddev = 0.02 * rows[1].time_ms_mean;
    rows[1].throttled_samples = 2;   /* of its 2 samples */
    for (int i = 0; i < 4; i++) {
        snprintf(rows[i].telemetry, sizeof rows[i].telemetry, "nvml");
        snprintf(rows[i].timing, sizeof rows[i].timing, i == 3 ? "graph" : "launch");
        rows[i].warmup_ms = 100.0 * (i + 1);
        rows[i].power_w_max = 600.0 + i;
    }
    derive_write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 0);
    struct run run;
    if (derive_open(&run, "n", path, err, sizeof err) != 0) fail_msg("%s", err);

    snprintf(p, sizeof p, "%s/n.ini", k->dir);
    derive_write_text(p, "[all]\ntext = {range}\nvalue = stable_share\nruns = n\nexpect = at_least 30\n"
                  "[uncapped]\ntext = {range}\nvalue = stable_share_uncapped\nruns = n\n"
                  "expect = at_least 97\n"
                  "[outside]\ntext = {max}\nvalue = unstable_uncapped\nruns = n\nexpect = at_most 1\n"
                  "[but]\ntext = {max}\nvalue = unstable_uncapped\nrungs = gpu_naive\n"
                  "shapes = 2048\nruns = n\nexpect = at_most 0\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    expect_claim(&cs->c[0], &run, 1, CLAIM_PASSED, "33.3");
    expect_claim(&cs->c[1], &run, 1, CLAIM_FAILED, "50.0");
    expect_claim(&cs->c[2], &run, 1, CLAIM_PASSED, "1");
    /* the spread one named as the exception */
    expect_claim(&cs->c[3], &run, 1, CLAIM_PASSED, "0");
    free(cs);

    const struct {
        const char *key, *value;
    } ok[] = {{"n.throttled_rows", "1"},          {"n.graph_rows", "1"},
              {"n.telemetry_rows", "4"},          {"n.warmup_ms_median", "250"},
              {"n.warmup_s_max", "0.4"},          {"n.power_w_max", "603"},
              {"n.throttled.gpu_tiled.2048", "0"}};   /* its best: TS 16, as fast */
    char out[256], why[256];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        if (values_key(ok[i].key, &run, 1, NULL, NULL, out, sizeof out, why, sizeof why) != 0)
            fail_msg("%s: %s", ok[i].key, why);
        assert_string_equal(out, ok[i].value);
    }
    derive_close(&run);
}

static void values_answer_keys_and_name_unknown_ones(void **state)
{
    struct known *k = *state;
    char out[256], why[256];
    const struct {
        const char *key, *value;
    } ok[] = {{"x.gflops.gpu_tiled.256", "400"}, {"x.pct_ref.gpu_tiled.256", "40.0"},
              {"x.step.gpu_tiled.256", "4.00"},   {"x.ratio.gpu_tiled.gpu_naive.256", "4.00"},
              {"x.gpu_model", "Test GPU"},        {"x.config.gpu_tiled.256", "16\\(\\times\\)16 block, 1\\(\\times\\)1 per thread"},
              {"x.largest_step_rung.256", "\\rung{gpu\\_tiled}"},
              {"x.telemetry_refresh_ms", "100"}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        if (values_key(ok[i].key, &k->run, 1, NULL, NULL, out, sizeof out, why, sizeof why) != 0)
            fail_msg("%s: %s", ok[i].key, why);
        assert_string_equal(out, ok[i].value);
    }
    assert_int_equal(values_key("x.gflops.gpu_tiled.4096", &k->run, 1, NULL, NULL, out, sizeof out,
                                why, sizeof why), -1);
    assert_int_equal(values_key("y.gpu", &k->run, 1, NULL, NULL, out, sizeof out, why, sizeof why), -1);
    assert_non_null(strstr(why, "no run has the role 'y'"));
    char tex[400], vals[400], err[512];
    snprintf(tex, sizeof tex, "%s/p.tex", k->dir);
    snprintf(vals, sizeof vals, "%s/values.tex", k->dir);
    derive_write_text(tex, "The tiled rung reaches \\val{x.pct_ref.gpu_tiled.256}\\%.\n"
                    "And \\val{x.flops.gpu_tiled.256} is no key.\n");
    const char *texs[] = {tex};
    assert_int_equal(values_write(texs, 1, vals, k->dir, &k->run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "p.tex:2: \\val{x.flops.gpu_tiled.256}"));
    assert_int_equal(access(vals, F_OK), -1);   /* nothing half written */
    derive_write_text(tex, "The tiled rung reaches \\val{x.pct_ref.gpu_tiled.256}\\%.\n");
    assert_int_equal(values_write(texs, 1, vals, k->dir, &k->run, 1, NULL, NULL, err, sizeof err), 0);
    char *v = test_read_file(vals, NULL);
    assert_non_null(strstr(v, "\\valdef{x.pct_ref.gpu_tiled.256}{40.0}"));
    free(v);
}

/* Every registered rung has a style of its own and what its views need. */
static void every_rung_has_a_style(void **state)
{
    (void)state;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        unsigned rgb;
        char tail;
        if (!v->colour || sscanf(v->colour, "#%6x%c", &rgb, &tail) != 1 || strlen(v->colour) != 7)
            fail_msg("%s: colour '%s' (expected #RRGGBB)", v->name, v->colour ? v->colour : "");
        if (v->point < 1) fail_msg("%s: no point type", v->name);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(registry_at(j)->colour, v->colour))
                fail_msg("%s and %s share the colour %s", registry_at(j)->name, v->name, v->colour);
        if (v->device == DEV_GPU && (!v->configs || v->configs[0].tile < 0))
            fail_msg("%s: no configurations", v->name);
        if (v->reference && !registry_find(v->reference))
            fail_msg("%s: reference '%s' is not a rung", v->name, v->reference);
        if (v->device == DEV_GPU && !v->reference && !registry_is_reference(v))
            fail_msg("%s: a GPU rung measured against nothing", v->name);
    }
}

/* The shipped reference runs support every claim (but those waiting for the
 * runs references.mk leaves empty, --pending, which are reported: an unknown
 * role there, or one given a run, is refused), and stop supporting the
 * rung-12 claim once its rows are made 20% slower. */
static void claims_hold_on_shipped_data_and_fail_on_slower_rows(void **state)
{
    (void)state;
    char paths[1][256], args[TEST_MAX_RUNS][600];
    test_reference("REF_H100", paths[0], sizeof paths[0]);
    const size_t nruns = test_reference_runs(args, TEST_MAX_RUNS);
    char *argv[TEST_MAX_RUNS + 6] = {(char *)test_binary(), "claims", "paper/claims.ini"};
    size_t a = 3;
    const char *pending = test_pending_roles();
    if (*pending) argv[a++] = "--pending", argv[a++] = (char *)pending;
    const size_t first = a;   /* args[0], the H100 reference's */
    for (size_t i = 0; i < nruns; i++) argv[a++] = args[i];
    argv[a] = NULL;
    char *out, *err;
    int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("claims on the shipped data: exit %d\n%s%s", rc, out, err);
    if (!*pending) assert_non_null(strstr(out, "0 failed, 0 not evaluated"));
    else if (!strstr(out, "0 failed, ") || !strstr(out, "waiting for runs not made yet)"))
        fail_msg("claims on the shipped data, --pending %s: %s", pending, out);
    free(out), free(err);
    /* a pending role must be a role of [roles] with no run given */
    char *bad[] = {(char *)test_binary(), "claims", "paper/claims.ini", "--pending", "no_such_role",
                   args[0], NULL};
    rc = test_run(bad, &out, &err);
    if (rc != 1 || !strstr(err, "--pending 'no_such_role': no such role"))
        fail_msg("--pending of an unknown role: exit %d, stderr: %s", rc, err);
    free(out), free(err);
    char given[64];
    snprintf(given, sizeof given, "%.*s", (int)(strchr(args[0], '=') - args[0]), args[0]);
    bad[4] = given;
    rc = test_run(bad, &out, &err);
    if (rc != 1 || !strstr(err, "a run is given for it"))
        fail_msg("--pending of a role given a run: exit %d, stderr: %s", rc, err);
    free(out), free(err);

    /* the H100 reference with gpu_async_copy 20% slower */
    char dir[256], slow[300], e[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(slow, sizeof slow, "%s/slow.h5", dir);
    struct results_file f;
    assert_int_equal(results_read(paths[0], &f, e, sizeof e), 0);
    struct results *w;
    assert_int_equal(results_create(&w, slow, 0, e, sizeof e), 0);
    assert_int_equal(results_attr_str(w, "gpu_name", "NVIDIA H100 80GB HBM3"), 0);
    /* as a run records them: its plan's points and the GPU's peak (the H100's) */
    assert_int_equal(results_attr_int(w, "planned_points", (long long)f.n_rows), 0);
    assert_int_equal(results_attr_double(w, "gpu_fp32_peak_gflops", 66908.16), 0);
    for (size_t i = 0, s = 0; i < f.n_rows; i++) {
        struct result_row row = f.rows[i];
        const size_t first = s;
        while (s < f.n_samples && f.samples[s].row == (int32_t)i) s++;
        if (!strcmp(row.variant, "gpu_async_copy")) {
            row.gflops *= 0.8;
            row.time_ms_min /= 0.8, row.time_ms_median /= 0.8, row.time_ms_mean /= 0.8;
            row.time_ms_max /= 0.8, row.time_ms_stddev /= 0.8;
        }
        assert_int_equal(results_append_samples(w, &row, s > first ? &f.samples[first] : NULL,
                                                (int)(s - first)), 0);
    }
    assert_int_equal(results_finish(w, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(w, e, sizeof e), 0);
    results_file_free(&f);
    char a0[340];
    snprintf(a0, sizeof a0, "h100=%s", slow);
    argv[first] = a0;
    rc = test_run(argv, &out, &err);
    assert_int_equal(rc, 1);
    const char *line = strstr(out, "async_copy_vs_cublas");
    assert_non_null(line);
    assert_non_null(strstr(line, "FAILED"));
    free(out), free(err);
    test_rmtree(dir);
}

const struct CMUnitTest claims_tests[] = {
    KNOWN(claims_file_errors_name_the_line),
    KNOWN(claims_pass_fail_and_wait),
    KNOWN(estimate_claim_is_wall_over_estimate),
    KNOWN(agreement_share_and_wall_time),
    KNOWN(three_estimates_of_a_paired_row),
    KNOWN(run_times_that_do_not_fit_end_whole),
    KNOWN(noise_claims_and_telemetry_keys),
    KNOWN(values_answer_keys_and_name_unknown_ones),
    cmocka_unit_test(every_rung_has_a_style),
    cmocka_unit_test(claims_hold_on_shipped_data_and_fail_on_slower_rows),
};
const size_t claims_tests_count = sizeof claims_tests / sizeof claims_tests[0];
