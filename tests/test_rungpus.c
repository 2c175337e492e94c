/* scripts/run-gpus.sh as a user meets it, on the CPU (its shards' host points
 * run; GPU points are skipped for want of a GPU): the GPU list it is given,
 * two invocations at once into one folder, a shard killed midway and the
 * commands it prints to finish the job, and a signal to the script itself.
 * The shards are given GPU numbers that no host has (GPUS), so that they see
 * no GPU on a GPU host too: with "0,1" on a host of one GPU, shard 0 ran on it
 * and shard 1 on none, and merge rightly refused two files whose GPU differs. */
#define _GNU_SOURCE   /* setenv, realpath */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "results/results.h"
#include "util.h"

/* Two GPU numbers no host has; the second is shard 1's. */
#define GPUS "98,99"
#define GPU_OF_SHARD_1 "99"

static void pause_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

/* scripts/run-gpus.sh EXP DIR with CUDA_VISIBLE_DEVICES as gpus (NULL: unset)
 * and MMLADDER as bin: its exit status, output in *out and *err. */
static int run_gpus(const char *gpus, const char *bin, const char *exp, const char *dir, char **out,
                    char **err)
{
    char *old = getenv("CUDA_VISIBLE_DEVICES") ? strdup(getenv("CUDA_VISIBLE_DEVICES")) : NULL;
    char *mine = strdup(test_binary());   /* test_binary() reads MMLADDER */
    if (!mine) abort();
    if (gpus) setenv("CUDA_VISIBLE_DEVICES", gpus, 1);
    else unsetenv("CUDA_VISIBLE_DEVICES");
    setenv("MMLADDER", bin, 1);
    char *argv[] = {"scripts/run-gpus.sh", (char *)exp, (char *)dir, NULL};
    const int rc = test_run(argv, out, err);
    if (old) setenv("CUDA_VISIBLE_DEVICES", old, 1);
    else unsetenv("CUDA_VISIBLE_DEVICES");
    setenv("MMLADDER", mine, 1);
    free(old);
    free(mine);
    return rc;
}

/* A GPU list that is not one is refused before anything starts (exit 2),
 * saying what is wrong with it: a pattern is not expanded, a GPU named twice,
 * a word that is no GPU, an empty list or entry. */
static void run_gpus_refuses_bad_gpu_lists(void **state)
{
    (void)state;
    char dir[256], exp[300], names[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    test_write_file(exp, TEST_SLOW_HOST);
    const struct {
        const char *gpus, *says;
    } cases[] = {
        {"*", "'*' is neither a GPU number nor a UUID"},
        {"0,0", "GPU '0' named twice"},
        {"a,b", "'a' is neither a GPU number nor a UUID"},
        {"", "set but empty, so no GPU is visible"},
        {"0,,1", "an empty entry"},
        {"1,", "an empty entry"},
        {"GPU-0a1b,0;reboot", "'0;reboot' is neither"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        const int rc = run_gpus(cases[i].gpus, test_binary(), exp, dir, &out, &err);
        if (rc != 2 || !strstr(err, cases[i].says) || out[0])
            fail_msg("CUDA_VISIBLE_DEVICES='%s': exit %d, stderr '%s' (expected 2 and '%s')",
                     cases[i].gpus, rc, err, cases[i].says);
        free(out), free(err);
    }
    char *argv[] = {"ls", "-A", dir, NULL}, *out, *err;
    assert_int_equal(test_run(argv, &out, &err), 0);
    snprintf(names, sizeof names, "%s", out);
    free(out), free(err);
    assert_string_equal(names, "e.ini\n");   /* nothing was started */
    test_rmtree(dir);
}

/* The merged file's path from the script's "-> PATH" line, into buf. */
static void merged_path(const char *out, char *buf, size_t len)
{
    const char *at = strstr(out, "-> ");
    if (!at) fail_msg("no '-> PATH' in: %s", out);
    snprintf(buf, len, "%.*s", (int)strcspn(at + 3, "\n;"), at + 3);
}

/* Two invocations started together into one folder take two names (logs
 * included); a shard killed midway stops the merge, and the two commands the
 * script prints (the shard again, then the merge) finish the job, its work
 * file standing in no one's way. */
static void run_gpus_names_each_run_and_finishes_a_killed_shard(void **state)
{
    (void)state;
    char dir[256], exp[300], out1[300], out2[300], merged[2][400];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(out1, sizeof out1, "%s/o1", dir);
    snprintf(out2, sizeof out2, "%s/o2", dir);
    test_write_file(exp, "[experiment]\nname = quick\nseed = 3\n[sampling]\nhost_min_samples = 1\n"
                         "host_min_time_ms = 0.001\nhost_timeout_ms = 10\n[h]\nvariants = host_naive\n"
                         "sizes = 8 9 10 11\nopt_levels = 1\n");
    setenv("CUDA_VISIBLE_DEVICES", GPUS, 1);
    setenv("MMLADDER", test_binary(), 1);
    char *argv[] = {"scripts/run-gpus.sh", exp, dir, NULL};
    const pid_t a = test_spawn(argv, out1, NULL), b = test_spawn(argv, out2, NULL);
    assert_int_equal(test_reap(a, 60), 0);
    assert_int_equal(test_reap(b, 60), 0);
    unsetenv("CUDA_VISIBLE_DEVICES");
    char *t1 = test_read_file(out1, NULL), *t2 = test_read_file(out2, NULL);
    merged_path(t1, merged[0], sizeof merged[0]);
    merged_path(t2, merged[1], sizeof merged[1]);
    free(t1), free(t2);
    if (!strcmp(merged[0], merged[1])) fail_msg("two runs, one name: %s", merged[0]);
    for (int i = 0; i < 2; i++) {
        struct results_file f;
        char err[512];
        assert_int_equal(results_read(merged[i], &f, err, sizeof err), 0);
        assert_true(f.complete && f.n_rows == 4);
        results_file_free(&f);
    }

    /* shard 1 killed midway (a stand-in that lets shard 1 hold host points) */
    char slow[300], stand_in[300], mark[300], bin[PATH_MAX], script[3 * PATH_MAX];
    snprintf(slow, sizeof slow, "%s/slow.ini", dir);
    snprintf(stand_in, sizeof stand_in, "%s/kills-shard-1.sh", dir);
    snprintf(mark, sizeof mark, "%s/killed-once", dir);
    test_write_file(slow, TEST_SLOW_HOST);
    assert_non_null(realpath(test_binary(), bin));
    snprintf(script, sizeof script,
             "#!/bin/bash\n"
             "args=()\n"
             "while [ $# -gt 0 ]; do\n"
             "    [ \"$1\" = --host-shard ] && { shift 2; continue; }\n"
             "    args+=(\"$1\"); shift\n"
             "done\n"
             "if [[ \" ${args[*]} \" == *' --shard 1/2 '* ]] && [ ! -e '%s' ]; then\n"
             "    : > '%s'\n"
             "    '%s' \"${args[@]}\" & p=$!\n"
             "    sleep 0.4; kill -9 $p; wait $p; exit 137\n"
             "fi\n"
             "exec '%s' \"${args[@]}\"\n",
             mark, mark, bin, bin);
    test_write_script(stand_in, script);
    char *out, *err;
    const int rc = run_gpus(GPUS, stand_in, slow, dir, &out, &err);
    if (rc != 137 || !strstr(err, "shard 1/2 exited 137"))
        fail_msg("a killed shard: exit %d (expected 137): %s%s", rc, out, err);
    char again[1024], merge[1024];
    const char *x = strstr(err, "again alone: "), *y = strstr(err, "not merged; then: ");
    assert_true(x && y);
    snprintf(again, sizeof again, "%.*s", (int)strcspn(x + 13, "\n"), x + 13);
    snprintf(merge, sizeof merge, "%.*s", (int)strcspn(y + 18, "\n"), y + 18);
    assert_non_null(strstr(again, "CUDA_VISIBLE_DEVICES=" GPU_OF_SHARD_1 " "));   /* its own GPU, named */
    free(out), free(err);
    char *sh1[] = {"sh", "-c", again, NULL}, *sh2[] = {"sh", "-c", merge, NULL};
    if (test_run(sh1, &out, &err) != 0) fail_msg("'%s' failed: %s%s", again, out, err);
    free(out), free(err);
    if (test_run(sh2, &out, &err) != 0) fail_msg("'%s' failed: %s%s", merge, out, err);
    merged_path(out, merged[0], sizeof merged[0]);
    free(out), free(err);
    struct results_file f;
    char why[512];
    assert_int_equal(results_read(merged[0], &f, why, sizeof why), 0);
    assert_true(f.complete && f.n_rows == 10);
    results_file_free(&f);
    test_rmtree(dir);
}

/* SIGTERM to the script stops its shards (none is left running, each keeps
 * what it recorded in its work file) and merges nothing: exit 143. */
static void run_gpus_stops_its_shards_with_it(void **state)
{
    (void)state;
    char dir[256], exp[300], errf[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/slow.ini", dir);
    snprintf(errf, sizeof errf, "%s/err", dir);
    test_write_file(exp, TEST_SLOW_HOST);
    setenv("CUDA_VISIBLE_DEVICES", GPUS, 1);
    setenv("MMLADDER", test_binary(), 1);
    char *argv[] = {"scripts/run-gpus.sh", exp, dir, NULL};
    const pid_t p = test_spawn(argv, NULL, errf);
    unsetenv("CUDA_VISIBLE_DEVICES");
    /* shard 0's work file, once it has one: its name carries the shard's pid */
    char *ls[] = {"sh", "-c", "cd \"$0\" && ls *-shard0-of-2.h5.*.part 2>/dev/null", dir, NULL};
    char *out = NULL, *err = NULL;
    long shard = 0;
    for (int i = 0; i < 2000 && !shard; i++) {
        free(out), free(err);
        if (test_run(ls, &out, &err) == 0) {
            const char *dot = strrchr(out, '.');
            while (dot > out && dot[-1] != '.') dot--;   /* ...HOST.PID.part */
            shard = strtol(dot, NULL, 10);
        } else {
            pause_s(0.01);
        }
    }
    if (!(shard > 0 && kill((pid_t)shard, 0) == 0))
        fail_msg("no live shard 0 seen (pid %ld); the script said: %s", shard, test_read_file(errf, NULL));
    free(out), free(err);
    kill(p, SIGTERM);
    const int rc = test_reap(p, 20);
    char *said = test_read_file(errf, NULL);
    if (rc != 143 || !strstr(said, "stopping the shards"))
        fail_msg("run-gpus.sh after SIGTERM: exit %d (expected 143): %s", rc, said);
    free(said);
    if (kill((pid_t)shard, 0) == 0) fail_msg("shard 0 (pid %ld) still runs after its script ended", shard);
    char *merged[] = {"sh", "-c", "cd \"$0\" && ls *-x2.h5", dir, NULL};
    assert_true(test_run(merged, &out, &err) != 0);   /* nothing merged */
    free(out), free(err);
    test_rmtree(dir);
}

const struct CMUnitTest rungpus_tests[] = {
    cmocka_unit_test(run_gpus_refuses_bad_gpu_lists),
    cmocka_unit_test(run_gpus_names_each_run_and_finishes_a_killed_shard),
    cmocka_unit_test(run_gpus_stops_its_shards_with_it),
};
const size_t rungpus_tests_count = sizeof rungpus_tests / sizeof rungpus_tests[0];
