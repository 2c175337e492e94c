/* The HDF5 results file: round trip, never overwriting, and runs killed midway. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>
#include <hdf5.h>
#include <math.h>

#include "results/results.h"
#include "results/results_h5.h"
#include "results/trust.h"
#include "util.h"

static void round_trip(void **state)
{
    (void)state;
    char dir[256], path[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/r.h5", dir);
    struct results *r;
    assert_int_equal(results_create(&r, path, 0, err, sizeof err), 0);
    assert_int_equal(results_attr_str(r, "gpu_name", "NVIDIA Test"), 0);
    assert_int_equal(results_attr_u64(r, "seed", 18446744073709551615ull), 0);
    assert_int_equal(results_attr_double(r, "x", 0.25), 0);
    assert_int_equal(results_attr_int(r, "planned_points", 2), 0);   /* as a run records it */
    struct result_row a = {.variant = "gpu_tiled", .device = "gpu", .precision = "fp32",
                           .M = 17, .N = 33, .K = 65, .tile = 16, .samples = 3,
                           .flops = 2.0 * 17 * 33 * 65, .time_ms_min = 1.5, .time_ms_median = 2.5,
                           .time_ms_mean = 2.5, .time_ms_max = 3.5, .disposition = "passed",
                           .stop_rule = "converged"};
    a.gflops = a.flops / a.time_ms_median / 1e6;
    const double s[3] = {1.5, 2.5, 3.5};
    struct result_row b = {.variant = "gpu_tiled_wpt", .device = "gpu", .precision = "fp32",
                           .M = 17, .N = 33, .K = 65, .flops = a.flops, .tile = 8, .wpt = 16,
                           .disposition = "skipped", .reason = "WPT 16 does not divide TS 8",
                           .point = 1};
    assert_int_equal(results_append(r, &a, s, NULL, NULL, 3), 0);
    assert_int_equal(results_append(r, &b, NULL, NULL, NULL, 0), 0);
    assert_int_equal(results_rows(r), 2);
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);

    struct results_file f;
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.n_rows, 2);
    assert_int_equal(f.n_samples, 3);
    assert_int_equal(f.complete, 1);
    assert_true(f.checksummed);
    struct sample_row sa[3];
    for (int i = 0; i < 3; i++) sa[i] = f.samples[i];
    assert_true((uint32_t)f.rows[0].crc32 == trust_row_crc(&a, sa, 3, RESULTS_SCHEMA_VERSION));
    a.crc32 = f.rows[0].crc32;
    assert_memory_equal(&f.rows[0], &a, sizeof a);
    assert_string_equal(f.rows[1].reason, "WPT 16 does not divide TS 8");
    for (int i = 0; i < 3; i++) {
        assert_int_equal(f.samples[i].row, 0);
        assert_int_equal(f.samples[i].sample, i);
        assert_true(f.samples[i].time_ms == s[i]);
    }
    results_file_free(&f);

    /* Read together with others (results_read_all): the same rows each time;
     * one file that cannot be read fails the lot, naming that file. */
    struct results_file g[3];
    const char *three[3] = {path, path, path};
    assert_int_equal(results_read_all(three, g, 3, err, sizeof err), 0);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(g[k].n_rows, 2);
        assert_int_equal(g[k].n_samples, 3);
        assert_memory_equal(&g[k].rows[0], &a, sizeof a);
        results_file_free(&g[k]);
    }
    char missing[320];
    snprintf(missing, sizeof missing, "%s/missing.h5", dir);
    const char *with_missing[3] = {path, missing, path};
    assert_int_equal(results_read_all(with_missing, g, 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing.h5"));
    unlink(path);
    rmdir(dir);
}

static void never_overwrites(void **state)
{
    (void)state;
    char dir[256], path[300], err[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/exists.h5", dir);
    test_write_file(path, "precious bytes\n");
    struct results *r;
    assert_int_equal(results_create(&r, path, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "already exists"));
    char *text = test_read_file(path, NULL);
    assert_string_equal(text, "precious bytes\n");
    free(text);
    snprintf(path, sizeof path, "%s/no/such/dir/r.h5", dir);
    assert_int_equal(results_create(&r, path, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot create"));
    snprintf(path, sizeof path, "%s/exists.h5", dir);
    unlink(path);
    rmdir(dir);
}

/* A host-only experiment with many quick points, so a run can be stopped midway. */
static const char SLOW_EXPERIMENT[] =
    "[experiment]\nname = killme\nseed = 3\n"
    "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 30\nhost_timeout_ms = 60\n"
    "[h]\nvariants = host_naive host_restrict\n"
    "sizes = 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160\nopt_levels = 1 2 3\n";

/* Start a run with stdout on a pipe; stop it with `sig` after `after` points. */
static void stop_run_midway(int sig, int after, int *lines_seen, int *status, char *path,
                            size_t pathlen)
{
    char dir[256], exp[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(path, pathlen, "%s/r.h5", dir);
    test_write_file(exp, SLOW_EXPERIMENT);
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execl(test_binary(), test_binary(), "run", exp, "-o", path, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    char line[512];
    int points = 0, sent = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '[' && strstr(line, "] host_")) points++;
        if (points >= after && !sent) {
            kill(pid, sig);
            sent = 1;
        }
    }
    fclose(in);
    waitpid(pid, status, 0);
    *lines_seen = points;
}

static void killed_run_keeps_completed_rows(void **state)
{
    (void)state;
    /* SIGKILL at several points of the run: each time nothing has the run's
     * name, and its work file opens, holds only whole rows with their samples,
     * and is marked incomplete. */
    const int afters[] = {1, 4, 9};
    for (size_t k = 0; k < sizeof afters / sizeof afters[0]; k++) {
        char path[300], err[512];
        int seen = 0, st = 0;
        stop_run_midway(SIGKILL, afters[k], &seen, &st, path, sizeof path);
        assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
        assert_int_equal(access(path, F_OK), -1);
        char work[400];
        assert_int_equal(test_work_files(path, work, sizeof work), 1);
        struct results_file f;
        if (results_read(work, &f, err, sizeof err) != 0) fail_msg("%s", err);
        assert_int_equal(f.complete, 0);
        /* A row is flushed before its progress line is printed. */
        assert_true(f.n_rows >= (size_t)seen && f.n_rows <= (size_t)seen + 1);
        size_t samples = 0;
        for (size_t i = 0; i < f.n_rows; i++) {
            assert_string_equal(f.rows[i].disposition, "passed");
            assert_true(f.rows[i].samples >= 3 && f.rows[i].gflops > 0);
            samples += (size_t)f.rows[i].samples;
        }
        assert_int_equal(f.n_samples, samples);
        for (size_t i = 0; i < f.n_samples; i++)
            assert_true(f.samples[i].row >= 0 && (size_t)f.samples[i].row < f.n_rows);
        results_file_free(&f);
        *strrchr(path, '/') = '\0';
        test_rmtree(path);
    }
}

/* A run killed while it wrote its end: its writer never closed the file, and
 * an attribute covered by attrs_crc32 changed after the checksum was written
 * (as when some of the end's attributes reach the disk and others not).  The
 * file reads as the killed run it is (writer open; complete, as its planned
 * rows are all there), not damaged; the same attributes in a closed file read
 * as damaged. */
static void killed_while_writing_its_end_reads_as_killed(void **state)
{
    (void)state;
    for (int closed = 0; closed <= 1; closed++) {
        char dir[256], path[300], err[512];
        test_tmpdir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/r.h5", dir);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            struct results *r;
            struct result_row a = {.variant = "host_naive", .device = "host", .precision = "fp32",
                                   .M = 8, .N = 8, .K = 8, .samples = 1, .flops = 1024,
                                   .time_ms_min = 1, .time_ms_median = 1, .time_ms_mean = 1,
                                   .time_ms_max = 1, .disposition = "passed", .stop_rule = "converged"};
            a.gflops = a.flops / a.time_ms_median / 1e6;
            const double s[1] = {1};
            struct result_row b = a;
            b.point = 1, b.M = b.N = b.K = 16, b.flops = 2.0 * 16 * 16 * 16;
            b.gflops = b.flops / b.time_ms_median / 1e6;
            int ok = results_create(&r, path, 0, err, sizeof err) == 0 &&
                     results_attr_int(r, "planned_points", 2) == 0 &&
                     results_append(r, &a, s, NULL, NULL, 1) == 0 &&
                     results_finish(r, 1, "2026-11-27T00:00:00Z", 1.0) == 0 &&
                     results_attr_str(r, "finished_utc", "2026-11-27T00:00:01Z") == 0 &&
                     results_append(r, &b, s, NULL, NULL, 1) == 0;   /* flushes the attribute too */
            if (ok && closed) ok = results_close(r, err, sizeof err) == 0;
            _exit(ok ? 0 : 1);
        }
        int st = 0;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
        /* closed, it has its name; killed, its work name */
        char at[400];
        if (closed) snprintf(at, sizeof at, "%s", path);
        else assert_int_equal(test_work_files(path, at, sizeof at), 1);
        struct results_file f;
        const int rc = results_read(at, &f, err, sizeof err);
        if (rc != 0) fail_msg("%s", err);
        if (closed) {
            assert_true(f.damaged > 0);
            assert_non_null(strstr(f.notes, "attrs_crc32"));
            results_file_free(&f);
        } else {
            if (f.damaged) fail_msg("%s", f.notes);
            assert_int_equal(f.writer_open, 1);
            assert_int_equal(f.complete, 1);
            assert_int_equal(f.n_rows, 2);
            results_file_free(&f);
        }
        test_rmtree(dir);
    }
}

static void interrupted_run_closes_cleanly(void **state)
{
    (void)state;
    char path[300], err[512];
    int seen = 0, st = 0;
    stop_run_midway(SIGINT, 2, &seen, &st, path, sizeof path);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    /* the name is left to a run that ends; the points are in the work file */
    assert_int_equal(access(path, F_OK), -1);
    char work[400];
    assert_int_equal(test_work_files(path, work, sizeof work), 1);
    struct results_file f;
    if (results_read(work, &f, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(f.complete, 0);
    assert_int_equal(f.writer_open, 0);
    assert_true(f.n_rows >= 2 && f.n_rows < 96);
    results_file_free(&f);
    *strrchr(path, '/') = '\0';
    test_rmtree(path);
}

const struct CMUnitTest results_tests[] = {
    cmocka_unit_test(round_trip),
    cmocka_unit_test(never_overwrites),
    cmocka_unit_test(killed_run_keeps_completed_rows),
    cmocka_unit_test(killed_while_writing_its_end_reads_as_killed),
    cmocka_unit_test(interrupted_run_closes_cleanly),
};
const size_t results_tests_count = sizeof results_tests / sizeof results_tests[0];
