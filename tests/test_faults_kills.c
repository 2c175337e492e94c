/* Faults, end to end, on the CPU (host rungs only): runs killed at random
 * moments, an interrupt during a long stage of one point, and full disks.
 * Their helpers are tests/faults_util.c's; the faults of files and folders are
 * tests/test_faults_io.c's. */
#define _GNU_SOURCE   /* flock, mount, pipe2, mkdirat/openat, setenv */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/resource.h>
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
#include "faults_parts.h"
#include "faults_parts.h"

/* ---- 1. kills at random moments ---------------------------------------------------- */

struct load {
    int samples;
    const char *sizes;
};
static const struct load LOADS[] = {
    {1, "4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23"},
    {1000, "4 5 6 7 8 9 10 11 12 13"},
    {20000, "4 5 6 7 8"},
};
enum { N_LOADS = sizeof LOADS / sizeof LOADS[0] };
static double calibrated_s[N_LOADS];   /* an unkilled run's wall time, per load */

static uint64_t rng_state;
static int rng_seeded;

static void rng_seed_once(void)
{
    if (rng_seeded) return;
    const char *s = getenv("MM_FAULT_SEED");
    rng_state = s && *s ? strtoull(s, NULL, 0)
                        : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(faults_now_s() * 1e9);
    rng_seeded = 1;
    print_message("faults: seed %llu (MM_FAULT_SEED=%llu repeats the kill moments)\n",
                  (unsigned long long)rng_state, (unsigned long long)rng_state);
}

/* splitmix64: uniform in [0, 1). */
static double rng_uniform(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0;
}

static int trials_for(int sig)
{
    const char *s = getenv("MM_FAULT_TRIALS");
    int n = s && *s ? atoi(s) : 12;
    if (n < 1) n = 1;
    return sig == SIGKILL ? n : (n + 1) / 2;
}

static void load_paths(size_t k, char *exp, size_t len)
{
    snprintf(exp, len, "%s/load%d.ini", fx.dir, LOADS[k].samples);
    faults_write_host_experiment(exp, LOADS[k].samples, LOADS[k].sizes);
}

/* Unkilled runs of load k (two: the first may find cold caches): the shorter
 * wall time; each run must be whole. */
static double calibrate(size_t k)
{
    if (calibrated_s[k] > 0) return calibrated_s[k];
    char exp[300], out[300], log[300], what[64];
    load_paths(k, exp, sizeof exp);
    snprintf(out, sizeof out, "%s/calibrate.h5", fx.dir);
    snprintf(log, sizeof log, "%s/calibrate.log", fx.dir);
    snprintf(what, sizeof what, "calibration, %d samples per point", LOADS[k].samples);
    const size_t planned = 6 * faults_count_words(LOADS[k].sizes);
    double best = 0, times[2];
    for (int i = 0; i < 2; i++) {
        struct child c;
        int rc = faults_run_mm(&c, &HOW(.out_file = log), 60, "run", exp, "-o", out, (const char *)NULL);
        if (rc != 0) fail_msg("%s: exit %d: %s", what, rc, faults_str(&c.err));
        struct results_file f;
        faults_read_file_or_fail(what, out, &f);
        faults_check_file(what, out, &f, planned);
        assert_int_equal(f.n_rows, planned);
        assert_int_equal(f.complete, 1);
        assert_int_equal(f.n_samples, planned * (size_t)LOADS[k].samples);
        results_file_free(&f);
        char *text = faults_read_or_empty(log);
        assert_int_equal(faults_progress_lines(text), planned);
        free(text);
        times[i] = c.t_exit - c.t0;
        if (i == 0 || times[i] < best) best = times[i];
        faults_child_free(&c);
        unlink(out);
        unlink(log);
    }
    calibrated_s[k] = best;
    print_message("faults: calibration: %zu points of %d samples in %.3f s and %.3f s (kills "
                  "drawn in [0, %.3f] s)\n", planned, LOADS[k].samples, times[0], times[1], best);
    return best;
}

struct tally {
    int trials, no_file, before_handlers, incomplete, complete, exited_0;
    int recording_dropped, writer_open, builds_left, files;
    size_t min_rows, max_rows;
    double max_latency;
    int failed;             /* trials that broke an invariant */
    struct text failures;   /* what each of them broke */
};

/* A trial broke an invariant: say so, and go on with the next trial. */
static void trial_failed(struct tally *t, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    t->failed++;
    print_message("FAILED: %s\n", buf);
    faults_text_add(&t->failures, buf, strlen(buf));
    faults_text_add(&t->failures, "\n", 1);
}
#define TRIAL_FAIL(...)                 \
    do {                                \
        trial_failed(t, __VA_ARGS__);   \
        goto done;                      \
    } while (0)

static const char *signame(int sig)
{
    return sig == SIGKILL ? "SIGKILL" : sig == SIGINT ? "SIGINT" : "SIGTERM";
}

/* Start load k, send sig after delay seconds (< 0: as soon as the last progress
 * line is out), and judge what is left. */
static void kill_trial(int sig, size_t k, int trial, double delay, struct tally *t)
{
    char exp[300], outdir[300], path[600], log[300], what[160];
    snprintf(exp, sizeof exp, "%s/load%d.ini", fx.dir, LOADS[k].samples);
    snprintf(outdir, sizeof outdir, "%s/out", fx.dir);
    snprintf(path, sizeof path, "%s/r.h5", outdir);
    snprintf(log, sizeof log, "%s/trial.log", fx.dir);
    const size_t planned = 6 * faults_count_words(LOADS[k].sizes);
    if (mkdir(outdir, 0755) != 0) fail_msg("%s: %s", outdir, strerror(errno));

    struct child c;
    const char *args[] = {"run", exp, "-o", path, NULL};
    if (delay >= 0) {
        faults_child_start(&c, &HOW(.out_file = log), args);
        faults_child_pump_until(&c, c.t0 + delay);
    } else {
        /* At the last progress line (every point on disk, the run not yet
         * ended): stdout on a pipe, so that the signal follows the line within
         * microseconds. */
        faults_child_start(&c, &PIPED, args);
        char last[48];
        snprintf(last, sizeof last, "[%zu/%zu] ", planned, planned);
        while (!strstr(faults_str(&c.out), last)) {
            if (faults_child_poll_exit(&c) || faults_now_s() - c.t0 > 20)
                fail_msg("%s, %d samples per point: no '%s' line seen (status 0x%x)",
                         signame(sig), LOADS[k].samples, last, c.status);
            faults_child_pump(&c, 1);
        }
    }
    kill(c.pid, sig);
    const double t_sig = faults_now_s();
    faults_child_wait(&c, 20);
    const double latency = c.t_exit - t_sig;
    snprintf(what, sizeof what, "%s, %d samples per point, trial %d (signal %.3f s after the "
             "start, exit %.3f s after it)", signame(sig), LOADS[k].samples, trial,
             t_sig - c.t0, latency);
    t->trials++;
    if (latency > t->max_latency) t->max_latency = latency;

    char *out = delay >= 0 ? faults_read_or_empty(log) : strdup(faults_str(&c.out));
    struct results_file f = {0};
    const size_t lines = faults_progress_lines(out);
    const char *err = faults_str(&c.err);
    const int st = c.status;

    /* Nothing in the output folder but the results file: under its name once
     * the run has ended, else under its work name (r.h5.HOST.PID.part). */
    char names[8][256], mine_suffix[64];
    snprintf(mine_suffix, sizeof mine_suffix, ".%ld.part", (long)c.pid);
    size_t n_names = faults_list_dir(outdir, names, 8);
    for (size_t i = 0; i < n_names && i < 8; i++) {
        const size_t k = strlen(names[i]), w = strlen(mine_suffix);
        const int is_work = k > w + 5 && !strncmp(names[i], "r.h5.", 5) &&
                            !strcmp(names[i] + k - w, mine_suffix);
        if (strcmp(names[i], "r.h5") != 0 && !is_work)
            TRIAL_FAIL("%s: '%s' left in the output folder", what, names[i]);
    }
    if (n_names > 1) TRIAL_FAIL("%s: %zu files in the output folder (expected one)", what, n_names);
    const int exists = n_names == 1, placed = exists && !strcmp(names[0], "r.h5");
    if (exists) snprintf(path, sizeof path, "%s/%s", outdir, names[0]);
    size_t mine = 0;
    faults_build_files(fx.tmp, NULL, c.pid, &mine);
    t->builds_left += mine > 0;

    if (exists) {
        char why[PATH_MAX + 2048];
        if (results_read(path, &f, why, sizeof why) != 0)
            TRIAL_FAIL("%s: results_read(%s) failed: %s", what, path, why);
        if (!t->files || f.n_rows < t->min_rows) t->min_rows = f.n_rows;
        t->files++;
        if (f.n_rows > t->max_rows) t->max_rows = f.n_rows;
        t->recording_dropped += strstr(f.notes, "being recorded") != NULL;
        t->writer_open += f.writer_open;
        if (f.complete) t->complete++;
        else t->incomplete++;
        /* the name holds a finished file only */
        if (placed && (!f.complete || f.writer_open))
            TRIAL_FAIL("%s: r.h5 has %zu of %zu rows, complete %d, writer open %d (the name "
                       "holds finished runs only)", what, f.n_rows, planned, f.complete,
                       f.writer_open);
        if (faults_file_problem(what, path, &f, planned, why, sizeof why)) TRIAL_FAIL("%s", why);
        /* A row is on disk before its progress line is printed, and the next
         * point's row is not begun before it. */
        if (f.n_rows < lines || f.n_rows > lines + 1)
            TRIAL_FAIL("%s: %zu rows in the file, %zu progress lines printed", what, f.n_rows, lines);
    } else {
        t->no_file++;
        if (lines) TRIAL_FAIL("%s: no file, but %zu progress lines were printed", what, lines);
    }

    /* What stdout's summary says, when the run got to print it, is what is on disk. */
    char spath[PATH_MAX];
    size_t sx = 0, sn = 0;
    if (faults_summary_of(out, spath, sizeof spath, &sx, &sn)) {
        if (!exists || strcmp(spath, path) != 0 || sx != f.n_rows || sn != planned)
            TRIAL_FAIL("%s: stdout says '%s: %zu of %zu points recorded'; on disk: %s with %zu rows",
                     what, spath, sx, sn, exists ? path : "no file", f.n_rows);
    }

    if (sig == SIGKILL) {
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
            /* killed: judged above */
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            t->exited_0++;   /* it had finished before the signal came */
            if (!exists || !f.complete) TRIAL_FAIL("%s: exit 0 without a complete file", what);
        } else {
            TRIAL_FAIL("%s: status %d (expected death by SIGKILL, or 0); stderr: %s", what,
                     faults_code_of(st), err);
        }
    } else {
        if (latency > 1.5) TRIAL_FAIL("%s: exited %.3f s after the signal (at most 1.5 s)", what, latency);
        if (mine) TRIAL_FAIL("%s: its mmladder-build-* file is left in %s", what, fx.tmp);
        size_t x = 0, n = 0;
        char mpath[PATH_MAX];
        const int kind = faults_interrupt_message(err, &x, &n, mpath, sizeof mpath);
        if (WIFSIGNALED(st) && WTERMSIG(st) == sig) {
            /* The signal came before mmladder set its handlers (reading the
             * experiment, probing for a GPU, planning): nothing was written. */
            t->before_handlers++;
            if (exists || err[0] || lines)
                TRIAL_FAIL("%s: killed by the signal's default action, yet file %s, stderr '%s', "
                         "%zu progress lines", what, exists ? "exists" : "absent", err, lines);
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 130 && !exists && kind == 3) {
            /* Before the first point was recorded: the work file, with no row,
             * is removed (counted as "no file yet" above). */
            if (lines) TRIAL_FAIL("%s: no point recorded, yet %zu progress lines", what, lines);
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 130 && !exists &&
                   strstr(err, "interrupted before the run began; no file was written")) {
            /* The signal came after the handlers were set but before the run
             * began (reading the experiment, probing for a GPU, planning). */
            t->before_handlers++;
            if (lines) TRIAL_FAIL("%s: interrupted before the run, yet %zu progress lines", what, lines);
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 130) {
            if (!exists) TRIAL_FAIL("%s: exit 130, but no file at %s; stderr: %s", what, path, err);
            if (kind == 1 && !(x == f.n_rows && n == planned && !strcmp(mpath, path) && !f.complete))
                TRIAL_FAIL("%s: stderr says 'kept %zu of %zu points in %s'; the file %s has %zu rows, "
                         "complete = %d", what, x, n, mpath, path, f.n_rows, f.complete);
            if (kind == 1 && placed)
                TRIAL_FAIL("%s: an interrupted run's %zu rows are under its name", what, f.n_rows);
            if (kind == 2 && !(f.complete && placed && !strcmp(mpath, path)))
                TRIAL_FAIL("%s: stderr says '%s is complete'; the file %s has %zu of %zu rows, "
                         "complete = %d", what, mpath, path, f.n_rows, planned, f.complete);
            if (kind <= 0) TRIAL_FAIL("%s: exit 130 without the interrupt message; stderr: %s", what, err);
            if (f.n_rows != lines)
                TRIAL_FAIL("%s: %zu rows, %zu progress lines (an interrupted run records no point "
                         "it does not report)", what, f.n_rows, lines);
            if (f.writer_open || f.notes[0])
                TRIAL_FAIL("%s: the interrupted run did not close its file cleanly: %s", what, f.notes);
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            t->exited_0++;
            if (!exists || !f.complete || kind != 0)
                TRIAL_FAIL("%s: exit 0, file %s, complete %d, stderr: %s", what,
                         exists ? "there" : "absent", f.complete, err);
        } else {
            TRIAL_FAIL("%s: status %d (expected 130, or 0 if it had finished); stderr: %s", what,
                     faults_code_of(st), err);
        }
    }
done:
    results_file_free(&f);
    free(out);
    faults_child_free(&c);
    unlink(log);
    test_rmtree(outdir);
}

static void kills(int sig)
{
    rng_seed_once();
    const int trials = trials_for(sig);
    const double t0 = faults_now_s();
    char exp[300];
    int failed = 0, total = 0;
    struct text failures = {0};
    for (size_t k = 0; k < N_LOADS; k++) {
        load_paths(k, exp, sizeof exp);
        const double T = calibrate(k);
        struct tally t = {0};
        for (int i = 0; i < trials; i++) kill_trial(sig, k, i, rng_uniform() * T, &t);
        print_message("faults: %s, %d samples per point, %d trials (delay uniform in [0, %.3f] "
                      "s): %d no file yet, %d before the handlers, %d incomplete, %d complete "
                      "(%d exited 0 before the signal); rows %zu..%zu; a trailing row being "
                      "recorded dropped in %d; writer left open in %d; build file left in TMPDIR "
                      "by %d; slowest exit %.3f s after the signal; %d FAILED\n",
                      signame(sig), LOADS[k].samples, t.trials, T, t.no_file, t.before_handlers,
                      t.incomplete, t.complete, t.exited_0, t.min_rows, t.max_rows,
                      t.recording_dropped, t.writer_open, t.builds_left, t.max_latency, t.failed);
        failed += t.failed;
        total += t.trials;
        if (t.failures.n) faults_text_add(&failures, t.failures.s, t.failures.n);
        free(t.failures.s);
    }
    char what[64];
    snprintf(what, sizeof what, "after the %s trials", signame(sig));
    faults_assert_no_stale_builds(what);
    print_message("faults: %s trials took %.1f s\n", signame(sig), faults_now_s() - t0);
    if (failed) {
        /* each was printed as it came (cmocka cuts a long failure message short) */
        char first[1024];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(faults_str(&failures), "\n"), faults_str(&failures));
        free(failures.s);
        fail_msg("%d of %d %s trials failed (each printed above); the first: %s", failed, total,
                 signame(sig), first);
    }
}

/* The moment between the last point and the end of the run, every time: the
 * signal as soon as the last progress line is out (load 1, 60 points). */
enum { TRIALS_AT_THE_END = 6 };
static void kill_after_the_last_point(void **state)
{
    (void)state;
    const int sigs[] = {SIGKILL, SIGINT, SIGTERM};
    char exp[300];
    load_paths(1, exp, sizeof exp);
    int failed = 0;
    struct text failures = {0};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct tally t = {0};
        /* SIGKILL lands in the moment in about half the trials here */
        const int trials = sigs[i] == SIGKILL ? TRIALS_AT_THE_END : TRIALS_AT_THE_END / 2;
        for (int trial = 0; trial < trials; trial++) kill_trial(sigs[i], 1, trial, -1, &t);
        print_message("faults: %s at the last progress line, %d trials: %d incomplete, %d complete "
                      "(%d exited 0 before the signal); rows %zu..%zu; %d FAILED\n",
                      signame(sigs[i]), t.trials, t.incomplete, t.complete, t.exited_0, t.min_rows,
                      t.max_rows, t.failed);
        failed += t.failed;
        if (t.failures.n) faults_text_add(&failures, t.failures.s, t.failures.n);
        free(t.failures.s);
    }
    if (failed) {
        char first[1024];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(faults_str(&failures), "\n"), faults_str(&failures));
        free(failures.s);
        fail_msg("%d of %d trials failed (each printed above); the first: %s", failed,
                 2 * TRIALS_AT_THE_END, first);
    }
}

static void kill_at_random_moments_sigkill(void **state)
{
    (void)state;
    kills(SIGKILL);
}

static void kill_at_random_moments_sigint(void **state)
{
    (void)state;
    kills(SIGINT);
}

static void kill_at_random_moments_sigterm(void **state)
{
    (void)state;
    kills(SIGTERM);
}

/* ---- 2. an interrupt during a long stage of one point ------------------------------ */

/* host_naive -O1 at 1000^3 takes about 4 s a call on a 2-core test machine
 * (measured: 900^3 2.9 s, 1000^3 4.0 s; its float64 reference about 0.6 s). */
struct long_case {
    const char *what;
    const char *sizes;
    size_t points;
    int after_line;      /* 1: the delay counts from the first progress line */
    double delay_s;
};
static const struct long_case LONG_CASES[] = {
    {"one point of 1000^3, SIGINT 0.5 s after the start (its float64 reference)", "1000", 1, 0,
     0.5},
    {"16^3 then 1000^3, SIGINT at the first progress line (the long point's inputs and "
     "reference)", "16 1000", 2, 1, 0.0},
    {"16^3 then 1000^3, SIGINT 1.5 s after the first progress line (a timed call of the long "
     "point)", "16 1000", 2, 1, 1.5},
};

static void interrupt_during_a_long_stage(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof LONG_CASES / sizeof LONG_CASES[0]; i++) {
        const struct long_case *lc = &LONG_CASES[i];
        char exp[300], path[PATH_MAX], text[512];
        snprintf(exp, sizeof exp, "%s/long.ini", fx.dir);
        snprintf(path, sizeof path, "%s/long%zu.h5", fx.dir, i);
        snprintf(text, sizeof text,
                 "[experiment]\nname = long\nseed = 7\n[sampling]\nhost_min_samples = 3\n"
                 "host_point_budget_s = 3600\n[h]\nvariants = host_naive\nsizes = %s\n"
                 "opt_levels = 1\n", lc->sizes);
        test_write_file(exp, text);
        struct child c;
        const char *args[] = {"run", exp, "-o", path, NULL};
        faults_child_start(&c, &PIPED, args);
        double at = c.t0 + lc->delay_s;
        if (lc->after_line) {
            char first[32];
            snprintf(first, sizeof first, "[1/%zu] ", lc->points);
            faults_child_wait_output(&c, first, 20);
            at = faults_now_s() + lc->delay_s;
        }
        faults_child_pump_until(&c, at);
        kill(c.pid, SIGINT);
        const double t_sig = faults_now_s();
        faults_child_wait(&c, 30);
        const double latency = c.t_exit - t_sig;
        const char *err = faults_str(&c.err);
        const size_t lines = faults_progress_lines(faults_str(&c.out));
        print_message("faults: %s: status %d, %.3f s after the signal; %s", lc->what,
                      faults_code_of(c.status), latency, err);
        if (faults_code_of(c.status) != 130 || latency > 1.0)
            fail_msg("%s: status %d, %.3f s after the signal (expected 130 within 1 s); stderr: %s",
                     lc->what, faults_code_of(c.status), latency, err);
        size_t x = 0, n = 0;
        char mpath[PATH_MAX], work[PATH_MAX];
        const int kind = faults_interrupt_message(err, &x, &n, mpath, sizeof mpath);
        const size_t works = test_work_files(path, work, sizeof work);
        if (access(path, F_OK) == 0) fail_msg("%s: the interrupted run's file has its name", lc->what);
        if (lc->points == 1) {
            /* no point recorded: no file */
            if (kind != 3 || works || lines)
                fail_msg("%s: %zu work files, %zu progress lines; stderr: %s (expected none, and "
                         "'interrupted before the first point was recorded')", lc->what, works,
                         lines, err);
            faults_child_free(&c);
            continue;
        }
        if (kind != 1 || works != 1)
            fail_msg("%s: no 'interrupted: kept X of N points in PATH' in stderr, or not one work "
                     "file (%zu): %s", lc->what, works, err);
        snprintf(path, sizeof path, "%s", work);
        struct results_file f;
        faults_read_file_or_fail(lc->what, path, &f);
        faults_check_file(lc->what, path, &f, lc->points);
        if (x != f.n_rows || n != lc->points || strcmp(mpath, path) != 0 || f.complete ||
            f.n_rows != lines || f.n_rows != lc->points - 1 || f.writer_open || f.notes[0])
            fail_msg("%s: stderr 'kept %zu of %zu points in %s', %zu progress lines; the file %s "
                     "has %zu rows, complete = %d, notes '%s' (expected %zu rows)", lc->what, x, n,
                     mpath, lines, path, f.n_rows, f.complete, f.notes, lc->points - 1);
        results_file_free(&f);
        size_t mine = 0;
        faults_build_files(fx.tmp, NULL, c.pid, &mine);
        if (mine) fail_msg("%s: its mmladder-build-* file is left in %s", lc->what, fx.tmp);
        faults_child_free(&c);
        unlink(path);
    }
}

/* ---- 3. a full disk ---------------------------------------------------------------- */

struct disk_case {
    const char *what;
    int tmpfs;              /* on a 256 KiB tmpfs (root only) */
    int fill;               /* the tmpfs filled up before the run */
    rlim_t fsize;           /* RLIMIT_FSIZE, 0: none */
    int samples;
    const char *sizes;
    const char *reason;     /* the system's words in the message */
    int rows_kept;          /* 1: the file keeps the rows before the error; 0: no file */
};
static const struct disk_case DISK_CASES[] = {
    {"RLIMIT_FSIZE 2 KiB: the file cannot be made", 0, 0, 2048, 1, "4 5", "File too large", 0},
    {"RLIMIT_FSIZE 200 KiB: reached mid-run", 0, 0, 200 * 1024, 1000,
     "4 5 6 7 8 9 10 11 12 13", "File too large", 1},
    {"a full 256 KiB tmpfs: the file cannot be made", 1, 1, 0, 1, "4 5",
     "No space left on device", 0},
    {"a 256 KiB tmpfs filled mid-run", 1, 0, 0, 1000, "4 5 6 7 8 9 10 11 12 13",
     "No space left on device", 1},
};

/* Mount a 256 KiB tmpfs for the test: NULL, or why not. */
static const char *mount_tmpfs(char *why, size_t len)
{
    if (fx.mnt[0]) return NULL;
    if (geteuid() != 0) return "not running as root";
    char dir[300];
    snprintf(dir, sizeof dir, "%s/mnt", fx.dir);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return strerror(errno);
    if (mount("tmpfs", dir, "tmpfs", 0, "size=256k,mode=0755") != 0) {
        snprintf(why, len, "mount -t tmpfs -o size=256k tmpfs %s: %s", dir, strerror(errno));
        return why;
    }
    snprintf(fx.mnt, sizeof fx.mnt, "%s", dir);
    return NULL;
}

static void fill_up(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) fail_msg("%s: %s", path, strerror(errno));
    static char block[4096];
    while (write(fd, block, sizeof block) > 0) {}
    int e = errno;
    close(fd);
    if (e != ENOSPC) fail_msg("filling %s: %s (expected ENOSPC)", path, strerror(e));
}

/* One case of DISK_CASES (the test's initial state). */
static void full_disk(void **state)
{
    const struct disk_case *dc = *state;
    char outdir[320], tmpdir[320], path[600], exp[300], why[512];
    if (dc->tmpfs) {
        const char *no = mount_tmpfs(why, sizeof why);
        if (no) {
            print_message("skipped: %s: %s\n", dc->what, no);
            skip();
        }
        snprintf(outdir, sizeof outdir, "%s/out", fx.mnt);
        snprintf(tmpdir, sizeof tmpdir, "%s/tmp", fx.mnt);
        assert_int_equal(mkdir(tmpdir, 0700), 0);
    } else {
        snprintf(outdir, sizeof outdir, "%s/out", fx.dir);
        snprintf(tmpdir, sizeof tmpdir, "%s", fx.tmp);
    }
    if (mkdir(outdir, 0755) != 0) fail_msg("%s: %s", outdir, strerror(errno));
    if (dc->fill) {
        char fill[340];
        snprintf(fill, sizeof fill, "%s/fill", fx.mnt);
        fill_up(fill);
    }
    snprintf(path, sizeof path, "%s/r.h5", outdir);
    snprintf(exp, sizeof exp, "%s/disk.ini", fx.dir);
    faults_write_host_experiment(exp, dc->samples, dc->sizes);
    const size_t planned = 6 * faults_count_words(dc->sizes);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    assert_true(devnull > 0);

    struct child c;
    int rc = faults_run_mm(&c, &HOW(.out_fd = devnull, .fsize = dc->fsize, .tmpdir = tmpdir), 60,
                    "run", exp, "-o", path, (const char *)NULL);
    close(devnull);
    const char *err = faults_str(&c.err);
    print_message("faults: %s: status %d; %s", dc->what, rc, err);
    if (rc != 1 || !strstr(err, path) || !strstr(err, dc->reason))
        fail_msg("%s: status %d, stderr: %s(expected 1 and a message naming %s and '%s')",
                 dc->what, rc, err, path, dc->reason);
    size_t builds = faults_build_files(tmpdir, NULL, 0, NULL);
    if (builds) fail_msg("%s: %zu mmladder-build-* files left in %s", dc->what, builds, tmpdir);
    char names[8][256];
    size_t n_names = faults_list_dir(outdir, names, 8);
    if (!dc->rows_kept) {
        if (n_names)
            fail_msg("%s: '%s' left in the output folder (expected nothing)", dc->what, names[0]);
    } else {
        size_t x = 0;
        const char *the = strstr(err, "(the ");
        if (!the || sscanf(the, "(the %zu rows before it are kept in ", &x) != 1 ||
            !strstr(err, "rows before it are kept in "))
            fail_msg("%s: no '(the X rows before it are kept in WORK)' in stderr: %s", dc->what, err);
        /* the rows are kept in the run's work file, which does not take the name */
        if (n_names != 1 || strncmp(names[0], "r.h5.", 5) != 0 || !strstr(err, names[0]))
            fail_msg("%s: %zu entries in the output folder, the first '%s' (expected the run's "
                     "work file alone, named in stderr)", dc->what, n_names, n_names ? names[0] : "");
        snprintf(path, sizeof path, "%s/%s", outdir, names[0]);
        struct results_file f;
        faults_read_file_or_fail(dc->what, path, &f);
        faults_check_file(dc->what, path, &f, planned);
        if (f.n_rows != x || f.complete || x == 0)
            fail_msg("%s: stderr says %zu rows are kept; the file has %zu rows, complete = %d",
                     dc->what, x, f.n_rows, f.complete);
        results_file_free(&f);
    }
    faults_child_free(&c);
    /* the teardown unmounts and removes the rest */
}

const struct CMUnitTest faults_tests[] = {
    T(kill_at_random_moments_sigkill),
    T(kill_at_random_moments_sigint),
    T(kill_at_random_moments_sigterm),
    T(kill_after_the_last_point),
    T(interrupt_during_a_long_stage),
    {"full_disk: RLIMIT_FSIZE 2 KiB", full_disk, faults_setup, faults_teardown, (void *)&DISK_CASES[0]},
    {"full_disk: RLIMIT_FSIZE 200 KiB mid-run", full_disk, faults_setup, faults_teardown, (void *)&DISK_CASES[1]},
    {"full_disk: a full tmpfs", full_disk, faults_setup, faults_teardown, (void *)&DISK_CASES[2]},
    {"full_disk: a tmpfs filled mid-run", full_disk, faults_setup, faults_teardown, (void *)&DISK_CASES[3]},
};
const size_t faults_tests_count = sizeof faults_tests / sizeof faults_tests[0];
