/* libFuzzer target for the command line (harness/cli/cli.c): command lines made
 * from the input, each run in-process by cli_main, the promises of a command
 * line checked around it.
 *
 * An input is up to MAX_CMDS commands, separated by an empty line; a command
 * is up to MAX_WORDS words, one a line ("run\n@tiny.ini\n-o\nout.h5"; a NUL
 * byte ends its word early, as it would in a real argv), the word '' standing
 * for an empty argument.  "@NAME", a whole word or the whole part after its
 * first '=' ("h100=@gpu.h5"), stands for a file that LLVMFuzzerInitialize
 * copied into a folder of its own (see FILES below).  Every other path is the
 * commands' own: they run in a scratch folder that holds a file of a user's
 * (taken.txt) and an empty folder (sub), and is emptied of everything else
 * after each input.  Not run (-1: libFuzzer does not keep the input): a word
 * that starts with '/' (or whose part after '=' does) or holds "..", which
 * would reach outside those two folders, and a `run` of quick.ini, a minute
 * of work (`plan` and `list` read it).
 *
 * Built with -fsanitize=fuzzer,address,undefined by `make fuzz`: any crash,
 * sanitizer report or leak fails the run.  The promises, checked after each
 * command (a broken one aborts):
 *   - the exit status is 0, 1, 2, 3 or 4, as the usage says; 2 and 3 come from
 *     run alone, and 3 from device too; 4 from merge (written incomplete) and
 *     from the readers of an incomplete file (info, export, compare, table);
 *   - a non-zero exit says why on stderr, in a line that starts "mmladder"
 *     (not a warning) and names the command ("mmladder CMD") or one of its
 *     arguments;
 *   - nothing outside the scratch folder changes: the files keep their size,
 *     time and inode, and TMPDIR (a folder of the target's) is left empty;
 *   - in the scratch folder, no file there before the command changes or goes
 *     (the user's, and what earlier commands of the input wrote), but for an
 *     earlier output of `values` (its first line says so), which values may
 *     write again;
 *   - a command that exits 1 (a refusal) adds nothing there either. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef FUZZ_CLI_REPO
#error "FUZZ_CLI_REPO: the repository's root, as the Makefile gives it"
#endif
#ifndef FUZZ_CLI_GPU_RUN
#error "FUZZ_CLI_GPU_RUN: a GPU run's results file, relative to the root (the Makefile's)"
#endif

#define MAX_CMDS 4
#define MAX_WORDS 24
#define MAX_ENTRIES 128
/* The first bytes of every file `values` writes (harness/claims/values.c). */
#define VALUES_MARK "% written by mmladder values"

/* The files "@NAME" stands for, and where they come from (relative to the
 * repository; NULL: made by LLVMFuzzerInitialize). */
static const struct {
    const char *name, *from;
} FILES[] = {
    {"tiny.ini", "tests/fuzz/cli/files/tiny.ini"},       /* two host rungs, 4 points */
    {"mixed.ini", "tests/fuzz/cli/files/mixed.ini"},     /* a GPU and a host sweep */
    {"gpu.ini", "tests/fuzz/cli/files/gpu.ini"},         /* GPU points only */
    {"bad.ini", "tests/fuzz/cli/files/bad.ini"},         /* an error on line 9 */
    {"quick.ini", "experiments/quick.ini"},              /* plan and list only */
    {"claims.ini", "tests/fuzz/cli/files/claims.ini"},
    {"good.tex", "tests/fuzz/cli/files/good.tex"},       /* keys that gpu.h5 answers */
    {"bad.tex", "tests/fuzz/cli/files/bad.tex"},         /* a key nothing answers */
    {"gpu.h5", FUZZ_CLI_GPU_RUN},                        /* every GPU rung, an H100 */
    {"killed.h5", "tests/fuzz/results/corpus/schema4-killed.h5"},          /* incomplete */
    {"cut.h5", "tests/fuzz/results/corpus/schema4-complete-truncated.h5"}, /* damaged */
    {"run.h5", NULL},                                    /* run of tiny.ini, made here */
};
#define N_FILES (sizeof FILES / sizeof FILES[0])

/* Where the target works: ROOT/files (the files above), ROOT/scratch (the
 * commands' folder) and ROOT/tmp (their TMPDIR). */
static char root[256], files_dir[300], scratch[300], tmp_dir[300];

struct entry {
    char name[300];   /* relative to the folder listed */
    struct stat st;
    int values;       /* a file that `values` wrote */
};
struct listing {
    size_t n;
    struct entry e[MAX_ENTRIES];
};

static struct listing files_before;

static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_cli: broken promise: %s (%s)\n", what, detail);
    abort();
}

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_cli: %s: %s: %s\n", what, detail, strerror(errno));
    abort();
}

/* Does the file at path start as `values` starts its files? */
static int values_output(const char *path)
{
    char first[sizeof VALUES_MARK] = "";
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    const size_t n = fread(first, 1, sizeof first - 1, f);
    fclose(f);
    return n == sizeof first - 1 && !memcmp(first, VALUES_MARK, n);
}

/* ---- folders -------------------------------------------------------------------- */

/* The entries of dir (and of its folders, depth levels down), into l. */
static void list_dir(const char *dir, const char *prefix, struct listing *l, int depth)
{
    DIR *d = opendir(dir);
    if (!d) fail("cannot list", dir);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (l->n == MAX_ENTRIES) broken("more files than a few commands write", dir);
        struct entry *e = &l->e[l->n++];
        char path[1024];
        snprintf(e->name, sizeof e->name, "%s%s", prefix, de->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (lstat(path, &e->st) != 0) fail("cannot stat", path);
        e->values = S_ISREG(e->st.st_mode) && values_output(path);
        if (S_ISDIR(e->st.st_mode) && depth > 0) {
            char sub[310];
            snprintf(sub, sizeof sub, "%s/", e->name);
            list_dir(path, sub, l, depth - 1);
        }
    }
    closedir(d);
}

static void list_of(const char *dir, struct listing *l)
{
    l->n = 0;
    list_dir(dir, "", l, 1);
}

static const struct entry *find(const struct listing *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->e[i].name, name)) return &l->e[i];
    return NULL;
}

/* The same file, unchanged (a folder: the same folder; what it holds is
 * listed on its own). */
static int same(const struct stat *a, const struct stat *b)
{
    if (a->st_ino != b->st_ino || a->st_mode != b->st_mode) return 0;
    return S_ISDIR(a->st_mode) ||
           (a->st_size == b->st_size && a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
            a->st_mtim.tv_nsec == b->st_mtim.tv_nsec);
}

/* ---- one command ---------------------------------------------------------------- */

struct command {
    int argc;
    char *argv[MAX_WORDS + 2];
};

/* Does line[0..len) hold want[0..n)? */
static int holds(const char *line, size_t len, const char *want, size_t n)
{
    for (size_t at = 0; at + n <= len; at++)
        if (!memcmp(line + at, want, n)) return 1;
    return 0;
}

/* Does a line of err name the command or one of its arguments? */
static int names_it(const char *line, size_t len, const struct command *c)
{
    char head[64];
    snprintf(head, sizeof head, "mmladder %s", c->argv[1]);
    if (len >= strlen(head) && !strncmp(line, head, strlen(head))) return 1;
    for (int i = 1; i < c->argc; i++) {
        /* an empty argument is named as '', a long one by its start, ROLE=PATH
         * by its role or its path too */
        const char *a = c->argv[i], *eq = strchr(a, '=');
        const size_t n = strlen(a);
        if (!n && holds(line, len, "''", 2)) return 1;
        if (n && holds(line, len, a, n < 40 ? n : 40)) return 1;
        if (eq && eq > a && holds(line, len, a, (size_t)(eq - a) < 40 ? (size_t)(eq - a) : 40))
            return 1;
        if (eq && eq[1] && holds(line, len, eq + 1, strlen(eq + 1) < 40 ? strlen(eq + 1) : 40))
            return 1;
    }
    return 0;
}

/* A line of stderr that starts "mmladder" (not a warning) and names the
 * command or an argument; for exit 3 (points this machine cannot run) the
 * reason alone, said once for them all. */
static void check_says_why(const char *err, size_t len, int rc, const struct command *c)
{
    for (const char *line = err; line < err + len;) {
        const char *end = memchr(line, '\n', (size_t)(err + len - line));
        const size_t n = end ? (size_t)(end - line) : (size_t)(err + len - line);
        if (n > 8 && !strncmp(line, "mmladder", 8) && strncmp(line, "mmladder: warning: ", 19) &&
            (rc == 3 || names_it(line, n, c)))
            return;
        line += n + 1;
    }
    broken("a non-zero exit without a line on stderr that names the command or an argument",
           len ? err : "stderr empty");
}

static void check_status(int rc, const struct command *c)
{
    const char *cmd = c->argc > 1 ? c->argv[1] : "";
    char detail[128];
    snprintf(detail, sizeof detail, "mmladder %.60s: exit %d", cmd, rc);
    if (rc < 0 || rc > 4) broken("an exit status the usage does not list", detail);
    const char *const partial[] = {"merge", "info", "export", "compare", "table"};
    int may_be_partial = 0;
    for (size_t i = 0; i < sizeof partial / sizeof partial[0]; i++)
        may_be_partial |= !strcmp(cmd, partial[i]);
    if (rc == 4 && !may_be_partial)
        broken("exit 4 from a command other than merge and the readers", detail);
    if (rc == 2 && strcmp(cmd, "run") != 0) broken("exit 2 from a command other than run", detail);
    if (rc == 3 && strcmp(cmd, "run") != 0 && strcmp(cmd, "device") != 0)
        broken("exit 3 from a command other than run and device", detail);
}

/* What the command did to the scratch folder: nothing there before may
 * change (but values' own outputs, for values), and a refusal adds nothing. */
static void check_scratch(const struct listing *before, int rc, const struct command *c)
{
    static struct listing after;
    list_of(scratch, &after);
    const int values = c->argc > 1 && !strcmp(c->argv[1], "values");
    for (size_t i = 0; i < before->n; i++) {
        const struct entry *e = &before->e[i], *now = find(&after, e->name);
        if (now && same(&e->st, &now->st)) continue;
        if (values && e->values) continue;
        broken(now ? "a file there before the command was changed"
                   : "a file there before the command is gone", e->name);
    }
    if (rc == 1)
        for (size_t i = 0; i < after.n; i++)
            if (!find(before, after.e[i].name))
                broken("a refusal (exit 1) wrote a file", after.e[i].name);
}

static void run_command(struct command *c)
{
    static struct listing before;
    list_of(scratch, &before);
    static volatile sig_atomic_t never;
    char *err = NULL;
    size_t len = 0;
    FILE *out = fopen("/dev/null", "w"), *errs = open_memstream(&err, &len);
    if (!out || !errs) fail("cannot open the streams", "/dev/null, memory");
    const struct cli cli = {.out = out, .err = errs, .interrupted = &never};
    const int rc = cli_main(&cli, c->argc, c->argv);
    if (fclose(errs) != 0 || fclose(out) != 0) fail("cannot close the streams", "");
    check_status(rc, c);
    if (rc != 0) check_says_why(err, len, rc, c);
    check_scratch(&before, rc, c);
    free(err);
}

/* ---- the input's words ---------------------------------------------------------- */

/* word with "@NAME" (at its start or after its first '=') put as the file's
 * path, into a malloc'd string; NULL: a path out of bounds (not run). */
static char *expand(const char *word)
{
    const char *eq = strchr(word, '=');
    if (word[0] == '/' || (eq && eq[1] == '/') || strstr(word, "..")) return NULL;
    if (!strcmp(word, "''")) return strdup("");
    const char *at = word[0] == '@' ? word : eq && eq[1] == '@' ? eq + 1 : NULL;
    for (size_t i = 0; at && i < N_FILES; i++) {
        if (strcmp(at + 1, FILES[i].name) != 0) continue;   /* the whole name: no new path there */
        const size_t len = strlen(word) + strlen(files_dir) + 2;
        char *s = malloc(len);
        if (!s) abort();
        snprintf(s, len, "%.*s%s/%s", (int)(at - word), word, files_dir, at + 1);
        return s;
    }
    char *s = strdup(word);
    if (!s) abort();
    return s;
}

static void free_words(struct command *cmds, int ncmds)
{
    for (int k = 0; k < ncmds; k++)
        for (int i = 1; i < cmds[k].argc; i++) free(cmds[k].argv[i]);
}

/* The commands of the input (lines; an empty line between commands), into
 * cmds; returns how many, or -1 for an input not to run. */
static int parse_input(const uint8_t *data, size_t size, struct command *cmds)
{
    int n = 0;
    cmds[0].argc = 1;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n') continue;
        struct command *c = &cmds[n];
        if (i == start) {               /* an empty line: the next command */
            if (c->argc > 1 && n + 1 < MAX_CMDS) cmds[++n].argc = 1;
        } else if (c->argc <= MAX_WORDS) {
            char word[4096];
            snprintf(word, sizeof word, "%.*s", (int)(i - start), (const char *)data + start);
            if (!(c->argv[c->argc] = expand(word))) {
                free_words(cmds, n + 1);
                return -1;
            }
            c->argc++;
        }
        start = i + 1;
    }
    if (cmds[n].argc > 1) n++;
    for (int k = 0; k < n; k++) {
        cmds[k].argv[0] = "mmladder";
        cmds[k].argv[cmds[k].argc] = NULL;
    }
    return n;
}

/* A run of quick.ini is a minute of work: plan and list only. */
static int too_long(const struct command *c)
{
    if (strcmp(c->argv[1], "run") != 0) return 0;
    for (int i = 2; i < c->argc; i++)
        if (strstr(c->argv[i], "/quick.ini")) return 1;
    return 0;
}

/* Empty the scratch folder but for the user's file and folder (and empty
 * that folder); then check that nothing else changed and TMPDIR is empty. */
static void clean_up(void)
{
    static struct listing l, now;
    list_of(scratch, &l);
    for (size_t i = l.n; i-- > 0;) {   /* a folder's entries come after it */
        if (!strcmp(l.e[i].name, "taken.txt") || !strcmp(l.e[i].name, "sub")) continue;
        char path[700];
        snprintf(path, sizeof path, "%s/%s", scratch, l.e[i].name);
        if ((S_ISDIR(l.e[i].st.st_mode) ? rmdir(path) : unlink(path)) != 0)
            fail("cannot remove", path);
    }
    list_of(tmp_dir, &now);
    if (now.n) broken("a file left in TMPDIR", now.e[0].name);
    list_of(files_dir, &now);
    if (now.n != files_before.n) broken("a file added to or taken from the files", files_dir);
    for (size_t i = 0; i < now.n; i++) {
        const struct entry *e = find(&files_before, now.e[i].name);
        if (!e || !same(&e->st, &now.e[i].st)) broken("a file outside the scratch folder changed",
                                                      now.e[i].name);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct command cmds[MAX_CMDS];
    const int n = parse_input(data, size, cmds);
    if (n < 0) return -1;
    for (int k = 0; k < n; k++)
        if (too_long(&cmds[k])) {
            free_words(cmds, n);
            return -1;
        }
    for (int k = 0; k < n; k++) run_command(&cmds[k]);
    free_words(cmds, n);
    clean_up();
    return 0;
}

/* ---- set-up --------------------------------------------------------------------- */

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    if (!in || !out) fail("cannot copy", from);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) fail("cannot write", to);
    if (ferror(in) || fclose(out) != 0) fail("cannot copy", from);
    fclose(in);
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0) fail("cannot make", path);
}

/* ROOT and its folders; the files copied, and run.h5 run here. */
static void set_up(void)
{
    const char *t = getenv("TMPDIR");
    snprintf(root, sizeof root, "%.200s/fuzz-cli-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(root)) fail("cannot make", root);
    snprintf(files_dir, sizeof files_dir, "%s/files", root);
    snprintf(scratch, sizeof scratch, "%s/scratch", root);
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tmp", root);
    make_dir(files_dir), make_dir(scratch), make_dir(tmp_dir);
    char path[700], to[700];
    for (size_t i = 0; i < N_FILES; i++) {
        if (!FILES[i].from) continue;
        snprintf(path, sizeof path, "%s/%s", FUZZ_CLI_REPO, FILES[i].from);
        snprintf(to, sizeof to, "%s/%s", files_dir, FILES[i].name);
        copy_file(path, to);
    }
    snprintf(path, sizeof path, "%s/taken.txt", scratch);
    FILE *f = fopen(path, "w");
    if (!f || fputs("a file of the user's: never to be written over\n", f) < 0 || fclose(f))
        fail("cannot write", path);
    snprintf(path, sizeof path, "%s/sub", scratch);
    make_dir(path);
    if (setenv("TMPDIR", tmp_dir, 1) != 0) fail("cannot set", "TMPDIR");
}

static void remove_root(void)
{
    static struct listing l;
    const char *dirs[] = {files_dir, scratch, tmp_dir};
    for (size_t d = 0; d < 3; d++) {
        list_of(dirs[d], &l);
        for (size_t i = l.n; i-- > 0;) {
            char path[700];
            snprintf(path, sizeof path, "%s/%s", dirs[d], l.e[i].name);
            if (S_ISDIR(l.e[i].st.st_mode)) rmdir(path);
            else unlink(path);
        }
        rmdir(dirs[d]);
    }
    rmdir(root);
}

/* Is a a flag of libFuzzer's whose value is a path? */
static int path_flag(const char *a)
{
    static const char *const flags[] = {"-artifact_prefix=", "-exact_artifact_path=", "-dict=",
                                        "-merge_control_file=", "-features_dir="};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strncmp(a, flags[i], strlen(flags[i]))) return (int)strlen(flags[i]);
    return 0;
}

/* libFuzzer reads its flags after LLVMFuzzerInitialize returns and uses its
 * folders and files from then on; the commands run in the scratch folder, so
 * every relative path libFuzzer is given (folders, inputs, the artifacts' and
 * the dictionary's) is made absolute first, in a new argv. */
static void absolute_args(int *argc, char ***argv)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) fail("cannot read", "the working folder");
    static char **v;
    v = calloc((size_t)*argc + 1, sizeof *v);
    if (!v) abort();
    for (int i = 0; i < *argc; i++) {
        const char *a = (*argv)[i];
        const int at = a[0] == '-' ? path_flag(a) : i > 0 ? 0 : -1;
        if (at < 0 || (a[0] == '-' && !at) || a[at] == '/' || !a[at]) {
            v[i] = (*argv)[i];
            continue;
        }
        const size_t len = strlen(a) + strlen(cwd) + 2;
        if (!(v[i] = malloc(len))) abort();
        snprintf(v[i], len, "%.*s%s/%s", at, a, cwd, a + at);
    }
    *argv = v;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    absolute_args(argc, argv);
    set_up();
    /* A reader's child gets this long (the tools allow 30 s): a file here is
     * sound or damaged in its first bytes, read in milliseconds. */
    setenv("MMLADDER_READ_TIMEOUT_S", "2", 1);
    char exp[700], out[700];
    snprintf(exp, sizeof exp, "%s/tiny.ini", files_dir);
    snprintf(out, sizeof out, "%s/run.h5", files_dir);
    struct command make_run = {5, {"mmladder", "run", exp, "-o", out, NULL}};
    static volatile sig_atomic_t never;
    FILE *null = fopen("/dev/null", "w");
    if (!null) fail("cannot open", "/dev/null");
    const struct cli cli = {.out = null, .err = stderr, .interrupted = &never};
    if (cli_main(&cli, make_run.argc, make_run.argv) != 0) broken("the run of tiny.ini failed", out);
    fclose(null);
    list_of(files_dir, &files_before);
    if (chdir(scratch) != 0) fail("cannot enter", scratch);
    atexit(remove_root);
    return 0;
}
