/* The READMEs: their generated blocks (the headline and the claims from the
 * shipped data, the ladder from the registry) are what the binary prints now,
 * README.md stays a page a newcomer reads (at most 2,000 words), and the
 * harness README's Python example runs against the shipped file it names. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

static void generated_tables_are_current(void **state)
{
    (void)state;
    char args[TEST_MAX_RUNS][600], runs[TEST_MAX_RUNS * 601] = "";
    const size_t n = test_reference_runs(args, TEST_MAX_RUNS);
    for (size_t i = 0; i < n; i++)
        snprintf(runs + strlen(runs), sizeof runs - strlen(runs), "%s%s", i ? " " : "", args[i]);
    setenv("REF_RUNS", runs, 1);
    setenv("BIN", test_binary(), 1);
    char pending[700] = "";
    if (*test_pending_roles()) snprintf(pending, sizeof pending, "--pending %s", test_pending_roles());
    setenv("PENDING", pending, 1);
    char *argv[] = {"scripts/readme.sh", "--check", NULL}, *out, *err;
    int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("scripts/readme.sh --check: exit %d\n%s", rc, err);
    free(out), free(err);
}

/* The first ```python block of harness/README.md, run by a python3 that has h5py. */
static void python_example_runs(void **state)
{
    (void)state;
    const char *pythons[] = {"/usr/bin/python3", "python3"};
    const char *py = NULL;
    for (size_t i = 0; i < 2 && !py; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "%s -c 'import h5py' >/dev/null 2>&1", pythons[i]);
        if (system(cmd) == 0) py = pythons[i];
    }
    if (!py) {
        print_message("skipped: no python3 with h5py here (apt-get install python3-h5py)\n");
        skip();
    }
    char *readme = test_read_file("harness/README.md", NULL);
    assert_non_null(readme);
    char *start = strstr(readme, "```python\n");
    assert_non_null(start);
    start += strlen("```python\n");
    char *end = strstr(start, "```");
    assert_non_null(end);
    *end = '\0';
    char dir[256], script[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(script, sizeof script, "%s/example.py", dir);
    test_write_file(script, start);
    char *argv[] = {(char *)py, script, NULL}, *out, *err;
    int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("harness/README.md's Python example: exit %d\n%s", rc, err);
    assert_non_null(strstr(out, "H100"));   /* the GPU it names, and a number */
    free(out), free(err), free(readme);
    test_rmtree(dir);
}

/* README.md is read in ten minutes: at most 2,000 words (as `wc -w` counts
 * them: runs between blanks, code blocks and tables included), and the set-up
 * line and the two commands in its first section. */
static void readme_is_a_page(void **state)
{
    (void)state;
    char *readme = test_read_file("README.md", NULL);
    assert_non_null(readme);
    size_t words = 0;
    for (const char *p = readme; *p;) {
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
        if (!*p) break;
        words++;
        while (*p && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') p++;
    }
    print_message("README.md: %zu words\n", words);
    if (words > 2000) fail_msg("README.md has %zu words (at most 2,000: the rest belongs in the "
                               "folders' READMEs)", words);
    const char *setup = strstr(readme, "apt-get install"), *test = strstr(readme, "make test"),
               *repro = strstr(readme, "make reproduce"), *second = strstr(readme, "\n## ");
    assert_non_null(setup);
    assert_non_null(test);
    assert_non_null(repro);
    assert_non_null(second);
    second = strstr(second + 1, "\n## ");   /* the section after the set-up's */
    if (!second || setup > second || test > second || repro > second)
        fail_msg("README.md: the set-up line, make test and make reproduce come in its first section");
    free(readme);
}

/* CITATION.cff (what GitHub's "Cite this repository" reads) and .zenodo.json
 * (what an archive deposit of a release reads) name the same title, version
 * and license, and every keyword of the one is in the other. */
static void citation_files_agree(void **state)
{
    (void)state;
    char *cff = test_read_file("CITATION.cff", NULL), *zen = test_read_file(".zenodo.json", NULL);
    assert_non_null(cff);
    assert_non_null(zen);
    const char *keys[][2] = {{"title:", "\"title\":"}, {"version:", "\"version\":"}};
    for (size_t i = 0; i < 2; i++) {
        char a[256], b[256];
        test_line_value(cff, keys[i][0], a, sizeof a);
        test_line_value(zen, keys[i][1], b, sizeof b);
        if (!a[0] || strcmp(a, b) != 0)
            fail_msg("CITATION.cff %s \"%s\" but .zenodo.json %s \"%s\"", keys[i][0], a, keys[i][1], b);
    }
    assert_non_null(strstr(cff, "\nlicense: MIT\n"));
    assert_non_null(strstr(zen, "\"license\": \"MIT\""));
    const char *kw = strstr(cff, "\nkeywords:\n");
    assert_non_null(kw);
    int n = 0;
    for (const char *p = kw + 10; strncmp(p, "\n  - ", 5) == 0; n++) {
        const char *e = strchr(p + 5, '\n');
        char quoted[128];
        snprintf(quoted, sizeof quoted, "\"%.*s\"", (int)((e ? e : p + strlen(p)) - p - 5), p + 5);
        if (!strstr(zen, quoted)) fail_msg("keyword %s of CITATION.cff is not in .zenodo.json", quoted);
        if (!e) break;
        p = e;
    }
    assert_true(n > 0);
    free(cff), free(zen);
}

/* git's object name of REV:PATH, or of the file PATH here (git hash-object),
 * into buf; 0, or -1 when git cannot say. */
static int git_object(const char *rev, const char *path, char *buf, size_t len)
{
    char spec[700], *out = NULL, *err = NULL;
    snprintf(spec, sizeof spec, "%s:%s", rev ? rev : "", path);
    char *at_rev[] = {"git", "rev-parse", "--verify", "-q", spec, NULL};
    char *here[] = {"git", "hash-object", "--", (char *)path, NULL};
    const int rc = test_run(rev ? at_rev : here, &out, &err);
    buf[0] = 0;
    if (rc == 0 && out) snprintf(buf, len, "%.*s", (int)strcspn(out, "\n"), out);
    free(out), free(err);
    return rc == 0 && buf[0] ? 0 : -1;
}

/* The tree (git rev-parse COMMIT:PATH) of what measures, kernels/, harness/,
 * experiments/ and the Makefile, is the same at commits a and b: 1, 0 (naming
 * the first that differs in what), or -1 when git cannot say (a tree without
 * its repository, a commit it does not hold). */
static int measures_alike(const char *a, const char *b, char *what, size_t len)
{
    static const char *const parts[] = {"kernels", "harness", "experiments", "Makefile"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char ta[128], tb[128];
        if (git_object(a, parts[i], ta, sizeof ta) != 0 || git_object(b, parts[i], tb, sizeof tb) != 0)
            return -1;
        if (strcmp(ta, tb) != 0) {
            snprintf(what, len, "%s", parts[i]);
            return 0;
        }
    }
    return 1;
}

/* A release is named by its commit (a tag made in a clone does not reach the
 * repository): CITATION.cff's `commit:` is a commit whose kernels/, harness/,
 * experiments/ and Makefile are those that every reference run of
 * data/references.mk was built from, clean (the run's own commit, or one with
 * the same trees: the release commit may be the one that adds the runs and
 * the paper), and that both sanitizer tables record (the same way); README.md
 * and data/README.md name it.  Where git here cannot compare a run's commit
 * with it (a tree without its repository, a clone that lacks one of the two)
 * the test is skipped, saying so. */
static void release_is_one_commit(void **state)
{
    (void)state;
    char *cff = test_read_file("CITATION.cff", NULL), commit[128];
    assert_non_null(cff);
    test_line_value(cff, "commit:", commit, sizeof commit);
    if (strlen(commit) != 40 || strspn(commit, "0123456789abcdef") != 40)
        fail_msg("CITATION.cff commit: \"%s\", expected a full 40-digit commit hash", commit);
    char shorthash[8];
    snprintf(shorthash, sizeof shorthash, "%.7s", commit);
    const char *docs[] = {"README.md", "data/README.md"};
    for (size_t i = 0; i < 2; i++) {
        char *text = test_read_file(docs[i], NULL);
        assert_non_null(text);
        if (!strstr(text, shorthash)) fail_msg("%s does not name the release's commit %s", docs[i], shorthash);
        free(text);
    }
    char runs[TEST_MAX_RUNS][600];
    const size_t n = test_reference_runs(runs, TEST_MAX_RUNS);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        char *path = strchr(runs[i], '=') + 1, got[128], dirty[16], what[32];
        const int role = (int)(strchr(runs[i], '=') - runs[i]);
        test_attr(path, "git_commit", got, sizeof got);
        test_attr(path, "git_dirty", dirty, sizeof dirty);
        if (strcmp(dirty, "0") != 0)
            fail_msg("%s (%.*s) is not of a clean checkout (git_dirty %s)", path, role, runs[i], dirty);
        if (strcmp(got, commit) == 0) continue;
        const int alike = measures_alike(got, commit, what, sizeof what);
        if (alike < 0) {
            print_message("skipped: %s (%.*s) is of %s, not the release's %s, and git here cannot "
                          "compare the two (a tree without its repository, or a clone that lacks one "
                          "of them: git fetch --unshallow)\n", path, role, runs[i], got, commit);
            free(cff);
            skip();
        }
        if (alike == 0)
            fail_msg("%s (%.*s) is of %s, whose %s differs from the release commit %s's", path,
                     role, runs[i], got, what, commit);
    }
    const char *tables[] = {"data/sanitizer-h100-80gb-hbm3.tsv", "data/sanitizer-h200.tsv"};
    for (size_t i = 0; i < 2; i++) {
        char *text = test_read_file(tables[i], NULL);
        assert_non_null(text);
        size_t rows = 0;
        char alike_to[41] = "";   /* a commit of the same trees, once compared */
        for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n'), rows++) {
            char *end = strchr(line + 1, '\n'), *tab = line, got[41], what[32];
            for (int f = 0; f < 6 && tab; f++) tab = strchr(tab + 1, '\t');
            if (!tab || !end || (size_t)(end - tab - 1) != 40)
                fail_msg("%s row %zu has no commit (expected 40 hex digits in its 7th field)", tables[i], rows + 1);
            snprintf(got, sizeof got, "%.40s", tab + 1);
            if (!strcmp(got, commit) || !strcmp(got, alike_to)) continue;
            const int alike = measures_alike(got, commit, what, sizeof what);
            if (alike < 0)
                fail_msg("%s row %zu is of %s, not the release's %s, and git here cannot compare the two",
                         tables[i], rows + 1, got, commit);
            if (alike == 0)
                fail_msg("%s row %zu is of %s, whose %s differs from the release commit %s's", tables[i],
                         rows + 1, got, what, commit);
            snprintf(alike_to, sizeof alike_to, "%s", got);
        }
        assert_true(rows > 0);
        free(text);
    }
    free(cff);
}


/* The commit CITATION.cff names holds what it releases: every reference run of
 * data/references.mk and both sanitizer tables byte for byte as they are here,
 * and the paper's sources, so that a deposit of that commit has the code, the
 * data and the paper together.  Where git cannot look into that commit (a tree
 * without its repository, a shallow clone that lacks it) the test is skipped,
 * saying so. */
static void release_holds_its_runs_and_paper(void **state)
{
    (void)state;
    char *cff = test_read_file("CITATION.cff", NULL), commit[128], obj[128], mine[128];
    assert_non_null(cff);
    test_line_value(cff, "commit:", commit, sizeof commit);
    free(cff);
    if (git_object(commit, "CITATION.cff", obj, sizeof obj) != 0) {
        print_message("skipped: git here does not hold the release commit %s (a tree without its "
                      "repository, or a shallow clone: git fetch --unshallow)\n", commit);
        skip();
    }
    char runs[TEST_MAX_RUNS + 2][600];
    size_t n = test_reference_runs(runs, TEST_MAX_RUNS);
    assert_true(n > 0);
    snprintf(runs[n++], sizeof runs[0], "table=data/sanitizer-h100-80gb-hbm3.tsv");
    snprintf(runs[n++], sizeof runs[0], "table=data/sanitizer-h200.tsv");
    for (size_t i = 0; i < n; i++) {
        const char *path = strchr(runs[i], '=') + 1;
        if (git_object(NULL, path, mine, sizeof mine) != 0) fail_msg("git hash-object %s failed", path);
        if (git_object(commit, path, obj, sizeof obj) != 0)
            fail_msg("%s is not in the release commit %.12s that CITATION.cff names: a deposit of it "
                     "would lack the data", path, commit);
        if (strcmp(obj, mine) != 0)
            fail_msg("%s differs from the release commit %.12s's copy", path, commit);
    }
    if (git_object(commit, "paper/main.tex", obj, sizeof obj) != 0)
        fail_msg("the release commit %.12s holds no paper/main.tex", commit);
}

const struct CMUnitTest readme_tests[] = {
    cmocka_unit_test(generated_tables_are_current),
    cmocka_unit_test(python_example_runs),
    cmocka_unit_test(citation_files_agree),
    cmocka_unit_test(release_is_one_commit),
    cmocka_unit_test(release_holds_its_runs_and_paper),
    cmocka_unit_test(readme_is_a_page),
};
const size_t readme_tests_count = sizeof readme_tests / sizeof readme_tests[0];
