/* The Slurm scripts against a real Slurm: scripts/slurm-shards.sh submits a
 * host experiment as a job array of 4 shards and the merge as a job that
 * depends on it, on the one-box cluster of scripts/slurm-local.sh (munged,
 * slurmctld, slurmd, stand-in GPUs).  `make test-slurm` starts that cluster,
 * runs these tests and stops it; without it (`make test`) they are skipped,
 * saying why, but for the refusals of bad input, which need no cluster.  They
 * never reach another cluster: SLURM_CONF is set to the local one's. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/results.h"
#include "util.h"

/* 20 points over 5 shapes, each shard under a second. */
static const char EXPERIMENT[] =
    "[experiment]\nname = slurm\nseed = 7\n"
    "[sampling]\nhost_min_samples = 3\nhost_min_time_ms = 2\nhost_timeout_ms = 20\n"
    "[h]\nvariants = host_naive host_restrict\nsizes = 16 24 32 48\nshapes = 17x33x65\n"
    "opt_levels = 1 3\n";
enum { POINTS = 20, SHARDS = 4 };

/* The local cluster, when it is up: SLURM_CONF set to its configuration, and
 * whether its stand-in GPUs are devices (then Slurm sets CUDA_VISIBLE_DEVICES).
 * Skips the test, saying why, when it is not. */
static int use_local_cluster(void)
{
    char *st[] = {"scripts/slurm-local.sh", "status", NULL}, *env[] = {"scripts/slurm-local.sh", "env", NULL};
    char *out, *err;
    const int rc = test_run(st, &out, &err);
    if (rc != 0) {
        print_message("skipped: no local Slurm cluster is up (scripts/slurm-local.sh status: exit %d); "
                      "make test-slurm starts one, as root\n", rc);
        free(out), free(err);
        skip();
    }
    const int devices = strstr(out, "character devices") != NULL;
    free(out), free(err);
    assert_int_equal(test_run(env, &out, &err), 0);
    const char *conf = strstr(out, "export SLURM_CONF=");
    assert_non_null(conf);
    conf += strlen("export SLURM_CONF=");
    char path[512];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(conf, "\n"), conf);
    setenv("SLURM_CONF", path, 1);
    free(out), free(err);
    return devices;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* slurm-shards.sh with ARGS (NULL-terminated), under a 120 s limit: its exit
 * status, its output in *out and *err. */
static int shards_script(const char *const *args, char **out, char **err)
{
    char *argv[16] = {"timeout", "120", "scripts/slurm-shards.sh"};
    for (int i = 0; args[i] && i < 12; i++) argv[3 + i] = (char *)args[i];
    return test_run(argv, out, err);
}

/* The number after "WHAT job " in text; -1 when absent. */
static long job_id(const char *text, const char *what)
{
    char key[64];
    snprintf(key, sizeof key, "%s job ", what);
    const char *p = strstr(text, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* `scontrol -o show job ID`, malloc'd. */
static char *show_job(long id)
{
    char sid[32], *out, *err;
    snprintf(sid, sizeof sid, "%ld", id);
    char *argv[] = {"scontrol", "-o", "show", "job", sid, NULL};
    assert_int_equal(test_run(argv, &out, &err), 0);
    free(err);
    return out;
}

/* MERGED holds every point of WHOLE's plan once, in plan order, each at the
 * same variant, shape and configuration, complete and sound, of the same
 * commit and plan. */
static void assert_same_points(const char *merged, const char *whole)
{
    struct results_file a, b;
    char err[512];
    assert_int_equal(results_read(whole, &a, err, sizeof err), 0);
    if (results_read(merged, &b, err, sizeof err) != 0) fail_msg("%s: %s", merged, err);
    assert_true(a.complete && b.complete && !b.damaged);
    assert_int_equal(a.n_rows, POINTS);
    assert_int_equal(b.n_rows, POINTS);
    for (size_t i = 0; i < b.n_rows; i++) {
        const struct result_row *r = &b.rows[i], *w = NULL;
        assert_int_equal(r->point, (int32_t)i);
        for (size_t j = 0; j < a.n_rows && !w; j++)
            if (a.rows[j].point == r->point) w = &a.rows[j];
        assert_non_null(w);
        assert_string_equal(r->variant, w->variant);
        assert_true(r->M == w->M && r->N == w->N && r->K == w->K && r->opt_level == w->opt_level &&
                    r->tile == w->tile && r->wpt == w->wpt && r->split == w->split);
        assert_string_equal(r->disposition, "passed");
    }
    results_file_free(&a);
    results_file_free(&b);
    const char *same[] = {"git_commit", "git_dirty", "plan_hash", "plan_points"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char x[128], y[128];
        test_attr(merged, same[i], x, sizeof x);
        test_attr(whole, same[i], y, sizeof y);
        if (!x[0] || strcmp(x, y) != 0) fail_msg("%s: merged '%s', one process '%s'", same[i], x, y);
    }
}

/* A test's folder: the experiment, one process's run of it (what a merge must
 * give), the array's folder and its merged file, and the binary's full path. */
struct array_test {
    char dir[256], exp[300], whole[300], sdir[300], merged[400], bin[4096];
};

static void array_test_set_up(struct array_test *t)
{
    test_tmpdir(t->dir, sizeof t->dir);
    snprintf(t->exp, sizeof t->exp, "%s/slurm.ini", t->dir);
    snprintf(t->whole, sizeof t->whole, "%s/whole.h5", t->dir);
    snprintf(t->sdir, sizeof t->sdir, "%s/array", t->dir);
    snprintf(t->merged, sizeof t->merged, "%s/slurm-x%d.h5", t->sdir, SHARDS);
    test_write_file(t->exp, EXPERIMENT);
    assert_non_null(realpath(test_binary(), t->bin));
    char *run[] = {t->bin, "run", t->exp, "-o", t->whole, NULL}, *out, *err;
    assert_int_equal(test_run(run, &out, &err), 0);
    free(out), free(err);
}

/* Four shards as a job array, each task asking for a (stand-in) GPU, merged by
 * the dependent job: the same points as one process gives, of the same commit,
 * each shard recorded with its array task (and its GPU, where Slurm binds one). */
static void slurm_array_merges_like_one_process(void **state)
{
    (void)state;
    const int devices = use_local_cluster();
    struct array_test t;
    array_test_set_up(&t);
    char *out, *err;
    const double t0 = now_s();
    const int rc = shards_script((const char *[]){"-n", "4", "-d", t.sdir, "--bin", t.bin, "--wait",
                                                  t.exp, NULL},
                                 &out, &err);
    if (rc != 0) fail_msg("slurm-shards.sh: exit %d\n%s%s", rc, out, err);
    print_message("slurm: %d shards and their merge in %.1f s\n", SHARDS, now_s() - t0);
    const long array = job_id(out, "shards"), merge = job_id(out, "merge");
    assert_true(array > 0 && merge > 0);
    free(out), free(err);
    char *job = show_job(merge);
    assert_non_null(strstr(job, "JobState=COMPLETED"));
    free(job);

    assert_same_points(t.merged, t.whole);
    char v[128], name[64];
    test_attr(t.merged, "merged_shards", v, sizeof v);
    assert_string_equal(v, "4");
    for (int k = 0; k < SHARDS; k++) {
        snprintf(name, sizeof name, "shard%d_slurm_array_job_id", k);
        test_attr(t.merged, name, v, sizeof v);
        assert_int_equal(strtol(v, NULL, 10), array);
        snprintf(name, sizeof name, "shard%d_slurm_array_task_id", k);
        test_attr(t.merged, name, v, sizeof v);
        assert_int_equal(strtol(v, NULL, 10), k);
        snprintf(name, sizeof name, "shard%d_cuda_visible_devices", k);
        test_attr(t.merged, name, v, sizeof v);
        if (devices && !(strlen(v) == 1 && v[0] >= '0' && v[0] < '0' + SHARDS))
            fail_msg("shard %d: cuda_visible_devices '%s' (expected one stand-in GPU, 0 to 3)", k, v);
    }
    test_rmtree(t.dir);
}

/* A shard whose command fails (a stand-in for mmladder that fails shard 1)
 * leaves the merge not run: no merged file, the merge job pending on a
 * dependency that can never be met.  Run again alone (--rerun 1), it succeeds,
 * the merge runs after it, and the earlier merge job is cancelled.  A shard
 * that had succeeded, run again, moves its file and the merged one aside. */
static void slurm_failed_shard_leaves_merge_unrun(void **state)
{
    (void)state;
    use_local_cluster();
    struct array_test t;
    array_test_set_up(&t);
    char stand_in[300], fixed[300], file[500];
    snprintf(stand_in, sizeof stand_in, "%s/fails-shard-1.sh", t.dir);
    snprintf(fixed, sizeof fixed, "%s/fixed", t.dir);
    char script[5000];
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "case \" $* \" in *\" --shard 1/4 \"*)\n"
             "    [ -e '%s' ] || { echo 'shard 1 fails on purpose' >&2; exit 1; } ;;\n"
             "esac\n"
             "exec '%s' \"$@\"\n",
             fixed, t.bin);
    test_write_script(stand_in, script);
    char *out, *err;

    double t0 = now_s();
    int rc = shards_script((const char *[]){"--host", "-n", "4", "-d", t.sdir, "--bin", stand_in, "--wait", t.exp,
                                            NULL},
                           &out, &err);
    print_message("slurm: a failed shard seen in %.1f s\n", now_s() - t0);
    if (rc != 1 || !strstr(err, "shard 1: FAILED") || !strstr(err, "--rerun 1 "))
        fail_msg("slurm-shards.sh with shard 1 failing: exit %d (expected 1)\n%s%s", rc, out, err);
    const long merge = job_id(out, "merge");
    assert_true(merge > 0);
    free(out), free(err);
    char *job = show_job(merge);
    if (!strstr(job, "JobState=PENDING") || !strstr(job, "Reason=DependencyNeverSatisfied"))
        fail_msg("the merge job after a failed shard: %s", job);
    free(job);
    assert_int_equal(access(t.merged, F_OK), -1);
    for (int k = 0; k < SHARDS; k++) {
        snprintf(file, sizeof file, "%s/slurm-shard%d-of-%d.h5", t.sdir, k, SHARDS);
        assert_int_equal(access(file, F_OK), k == 1 ? -1 : 0);
    }

    test_write_file(fixed, "");
    t0 = now_s();
    rc = shards_script((const char *[]){"--rerun", "1", "--wait", t.sdir, NULL}, &out, &err);
    print_message("slurm: shard 1 again and the merge in %.1f s\n", now_s() - t0);
    if (rc != 0) fail_msg("slurm-shards.sh --rerun 1: exit %d\n%s%s", rc, out, err);
    char cancelled[96];
    snprintf(cancelled, sizeof cancelled, "cancelled the earlier merge job %ld", merge);
    assert_non_null(strstr(out, cancelled));
    free(out), free(err);
    job = show_job(merge);
    assert_non_null(strstr(job, "JobState=CANCELLED"));
    free(job);
    assert_same_points(t.merged, t.whole);

    /* a finished shard again: its file and the merged one go aside into
     * replaced/ (never over a file), and the new ones take their names */
    rc = shards_script((const char *[]){"--rerun", "2", "--wait", t.sdir, NULL}, &out, &err);
    if (rc != 0) fail_msg("slurm-shards.sh --rerun 2: exit %d\n%s%s", rc, out, err);
    free(out), free(err);
    char *ls[] = {"ls", file, NULL};
    snprintf(file, sizeof file, "%s/replaced", t.sdir);
    assert_int_equal(test_run(ls, &out, &err), 0);
    if (test_count_of(out, "slurm-shard2-of-4.before-job") != 1 || test_count_of(out, "slurm-x4.before-job") != 1)
        fail_msg("replaced/ holds: %s", out);
    free(out), free(err);
    assert_same_points(t.merged, t.whole);
    test_rmtree(t.dir);
}

/* A re-run while the first submission's tasks are still queued or running is
 * refused, naming their job ids, and submits nothing: the first submission's
 * one merge job writes the merged file, and only it. */
static void slurm_rerun_while_running_is_refused(void **state)
{
    (void)state;
    use_local_cluster();
    struct array_test t;
    array_test_set_up(&t);
    char stand_in[300], jobs[400];
    snprintf(jobs, sizeof jobs, "%s/jobs", t.sdir);
    snprintf(stand_in, sizeof stand_in, "%s/slow-shards.sh", t.dir);
    char script[5000];
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "case \" $* \" in *\" --shard \"*) sleep 4 ;; esac   # the tasks take a while\n"
             "exec '%s' \"$@\"\n", t.bin);
    test_write_script(stand_in, script);
    char *out, *err;
    int rc = shards_script((const char *[]){"--host", "-n", "4", "-d", t.sdir, "--bin", stand_in, t.exp,
                                            NULL},
                           &out, &err);
    if (rc != 0) fail_msg("slurm-shards.sh: exit %d\n%s%s", rc, out, err);
    const long array = job_id(out, "shards"), merge = job_id(out, "merge");
    assert_true(array > 0 && merge > 0);
    free(out), free(err);
    rc = shards_script((const char *[]){"--rerun", "1", t.sdir, NULL}, &out, &err);
    char said[64];
    snprintf(said, sizeof said, "shards job %ld (tasks ", array);
    if (rc != 1 || !strstr(err, "still queued or running") || !strstr(err, said))
        fail_msg("--rerun while the array runs: exit %d (expected 1 and '%s')\n%s%s", rc, said, out, err);
    free(out), free(err);
    /* the first submission ends as it would have, merged by its own merge job */
    const double t0 = now_s();
    char *job = NULL;
    for (;;) {
        free(job);
        job = show_job(merge);
        if (!strstr(job, "JobState=PENDING") && !strstr(job, "JobState=RUNNING")) break;
        if (now_s() - t0 > 120) fail_msg("merge job %ld still not run after 120 s: %s", merge, job);
        struct timespec pause = {0, 200000000};
        nanosleep(&pause, NULL);
    }
    if (!strstr(job, "JobState=COMPLETED")) fail_msg("merge job %ld: %s", merge, job);
    free(job);
    assert_same_points(t.merged, t.whole);
    char *lines = test_read_file(jobs, NULL);
    assert_int_equal(test_count_of(lines, "merge "), 1);   /* nothing else submitted */
    free(lines);
    test_rmtree(t.dir);
}

/* Bad input is refused before anything is submitted or written, with exit 2
 * and a message that names the option, the value and what it takes (no
 * cluster needed). */
static void slurm_script_refuses_bad_input(void **state)
{
    (void)state;
    char dir[256], exp[300], full[300], spaced[300], made[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/slurm.ini", dir);
    snprintf(full, sizeof full, "%s/full", dir);
    snprintf(spaced, sizeof spaced, "%s/a b", dir);
    snprintf(made, sizeof made, "%s/new", dir);
    test_write_file(exp, EXPERIMENT);
    assert_int_equal(mkdir(full, 0755), 0);
    char in_full[400];
    snprintf(in_full, sizeof in_full, "%s/x", full);
    test_write_file(in_full, "");
    const struct {
        const char *args[10], *says;
    } cases[] = {
        {{exp, NULL}, "-n/--shards: needed"},
        {{"-n", "0", exp, NULL}, "--shards '0': expected a whole number from 1 to 1024"},
        {{"-n", "4x", exp, NULL}, "--shards '4x'"},
        {{"-n", "4", "--host-shard", "4", exp, NULL}, "--host-shard '4': expected a shard from 0 to 3"},
        {{"-n", "4", "--bogus", exp, NULL}, "'--bogus': unknown option"},
        {{"-n", "4", "--wait=yes", exp, NULL}, "--wait takes no value"},
        {{"-n", "4", "-t", "1h", exp, NULL}, "-t '1h': expected a time limit in Slurm's format"},
        {{"-n", "4", "--sbatch", "qos=high", exp, NULL}, "--sbatch 'qos=high': expected one sbatch option"},
        {{"-n", "4", "-p", "gpu a", exp, NULL}, "-p 'gpu a': expected a name"},
        {{"-n", "4", "-d", spaced, exp, NULL}, "expected letters, digits"},
        {{"-n", "4", "-d", full, exp, NULL}, "exists and is not an empty folder"},
        {{"-n", "4", "-d", made, "no-such.ini", NULL}, "'no-such.ini': no such experiment file"},
        {{"-n", "4", "-d", made, "--bin", "no-such-binary", exp, NULL}, "--bin 'no-such-binary': no such program"},
        {{"-n", "4", exp, exp, NULL}, "one experiment"},
        {{"--rerun", "1", dir, NULL}, "shards.sbatch: not there"},
        {{"--rerun", "1", "-n", "4", dir, NULL}, "--rerun: takes only --wait and DIR"},
        {{"--shards", NULL}, "--shards: needs a value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        const int rc = shards_script(cases[i].args, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says))
            fail_msg("case %zu: exit %d (expected 2), stderr '%s' (expected '%s')", i, rc, err, cases[i].says);
        free(out), free(err);
    }
    assert_int_equal(access(spaced, F_OK), -1);
    assert_int_equal(access(made, F_OK), -1);
    test_rmtree(dir);
}

const struct CMUnitTest slurm_tests[] = {
    cmocka_unit_test(slurm_script_refuses_bad_input),
    cmocka_unit_test(slurm_array_merges_like_one_process),
    cmocka_unit_test(slurm_failed_shard_leaves_merge_unrun),
    cmocka_unit_test(slurm_rerun_while_running_is_refused),
};
const size_t slurm_tests_count = sizeof slurm_tests / sizeof slurm_tests[0];
