/* What the fault tests (tests/test_faults_kills.c, tests/test_faults_io.c) share:
 * the test's folder, its children, files and experiments (tests/faults_util.c). */
#ifndef TESTS_FAULTS_PARTS_H
#define TESTS_FAULTS_PARTS_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "results/results.h"
#include "util.h"

/* The test's folder. */
struct fixture {
    char dir[256];    /* everything of the test: experiments, outputs, logs */
    char tmp[300];    /* the children's TMPDIR */
    char mnt[300];    /* a tmpfs mounted here by the test, or "" */
};
extern struct fixture fx;

struct text {
    char *s;
    size_t n, cap;
};

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

/* A test with its folder (faults_setup) and the children it leaves killed
 * (faults_teardown). */
#define T(f) cmocka_unit_test_setup_teardown(f, faults_setup, faults_teardown)

/* Remove a folder tree through descriptors, for trees whose paths are longer
 * than PATH_MAX (which nftw, and so test_rmtree, cannot walk). */
void faults_remove_tree_at(int parent, const char *name);

int faults_setup(void **state);

int faults_teardown(void **state);

void faults_sleep_s(double s);

const char *faults_str(const struct text *t);

void faults_child_free(struct child *c);

/* Start mmladder with args (NULL-terminated, without the program) as h says. */
void faults_child_start(struct child *c, const struct how *h, const char *const *args);

/* Wait for the child, at most limit_s: a hang is killed and fails the test. */
void faults_child_wait(struct child *c, double limit_s);

/* Keep reading until stdout holds needle; a child that exits or takes longer
 * than limit_s fails the test. */
void faults_child_wait_output(struct child *c, const char *needle, double limit_s);

/* Exit code, or 128 + the signal that ended it. */
int faults_code_of(int status);

/* Run mmladder to the end (args NULL-terminated); its exit code. */
int faults_run_mm(struct child *c, const struct how *h, double limit_s, ...);

/* The names in a folder (not . and ..), up to max; returns how many there are. */
size_t faults_list_fd(int fd, char (*names)[256], size_t max);

/* A default file name, EXP-DEVICE-YYYYMMDDTHHMMSSZ.h5 or ...Z-K.h5 (K >= 2; DEVICE
 * is "cpu" or the GPU's name): the length of the stem up to the stamp, with K in
 * *k (1 when there is none), or 0 when the name is not of that form. */
size_t faults_default_stem(const char *name, const char *exp, int *k);

size_t faults_list_dir(const char *dir, char (*names)[256], size_t max);

/* Open a folder by a path of any length, a component at a time. */
int faults_open_long_dir(const char *path);

/* mmladder-build-* files in dir: how many; *dead (if given) how many belong to
 * processes that are gone; *of_pid (if given) how many belong to pid. */
size_t faults_build_files(const char *dir, size_t *dead, pid_t pid, size_t *of_pid);

char *faults_read_or_empty(const char *path);

/* The stdout summary "PATH: X of N points recorded in ...": 1 with its values, 0
 * when there is none. */
int faults_summary_of(const char *out, char *path, size_t len, size_t *x, size_t *n);

void faults_check_file(const char *what, const char *path, const struct results_file *f,
                       size_t planned);

void faults_read_file_or_fail(const char *what, const char *path, struct results_file *f);

/* Host rungs at every -O, S samples per point exactly; 6 points per size. */
void faults_write_host_experiment(const char *path, int samples, const char *sizes);

/* A small complete results file at path (12 points, 3 samples each). */
void faults_make_results(const char *path);

double faults_now_s(void);

void faults_text_add(struct text *t, const char *p, size_t k);

/* Read what the pipes hold, waiting up to ms for something to come. */
void faults_child_pump(struct child *c, int ms);

int faults_child_poll_exit(struct child *c);

/* Keep reading the pipes until time t (monotonic seconds). */
void faults_child_pump_until(struct child *c, double t);

/* Progress lines ("[3/60] host_naive ...") in a run's stdout. */
size_t faults_progress_lines(const char *out);

/* The interrupt message: 1 for "interrupted: kept X of N points in PATH (marked
 * incomplete; ...)" (PATH the run's work file), 2 for "interrupted after the
 * last point: PATH is complete", 3 for "interrupted before the first point was
 * recorded; no file was written", 0 for none. */
int faults_interrupt_message(const char *err, size_t *x, size_t *n, char *path, size_t len);

/* The invariants of a results file that a run, however it ended, must leave:
 * every row passed; each row's `samples` equals its samples in /samples; no
 * sample beyond the rows; `complete` exactly when every planned point is there;
 * the reader had nothing to repair but a row being recorded and an unclosed
 * writer.  Returns 0, or 1 with what is wrong in why. */
int faults_file_problem(const char *what, const char *path, const struct results_file *f,
                        size_t planned, char *why, size_t len);

size_t faults_count_words(const char *s);

/* A run whose samples are all there: then no mmladder-build-* file of a dead
 * process may be left in the children's TMPDIR (each run removes those). */
void faults_assert_no_stale_builds(const char *what);

#endif
