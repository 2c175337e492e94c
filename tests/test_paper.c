/* The paper's numbers: scripts/paper-numbers.sh must turn the shipped result
 * files into macros with a value each, scripts/check-paper.sh must accept the
 * paper against them, and the check must fail, naming the macro, on a macro
 * the data do not give.  Run from the repository root, like the rest of the
 * suite. */
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

static const char GENERATOR[] = "scripts/paper-numbers.sh";
static const char CHECK[] = "scripts/check-paper.sh";
static const char *const GENERATED[] = {"numbers.tex", "table-ladder.tex", "table-host.tex",
                                        "table-hardware.tex", "table-transfers.tex"};

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

/* Remove what a test wrote into its folder, then the folder. */
static void cleanup(const char *dir, const char *const *names, size_t n)
{
    char p[512];
    for (size_t i = 0; i < n; i++) {
        path_in(p, sizeof p, dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* Run prog with up to six arguments (the first NULL ends them). */
static int run(char **out, char **err, const char *prog, const char *a1, const char *a2,
               const char *a3, const char *a4, const char *a5, const char *a6)
{
    char *argv[] = {(char *)prog, (char *)a1, (char *)a2, (char *)a3,
                    (char *)a4, (char *)a5, (char *)a6, NULL};
    return test_run(argv, out, err);
}

static void numbers_from_shipped_data_pass_the_check(void **state)
{
    (void)state;
    char dir[256], numbers[512], table[512];
    test_tmpdir(dir, sizeof dir);
    path_in(numbers, sizeof numbers, dir, "numbers.tex");

    char *out, *err;
    int rc = run(&out, &err, GENERATOR, "-b", test_binary(), numbers, NULL, NULL, NULL);
    if (rc != 0) fail_msg("%s exited %d: %s", GENERATOR, rc, err);
    free(out); free(err);

    char *text = test_read_file(numbers, NULL);
    assert_non_null(text);
    /* a number from each input file */
    assert_non_null(strstr(text, "\\newcommand{\\NumHOneZeroZeroGflopsCublasFpThreeTwoNEightOneNineTwo}{"));
    assert_non_null(strstr(text, "\\newcommand{\\NumHTwoZeroZeroGpuName}{NVIDIA H200}"));
    assert_non_null(strstr(text, "\\newcommand{\\NumXferHTwoDPageableOverPinnedCublasFpThreeTwoNEightOneNineTwo}{"));
    assert_non_null(strstr(text, "\\newcommand{\\NumReproGpuPairs}{"));
    /* no value the data could not supply */
    assert_null(strstr(text, "\\MissingDatum{Num"));
    free(text);
    for (size_t i = 1; i < sizeof GENERATED / sizeof GENERATED[0]; i++) {
        path_in(table, sizeof table, dir, GENERATED[i]);
        char *rows = test_read_file(table, NULL);
        if (!rows) fail_msg("%s did not write %s", GENERATOR, table);
        assert_non_null(strstr(rows, "\\\\"));
        assert_null(strstr(rows, "MissingDatum"));
        free(rows);
    }

    rc = run(&out, &err, CHECK, "-n", numbers, NULL, NULL, NULL, NULL);
    if (rc != 0) fail_msg("%s on paper/*.tex exited %d: %s", CHECK, rc, err);
    assert_non_null(strstr(out, "macros used"));
    free(out); free(err);
    cleanup(dir, GENERATED, sizeof GENERATED / sizeof GENERATED[0]);
}

static void check_fails_on_a_macro_the_data_do_not_give(void **state)
{
    (void)state;
    static const char *const names[] = {"numbers.tex", "ok.tex", "bad.tex"};
    char dir[256], numbers[512], ok[512], bad[512];
    test_tmpdir(dir, sizeof dir);
    path_in(numbers, sizeof numbers, dir, names[0]);
    path_in(ok, sizeof ok, dir, names[1]);
    path_in(bad, sizeof bad, dir, names[2]);
    test_write_file(numbers, "% generated\n\\newcommand{\\NumKnownValue}{42}\n");
    test_write_file(ok, "A value from the data: \\NumKnownValue.\n");
    test_write_file(bad, "Known \\NumKnownValue, and\nunknown \\NumNotInTheData{} here.\n");

    char *out, *err;
    int rc = run(&out, &err, CHECK, "-n", numbers, ok, NULL, NULL, NULL);
    if (rc != 0) fail_msg("%s rejected a defined macro (exit %d): %s", CHECK, rc, err);
    free(out); free(err);

    rc = run(&out, &err, CHECK, "-n", numbers, bad, NULL, NULL, NULL);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "NumNotInTheData"));
    assert_non_null(strstr(err, "bad.tex:2"));
    assert_null(strstr(err, "NumKnownValue"));
    free(out); free(err);
    cleanup(dir, names, sizeof names / sizeof names[0]);
}

static void check_fails_on_values_the_generator_could_not_fill(void **state)
{
    (void)state;
    static const char *const names[] = {"numbers.tex", "paper.tex"};
    char dir[256], numbers[512], paper[512];
    test_tmpdir(dir, sizeof dir);
    path_in(numbers, sizeof numbers, dir, names[0]);
    path_in(paper, sizeof paper, dir, names[1]);
    test_write_file(numbers, "\\newcommand{\\NumGone}{\\MissingDatum{NumGone}}\n"
                             "\\newcommand{\\NumEmpty}{}\n\\newcommand{\\NumFine}{1.5}\n");
    test_write_file(paper, "\\NumFine\n");

    char *out, *err;
    int rc = run(&out, &err, CHECK, "-n", numbers, paper, NULL, NULL, NULL);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "NumGone"));
    assert_non_null(strstr(err, "NumEmpty"));
    assert_null(strstr(err, "NumFine"));
    free(out); free(err);
    cleanup(dir, names, sizeof names / sizeof names[0]);
}

static void generator_fails_when_data_are_missing(void **state)
{
    (void)state;
    char dir[256], numbers[512];
    test_tmpdir(dir, sizeof dir);
    path_in(numbers, sizeof numbers, dir, "numbers.tex");
    /* a paper run has no transfer rows: the transfer numbers cannot be made */
    char *out, *err, h100[256];
    test_reference("REF_H100", h100, sizeof h100);
    int rc = run(&out, &err, GENERATOR, "-b", test_binary(), "-t", h100, numbers, NULL);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(err, "NumXferRows"));
    free(out); free(err);
    rc = run(&out, &err, CHECK, "-n", numbers, "paper/main.tex", NULL, NULL, NULL);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(err, "NumXferRows"));
    free(out); free(err);
    cleanup(dir, GENERATED, sizeof GENERATED / sizeof GENERATED[0]);
}

const struct CMUnitTest paper_tests[] = {
    cmocka_unit_test(numbers_from_shipped_data_pass_the_check),
    cmocka_unit_test(check_fails_on_a_macro_the_data_do_not_give),
    cmocka_unit_test(check_fails_on_values_the_generator_could_not_fill),
    cmocka_unit_test(generator_fails_when_data_are_missing),
};
const size_t paper_tests_count = sizeof paper_tests / sizeof paper_tests[0];
