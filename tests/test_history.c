/* Claims stated before their data: when each band was stated
 * (paper/claims-history.tsv, from git by scripts/claim-history.sh), held to
 * git's history, and what `mmladder claims --history` makes of it: a band
 * stated before its runs is predicted, one moved after them is revised only
 * with its record (else the check fails, saying what to add), a claim new
 * since its runs is stated after its data.  Bad histories and records are
 * refused with file:line. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util.h"

/* The fields of line `id` of a history text: stated, commit, previous (into
 * the three buffers); 0 when there is no such line. */
static int history_line(const char *text, const char *id, char f[3][64])
{
    const size_t n = strlen(id);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, id, n) || p[n] != '\t') continue;
        const char *q = p + n + 1;
        for (int k = 0; k < 3; k++) {
            const size_t len = strcspn(q, k < 2 ? "\t" : "\n");
            snprintf(f[k], 64, "%.*s", (int)len, q);
            q += len + (q[len] != '\0');
        }
        return 1;
    }
    return 0;
}

/* The shipped history is git's: each line as scripts/claim-history.sh prints
 * it now, but for a band the history was written with before its commit
 * ("uncommitted"), which must then be the commit that last wrote the history,
 * with the same band before it.  Without git history (a tree without its
 * repository, a shallow clone) it is skipped, saying so. */
static void claims_history_is_the_repositorys(void **state)
{
    (void)state;
    char *argv[] = {"scripts/claim-history.sh", "paper/claims.ini", NULL}, *now, *err;
    const int rc = test_run(argv, &now, &err);
    if (rc == 3) {
        print_message("skipped: %s", err);
        free(now), free(err);
        skip();
    }
    if (rc != 0) fail_msg("scripts/claim-history.sh: exit %d: %s", rc, err);
    free(err);
    char *shipped = test_read_file("paper/claims-history.tsv", NULL);
    assert_non_null(shipped);
    char *log[] = {"git", "log", "-1", "--format=%H", "--", "paper/claims-history.tsv", NULL}, *last;
    assert_int_equal(test_run(log, &last, &err), 0);
    last[strcspn(last, "\n")] = '\0';
    free(err);
    size_t lines = 0;
    for (const char *p = now; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
        char id[64], a[3][64], b[3][64];
        snprintf(id, sizeof id, "%.*s", (int)strcspn(p, "\t\n"), p);
        if (!strcmp(id, "claim") || !id[0]) continue;
        lines++;
        assert_true(history_line(now, id, a));
        if (!history_line(shipped, id, b))
            fail_msg("paper/claims-history.tsv has no line for claim '%s' (make claims-history)", id);
        const int same = !strcmp(a[0], b[0]) && !strcmp(a[1], b[1]) && !strcmp(a[2], b[2]);
        const int written_before_its_commit =
            !strcmp(b[1], "uncommitted") && !strcmp(a[2], b[2]) &&
            (!strcmp(a[1], "uncommitted") || !strcmp(a[1], last));
        if (!same && !written_before_its_commit)
            fail_msg("paper/claims-history.tsv is not git's for claim '%s': it says %s %s '%s', git "
                     "%s %s '%s' (make claims-history)", id, b[0], b[1], b[2], a[0], a[1], a[2]);
    }
    assert_true(lines > 100);
    free(now), free(shipped), free(last);
}

/* `mmladder claims --history H CLAIMS RUN`, its exit status, output and errors. */
static int claims_with(const char *history, const char *claims, const char *run, char **out,
                       char **err)
{
    char role[400];
    snprintf(role, sizeof role, "h1=%s", run);
    char *argv[] = {(char *)test_binary(), "claims", (char *)claims, "--history", (char *)history,
                    role, NULL};
    return test_run(argv, out, err);
}

static void bands_are_told_predicted_revised_or_after(void **state)
{
    (void)state;
    char dir[256], exp[300], run[300], claims[300], history[300], *out, *err;
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/e.ini", dir);
    snprintf(run, sizeof run, "%s/r.h5", dir);
    snprintf(claims, sizeof claims, "%s/claims.ini", dir);
    snprintf(history, sizeof history, "%s/history.tsv", dir);
    test_write_file(exp, "[experiment]\nname = e\nseed = 3\n[sampling]\nhost_min_samples = 1\n"
                         "host_min_time_ms = 0.001\nhost_timeout_ms = 10\n[h]\nvariants = host_naive\n"
                         "sizes = 8\nopt_levels = 1\n");
    char *runv[] = {(char *)test_binary(), "run", exp, "-o", run, NULL};
    assert_int_equal(test_run(runv, &out, &err), 0);
    free(out), free(err);
    static const char head[] = "[a]\ntext = {max} incorrect\nvalue = unverified\nruns = h1\n"
                               "expect = at_most 0\n\n[b]\ntext = {max} incorrect\n"
                               "value = unverified\nruns = h1\nexpect = at_most 0\n\n"
                               "[c]\ntext = {max} incorrect\nvalue = unverified\nruns = h1\n"
                               "expect = at_most 0\n";
    /* a stated long before the run, b after it (new), c moved after it */
    static const char hist[] = "claim\tstated_utc\tcommit\tprevious_band\n"
                               "a\t2000-01-01T00:00:00Z\t0123456789abcdef0123456789abcdef01234567\t-\n"
                               "b\t2999-01-01T00:00:00Z\tuncommitted\t-\n"
                               "c\t2999-01-01T00:00:00Z\tuncommitted\tat_most 1\n";
    test_write_file(claims, head);
    test_write_file(history, hist);
    assert_int_equal(claims_with(history, claims, run, &out, &err), 1);
    if (!strstr(out, "band predicted: stated 2000-01-01 00:00 UTC (0123456)") ||
        !strstr(out, "band stated after its data: 2999-01-01 00:00 UTC") ||
        !strstr(out, "1 predicted") || !strstr(out, "1 stated after their data") ||
        !strstr(out, "1 moved without a record") ||
        !strstr(err, "[c]: MOVED WITHOUT A RECORD from 'at_most 1' to 'at_most 0'") ||
        !strstr(err, "add 'revised = at_most 1 -> at_most 0 (2999-01-01, uncommitted): why'"))
        fail_msg("a band moved without its record: %s%s", out, err);
    free(out), free(err);
    /* with its record: revised, and the check passes */
    char text[2048];
    snprintf(text, sizeof text, "%srevised = at_most 1 -> at_most 0 (2999-01-01, test): the run "
                                "said so\n", head);
    test_write_file(claims, text);
    assert_int_equal(claims_with(history, claims, run, &out, &err), 0);
    if (!strstr(out, "band revised after its runs of") || !strstr(out, "at_most 1 -> at_most 0 "
                                                                       "(2999-01-01, test): the "
                                                                       "run said so") ||
        !strstr(out, "1 revised after them"))
        fail_msg("a band moved with its record: %s%s", out, err);
    free(out), free(err);
    test_rmtree(dir);
}

/* A history or a record that is not one is refused, saying where. */
static void bad_histories_and_records_are_refused(void **state)
{
    (void)state;
    char dir[256], claims[300], history[300], *out, *err;
    test_tmpdir(dir, sizeof dir);
    snprintf(claims, sizeof claims, "%s/claims.ini", dir);
    snprintf(history, sizeof history, "%s/history.tsv", dir);
    static const char one[] = "[a]\ntext = t\nvalue = unverified\nruns = h1\nexpect = at_most 0\n";
    const struct {
        const char *claims, *history, *says;
    } cases[] = {
        {one, "claim\tstated_utc\tcommit\tprevious_band\n", "history.tsv: no line for claim 'a'"},
        {one, "a\t2026-11-28\tx\t-\n", "history.tsv:1: stated_utc '2026-11-28'"},
        {one, "a\t2026-11-28T00:00:00Z\tx\n", "history.tsv:1: 3 fields"},
        {one, "a\t2026-11-28T00:00:00Z\tx\tsometimes\n", "history.tsv:1: previous_band 'sometimes'"},
        {one, "z\t2026-11-28T00:00:00Z\tx\t-\n", "history.tsv:1: claim 'z' is not in"},
        {"[a]\ntext = t\nvalue = unverified\nruns = h1\nexpect = at_most 0\n"
         "revised = at_most 2 -> at_most 1 (x): y\n",
         "a\t2026-11-28T00:00:00Z\tx\t-\n", "revised record 1 moves the band to 'at_most 1', but "
                                            "the band now is 'at_most 0'"},
        {"[a]\ntext = t\nvalue = unverified\nruns = h1\nexpect = at_most 0\nrevised = at_most 1\n",
         "a\t2026-11-28T00:00:00Z\tx\t-\n", "claims.ini:6: revised: 'at_most 1' (expected OLD -> NEW"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_write_file(claims, cases[i].claims);
        test_write_file(history, cases[i].history);
        const int rc = claims_with(history, claims, "no-such-run.h5", &out, &err);
        if (rc != 1 || !strstr(err, cases[i].says))
            fail_msg("case %zu: exit %d, '%s' (expected 1 and '%s')", i, rc, err, cases[i].says);
        free(out), free(err);
    }
    test_rmtree(dir);
}

const struct CMUnitTest history_tests[] = {
    cmocka_unit_test(claims_history_is_the_repositorys),
    cmocka_unit_test(bands_are_told_predicted_revised_or_after),
    cmocka_unit_test(bad_histories_and_records_are_refused),
};
const size_t history_tests_count = sizeof history_tests / sizeof history_tests[0];
