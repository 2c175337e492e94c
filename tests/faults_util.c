/* The helpers of the fault tests (tests/faults_parts.h): the test's folder and
 * its teardown, children started, read and reaped, files and folders looked at,
 * experiments written.  The tests are tests/test_faults_kills.c's (runs killed
 * at random moments, an interrupt during a long stage of one point, full disks)
 * and tests/test_faults_io.c's (long paths, concurrent runs into one folder,
 * errors writing standard output, a locked results file, compare of a killed
 * run, FIFOs in place of files, the parser's limits).  Each case asserts the
 * exit status, the message and what is on disk afterwards.
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
#include "faults_parts.h"

/* ---- the test's folder ------------------------------------------------------- */

struct fixture fx;

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
void faults_remove_tree_at(int parent, const char *name)
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
            faults_remove_tree_at(dirfd(d), e->d_name);
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

int faults_setup(void **state)
{
    (void)state;
    memset(&fx, 0, sizeof fx);
    test_tmpdir(fx.dir, sizeof fx.dir);
    snprintf(fx.tmp, sizeof fx.tmp, "%s/tmp", fx.dir);
    return mkdir(fx.tmp, 0700);
}

int faults_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i]) {
            kill(live[i], SIGKILL);
            waitpid(live[i], NULL, 0);
            live[i] = 0;
        }
    unmount_fx();
    faults_remove_tree_at(AT_FDCWD, fx.dir);   /* long-path trees first */
    test_rmtree(fx.dir);
    return 0;
}

/* ---- time, text --------------------------------------------------------------- */

double faults_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void faults_sleep_s(double s)
{
    if (s <= 0) return;
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

void faults_text_add(struct text *t, const char *p, size_t k)
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

const char *faults_str(const struct text *t) { return t->s ? t->s : ""; }

/* ---- children ------------------------------------------------------------------ */

void faults_child_free(struct child *c)
{
    free(c->out.s);
    free(c->err.s);
    memset(c, 0, sizeof *c);
}

/* Start mmladder with args (NULL-terminated, without the program) as h says. */
void faults_child_start(struct child *c, const struct how *h, const char *const *args)
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
    c->t0 = faults_now_s();
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
void faults_child_pump(struct child *c, int ms)
{
    struct pollfd p[2];
    int *fds[2];
    nfds_t n = 0;
    if (c->fd_out >= 0) fds[n] = &c->fd_out, p[n++] = (struct pollfd){c->fd_out, POLLIN, 0};
    if (c->fd_err >= 0) fds[n] = &c->fd_err, p[n++] = (struct pollfd){c->fd_err, POLLIN, 0};
    if (n == 0) {
        faults_sleep_s(ms / 1e3);
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
                faults_text_add(t, buf, (size_t)k);
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

int faults_child_poll_exit(struct child *c)
{
    if (c->reaped) return 1;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r != c->pid) return 0;
    c->t_exit = faults_now_s();
    c->status = st;
    c->reaped = 1;
    live_remove(c->pid);
    return 1;
}

/* Wait for the child, at most limit_s: a hang is killed and fails the test. */
void faults_child_wait(struct child *c, double limit_s)
{
    const double deadline = faults_now_s() + limit_s;
    while (!faults_child_poll_exit(c)) {
        if (faults_now_s() > deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
            live_remove(c->pid);
            fail_msg("mmladder (pid %ld) still running after %.1f s: killed; stderr so far: %s",
                     (long)c->pid, limit_s, faults_str(&c->err));
        }
        faults_child_pump(c, 1);
    }
    /* The pipes' last words (the program has gone: EOF comes at once). */
    const double drain = faults_now_s() + 5;
    while ((c->fd_out >= 0 || c->fd_err >= 0) && faults_now_s() < drain) faults_child_pump(c, 10);
    if (c->fd_out >= 0) close(c->fd_out);
    if (c->fd_err >= 0) close(c->fd_err);
    c->fd_out = c->fd_err = -1;
}

/* Keep reading the pipes until time t (monotonic seconds). */
void faults_child_pump_until(struct child *c, double t)
{
    for (double d; (d = t - faults_now_s()) > 0;) faults_child_pump(c, d > 0.002 ? 1 : 0);
}

/* Keep reading until stdout holds needle; a child that exits or takes longer
 * than limit_s fails the test. */
void faults_child_wait_output(struct child *c, const char *needle, double limit_s)
{
    const double deadline = faults_now_s() + limit_s;
    while (!strstr(faults_str(&c->out), needle)) {
        if (faults_child_poll_exit(c))
            fail_msg("mmladder exited (status 0x%x) before printing '%s'; stdout: %s; stderr: %s",
                     c->status, needle, faults_str(&c->out), faults_str(&c->err));
        if (faults_now_s() > deadline) {
            kill(c->pid, SIGKILL);
            fail_msg("no '%s' from mmladder after %.1f s; stdout: %s", needle, limit_s, faults_str(&c->out));
        }
        faults_child_pump(c, 1);
    }
}

/* Exit code, or 128 + the signal that ended it. */
int faults_code_of(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Run mmladder to the end (args NULL-terminated); its exit code. */
int faults_run_mm(struct child *c, const struct how *h, double limit_s, ...)
{
    const char *args[20];
    size_t n = 0;
    va_list ap;
    va_start(ap, limit_s);
    for (const char *a; n + 1 < sizeof args / sizeof args[0] && (a = va_arg(ap, const char *));)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    faults_child_start(c, h, args);
    faults_child_wait(c, limit_s);
    return faults_code_of(c->status);
}

/* ---- files and folders --------------------------------------------------------- */

/* The names in a folder (not . and ..), up to max; returns how many there are. */
size_t faults_list_fd(int fd, char (*names)[256], size_t max)
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
size_t faults_default_stem(const char *name, const char *exp, int *k)
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

size_t faults_list_dir(const char *dir, char (*names)[256], size_t max)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) fail_msg("%s: %s", dir, strerror(errno));
    size_t n = faults_list_fd(fd, names, max);
    close(fd);
    return n;
}

/* Open a folder by a path of any length, a component at a time. */
int faults_open_long_dir(const char *path)
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
size_t faults_build_files(const char *dir, size_t *dead, pid_t pid, size_t *of_pid)
{
    char names[64][256];
    size_t n = faults_list_dir(dir, names, 64), found = 0;
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

char *faults_read_or_empty(const char *path)
{
    char *s = test_read_file(path, NULL);
    if (!s) s = calloc(1, 1);
    if (!s) abort();
    return s;
}

/* Progress lines ("[3/60] host_naive ...") in a run's stdout. */
size_t faults_progress_lines(const char *out)
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
int faults_summary_of(const char *out, char *path, size_t len, size_t *x, size_t *n)
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
int faults_interrupt_message(const char *err, size_t *x, size_t *n, char *path, size_t len)
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
int faults_file_problem(const char *what, const char *path, const struct results_file *f,
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

void faults_check_file(const char *what, const char *path, const struct results_file *f,
                       size_t planned)
{
    char why[2048];
    if (faults_file_problem(what, path, f, planned, why, sizeof why)) fail_msg("%s", why);
}

void faults_read_file_or_fail(const char *what, const char *path, struct results_file *f)
{
    char err[PATH_MAX + 512];
    if (results_read(path, f, err, sizeof err) != 0)
        fail_msg("%s: results_read(%s) failed: %s", what, path, err);
}

/* ---- experiments ------------------------------------------------------------------ */

/* Host rungs at every -O, S samples per point exactly; 6 points per size. */
void faults_write_host_experiment(const char *path, int samples, const char *sizes)
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

size_t faults_count_words(const char *s)
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
void faults_make_results(const char *path)
{
    char exp[300];
    snprintf(exp, sizeof exp, "%s/small.ini", fx.dir);
    faults_write_host_experiment(exp, 3, "4 5");
    struct child c;
    int rc = faults_run_mm(&c, &PIPED, 30, "run", exp, "-o", path, (const char *)NULL);
    if (rc != 0) fail_msg("making %s: exit %d: %s", path, rc, faults_str(&c.err));
    faults_child_free(&c);
}

/* A run whose samples are all there: then no mmladder-build-* file of a dead
 * process may be left in the children's TMPDIR (each run removes those). */
void faults_assert_no_stale_builds(const char *what)
{
    char exp[300], out[300];
    snprintf(exp, sizeof exp, "%s/sweep.ini", fx.dir);
    snprintf(out, sizeof out, "%s/sweep.h5", fx.dir);
    faults_write_host_experiment(exp, 1, "4");
    struct child c;
    int rc = faults_run_mm(&c, &PIPED, 30, "run", exp, "-o", out, (const char *)NULL);
    if (rc != 0) fail_msg("%s: a clean run after the trials exited %d: %s", what, rc, faults_str(&c.err));
    faults_child_free(&c);
    unlink(out);
    size_t dead = 0, n = faults_build_files(fx.tmp, &dead, 0, NULL);
    if (n)
        fail_msg("%s: %zu mmladder-build-* files left in TMPDIR %s (%zu of dead processes)", what,
                 n, fx.tmp, dead);
}
