/* The layers of harness/ (harness/LAYERS): every #include "..." of every file
 * of harness/ is held to the table, and the files' includes to having no
 * circle; and a tree with a planted upward include, a header of another
 * folder's insides and a circle of two headers is seen to fail, naming each.
 * No file of harness/ is past 800 lines, and no files of it call each other in
 * a circle (read from the symbols of the objects the build made). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

enum { MAX_FOLDERS = 32, MAX_FILES = 512, MAX_EDGES = 4096, NAME = 128, MAX_LINES = 800 };

struct layers {
    size_t nfolders;
    char folder[MAX_FOLDERS][32];
    unsigned char may[MAX_FOLDERS][MAX_FOLDERS];   /* [a][b]: a may include b */
    size_t nfiles;
    char file[MAX_FILES][NAME];                    /* "measure/runner.c" */
    size_t nedges;
    size_t from[MAX_EDGES], to[MAX_EDGES];         /* file includes file */
    char *report;                                  /* what failed, a line each */
    const char *linked_by;                         /* "includes" (NULL) or "calls" */
    size_t report_len, violations;
};

static void say(struct layers *l, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const size_t have = l->report ? strlen(l->report) : 0, add = strlen(line) + 2;
    if (have + add > l->report_len) {
        l->report_len = 2 * (have + add);
        l->report = realloc(l->report, l->report_len);
        assert_non_null(l->report);
        l->report[have] = '\0';
    }
    strcat(strcat(l->report, line), "\n");
    l->violations++;
}

static int folder_index(const struct layers *l, const char *name, size_t len)
{
    for (size_t i = 0; i < l->nfolders; i++)
        if (strlen(l->folder[i]) == len && !strncmp(l->folder[i], name, len)) return (int)i;
    return -1;
}

static int file_index(struct layers *l, const char *name)
{
    for (size_t i = 0; i < l->nfiles; i++)
        if (!strcmp(l->file[i], name)) return (int)i;
    assert_true(l->nfiles < MAX_FILES);
    snprintf(l->file[l->nfiles], NAME, "%s", name);
    return (int)l->nfiles++;
}

/* ROOT/harness/LAYERS: "FOLDER: BELOW ..." lines; each name below must be a
 * folder of an earlier line (so the table has no circle), and views and
 * measure may not name each other. */
static void read_table(struct layers *l, const char *root)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/harness/LAYERS", root);
    char *text = test_read_file(path, NULL);
    if (!text) fail_msg("%s: cannot read the table of layers", path);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0]) continue;
        char *colon = strchr(line, ':');
        if (!colon) fail_msg("%s: '%s': expected FOLDER: BELOW ...", path, line);
        assert_true(l->nfolders < MAX_FOLDERS);
        const size_t me = l->nfolders++;
        snprintf(l->folder[me], sizeof l->folder[me], "%.*s", (int)(colon - line), line);
        for (char *p = colon + 1; *p;) {
            p += strspn(p, " \t");
            const size_t n = strcspn(p, " \t");
            if (!n) break;
            const int below = folder_index(l, p, n);
            if (below < 0 || (size_t)below == me)
                fail_msg("%s: %s names '%.*s', which is not a folder listed above it", path,
                         l->folder[me], (int)n, p);
            l->may[me][below] = 1;
            p += n;
        }
    }
    free(text);
    const int v = folder_index(l, "views", 5), m = folder_index(l, "measure", 7);
    if (v >= 0 && m >= 0 && (l->may[v][m] || l->may[m][v]))
        fail_msg("%s: views and measure may not include each other", path);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Every #include "X" of ROOT/harness/FOLDER/NAME against the table. */
static void check_file(struct layers *l, const char *root, int me, const char *name)
{
    char path[4096], rel[NAME + 300];
    snprintf(rel, sizeof rel, "%s/%s", l->folder[me], name);
    snprintf(path, sizeof path, "%s/harness/%s", root, rel);
    const int self = file_index(l, rel);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("%s: cannot read it", path);
    char line[1024];
    int lineno = 1;
    for (; fgets(line, sizeof line, f); lineno++) {
        const char *p = line + strspn(line, " \t");
        if (*p++ != '#') continue;
        p += strspn(p, " \t");
        if (strncmp(p, "include", 7)) continue;
        p += 7;
        p += strspn(p, " \t");
        if (*p++ != '"') continue;
        const size_t n = strcspn(p, "\"");
        char inc[NAME];
        snprintf(inc, sizeof inc, "%.*s", (int)n, p);
        const char *slash = strchr(inc, '/');
        char target[NAME + 40];
        if (!slash) {
            /* a header of its own folder, of kernels/, or build/buildinfo.h */
            snprintf(path, sizeof path, "%s/harness/%s/%s", root, l->folder[me], inc);
            if (exists(path)) {
                snprintf(target, sizeof target, "%s/%s", l->folder[me], inc);
            } else {
                snprintf(path, sizeof path, "%s/kernels/%s", root, inc);
                if (!exists(path) && strcmp(inc, "buildinfo.h"))
                    say(l, "harness/%s:%d: includes \"%s\", which is not in harness/%s/ (another "
                           "folder's header is included as \"F/F.h\")", rel, lineno, inc,
                        l->folder[me]);
                continue;
            }
        } else {
            const int to = folder_index(l, inc, (size_t)(slash - inc));
            char public[NAME];
            snprintf(public, sizeof public, "%.*s.h", (int)(slash - inc), inc);
            if (to < 0) {
                say(l, "harness/%s:%d: includes \"%s\": '%.*s' is not a folder of harness/LAYERS",
                    rel, lineno, inc, (int)(slash - inc), inc);
                continue;
            }
            if (strcmp(slash + 1, public))
                say(l, "harness/%s:%d: includes \"%s\", a private header of %s/ (only \"%s/%s\" "
                       "is public)", rel, lineno, inc, l->folder[to], l->folder[to], public);
            if (to != me && !l->may[me][to])
                say(l, "harness/%s:%d: includes \"%s\": %s may not include %s (harness/LAYERS)",
                    rel, lineno, inc, l->folder[me], l->folder[to]);
            snprintf(target, sizeof target, "%s", inc);
        }
        assert_true(l->nedges < MAX_EDGES);
        l->from[l->nedges] = (size_t)self;
        l->to[l->nedges++] = (size_t)file_index(l, target);
    }
    fclose(f);
    if (lineno - 1 > MAX_LINES)
        say(l, "harness/%s: %d lines, more than %d (split it by what its parts do)", rel, lineno - 1,
            MAX_LINES);
}

/* Depth-first search for a circle of includes from file v: colour 1 while on
 * the path, 2 when done; the path is kept to name the circle. */
static int find_circle(struct layers *l, size_t v, unsigned char *colour, size_t *path, size_t depth)
{
    colour[v] = 1;
    path[depth] = v;
    for (size_t e = 0; e < l->nedges; e++) {
        if (l->from[e] != v) continue;
        const size_t w = l->to[e];
        if (colour[w] == 1) {
            char circle[2048] = "";
            size_t k = depth;
            while (path[k] != w) k--;
            for (; k <= depth; k++)
                snprintf(circle + strlen(circle), sizeof circle - strlen(circle), "harness/%s -> ",
                         l->file[path[k]]);
            say(l, "a circle of %s: %sharness/%s", l->linked_by ? l->linked_by : "includes", circle,
                l->file[w]);
            return 1;
        }
        if (!colour[w] && find_circle(l, w, colour, path, depth + 1)) return 1;
    }
    colour[v] = 2;
    return 0;
}

/* Every circle of l's edges, each said once it is found. */
static void find_circles(struct layers *l)
{
    unsigned char *colour = calloc(MAX_FILES, 1);
    size_t *path = calloc(MAX_FILES, sizeof *path);
    assert_true(colour && path);
    for (size_t v = 0; v < l->nfiles; v++)
        if (!colour[v]) find_circle(l, v, colour, path, 0);
    free(colour);
    free(path);
}

/* Checks ROOT's harness/ against ROOT's harness/LAYERS; returns the report
 * (one line a violation, NULL when none). */
static char *check_tree(const char *root, size_t *violations)
{
    struct layers *l = calloc(1, sizeof *l);
    assert_non_null(l);
    read_table(l, root);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/harness", root);
    DIR *top = opendir(dir);
    assert_non_null(top);
    for (struct dirent *d; (d = readdir(top));) {
        if (d->d_name[0] == '.') continue;
        char sub[4096 + 256];
        snprintf(sub, sizeof sub, "%s/%s", dir, d->d_name);
        struct stat st;
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        const int me = folder_index(l, d->d_name, strlen(d->d_name));
        if (me < 0) {
            say(l, "harness/%s/: a folder that harness/LAYERS does not list", d->d_name);
            continue;
        }
        DIR *in = opendir(sub);
        assert_non_null(in);
        for (struct dirent *e; (e = readdir(in));) {
            const char *dot = strrchr(e->d_name, '.');
            if (dot && (!strcmp(dot, ".c") || !strcmp(dot, ".h") || !strcmp(dot, ".cu")))
                check_file(l, root, me, e->d_name);
        }
        closedir(in);
    }
    closedir(top);
    find_circles(l);
    char *report = l->report;
    *violations = l->violations;
    free(l);
    return report;
}

static void harness_includes_follow_the_layers(void **state)
{
    (void)state;
    size_t n = 0;
    char *report = check_tree(".", &n);
    if (n) fail_msg("%zu includes against harness/LAYERS:\n%s", n, report);
    free(report);
}

/* A copy of harness/ (and kernels/, whose headers it includes) with an upward
 * include, a private header of another folder, a circle of two headers and a
 * file of 801 lines planted: each is named, with its file (and line). */
static void planted_faults_are_named(void **state)
{
    (void)state;
    char tmp[4096], cmd[8192], path[4200];
    test_tmpdir(tmp, sizeof tmp);
    snprintf(cmd, sizeof cmd, "cp -R harness kernels '%s'/", tmp);
    assert_int_equal(system(cmd), 0);
    size_t n = 0;
    char *report = check_tree(tmp, &n);
    if (n) fail_msg("the copy fails before anything is planted:\n%s", report);
    free(report);

    snprintf(path, sizeof path, "%s/harness/util/files.c", tmp);
    char *text = test_read_file(path, NULL);
    assert_non_null(text);
    const size_t lines = test_count_of(text, "\n");
    char *planted = malloc(strlen(text) + 200);
    assert_non_null(planted);
    sprintf(planted, "%s#include \"cli/cli.h\"\n#include \"results/trust.h\"\n", text);
    test_write_file(path, planted);
    free(planted);
    free(text);
    snprintf(path, sizeof path, "%s/harness/core/planted_a.h", tmp);
    test_write_file(path, "#include \"planted_b.h\"\n");
    snprintf(path, sizeof path, "%s/harness/core/planted_b.h", tmp);
    test_write_file(path, "#include \"planted_a.h\"\n");
    char *long_file = malloc(801 * 3 + 1);
    assert_non_null(long_file);
    for (int i = 0; i < 801; i++) memcpy(long_file + 3 * i, "x;\n", 3);
    long_file[801 * 3] = '\0';
    snprintf(path, sizeof path, "%s/harness/core/planted_long.c", tmp);
    test_write_file(path, long_file);
    free(long_file);

    report = check_tree(tmp, &n);
    assert_non_null(report);
    char want[256];
    snprintf(want, sizeof want, "harness/util/files.c:%zu: includes \"cli/cli.h\": util may not "
                                "include cli (harness/LAYERS)", lines + 1);
    if (!strstr(report, want)) fail_msg("no '%s' in:\n%s", want, report);
    snprintf(want, sizeof want, "harness/util/files.c:%zu: includes \"results/trust.h\", a private "
                                "header of results/", lines + 2);
    if (!strstr(report, want)) fail_msg("no '%s' in:\n%s", want, report);
    if (!strstr(report, "a circle of includes: harness/core/planted_"))
        fail_msg("no circle of planted_a.h and planted_b.h in:\n%s", report);
    if (!strstr(report, "harness/core/planted_long.c: 801 lines, more than 800"))
        fail_msg("no file past 800 lines in:\n%s", report);
    assert_int_equal(n, 5);   /* the upward include, the private header (also upward), the
                                 circle, the long file */
    free(report);
    test_rmtree(tmp);
}

/* ---- circles of calls, from the objects the build made ------------------------ */

struct symbol {
    char name[200];
    int object;
};

static int by_symbol(const void *a, const void *b)
{
    return strcmp(((const struct symbol *)a)->name, ((const struct symbol *)b)->name);
}

/* Which object of build/harness/ calls which (a symbol one leaves undefined that
 * another defines, as nm says), for the objects whose source is still in
 * harness/; a circle among them is named with the symbols that close it.  The
 * includes cannot show this: one header may declare what several files define. */
static void no_circle_of_calls(void **state)
{
    (void)state;
    static const char *const exts[] = {".c", ".cu"};
    char *argv[MAX_FILES + 4] = {"nm", "-P", "-A"};
    size_t argc = 3, nobj = 0;
    static char objects[MAX_FILES][400];
    DIR *top = opendir("build/harness");
    if (!top) skip();
    for (struct dirent *d; (d = readdir(top));) {
        if (d->d_name[0] == '.') continue;
        char sub[300];
        snprintf(sub, sizeof sub, "build/harness/%s", d->d_name);
        DIR *in = opendir(sub);
        if (!in) continue;
        for (struct dirent *e; (e = readdir(in));) {
            const size_t n = strlen(e->d_name);
            if (n < 3 || strcmp(e->d_name + n - 2, ".o")) continue;
            int have_source = 0;
            for (size_t k = 0; k < 2; k++) {
                char src[600];
                snprintf(src, sizeof src, "harness/%s/%.*s%s", d->d_name, (int)(n - 2), e->d_name,
                         exts[k]);
                have_source |= exists(src);
            }
            if (!have_source || nobj >= MAX_FILES) continue;   /* a stale object */
            snprintf(objects[nobj], sizeof objects[nobj], "%s/%s", sub, e->d_name);
            argv[argc++] = objects[nobj++];
        }
        closedir(in);
    }
    closedir(top);
    if (nobj < 2) skip();   /* not built here */
    argv[argc] = NULL;
    char *out, *err;
    if (test_run(argv, &out, &err) != 0) fail_msg("nm over build/harness: %s", err);
    free(err);
    /* "OBJECT: NAME TYPE [VALUE SIZE]" */
    size_t ndef = 0, nuse = 0, cap = 1 << 16;
    struct symbol *def = malloc(cap * sizeof *def), *use = malloc(cap * sizeof *use);
    assert_true(def && use);
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char obj[400], name[200], type[8];
        if (sscanf(line, "%399[^:]: %199s %7s", obj, name, type) != 3) continue;
        int o = -1;
        for (size_t i = 0; i < nobj; i++)
            if (!strcmp(objects[i], obj)) o = (int)i;
        if (o < 0) continue;
        struct symbol *to = NULL;
        if (!strcmp(type, "U") && nuse < cap) to = &use[nuse++];
        else if (strchr("TDBR", type[0]) && type[0] && ndef < cap) to = &def[ndef++];
        if (!to) continue;
        snprintf(to->name, sizeof to->name, "%s", name);
        to->object = o;
    }
    free(out);
    qsort(def, ndef, sizeof *def, by_symbol);
    struct layers *l = calloc(1, sizeof *l);
    assert_non_null(l);
    l->linked_by = "calls";
    for (size_t i = 0; i < nobj; i++) file_index(l, objects[i] + strlen("build/harness/"));
    for (size_t i = 0; i < nuse; i++) {
        const struct symbol *d = bsearch(&use[i], def, ndef, sizeof *def, by_symbol);
        if (!d || d->object == use[i].object) continue;
        size_t e = 0;
        while (e < l->nedges && !(l->from[e] == (size_t)use[i].object && l->to[e] == (size_t)d->object)) e++;
        if (e < l->nedges) continue;
        assert_true(l->nedges < MAX_EDGES);
        l->from[l->nedges] = (size_t)use[i].object;
        l->to[l->nedges++] = (size_t)d->object;
    }
    free(def);
    free(use);
    find_circles(l);
    if (l->violations)
        fail_msg("files of harness/ that call each other (objects of build/harness/):\n%s", l->report);
    free(l->report);
    free(l);
}

const struct CMUnitTest layers_tests[] = {
    cmocka_unit_test(harness_includes_follow_the_layers),
    cmocka_unit_test(planted_faults_are_named),
    cmocka_unit_test(no_circle_of_calls),
};
const size_t layers_tests_count = sizeof layers_tests / sizeof layers_tests[0];
