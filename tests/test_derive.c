/* The one reader of results: derived views (derive.h) on a small file whose
 * answers are known (best, ratio, step, intensity; every view's header; the
 * telemetry view and its throttled samples), and the helpers that the tests of
 * the claims (tests/test_claims.c) and of the shape suite and corpora
 * (tests/test_suite.c) share with these (tests/derive_parts.h). */
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

/* A passed row of `rung` at n x n x n: gflops, and its tile / WPT. */
struct result_row derive_row_of(const char *rung, int n, double gflops, int tile, int wpt)
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
void derive_write_rows(const char *path, const struct result_row *rows, size_t n, double peak,
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
        derive_row_of("gpu_naive", 256, 100, 0, 0),      derive_row_of("gpu_tiled", 256, 300, 8, 0),
        derive_row_of("gpu_tiled", 256, 400, 16, 0),     derive_row_of("cublas_fp32", 256, 1000, 0, 0),
        derive_row_of("gpu_tiled", 512, 450, 16, 0),     derive_row_of("host_naive", 256, 1, 2, 0),
        derive_row_of("gpu_tiled", 256, 9000, 32, 0),
    };
    snprintf(rows[6].host_memory, sizeof rows[6].host_memory, "pinned");
    derive_write_rows(path, rows, sizeof rows / sizeof rows[0], 2000.0, 0);
}

int derive_known_setup(void **state)
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

int derive_known_teardown(void **state)
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
char *derive_view_text(const char *view, const struct run *r, const char *arg)
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
int derive_cell(const char *text, int line, const char *name, char *cell, size_t len)
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
    struct result_row tiled_row = derive_row_of("gpu_tiled", 256, 400, 16, 0);
    tiled_row.throttled_samples = 1;
    struct result_row bad = derive_row_of("gpu_tiled", 256, 500, 8, 0);
    snprintf(bad.disposition, sizeof bad.disposition, "failed");
    append_with_samples(w, tiled_row, "nvml", tiled, 3);
    append_with_samples(w, derive_row_of("gpu_naive", 256, 100, 0, 0), "nvml", nan_clock, 1);
    /* (clocks given to a row without telemetry: the row's word decides) */
    append_with_samples(w, derive_row_of("cublas_fp32", 256, 1000, 0, 0), "unavailable", tiled, 3);
    append_with_samples(w, derive_row_of("host_naive", 256, 1, 2, 0), "", host, 1);
    append_with_samples(w, bad, "nvml", failed, 1);
    assert_int_equal(results_finish(w, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(w, err, sizeof err), 0);
    struct run r;
    if (derive_open(&r, "t", path, err, sizeof err) != 0) fail_msg("%s", err);

    char *t = derive_view_text("telemetry", &r, NULL);
    const struct {
        const char *t_s, *clock, *throttled, *reasons, *sample;
    } want[] = {{"1", "1700", "1", "4", "1"}, {"2", "1980", "0", "0", "0"}, {"3", "1900", "0", "256", "2"}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(derive_cell(t, i, "rung", c, sizeof c), 0);
        assert_string_equal(c, "gpu_tiled");
        assert_int_equal(derive_cell(t, i, "t_s", c, sizeof c), 0);
        assert_string_equal(c, want[i].t_s);
        assert_int_equal(derive_cell(t, i, "clock_mhz", c, sizeof c), 0);
        assert_string_equal(c, want[i].clock);
        assert_int_equal(derive_cell(t, i, "throttled", c, sizeof c), 0);
        assert_string_equal(c, want[i].throttled);
        assert_int_equal(derive_cell(t, i, "reasons", c, sizeof c), 0);
        assert_string_equal(c, want[i].reasons);
        assert_int_equal(derive_cell(t, i, "sample", c, sizeof c), 0);
        assert_string_equal(c, want[i].sample);
    }
    assert_int_equal(derive_cell(t, 0, "power_w", c, sizeof c), 0);
    assert_string_equal(c, "690");
    assert_int_equal(derive_cell(t, 3, "t_s", c, sizeof c), -1);   /* nothing else */
    free(t);

    t = derive_view_text("samples", &r, "256");
    assert_int_equal(derive_cell(t, 2, "rung", c, sizeof c), 0);   /* host_naive, gpu_naive, then tiled */
    assert_string_equal(c, "gpu_tiled");
    const char *thr[] = {"0", "1", "0"}, *clk[] = {"1980", "1700", "1900"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(derive_cell(t, 2 + i, "throttled", c, sizeof c), 0);
        assert_string_equal(c, thr[i]);
        assert_int_equal(derive_cell(t, 2 + i, "clock_mhz", c, sizeof c), 0);
        assert_string_equal(c, clk[i]);
        assert_int_equal(derive_cell(t, 2 + i, "throttled_samples", c, sizeof c), 0);
        assert_string_equal(c, "1");
    }
    assert_int_equal(derive_cell(t, 1, "clock_mhz", c, sizeof c), 0);   /* gpu_naive, no clock: "-" */
    assert_string_equal(c, "-");
    free(t);

    t = derive_view_text("runs", &r, NULL);
    assert_int_equal(derive_cell(t, 0, "max_clock_mhz", c, sizeof c), 0);
    assert_string_equal(c, "1980");
    free(t);
    derive_close(&r);

    t = derive_view_text("telemetry", &k->run, NULL);   /* no telemetry: the header alone */
    assert_int_equal(derive_cell(t, 0, "t_s", c, sizeof c), -1);
    assert_int_equal(derive_cell(t, -1, "t_s", c, sizeof c), 0);
    assert_string_equal(c, "t_s");
    free(t);
    t = derive_view_text("samples", &k->run, "256");
    assert_int_equal(derive_cell(t, 0, "throttled", c, sizeof c), 0);
    assert_string_equal(c, "0");
    free(t);
}

/* The runs view counts a run's points by disposition and reads its wall time,
 * estimate, serial and experiment; as Markdown (data/README.md's table) a
 * point skipped on a GPU is skipped by design, one skipped without a GPU is
 * not said to be, and a merged file's serials are both named. */
static void runs_view_counts_points_and_reads_as_markdown(void **state)
{
    struct known *k = *state;
    static const struct {
        const char *file, *gpu, *serial, *line;
        int merged;
    } cases[] = {
        {"paper-gpu.h5", "NVIDIA H100 80GB HBM3", "1651924022242",
         "| `paper-gpu.h5` | `t0` | NVIDIA H100 80GB HBM3 (serial ...2242) | 2026-11-24 10:30 | "
         "12.5 s (10.0 s) | 4: 2 passed, 1 skipped by design, 1 failed |\n", 0},
        {"paper-cpu.h5", "none", NULL,
         "| `paper-cpu.h5` | `t1` | no GPU | 2026-11-24 10:30 | 12.5 s (10.0 s) | "
         "4: 2 passed, 1 skipped, 1 failed |\n", 0},
        {"paper-x2.h5", "NVIDIA H100 80GB HBM3", "1753024036212, 1753024031460",
         "| `paper-x2.h5` | `t2` | NVIDIA H100 80GB HBM3 (serial ...6212 and ...1460) | "
         "2026-11-24 10:30 | 12.5 s, the longest shard's | 4: 2 passed, 1 skipped by design, "
         "1 failed |\n", 1},
    };
    struct run runs[3];
    char err[512], c[64];
    for (int i = 0; i < 3; i++) {
        char path[400], role[8];
        snprintf(path, sizeof path, "%s/%s", k->dir, cases[i].file);
        struct results *w;
        if (results_create(&w, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
        assert_int_equal(results_attr_str(w, "gpu_name", cases[i].gpu), 0);
        if (cases[i].serial) assert_int_equal(results_attr_str(w, "gpu_serial", cases[i].serial), 0);
        assert_int_equal(results_attr_str(w, "created_utc", "2026-11-24T10:30:07Z"), 0);
        assert_int_equal(results_attr_str(w, "experiment_name", "paper"), 0);
        assert_int_equal(results_attr_int(w, "planned_points", 4), 0);
        if (cases[i].merged) assert_int_equal(results_attr_int(w, "merged_shards", 2), 0);
        else assert_int_equal(results_attr_double(w, "estimated_s", 10.0), 0);
        struct result_row skipped = derive_row_of("gpu_tiled", 256, NAN, 8, 0),
                          failed = derive_row_of("gpu_tiled", 256, NAN, 16, 0);
        snprintf(skipped.disposition, sizeof skipped.disposition, "skipped");
        snprintf(failed.disposition, sizeof failed.disposition, "failed");
        const struct result_row rows[] = {derive_row_of("gpu_naive", 256, 100, 0, 0), skipped,
                                          derive_row_of("cublas_fp32", 256, 1000, 0, 0), failed};
        const double ms[2] = {1, 1};
        for (int j = 0; j < 4; j++) {
            struct result_row row = rows[j];
            row.point = j;
            assert_int_equal(results_append(w, &row, ms, NULL, NULL, rows[j].samples), 0);
        }
        assert_int_equal(results_finish(w, 1, "2026-11-24T10:30:20Z", 12.5), 0);
        assert_int_equal(results_close(w, err, sizeof err), 0);
        snprintf(role, sizeof role, "t%d", i);
        if (derive_open(&runs[i], role, path, err, sizeof err) != 0) fail_msg("%s", err);
    }
    char *t = derive_view_text("runs", &runs[0], NULL);
    static const struct {
        const char *col, *want;
    } cells[] = {{"file", "paper-gpu.h5"}, {"experiment", "paper"}, {"gpu_serial", "1651924022242"},
                 {"wall_s", "12.5"}, {"estimated_s", "10"}, {"points", "4"}, {"passed", "2"},
                 {"incorrect", "0"}, {"skipped", "1"}, {"failed", "1"}, {"damaged", "0"},
                 {"kernel_timer", "0"}};
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        assert_int_equal(derive_cell(t, 0, cells[i].col, c, sizeof c), 0);
        if (strcmp(c, cells[i].want)) fail_msg("runs view %s: '%s' (expected '%s')", cells[i].col, c, cells[i].want);
    }
    free(t);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    derive_runs_markdown(out, runs, 3);
    assert_int_equal(fclose(out), 0);
    const char *line = strchr(strchr(buf, '\n') + 1, '\n') + 1;   /* past the header */
    for (int i = 0; i < 3; i++) {
        const size_t n = strcspn(line, "\n") + 1;
        if (strncmp(line, cases[i].line, n) || strlen(cases[i].line) != n)
            fail_msg("line %d: '%.*s' (expected '%s')", i, (int)n, line, cases[i].line);
        line += n;
        derive_close(&runs[i]);
    }
    free(buf);
}

const struct CMUnitTest derive_tests[] = {
    KNOWN(best_ratio_step_intensity),
    KNOWN(views_have_headers),
    KNOWN(telemetry_view_and_throttled_samples),
    KNOWN(runs_view_counts_points_and_reads_as_markdown),
};
const size_t derive_tests_count = sizeof derive_tests / sizeof derive_tests[0];
