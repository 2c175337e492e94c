/* Faults, end to end, on the CPU (host rungs only), of files and folders: long
 * paths, concurrent runs into one folder, errors writing standard output, a
 * locked results file, compare of a killed run, a FIFO in place of a file and
 * the parser's limits.  The kills at random moments, the interrupts and the
 * full disks are tests/test_faults.c's. */
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

/* ---- 4. long paths ------------------------------------------------------------------ */

/* Make folders under base so that base + folders + tail is exactly len bytes
 * long (tail: "" for a folder path, "/r.h5" for a file); the path into out. */
static void make_long_path(const char *base, size_t len, const char *tail, char *out,
                           size_t outlen)
{
    const size_t b = strlen(base), t = strlen(tail);
    assert_true(len > b + t + 2 && len < outlen);
    size_t rem = len - b - t;              /* bytes of "/name" components */
    const size_t k = (rem + 250) / 251;    /* components of at most "/" + 250 bytes */
    int fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    memcpy(out, base, b);
    size_t at = b;
    for (size_t i = 0; i < k; i++) {
        size_t c = rem / (k - i);
        rem -= c;
        char name[256];
        memset(name, 'a' + (int)(i % 26), c - 1);
        name[c - 1] = '\0';
        if (mkdirat(fd, name, 0755) != 0) fail_msg("mkdirat %s: %s", name, strerror(errno));
        int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = next;
        assert_true(fd >= 0);
        out[at++] = '/';
        memcpy(out + at, name, c - 1);
        at += c - 1;
    }
    close(fd);
    memcpy(out + at, tail, t + 1);
    assert_int_equal(strlen(out), len);
}

struct path_case {
    const char *opt;   /* -o or -d */
    size_t len;        /* of the path given */
    int ok;
};
static const struct path_case PATH_CASES[] = {
    {"-o", 1100, 1},          {"-o", PATH_MAX - 129, 1}, {"-o", PATH_MAX - 128, 0},
    {"-o", PATH_MAX + 104, 0}, {"-d", 1100, 1},          {"-d", PATH_MAX - 129, 1},
    {"-d", PATH_MAX - 128, 0},
};

static void long_paths(void **state)
{
    (void)state;
    char exp[300];
    snprintf(exp, sizeof exp, "%s/lp.ini", fx.dir);
    faults_write_host_experiment(exp, 1, "4 5");
    for (size_t i = 0; i < sizeof PATH_CASES / sizeof PATH_CASES[0]; i++) {
        const struct path_case *pc = &PATH_CASES[i];
        const int is_o = !strcmp(pc->opt, "-o");
        char base[300], given[PATH_MAX + 512], folder[PATH_MAX + 512], what[96];
        snprintf(base, sizeof base, "%s/long%zu", fx.dir, i);
        assert_int_equal(mkdir(base, 0755), 0);
        make_long_path(base, pc->len, is_o ? "/r.h5" : "", given, sizeof given);
        snprintf(folder, sizeof folder, "%.*s", (int)(pc->len - (is_o ? 5 : 0)), given);
        snprintf(what, sizeof what, "%s with a path of %zu bytes", pc->opt, pc->len);
        struct child c;
        int rc = faults_run_mm(&c, &PIPED, 30, "run", exp, pc->opt, given, (const char *)NULL);
        const char *err = faults_str(&c.err);
        int fd = faults_open_long_dir(folder);
        if (fd < 0) fail_msg("%s: cannot open its folder again: %s", what, strerror(errno));
        char names[4][256];
        size_t n_names = faults_list_fd(fd, names, 4);
        close(fd);
        if (pc->ok) {
            if (rc != 0) fail_msg("%s: status %d; stderr: %.400s", what, rc, err);
            if (n_names != 1) fail_msg("%s: %zu files in its folder (expected 1)", what, n_names);
            int k;
            if (is_o ? strcmp(names[0], "r.h5") != 0 : !faults_default_stem(names[0], "faults", &k))
                fail_msg("%s: wrote '%s'", what, names[0]);
            char path[PATH_MAX + 800];
            snprintf(path, sizeof path, "%s/%s", folder, names[0]);
            if (is_o) assert_string_equal(path, given);
            struct results_file f;
            faults_read_file_or_fail(what, path, &f);
            faults_check_file(what, path, &f, 12);
            assert_int_equal(f.n_rows, 12);
            assert_int_equal(f.complete, 1);
            results_file_free(&f);
            char spath[PATH_MAX + 600];
            size_t x = 0, n = 0;
            if (!faults_summary_of(faults_str(&c.out), spath, sizeof spath, &x, &n) || strcmp(spath, path) != 0 ||
                x != 12 || n != 12)
                fail_msg("%s: stdout's summary does not name the file it wrote", what);
        } else {
            char len_words[48];
            snprintf(len_words, sizeof len_words, "%zu bytes long", pc->len);
            char opt_words[8];
            snprintf(opt_words, sizeof opt_words, "%s '", pc->opt);
            if (rc != 1 || !strstr(err, opt_words) || !strstr(err, len_words))
                fail_msg("%s: status %d; stderr: %.400s (expected 1, naming %s and '%s')", what, rc,
                         err, pc->opt, len_words);
            if (n_names) fail_msg("%s: refused, but '%s' was written", what, names[0]);
        }
        size_t builds = faults_build_files(fx.tmp, NULL, 0, NULL);
        if (builds) fail_msg("%s: %zu mmladder-build-* files left in TMPDIR", what, builds);
        faults_child_free(&c);
        faults_remove_tree_at(AT_FDCWD, base);
    }
}

/* ---- 5. concurrent runs into one folder ------------------------------------------------ */

static void concurrent_runs_into_one_folder(void **state)
{
    (void)state;
    enum { RUNS = 4 };
    char dir[300], exp[300], logs[RUNS][300];
    snprintf(dir, sizeof dir, "%s/conc", fx.dir);
    snprintf(exp, sizeof exp, "%s/conc.ini", fx.dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    faults_write_host_experiment(exp, 1000, "4 5 6 7 8");
    /* Start just after a second begins, so that the default names (to the
     * second) collide. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    faults_sleep_s(1.0 - (double)ts.tv_nsec * 1e-9 + 0.01);
    struct child c[RUNS];
    for (int i = 0; i < RUNS; i++) {
        snprintf(logs[i], sizeof logs[i], "%s/conc%d.log", fx.dir, i);
        const char *args[] = {"run", exp, "-d", dir, NULL};
        faults_child_start(&c[i], &HOW(.out_file = logs[i]), args);
    }
    for (int i = 0; i < RUNS; i++) faults_child_wait(&c[i], 60);
    for (int i = 0; i < RUNS; i++)
        if (faults_code_of(c[i].status) != 0)
            fail_msg("run %d: status %d; stderr: %s", i, faults_code_of(c[i].status), faults_str(&c[i].err));

    char names[8][256];
    size_t n = faults_list_dir(dir, names, 8);
    char listing[2048] = "";
    for (size_t i = 0; i < n && i < 8; i++) {
        strcat(listing, " ");
        strcat(listing, names[i]);
    }
    print_message("faults: %d concurrent runs wrote:%s\n", RUNS, listing);
    if (n != RUNS) fail_msg("%zu files in %s (expected %d):%s", n, dir, RUNS, listing);
    /* faults-DEVICE-YYYYMMDDTHHMMSSZ.h5, then -2, -3, ... for runs of the same second */
    for (size_t i = 0; i < n; i++) {
        const char *nm = names[i];
        int k = 1;
        const size_t stem = faults_default_stem(nm, "faults", &k);
        if (!stem) fail_msg("an unexpected name '%s' in %s", nm, dir);
        /* the names of one second are stem.h5, stem-2.h5 ... stem-m.h5 */
        size_t same = 0;
        for (size_t j = 0; j < n; j++)
            same += !strncmp(names[j], nm, stem);
        if ((size_t)k > same) fail_msg("'%s': suffix -%d, but %zu files of that second", nm, k, same);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, nm);
        struct results_file f;
        faults_read_file_or_fail("a concurrent run", path, &f);
        faults_check_file("a concurrent run", path, &f, 30);
        assert_int_equal(f.complete, 1);
        assert_int_equal(f.n_rows, 30);
        results_file_free(&f);
    }
    /* Each run's summary names the file it wrote: the four names, each once. */
    for (int i = 0; i < RUNS; i++) {
        char *out = faults_read_or_empty(logs[i]);
        char spath[PATH_MAX];
        size_t x = 0, m = 0;
        if (!faults_summary_of(out, spath, sizeof spath, &x, &m))
            fail_msg("run %d: no summary on stdout: %s", i, out);
        size_t match = 0;
        for (size_t j = 0; j < n; j++) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", dir, names[j]);
            match += !strcmp(path, spath);
        }
        int dup = 0;
        for (int j = 0; j < i; j++) {
            char *o2 = faults_read_or_empty(logs[j]);
            char p2[PATH_MAX];
            size_t x2, m2;
            dup |= faults_summary_of(o2, p2, sizeof p2, &x2, &m2) && !strcmp(p2, spath);
            free(o2);
        }
        if (match != 1 || dup)
            fail_msg("run %d says '%s: %zu of %zu points recorded', %s; the files are:%s", i, spath,
                     x, m, match ? "a file another run also names as its own" : "a file that is not there",
                     listing);
        free(out);
    }
    for (int i = 0; i < RUNS; i++) faults_child_free(&c[i]);
}

/* ---- 6. errors writing standard output ------------------------------------------------- */

/* Each command into each broken standard output. */
static const char *const OUT_COMMANDS[][2] = {
    {"export", NULL}, {"export", "--samples"}, {"export", "--attrs"}, {"info", NULL}};
enum sink { DEV_FULL, CLOSED_PIPE };
static const struct {
    const char *what, *reason;
} SINKS[] = {
    [DEV_FULL] = {"/dev/full", "No space left on device"},
    [CLOSED_PIPE] = {"a pipe whose read end is closed", NULL},
};

static void output_errors(void **state)
{
    (void)state;
    char h5[300];
    snprintf(h5, sizeof h5, "%s/small.h5", fx.dir);
    faults_make_results(h5);
    size_t len0;
    char *before = test_read_file(h5, &len0);
    int failures = 0, cases = 0;
    for (size_t i = 0; i < sizeof OUT_COMMANDS / sizeof OUT_COMMANDS[0]; i++)
        for (int sink = DEV_FULL; sink <= CLOSED_PIPE; sink++) {
            const char *const *cmd = OUT_COMMANDS[i];
            int fd;
            if (sink == DEV_FULL) {
                fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
            } else {
                int p[2];
                assert_int_equal(pipe2(p, O_CLOEXEC), 0);
                close(p[0]);   /* no reader, ever */
                fd = p[1];
            }
            assert_true(fd > 0);
            const char *args[] = {cmd[0], h5, cmd[1], NULL};
            struct child c;
            faults_child_start(&c, &HOW(.out_fd = fd), args);
            close(fd);
            faults_child_wait(&c, 20);
            cases++;
            const char *err = faults_str(&c.err);
            /* A full disk is an error to report; a reader that went away (`| head`)
             * is not: nothing said, and the status 141 of a process SIGPIPE ended. */
            const int want = SINKS[sink].reason ? 1 : 141;
            if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != want ||
                (SINKS[sink].reason && (!strstr(err, "writing to standard output failed") ||
                                        !strstr(err, SINKS[sink].reason))) ||
                (!SINKS[sink].reason && err[0])) {
                char line[1024];
                snprintf(line, sizeof line,
                         "mmladder %s FILE%s%s > %s: %s %d\n    stderr: %s%s    expected: exit %d, "
                         "%s%s%s\n",
                         cmd[0], cmd[1] ? " " : "", cmd[1] ? cmd[1] : "", SINKS[sink].what,
                         WIFSIGNALED(c.status) ? "killed by signal" : "exit",
                         WIFSIGNALED(c.status) ? WTERMSIG(c.status) : WEXITSTATUS(c.status),
                         err[0] ? err : "(nothing)", err[0] ? "" : "\n", want,
                         SINKS[sink].reason ? "'writing to standard output failed: " : "nothing said",
                         SINKS[sink].reason ? SINKS[sink].reason : "",
                         SINKS[sink].reason ? "'" : "");
                print_message("%s", line);   /* each as it comes: cmocka cuts long messages */
                failures++;
            }
            faults_child_free(&c);
        }
    size_t len1;
    char *after = test_read_file(h5, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);
    if (failures) {
        fail_msg("%d of %d output-error cases wrong (above)", failures, cases);
    }
}

/* ---- 7. a locked results file ------------------------------------------------------------ */

static void locked_file(void **state)
{
    (void)state;
    char h5[300];
    snprintf(h5, sizeof h5, "%s/small.h5", fx.dir);
    faults_make_results(h5);
    size_t len0;
    char *before = test_read_file(h5, &len0);
    int fd = open(h5, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);   /* as HDF5 does for a writer */
    const char *cmds[] = {"info", "export"};
    for (size_t i = 0; i < 2; i++) {
        struct child c;
        int rc = faults_run_mm(&c, &PIPED, 20, cmds[i], h5, (const char *)NULL);
        if (rc != 1 || !strstr(faults_str(&c.err), "locked") || !strstr(faults_str(&c.err), h5))
            fail_msg("%s of a locked file: status %d; stderr: %s (expected 1 and 'locked')",
                     cmds[i], rc, faults_str(&c.err));
        faults_child_free(&c);
    }
    flock(fd, LOCK_UN);
    close(fd);
    struct child c;
    int rc = faults_run_mm(&c, &PIPED, 20, "info", h5, (const char *)NULL);
    if (rc != 0 || !strstr(faults_str(&c.out), "rows: 12 (12 passed"))
        fail_msg("info after unlocking: status %d; stderr: %s", rc, faults_str(&c.err));
    faults_child_free(&c);
    size_t len1;
    char *after = test_read_file(h5, &len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);
}

/* ---- 8. compare of a killed run --------------------------------------------------------- */

/* A killed run's work file: compare refuses it (exit 4, saying why) unless
 * told to read it anyway, and then warns of it, whichever side it is on. */
static void compare_warns_of_an_incomplete_file(void **state)
{
    (void)state;
    char good[300], killed[600], exp[300];
    snprintf(good, sizeof good, "%s/complete.h5", fx.dir);
    snprintf(killed, sizeof killed, "%s/killed.h5", fx.dir);
    snprintf(exp, sizeof exp, "%s/k.ini", fx.dir);
    faults_make_results(good);
    faults_write_host_experiment(exp, 1000, "4 5 6 7 8 9 10 11 12 13");
    struct child c;
    const char *args[] = {"run", exp, "-o", killed, NULL};
    faults_child_start(&c, &PIPED, args);
    faults_child_wait_output(&c, "[1/60] ", 20);
    kill(c.pid, SIGKILL);
    faults_child_wait(&c, 20);
    assert_true(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGKILL);
    faults_child_free(&c);
    assert_int_equal(access(killed, F_OK), -1);
    char work[600];
    assert_int_equal(test_work_files(killed, work, sizeof work), 1);
    snprintf(killed, sizeof killed, "%s", work);
    struct results_file f;
    faults_read_file_or_fail("the killed run", killed, &f);
    faults_check_file("the killed run", killed, &f, 60);
    assert_int_equal(f.complete, 0);
    assert_true(f.n_rows >= 1);
    results_file_free(&f);

    const char *orders[2][2] = {{killed, good}, {good, killed}};
    for (int i = 0; i < 2; i++) {
        int rc = faults_run_mm(&c, &PIPED, 20, "compare", orders[i][0], orders[i][1], (const char *)NULL);
        char refused[700];
        snprintf(refused, sizeof refused, "%s is incomplete: it holds", killed);
        if (rc != 4 || !strstr(faults_str(&c.err), refused) || faults_str(&c.out)[0])
            fail_msg("compare %s %s: status %d; stderr: %s (expected 4, '%s' and nothing on "
                     "stdout)", orders[i][0], orders[i][1], rc, faults_str(&c.err), refused);
        faults_child_free(&c);
        rc = faults_run_mm(&c, &PIPED, 20, "compare", orders[i][0], orders[i][1], "--allow-incomplete",
                    (const char *)NULL);
        char warn_k[700], warn_g[400];
        snprintf(warn_k, sizeof warn_k, "warning: %s is incomplete", killed);
        snprintf(warn_g, sizeof warn_g, "warning: %s is incomplete", good);
        if (rc != 0 || !strstr(faults_str(&c.err), warn_k) || strstr(faults_str(&c.err), warn_g) ||
            !strstr(faults_str(&c.out), "host (rung, shape) pairs reported"))
            fail_msg("compare %s %s: status %d; stderr: %s (expected 0 and '%s')", orders[i][0],
                     orders[i][1], rc, faults_str(&c.err), warn_k);
        faults_child_free(&c);
    }
}

/* ---- 9. a FIFO in place of a file --------------------------------------------------------- */

/* Command lines, with FIFO, GOOD (a sound results file) and OUT (a new file's
 * path) standing for the paths. */
static const char *const FIFO_CASES[][5] = {
    {"run", "FIFO", "-o", "OUT", NULL},
    {"plan", "FIFO", NULL},
    {"list", "FIFO", NULL},
    {"info", "FIFO", NULL},
    {"export", "FIFO", NULL},
    {"export", "FIFO", "--attrs", NULL},
    {"compare", "FIFO", "GOOD", NULL},
    {"compare", "GOOD", "FIFO", NULL},
};

static void fifo_is_refused_at_once(void **state)
{
    (void)state;
    char fifo[300], good[300], outdir[300];
    snprintf(fifo, sizeof fifo, "%s/pipe.ini", fx.dir);
    snprintf(good, sizeof good, "%s/small.h5", fx.dir);
    snprintf(outdir, sizeof outdir, "%s/out", fx.dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(outdir, 0755), 0);
    faults_make_results(good);
    char out[320];
    snprintf(out, sizeof out, "%s/r.h5", outdir);
    for (size_t i = 0; i < sizeof FIFO_CASES / sizeof FIFO_CASES[0]; i++) {
        const char *args[5] = {NULL};
        for (size_t k = 0; k < 4 && FIFO_CASES[i][k]; k++) {
            const char *a = FIFO_CASES[i][k];
            args[k] = !strcmp(a, "FIFO") ? fifo : !strcmp(a, "GOOD") ? good : !strcmp(a, "OUT") ? out : a;
        }
        struct child c;
        faults_child_start(&c, &PIPED, args);
        faults_child_wait(&c, 5);   /* never blocking: a hang fails here */
        const double took = c.t_exit - c.t0;
        if (faults_code_of(c.status) != 1 || !strstr(faults_str(&c.err), "FIFO") || took > 1.0)
            fail_msg("%s with a FIFO (case %zu): status %d after %.3f s; stderr: %s (expected 1 "
                     "within 1 s, naming a FIFO)", args[0], i, faults_code_of(c.status), took, faults_str(&c.err));
        faults_child_free(&c);
    }
    char names[4][256];
    assert_int_equal(faults_list_dir(outdir, names, 4), 0);
    assert_int_equal(faults_build_files(fx.tmp, NULL, 0, NULL), 0);
}

/* ---- 10. the parser's limits ------------------------------------------------------------- */

struct parse_case {
    const char *what;
    int long_line;          /* length of the description line (CRLF ends), 0: none */
    const char *sampling;   /* [sampling]'s key on line 5, when there is no long line */
    const char *cmd;
    int status;
    const char *expect;     /* in stderr ("%s" is the file), or NULL */
};
static const struct parse_case PARSE_CASES[] = {
    {"a 198-character line ending in CRLF", 198, "", "plan", 0, NULL},
    {"a 198-character line ending in CRLF", 198, "", "run", 0, NULL},
    {"a 199-character line ending in CRLF", 199, "", "plan", 1, "%s:4: line longer than 198"},
    {"host_min_samples = 1000000000", 0, "host_min_samples = 1000000000", "plan", 1,
     "%s:5: [sampling] host_min_samples: '1000000000' is too large"},
    {"host_min_samples = 1000000000", 0, "host_min_samples = 1000000000", "run", 1,
     "%s:5: [sampling] host_min_samples: '1000000000' is too large"},
    {"host_max_samples = 1000001", 0, "host_max_samples = 1000001", "run", 1,
     "%s:5: [sampling] host_max_samples: '1000001' is too large"},
};

static void parser_limits(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PARSE_CASES / sizeof PARSE_CASES[0]; i++) {
        const struct parse_case *pc = &PARSE_CASES[i];
        char exp[300], out[300], text[2048], desc[512] = "";
        snprintf(exp, sizeof exp, "%s/p%zu.ini", fx.dir, i);
        snprintf(out, sizeof out, "%s/p%zu.h5", fx.dir, i);
        if (pc->long_line) {
            int k = snprintf(desc, sizeof desc, "description = ");
            memset(desc + k, 'x', (size_t)pc->long_line - (size_t)k);
            desc[pc->long_line] = '\0';
        }
        /* The long line is line 4 (CRLF ends throughout); the sampling key line 5. */
        if (pc->long_line)
            snprintf(text, sizeof text,
                     "[experiment]\r\nname = parse\r\nseed = 1\r\n%s\r\n[sampling]\r\n"
                     "host_min_samples = 3\r\nhost_min_time_ms = 0.001\r\n[h]\r\n"
                     "variants = host_naive\r\nsizes = 8\r\nopt_levels = 1\r\n", desc);
        else
            snprintf(text, sizeof text,
                     "[experiment]\nname = parse\nseed = 1\n[sampling]\n%s\n"
                     "host_min_time_ms = 0.001\n[h]\nvariants = host_naive\nsizes = 8\n"
                     "opt_levels = 1\n", pc->sampling);
        test_write_file(exp, text);
        struct child c;
        int rc = !strcmp(pc->cmd, "run")
                     ? faults_run_mm(&c, &PIPED, 30, "run", exp, "-o", out, (const char *)NULL)
                     : faults_run_mm(&c, &PIPED, 30, pc->cmd, exp, (const char *)NULL);
        char expect[600] = "";
        if (pc->expect) snprintf(expect, sizeof expect, pc->expect, exp);
        if (rc != pc->status || (pc->expect && !strstr(faults_str(&c.err), expect)))
            fail_msg("%s, %s: status %d; stderr: %s (expected %d%s%s)", pc->what, pc->cmd, rc,
                     faults_str(&c.err), pc->status, pc->expect ? " and " : "", expect);
        const int made = access(out, F_OK) == 0;
        if (!strcmp(pc->cmd, "run") && made != (pc->status == 0))
            fail_msg("%s, run: status %d, and the file is %s", pc->what, rc, made ? "there" : "absent");
        if (made) {
            struct results_file f;
            faults_read_file_or_fail(pc->what, out, &f);
            faults_check_file(pc->what, out, &f, 1);
            assert_int_equal(f.complete, 1);
            results_file_free(&f);
            unlink(out);
        }
        faults_child_free(&c);
    }
}

const struct CMUnitTest faults_io_tests[] = {
    T(long_paths),
    T(concurrent_runs_into_one_folder),
    T(output_errors),
    T(locked_file),
    T(compare_warns_of_an_incomplete_file),
    T(fifo_is_refused_at_once),
    T(parser_limits),
};
const size_t faults_io_tests_count = sizeof faults_io_tests / sizeof faults_io_tests[0];
