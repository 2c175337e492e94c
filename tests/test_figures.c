/* Figures: every figure script draws from small results files that this test
 * writes (subsets of the shipped reference runs, so no number is invented), and
 * every script fails loudly, naming what is missing, when its data is absent. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "results.h"
#include "util.h"

static const char *const FIGURES[] = {
    "01_ladder",      "02_tile_width",   "03_work_per_thread", "04_speedup", "05_host",
    "06_roofline",    "07_variability",  "08_transfers",       "09_gpus",    "10_reproduction"};
#define N_FIGURES (sizeof FIGURES / sizeof FIGURES[0])

static int have_gnuplot(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

static void copy_attr(const char *name, const char *value, void *ctx)
{
    /* the end of the run is set by results_finish, as a run sets it */
    if (strcmp(name, "complete") && strcmp(name, "finished_utc") && strcmp(name, "wall_time_s"))
        results_attr_str(ctx, name, value);
}

/* Write to `out` the rows of `in` whose square size is in `sizes` (0-terminated),
 * with their samples and the root attributes. */
static void subset(const char *in, const char *out, const int *sizes)
{
    char err[512];
    struct results_file f;
    if (results_read(in, &f, err, sizeof err) != 0) fail_msg("%s", err);
    struct results *r;
    if (results_create(&r, out, 0, err, sizeof err) != 0) fail_msg("%s", err);
    if (results_visit_attrs(in, copy_attr, r, err, sizeof err) != 0) fail_msg("%s", err);
    double *ms = malloc(f.n_samples * sizeof *ms + 1), *h2d = malloc(f.n_samples * sizeof *h2d + 1),
           *d2h = malloc(f.n_samples * sizeof *d2h + 1);
    size_t s = 0;
    for (size_t i = 0; i < f.n_rows; i++) {
        int n = 0;
        while (s < f.n_samples && f.samples[s].row == (int32_t)i) {
            ms[n] = f.samples[s].time_ms;
            h2d[n] = f.samples[s].h2d_ms;
            d2h[n++] = f.samples[s++].d2h_ms;
        }
        const struct result_row *row = &f.rows[i];
        int keep = 0;
        for (const int *z = sizes; *z; z++)
            keep |= row->M == *z && row->N == *z && row->K == *z;
        if (keep && results_append(r, row, ms, h2d, d2h, n) != 0) fail_msg("append to %s", out);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
    free(ms); free(h2d); free(d2h);
    results_file_free(&f);
}

static void every_figure_is_drawn(void **state)
{
    (void)state;
    if (!have_gnuplot()) {
        print_message("skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        skip();
    }
    char dir[256], p[300], o[300], t[300], r[300], out[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/h100.h5", dir);
    snprintf(o, sizeof o, "%s/h200.h5", dir);
    snprintf(t, sizeof t, "%s/transfers.h5", dir);
    snprintf(r, sizeof r, "%s/repro.h5", dir);
    snprintf(out, sizeof out, "%s/figures", dir);
    /* 1024: the host's largest size (figure 4); 2048, 4096: figures 3 and 7. */
    const int sizes[] = {128, 1024, 2048, 4096, 0}, small[] = {256, 1024, 0};
    char ref[4][256];
    const char *keys[4] = {"REF_H100", "REF_H200", "REF_TRANSFERS", "REF_REPRO"};
    for (int i = 0; i < 4; i++) test_reference(keys[i], ref[i], sizeof ref[i]);
    subset(ref[0], p, sizes);
    subset(ref[1], o, sizes);
    subset(ref[2], t, small);
    subset(ref[3], r, sizes);

    char *argv[] = {"scripts/figures.sh", "-o", out, "-b", (char *)test_binary(), "-p", p, "-c",
                    o, "-t", t, "-r", p, "-n", r, NULL};
    char *so, *se;
    int rc = test_run(argv, &so, &se);
    if (rc != 0) fail_msg("figures.sh exited %d: %s", rc, se);
    free(so); free(se);
    for (size_t i = 0; i < N_FIGURES; i++) {
        for (int k = 0; k < 2; k++) {
            char f[400];
            struct stat st;
            snprintf(f, sizeof f, "%s/%s.%s", out, FIGURES[i], k ? "png" : "pdf");
            if (stat(f, &st) != 0 || st.st_size < 1000)
                fail_msg("%s missing or nearly empty", f);
        }
    }
    test_rmtree(dir);
}

static void every_script_fails_without_its_data(void **state)
{
    (void)state;
    if (!have_gnuplot()) {
        print_message("skipped: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        skip();
    }
    char dir[256];
    test_tmpdir(dir, sizeof dir);   /* an empty folder: no tables at all */
    for (size_t i = 0; i < N_FIGURES; i++) {
        char vars[700], script[128], out[400];
        snprintf(out, sizeof out, "%s/%s", dir, FIGURES[i]);
        snprintf(vars, sizeof vars, "datadir='%s'; out='%s'; peak=66900; bw=3000", dir, out);
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

const struct CMUnitTest figures_tests[] = {
    cmocka_unit_test(every_figure_is_drawn),
    cmocka_unit_test(every_script_fails_without_its_data),
};
const size_t figures_tests_count = sizeof figures_tests / sizeof figures_tests[0];
