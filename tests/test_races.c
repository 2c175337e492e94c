/* Writers under races and interruptions, on the CPU: two merges to one name,
 * two writers of one results file, merges and runs stopped by signals at random
 * moments, a run into a name another run is writing, and shards whose
 * provenance differs.  Each case asserts the exit status, the message and what
 * is on disk afterwards: a name holds one finished file or nothing, and no
 * process removes a file it did not make.
 *
 * Environment:
 *   MM_RACE_TRIES=N   tries of two concurrent merges (default 200)
 *   MM_RACE_SEED=S    the seed of the random signal moments (printed every run) */
#define _GNU_SOURCE   /* setenv, kill */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "results/results.h"
#include "util.h"

/* ---- children ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (s > 0 && nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

/* `mmladder ARGS...` to its end; its exit code, stderr in *err (malloc'd). */
static int mm(char **err, const char *const *args)
{
    char *argv[32] = {(char *)test_binary()}, *out;
    for (int i = 0; args[i] && i < 30; i++) argv[i + 1] = (char *)args[i];
    const int rc = test_run(argv, &out, err);
    free(out);
    return rc;
}
#define MM(err, ...) mm(err, (const char *const[]){__VA_ARGS__, NULL})

/* The names in dir (not . and ..), joined by spaces, into buf; their count. */
static size_t listing(const char *dir, char *buf, size_t len)
{
    DIR *d = opendir(dir);
    if (!d) fail_msg("%s: %s", dir, strerror(errno));
    size_t n = 0, used = 0;
    buf[0] = '\0';
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        if (used < len) used += (size_t)snprintf(buf + used, len - used, " %s", e->d_name);
    }
    closedir(d);
    return n;
}

/* ---- shards ---------------------------------------------------------------------- */

/* A host experiment of `sweeps` sweeps of `sizes` sizes each (2 rungs x 3
 * levels, one sample a point): 6 x sweeps x sizes points. */
static void write_experiment(const char *path, int sweeps, int sizes, int seed)
{
    char text[8192];
    int used = snprintf(text, sizeof text,
                        "[experiment]\nname = races\nseed = %d\n[sampling]\nhost_min_samples = 1\n"
                        "host_max_samples = 1\nhost_min_time_ms = 0.001\nhost_timeout_ms = 1000\n",
                        seed);
    for (int s = 0; s < sweeps; s++) {
        used += snprintf(text + used, sizeof text - (size_t)used,
                         "[h%d]\nvariants = host_naive host_restrict\nopt_levels = 1 2 3\nsizes =", s);
        for (int i = 0; i < sizes; i++)
            used += snprintf(text + used, sizeof text - (size_t)used, "%s%d",
                             i && i % 20 == 0 ? "\n   " : " ", 2 + s * sizes + i);
        used += snprintf(text + used, sizeof text - (size_t)used, "\n");
    }
    test_write_file(path, text);
}

/* Run the n shards of exp into dir/sK.h5 (a shard without points writes no
 * file); the paths of those written into paths[], their count. */
static int make_shards(const char *exp, const char *dir, int n, char (*paths)[300])
{
    int written = 0;
    for (int k = 0; k < n; k++) {
        char shard[16], out[300], *err;
        snprintf(shard, sizeof shard, "%d/%d", k, n);
        snprintf(out, sizeof out, "%s/s%d.h5", dir, k);
        if (MM(&err, "run", exp, "--shard", shard, "-o", out) != 0) fail_msg("shard %s: %s", shard, err);
        free(err);
        if (access(out, F_OK) == 0) snprintf(paths[written++], 300, "%s", out);
    }
    return written;
}

/* ---- 1. two merges to one name ------------------------------------------------- */

/* Two merges of 16 shards into one name at once, again and again: each time
 * one writes the file, whole, and the other refuses (the name being written by
 * the other's pid, or already there), saying which process holds it; nothing
 * else is left in the folder. */
static void two_merges_to_one_name_leave_one_file(void **state)
{
    (void)state;
    const char *t = getenv("MM_RACE_TRIES");
    const int tries = t && atoi(t) > 0 ? atoi(t) : 200;
    char dir[256], shards[300], exp[300], paths[16][300], out[300], e1[300], e2[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(shards, sizeof shards, "%s/shards", dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(out, sizeof out, "%s/shards/q.h5", dir);
    snprintf(e1, sizeof e1, "%s/err1", dir);
    snprintf(e2, sizeof e2, "%s/err2", dir);
    assert_int_equal(mkdir(shards, 0755), 0);
    write_experiment(exp, 1, 16, 3);
    assert_int_equal(make_shards(exp, shards, 16, paths), 16);
    char *argv[20] = {(char *)test_binary(), "merge", out};
    for (int k = 0; k < 16; k++) argv[3 + k] = paths[k];
    int early = 0, exists = 0, late = 0;
    const double t0 = now_s();
    for (int i = 0; i < tries; i++) {
        unlink(out);
        const pid_t a = test_spawn(argv, NULL, e1), b = test_spawn(argv, NULL, e2);
        const int ra = test_reap(a, 60), rb = test_reap(b, 60);
        char *ea = test_read_file(e1, NULL), *eb = test_read_file(e2, NULL), names[2048];
        if (!((ra == 0 && rb == 1) || (ra == 1 && rb == 0)))
            fail_msg("try %d: exits %d and %d (expected 0 and 1): %s | %s", i, ra, rb, ea, eb);
        const char *lost = ra ? ea : eb;
        const long winner = ra ? (long)b : (long)a;
        char pid[32];
        snprintf(pid, sizeof pid, "pid %ld", winner);
        if (!strstr(lost, out) || !strstr(lost, pid) ||
            (!strstr(lost, "nothing was written") && !strstr(lost, "nothing of it is kept")))
            fail_msg("try %d: the losing merge says '%s' (expected the name, the winner's %s, and "
                     "that it wrote nothing)", i, lost, pid);
        early += strstr(lost, "being written by") != NULL;
        exists += strstr(lost, "already exists (results") != NULL;
        late += strstr(lost, "took the name") != NULL;
        struct results_file f;
        char err[512];
        if (results_read(out, &f, err, sizeof err) != 0) fail_msg("try %d: %s", i, err);
        assert_true(f.complete && !f.damaged && f.n_rows == 96);
        results_file_free(&f);
        if (listing(shards, names, sizeof names) != 17) fail_msg("try %d: the folder holds%s", i, names);
        free(ea), free(eb);
    }
    print_message("races: %d tries of two merges in %.1f s: the loser saw the other writing %d "
                  "times, its file there %d times, lost the name at the end %d times\n", tries,
                  now_s() - t0, early, exists, late);
    test_rmtree(dir);
}

/* One byte from fd within 30 s, or fail the test (a writer that died). */
static void await_byte(int fd, const char *what)
{
    struct pollfd p = {fd, POLLIN, 0};
    char byte;
    if (poll(&p, 1, 30000) != 1 || read(fd, &byte, 1) != 1) fail_msg("no word from %s", what);
}

/* Two writers of one name that both got past the early checks (neither had a
 * file yet when it was created): the first to finish takes the name; the
 * second is told, and its file is kept under its work name (or, all or
 * nothing, removed); with RESULTS_UNIQUE it takes the next free name instead.
 * Each writer is a child that waits for the word at each step. */
static void a_name_taken_while_writing_is_never_replaced(void **state)
{
    (void)state;
    const int flags[] = {0, RESULTS_ALL_OR_NOTHING, RESULTS_UNIQUE};
    for (size_t c = 0; c < sizeof flags / sizeof flags[0]; c++) {
        char dir[256], path[300], err[1024];
        test_tmpdir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/r.h5", dir);
        int go[2][2], done[2][2];
        pid_t kids[2];
        for (int w = 0; w < 2; w++) {
            assert_true(pipe(go[w]) == 0 && pipe(done[w]) == 0);
            fflush(stdout);
            kids[w] = fork();
            if (kids[w] == 0) {
                /* only its own ends: a parent gone away ends the wait */
                close(go[w][1]), close(done[w][0]);
                if (w) close(go[0][1]), close(done[0][0]);
                struct results *r;
                struct result_row row = {.variant = "host_naive", .device = "host", .precision = "fp32",
                                         .M = 8, .N = 8, .K = 8, .samples = 1, .flops = 1024,
                                         .time_ms_median = 1, .disposition = "passed", .point = w};
                const double s[1] = {1};
                char b = 'x';
                /* created; [go] a row (the work file); [go] finished and closed */
                int ok = results_create(&r, path, flags[c], err, sizeof err) == 0 &&
                         results_attr_int(r, "planned_points", 1) == 0 &&
                         write(done[w][1], &b, 1) == 1 && read(go[w][0], &b, 1) == 1 &&
                         results_append(r, &row, s, NULL, NULL, 1) == 0 &&
                         write(done[w][1], &b, 1) == 1 && read(go[w][0], &b, 1) == 1 &&
                         results_finish(r, 1, "2026-11-28T00:00:00Z", 1.0) == 0;
                const int rc = ok ? results_close(r, err, sizeof err) : -9;
                _exit(rc == 0 ? 0 : rc == RESULTS_TAKEN ? 2 : 1);
            }
            close(go[w][0]);
            close(done[w][1]);
        }
        await_byte(done[0][0], "the first writer's create");
        await_byte(done[1][0], "the second writer's create");
        for (int w = 0; w < 2; w++) {   /* the first's work file, then the second's */
            assert_int_equal(write(go[w][1], "p", 1), 1);
            await_byte(done[w][0], "a writer's first row");
        }
        char other[320], work[400];
        snprintf(other, sizeof other, "%s/r-2.h5", dir);
        /* unique: the second, seeing the first write r.h5, aims at r-2.h5 */
        assert_int_equal(test_work_files(path, NULL, 0) +
                             (flags[c] == RESULTS_UNIQUE ? test_work_files(other, NULL, 0) : 0), 2);
        assert_int_equal(write(go[0][1], "f", 1), 1);
        assert_int_equal(test_reap(kids[0], 30), 0);
        assert_int_equal(write(go[1][1], "f", 1), 1);
        const int second = test_reap(kids[1], 30);
        struct results_file f;
        assert_int_equal(results_read(path, &f, err, sizeof err), 0);
        assert_int_equal(f.rows[0].point, 0);   /* the first one's, untouched */
        results_file_free(&f);
        const size_t works = test_work_files(path, work, sizeof work);
        if (flags[c] == RESULTS_UNIQUE) {
            assert_int_equal(second, 0);
            assert_int_equal(results_read(other, &f, err, sizeof err), 0);
            assert_int_equal(f.rows[0].point, 1);
            results_file_free(&f);
            assert_int_equal(works, 0);
        } else {
            assert_int_equal(second, 2);
            assert_int_equal(access(other, F_OK), -1);
            assert_int_equal(works, flags[c] == RESULTS_ALL_OR_NOTHING ? 0 : 1);
        }
        for (int w = 0; w < 2; w++) close(go[w][1]), close(done[w][0]);
        test_rmtree(dir);
    }
}

/* ---- 2. merges and runs stopped by signals --------------------------------------- */

static uint64_t rng;

static double uniform(void)
{
    if (!rng) {
        const char *s = getenv("MM_RACE_SEED");
        rng = s && *s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
        print_message("races: seed %llu (MM_RACE_SEED repeats the signal moments)\n",
                      (unsigned long long)rng);
    }
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* The merged file of 600 points, whole: read back complete, nothing damaged. */
static void expect_whole(const char *path, int trial)
{
    struct results_file f;
    char err[512];
    if (results_read(path, &f, err, sizeof err) != 0) fail_msg("trial %d: %s", trial, err);
    if (!f.complete || f.damaged || f.n_rows != 600)
        fail_msg("trial %d: %s has the name with %zu rows, complete %d, %zu damaged", trial, path,
                 f.n_rows, f.complete, f.damaged);
    results_file_free(&f);
}

/* A merge stopped by SIGINT, SIGTERM or SIGKILL at random moments of its
 * work: nothing ever has its name unless it ended whole (exit 0, or a kill
 * that came after the name was taken); a caught signal leaves no work file
 * either, and says so (exit 130); after any of
 * them a merge to the same name succeeds, leaving a killed one's work file
 * where it was. */
static void interrupted_merge_leaves_nothing_under_its_name(void **state)
{
    (void)state;
    char dir[256], exp[300], paths[16][300], out[300], errf[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(out, sizeof out, "%s/m.h5", dir);
    snprintf(errf, sizeof errf, "%s/err", dir);
    write_experiment(exp, 2, 50, 5);   /* 600 points */
    const int n = make_shards(exp, dir, 16, paths);
    char *argv[20] = {(char *)test_binary(), "merge", out};
    for (int k = 0; k < n; k++) argv[3 + k] = paths[k];
    double t = now_s();
    if (test_reap(test_spawn(argv, NULL, errf), 60) != 0) fail_msg("the merge alone failed");
    const double whole_s = now_s() - t;
    unlink(out);
    const int sigs[] = {SIGINT, SIGTERM, SIGKILL};
    for (size_t si = 0; si < 3; si++) {
        int done = 0, stopped = 0, early = 0, left = 0;
        for (int trial = 0; trial < 8; trial++) {
            const pid_t p = test_spawn(argv, NULL, errf);
            sleep_s(uniform() * whole_s * 1.1);
            kill(p, sigs[si]);
            const int rc = test_reap(p, 30);
            char *err = test_read_file(errf, NULL), work[400];
            const size_t works = test_work_files(out, work, sizeof work);
            const int named = access(out, F_OK) == 0;
            if (rc == 0 || (rc == -SIGKILL && named)) {
                /* a kill may land after the name was taken, as the merge exits:
                 * then what has the name is the whole file */
                done++;
                if (!named || works) fail_msg("%s, trial %d: exit %d, file %s, %zu work files",
                                              strsignal(sigs[si]), trial, rc,
                                              named ? "there" : "absent", works);
                expect_whole(out, trial);
            } else if (named) {
                fail_msg("%s, trial %d: exit %d, yet %s has the name: %s", strsignal(sigs[si]),
                         trial, rc, out, err);
            } else if (sigs[si] == SIGKILL) {
                stopped++, left += works > 0;
            } else if (rc == 130) {
                stopped++;
                if (works || !strstr(err, "interrupted; nothing was written"))
                    fail_msg("%s, trial %d: exit 130, %zu work files, stderr '%s'",
                             strsignal(sigs[si]), trial, works, err);
            } else if (rc == -sigs[si]) {
                early++;   /* before the handlers: nothing begun */
                if (works) fail_msg("%s, trial %d: killed before its handlers, yet a work file",
                                    strsignal(sigs[si]), trial);
            } else {
                fail_msg("%s, trial %d: exit %d: %s", strsignal(sigs[si]), trial, rc, err);
            }
            free(err);
            if (!named) {
                if (test_reap(test_spawn(argv, NULL, errf), 60) != 0) fail_msg("a merge after the signal failed");
                if (works && test_work_files(out, NULL, 0) != works)
                    fail_msg("the merge after a killed one removed its work file");
            }
            unlink(out);
            while (test_work_files(out, work, sizeof work)) unlink(work);
        }
        print_message("races: merge of %d shards (%.2f s) and %s: %d ended whole first, %d "
                      "stopped (%d left a work file), %d before the handlers\n", n, whole_s,
                      strsignal(sigs[si]), done, stopped, left, early);
    }
    test_rmtree(dir);
}

/* A run into a name another live run is writing is refused at once, naming
 * that run's pid; a killed run leaves the name free for the next one, and its
 * work file, with its points, where it was. */
static void a_run_into_a_name_being_written_is_refused(void **state)
{
    (void)state;
    char dir[256], exp[300], out[300], e1[300], *err;
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/slow.ini", dir);
    snprintf(out, sizeof out, "%s/r.h5", dir);
    snprintf(e1, sizeof e1, "%s/err1", dir);
    test_write_file(exp, TEST_SLOW_HOST);
    assert_int_equal(MM(&err, "run", exp, "-o", "-"), 1);   /* no file named '-' */
    assert_non_null(strstr(err, "-o '-': a results file is a named file"));
    free(err);
    assert_int_equal(access("-", F_OK), -1);
    char *argv[] = {(char *)test_binary(), "run", exp, "-o", out, NULL};
    const pid_t first = test_spawn(argv, NULL, e1);
    const double t0 = now_s();
    while (!test_work_files(out, NULL, 0) && now_s() - t0 < 20) sleep_s(0.01);
    assert_int_equal(MM(&err, "run", exp, "-o", out), 1);
    char pid[64];
    snprintf(pid, sizeof pid, "being written by pid %ld", (long)first);
    if (!strstr(err, pid)) fail_msg("a second run into %s: '%s' (expected '%s')", out, err, pid);
    free(err);
    assert_int_equal(test_reap(first, 60), 0);
    assert_int_equal(test_work_files(out, NULL, 0), 0);
    assert_int_equal(MM(&err, "info", out), 0);
    free(err);
    /* the name is taken now: a run into it says by whom */
    assert_int_equal(MM(&err, "run", exp, "-o", out), 1);
    snprintf(pid, sizeof pid, "holds the file of pid %ld", (long)first);
    if (!strstr(err, "already exists") || !strstr(err, pid)) fail_msg("into a finished name: '%s'", err);
    free(err);
    /* killed midway: the name stays free, and a run again takes it */
    unlink(out);
    const pid_t killed = test_spawn(argv, NULL, e1);
    while (!test_work_files(out, NULL, 0)) sleep_s(0.01);
    sleep_s(0.2);
    kill(killed, SIGKILL);
    test_reap(killed, 10);
    char work[400];
    assert_int_equal(test_work_files(out, work, sizeof work), 1);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(MM(&err, "run", exp, "-o", out), 0);
    free(err);
    assert_int_equal(access(work, F_OK), 0);   /* not this run's to remove */
    assert_int_equal(MM(&err, "info", work), 4);   /* incomplete: said, exit 4 */
    assert_non_null(strstr(err, "--allow-incomplete"));
    free(err);
    test_rmtree(dir);
}

/* ---- 3. what shards say of themselves --------------------------------------------- */

/* The attribute NAME of FILE (`export --attrs`). */
static void attr(const char *file, const char *name, char *buf, size_t len)
{
    test_attr(file, name, buf, len);
}

/* Shards that differ where a number's meaning does (how the code was built,
 * the GPU model, the CPU of host points) are refused, saying what differs and
 * how to merge them anyway; allowed, the merged root says which attributes
 * differ and holds each shard's value; a difference that does not change a
 * number's meaning merges and is said the same way. */
static void merge_keeps_what_differs_and_refuses_mixed_meaning(void **state)
{
    (void)state;
    char dir[256], exp[300], paths[2][300], mixed[300], m[300], v[1024], *err;
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(mixed, sizeof mixed, "%s/mixed.h5", dir);
    snprintf(m, sizeof m, "%s/m.h5", dir);
    write_experiment(exp, 1, 4, 3);
    assert_int_equal(make_shards(exp, dir, 2, paths), 2);   /* host points in both */
    char first[512];
    attr(paths[0], "cflags", first, sizeof first);
    const struct {
        const char *name, *value, *says;
    } meaning[] = {
        {"cflags", "-O3 -march=native", "the harness was built with other flags"},
        {"host_kernel_cflags", "-O3", "the host rungs were built with other flags"},
        {"gpu_name", "NVIDIA H200", "two GPU models"},
        {"cpu_model", "Another CPU", "their host points ran on different CPUs"},
    };
    for (size_t i = 0; i < sizeof meaning / sizeof meaning[0]; i++) {
        unlink(mixed);
        test_copy_with_attr(paths[1], mixed, meaning[i].name, meaning[i].value);
        assert_int_equal(MM(&err, "merge", m, paths[0], mixed), 1);
        char allow[64];
        snprintf(allow, sizeof allow, "--allow-mixed %s", meaning[i].name);
        if (!strstr(err, meaning[i].says) || !strstr(err, allow) || !strstr(err, meaning[i].value))
            fail_msg("shards differing in %s: '%s'", meaning[i].name, err);
        free(err);
        assert_int_equal(access(m, F_OK), -1);
        assert_int_equal(MM(&err, "merge", "--allow-mixed", meaning[i].name, m, paths[0], mixed), 0);
        free(err);
        attr(m, "merge_differs", v, sizeof v);
        if (!strstr(v, meaning[i].name)) fail_msg("merge_differs '%s' lacks %s", v, meaning[i].name);
        char key[64], want[256];
        snprintf(key, sizeof key, "shard1_%s", meaning[i].name);
        attr(m, key, v, sizeof v);
        assert_string_equal(v, meaning[i].value);
        attr(m, meaning[i].name, v, sizeof v);
        snprintf(want, sizeof want, "; shard 1: %s", meaning[i].value);
        if (!strstr(v, "shard 0: ") || !strstr(v, want)) fail_msg("root %s: '%s'", meaning[i].name, v);
        unlink(m);
    }
    /* what does not change a number's meaning: merged, and said */
    unlink(mixed);
    test_copy_with_attr(paths[1], mixed, "os", "Plan 9");
    assert_int_equal(MM(&err, "merge", m, paths[0], mixed), 0);
    free(err);
    attr(m, "merge_differs", v, sizeof v);
    assert_non_null(strstr(v, "os"));
    attr(m, "cflags", v, sizeof v);
    assert_string_equal(v, first);   /* agreed on: once, as it is */
    char *argv[] = {(char *)test_binary(), "table", "runs", m, paths[0], NULL}, *out;
    assert_int_equal(test_run(argv, &out, &err), 0);
    if (!strstr(out, "\tdiffers\t") || !strstr(out, "os")) fail_msg("table runs: %s", out);
    free(out), free(err);
    assert_int_equal(MM(&err, "merge", "--allow-mixed", "cflags,bogus", m, paths[0], mixed), 1);
    assert_non_null(strstr(err, "'bogus' is not one of"));
    free(err);
    test_rmtree(dir);
}

/* What a merge says when it cannot be whole or is given the wrong things: the
 * line of the experiments that differs, the points held before the shards
 * missing (as ranges, whole, however many), a merged file given as a shard,
 * '-' for a file, and who made a file already at the name. */
static void merge_says_what_is_wrong(void **state)
{
    (void)state;
    char dir[256], exp[300], other[300], paths[100][300], o[400], m[300], *err;
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(other, sizeof other, "%s/seed4/e.ini", dir);
    snprintf(m, sizeof m, "%s/m.h5", dir);
    write_experiment(exp, 1, 20, 3);
    char sub[280];
    snprintf(sub, sizeof sub, "%s/seed4", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    write_experiment(other, 1, 20, 4);
    char seed4[300];
    snprintf(seed4, sizeof seed4, "%s/s1.h5", sub);
    assert_int_equal(MM(&err, "run", other, "--shard", "1/100", "-o", seed4), 0);
    free(err);
    const int n = make_shards(exp, dir, 100, paths);
    assert_int_equal(n, 20);   /* one shape a shard; 80 without points */
    assert_int_equal(MM(&err, "merge", m, paths[0], seed4), 1);
    if (!strstr(err, "differ in experiment_text (line 3: 'seed = 3' and 'seed = 4')"))
        fail_msg("shards of two seeds: '%s'", err);
    free(err);
    /* one shard with points missing of 100 */
    char *argv[110] = {(char *)test_binary(), "merge", m}, *out;
    for (int k = 1; k < n; k++) argv[2 + k] = paths[k];
    assert_int_equal(test_run(argv, &out, &err), 4);
    const char *held = strstr(err, "114 of the plan's 120 points; shards ");
    if (!held || !strstr(held, " missing (81 of 100 shards' files; they held 6 points: a shard "
                               "without points writes no file)"))
        fail_msg("one shard of 100 missing: '%s'", err);
    free(out), free(err);
    char v[4096];
    attr(m, "merge_missing", v, sizeof v);
    assert_non_null(strstr(v, "points: a shard without points writes no file)"));
    /* a merged file is no shard; '-' is no file; a name taken says by whom */
    snprintf(o, sizeof o, "%s/again.h5", dir);
    assert_int_equal(MM(&err, "merge", o, m), 1);
    assert_non_null(strstr(err, "a merged file (of 19 shards), not a shard"));
    free(err);
    assert_int_equal(MM(&err, "merge", "-", paths[0]), 1);
    assert_non_null(strstr(err, "'-': results files are named files"));
    free(err);
    assert_int_equal(MM(&err, "merge", o, "-"), 1);
    free(err);
    assert_int_equal(access("-", F_OK), -1);
    assert_int_equal(MM(&err, "merge", m, paths[0]), 1);
    char whom[400];
    snprintf(whom, sizeof whom, "%s holds the file of pid ", m);
    if (!strstr(err, "already exists") || !strstr(err, whom) || !strstr(err, "mmladder merge "))
        fail_msg("a merge into a taken name: '%s'", err);
    free(err);
    test_rmtree(dir);
}

const struct CMUnitTest races_tests[] = {
    cmocka_unit_test(two_merges_to_one_name_leave_one_file),
    cmocka_unit_test(a_name_taken_while_writing_is_never_replaced),
    cmocka_unit_test(interrupted_merge_leaves_nothing_under_its_name),
    cmocka_unit_test(a_run_into_a_name_being_written_is_refused),
    cmocka_unit_test(merge_keeps_what_differs_and_refuses_mixed_meaning),
    cmocka_unit_test(merge_says_what_is_wrong),
};
const size_t races_tests_count = sizeof races_tests / sizeof races_tests[0];
