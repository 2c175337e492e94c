/* Figures: every figure script draws from small results files that this test
 * writes (subsets of the shipped reference runs, so no number is invented), as
 * a PDF and a PNG of the same shape, with no lettering under 7 pt (where
 * poppler's pdftohtml is installed), and every script fails loudly, naming the
 * table that is missing, when its data is absent; the telemetry figure is
 * skipped, not failed, for a run without telemetry; the shape figure draws a
 * run with rows of one precision only (one panel); the lettering check finds
 * text and superscripts under 7 pt. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/results.h"
#include "util.h"

static const char *const FIGURES[] = {
    "01_ladder",   "02_tile_width",  "03_work_per_thread", "04_speedup", "05_host",
    "06_roofline", "07_variability", "08_transfers",       "09_gpus",    "11_reproduction",
    "10_telemetry", "13_shapes",      "14_heldout",         "15_heldout_roofline"};
/* The table (scripts/figures.sh: OUTDIR/data/NAME.tsv) each figure draws. */
static const char *const TABLES[] = {"ladder",  "configs",   "configs",   "speedup",
                                     "configs", "configs",   "samples",   "transfers",
                                     "gpus",    "repro",     "telemetry", "shapes",
                                     "heldout", "heldout_corpus"};
#define N_FIGURES (sizeof FIGURES / sizeof FIGURES[0])

/* Skip the calling test, saying why, where gnuplot is not installed. */
static void need_gnuplot(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) return;
    print_message("skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n");
    skip();
}

/* Whether poppler's pdftohtml, which scripts/check-lettering.sh reads figures
 * with, is installed (make paper installs it; make test does not). */
static int have_pdftohtml(void)
{
    return system("command -v pdftohtml >/dev/null 2>&1") == 0;
}

/* scripts/check-lettering.sh on the given PDFs (NULL-terminated, at most 16):
 * its exit status, stderr into *err (malloc'd) */
static int check_lettering(const char *const *pdfs, char **err)
{
    char *argv[20] = {"scripts/check-lettering.sh", "-m", "7"};
    size_t n = 3;
    for (; *pdfs && n < 19; pdfs++) argv[n++] = (char *)*pdfs;
    argv[n] = NULL;
    char *out;
    int rc = test_run(argv, &out, err);
    free(out);
    return rc;
}

static void copy_attr(const char *name, const char *value, void *ctx)
{
    /* the schema is written by results_create, the end of the run and the
     * attributes' checksum by results_finish, as a run sets them */
    if (strcmp(name, "complete") && strcmp(name, "finished_utc") && strcmp(name, "wall_time_s") &&
        strcmp(name, "schema_version") && strcmp(name, "attrs_crc32") &&
        strcmp(name, "planned_points"))
        results_attr_str(ctx, name, value);
}

/* Write to `out` the rows of `in` for which keep(row, ctx) holds, with their
 * samples and the root attributes; with `telemetry` 0, the samples lose their
 * times, clocks, power and reasons (as in a run without NVML). */
typedef int keep_fn(const struct result_row *row, const void *ctx);

static void copy_rows(const char *in, const char *out, keep_fn *keep_row, const void *ctx,
                      int telemetry)
{
    char err[512];
    struct results_file f;
    if (results_read(in, &f, err, sizeof err) != 0) fail_msg("%s", err);
    struct results *r;
    if (results_create(&r, out, 0, err, sizeof err) != 0) fail_msg("%s", err);
    if (results_visit_attrs(in, copy_attr, r, err, sizeof err) != 0) fail_msg("%s", err);
    long long kept = 0;   /* the copy's plan: the rows it keeps */
    for (size_t i = 0; i < f.n_rows; i++) kept += keep_row(&f.rows[i], ctx) != 0;
    if (results_attr_int(r, "planned_points", kept) != 0) fail_msg("%s", results_error(r));
    size_t s = 0;
    for (size_t i = 0; i < f.n_rows; i++) {
        struct sample_row *first = f.samples ? &f.samples[s] : NULL;
        int n = 0;
        for (; s < f.n_samples && f.samples[s].row == (int32_t)i; s++, n++)
            if (!telemetry) {
                f.samples[s].t_s = f.samples[s].clock_mhz = f.samples[s].power_w = NAN;
                f.samples[s].reasons = 0;
            }
        const struct result_row *row = &f.rows[i];
        if (keep_row(row, ctx) && results_append_samples(r, row, n ? first : NULL, n) != 0)
            fail_msg("append to %s", out);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
    results_file_free(&f);
}

/* a row at one of the square sizes ctx (int, 0-terminated) */
static int at_square_size(const struct result_row *row, const void *ctx)
{
    for (const int *z = ctx; *z; z++)
        if (row->M == *z && row->N == *z && row->K == *z) return 1;
    return 0;
}

/* The rows of `in` whose square size is in `sizes` (0-terminated), as above. */
static void subset_of(const char *in, const char *out, const int *sizes, int telemetry)
{
    copy_rows(in, out, at_square_size, sizes, telemetry);
}

static void subset(const char *in, const char *out, const int *sizes)
{
    subset_of(in, out, sizes, 1);
}

/* Shapes of the suite (experiments/shapes.ini) of three classes: decode-like,
 * small output with a long K, and large (a square size). */
static const int SUITE_SHAPES[][3] = {{16, 4096, 4096}, {256, 256, 32768}, {1024, 1024, 1024}};
struct suite_subset {
    const char *precision;   /* only rows of this precision; NULL: both */
};

static int in_suite_subset(const struct result_row *row, const void *ctx)
{
    const struct suite_subset *c = ctx;
    if (c->precision && strcmp(row->precision, c->precision)) return 0;
    for (size_t i = 0; i < sizeof SUITE_SHAPES / sizeof SUITE_SHAPES[0]; i++)
        if (row->M == SUITE_SHAPES[i][0] && row->N == SUITE_SHAPES[i][1] &&
            row->K == SUITE_SHAPES[i][2])
            return 1;
    return 0;
}

/* The rows of a shape-suite run `in` at SUITE_SHAPES (every rung: hand-written,
 * dispatch and cuBLAS), of `precision` only unless it is NULL. */
static void suite_subset(const char *in, const char *out, const char *precision)
{
    const struct suite_subset c = {precision};
    copy_rows(in, out, in_suite_subset, &c, 1);
}

/* Width / height of a PNG (its IHDR) and of a PDF's first MediaBox; 0 if unreadable. */
static double png_aspect(const char *path)
{
    size_t len;
    unsigned char *d = (unsigned char *)test_read_file(path, &len);
    double a = 0;
    if (d && len >= 24) {
        const double w = (double)((d[16] << 24) | (d[17] << 16) | (d[18] << 8) | d[19]),
                     h = (double)((d[20] << 24) | (d[21] << 16) | (d[22] << 8) | d[23]);
        a = h > 0 ? w / h : 0;
    }
    free(d);
    return a;
}

static double pdf_aspect(const char *path)
{
    size_t len;
    char *d = test_read_file(path, &len);
    double a = 0, x0, y0, x1, y1;
    for (size_t i = 0; d && i + 9 < len; i++)
        if (!memcmp(d + i, "/MediaBox", 9)) {
            if (sscanf(d + i + 9, " [ %lf %lf %lf %lf", &x0, &y0, &x1, &y1) == 4 && y1 > y0)
                a = (x1 - x0) / (y1 - y0);
            break;
        }
    free(d);
    return a;
}

/* With every table of `data` but the figure's own (moved aside), the figure
 * must stop, naming that table, and leave no PNG behind; the same with the
 * table reduced to its header row. */
static void fails_without_its_table(const char *data, const char *out, size_t i)
{
    char tsv[400], aside[420], vars[1000], script[128], base[400], png[420];
    snprintf(tsv, sizeof tsv, "%s/%s.tsv", data, TABLES[i]);
    snprintf(aside, sizeof aside, "%s.aside", tsv);
    snprintf(base, sizeof base, "%s/missing-%s", out, FIGURES[i]);
    snprintf(png, sizeof png, "%s.png", base);
    snprintf(vars, sizeof vars, "datadir='%s'; out='%s'", data, base);
    snprintf(script, sizeof script, "plots/%s.gp", FIGURES[i]);
    assert_int_equal(rename(tsv, aside), 0);
    for (int header_only = 0; header_only < 2; header_only++) {
        if (header_only) {
            char *text = test_read_file(aside, NULL);
            assert_non_null(text);
            char *nl = strchr(text, '\n');
            if (nl) nl[1] = '\0';
            test_write_file(tsv, text);
            free(text);
        }
        char *argv[] = {"/usr/bin/env", "gnuplot", "-e", vars, script, NULL};
        char *so, *se;
        int rc = test_run(argv, &so, &se);
        char want[64];
        snprintf(want, sizeof want, "%s.tsv", TABLES[i]);
        if (rc == 0 || !strstr(se, FIGURES[i]) || !strstr(se, want))
            fail_msg("%s without %s (%s): exit %d, stderr: %s", FIGURES[i], want,
                     header_only ? "header only" : "missing", rc, se);
        assert_int_not_equal(access(png, F_OK), 0);
        free(so); free(se);
    }
    assert_int_equal(rename(aside, tsv), 0);
}

static void every_figure_is_drawn(void **state)
{
    (void)state;
    need_gnuplot();
    char dir[256], p[300], o[300], t[300], r[300], s[300], out[300], h[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/h100.h5", dir);
    snprintf(o, sizeof o, "%s/h200.h5", dir);
    snprintf(t, sizeof t, "%s/transfers.h5", dir);
    snprintf(r, sizeof r, "%s/repro.h5", dir);
    snprintf(s, sizeof s, "%s/shapes.h5", dir);
    snprintf(out, sizeof out, "%s/figures", dir);
    /* 1024: the host's largest size (figure 4); 2048, 4096: figures 3 and 7. */
    const int sizes[] = {128, 1024, 2048, 4096, 0}, small[] = {256, 1024, 0};
    char ref[5][256];
    const char *keys[5] = {"REF_H100", "REF_H200", "REF_TRANSFERS", "REF_REPRO", "REF_SHAPES_H100"};
    for (int i = 0; i < 5; i++) test_reference(keys[i], ref[i], sizeof ref[i]);
    subset(ref[0], p, sizes);
    subset(ref[1], o, sizes);
    subset(ref[2], t, small);
    subset(ref[3], r, sizes);
    suite_subset(ref[4], s, NULL);
    test_reference("REF_HELDOUT_H100", h, sizeof h);   /* a corpus run, read as shipped */

    /* (the second reproduction pair: the H200 run as if it reproduced the H100's) */
    char *argv[] = {"scripts/figures.sh", "-o", out, "-b", (char *)test_binary(), "-p", p, "-c",
                    o, "-t", t, "-r", p, "-n", r, "-R", p, "-N", o, "-s", s, "-H", h, NULL};
    char *so, *se;
    int rc = test_run(argv, &so, &se);
    if (rc != 0) fail_msg("figures.sh exited %d: %s", rc, se);
    free(so); free(se);
    for (int k = 0; k < 2; k++) {   /* drawn by 11_reproduction.gp from repro2.tsv */
        char f[400];
        struct stat st;
        snprintf(f, sizeof f, "%s/12_reproduction_h200.%s", out, k ? "png" : "pdf");
        if (stat(f, &st) != 0 || st.st_size < 1000) fail_msg("%s missing or nearly empty", f);
    }
    for (size_t i = 0; i < N_FIGURES; i++) {
        char f[2][400];
        for (int k = 0; k < 2; k++) {
            struct stat st;
            snprintf(f[k], sizeof f[k], "%s/%s.%s", out, FIGURES[i], k ? "png" : "pdf");
            if (stat(f[k], &st) != 0 || st.st_size < 1000)
                fail_msg("%s missing or nearly empty", f[k]);
        }
        /* the same page: PNG and PDF of one shape (to a pixel in 1000) */
        const double a_pdf = pdf_aspect(f[0]), a_png = png_aspect(f[1]);
        if (!(a_pdf > 0 && a_png > 0) || a_png / a_pdf > 1.002 || a_png / a_pdf < 0.998)
            fail_msg("%s: PDF %g wide per unit of height, PNG %g", FIGURES[i], a_pdf, a_png);
    }
    /* the paper prints them at their own size: no lettering under 7 pt */
    if (have_pdftohtml()) {
        char pdf[N_FIGURES][400];
        const char *pdfs[N_FIGURES + 1];
        for (size_t i = 0; i < N_FIGURES; i++) {
            snprintf(pdf[i], sizeof pdf[i], "%s/%s.pdf", out, FIGURES[i]);
            pdfs[i] = pdf[i];
        }
        pdfs[N_FIGURES] = NULL;
        char *err;
        const int lrc = check_lettering(pdfs, &err);
        if (lrc != 0) fail_msg("check-lettering.sh on the figures: exit %d: %s", lrc, err);
        free(err);
    } else {
        print_message("note: pdftohtml (poppler-utils) is not installed: the figures' "
                      "lettering was not measured (make paper measures it)\n");
    }
    char data[320];
    snprintf(data, sizeof data, "%s/data", out);
    /* figure 13 drew both panels: hand-written and dispatch rows of both precisions */
    char tsv[400];
    snprintf(tsv, sizeof tsv, "%s/shapes.tsv", data);
    char *shapes = test_read_file(tsv, NULL);
    if (!shapes || test_count_of(shapes, "\tfp32\t") <= 3 || test_count_of(shapes, "\ttf32\t") <= 3 ||
        test_count_of(shapes, "dispatch_fp32") != 3 || test_count_of(shapes, "dispatch_tf32") != 3)
        fail_msg("%s: expected FP32 and TF32 rows at 3 shapes:\n%s", tsv, shapes ? shapes : "");
    free(shapes);
    for (size_t i = 0; i < N_FIGURES; i++) fails_without_its_table(data, out, i);
    test_rmtree(dir);
}

static void every_script_fails_without_its_data(void **state)
{
    (void)state;
    need_gnuplot();
    char dir[256];
    test_tmpdir(dir, sizeof dir);   /* an empty folder: no tables at all */
    for (size_t i = 0; i < N_FIGURES; i++) {
        char vars[700], script[128], out[400];
        snprintf(out, sizeof out, "%s/%s", dir, FIGURES[i]);
        snprintf(vars, sizeof vars, "datadir='%s'; out='%s'", dir, out);
        snprintf(script, sizeof script, "plots/%s.gp", FIGURES[i]);
        char *argv[] = {"/usr/bin/env", "gnuplot", "-e", vars, script, NULL};
        char *so, *se;
        int rc = test_run(argv, &so, &se);
        if (rc == 0 || !strstr(se, FIGURES[i]) || !strstr(se, ".tsv"))
            fail_msg("%s with no data: exit %d, stderr: %s", FIGURES[i], rc, se);
        char png[420];
        snprintf(png, sizeof png, "%s.png", out);
        assert_int_not_equal(access(png, F_OK), 0);   /* no empty plot left behind */
        free(so); free(se);
    }
    test_rmtree(dir);
}

/* A primary run whose samples carry no telemetry: figures.sh skips figure 10,
 * saying why, draws the rest and succeeds; the script alone ends with status 3
 * (skipped), not 1 (failed).  Figure 12, whose run is not given, is skipped even
 * with a table of it left in the folder by an earlier call. */
static void telemetry_figure_is_skipped_without_telemetry(void **state)
{
    (void)state;
    need_gnuplot();
    char dir[256], p[300], out[300], ref[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/h100.h5", dir);
    snprintf(out, sizeof out, "%s/figures", dir);
    test_reference("REF_H100", ref, sizeof ref);
    const int sizes[] = {1024, 4096, 0};
    subset_of(ref, p, sizes, 0);
    /* a shapes table left by an earlier call into the same folder is not drawn */
    char stale[400];
    snprintf(stale, sizeof stale, "%s/data", out);
    assert_int_equal(mkdir(out, 0700) == 0 && mkdir(stale, 0700) == 0, 1);
    snprintf(stale, sizeof stale, "%s/data/shapes.tsv", out);
    test_write_file(stale, "number\trung\n1\tx\n");
    char *argv[] = {"scripts/figures.sh", "-o", out, "-b", (char *)test_binary(), "-p", p, NULL};
    char *so, *se;
    int rc = test_run(argv, &so, &se);
    if (rc != 0 || !strstr(so, "10_telemetry skipped") || !strstr(se, "no telemetry in the run") ||
        !strstr(so, "13_shapes skipped: needs its run"))
        fail_msg("figures.sh on a run without telemetry: exit %d\n%s%s", rc, so, se);
    free(so); free(se);
    char png[400], vars[1000];
    snprintf(png, sizeof png, "%s/10_telemetry.png", out);
    assert_int_not_equal(access(png, F_OK), 0);
    snprintf(png, sizeof png, "%s/07_variability.png", out);
    assert_int_equal(access(png, F_OK), 0);
    snprintf(vars, sizeof vars, "datadir='%s/data'; out='%s/10_telemetry'", out, dir);
    char *gp[] = {"/usr/bin/env", "gnuplot", "-e", vars, "plots/10_telemetry.gp", NULL};
    rc = test_run(gp, &so, &se);
    if (rc != 3 || !strstr(se, "10_telemetry: no telemetry in the run"))
        fail_msg("10_telemetry.gp without telemetry: exit %d (expected 3), stderr: %s", rc, se);
    free(so); free(se);
    test_rmtree(dir);
}

/* A shape-suite run with FP32 rows only: the table has no TF32 row, and
 * figure 13 draws its one panel, saying that the run has no TF32 rows. */
static void shapes_figure_draws_one_precision(void **state)
{
    (void)state;
    need_gnuplot();
    char dir[256], s[300], ref[256], runs[320], path[420], vars[1000], out[400];
    test_tmpdir(dir, sizeof dir);
    snprintf(s, sizeof s, "%s/shapes.h5", dir);
    test_reference("REF_SHAPES_H100", ref, sizeof ref);
    suite_subset(ref, s, "fp32");
    snprintf(runs, sizeof runs, "shapes=%s", s);
    /* the tables figures.sh would write: rungs, runs, shapes */
    char *views[3][5] = {{(char *)test_binary(), "table", "rungs", NULL, NULL},
                         {(char *)test_binary(), "table", "runs", runs, NULL},
                         {(char *)test_binary(), "table", "shapes", s, NULL}};
    const char *names[3] = {"rungs", "runs", "shapes"};
    char *so, *se;
    for (int i = 0; i < 3; i++) {
        int rc = test_run(views[i], &so, &se);
        if (rc != 0) fail_msg("mmladder table %s: exit %d: %s", names[i], rc, se);
        if (i == 2) {
            /* hand-written, dispatch: FP32 rows at every shape kept, no TF32 */
            if (test_count_of(so, "\tfp32\t") < 3 * 2 || test_count_of(so, "\ttf32\t") != 0 ||
                test_count_of(so, "dispatch_fp32") != 3)
                fail_msg("shapes table of an FP32-only run:\n%s", so);
        }
        snprintf(path, sizeof path, "%s/%s.tsv", dir, names[i]);
        test_write_file(path, so);
        free(so); free(se);
    }
    snprintf(out, sizeof out, "%s/13_shapes", dir);
    snprintf(vars, sizeof vars, "datadir='%s'; out='%s'", dir, out);
    char *gp[] = {"/usr/bin/env", "gnuplot", "-e", vars, "plots/13_shapes.gp", NULL};
    int rc = test_run(gp, &so, &se);
    if (rc != 0) fail_msg("13_shapes.gp on an FP32-only run: exit %d, stderr: %s", rc, se);
    free(so); free(se);
    for (int k = 0; k < 2; k++) {
        struct stat st;
        snprintf(path, sizeof path, "%s.%s", out, k ? "png" : "pdf");
        if (stat(path, &st) != 0 || st.st_size < 1000) fail_msg("%s missing or nearly empty", path);
    }
    test_rmtree(dir);
}

/* The lettering check fails a figure with text under 7 pt, or with a
 * superscript that enhanced text draws at 0.8 of an 8 pt font, naming the
 * text; and passes one whose every piece, superscripts included, is 7 pt or
 * more (an exponent at a size of its own, as style.gp's LOGFMT draws it). */
static void lettering_check_finds_small_text(void **state)
{
    (void)state;
    need_gnuplot();
    if (!have_pdftohtml()) {
        print_message("skipped: pdftohtml is not installed (apt-get install poppler-utils)\n");
        skip();
    }
    char dir[256];
    test_tmpdir(dir, sizeof dir);
    static const struct {
        const char *name, *label, *font;
        int rc;
        const char *named;   /* in stderr when rc is 2 */
    } cases[] = {
        {"small", "tiny words", "Sans,6.5", 2, "\"tiny words\""},
        {"superscript", "10^{5}", "Sans,8", 2, "\"5\""},
        {"fine", "10^{/=7.5 5} and words", "Sans,7", 0, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char pdf[320], cmds[1200];
        snprintf(pdf, sizeof pdf, "%s/%s.pdf", dir, cases[i].name);
        /* the terminal as style.gp sets it: fonts in points as printed */
        snprintf(cmds, sizeof cmds,
                 "set terminal pdfcairo enhanced size 3in,2in font 'Sans,8' fontscale 0.75; "
                 "set output '%s'; set tics font 'Sans,8'; set label 1 '%s' at graph 0.5, "
                 "graph 0.5 font '%s'; plot [0:1] x notitle; set output",
                 pdf, cases[i].label, cases[i].font);
        char *gp[] = {"/usr/bin/env", "gnuplot", "-e", cmds, NULL};
        char *so, *se;
        int rc = test_run(gp, &so, &se);
        if (rc != 0) fail_msg("gnuplot for the %s case: exit %d: %s", cases[i].name, rc, se);
        free(so); free(se);
        const char *pdfs[] = {pdf, NULL};
        rc = check_lettering(pdfs, &se);
        if (rc != cases[i].rc || (cases[i].named && (!strstr(se, cases[i].named) ||
                                                      !strstr(se, "under 7 pt") ||
                                                      !strstr(se, pdf))))
            fail_msg("check-lettering.sh on the %s case: exit %d (expected %d), stderr: %s",
                     cases[i].name, rc, cases[i].rc, se);
        free(se);
    }
    test_rmtree(dir);
}

const struct CMUnitTest figures_tests[] = {
    cmocka_unit_test(every_figure_is_drawn),
    cmocka_unit_test(shapes_figure_draws_one_precision),
    cmocka_unit_test(telemetry_figure_is_skipped_without_telemetry),
    cmocka_unit_test(every_script_fails_without_its_data),
    cmocka_unit_test(lettering_check_finds_small_text),
};
const size_t figures_tests_count = sizeof figures_tests / sizeof figures_tests[0];
