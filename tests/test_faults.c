/* Faults, end to end, on the CPU (host rungs only): runs killed at random
 * moments (SIGKILL, SIGINT, SIGTERM) and at the moment between the last point
 * and the end of the run, an interrupt during a long stage of one point, a full
 * disk (RLIMIT_FSIZE; a full tmpfs when root may mount one), long paths,
 * concurrent runs into one folder, errors writing standard output, a locked
 * results file, compare of a killed run, FIFOs in place of files, and the
 * parser's limits.  Each case asserts the exit status, the message and what is
 * on disk afterwards.
 *
 * The children run with TMPDIR set to a fresh folder of the test (where the
 * harness makes its files before publishing them), so that no mmladder-build-*
 * file of a dead process can hide among others.
 *
 * A SIGINT or SIGTERM that comes before the run begins ends it with nothing
 * written: by the signal's default action while the process starts (no file, no
 * build file, no message), or, once `run` has set its handlers (the first thing
 * it does), with exit 130 and "interrupted before the run began; no file was
 * written".  Both are counted as "before the handlers".
 *
 * Environment:
 *   MM_FAULT_TRIALS=N   N SIGKILL trials per sample count, and N/2 (rounded up)
 *                       per SIGINT and SIGTERM combination (default 12 and 6)
 *   MM_FAULT_SEED=S     the seed of the random kill moments (printed every run) */
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

/* ---- the test's folder ------------------------------------------------------- */

struct fixture {
    char dir[256];    /* everything of the test: experiments, outputs, logs */
    char tmp[300];    /* the children's TMPDIR */
    char mnt[300];    /* a tmpfs mounted here by the test, or "" */
};
static struct fixture fx;

enum { MAX_LIVE = 16 };
static pid_t live[MAX_LIVE];   /* children not yet reaped: killed by the teardown */

static void live_add(pid_t p)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live[i]) {
            live[i] = p;
            return;
        }
}

static void live_remove(pid_t p)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == p) live[i] = 0;
}

/* Remove a folder tree through descriptors, for trees whose paths are longer
 * than PATH_MAX (which nftw, and so test_rmtree, cannot walk). */
static void remove_tree_at(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        unlinkat(parent, name, 0);
        return;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)
            remove_tree_at(dirfd(d), e->d_name);
        else
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR);
}

static void unmount_fx(void)
{
    if (!fx.mnt[0]) return;
    if (umount2(fx.mnt, 0) != 0) umount2(fx.mnt, MNT_DETACH);
    fx.mnt[0] = '\0';
}

static int setup(void **state)
{
    (void)state;
    memset(&fx, 0, sizeof fx);
    test_tmpdir(fx.dir, sizeof fx.dir);
    snprintf(fx.tmp, sizeof fx.tmp, "%s/tmp", fx.dir);
    return mkdir(fx.tmp, 0700);
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i]) {
            kill(live[i], SIGKILL);
            waitpid(live[i], NULL, 0);
            live[i] = 0;
        }
    unmount_fx();
    remove_tree_at(AT_FDCWD, fx.dir);   /* long-path trees first */
    test_rmtree(fx.dir);
    return 0;
}

/* ---- time, text --------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_s(double s)
{
    if (s <= 0) return;
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

struct text {
    char *s;
    size_t n, cap;
};

static void text_add(struct text *t, const char *p, size_t k)
{
    if (t->n + k + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->n + k + 1) cap *= 2;
        t->s = realloc(t->s, cap);
        if (!t->s) abort();
        t->cap = cap;
    }
    memcpy(t->s + t->n, p, k);
    t->n += k;
    t->s[t->n] = '\0';
}

static const char *str(const struct text *t) { return t->s ? t->s : ""; }

/* ---- children ------------------------------------------------------------------ */

struct how {
    const char *out_file;   /* stdout into this new file; NULL: a pipe, captured */
    int out_fd;             /* > 0: stdout is this descriptor instead */
    rlim_t fsize;           /* RLIMIT_FSIZE in bytes; 0: unlimited */
    const char *tmpdir;     /* the child's TMPDIR; NULL: fx.tmp */
};
#define HOW(...) ((struct how){__VA_ARGS__})
static const struct how PIPED = {0};   /* stdout and stderr captured, no limit */

struct child {
    pid_t pid;
    double t0, t_exit;      /* started; reaped */
    int fd_out, fd_err;     /* read ends of the pipes, -1 when closed */
    struct text out, err;   /* stdout (when piped) and stderr */
    int status, reaped;
};

static void child_free(struct child *c)
{
    free(c->out.s);
    free(c->err.s);
    memset(c, 0, sizeof *c);
}

/* Start mmladder with args (NULL-terminated, without the program) as h says. */
static void child_start(struct child *c, const struct how *h, const char *const *args)
{
    memset(c, 0, sizeof *c);
    c->fd_out = c->fd_err = -1;
    const char *argv[24];
    size_t n = 0;
    argv[n++] = test_binary();
    for (size_t i = 0; args[i] && n + 1 < sizeof argv / sizeof argv[0]; i++) argv[n++] = args[i];
    argv[n] = NULL;
    int pe[2], po[2] = {-1, -1};
    const int pipe_out = !h->out_file && h->out_fd <= 0;
    if (pipe2(pe, O_CLOEXEC) != 0 || (pipe_out && pipe2(po, O_CLOEXEC) != 0)) fail_msg("pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    c->t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        setenv("TMPDIR", h->tmpdir ? h->tmpdir : fx.tmp, 1);
        /* What the program does about these signals is its own business. */
        const int sigs[] = {SIGINT, SIGTERM, SIGPIPE, SIGXFSZ};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int fo = h->out_fd > 0  ? h->out_fd
                 : pipe_out     ? po[1]
                                : open(h->out_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0) _exit(126);
        if (h->fsize) {
            struct rlimit rl = {h->fsize, h->fsize};
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(126);
        }
        if (dup2(fo, 1) < 0 || dup2(pe[1], 2) < 0) _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    live_add(pid);
    c->pid = pid;
    close(pe[1]);
    c->fd_err = pe[0];
    fcntl(c->fd_err, F_SETFL, O_NONBLOCK);
    if (pipe_out) {
        close(po[1]);
        c->fd_out = po[0];
        fcntl(c->fd_out, F_SETFL, O_NONBLOCK);
    }
}

/* Read what the pipes hold, waiting up to ms for something to come. */
static void child_pump(struct child *c, int ms)
{
    struct pollfd p[2];
    int *fds[2];
    nfds_t n = 0;
    if (c->fd_out >= 0) fds[n] = &c->fd_out, p[n++] = (struct pollfd){c->fd_out, POLLIN, 0};
    if (c->fd_err >= 0) fds[n] = &c->fd_err, p[n++] = (struct pollfd){c->fd_err, POLLIN, 0};
    if (n == 0) {
        sleep_s(ms / 1e3);
        return;
    }
    if (poll(p, n, ms) <= 0) return;
    for (nfds_t i = 0; i < n; i++) {
        if (!p[i].revents) continue;
        struct text *t = *fds[i] == c->fd_out ? &c->out : &c->err;
        char buf[65536];
        for (;;) {
            ssize_t k = read(*fds[i], buf, sizeof buf);
            if (k > 0) {
                text_add(t, buf, (size_t)k);
                continue;
            }
            if (k < 0 && errno == EINTR) continue;
            if (k == 0 || errno != EAGAIN) {
                close(*fds[i]);
                *fds[i] = -1;
            }
            break;
        }
    }
}

static int child_poll_exit(struct child *c)
{
    if (c->reaped) return 1;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r != c->pid) return 0;
    c->t_exit = now_s();
    c->status = st;
    c->reaped = 1;
    live_remove(c->pid);
    return 1;
}

/* Wait for the child, at most limit_s: a hang is killed and fails the test. */
static void child_wait(struct child *c, double limit_s)
{
    const double deadline = now_s() + limit_s;
    while (!child_poll_exit(c)) {
        if (now_s() > deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
            live_remove(c->pid);
            fail_msg("mmladder (pid %ld) still running after %.1f s: killed; stderr so far: %s",
                     (long)c->pid, limit_s, str(&c->err));
        }
        child_pump(c, 1);
    }
    /* The pipes' last words (the program has gone: EOF comes at once). */
    const double drain = now_s() + 5;
    while ((c->fd_out >= 0 || c->fd_err >= 0) && now_s() < drain) child_pump(c, 10);
    if (c->fd_out >= 0) close(c->fd_out);
    if (c->fd_err >= 0) close(c->fd_err);
    c->fd_out = c->fd_err = -1;
}

/* Keep reading the pipes until time t (monotonic seconds). */
static void child_pump_until(struct child *c, double t)
{
    for (double d; (d = t - now_s()) > 0;) child_pump(c, d > 0.002 ? 1 : 0);
}

/* Keep reading until stdout holds needle; a child that exits or takes longer
 * than limit_s fails the test. */
static void child_wait_output(struct child *c, const char *needle, double limit_s)
{
    const double deadline = now_s() + limit_s;
    while (!strstr(str(&c->out), needle)) {
        if (child_poll_exit(c))
            fail_msg("mmladder exited (status 0x%x) before printing '%s'; stdout: %s; stderr: %s",
                     c->status, needle, str(&c->out), str(&c->err));
        if (now_s() > deadline) {
            kill(c->pid, SIGKILL);
            fail_msg("no '%s' from mmladder after %.1f s; stdout: %s", needle, limit_s, str(&c->out));
        }
        child_pump(c, 1);
    }
}

/* Exit code, or 128 + the signal that ended it. */
static int code_of(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Run mmladder to the end (args NULL-terminated); its exit code. */
static int run_mm(struct child *c, const struct how *h, double limit_s, ...)
{
    const char *args[20];
    size_t n = 0;
    va_list ap;
    va_start(ap, limit_s);
    for (const char *a; n + 1 < sizeof args / sizeof args[0] && (a = va_arg(ap, const char *));)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    child_start(c, h, args);
    child_wait(c, limit_s);
    return code_of(c->status);
}

/* ---- files and folders --------------------------------------------------------- */

/* The names in a folder (not . and ..), up to max; returns how many there are. */
static size_t list_fd(int fd, char (*names)[256], size_t max)
{
    int d2 = dup(fd);
    DIR *d = d2 >= 0 ? fdopendir(d2) : NULL;
    if (!d) fail_msg("listing a folder: %s", strerror(errno));
    rewinddir(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (n < max) snprintf(names[n], 256, "%s", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* A default file name, EXP-DEVICE-YYYYMMDDTHHMMSSZ.h5 or ...Z-K.h5 (K >= 2; DEVICE
 * is "cpu" or the GPU's name): the length of the stem up to the stamp, with K in
 * *k (1 when there is none), or 0 when the name is not of that form. */
static size_t default_stem(const char *name, const char *exp, int *k)
{
    const size_t e = strlen(exp);
    *k = 1;
    if (strncmp(name, exp, e) || name[e] != '-') return 0;
    const char *z = strrchr(name, 'Z');   /* the stamp's end */
    if (!z || z - name < (ptrdiff_t)(e + 18)) return 0;
    const char *t = z - 15;   /* "-YYYYMMDDTHHMMSSZ" */
    if (t[-1] != '-' || t[8] != 'T') return 0;
    for (int i = 0; i < 15; i++)
        if (i != 8 && !isdigit((unsigned char)t[i])) return 0;
    const char *rest = z + 1;
    if (strcmp(rest, ".h5") && (sscanf(rest, "-%d.h5", k) != 1 || *k < 2)) return 0;
    return (size_t)(z + 1 - name);
}

static size_t list_dir(const char *dir, char (*names)[256], size_t max)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fail_msg("%s: %s", dir, strerror(errno));
    size_t n = list_fd(fd, names, max);
    close(fd);
    return n;
}

/* Open a folder by a path of any length, a component at a time. */
static int open_long_dir(const char *path)
{
    int fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char comp[256];
    for (const char *p = path; fd >= 0 && *p;) {
        while (*p == '/') p++;
        size_t k = strcspn(p, "/");
        if (!k) break;
        if (k >= sizeof comp) {
            close(fd);
            return -1;
        }
        memcpy(comp, p, k);
        comp[k] = '\0';
        int next = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = next;
        p += k;
    }
    return fd;
}

/* Files mmladder makes before publishing them, in its TMPDIR. */
#define BUILD_PREFIX "mmladder-build-"

/* mmladder-build-* files in dir: how many; *dead (if given) how many belong to
 * processes that are gone; *of_pid (if given) how many belong to pid. */
static size_t build_files(const char *dir, size_t *dead, pid_t pid, size_t *of_pid)
{
    char names[64][256];
    size_t n = list_dir(dir, names, 64), found = 0;
    if (dead) *dead = 0;
    if (of_pid) *of_pid = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        if (strncmp(names[i], BUILD_PREFIX, strlen(BUILD_PREFIX)) != 0) continue;
        found++;
        long p = strtol(names[i] + strlen(BUILD_PREFIX), NULL, 10);
        if (dead && p > 0 && kill((pid_t)p, 0) != 0 && errno == ESRCH) ++*dead;
        if (of_pid && p == (long)pid) ++*of_pid;
    }
    return found;
}

static char *read_or_empty(const char *path)
{
    char *s = test_read_file(path, NULL);
    if (!s) s = calloc(1, 1);
    if (!s) abort();
    return s;
}

/* Progress lines ("[3/60] host_naive ...") in a run's stdout. */
static size_t progress_lines(const char *out)
{
    size_t n = 0;
    for (const char *p = out; p && *p;) {
        unsigned a, b;
        char close_br;
        if (sscanf(p, "[%u/%u%c ", &a, &b, &close_br) == 3 && close_br == ']') {
            const char *nl = strchr(p, '\n');
            if (nl) n++;   /* whole lines only */
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return n;
}

/* The stdout summary "PATH: X of N points recorded in ...": 1 with its values, 0
 * when there is none. */
static int summary_of(const char *out, char *path, size_t len, size_t *x, size_t *n)
{
    const char *hit = strstr(out, " points recorded in ");
    if (!hit) return 0;
    const char *line = hit;
    while (line > out && line[-1] != '\n') line--;
    const char *colon = strstr(line, ": ");
    if (!colon || colon > hit) return 0;
    snprintf(path, len, "%.*s", (int)(colon - line), line);
    return sscanf(colon + 2, "%zu of %zu points recorded", x, n) == 2;
}

/* The interrupt message: 1 for "interrupted: kept X of N points in PATH (marked
 * incomplete; ...)" (PATH the run's work file), 2 for "interrupted after the
 * last point: PATH is complete", 3 for "interrupted before the first point was
 * recorded; no file was written", 0 for none. */
static int interrupt_message(const char *err, size_t *x, size_t *n, char *path, size_t len)
{
    const char *k = strstr(err, "interrupted: kept ");
    if (k) {
        int used = 0;
        if (sscanf(k, "interrupted: kept %zu of %zu points in %n", x, n, &used) != 2 || !used)
            return -1;
        const char *end = strstr(k + used, " (marked incomplete;");
        if (!end) return -1;
        snprintf(path, len, "%.*s", (int)(end - (k + used)), k + used);
        return 1;
    }
    if (strstr(err, "interrupted before the first point was recorded; no file was written"))
        return 3;
    const char *c = strstr(err, "interrupted after the last point: ");
    if (c) {
        c += strlen("interrupted after the last point: ");
        const char *end = strstr(c, " is complete");
        if (!end) return -1;
        snprintf(path, len, "%.*s", (int)(end - c), c);
        return 2;
    }
    return 0;
}

/* The invariants of a results file that a run, however it ended, must leave:
 * every row passed; each row's `samples` equals its samples in /samples; no
 * sample beyond the rows; `complete` exactly when every planned point is there;
 * the reader had nothing to repair but a row being recorded and an unclosed
 * writer.  Returns 0, or 1 with what is wrong in why. */
static int file_problem(const char *what, const char *path, const struct results_file *f,
                        size_t planned, char *why, size_t len)
{
    size_t *count = calloc(f->n_rows + 1, sizeof *count);
    if (!count) abort();
    int bad = 0;
    for (size_t i = 0; i < f->n_samples && !bad; i++) {
        const struct sample_row *s = &f->samples[i];
        if (s->row < 0 || (size_t)s->row >= f->n_rows) {
            snprintf(why, len, "%s: %s: sample %zu has row %d, but the file has %zu rows", what,
                     path, i, s->row, f->n_rows);
            bad = 1;
        } else {
            count[s->row]++;
        }
    }
    for (size_t i = 0; i < f->n_rows && !bad; i++) {
        const struct result_row *r = &f->rows[i];
        if (strcmp(r->disposition, "passed") != 0 || (size_t)r->samples != count[i]) {
            snprintf(why, len, "%s: %s: row %zu (%s %dx%dx%d -O%d) is '%s' with samples = %d, "
                     "and /samples holds %zu samples of it (rows %zu, samples %zu, notes '%s')",
                     what, path, i, r->variant, r->M, r->N, r->K, r->opt_level, r->disposition,
                     r->samples, count[i], f->n_rows, f->n_samples, f->notes);
            bad = 1;
        }
    }
    free(count);
    if (!bad && f->complete != (f->n_rows == planned)) {
        snprintf(why, len, "%s: %s: complete = %d with %zu of %zu planned rows (notes '%s')",
                 what, path, f->complete, f->n_rows, planned, f->notes);
        bad = 1;
    }
    const char *repairs[] = {"damaged", "lack some", "of no recorded row", "amid committed rows"};
    for (size_t i = 0; i < sizeof repairs / sizeof repairs[0] && !bad; i++)
        if (strstr(f->notes, repairs[i])) {
            snprintf(why, len, "%s: %s: the reader had to repair it: %s", what, path, f->notes);
            bad = 1;
        }
    return bad;
}

static void check_file(const char *what, const char *path, const struct results_file *f,
                       size_t planned)
{
    char why[2048];
    if (file_problem(what, path, f, planned, why, sizeof why)) fail_msg("%s", why);
}

static void read_file_or_fail(const char *what, const char *path, struct results_file *f)
{
    char err[PATH_MAX + 512];
    if (results_read(path, f, err, sizeof err) != 0)
        fail_msg("%s: results_read(%s) failed: %s", what, path, err);
}

/* ---- experiments ------------------------------------------------------------------ */

/* Host rungs at every -O, S samples per point exactly; 6 points per size. */
static void write_host_experiment(const char *path, int samples, const char *sizes)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[experiment]\nname = faults\nseed = 7\n"
             "[sampling]\nhost_min_samples = %d\nhost_max_samples = %d\n"
             "host_min_time_ms = 0.001\nhost_timeout_ms = 1000000\n"
             "[h]\nvariants = host_naive host_restrict\nsizes = %s\nopt_levels = 1 2 3\n",
             samples, samples, sizes);
    test_write_file(path, text);
}

static size_t count_words(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p;) {
        while (*p == ' ') p++;
        if (!*p) break;
        n++;
        while (*p && *p != ' ') p++;
    }
    return n;
}

/* A small complete results file at path (12 points, 3 samples each). */
static void make_results(const char *path)
{
    char exp[300];
    snprintf(exp, sizeof exp, "%s/small.ini", fx.dir);
    write_host_experiment(exp, 3, "4 5");
    struct child c;
    int rc = run_mm(&c, &PIPED, 30, "run", exp, "-o", path, (const char *)NULL);
    if (rc != 0) fail_msg("making %s: exit %d: %s", path, rc, str(&c.err));
    child_free(&c);
}

/* A run whose samples are all there: then no mmladder-build-* file of a dead
 * process may be left in the children's TMPDIR (each run removes those). */
static void assert_no_stale_builds(const char *what)
{
    char exp[300], out[300];
    snprintf(exp, sizeof exp, "%s/sweep.ini", fx.dir);
    snprintf(out, sizeof out, "%s/sweep.h5", fx.dir);
    write_host_experiment(exp, 1, "4");
    struct child c;
    int rc = run_mm(&c, &PIPED, 30, "run", exp, "-o", out, (const char *)NULL);
    if (rc != 0) fail_msg("%s: a clean run after the trials exited %d: %s", what, rc, str(&c.err));
    child_free(&c);
    unlink(out);
    size_t dead = 0, n = build_files(fx.tmp, &dead, 0, NULL);
    if (n)
        fail_msg("%s: %zu mmladder-build-* files left in TMPDIR %s (%zu of dead processes)", what,
                 n, fx.tmp, dead);
}

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
                        : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(now_s() * 1e9);
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
    write_host_experiment(exp, LOADS[k].samples, LOADS[k].sizes);
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
    const size_t planned = 6 * count_words(LOADS[k].sizes);
    double best = 0, times[2];
    for (int i = 0; i < 2; i++) {
        struct child c;
        int rc = run_mm(&c, &HOW(.out_file = log), 60, "run", exp, "-o", out, (const char *)NULL);
        if (rc != 0) fail_msg("%s: exit %d: %s", what, rc, str(&c.err));
        struct results_file f;
        read_file_or_fail(what, out, &f);
        check_file(what, out, &f, planned);
        assert_int_equal(f.n_rows, planned);
        assert_int_equal(f.complete, 1);
        assert_int_equal(f.n_samples, planned * (size_t)LOADS[k].samples);
        results_file_free(&f);
        char *text = read_or_empty(log);
        assert_int_equal(progress_lines(text), planned);
        free(text);
        times[i] = c.t_exit - c.t0;
        if (i == 0 || times[i] < best) best = times[i];
        child_free(&c);
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
    text_add(&t->failures, buf, strlen(buf));
    text_add(&t->failures, "\n", 1);
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
    const size_t planned = 6 * count_words(LOADS[k].sizes);
    if (mkdir(outdir, 0755) != 0) fail_msg("%s: %s", outdir, strerror(errno));

    struct child c;
    const char *args[] = {"run", exp, "-o", path, NULL};
    if (delay >= 0) {
        child_start(&c, &HOW(.out_file = log), args);
        child_pump_until(&c, c.t0 + delay);
    } else {
        /* At the last progress line (every point on disk, the run not yet
         * ended): stdout on a pipe, so that the signal follows the line within
         * microseconds. */
        child_start(&c, &PIPED, args);
        char last[48];
        snprintf(last, sizeof last, "[%zu/%zu] ", planned, planned);
        while (!strstr(str(&c.out), last)) {
            if (child_poll_exit(&c) || now_s() - c.t0 > 20)
                fail_msg("%s, %d samples per point: no '%s' line seen (status 0x%x)",
                         signame(sig), LOADS[k].samples, last, c.status);
            child_pump(&c, 1);
        }
    }
    kill(c.pid, sig);
    const double t_sig = now_s();
    child_wait(&c, 20);
    const double latency = c.t_exit - t_sig;
    snprintf(what, sizeof what, "%s, %d samples per point, trial %d (signal %.3f s after the "
             "start, exit %.3f s after it)", signame(sig), LOADS[k].samples, trial,
             t_sig - c.t0, latency);
    t->trials++;
    if (latency > t->max_latency) t->max_latency = latency;

    char *out = delay >= 0 ? read_or_empty(log) : strdup(str(&c.out));
    struct results_file f = {0};
    const size_t lines = progress_lines(out);
    const char *err = str(&c.err);
    const int st = c.status;

    /* Nothing in the output folder but the results file: under its name once
     * the run has ended, else under its work name (r.h5.HOST.PID.part). */
    char names[8][256], mine_suffix[64];
    snprintf(mine_suffix, sizeof mine_suffix, ".%ld.part", (long)c.pid);
    size_t n_names = list_dir(outdir, names, 8);
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
    build_files(fx.tmp, NULL, c.pid, &mine);
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
        if (file_problem(what, path, &f, planned, why, sizeof why)) TRIAL_FAIL("%s", why);
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
    if (summary_of(out, spath, sizeof spath, &sx, &sn)) {
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
                     code_of(st), err);
        }
    } else {
        if (latency > 1.5) TRIAL_FAIL("%s: exited %.3f s after the signal (at most 1.5 s)", what, latency);
        if (mine) TRIAL_FAIL("%s: its mmladder-build-* file is left in %s", what, fx.tmp);
        size_t x = 0, n = 0;
        char mpath[PATH_MAX];
        const int kind = interrupt_message(err, &x, &n, mpath, sizeof mpath);
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
                     code_of(st), err);
        }
    }
done:
    results_file_free(&f);
    free(out);
    child_free(&c);
    unlink(log);
    test_rmtree(outdir);
}

static void kills(int sig)
{
    rng_seed_once();
    const int trials = trials_for(sig);
    const double t0 = now_s();
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
        if (t.failures.n) text_add(&failures, t.failures.s, t.failures.n);
        free(t.failures.s);
    }
    char what[64];
    snprintf(what, sizeof what, "after the %s trials", signame(sig));
    assert_no_stale_builds(what);
    print_message("faults: %s trials took %.1f s\n", signame(sig), now_s() - t0);
    if (failed) {
        /* each was printed as it came (cmocka cuts a long failure message short) */
        char first[1024];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(str(&failures), "\n"), str(&failures));
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
        if (t.failures.n) text_add(&failures, t.failures.s, t.failures.n);
        free(t.failures.s);
    }
    if (failed) {
        char first[1024];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(str(&failures), "\n"), str(&failures));
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
        child_start(&c, &PIPED, args);
        double at = c.t0 + lc->delay_s;
        if (lc->after_line) {
            char first[32];
            snprintf(first, sizeof first, "[1/%zu] ", lc->points);
            child_wait_output(&c, first, 20);
            at = now_s() + lc->delay_s;
        }
        child_pump_until(&c, at);
        kill(c.pid, SIGINT);
        const double t_sig = now_s();
        child_wait(&c, 30);
        const double latency = c.t_exit - t_sig;
        const char *err = str(&c.err);
        const size_t lines = progress_lines(str(&c.out));
        print_message("faults: %s: status %d, %.3f s after the signal; %s", lc->what,
                      code_of(c.status), latency, err);
        if (code_of(c.status) != 130 || latency > 1.0)
            fail_msg("%s: status %d, %.3f s after the signal (expected 130 within 1 s); stderr: %s",
                     lc->what, code_of(c.status), latency, err);
        size_t x = 0, n = 0;
        char mpath[PATH_MAX], work[PATH_MAX];
        const int kind = interrupt_message(err, &x, &n, mpath, sizeof mpath);
        const size_t works = test_work_files(path, work, sizeof work);
        if (access(path, F_OK) == 0) fail_msg("%s: the interrupted run's file has its name", lc->what);
        if (lc->points == 1) {
            /* no point recorded: no file */
            if (kind != 3 || works || lines)
                fail_msg("%s: %zu work files, %zu progress lines; stderr: %s (expected none, and "
                         "'interrupted before the first point was recorded')", lc->what, works,
                         lines, err);
            child_free(&c);
            continue;
        }
        if (kind != 1 || works != 1)
            fail_msg("%s: no 'interrupted: kept X of N points in PATH' in stderr, or not one work "
                     "file (%zu): %s", lc->what, works, err);
        snprintf(path, sizeof path, "%s", work);
        struct results_file f;
        read_file_or_fail(lc->what, path, &f);
        check_file(lc->what, path, &f, lc->points);
        if (x != f.n_rows || n != lc->points || strcmp(mpath, path) != 0 || f.complete ||
            f.n_rows != lines || f.n_rows != lc->points - 1 || f.writer_open || f.notes[0])
            fail_msg("%s: stderr 'kept %zu of %zu points in %s', %zu progress lines; the file %s "
                     "has %zu rows, complete = %d, notes '%s' (expected %zu rows)", lc->what, x, n,
                     mpath, lines, path, f.n_rows, f.complete, f.notes, lc->points - 1);
        results_file_free(&f);
        size_t mine = 0;
        build_files(fx.tmp, NULL, c.pid, &mine);
        if (mine) fail_msg("%s: its mmladder-build-* file is left in %s", lc->what, fx.tmp);
        child_free(&c);
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
    write_host_experiment(exp, dc->samples, dc->sizes);
    const size_t planned = 6 * count_words(dc->sizes);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    assert_true(devnull > 0);

    struct child c;
    int rc = run_mm(&c, &HOW(.out_fd = devnull, .fsize = dc->fsize, .tmpdir = tmpdir), 60,
                    "run", exp, "-o", path, (const char *)NULL);
    close(devnull);
    const char *err = str(&c.err);
    print_message("faults: %s: status %d; %s", dc->what, rc, err);
    if (rc != 1 || !strstr(err, path) || !strstr(err, dc->reason))
        fail_msg("%s: status %d, stderr: %s(expected 1 and a message naming %s and '%s')",
                 dc->what, rc, err, path, dc->reason);
    size_t builds = build_files(tmpdir, NULL, 0, NULL);
    if (builds) fail_msg("%s: %zu mmladder-build-* files left in %s", dc->what, builds, tmpdir);
    char names[8][256];
    size_t n_names = list_dir(outdir, names, 8);
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
        read_file_or_fail(dc->what, path, &f);
        check_file(dc->what, path, &f, planned);
        if (f.n_rows != x || f.complete || x == 0)
            fail_msg("%s: stderr says %zu rows are kept; the file has %zu rows, complete = %d",
                     dc->what, x, f.n_rows, f.complete);
        results_file_free(&f);
    }
    child_free(&c);
    /* the teardown unmounts and removes the rest */
}

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
    write_host_experiment(exp, 1, "4 5");
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
        int rc = run_mm(&c, &PIPED, 30, "run", exp, pc->opt, given, (const char *)NULL);
        const char *err = str(&c.err);
        int fd = open_long_dir(folder);
        if (fd < 0) fail_msg("%s: cannot open its folder again: %s", what, strerror(errno));
        char names[4][256];
        size_t n_names = list_fd(fd, names, 4);
        close(fd);
        if (pc->ok) {
            if (rc != 0) fail_msg("%s: status %d; stderr: %.400s", what, rc, err);
            if (n_names != 1) fail_msg("%s: %zu files in its folder (expected 1)", what, n_names);
            int k;
            if (is_o ? strcmp(names[0], "r.h5") != 0 : !default_stem(names[0], "faults", &k))
                fail_msg("%s: wrote '%s'", what, names[0]);
            char path[PATH_MAX + 800];
            snprintf(path, sizeof path, "%s/%s", folder, names[0]);
            if (is_o) assert_string_equal(path, given);
            struct results_file f;
            read_file_or_fail(what, path, &f);
            check_file(what, path, &f, 12);
            assert_int_equal(f.n_rows, 12);
            assert_int_equal(f.complete, 1);
            results_file_free(&f);
            char spath[PATH_MAX + 600];
            size_t x = 0, n = 0;
            if (!summary_of(str(&c.out), spath, sizeof spath, &x, &n) || strcmp(spath, path) != 0 ||
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
        size_t builds = build_files(fx.tmp, NULL, 0, NULL);
        if (builds) fail_msg("%s: %zu mmladder-build-* files left in TMPDIR", what, builds);
        child_free(&c);
        remove_tree_at(AT_FDCWD, base);
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
    write_host_experiment(exp, 1000, "4 5 6 7 8");
    /* Start just after a second begins, so that the default names (to the
     * second) collide. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    sleep_s(1.0 - (double)ts.tv_nsec * 1e-9 + 0.01);
    struct child c[RUNS];
    for (int i = 0; i < RUNS; i++) {
        snprintf(logs[i], sizeof logs[i], "%s/conc%d.log", fx.dir, i);
        const char *args[] = {"run", exp, "-d", dir, NULL};
        child_start(&c[i], &HOW(.out_file = logs[i]), args);
    }
    for (int i = 0; i < RUNS; i++) child_wait(&c[i], 60);
    for (int i = 0; i < RUNS; i++)
        if (code_of(c[i].status) != 0)
            fail_msg("run %d: status %d; stderr: %s", i, code_of(c[i].status), str(&c[i].err));

    char names[8][256];
    size_t n = list_dir(dir, names, 8);
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
        const size_t stem = default_stem(nm, "faults", &k);
        if (!stem) fail_msg("an unexpected name '%s' in %s", nm, dir);
        /* the names of one second are stem.h5, stem-2.h5 ... stem-m.h5 */
        size_t same = 0;
        for (size_t j = 0; j < n; j++)
            same += !strncmp(names[j], nm, stem);
        if ((size_t)k > same) fail_msg("'%s': suffix -%d, but %zu files of that second", nm, k, same);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, nm);
        struct results_file f;
        read_file_or_fail("a concurrent run", path, &f);
        check_file("a concurrent run", path, &f, 30);
        assert_int_equal(f.complete, 1);
        assert_int_equal(f.n_rows, 30);
        results_file_free(&f);
    }
    /* Each run's summary names the file it wrote: the four names, each once. */
    for (int i = 0; i < RUNS; i++) {
        char *out = read_or_empty(logs[i]);
        char spath[PATH_MAX];
        size_t x = 0, m = 0;
        if (!summary_of(out, spath, sizeof spath, &x, &m))
            fail_msg("run %d: no summary on stdout: %s", i, out);
        size_t match = 0;
        for (size_t j = 0; j < n; j++) {
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", dir, names[j]);
            match += !strcmp(path, spath);
        }
        int dup = 0;
        for (int j = 0; j < i; j++) {
            char *o2 = read_or_empty(logs[j]);
            char p2[PATH_MAX];
            size_t x2, m2;
            dup |= summary_of(o2, p2, sizeof p2, &x2, &m2) && !strcmp(p2, spath);
            free(o2);
        }
        if (match != 1 || dup)
            fail_msg("run %d says '%s: %zu of %zu points recorded', %s; the files are:%s", i, spath,
                     x, m, match ? "a file another run also names as its own" : "a file that is not there",
                     listing);
        free(out);
    }
    for (int i = 0; i < RUNS; i++) child_free(&c[i]);
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
    make_results(h5);
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
            child_start(&c, &HOW(.out_fd = fd), args);
            close(fd);
            child_wait(&c, 20);
            cases++;
            const char *err = str(&c.err);
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
            child_free(&c);
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
    make_results(h5);
    size_t len0;
    char *before = test_read_file(h5, &len0);
    int fd = open(h5, O_RDONLY | O_CLOEXEC);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);   /* as HDF5 does for a writer */
    const char *cmds[] = {"info", "export"};
    for (size_t i = 0; i < 2; i++) {
        struct child c;
        int rc = run_mm(&c, &PIPED, 20, cmds[i], h5, (const char *)NULL);
        if (rc != 1 || !strstr(str(&c.err), "locked") || !strstr(str(&c.err), h5))
            fail_msg("%s of a locked file: status %d; stderr: %s (expected 1 and 'locked')",
                     cmds[i], rc, str(&c.err));
        child_free(&c);
    }
    flock(fd, LOCK_UN);
    close(fd);
    struct child c;
    int rc = run_mm(&c, &PIPED, 20, "info", h5, (const char *)NULL);
    if (rc != 0 || !strstr(str(&c.out), "rows: 12 (12 passed"))
        fail_msg("info after unlocking: status %d; stderr: %s", rc, str(&c.err));
    child_free(&c);
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
    make_results(good);
    write_host_experiment(exp, 1000, "4 5 6 7 8 9 10 11 12 13");
    struct child c;
    const char *args[] = {"run", exp, "-o", killed, NULL};
    child_start(&c, &PIPED, args);
    child_wait_output(&c, "[1/60] ", 20);
    kill(c.pid, SIGKILL);
    child_wait(&c, 20);
    assert_true(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGKILL);
    child_free(&c);
    assert_int_equal(access(killed, F_OK), -1);
    char work[600];
    assert_int_equal(test_work_files(killed, work, sizeof work), 1);
    snprintf(killed, sizeof killed, "%s", work);
    struct results_file f;
    read_file_or_fail("the killed run", killed, &f);
    check_file("the killed run", killed, &f, 60);
    assert_int_equal(f.complete, 0);
    assert_true(f.n_rows >= 1);
    results_file_free(&f);

    const char *orders[2][2] = {{killed, good}, {good, killed}};
    for (int i = 0; i < 2; i++) {
        int rc = run_mm(&c, &PIPED, 20, "compare", orders[i][0], orders[i][1], (const char *)NULL);
        char refused[700];
        snprintf(refused, sizeof refused, "%s is incomplete: it holds", killed);
        if (rc != 4 || !strstr(str(&c.err), refused) || str(&c.out)[0])
            fail_msg("compare %s %s: status %d; stderr: %s (expected 4, '%s' and nothing on "
                     "stdout)", orders[i][0], orders[i][1], rc, str(&c.err), refused);
        child_free(&c);
        rc = run_mm(&c, &PIPED, 20, "compare", orders[i][0], orders[i][1], "--allow-incomplete",
                    (const char *)NULL);
        char warn_k[700], warn_g[400];
        snprintf(warn_k, sizeof warn_k, "warning: %s is incomplete", killed);
        snprintf(warn_g, sizeof warn_g, "warning: %s is incomplete", good);
        if (rc != 0 || !strstr(str(&c.err), warn_k) || strstr(str(&c.err), warn_g) ||
            !strstr(str(&c.out), "host (rung, shape) pairs reported"))
            fail_msg("compare %s %s: status %d; stderr: %s (expected 0 and '%s')", orders[i][0],
                     orders[i][1], rc, str(&c.err), warn_k);
        child_free(&c);
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
    make_results(good);
    char out[320];
    snprintf(out, sizeof out, "%s/r.h5", outdir);
    for (size_t i = 0; i < sizeof FIFO_CASES / sizeof FIFO_CASES[0]; i++) {
        const char *args[5] = {NULL};
        for (size_t k = 0; k < 4 && FIFO_CASES[i][k]; k++) {
            const char *a = FIFO_CASES[i][k];
            args[k] = !strcmp(a, "FIFO") ? fifo : !strcmp(a, "GOOD") ? good : !strcmp(a, "OUT") ? out : a;
        }
        struct child c;
        child_start(&c, &PIPED, args);
        child_wait(&c, 5);   /* never blocking: a hang fails here */
        const double took = c.t_exit - c.t0;
        if (code_of(c.status) != 1 || !strstr(str(&c.err), "FIFO") || took > 1.0)
            fail_msg("%s with a FIFO (case %zu): status %d after %.3f s; stderr: %s (expected 1 "
                     "within 1 s, naming a FIFO)", args[0], i, code_of(c.status), took, str(&c.err));
        child_free(&c);
    }
    char names[4][256];
    assert_int_equal(list_dir(outdir, names, 4), 0);
    assert_int_equal(build_files(fx.tmp, NULL, 0, NULL), 0);
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
                     ? run_mm(&c, &PIPED, 30, "run", exp, "-o", out, (const char *)NULL)
                     : run_mm(&c, &PIPED, 30, pc->cmd, exp, (const char *)NULL);
        char expect[600] = "";
        if (pc->expect) snprintf(expect, sizeof expect, pc->expect, exp);
        if (rc != pc->status || (pc->expect && !strstr(str(&c.err), expect)))
            fail_msg("%s, %s: status %d; stderr: %s (expected %d%s%s)", pc->what, pc->cmd, rc,
                     str(&c.err), pc->status, pc->expect ? " and " : "", expect);
        const int made = access(out, F_OK) == 0;
        if (!strcmp(pc->cmd, "run") && made != (pc->status == 0))
            fail_msg("%s, run: status %d, and the file is %s", pc->what, rc, made ? "there" : "absent");
        if (made) {
            struct results_file f;
            read_file_or_fail(pc->what, out, &f);
            check_file(pc->what, out, &f, 1);
            assert_int_equal(f.complete, 1);
            results_file_free(&f);
            unlink(out);
        }
        child_free(&c);
    }
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
const struct CMUnitTest faults_tests[] = {
    T(kill_at_random_moments_sigkill),
    T(kill_at_random_moments_sigint),
    T(kill_at_random_moments_sigterm),
    T(kill_after_the_last_point),
    T(interrupt_during_a_long_stage),
    {"full_disk: RLIMIT_FSIZE 2 KiB", full_disk, setup, teardown, (void *)&DISK_CASES[0]},
    {"full_disk: RLIMIT_FSIZE 200 KiB mid-run", full_disk, setup, teardown, (void *)&DISK_CASES[1]},
    {"full_disk: a full tmpfs", full_disk, setup, teardown, (void *)&DISK_CASES[2]},
    {"full_disk: a tmpfs filled mid-run", full_disk, setup, teardown, (void *)&DISK_CASES[3]},
    T(long_paths),
    T(concurrent_runs_into_one_folder),
    T(output_errors),
    T(locked_file),
    T(compare_warns_of_an_incomplete_file),
    T(fifo_is_refused_at_once),
    T(parser_limits),
};
const size_t faults_tests_count = sizeof faults_tests / sizeof faults_tests[0];
