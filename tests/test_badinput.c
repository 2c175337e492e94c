/* Bad input, table-driven: malformed experiment files and command lines.
 *
 * Each case runs bin/mmladder in a fresh folder that already holds a results
 * file, a taken output name, a good experiment file and a subfolder, and
 * asserts that it
 *   - exits 1 (bad input),
 *   - says where on stderr: FILE:LINE for an error in a file, the option or
 *     argument for one on the command line,
 *   - names the offending value,
 *   - changed nothing: every file keeps its bytes and its mtime, and nothing
 *     new appears.
 * In the table, "@name" stands for a path in that folder (see expand()). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/results.h"
#include "util.h"

#define H "[experiment]\nname = b\nseed = 1\n"                          /* lines 1-3 */
#define S "[h]\nvariants = host_naive\nsizes = 16\nopt_levels = 1\n"    /* lines 4-7 after H */
#define NUMS_1_TO_64                                                               \
    " 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28\n" \
    "  29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55\n" \
    "  56 57 58 59 60 61 62 63 64"
#define LIST_1_TO_65 "sizes =" NUMS_1_TO_64 " 65\n"
#define LONG_NAME "b123456789b123456789b123456789b123456789b123456789b123456789b123456789"

enum special { PLAIN = 0, UNREADABLE, WITH_NUL, OVER_1MIB };

struct bad_case {
    const char *what;
    const char *file;          /* text of @bad (NULL: not written) */
    enum special special;
    const char *argv[8];       /* after the program name, NULL-terminated */
    const char *where;         /* on stderr: FILE:LINE, or the option/argument */
    const char *value;         /* on stderr: the offending value */
};

static const struct bad_case CASES[] = {
    /* ---- the experiment file ---- */
    {"unknown key in a sweep", H S "tile = 8\n", PLAIN, {"run", "@bad", "-o", "@new"},
     "@bad:8:", "'tile'"},
    {"unknown key in [experiment]", "[experiment]\nname = b\nsede = 1\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:3:", "'sede'"},
    {"unknown variant", H "[h]\nvariants = host_nave\nsizes = 16\nopt_levels = 1\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "'host_nave'"},
    {"negative size", H "[h]\nvariants = host_naive\nsizes = -16\nopt_levels = 1\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:6:", "'-16'"},
    {"zero size", H "[h]\nvariants = host_naive\nsizes = 16 0\nopt_levels = 1\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:6:", "'0'"},
    {"size not a number", H "[h]\nvariants = host_naive\nsizes = 16 big\nopt_levels = 1\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "'big'"},
    {"size beyond the limit", H "[h]\nvariants = host_naive\nsizes = 1000001\nopt_levels = 1\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "'1000001'"},
    {"shape with a zero", H "[h]\nvariants = host_naive\nshapes = 0x1x1\nopt_levels = 1\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "'0x1x1'"},
    {"shape with a word", H "[h]\nvariants = host_naive\nshapes = 4xfourx4\nopt_levels = 1\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "'4xfourx4'"},
    {"shape missing an x", H "[h]\nvariants = host_naive\nshapes = 16x16\nopt_levels = 1\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "'16x16'"},
    {"shape beyond INT_MAX elements",
     H "[h]\nvariants = host_naive\nshapes = 65536x32768x1\nopt_levels = 1\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:6:", "'65536x32768x1'"},
    {"size beyond INT_MAX elements",
     H "[h]\nvariants = host_naive\nsizes = 46341\nopt_levels = 1\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:6:", "'46341'"},
    {"tile not a number", H "[g]\nvariants = gpu_tiled\nsizes = 64\ntiles = eight\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:7:", "'eight'"},
    {"wpt not a number", H "[g]\nvariants = gpu_tiled_wpt\nsizes = 64\ntiles = 16\nwpts = 2.5\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:8:", "'2.5'"},
    {"duplicate key", H S "sizes = 32\n", PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:8:",
     "'sizes' given twice"},
    {"duplicate section", H S "[h]\n", PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:8:",
     "[h] appears twice"},
    {"line without '='", H S "opt_levels 2\n", PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:8:",
     "'opt_levels 2'"},
    {"unterminated section header", H "[h\nvariants = host_naive\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:4:", "'[h'"},
    {"empty variants", H "[h]\nvariants =\nsizes = 16\n", PLAIN, {"run", "@bad", "-o", "@new"},
     "@bad:5:", "variants: empty list"},
    {"more than EXP_MAX_LIST sizes", H "[h]\nvariants = host_naive\n" LIST_1_TO_65, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:8:", "'65'"},
    {"a sweep of more than PLAN_MAX_POINTS points",
     H "[g]\nvariants = gpu_tiled_wpt\nsizes =" NUMS_1_TO_64 "\ntiles =" NUMS_1_TO_64
       "\nwpts =" NUMS_1_TO_64 "\n",
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:4:", "262144 points"},
    {"name too long", "[experiment]\nname = " LONG_NAME "\nseed = 1\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:2:", "'" LONG_NAME "'"},
    {"line too long", H S "; " LONG_NAME LONG_NAME LONG_NAME "\n", PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:8:", "'; b123456789"},
    {"[sampling] zero", H "[sampling]\nhost_min_samples = 0\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "host_min_samples: '0'"},
    {"[sampling] negative", H "[sampling]\nhost_min_time_ms = -5\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "host_min_time_ms: '-5'"},
    {"[sampling] NaN", H "[sampling]\ntarget_rel_stddev = nan\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "target_rel_stddev: 'nan'"},
    {"[sampling] text", H "[sampling]\nhost_timeout_ms = soon\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "host_timeout_ms: 'soon'"},
    {"[sampling] zero budget", H "[sampling]\nhost_point_budget_s = 0\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:5:", "host_point_budget_s: '0'"},
    {"[sampling] max below min", H "[sampling]\nhost_max_samples = 2\nhost_min_samples = 5\n" S,
     PLAIN, {"run", "@bad", "-o", "@new"}, "@bad:6:", "host_max_samples (2)"},
    {"missing name", "[experiment]\nseed = 1\n" S, PLAIN, {"run", "@bad", "-o", "@new"},
     "@bad:1:", "'name'"},
    {"missing seed", "[experiment]\nname = b\n" S, PLAIN, {"run", "@bad", "-o", "@new"},
     "@bad:1:", "'seed'"},
    {"bad seed", "[experiment]\nname = b\nseed = 0x10\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:3:", "'0x10'"},
    {"seed beyond 64 bits", "[experiment]\nname = b\nseed = 18446744073709551616\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:3:", "'18446744073709551616'"},
    {"missing [experiment]", S, PLAIN, {"run", "@bad", "-o", "@new"}, "@bad: ",
     "[experiment]"},
    {"empty file", "", PLAIN, {"run", "@bad", "-o", "@new"}, "@bad: ", "[experiment]"},
    {"non-UTF-8 junk", H "description = caf\xe9\n" S, PLAIN, {"run", "@bad", "-o", "@new"},
     "@bad:4:", "byte 0xe9"},
    {"a control character", "[experiment]\nname = b\x1b[31m\nseed = 1\n" S, PLAIN,
     {"run", "@bad", "-o", "@new"}, "@bad:2:", "0x1b"},
    {"a NUL byte", H S, WITH_NUL, {"run", "@bad", "-o", "@new"}, "@bad: cannot read",
     "NUL byte"},
    {"over 1 MiB", NULL, OVER_1MIB, {"run", "@bad", "-o", "@new"}, "@bad: cannot read",
     "larger than 1 MiB"},
    {"a directory as the experiment file", NULL, PLAIN, {"run", "@sub", "-o", "@new"},
     "@sub: cannot read", "directory"},
    {"an unreadable file", H S, UNREADABLE, {"run", "@bad", "-o", "@new"}, "@bad: cannot read",
     "Permission denied"},
    {"no such experiment file", NULL, PLAIN, {"run", "@dir/none.ini", "-o", "@new"},
     "@dir/none.ini: cannot read", "No such file"},
    {"plan of a bad file", H S "tile = 8\n", PLAIN, {"plan", "@bad"}, "@bad:8:", "'tile'"},
    {"list of a bad file", H "[h]\nvariants = host_naive\nsizes = x\n", PLAIN, {"list", "@bad"},
     "@bad:6:", "'x'"},

    /* ---- the command line ---- */
    {"-o into a folder that does not exist", NULL, PLAIN, {"run", "@ok", "-o", "@dir/no/x.h5"},
     "-o '@dir/no/x.h5'", "'@dir/no' does not exist"},
    {"-o onto an existing file", NULL, PLAIN, {"run", "@ok", "-o", "@taken"}, "-o '@taken'",
     "already exists"},
    {"-o onto an existing results file", NULL, PLAIN, {"run", "@ok", "-o", "@h5"}, "-o '@h5'",
     "already exists"},
    {"-o onto a folder", NULL, PLAIN, {"run", "@ok", "-o", "@sub"}, "-o '@sub'",
     "already exists"},
    {"-d to a folder that does not exist", NULL, PLAIN, {"run", "@ok", "-d", "@dir/no"},
     "-d '@dir/no'", "does not exist"},
    {"-d to a file", NULL, PLAIN, {"run", "@ok", "-d", "@taken"}, "-d '@taken'",
     "is not a folder"},
    {"-o without its value", NULL, PLAIN, {"run", "@ok", "-o"}, "'-o'", "needs a value"},
    {"-d without its value", NULL, PLAIN, {"run", "@ok", "-d"}, "'-d'", "needs a value"},
    {"-o and -d together", NULL, PLAIN, {"run", "@ok", "-o", "@new", "-d", "@sub"},
     "-o '@new' and -d '@sub'", "exclude each other"},
    {"-o twice", NULL, PLAIN, {"run", "@ok", "-o", "@new", "-o", "@dir/other.h5"},
     "-o given twice", "'@dir/other.h5'"},
    {"unknown option", NULL, PLAIN, {"run", "@ok", "--frobnicate", "-o", "@new"},
     "mmladder run:", "'--frobnicate'"},
    {"two experiment files", NULL, PLAIN, {"run", "@ok", "@taken", "-o", "@new"},
     "mmladder run:", "'@taken'"},
    {"no experiment file", NULL, PLAIN, {"run", "-o", "@new"}, "mmladder run:",
     "no experiment file"},
    {"--host-budget not a number", NULL, PLAIN,
     {"run", "@ok", "--host-budget", "soon", "-o", "@new"}, "--host-budget", "'soon'"},
    {"--host-budget negative", NULL, PLAIN, {"run", "@ok", "--host-budget", "-5", "-o", "@new"},
     "--host-budget", "'-5'"},
    {"--host-budget without its value", NULL, PLAIN, {"run", "@ok", "-o", "@new", "--host-budget"},
     "'--host-budget'", "needs a value"},
    {"--host-budget with --no-budget", NULL, PLAIN,
     {"run", "@ok", "--host-budget", "9", "--no-budget", "-o", "@new"}, "'--no-budget'",
     "after '--host-budget'"},
    {"plan with an extra argument", NULL, PLAIN, {"plan", "@ok", "extra"}, "mmladder plan:",
     "'extra'"},
    {"export of a text file", NULL, PLAIN, {"export", "@ok"}, "@ok", "not an HDF5 file"},
    {"export of a missing file", NULL, PLAIN, {"export", "@dir/none.h5"}, "@dir/none.h5",
     "No such file"},
    {"export with an unknown option", NULL, PLAIN, {"export", "@h5", "--json"},
     "mmladder export:", "'--json'"},
    {"export --passed with --samples", NULL, PLAIN, {"export", "@h5", "--passed", "--samples"},
     "mmladder export:", "--passed, --samples and --attrs exclude each other"},
    {"compare with one file", NULL, PLAIN, {"compare", "@h5"}, "mmladder compare:",
     "'@h5'"},
    {"compare with a text file", NULL, PLAIN, {"compare", "@h5", "@ok"}, "@ok",
     "not an HDF5 file"},
    {"compare --tolerance not a number", NULL, PLAIN,
     {"compare", "@h5", "@h5", "--tolerance", "ten"}, "--tolerance", "'ten'"},
    {"compare --tolerance without its value", NULL, PLAIN,
     {"compare", "@h5", "@h5", "--tolerance"}, "'--tolerance'", "needs a value"},
    {"table --markdown of a view other than runs", NULL, PLAIN,
     {"table", "ladder", "--markdown", "@h5"}, "--markdown", "(given 'ladder')"},
    {"info of a folder", NULL, PLAIN, {"info", "@sub"}, "@sub", "is a directory"},
    {"info of two files", NULL, PLAIN, {"info", "@h5", "@taken"}, "mmladder info:", "'@taken'"},
    {"device with an argument", NULL, PLAIN, {"device", "now"}, "mmladder device:", "'now'"},
    {"unknown command", NULL, PLAIN, {"fly"}, "mmladder:", "unknown command 'fly'"},
};

/* ---- the case folder ---------------------------------------------------- */

struct folder {
    char dir[256];
};

/* "@name..." placeholders to paths in the folder; every occurrence. */
static void expand(const struct folder *f, const char *in, char *out, size_t len)
{
    static const struct {
        const char *tag, *file;
    } names[] = {{"@bad", "/bad.ini"}, {"@ok", "/ok.ini"},   {"@h5", "/results.h5"},
                 {"@taken", "/taken.h5"}, {"@new", "/new.h5"}, {"@sub", "/sub"},
                 {"@dir", ""}};
    size_t at = 0;
    out[0] = '\0';
    while (*in && at + 1 < len) {
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               strncmp(in, names[k].tag, strlen(names[k].tag)) != 0)
            k++;
        if (k < sizeof names / sizeof names[0]) {
            at += (size_t)snprintf(out + at, len - at, "%s%s", f->dir, names[k].file);
            in += strlen(names[k].tag);
        } else {
            out[at++] = *in++;
            out[at] = '\0';
        }
    }
    if (at >= len) abort();
}

static void write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(bytes, 1, n, fp) != n || fclose(fp) != 0) abort();
}

/* A results file as a run leaves it: one row, complete. */
static void write_results(const char *path)
{
    char err[512];
    struct results *r;
    if (results_create(&r, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    struct result_row row = {.variant = "host_naive", .device = "host", .M = 16, .N = 16,
                             .K = 16, .opt_level = 1, .disposition = "passed"};
    const double s[1] = {1.0};
    assert_int_equal(results_append(r, &row, s, NULL, NULL, 1), 0);
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
}

static void make_folder(struct folder *f, const struct bad_case *c)
{
    char p[512];
    test_tmpdir(f->dir, sizeof f->dir);
    expand(f, "@ok", p, sizeof p);
    test_write_file(p, H S);
    expand(f, "@h5", p, sizeof p);
    write_results(p);
    expand(f, "@taken", p, sizeof p);
    test_write_file(p, "an output someone else wrote\n");
    expand(f, "@sub", p, sizeof p);
    if (mkdir(p, 0755) != 0) abort();
    expand(f, "@bad", p, sizeof p);
    if (c->special == WITH_NUL) {
        char text[] = H S "; a NUL \0 here\n";
        write_bytes(p, text, sizeof text - 1);
    } else if (c->special == OVER_1MIB) {
        size_t n = (1u << 20) + 64;
        char *text = malloc(n);
        if (!text) abort();
        for (size_t i = 0; i < n; i++) text[i] = i % 64 == 63 ? '\n' : ';';
        write_bytes(p, text, n);
        free(text);
    } else if (c->file) {
        test_write_file(p, c->file);
    }
    if (c->special == UNREADABLE) chmod(p, 0);
}

/* FNV-1a of a file's bytes (0 for one that cannot be read). */
static uint64_t file_hash(const char *path)
{
    size_t n = 0;
    char *bytes = test_read_file(path, &n);
    uint64_t h = 1469598103934665603ull;
    if (!bytes) return 0;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)bytes[i]) * 1099511628211ull;
    free(bytes);
    return h;
}

/* The folder, sub/ and every entry of both: name, mode, size, mtime and a hash
 * of the bytes, as text, so that before and after compare with strcmp (a file
 * created and removed again shows in its folder's mtime). */
static char *snapshot(const struct folder *f)
{
    size_t cap = 8192, at = 0;
    char *s = malloc(cap);
    if (!s) abort();
    s[0] = '\0';
    const char *dirs[2] = {"", "/sub"};
    for (int d = 0; d < 2; d++) {
        char dp[512];
        snprintf(dp, sizeof dp, "%s%s", f->dir, dirs[d]);
        DIR *dh = opendir(dp);
        if (!dh) abort();
        struct dirent *de;
        while ((de = readdir(dh)) != NULL) {
            if (!strcmp(de->d_name, "..")) continue;
            char path[800], line[1000];
            snprintf(path, sizeof path, "%s/%s", dp, de->d_name);
            struct stat st;
            if (lstat(path, &st) != 0) abort();
            uint64_t h = S_ISREG(st.st_mode) ? file_hash(path) : 0;
            int w = snprintf(line, sizeof line,
                             "%s mode %o size %lld mtime %lld.%09ld fnv %016llx\n", path,
                             (unsigned)st.st_mode, (long long)st.st_size,
                             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                             (unsigned long long)h);
            while (at + (size_t)w + 1 >= cap) {
                s = realloc(s, cap *= 2);
                if (!s) abort();
            }
            memcpy(s + at, line, (size_t)w + 1);
            at += (size_t)w;
        }
        closedir(dh);
    }
    return s;
}

/* Back-date every file, so that a rewrite, even of the same bytes, shows. */
static void backdate(const struct folder *f)
{
    const char *names[] = {"@ok", "@h5", "@taken", "@bad", "@sub", "@dir"};
    const struct timespec old[2] = {{1600000000, 0}, {1600000000, 0}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        expand(f, names[i], p, sizeof p);
        utimensat(AT_FDCWD, p, old, AT_SYMLINK_NOFOLLOW);   /* @bad may not exist */
    }
}

static int run_case(const struct bad_case *c, int verbose)
{
    struct folder f;
    make_folder(&f, c);
    backdate(&f);
    char *before = snapshot(&f);

    char args[8][512];
    char *argv[10] = {(char *)test_binary()};
    int n = 0;
    for (; n < 8 && c->argv[n]; n++) {
        expand(&f, c->argv[n], args[n], sizeof args[n]);
        argv[n + 1] = args[n];
    }
    argv[n + 1] = NULL;
    char where[512], value[512];
    expand(&f, c->where, where, sizeof where);
    expand(&f, c->value, value, sizeof value);

    char *out, *err;
    int rc = test_run(argv, &out, &err);
    char *after = snapshot(&f);
    int ok = 1;
    if (rc != 1) {
        print_error("case '%s': exit %d, expected 1\n", c->what, rc);
        ok = 0;
    }
    if (!strstr(err, where) || !strstr(err, value)) {
        print_error("case '%s': stderr does not name \"%s\" and \"%s\":\n%s\n", c->what, where,
                    value, err);
        ok = 0;
    }
    if (strcmp(before, after) != 0) {
        print_error("case '%s': the folder changed\nbefore:\n%.2000s\nafter:\n%.2000s\n", c->what,
                    before, after);
        ok = 0;
    }
    if (ok && verbose) print_message("%-40s %s", c->what, err);
    free(out); free(err); free(before); free(after);
    char p[512];
    expand(&f, "@bad", p, sizeof p);
    chmod(p, 0600);
    test_rmtree(f.dir);
    return ok;
}

static void bad_input_table(void **state)
{
    (void)state;
    const size_t n = sizeof CASES / sizeof CASES[0];
    size_t ran = 0, failed = 0;
    const int root = geteuid() == 0;
    const int verbose = getenv("MMLADDER_TEST_VERBOSE") != NULL;
    for (size_t i = 0; i < n; i++) {
        if (CASES[i].special == UNREADABLE && root) {
            print_message("bad input: case '%s' skipped: root reads files whatever their "
                          "mode\n", CASES[i].what);
            continue;
        }
        ran++;
        failed += !run_case(&CASES[i], verbose);
    }
    print_message("bad input: %zu of %zu cases run, %zu failed\n", ran, n, failed);
    assert_true(ran >= 30);
    assert_int_equal(failed, 0);
}

const struct CMUnitTest badinput_tests[] = {
    cmocka_unit_test(bad_input_table),
};
const size_t badinput_tests_count = sizeof badinput_tests / sizeof badinput_tests[0];
