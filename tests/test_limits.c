/* Stated limits, checked before anything runs: the host time budget (a host
 * point estimated over it is recorded as skipped with the reason, unless the
 * command line asks for it) and the device-memory preflight (needed vs free
 * bytes). */
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

#include "experiment/experiment.h"
#include "measure/plan.h"
#include "core/registry.h"
#include "results/results.h"
#include "measure/runner.h"
#include "util.h"

static struct experiment *parse(const char *text)
{
    struct experiment *e = calloc(1, sizeof *e);
    char err[512];
    assert_non_null(e);
    if (experiment_parse("t.ini", text, e, err, sizeof err) != 0) fail_msg("parse: %s", err);
    return e;
}

static void done(struct experiment *e)
{
    experiment_free(e);
    free(e);
}

/* host_naive at 64 (~0.2 s: the 200 ms minimum) and 300 (~0.32 s), and a GPU rung. */
static const char TWO_HOST_POINTS[] =
    "[experiment]\nname = t\nseed = 1\n"
    "[sampling]\nhost_point_budget_s = 0.25\n"
    "[h]\nvariants = host_naive gpu_naive\nsizes = 64 300\nopt_levels = 1\n";

static void budget_is_parsed_with_a_default(void **state)
{
    (void)state;
    struct experiment *e =
        parse("[experiment]\nname = t\nseed = 1\n[a]\nvariants = v\nsizes = 4\n");
    assert_true(e->host_point_budget_s == EXP_DEFAULT_HOST_POINT_BUDGET_S);
    assert_true(EXP_DEFAULT_HOST_POINT_BUDGET_S == 60.0);
    done(e);
    e = parse(TWO_HOST_POINTS);
    assert_true(e->host_point_budget_s == 0.25);
    done(e);
}

static void host_points_over_the_budget_are_skipped_with_the_reason(void **state)
{
    (void)state;
    struct experiment *e = parse(TWO_HOST_POINTS);
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 4);   /* per size: host_naive, gpu_naive */
    const double est64 = point_estimate_s(&p.points[0], e);
    const double est300 = point_estimate_s(&p.points[2], e);
    assert_true(est64 < 0.25 && est300 > 0.25);

    assert_int_equal(plan_apply_host_budget(&p, e, e->host_point_budget_s), 1);
    assert_false(p.points[0].skip);
    assert_true(p.points[2].skip);
    assert_false(p.points[2].skip_env);   /* skipped by design: the run still exits 0 */
    assert_string_equal(p.points[2].skip_reason,
                        "estimated 0.324 s > host budget 0.25 s (--host-budget S or --no-budget "
                        "to run it)");
    /* GPU points are never held to the host budget. */
    assert_true(!p.points[1].skip || p.points[1].skip_env);
    assert_true(!p.points[3].skip || p.points[3].skip_env);
    /* Applying it again changes nothing; a budget of 0 is none. */
    assert_int_equal(plan_apply_host_budget(&p, e, e->host_point_budget_s), 0);
    plan_free(&p);

    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(plan_apply_host_budget(&p, e, 0.0), 0);
    assert_int_equal(plan_apply_host_budget(&p, e, 1e-6), 2);
    assert_non_null(strstr(p.points[0].skip_reason, "estimated 0.2 s > host budget 1e-06 s"));
    plan_free(&p);
    done(e);
}

/* The default must not cut anything the shipped matrices declare (host naive
 * at n = 1024 is ~13 s by the nominal rate). */
static void shipped_experiments_fit_the_default_budget(void **state)
{
    (void)state;
    const char *const *files = TEST_SHIPPED_EXPERIMENTS;
    for (size_t i = 0; files[i]; i++) {
        struct experiment *e = calloc(1, sizeof *e);
        char err[512];
        assert_non_null(e);
        if (experiment_load(files[i], e, err, sizeof err) != 0) fail_msg("%s", err);
        struct plan p;
        if (plan_from_experiment(e, 1, "", &p, err, sizeof err) != 0) fail_msg("%s", err);
        size_t over = plan_apply_host_budget(&p, e, e->host_point_budget_s);
        for (size_t k = 0; k < p.n && over; k++)
            if (strstr(p.points[k].skip_reason, "host budget"))
                print_error("%s: %s %dx%dx%d: %s\n", files[i], p.points[k].v->name, p.points[k].M,
                            p.points[k].N, p.points[k].K, p.points[k].skip_reason);
        assert_int_equal(over, 0);
        plan_free(&p);
        done(e);
    }
}

static int run(char **out, char **err, const char *const *args)
{
    char *argv[12] = {(char *)test_binary()};
    for (int i = 0; args[i] && i < 10; i++) argv[i + 1] = (char *)args[i];
    return test_run(argv, out, err);
}

/* One tiny host point (~5 ms: the 5 ms minimum) under a budget of 1 ms. */
static const char OVER_BUDGET[] =
    "[experiment]\nname = b\nseed = 1\n"
    "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 5\nhost_timeout_ms = 50\n"
    "host_point_budget_s = 0.001\n"
    "[h]\nvariants = host_naive\nsizes = 32\nopt_levels = 1\n";

static void run_records_the_skip_and_the_flags_lift_it(void **state)
{
    (void)state;
    char dir[256], exp[300], h5[3][300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/b.ini", dir);
    test_write_file(exp, OVER_BUDGET);
    const char *flags[3][2] = {{NULL, NULL}, {"--host-budget", "60"}, {"--no-budget", NULL}};
    for (int k = 0; k < 3; k++) {
        snprintf(h5[k], sizeof h5[k], "%s/r%d.h5", dir, k);
        const char *args[] = {"run", exp, "-o", h5[k], flags[k][0], flags[k][1], NULL};
        char *out, *er;
        int rc = run(&out, &er, args);
        if (rc != 0) fail_msg("run %d exited %d: %s", k, rc, er);
        struct results_file f;
        assert_int_equal(results_read(h5[k], &f, err, sizeof err), 0);
        assert_int_equal(f.n_rows, 1);
        assert_int_equal(f.complete, 1);
        if (k == 0) {   /* the file's budget: skipped, with the estimate and the budget */
            assert_string_equal(f.rows[0].disposition, "skipped");
            assert_non_null(strstr(f.rows[0].reason, "> host budget 0.001 s"));
            assert_non_null(strstr(f.rows[0].reason, "--host-budget"));
            assert_non_null(strstr(er, "1 host point estimated over the host budget of 0.001 s"));
        } else {        /* asked for: it runs */
            assert_string_equal(f.rows[0].disposition, "passed");
            assert_null(strstr(er, "host budget"));
        }
        results_file_free(&f);
        free(out); free(er);
        unlink(h5[k]);
    }

    /* plan says the same before anything runs */
    const char *plan[] = {"plan", exp, NULL};
    char *out, *er;
    assert_int_equal(run(&out, &er, plan), 0);
    assert_non_null(strstr(out, "skip: estimated 0.005 s > host budget 0.001 s"));
    assert_non_null(strstr(out, "1 points, 0 to run, 1 skipped"));
    free(out); free(er);
    const char *plan_raised[] = {"plan", exp, "--host-budget", "0.5", NULL};
    assert_int_equal(run(&out, &er, plan_raised), 0);
    assert_non_null(strstr(out, "1 points, 1 to run, 0 skipped"));
    free(out); free(er);

    /* The usage says how. */
    const char *help[] = {"--help", NULL};
    assert_int_equal(run(&out, &er, help), 0);
    assert_non_null(strstr(out, "--host-budget S | --no-budget"));
    assert_non_null(strstr(out, "host_point_budget_s (default 60 s)"));
    free(out); free(er);
    unlink(exp);
    rmdir(dir);
}

/* The device-memory preflight, without a device: the message gives the bytes
 * needed and free; host points and skipped points are not counted. */
static void memory_preflight_names_needed_and_free_bytes(void **state)
{
    (void)state;
    const struct variant *gpu = registry_find("gpu_tiled"), *host = registry_find("host_naive");
    assert_non_null(gpu);
    assert_non_null(host);
    struct point pts[3] = {
        {.v = host, .M = 20000, .N = 20000, .K = 20000, .opt_level = 1, .sweep = "s"},
        {.v = gpu, .M = 30000, .N = 30000, .K = 30000, .tile = 16, .skip = 1, .sweep = "s"},
        {.v = gpu, .M = 8192, .N = 8192, .K = 8192, .tile = 16, .sweep = "s"},
    };
    struct plan p = {.n = 3, .cap = 3, .points = pts};
    const long long l2 = 50LL << 20;
    const size_t need = gpu_bytes_needed(8192, 8192, 8192, l2);
    const size_t total = (size_t)80 << 30;
    char err[512], want[128];

    assert_int_equal(runner_check_memory(&p, need, total, l2, err, sizeof err), 0);
    assert_int_equal(runner_check_memory(&p, need - 1, total, l2, err, sizeof err), -1);
    print_message("%s\n", err);
    assert_non_null(strstr(err, "shape 8192x8192x8192 needs"));
    snprintf(want, sizeof want, "(%zu bytes) of device memory", need);
    assert_non_null(strstr(err, want));
    snprintf(want, sizeof want, "(%zu bytes) free of 80.00 GiB", need - 1);
    assert_non_null(strstr(err, want));
    assert_non_null(strstr(err, "nothing was run"));
}

/* The host-memory preflight names the file and line of the shape, what it needs
 * and what the machine has; skipped points are not counted. */
static void host_memory_preflight_names_the_line(void **state)
{
    (void)state;
    const struct variant *gpu = registry_find("gpu_tiled"), *host = registry_find("host_naive");
    struct point pts[2] = {
        {.v = gpu, .M = 40000, .N = 40000, .K = 40000, .tile = 16, .skip = 1, .line = 3},
        {.v = host, .M = 20000, .N = 20000, .K = 20000, .opt_level = 1, .line = 7},
    };
    struct plan p = {.n = 2, .cap = 2, .points = pts};
    /* A, B, C floats and R doubles: 20000^2 * (3 * 4 + 8) bytes = 8e9 */
    const double need = 20000.0 * 20000.0 * 20;
    char err[512];
    assert_int_equal(runner_check_host_memory(&p, "e.ini", need, err, sizeof err), 0);
    assert_int_equal(runner_check_host_memory(&p, "e.ini", need - 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "e.ini:7: shape 20000x20000x20000 needs 7.5 GiB of host memory"));
    assert_non_null(strstr(err, "float64 reference"));
    assert_non_null(strstr(err, "nothing was run"));
}

const struct CMUnitTest limits_tests[] = {
    cmocka_unit_test(host_memory_preflight_names_the_line),
    cmocka_unit_test(budget_is_parsed_with_a_default),
    cmocka_unit_test(host_points_over_the_budget_are_skipped_with_the_reason),
    cmocka_unit_test(shipped_experiments_fit_the_default_budget),
    cmocka_unit_test(run_records_the_skip_and_the_flags_lift_it),
    cmocka_unit_test(memory_preflight_names_needed_and_free_bytes),
};
const size_t limits_tests_count = sizeof limits_tests / sizeof limits_tests[0];
