/* The command line end to end: a real run, info, export, and bad input that
 * must fail loudly without touching anything already written. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/results.h"
#include "results/results_h5.h"
#include "results/trust.h"
#include "util.h"

static const char SMALL_HOST[] =
    "[experiment]\nname = small\nseed = 11\n"
    "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 5\nhost_timeout_ms = 50\n"
    "[h]\nvariants = host_naive host_restrict\nsizes = 16\nshapes = 17x33x65\n"
    "opt_levels = 1 2 3\n";

static int run(char **out, char **err, const char *a1, const char *a2, const char *a3,
               const char *a4, const char *a5)
{
    char *argv[] = {(char *)test_binary(), (char *)a1, (char *)a2, (char *)a3, (char *)a4,
                    (char *)a5, NULL};
    return test_run(argv, out, err);
}

static void host_run_info_export(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/small.ini", dir);
    snprintf(h5, sizeof h5, "%s/small.h5", dir);
    test_write_file(exp, SMALL_HOST);
    char *out, *er;
    int rc = run(&out, &er, "run", exp, "-o", h5, NULL);
    if (rc != 0) fail_msg("run exited %d: %s", rc, er);
    assert_non_null(strstr(out, "12 of 12 points recorded"));
    assert_non_null(strstr(out, "% ref"));   /* the summary table */
    free(out); free(er);

    struct results_file f;
    assert_int_equal(results_read(h5, &f, err, sizeof err), 0);
    assert_int_equal(f.complete, 1);
    assert_int_equal(f.n_rows, 12);
    for (size_t i = 0; i < f.n_rows; i++) {
        assert_string_equal(f.rows[i].disposition, "passed");
        assert_true(f.rows[i].rel_err <= f.rows[i].tolerance);
        assert_true(f.rows[i].samples >= 3);
        assert_true(f.rows[i].time_ms_min <= f.rows[i].time_ms_median &&
                    f.rows[i].time_ms_median <= f.rows[i].time_ms_max);
    }
    results_file_free(&f);

    assert_int_equal(run(&out, &er, "info", h5, NULL, NULL, NULL), 0);
    assert_non_null(strstr(out, "experiment_name"));
    assert_non_null(strstr(out, "git_commit"));
    assert_non_null(strstr(out, "complete"));
    /* the build's provenance (scripts/buildinfo.sh): the compiler and its flags */
    char value[256];
    test_line_value(out, "cc_version", value, sizeof value);
    if (!value[0]) fail_msg("info: no cc_version\n%s", out);
    test_line_value(out, "cflags", value, sizeof value);
    assert_non_null(strstr(value, "-std=c11"));
#if MM_HAVE_CUDA
    test_line_value(out, "nvccflags", value, sizeof value);
    if (!strstr(value, "-gencode")) fail_msg("info: nvccflags without a target: '%s'", value);
    /* as MAJOR.MINOR.PATCH, with a GPU (the compiler's macros) or without (nvcc
     * --version): shards of one build, one with a GPU, agree on it */
    test_line_value(out, "nvcc_version", value, sizeof value);
    int major, minor, patch, end = 0;
    if (sscanf(value, "%d.%d.%d%n", &major, &minor, &patch, &end) != 3 || value[end])
        fail_msg("info: nvcc_version '%s' (expected MAJOR.MINOR.PATCH)", value);
#endif
    free(out); free(er);

    assert_int_equal(run(&out, &er, "export", h5, NULL, NULL, NULL), 0);
    int lines = 0;
    for (char *p = out; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 13);
    assert_true(strncmp(out, "row\tvariant\tseed_name", 21) == 0);
    free(out); free(er);
    assert_int_equal(run(&out, &er, "export", h5, "--samples", "--csv", NULL), 0);
    assert_true(strncmp(out, "row,variant,M", 13) == 0);
    free(out); free(er);

    /* The same output path again: refused, and the file is unchanged. */
    size_t len0, len1;
    char *before = test_read_file(h5, &len0);
    assert_int_not_equal(run(&out, &er, "run", exp, "-o", h5, NULL), 0);
    assert_non_null(strstr(er, "already exists"));
    char *after = test_read_file(h5, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before); free(after); free(out); free(er);
    unlink(h5); unlink(exp); rmdir(dir);
}

/* Each bad input: non-zero exit, a message naming the place and the value. */
static void bad_input_is_refused(void **state)
{
    (void)state;
    char dir[256], bad[300], exp[300], h5[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(bad, sizeof bad, "%s/bad.ini", dir);
    snprintf(exp, sizeof exp, "%s/ok.ini", dir);
    snprintf(h5, sizeof h5, "%s/none.h5", dir);
    test_write_file(exp, SMALL_HOST);
    test_write_file(bad, "[experiment]\nname = b\nseed = 1\n[h]\nvariants = host_naive\n"
                         "sizes = 16 x32\nopt_levels = 1\n");
    struct {
        const char *a[5];
        const char *expect;
    } cases[] = {
        {{"run", bad, "-o", h5, NULL}, "bad.ini:6:"},
        {{"run", "/nonexistent/e.ini", NULL, NULL, NULL}, "/nonexistent/e.ini"},
        {{"run", exp, "-o", "/nonexistent/dir/x.h5", NULL}, "/nonexistent/dir/x.h5"},
        {{"run", exp, "--frobnicate", NULL, NULL}, "--frobnicate"},
        {{"run", NULL, NULL, NULL, NULL}, "no experiment file"},
        {{"plan", bad, NULL, NULL, NULL}, "'x32'"},
        {{"info", bad, NULL, NULL, NULL}, "not an HDF5 file"},
        {{"export", "/nonexistent.h5", NULL, NULL, NULL}, "/nonexistent.h5"},
        {{"fly", NULL, NULL, NULL, NULL}, "unknown command 'fly'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *er;
        int rc = run(&out, &er, cases[i].a[0], cases[i].a[1], cases[i].a[2], cases[i].a[3],
                     cases[i].a[4]);
        if (rc != 1 || !strstr(er, cases[i].expect))
            fail_msg("case %zu (%s): exit %d, stderr: %s", i, cases[i].a[0], rc, er);
        free(out); free(er);
    }
    assert_int_equal(access(h5, F_OK), -1);   /* nothing was created */
    unlink(bad); unlink(exp); rmdir(dir);
}

static void gpu_points_without_gpu_are_skipped_with_reason(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/g.ini", dir);
    snprintf(h5, sizeof h5, "%s/g.h5", dir);
    test_write_file(exp, "[experiment]\nname = g\nseed = 1\n"
                         "[g]\nvariants = gpu_naive host_naive\nsizes = 16\nopt_levels = 2\n");
    char *out, *er;
    int rc = run(&out, &er, "run", exp, "-o", h5, NULL);
    struct results_file f;
    assert_int_equal(results_read(h5, &f, err, sizeof err), 0);
    assert_int_equal(f.n_rows, 2);
    assert_string_equal(f.rows[1].disposition, "passed");
    if (strcmp(f.rows[0].disposition, "skipped") == 0) {
        /* No usable GPU here: recorded with the reason, and the run says so by its exit. */
        assert_int_equal(rc, 3);
        assert_true(strstr(f.rows[0].reason, "no NVIDIA GPU or driver found") ||
                    strstr(f.rows[0].reason, "without CUDA"));
        /* said once, with the count, not once per row */
        assert_non_null(strstr(er, ": 1 of 2 points need a GPU and are skipped"));
        assert_int_equal(test_count_of(out, f.rows[0].reason) + test_count_of(er, f.rows[0].reason), 1);
        /* and last, what the exit status says (above make's "Error 3") */
        char last[600];
        snprintf(last, sizeof last, "mmladder: exit status 3: no GPU here for 1 point (skipped, as "
                                    "said above); 1 ran, 1 of them passed; all are recorded in %s\n", h5);
        const size_t el = strlen(er), ll = strlen(last);
        assert_true(el >= ll && !strcmp(er + el - ll, last));
    } else {
        assert_int_equal(rc, 0);
        assert_string_equal(f.rows[0].disposition, "passed");
    }
    results_file_free(&f);
    free(out); free(er);
    unlink(h5); unlink(exp); rmdir(dir);
}

/* The GPU points run shape by shape (each shape's inputs made and warmed once),
 * in plan order within a shape; the host points run beside them on a thread of
 * their own; every planned point is recorded once, and the file keeps the
 * plan's estimate beside its wall time. */
static void gpu_points_go_shape_by_shape_host_points_beside(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/o.ini", dir);
    snprintf(h5, sizeof h5, "%s/o.h5", dir);
    test_write_file(exp, "[experiment]\nname = o\nseed = 1\n"
                         "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 5\n"
                         "[a]\nvariants = gpu_naive\nsizes = 16 24\n"
                         "[h]\nvariants = host_naive host_restrict\nsizes = 24 16\nopt_levels = 2\n"
                         "[b]\nvariants = gpu_tiled\nsizes = 16 24\ntiles = 8\n");
    char *out, *er;
    int rc = run(&out, &er, "run", exp, "-o", h5, NULL);
    assert_true(rc == 0 || rc == 3);
    struct results_file f;
    assert_int_equal(results_read(h5, &f, err, sizeof err), 0);
    assert_int_equal(f.n_rows, 8);
    const char *gpu[4][2] = {{"gpu_naive", "16"}, {"gpu_tiled", "16"}, {"gpu_naive", "24"},
                             {"gpu_tiled", "24"}};
    int g = 0, host16 = 0, host24 = 0;
    for (size_t i = 0; i < f.n_rows; i++) {
        const struct result_row *r = &f.rows[i];
        if (!strcmp(r->device, "host")) {
            assert_string_equal(r->disposition, "passed");
            host16 += r->M == 16, host24 += r->M == 24;
            continue;
        }
        assert_true(g < 4);
        assert_string_equal(r->variant, gpu[g][0]);
        assert_int_equal(r->M, atoi(gpu[g][1]));
        g++;
    }
    assert_int_equal(g, 4);
    assert_true(host16 == 2 && host24 == 2);
    results_file_free(&f);
    free(out); free(er);
    assert_int_equal(run(&out, &er, "export", h5, "--attrs", NULL, NULL), 0);
    char v[64];
    test_line_value(out, "estimated_s", v, sizeof v);
    assert_true(v[0] != '\0' && atof(v) > 0);
    assert_non_null(strstr(out, "beside the GPU rows"));
    free(out); free(er);
    unlink(h5); unlink(exp); rmdir(dir);
}

/* A run of which nothing can run here (GPU rungs only, no GPU) writes no file,
 * says why once, and exits 3; `plan` says it once too. */
static void nothing_runnable_writes_no_file(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/g.ini", dir);
    snprintf(h5, sizeof h5, "%s/g.h5", dir);
    test_write_file(exp, "[experiment]\nname = g\nseed = 1\n"
                         "[g]\nvariants = gpu_naive gpu_tiled\nsizes = 16 32 48\ntiles = 8 16\n");
    char *out, *er;
    int rc = run(&out, &er, "run", exp, "-o", h5, NULL);
    if (rc == 3) {
        assert_int_equal(access(h5, F_OK), -1);
        assert_non_null(strstr(er, ": 9 of 9 points need a GPU and are skipped"));
        assert_non_null(strstr(er, "no file was written"));
        free(out); free(er);
        assert_int_equal(run(&out, &er, "plan", exp, NULL, NULL, NULL), 0);
        assert_int_equal(test_count_of(out, "need a GPU and are skipped"), 1);
        assert_true(test_count_of(out, "NVIDIA") + test_count_of(out, "without CUDA") == 1);
        assert_non_null(strstr(out, "9 points, 0 to run, 9 skipped"));
    } else {
        assert_int_equal(rc, 0);   /* a GPU here: every point ran */
        unlink(h5);
    }
    free(out); free(er);
    unlink(exp); rmdir(dir);
}

/* Transfer points: copies timed around the kernel, from pinned and pageable memory. */
static void transfer_points_time_the_copies(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/t.ini", dir);
    snprintf(h5, sizeof h5, "%s/t.h5", dir);
    test_write_file(exp, "[experiment]\nname = t\nseed = 1\n"
                         "[t]\nvariants = gpu_tiled\nsizes = 300\ntiles = 16\n"
                         "host_memory = pinned pageable\n");
    char *out, *er;
    int rc = run(&out, &er, "run", exp, "-o", h5, NULL);
    if (rc == 3) {   /* no GPU here: nothing ran, no file */
        assert_int_equal(access(h5, F_OK), -1);
        print_message("skipped: %.*s\n", (int)strcspn(er, "\n"), er);
        free(out); free(er);
        unlink(exp); rmdir(dir);
        skip();
    }
    struct results_file f;
    assert_int_equal(results_read(h5, &f, err, sizeof err), 0);
    assert_int_equal(f.n_rows, 2);
    assert_string_equal(f.rows[0].host_memory, "pinned");
    assert_string_equal(f.rows[1].host_memory, "pageable");
    {
        assert_int_equal(rc, 0);
        for (int i = 0; i < 2; i++) {
            assert_string_equal(f.rows[i].disposition, "passed");
            assert_true(f.rows[i].h2d_ms_median > 0 && f.rows[i].d2h_ms_median > 0);
            assert_true(f.rows[i].time_ms_median > 0);
        }
        for (size_t i = 0; i < f.n_samples; i++) assert_true(f.samples[i].h2d_ms > 0);
    }
    results_file_free(&f);
    free(out); free(er);
    unlink(h5); unlink(exp); rmdir(dir);
}

/* A claim not evaluated is not passed: claims with none of their runs exits 1
 * and says why, unless --partial asks for those the runs allow; a role given
 * twice is refused by every derived command. */
static void claims_need_their_runs_and_roles_are_one_file_each(void **state)
{
    (void)state;
    char ref[256], role[300], twice[300];
    test_reference("REF_H100", ref, sizeof ref);
    char *out, *er;
    int rc = run(&out, &er, "claims", "paper/claims.ini", NULL, NULL, NULL);
    if (rc != 1 || !strstr(er, "not evaluated (the first, [verified]: needs the run 'h100')") ||
        !strstr(er, "a claim not evaluated is not passed"))
        fail_msg("claims without runs: exit %d, stderr: %s", rc, er);
    free(out), free(er);
    assert_int_equal(run(&out, &er, "claims", "paper/claims.ini", "--partial", NULL, NULL), 0);
    assert_non_null(strstr(out, "0 evaluated, 0 failed"));
    free(out), free(er);
    snprintf(role, sizeof role, "h100=%s", ref);
    snprintf(twice, sizeof twice, "h100=%s", ref);
    const char *views[][3] = {{"claims", "paper/claims.ini", role}, {"table", "ladder", role}};
    for (size_t i = 0; i < 2; i++) {
        rc = run(&out, &er, views[i][0], views[i][1], views[i][2], twice, NULL);
        if (rc != 1 || !strstr(er, "role 'h100' given twice"))
            fail_msg("%s with a role twice: exit %d, stderr: %s", views[i][0], rc, er);
        free(out), free(er);
    }
}

/* What a values command is given: a fresh folder, the H100 reference run as
 * role h100, DIR/v.tex for --out. */
struct values_case {
    char dir[256], role[300], out[300];
};

static void values_case(struct values_case *v)
{
    char ref[256];
    test_tmpdir(v->dir, sizeof v->dir);
    test_reference("REF_H100", ref, sizeof ref);
    snprintf(v->role, sizeof v->role, "h100=%s", ref);
    snprintf(v->out, sizeof v->out, "%s/v.tex", v->dir);
}

/* No command takes an empty argument (an unset shell variable gives one): it
 * is refused, naming the option or the place, before anything is read or
 * written; values --tables '' once wrote its tables into the root folder. */
static void empty_arguments_are_refused(void **state)
{
    (void)state;
    struct values_case v;
    values_case(&v);
    char tex[300], exp[300];
    const char *dir = v.dir, *role = v.role, *out = v.out;
    snprintf(tex, sizeof tex, "%s/p.tex", dir);
    snprintf(exp, sizeof exp, "%s/small.ini", dir);
    test_write_file(tex, "\\valtable{hardware.h100}\n");
    test_write_file(exp, SMALL_HOST);
    const int root_table = access("/table-hardware.h100.tex", F_OK) == 0;
    struct {
        const char *a[11];
        const char *expect;
    } cases[] = {
        {{"export", "", NULL}, "mmladder export: argument 1 is ''"},
        {{"run", exp, "-o", "", NULL}, "mmladder run: -o ''"},
        {{"plan", "", NULL}, "mmladder plan: argument 1 is ''"},
        {{"table", "ladder", "h100=", NULL}, "'h100=' names no file"},
        {{"values", "--claims", "paper/claims.ini", "--out", out, "--tables", "", role, "--", tex,
          NULL}, "mmladder values: --tables ''"},
        {{"values", "--claims", "paper/claims.ini", "--out", out, "--tables", dir, role, "--",
          "", NULL}, "mmladder values: argument 9 is ''"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[12] = {(char *)test_binary()}, *o, *e;
        for (size_t k = 0; cases[i].a[k]; k++) argv[k + 1] = (char *)cases[i].a[k];
        const int rc = test_run(argv, &o, &e);
        if (rc != 1 || !strstr(e, cases[i].expect))
            fail_msg("case %zu (%s): exit %d, stderr: %s", i, cases[i].a[0], rc, e);
        free(o), free(e);
    }
    if (!root_table) assert_int_equal(access("/table-hardware.h100.tex", F_OK), -1);
    assert_int_equal(access(out, F_OK), -1);
    test_rmtree(dir);
}

/* device: the GPU's name on stdout (exit 0), or, like every other non-zero
 * exit, why there is none on stderr (exit 3) and nothing on stdout. */
static void device_says_why_on_stderr(void **state)
{
    (void)state;
    char *out, *er;
    const int rc = run(&out, &er, "device", NULL, NULL, NULL, NULL);
    if (rc == 0) {
        assert_non_null(strstr(out, "compute capability"));
    } else {
        assert_int_equal(rc, 3);
        assert_string_equal(out, "");
        assert_true(strncmp(er, "mmladder device: ", 17) == 0 && strlen(er) > 18);
    }
    free(out), free(er);
    /* --file-name: the GPU's name as a results file carries it ("h100-80gb-hbm3") */
    const int named = run(&out, &er, "device", "--file-name", NULL, NULL, NULL);
    assert_int_equal(named, rc);
    if (named == 0) {
        assert_true(strlen(out) > 1 && out[strlen(out) - 1] == '\n');
        for (const char *p = out; *p != '\n'; p++)
            assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-');
    }
    free(out), free(er);
}

/* pick: bad dimensions and options are refused, naming the value and what was
 * expected (exit 1); with them right, the candidates and the pick, least
 * predicted time first, or why there is no GPU to plan them on (exit 3). */
static void pick_says_what_it_launches_or_why_not(void **state)
{
    (void)state;
    static const char *const bad[][5] = {
        {"pick", "100", "200", NULL, NULL},       {"pick", "0", "200", "300", NULL},
        {"pick", "100", "2x", "300", NULL},       {"pick", "1", "2", "3", "4"},
        {"pick", "1", "2", "3", "--precision"},   {"pick", "99999999999", "1", "1", NULL},
        {"pick", "65536", "65536", "1", NULL}};
    static const char *const says[] = {"got 2 of the three dimensions", "M '0'", "N '2x'",
                                       "unexpected argument '4'", "--precision",
                                       "M '99999999999'", "C (M x N) has 4294967296 elements"};
    char *out, *er;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int rc = run(&out, &er, bad[i][0], bad[i][1], bad[i][2], bad[i][3], bad[i][4]);
        assert_int_equal(rc, 1);
        if (!strstr(er, says[i])) fail_msg("pick %zu: '%s' does not say '%s'", i, er, says[i]);
        free(out), free(er);
    }
    const int rc = run(&out, &er, "pick", "37", "14336", "4096", NULL);
    if (rc == 0) {
        assert_non_null(strstr(out, "<- pick"));
        assert_non_null(strstr(out, "\npick: "));
        assert_non_null(strstr(out, "term by term"));
    } else {
        assert_int_equal(rc, 3);
        assert_string_equal(out, "");
        assert_non_null(strstr(er, "a pick needs the GPU"));
    }
    free(out), free(er);
}

/* values writes its tables beside --out under the same rules: a file it did
 * not write is never written over, and a refused paper (a key that cannot be
 * answered after a table was written) leaves no table behind. */
static void values_tables_are_its_own_and_go_with_a_refusal(void **state)
{
    (void)state;
    struct values_case v;
    values_case(&v);
    char good[300], bad[300], table[300];
    const char *dir = v.dir, *out = v.out;
    snprintf(good, sizeof good, "%s/good.tex", dir);
    snprintf(bad, sizeof bad, "%s/bad.tex", dir);
    snprintf(table, sizeof table, "%s/table-hardware.h100.tex", dir);
    test_write_file(good, "\\val{h100.points} points\n\\valtable{hardware.h100}\n");
    test_write_file(bad, "\\val{h100.no_such_key}\n");
    char *argv[] = {(char *)test_binary(), "values", "--claims", "paper/claims.ini", "--out", v.out,
                    "--tables", v.dir, v.role, "--", good, bad, NULL}, *o, *e;
    int rc = test_run(argv, &o, &e);
    if (rc != 1 || !strstr(e, "bad.tex:1:")) fail_msg("values: exit %d, stderr: %s", rc, e);
    free(o), free(e);
    assert_int_equal(access(table, F_OK), -1);   /* written, then removed with the refusal */
    assert_int_equal(access(out, F_OK), -1);

    argv[11] = NULL;   /* good.tex alone: the table, marked as values' own */
    for (int twice = 0; twice < 2; twice++) {
        rc = test_run(argv, &o, &e);
        if (rc != 0) fail_msg("values: exit %d, stderr: %s", rc, e);
        free(o), free(e);
    }
    char *t = test_read_file(table, NULL);
    assert_true(t && !strncmp(t, "% written by mmladder values", 28) && strstr(t, "SMs & "));
    free(t);

    test_write_file(table, "a table of mine\n");
    unlink(out);
    rc = test_run(argv, &o, &e);
    if (rc != 1 || !strstr(e, "exists and was not written by mmladder values"))
        fail_msg("values over a file of mine: exit %d, stderr: %s", rc, e);
    free(o), free(e);
    t = test_read_file(table, NULL);
    assert_string_equal(t, "a table of mine\n");
    free(t);
    assert_int_equal(access(out, F_OK), -1);
    test_rmtree(dir);
}

/* Each command: exit 0, and stdout holds each of its needles. */
static void help_and_list(void **state)
{
    (void)state;
    const struct {
        const char *a[2];
        const char *expect[2];   /* NULL: no more */
    } cases[] = {
        {{"--help", NULL}, {"usage: mmladder", NULL}},
        {{"list", NULL}, {"gputiled<TS,WPT,RTS>", NULL}},
        {{"plan", "experiments/paper.ini"},
         {"tile 16 / WPT 32: not a configuration of gpu_tiled_wpt", "estimated"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *er;
        const int rc = run(&out, &er, cases[i].a[0], cases[i].a[1], NULL, NULL, NULL);
        if (rc != 0) fail_msg("case %zu (%s): exit %d, stderr: %s", i, cases[i].a[0], rc, er);
        for (size_t k = 0; k < 2 && cases[i].expect[k]; k++)
            if (!strstr(out, cases[i].expect[k]))
                fail_msg("case %zu (%s): no \"%s\" in stdout:\n%s", i, cases[i].a[0],
                         cases[i].expect[k], out);
        free(out); free(er);
    }
}

/* A `git archive` of this repository, unpacked inside another git repository,
 * records the commit it was cut from (scripts/archive-commit, export-subst),
 * never the enclosing repository's, and git_dirty -1; a copy of the tree with
 * no repository and no substituted commit records "unknown". */
static void archive_records_the_commit_it_was_cut_from(void **state)
{
    (void)state;
    char *out, *er;
    char *own[] = {"sh", "-c", "[ \"$(git rev-parse --show-toplevel 2>/dev/null)\" = \"$(pwd -P)\" ] && "
                   "git rev-parse --verify -q HEAD", NULL};
    if (test_run(own, &out, &er) != 0) {
        free(out); free(er);
        print_message("skipped: the tests do not run from a git checkout of their own, so "
                      "there is no commit to archive\n");
        skip();
    }
    char head[64];
    snprintf(head, sizeof head, "%.40s", out);
    free(out); free(er);

    char dir[256], script[2048];
    test_tmpdir(dir, sizeof dir);
    snprintf(script, sizeof script,
             "set -e; unset MM_GIT_COMMIT MM_GIT_DIRTY; src=$(pwd -P); cd '%s'\n"
             "git init -q outer && git -C outer -c user.name=t -c user.email=t@example.org "
             "commit -q --allow-empty -m outer\n"
             "mkdir outer/cut && git -C \"$src\" archive HEAD scripts | tar -x -C outer/cut\n"
             "sh outer/cut/scripts/buildinfo.sh cc '' '' '' '' | grep -E 'MM_GIT_(COMMIT|DIRTY)'\n"
             "echo outer $(git -C outer rev-parse HEAD)\n"
             "mkdir copy && cp -R \"$src/scripts\" copy/ && sh copy/scripts/buildinfo.sh cc '' '' '' '' "
             "| grep -E 'MM_GIT_(COMMIT|DIRTY)' | sed 's/^/copy /'\n",
             dir);
    char *argv[] = {"sh", "-c", script, NULL};
    const int rc = test_run(argv, &out, &er);
    if (rc != 0) fail_msg("the archive script exited %d: %s%s", rc, out, er);
    char want[128];
    snprintf(want, sizeof want, "#define MM_GIT_COMMIT \"%s\"\n#define MM_GIT_DIRTY -1\n", head);
    if (strncmp(out, want, strlen(want)) != 0) fail_msg("archive: want\n%sgot\n%s", want, out);
    const char *outer = strstr(out, "outer ");
    assert_non_null(outer);
    assert_true(strncmp(outer + 6, head, 40) != 0);   /* not the enclosing repository's */
    assert_non_null(strstr(out, "copy #define MM_GIT_COMMIT \"unknown\"\ncopy #define MM_GIT_DIRTY -1"));
    free(out); free(er);
    test_rmtree(dir);
}

/* A copy of a results file at `to` that says another commit built it, its
 * attributes' checksum made again (as a build of that commit would have
 * written it): what a shard of another commit looks like. */
static void copy_of_another_commit(const char *from, const char *to)
{
    test_copy_with_attr(from, to, "git_commit", "0123456789abcdef0123456789abcdef01234567");
}

/* `mmladder ARGS...` (at most 8), its output and error freed; the exit status. */
static int run_v(const char *const *args)
{
    char *argv[10] = {(char *)test_binary()};
    for (int i = 0; args[i] && i < 8; i++) argv[i + 1] = (char *)args[i];
    char *out, *err;
    const int rc = test_run(argv, &out, &err);
    free(out);
    free(err);
    return rc;
}

/* The point numbers `plan --shard K/N` lists (all with N 0), as a bitmask. */
static unsigned long long planned_points(const char *exp, int k, int n)
{
    char shard[16], *out, *err;
    snprintf(shard, sizeof shard, "%d/%d", k, n);
    char *argv[] = {(char *)test_binary(), "plan", (char *)exp, n ? "--shard" : NULL, shard, NULL};
    assert_int_equal(test_run(argv, &out, &err), 0);
    unsigned long long mask = 0;
    for (char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char *end;
        const long i = strtol(line, &end, 10);
        if (end != line && !strncmp(end, "  ", 2) && i >= 0 && i < 64) mask |= 1ull << i;   /* "%4zu  " */
    }
    free(out);
    free(err);
    return mask;
}

/* Three shards of a host experiment, each run alone, merge into what one run
 * of it gives: the same points, in plan order, complete; `plan --shard` lists
 * each point in one shard.  Refused, writing nothing: a shard twice, a shard
 * of another plan, a file that is no shard, a damaged shard, an output that
 * exists.  With a shard missing the merge writes a file marked incomplete,
 * saying so, and exits 4. */
static void shards_merge_into_what_one_run_gives(void **state)
{
    (void)state;
    char dir[256], exp[300], other[300], s[3][300], whole[300], merged[300], part[300], bad[300],
        err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(other, sizeof other, "%s/o.ini", dir);
    test_write_file(exp, "[experiment]\nname = e\nseed = 3\n"
                         "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 2\nhost_timeout_ms = 20\n"
                         "[h]\nvariants = host_naive host_restrict\nsizes = 16 24\nshapes = 17x33x65\n"
                         "opt_levels = 1 3\n");
    test_write_file(other, "[experiment]\nname = e\nseed = 3\n"
                           "[h]\nvariants = host_naive\nsizes = 16 32\nopt_levels = 1\n");
    unsigned long long seen = 0;
    for (int k = 0; k < 3; k++) {
        const unsigned long long m = planned_points(exp, k, 3);
        assert_int_equal(seen & m, 0);
        seen |= m;
    }
    assert_true(seen == planned_points(exp, 0, 0) && seen == (1ull << 12) - 1);
    for (int k = 0; k < 3; k++) {
        char shard[8];
        snprintf(shard, sizeof shard, "%d/3", k);
        snprintf(s[k], sizeof s[k], "%s/s%d.h5", dir, k);
        assert_int_equal(run_v((const char *[]){"run", exp, "--shard", shard, "-o", s[k], NULL}), 0);
    }
    snprintf(whole, sizeof whole, "%s/whole.h5", dir);
    snprintf(merged, sizeof merged, "%s/m.h5", dir);
    assert_int_equal(run_v((const char *[]){"run", exp, "-o", whole, NULL}), 0);
    assert_int_equal(run_v((const char *[]){"merge", merged, s[2], s[0], s[1], NULL}), 0);
    struct results_file a, b;
    assert_int_equal(results_read(whole, &a, err, sizeof err), 0);
    assert_int_equal(results_read(merged, &b, err, sizeof err), 0);
    assert_true(b.complete && !b.damaged && b.n_rows == a.n_rows && a.n_rows == 12);
    for (size_t i = 0; i < b.n_rows; i++) {
        assert_int_equal(b.rows[i].point, (int32_t)i);
        size_t j = 0;
        while (j < a.n_rows && a.rows[j].point != (int32_t)i) j++;
        assert_true(j < a.n_rows);
        assert_string_equal(a.rows[j].variant, b.rows[i].variant);
        assert_true(a.rows[j].M == b.rows[i].M && a.rows[j].N == b.rows[i].N &&
                    a.rows[j].K == b.rows[i].K && a.rows[j].opt_level == b.rows[i].opt_level);
        assert_string_equal(b.rows[i].disposition, "passed");
    }
    results_file_free(&a);
    results_file_free(&b);

    /* refusals: nothing written */
    char other_shard[300];
    snprintf(other_shard, sizeof other_shard, "%s/other.h5", dir);
    assert_int_equal(run_v((const char *[]){"run", other, "--shard", "1/3", "-o", other_shard, NULL}), 0);
    snprintf(bad, sizeof bad, "%s/cut.h5", dir);
    char *cp[] = {"cp", s[1], bad, NULL}, *o, *e;
    assert_int_equal(test_run(cp, &o, &e), 0);
    free(o), free(e);
    assert_int_equal(truncate(bad, 4096), 0);
    char commit[300];
    snprintf(commit, sizeof commit, "%s/commit.h5", dir);
    copy_of_another_commit(s[1], commit);
    assert_int_equal(results_read(commit, &a, err, sizeof err), 0);   /* a sound file */
    assert_true(a.complete && !a.damaged);
    results_file_free(&a);
    const char *refused[][5] = {{s[0], s[0], s[1], s[2], NULL}, {s[0], other_shard, s[2], NULL},
                                {s[0], whole, NULL},            {s[0], bad, s[2], NULL},
                                {s[0], commit, s[2], NULL}};
    snprintf(part, sizeof part, "%s/r.h5", dir);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *args[8] = {"merge", part};
        for (int j = 0; refused[i][j]; j++) args[2 + j] = refused[i][j];
        assert_int_equal(run_v(args), 1);
        assert_int_equal(access(part, F_OK), -1);
    }
    assert_int_equal(run_v((const char *[]){"merge", merged, s[0], s[1], s[2], NULL}), 1);
    char *argv[] = {(char *)test_binary(), "merge", part, s[0], commit, NULL}, *why;
    assert_int_equal(test_run(argv, &o, &why), 1);
    assert_non_null(strstr(why, "differ in git_commit"));
    free(o), free(why);

    /* a shard missing */
    assert_int_equal(run_v((const char *[]){"merge", part, s[0], s[2], NULL}), 4);
    assert_int_equal(results_read(part, &b, err, sizeof err), 0);
    assert_true(!b.complete && b.n_rows < 12);
    results_file_free(&b);
    char *info[] = {(char *)test_binary(), "info", part, NULL};
    assert_int_equal(test_run(info, &o, &e), 4);   /* an incomplete file */
    assert_non_null(strstr(o, "shard 1 missing"));
    assert_non_null(strstr(o, "INCOMPLETE"));
    assert_non_null(strstr(e, "--allow-incomplete"));
    free(o), free(e);
    char *anyway[] = {(char *)test_binary(), "info", part, "--allow-incomplete", NULL};
    assert_int_equal(test_run(anyway, &o, &e), 0);
    free(o), free(e);
    test_rmtree(dir);
}

/* The shipped two-GPU run merges again from its shards' shipped files into
 * the same rows, each with the same values, in plan order. */
static void shipped_shards_merge_into_the_shipped_run(void **state)
{
    (void)state;
    char merged[600], dir[256], again[300], s0[700], s1[700], err[512];
    if (!test_reference_made("REF_X2_SHAPES_H100", merged, sizeof merged)) {
        print_message("skipped: data/references.mk names no two-GPU run at this release "
                      "(REF_X2_SHAPES_H100 is empty)\n");
        skip();
    }
    const size_t stem = strlen(merged) - strlen(".h5");
    snprintf(s0, sizeof s0, "%.*s-shard0-of-2.h5", (int)stem, merged);
    snprintf(s1, sizeof s1, "%.*s-shard1-of-2.h5", (int)stem, merged);
    test_tmpdir(dir, sizeof dir);
    snprintf(again, sizeof again, "%s/again.h5", dir);
    assert_int_equal(run_v((const char *[]){"merge", again, s1, s0, NULL}), 0);
    struct results_file a, b;
    assert_int_equal(results_read(merged, &a, err, sizeof err), 0);
    assert_int_equal(results_read(again, &b, err, sizeof err), 0);
    assert_true(a.complete && b.complete && a.n_rows == b.n_rows && a.n_samples == b.n_samples);
    for (size_t i = 0; i < a.n_rows; i++) {
        assert_int_equal(a.rows[i].point, (int32_t)i);
        assert_int_equal(b.rows[i].point, (int32_t)i);
        assert_string_equal(a.rows[i].variant, b.rows[i].variant);
        assert_true(a.rows[i].gflops == b.rows[i].gflops && a.rows[i].crc32 == b.rows[i].crc32);
    }
    results_file_free(&a);
    results_file_free(&b);
    test_rmtree(dir);
}

/* scripts/run-gpus.sh over two GPUs named by CUDA_VISIBLE_DEVICES: one shard
 * a GPU, every host point in shard 0 (so shard 1 of a host experiment has no
 * points and writes no file), merged into a complete file of the whole plan;
 * without a GPU it still cuts, runs and merges the host points. */
static void one_shard_per_gpu_then_merged(void **state)
{
    (void)state;
    char dir[256], exp[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/g.ini", dir);
    test_write_file(exp, SMALL_HOST);
    char *old = getenv("CUDA_VISIBLE_DEVICES") ? strdup(getenv("CUDA_VISIBLE_DEVICES")) : NULL;
    setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);
    setenv("MMLADDER", test_binary(), 0);
    char *argv[] = {"scripts/run-gpus.sh", exp, dir, NULL}, *out, *er;
    const int rc = test_run(argv, &out, &er);
    if (old) setenv("CUDA_VISIBLE_DEVICES", old, 1);
    else unsetenv("CUDA_VISIBLE_DEVICES");
    free(old);
    if (rc != 0) fail_msg("run-gpus.sh exited %d: %s%s", rc, out, er);
    assert_non_null(strstr(out, "as 2 shard(s) on GPU(s) 0 1"));
    const char *at = strstr(out, "-> ");
    assert_non_null(at);
    char merged[400];
    snprintf(merged, sizeof merged, "%.*s", (int)strcspn(at + 3, "\n;"), at + 3);
    struct results_file f;
    assert_int_equal(results_read(merged, &f, err, sizeof err), 0);
    assert_true(f.complete && f.n_rows == 12);   /* 2 rungs x 2 shapes x 3 levels */
    for (size_t i = 0; i < f.n_rows; i++) assert_int_equal(f.rows[i].point, (int32_t)i);
    results_file_free(&f);
    free(out), free(er);
    test_rmtree(dir);
}

const struct CMUnitTest cli_tests[] = {
    cmocka_unit_test(host_run_info_export),
    cmocka_unit_test(gpu_points_go_shape_by_shape_host_points_beside),
    cmocka_unit_test(bad_input_is_refused),
    cmocka_unit_test(gpu_points_without_gpu_are_skipped_with_reason),
    cmocka_unit_test(nothing_runnable_writes_no_file),
    cmocka_unit_test(transfer_points_time_the_copies),
    cmocka_unit_test(claims_need_their_runs_and_roles_are_one_file_each),
    cmocka_unit_test(empty_arguments_are_refused),
    cmocka_unit_test(device_says_why_on_stderr),
    cmocka_unit_test(pick_says_what_it_launches_or_why_not),
    cmocka_unit_test(values_tables_are_its_own_and_go_with_a_refusal),
    cmocka_unit_test(help_and_list),
    cmocka_unit_test(archive_records_the_commit_it_was_cut_from),
    cmocka_unit_test(shards_merge_into_what_one_run_gives),
    cmocka_unit_test(shipped_shards_merge_into_the_shipped_run),
    cmocka_unit_test(one_shard_per_gpu_then_merged),
};
const size_t cli_tests_count = sizeof cli_tests / sizeof cli_tests[0];
