/* Helpers shared by the tests: temporary folders, files, and running the
 * mmladder binary (path in $MMLADDER, default bin/mmladder). */
#ifndef TESTS_UTIL_H
#define TESTS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A fresh folder under $TMPDIR (or /tmp); the path is static storage of the caller. */
void test_tmpdir(char *buf, size_t len);
/* Remove a folder made by test_tmpdir, with everything in it. */
void test_rmtree(const char *dir);
void test_write_file(const char *path, const char *text);
/* The same, made executable (a stand-in command). */
void test_write_script(const char *path, const char *text);
/* The work files of FINAL (FINAL.HOST.PID.part, harness/results/outname.h) in its
 * folder: how many there are, the first one's path in buf ("" when none). */
size_t test_work_files(const char *final, char *buf, size_t len);
/* A copy of the results file FROM at TO whose string attribute NAME reads
 * VALUE, its attributes' checksum sealed again: a file as another build or
 * machine would have written it. */
void test_copy_with_attr(const char *from, const char *to, const char *name, const char *value);
/* Whole file, NUL-terminated, malloc'd; NULL if unreadable. */
char *test_read_file(const char *path, size_t *len);
const char *test_binary(void);
/* The value of root attribute NAME of FILE (`mmladder export --attrs`), into buf. */
void test_attr(const char *file, const char *name, char *buf, size_t len);
/* How many times needle occurs in hay (non-overlapping); 0 for a NULL hay. */
size_t test_count_of(const char *hay, const char *needle);

/* The value on the first line of text whose first word (after spaces) is key:
 * the rest of that line without leading and trailing spaces (and tabs, as in
 * `export --attrs`), quotes and a
 * trailing comma ("  cflags   -O2", "title: \"x\"", "  \"version\": \"1\","), into
 * buf; "" when no line has it. */
void test_line_value(const char *text, const char *key, char *buf, size_t len);

/* A host experiment of ten points of at least 0.1 s each (one rung, -O1): a
 * run of about two seconds to stop, race or kill midway. */
extern const char TEST_SLOW_HOST[];
/* The experiment files the repository ships (every .ini in experiments/), NULL-terminated. */
extern const char *const TEST_SHIPPED_EXPERIMENTS[];
/* The path data/references.mk gives for KEY (e.g. "REF_H100"), into buf;
 * false where it leaves KEY empty (a run not yet made); aborts where it has
 * no KEY at all. */
bool test_reference_made(const char *key, char *buf, size_t len);
/* The same for a run that must be there: aborts where KEY is empty. */
void test_reference(const char *key, char *buf, size_t len);
/* The shipped reference runs as ROLE=FILE arguments, with the roles the
 * Makefile's REF_RUNS gives them (those data/references.mk names); returns how
 * many were written (at most max). */
size_t test_reference_runs(char (*args)[600], size_t max);
/* The roles whose runs data/references.mk leaves empty, comma-separated (""
 * when none): what make check-claims gives `mmladder claims --pending`. */
const char *test_pending_roles(void);
/* The shipped tuning corpus v2 (data/references.mk's REF_TUNING2_*), in its
 * order; and scripts/fit-dispatch.py over those files with one option (and
 * its value, or NULL) through this build's binary: its stdout (free() it),
 * the test failed where it exits non-zero. */
enum { TUNING2_PARTS = 7 };
void test_tuning2_files(char files[TUNING2_PARTS][512]);
char *test_fit_dispatch(char files[TUNING2_PARTS][512], const char *option, const char *value);
/* Room for every role data/references.mk can name (CLI_MAX_RUNS, harness/cli/cli.h). */
#define TEST_MAX_RUNS 24
/* Start argv (argv[0] is the program, looked up on PATH) with stdout and
 * stderr into the files outpath and errpath (NULL: /dev/null), SIGINT and
 * SIGTERM at their defaults; its pid. */
pid_t test_spawn(char *const argv[], const char *outpath, const char *errpath);
/* Wait for pid, at most limit_s (then kill it and fail the test): its exit
 * status, or minus the signal that ended it. */
int test_reap(pid_t pid, double limit_s);
/* Run argv (argv[0] is the program) with stdout and stderr captured into
 * malloc'd strings; returns the exit status, or 128+signal. */
int test_run(char *const argv[], char **out, char **err);

#endif
