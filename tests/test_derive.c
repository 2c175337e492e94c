/* The one reader of results: derived views (derive.h), the claims checked
 * against them (claims.h) and the paper's values (values.h), on a small file
 * whose answers are known, and the claims on the shipped reference runs,
 * which must fail when a rung is made slower. */
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

/* A passed row of `rung` at n x n x n: gflops, and its tile / WPT. */
static struct result_row row_of(const char *rung, int n, double gflops, int tile, int wpt)
{
    struct result_row r = {.M = n, .N = n, .K = n, .tile = tile, .wpt = wpt, .samples = 2,
                           .gflops = gflops, .disposition = "passed", .stop_rule = "converged"};
    const struct variant *v = registry_find(rung);
    snprintf(r.variant, sizeof r.variant, "%s", rung);
    snprintf(r.device, sizeof r.device, "%s", v->device == DEV_GPU ? "gpu" : "host");
    snprintf(r.precision, sizeof r.precision, "%s", v->precision == PREC_TF32 ? "tf32" : "fp32");
    r.flops = 2.0 * n * n * n;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = r.flops / (gflops * 1e6);
    r.time_ms_stddev = 0.01 * r.time_ms_mean;
    if (v->device == DEV_HOST) r.opt_level = tile ? tile : 2;
    return r;
}

/* A complete file of `rows` (two samples of 1 ms each) on "NVIDIA Test GPU",
 * with its FP32 peak and SM count when they are > 0. */
static void write_rows(const char *path, const struct result_row *rows, size_t n, double peak,
                       double sms)
{
    char err[512];
    struct results *r;
    if (results_create(&r, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(results_attr_str(r, "gpu_name", "NVIDIA Test GPU"), 0);
    if (peak > 0) assert_int_equal(results_attr_double(r, "gpu_fp32_peak_gflops", peak), 0);
    if (sms > 0) assert_int_equal(results_attr_double(r, "gpu_sm_count", sms), 0);
    assert_int_equal(results_attr_double(r, "telemetry_refresh_ms", 100.02), 0);
    const double s[2] = {1, 1};
    for (size_t i = 0; i < n; i++) {
        struct result_row row = rows[i];
        row.point = (int32_t)i;   /* each its own point of the plan */
        assert_int_equal(results_append(r, &row, s, NULL, NULL, 2), 0);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
}

/* The known file: at 256, naive 100, tiled 300 (TS 8) and 400 (TS 16), cuBLAS
 * FP32 1000; at 512 tiled 450; host_naive 1 at 256; a transfer row of the tiled
 * rung that must never count as its best. */
static void write_known(const char *path)
{
    struct result_row rows[] = {
        row_of("gpu_naive", 256, 100, 0, 0),      row_of("gpu_tiled", 256, 300, 8, 0),
        row_of("gpu_tiled", 256, 400, 16, 0),     row_of("cublas_fp32", 256, 1000, 0, 0),
        row_of("gpu_tiled", 512, 450, 16, 0),     row_of("host_naive", 256, 1, 2, 0),
        row_of("gpu_tiled", 256, 9000, 32, 0),
    };
    snprintf(rows[6].host_memory, sizeof rows[6].host_memory, "pinned");
    write_rows(path, rows, sizeof rows / sizeof rows[0], 2000.0, 0);
}

struct known {
    char dir[256], path[300];
    struct run run;
};

static int known_setup(void **state)
{
    struct known *k = calloc(1, sizeof *k);
    test_tmpdir(k->dir, sizeof k->dir);
    snprintf(k->path, sizeof k->path, "%s/known.h5", k->dir);
    write_known(k->path);
    char err[512];
    if (derive_open(&k->run, "x", k->path, err, sizeof err) != 0) {
        print_message("%s\n", err);
        return -1;
    }
    *state = k;
    return 0;
}

static int known_teardown(void **state)
{
    struct known *k = *state;
    derive_close(&k->run);
    test_rmtree(k->dir);
    free(k);
    return 0;
}

static void best_ratio_step_intensity(void **state)
{
    struct known *k = *state;
    const struct run *r = &k->run;
    const struct shape s = {256, 256, 256};
    const struct variant *tiled = registry_find("gpu_tiled"), *naive = registry_find("gpu_naive");
    const struct result_row *b = derive_best(r, tiled, s);
    assert_non_null(b);
    assert_true(b->gflops == 400 && b->tile == 16);   /* not the transfer row */
    assert_true(fabs(derive_pct_paired(r, tiled, s) - 40.0) < 1e-9);
    assert_true(fabs(derive_pct_peak(r, tiled, s) - 20.0) < 1e-9);
    assert_true(isnan(derive_pct_peak(r, registry_find("host_naive"), s)));
    assert_ptr_equal(derive_prev(r, tiled, s), naive);
    assert_true(fabs(derive_step(r, tiled, s) - 4.0) < 1e-9);
    assert_true(isnan(derive_step(r, naive, s)));   /* gpu_naive_global is not in the file */
    assert_true(isnan(derive_step(r, registry_find("cublas_fp32"), s)));
    /* the kernel file's geometry: TS 16 is a 16 x 16 tile -> 2*16*16 / (4*32) */
    assert_int_equal(b->block_rows, 16);
    assert_true(fabs(derive_intensity(tiled, b) - 4.0) < 1e-9);
    assert_true(fabs(derive_intensity(naive, derive_best(r, naive, s)) - 0.25) < 1e-9);
    assert_true(isnan(derive_intensity(registry_find("cublas_fp32"), derive_best(r, registry_find("cublas_fp32"), s))));
    assert_true(fabs(derive_compulsory_intensity(s) - 2.0 * 256 / 12) < 1e-9);
    int sizes[8];
    assert_int_equal(derive_squares(r, DEV_GPU, sizes, 8), 2);
    assert_true(sizes[0] == 256 && sizes[1] == 512);
    char label[96];
    derive_config_label(tiled, b, label, sizeof label);
    assert_string_equal(label, "16x16 block, 1x1 per thread");
    struct shape q;
    assert_int_equal(shape_parse("4095x4095x1", &q), 0);
    assert_true(q.M == 4095 && q.K == 1 && !shape_square(q));
    assert_int_equal(shape_parse("4096", &q), 0);
    assert_int_equal(shape_square(q), 4096);
    assert_int_equal(shape_parse("4096x", &q), -1);
}

/* Every view prints its header and only known runs; a wrong call says why. */
static void views_have_headers(void **state)
{
    struct known *k = *state;
    char err[256];
    const char *views[] = {"ladder", "configs", "speedup", "samples", "telemetry", "transfers", "runs"};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        assert_int_equal(derive_table(out, views[i], &k->run, 1, NULL, err, sizeof err), 0);
        fclose(out);
        assert_true(len > 0 && strchr(buf, '\n'));
        assert_null(strstr(buf, "\t\t"));   /* an empty cell is "-" */
        free(buf);
    }
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(derive_table(null, "ladders", &k->run, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown view 'ladders'"));
    assert_int_equal(derive_table(null, "compare", &k->run, 1, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "two results files"));
    fclose(null);
}

/* A view of one run as text (malloc'd). */
static char *view_text(const char *view, const struct run *r, const char *arg)
{
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    if (derive_table(out, view, r, 1, arg, err, sizeof err) != 0) fail_msg("%s: %s", view, err);
    assert_int_equal(fclose(out), 0);
    return buf;
}

/* The cell of column `name` in data row `line` (0: the first after the header)
 * of a view's text, into cell; -1 when there is no such row or column. */
static int cell(const char *text, int line, const char *name, char *cell, size_t len)
{
    int col = -1, k = 0;
    const char *p = text;
    for (const char *c = p; *c && *c != '\n'; k++) {   /* the header */
        const size_t w = strcspn(c, "\t\n");
        if (w == strlen(name) && !strncmp(c, name, w)) col = k;
        c += w + (c[w] == '\t');
    }
    for (int i = -1; i < line && p; i++) {
        p = strchr(p, '\n');
        p = p && p[1] ? p + 1 : NULL;
    }
    if (col < 0 || !p) return -1;
    for (k = 0; k < col && p; k++) {
        p += strcspn(p, "\t\n");
        p = *p == '\t' ? p + 1 : NULL;
    }
    if (!p) return -1;
    snprintf(cell, len, "%.*s", (int)strcspn(p, "\t\n"), p);
    return 0;
}

/* A GPU row of telemetry "nvml" (or "unavailable") and its samples: when each
 * ended, its clock and power, its clock-event reasons. */
struct tsample {
    double t_s, clock, power;
    int32_t reasons;
};

static void append_with_samples(struct results *w, struct result_row row, const char *telemetry,
                                const struct tsample *ts, int n)
{
    struct sample_row s[8];
    assert_true(n <= 8);
    snprintf(row.telemetry, sizeof row.telemetry, "%s", telemetry);
    row.samples = n;
    row.point = (int32_t)results_rows(w);   /* each its own point of the plan */
    for (int i = 0; i < n; i++)
        s[i] = (struct sample_row){.time_ms = row.time_ms_median, .t_s = ts[i].t_s,
                                   .clock_mhz = ts[i].clock, .power_w = ts[i].power,
                                   .reasons = ts[i].reasons, .ref_ms = NAN};
    assert_int_equal(results_append_samples(w, &row, s, n), 0);
}

/* telemetry: one line per sample of the passed GPU rows with telemetry, by
 * time, throttled from the power and thermal reasons alone; samples: the
 * sample's clock and throttled, the row's count; runs: the maximum clock.  A
 * run without telemetry gives the header alone. */
static void telemetry_view_and_throttled_samples(void **state)
{
    struct known *k = *state;
    char path[400], err[512], c[64];
    snprintf(path, sizeof path, "%s/telemetry.h5", k->dir);
    struct results *w;
    if (results_create(&w, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(results_attr_double(w, "gpu_max_clock_mhz", 1980.0), 0);
    /* 0x4: sw_power_cap (throttled); 0x100: display clocks (not) */
    const struct tsample tiled[] = {{2.0, 1980, 400, 0}, {1.0, 1700, 690, 0x4}, {3.0, 1900, 500, 0x100}},
                         nan_clock[] = {{1.5, NAN, 300, 0}}, host[] = {{0.5, NAN, NAN, 0}},
                         failed[] = {{0.7, 1980, 300, 0}};
    struct result_row tiled_row = row_of("gpu_tiled", 256, 400, 16, 0);
    tiled_row.throttled_samples = 1;
    struct result_row bad = row_of("gpu_tiled", 256, 500, 8, 0);
    snprintf(bad.disposition, sizeof bad.disposition, "failed");
    append_with_samples(w, tiled_row, "nvml", tiled, 3);
    append_with_samples(w, row_of("gpu_naive", 256, 100, 0, 0), "nvml", nan_clock, 1);
    /* (clocks given to a row without telemetry: the row's word decides) */
    append_with_samples(w, row_of("cublas_fp32", 256, 1000, 0, 0), "unavailable", tiled, 3);
    append_with_samples(w, row_of("host_naive", 256, 1, 2, 0), "", host, 1);
    append_with_samples(w, bad, "nvml", failed, 1);
    assert_int_equal(results_finish(w, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(w, err, sizeof err), 0);
    struct run r;
    if (derive_open(&r, "t", path, err, sizeof err) != 0) fail_msg("%s", err);

    char *t = view_text("telemetry", &r, NULL);
    const struct {
        const char *t_s, *clock, *throttled, *reasons, *sample;
    } want[] = {{"1", "1700", "1", "4", "1"}, {"2", "1980", "0", "0", "0"}, {"3", "1900", "0", "256", "2"}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cell(t, i, "rung", c, sizeof c), 0);
        assert_string_equal(c, "gpu_tiled");
        assert_int_equal(cell(t, i, "t_s", c, sizeof c), 0);
        assert_string_equal(c, want[i].t_s);
        assert_int_equal(cell(t, i, "clock_mhz", c, sizeof c), 0);
        assert_string_equal(c, want[i].clock);
        assert_int_equal(cell(t, i, "throttled", c, sizeof c), 0);
        assert_string_equal(c, want[i].throttled);
        assert_int_equal(cell(t, i, "reasons", c, sizeof c), 0);
        assert_string_equal(c, want[i].reasons);
        assert_int_equal(cell(t, i, "sample", c, sizeof c), 0);
        assert_string_equal(c, want[i].sample);
    }
    assert_int_equal(cell(t, 0, "power_w", c, sizeof c), 0);
    assert_string_equal(c, "690");
    assert_int_equal(cell(t, 3, "t_s", c, sizeof c), -1);   /* nothing else */
    free(t);

    t = view_text("samples", &r, "256");
    assert_int_equal(cell(t, 2, "rung", c, sizeof c), 0);   /* host_naive, gpu_naive, then tiled */
    assert_string_equal(c, "gpu_tiled");
    const char *thr[] = {"0", "1", "0"}, *clk[] = {"1980", "1700", "1900"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(cell(t, 2 + i, "throttled", c, sizeof c), 0);
        assert_string_equal(c, thr[i]);
        assert_int_equal(cell(t, 2 + i, "clock_mhz", c, sizeof c), 0);
        assert_string_equal(c, clk[i]);
        assert_int_equal(cell(t, 2 + i, "throttled_samples", c, sizeof c), 0);
        assert_string_equal(c, "1");
    }
    assert_int_equal(cell(t, 1, "clock_mhz", c, sizeof c), 0);   /* gpu_naive, no clock: "-" */
    assert_string_equal(c, "-");
    free(t);

    t = view_text("runs", &r, NULL);
    assert_int_equal(cell(t, 0, "max_clock_mhz", c, sizeof c), 0);
    assert_string_equal(c, "1980");
    free(t);
    derive_close(&r);

    t = view_text("telemetry", &k->run, NULL);   /* no telemetry: the header alone */
    assert_int_equal(cell(t, 0, "t_s", c, sizeof c), -1);
    assert_int_equal(cell(t, -1, "t_s", c, sizeof c), 0);
    assert_string_equal(c, "t_s");
    free(t);
    t = view_text("samples", &k->run, "256");
    assert_int_equal(cell(t, 0, "throttled", c, sizeof c), 0);
    assert_string_equal(c, "0");
    free(t);
}

static void write_text(const char *path, const char *text) { test_write_file(path, text); }

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
        write_text(p, bad[i].text);
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
    write_text(p, "[holds]\ntext = tiled reaches {range}%\nvalue = pct_ref gpu_tiled\nruns = x\n"
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
    write_text(p, "[est]\ntext = {range}\nvalue = estimate\nruns = e\nexpect = between 0.85 1.15\n");
    struct claims *cs = calloc(1, sizeof *cs);
    assert_int_equal(claims_load(p, cs, err, sizeof err), 0);
    struct run *run = calloc(1, sizeof *run);
    snprintf(run->role, sizeof run->role, "e");
    run->wall_s = 110, run->estimated_s = 100;
    struct claim_result cr;
    expect_claim(&cs->c[0], run, 1, CLAIM_PASSED, "1.10");
    run->wall_s = 120;
    claims_evaluate(&cs->c[0], run, 1, &cr);
    assert_int_equal(cr.verdict, CLAIM_FAILED);
    run->estimated_s = NAN;
    claims_evaluate(&cs->c[0], run, 1, &cr);
    assert_int_equal(cr.verdict, CLAIM_NOT_EVALUATED);
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
    struct result_row rows[] = {row_of("cublas_fp32", 4096, 1000, 0, 0),
                                row_of("gpu_async_copy", 4096, 950, 128, 64),
                                row_of("gpu_async_copy", 4096, 931, 128, 64),
                                row_of("gpu_async_copy", 4096, 900, 256, 128)};
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
    write_rows(path, rows, 4, 0, 0);
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

    char *t = view_text("estimates", &run, NULL), c[64];
    assert_int_equal(cell(t, 0, "pct_kernel", c, sizeof c), 0);
    assert_string_equal(c, "94");
    assert_int_equal(cell(t, 1, "alone_rows", c, sizeof c), 0);
    assert_string_equal(c, "0");
    free(t);

    snprintf(p, sizeof p, "%s/est.ini", k->dir);
    write_text(p, "[spread]\ntext = within {max} points\nvalue = estimates_spread gpu_async_copy\n"
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
    write_text(tex, "\\valtable{estimates.e.gpu_async_copy.4096}\n\\valtable{ladder.e.4096}\n");
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
    write_text(tex, "\\valtable{estimates.e.gpu_async_copy.2048}\n");
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "no paired row of gpu_async_copy at 2048"));

    /* one estimate of a row is printed with the others the run has, in its
     * paragraph: alone, it is refused */
    write_text(tex, "As paired, \\val{e.pct_ref_paired.gpu_async_copy.4096}.\n\n"
                    "\\val{e.pct_ref_kernel.gpu_async_copy.4096}\n");
    assert_int_equal(values_write(texs, 1, vals, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "e.tex:1: an estimate of e.gpu_async_copy.4096 is printed without "
                                "\\val{e.pct_ref_alone.gpu_async_copy.4096}"));

    /* --out never replaces a file values did not write: not a source, not
     * another file; an earlier output it does replace */
    const char *three = "\\val{e.pct_ref_paired.gpu_async_copy.4096} "
                        "\\val{e.pct_ref_alone.gpu_async_copy.4096} "
                        "\\val{e.pct_ref_kernel.gpu_async_copy.4096}\n";
    write_text(tex, three);
    assert_int_equal(values_write(texs, 1, tex, k->dir, &run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "is one of the paper's sources"));
    char other[400], *kept = NULL;
    snprintf(other, sizeof other, "%s/notes.tex", k->dir);
    write_text(other, "my notes\n");
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
    struct result_row ra[] = {row_of("gpu_naive", 256, 1000, 0, 0), row_of("gpu_naive", 512, 1000, 0, 0),
                              row_of("gpu_tiled", 256, 1000, 16, 0), row_of("gpu_tiled", 512, 1000, 16, 0)};
    struct result_row rb[] = {row_of("gpu_naive", 256, 1010, 0, 0), row_of("gpu_naive", 512, 990, 0, 0),
                              row_of("gpu_tiled", 256, 1050, 16, 0), row_of("gpu_tiled", 512, 1000, 16, 0)};
    write_rows(a, ra, 4, 0, 0);
    write_rows(b, rb, 4, 0, 0);
    struct run *runs = calloc(2, sizeof *runs);
    if (derive_open(&runs[0], "new", b, err, sizeof err) || derive_open(&runs[1], "ref", a, err, sizeof err))
        fail_msg("%s", err);
    snprintf(p, sizeof p, "%s/s.ini", k->dir);
    write_text(p, "[share]\ntext = {range}% of {count}\nvalue = agreement_share\nruns = new ref\n"
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
    write_text(p, ini);
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
        row_of("gpu_tiled", 2048, 1000, 16, 0), row_of("gpu_tiled", 2048, 1000, 32, 0),
        row_of("gpu_naive", 2048, 1000, 0, 0),  row_of("gpu_naive", 256, 1000, 0, 0),
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
    write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 0);
    struct run run;
    if (derive_open(&run, "n", path, err, sizeof err) != 0) fail_msg("%s", err);

    snprintf(p, sizeof p, "%s/n.ini", k->dir);
    write_text(p, "[all]\ntext = {range}\nvalue = stable_share\nruns = n\nexpect = at_least 30\n"
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
    write_text(tex, "The tiled rung reaches \\val{x.pct_ref.gpu_tiled.256}\\%.\n"
                    "And \\val{x.flops.gpu_tiled.256} is no key.\n");
    const char *texs[] = {tex};
    assert_int_equal(values_write(texs, 1, vals, k->dir, &k->run, 1, NULL, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "p.tex:2: \\val{x.flops.gpu_tiled.256}"));
    assert_int_equal(access(vals, F_OK), -1);   /* nothing half written */
    write_text(tex, "The tiled rung reaches \\val{x.pct_ref.gpu_tiled.256}\\%.\n");
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

/* The shipped reference runs support every claim, and stop supporting the
 * rung-12 claim once its rows are made 20% slower. */
static void claims_hold_on_shipped_data_and_fail_on_slower_rows(void **state)
{
    (void)state;
    char paths[1][256], args[TEST_MAX_RUNS][600];
    test_reference("REF_H100", paths[0], sizeof paths[0]);
    const size_t nruns = test_reference_runs(args, TEST_MAX_RUNS);
    char *argv[TEST_MAX_RUNS + 4] = {(char *)test_binary(), "claims", "paper/claims.ini"};
    for (size_t i = 0; i < nruns; i++) argv[3 + i] = args[i];
    argv[3 + nruns] = NULL;
    char *out, *err;
    int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("claims on the shipped data: exit %d\n%s%s", rc, out, err);
    assert_non_null(strstr(out, "0 failed, 0 not evaluated"));
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
    argv[3] = a0;
    rc = test_run(argv, &out, &err);
    assert_int_equal(rc, 1);
    const char *line = strstr(out, "async_copy_vs_cublas");
    assert_non_null(line);
    assert_non_null(strstr(line, "FAILED"));
    free(out), free(err);
    test_rmtree(dir);
}

/* A passed row of `rung` at M x N x K with the decomposition given (unpaired:
 * its % of cuBLAS is the ratio of the two rows' GFLOP/s). */
static struct result_row row_at(const char *rung, int M, int N, int K, double gflops, int tile,
                                int bm, int bn, int grid, int per_sm, int splits)
{
    struct result_row r = row_of(rung, 1, gflops, tile, 0);
    r.M = M, r.N = N, r.K = K;
    r.flops = 2.0 * M * N * K;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = r.flops / (gflops * 1e6);
    r.time_ms_stddev = 0.01 * r.time_ms_mean;
    r.block_rows = bm, r.block_cols = bn, r.thread_rows = bm ? 4 : 0, r.thread_cols = bn ? 8 : 0;
    r.grid_blocks = grid, r.blocks_per_sm = per_sm, r.k_splits = splits;
    if (registry_find(rung)->dispatch) snprintf(r.chosen, sizeof r.chosen, "gpu_splitk %d/32", tile);
    return r;
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
    write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
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
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_int_equal(derive_table(out, "corpus-classes", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "tf32\tall\t3\t"));
    assert_non_null(strstr(buf, "fp32\tshort_k\t1\t150\t150\t"));
    free(buf);
    buf = NULL;
    out = open_memstream(&buf, &len);
    assert_int_equal(derive_table(out, "corpus", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "tf32\t4\t4096\t4096\t4x4096x4096\tgemv\t18\tgpu_gemv\t"));
    /* the roofline's columns: FLOP per byte of A, B and C moved once, and GFLOP/s */
    assert_non_null(strstr(buf, "\tbest_copy_share\tintensity\tbest_gflops\t"));
    assert_true(fabs(corpus_bytes((struct shape){5000, 5000, 16}) - 4.0 * 25160000) < 1e-6);
    free(buf);
    /* the distribution: each series' %s in rising order, the share at or below */
    buf = NULL;
    out = open_memstream(&buf, &len);
    assert_int_equal(derive_table(out, "corpus-cdf", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "tf32\tbest\t1\t0.333333\t75\ntf32\tbest\t2\t0.666667\t124\n"
                                "tf32\tbest\t3\t1\t200\ntf32\tdispatch\t1\t1\t66.6667\n"));
    free(buf);
    struct corpus_summary su;
    const size_t nt = derive_corpus(&r, PREC_TF32, pt, 8);
    derive_corpus_summary(pt, nt, CC_COUNT, &su);
    assert_int_equal(su.shapes, 3);
    assert_true(fabs(su.best_geomean - cbrt(75.0 * 124 * 200)) < 1e-9 && su.best_min == 75);
    assert_true(isnan(su.dispatch_geomean) && fabs(su.best_share_90 - 200.0 / 3) < 1e-9);
    derive_corpus_summary(pt, nt, CC_FEW, &su);
    assert_true(su.shapes == 0 && isnan(su.best_geomean));
    /* claims over the corpus: its summary, or each shape's %, of some classes */
    char cpath[400];
    snprintf(cpath, sizeof cpath, "%s/corpus.ini", k->dir);
    write_text(cpath, "[geo]\ntext = {range}\nvalue = corpus_geomean\nprecision = tf32\nruns = corpus\n"
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
                      "runs = corpus\nexpect = at_least 95\n");
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result res[6];
    assert_int_equal(claims_load(cpath, cs, err, sizeof err), 0);
    for (size_t i = 0; i < 6; i++) claims_evaluate(&cs->c[i], &r, 1, &res[i]);
    /* of the shapes whose fastest rung was paired with cuBLAS at the precision:
     * TF32 one, within 5%; FP32 one, 25% apart */
    assert_int_equal(res[4].verdict, CLAIM_PASSED);
    assert_string_equal(res[4].text, "100.0");
    assert_int_equal(res[5].verdict, CLAIM_FAILED);
    assert_string_equal(res[5].text, "0.0");
    assert_int_equal(res[0].verdict, CLAIM_PASSED);
    assert_int_equal(res[1].verdict, CLAIM_PASSED);
    assert_int_equal(res[2].verdict, CLAIM_PASSED);
    assert_int_equal(res[2].count, 1);
    assert_string_equal(res[2].text, "75.0 at 4x4096x4096 (gpu_gemv)");
    assert_int_equal(res[3].verdict, CLAIM_NOT_EVALUATED);   /* no dispatch row there */

    /* the second timer: a claim on it refuses a run without it, and reads the
     * rows' kernel times where it was on (here each row's event time, but
     * gpu_short_k's kernels at half of it: 400% of cuBLAS TF32 against 200%) */
    char kpath[400];
    snprintf(kpath, sizeof kpath, "%s/corpus-kernel.ini", k->dir);
    write_text(kpath, "[kgeo]\ntext = {range}\nvalue = corpus_kernel_geomean\nprecision = tf32\n"
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
    write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
    if (derive_open(&r, "corpus", path, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(derive_corpus(&r, PREC_TF32, pt, 8), 3);
    assert_true(fabs(pt[0].best_pct_kernel - 75) < 1e-9 && fabs(pt[0].dispatch_pct_kernel - 800.0 / 12) < 1e-9);
    assert_true(fabs(pt[1].best_pct_kernel - 400) < 1e-9 && isnan(pt[1].dispatch_pct_kernel));
    for (size_t i = 0; i < 4; i++) claims_evaluate(&cs->c[i], &r, 1, &res[i]);
    for (size_t i = 0; i < 4; i++) assert_int_equal(res[i].verdict, CLAIM_PASSED);
    char want[32];
    snprintf(want, sizeof want, "%.1f", cbrt(75.0 * 400 * 125));
    assert_string_equal(res[0].text, want);
    snprintf(want, sizeof want, "%.1f", cbrt(75.0 * 400 * 125) - cbrt(75.0 * 200 * 125));
    assert_string_equal(res[1].text, want);
    assert_string_equal(res[2].text, "66.7");
    /* cuBLAS TF32 at 5000 x 5000 x 16, named by run and shape */
    assert_string_equal(res[3].text, "0.80 at corpus 5000x5000x16");
    buf = NULL;
    out = open_memstream(&buf, &len);
    assert_int_equal(derive_table(out, "corpus", &r, 1, NULL, err, sizeof err), 0);
    fclose(out);
    assert_non_null(strstr(buf, "\tbest_gflops\tbest_pct_kernel\tdispatch_pct_kernel\n"));
    free(buf);
    free(cs);
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
    write_rows(path, rows, sizeof rows / sizeof rows[0], 0, 132);
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
    write_text(p, "[min]\ntext = {min} at {min_at}\nvalue = suite_pct_ref\nprecision = fp32\n"
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
    assert_int_equal(res[0].verdict, CLAIM_PASSED);
    assert_string_equal(res[0].text, "50.0 at 128x128x65536 (gpu_splitk)");
    assert_int_equal(res[1].verdict, CLAIM_FAILED);   /* 90 at 1024 */
    assert_int_equal(res[1].count, 2);
    assert_non_null(strstr(res[1].worst, "suite 1024 (gpu_async_copy)"));
    assert_int_equal(res[2].verdict, CLAIM_PASSED);
    assert_int_equal(res[3].verdict, CLAIM_PASSED);
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
        write_text(p, bad[i].text);
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
    for (int i = 0; i < SHAPES; i++) rows[i] = row_of("gpu_tiled", 32 * (i + 1), 100 + i, 16, 0);
    char dir[256], path[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/many.h5", dir);
    write_rows(path, rows, SHAPES, 0, 0);
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

const struct CMUnitTest derive_tests[] = {
    cmocka_unit_test(views_take_every_shape),
    cmocka_unit_test(index_orders_groups_like_group_cmp),
    cmocka_unit_test_setup_teardown(best_ratio_step_intensity, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(views_have_headers, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(telemetry_view_and_throttled_samples, known_setup,
                                    known_teardown),
    cmocka_unit_test_setup_teardown(claims_file_errors_name_the_line, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(claims_pass_fail_and_wait, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(estimate_claim_is_wall_over_estimate, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(agreement_share_and_wall_time, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(three_estimates_of_a_paired_row, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(run_times_that_do_not_fit_end_whole, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(noise_claims_and_telemetry_keys, known_setup, known_teardown),
    cmocka_unit_test_setup_teardown(values_answer_keys_and_name_unknown_ones, known_setup,
                                    known_teardown),
    cmocka_unit_test_setup_teardown(shape_suite_best_dispatch_and_claims, known_setup,
                                    known_teardown),
    cmocka_unit_test_setup_teardown(corpus_points_classes_and_finer_rungs, known_setup,
                                    known_teardown),
    cmocka_unit_test(every_rung_has_a_style),
    cmocka_unit_test(claims_hold_on_shipped_data_and_fail_on_slower_rows),
    cmocka_unit_test(claims_on_a_reviewers_host_run),
};
const size_t derive_tests_count = sizeof derive_tests / sizeof derive_tests[0];
