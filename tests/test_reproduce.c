/* scripts/reproduce.sh on a machine without a GPU: it runs the host rungs,
 * checks the host claims on that run and says which hold, and fails only for
 * a claim that says it holds on any x86-64 core.  A small host experiment and
 * claims file stand in for the shipped ones, and everything it writes goes to
 * a temporary folder (REPRODUCE_*); with a GPU here the script takes its GPU
 * path instead, and the test is skipped.  And what `make reproduce`'s first
 * step, scripts/deps.sh, says on a host where nothing can be installed. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

/* Two host claims over the experiment below, bounded so that they hold (at_least
 * 0) or fail (at_most 0) on any CPU. */
#define CLAIM(id, expect, scope)                                                           \
    "[" id "]\ntext = restrict over naive at -O1: {range}\n"                                \
    "value = ratio host_restrict host_naive\nopt_levels = 1\nother_opt_levels = 1\n"        \
    "runs = h100\nshapes = 32\nexpect = " expect "\nscope = " scope "\n"

/* How many files named reproduce-host-*.h5 the folder holds. */
static int host_runs_in(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += !strncmp(e->d_name, "reproduce-host-", 15) && strstr(e->d_name, ".h5") != NULL;
    closedir(d);
    return n;
}

/* Run the script with its folders under `dir` and the claims `claims`; its
 * exit status, output and errors. */
static int reproduce(const char *dir, const char *claims, const char *data, char **out, char **err)
{
    char path[400];
    snprintf(path, sizeof path, "%s/claims.ini", dir);
    test_write_file(path, claims);
    setenv("REPRODUCE_CLAIMS", path, 1);
    snprintf(path, sizeof path, "%s/%s", dir, data);
    setenv("REPRODUCE_DATA", path, 1);
    char *argv[] = {"scripts/reproduce.sh", NULL};
    return test_run(argv, out, err);
}

static void reproduce_without_a_gpu_checks_the_host_claims(void **state)
{
    (void)state;
    char *dev[] = {(char *)test_binary(), "device", NULL}, *out, *err;
    if (test_run(dev, &out, &err) == 0) {
        free(out), free(err);
        print_message("skipped: a GPU here, so make reproduce takes its GPU path\n");
        skip();
    }
    free(out), free(err);
    char dir[256], path[400];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/experiments", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    setenv("REPRODUCE_EXPERIMENTS", path, 1);
    snprintf(path, sizeof path, "%s/experiments/host.ini", dir);
    test_write_file(path, "[experiment]\nname = host\nseed = 1\n"
                          "[sampling]\nhost_min_samples = 2\nhost_min_time_ms = 1\nhost_timeout_ms = 20\n"
                          "[host]\nvariants = host_naive host_restrict\nsizes = 32\nopt_levels = 1\n");
    snprintf(path, sizeof path, "%s/out", dir);
    setenv("REPRODUCE_OUT", path, 1);
    setenv("BIN", test_binary(), 1);
    /* the shipped references, as the Makefile exports them (and as they were
     * here before, after) */
    static const char *const refs[] = {"REF_H100", "REF_H200", "REF_TRANSFERS", "REF_SHAPES_H100",
                                       "REF_REPRO"};
    char *before[sizeof refs / sizeof refs[0]];
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        char ref[300];
        before[i] = getenv(refs[i]) ? strdup(getenv(refs[i])) : NULL;
        test_reference(refs[i], ref, sizeof ref);
        setenv(refs[i], ref, 1);
    }

    /* held anywhere, and one about the reference machines that does not hold
     * here: reported, and the reproduction passes */
    static const char held[] = CLAIM("any_holds", "at_least 0", "any")
        CLAIM("reference_not_held", "at_most 0", "reference");
    int rc = reproduce(dir, held, "data1", &out, &err);
    if (rc != 0) fail_msg("reproduce.sh: exit %d\n%s%s", rc, out, err);
    assert_non_null(strstr(out, "reproduce: mmladder device: "));   /* why there is no GPU */
    assert_non_null(strstr(out, "NOT reproduced here: the paper's GPU rows"));
    assert_non_null(strstr(out, "The host claims on your run"));
    assert_non_null(strstr(out, "any_holds"));
    assert_non_null(strstr(out, " held           (holds on any x86-64 core)"));
    assert_non_null(strstr(out, " not held here  "));
    assert_non_null(strstr(out, "2 of 2 claims evaluated on "));
    assert_non_null(strstr(out, ": 1 held, 0 not held, 1 not held here"));
    snprintf(path, sizeof path, "%s/data1", dir);
    assert_int_equal(host_runs_in(path), 1);
    snprintf(path, sizeof path, "%s/out/claims-host.txt", dir);
    char *saved = test_read_file(path, NULL);
    assert_non_null(saved);
    assert_non_null(strstr(saved, ": 1 held, 0 not held, 1 not held here"));
    free(saved), free(out), free(err);

    /* one that says it holds on any x86-64 core and does not: the
     * reproduction fails, and says why */
    static const char fails[] = CLAIM("any_holds", "at_least 0", "any")
        CLAIM("any_fails", "at_most 0", "any");
    rc = reproduce(dir, fails, "data2", &out, &err);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(out, " NOT HELD "));
    assert_non_null(strstr(out, ": 1 held, 1 not held, 0 not held here"));
    assert_non_null(strstr(err, "reproduce: FAILED: a host claim that says it holds on any x86-64 "
                                "core did not hold"));
    free(out), free(err);

    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        if (before[i]) setenv(refs[i], before[i], 1);
        else unsetenv(refs[i]);
        free(before[i]);
    }
    unsetenv("REPRODUCE_EXPERIMENTS"), unsetenv("REPRODUCE_CLAIMS");
    unsetenv("REPRODUCE_DATA"), unsetenv("REPRODUCE_OUT"), unsetenv("BIN");
    test_rmtree(dir);
}

/* A host with no package registry (a GPU host, typically) and a build that
 * fails there: deps.sh, whether root or not, shows the probe's messages and the
 * way that installs nothing, and fails.  apt-get is a stand-in that fails as an
 * unreachable registry does, so nothing is installed or fetched. */
static void a_host_without_a_registry_is_told_the_way_that_needs_none(void **state)
{
    (void)state;
    char dir[256], path[400], cmd[1200];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/apt-get", dir);
    test_write_script(path, "#!/bin/sh\necho 'E: Temporary failure resolving deb.debian.org' >&2\nexit 100\n");
    snprintf(path, sizeof path, "%s/cc-fails", dir);
    test_write_script(path, "#!/bin/sh\necho 'p.c:1: hdf5.h: No such file or directory' >&2\nexit 1\n");
    snprintf(cmd, sizeof cmd, "PATH='%s':\"$PATH\" CC='%s/cc-fails' NVCC= scripts/deps.sh", dir, dir);
    char *argv[] = {"sh", "-c", cmd, NULL}, *out = NULL, *err = NULL;
    assert_int_equal(test_run(argv, &out, &err), 1);
    assert_non_null(strstr(err, "hdf5.h: No such file or directory"));
    assert_non_null(strstr(err, ". scripts/offline-env.sh; make test-built (or make reproduce-built)"));
    assert_non_null(strstr(err, "scripts/fetch-debs.sh"));
    free(out), free(err);
    test_rmtree(dir);
}

/* scripts/reference-from-archive.sh on a small repository's archive: the tree
 * it unpacks and commits is the commit's (the export-subst file given its
 * placeholder back), and a tree hash that is not the commit's, or a hash that
 * is no hash, stops it before anything runs (exit 2). */
static void an_archive_runs_only_as_its_commits_tree(void **state)
{
    (void)state;
    char dir[256], cmd[2400], script[1200];
    test_tmpdir(dir, sizeof dir);
    if (!getcwd(script, sizeof script - 40)) fail_msg("%s", "getcwd failed");
    strcat(script, "/scripts/reference-from-archive.sh");
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkdir r && cd r && git init -q && mkdir scripts && "
             "echo '$Format:%%H$' > scripts/archive-commit && "
             "echo 'scripts/archive-commit export-subst' > .gitattributes && echo a > a.txt && "
             "git add -A && git -c user.name=t -c user.email=t@t commit -q -m t && "
             "git archive HEAD | xz > ../a.tar.xz && git rev-parse HEAD 'HEAD^{tree}' > ../ids",
             dir);
    char *have[] = {"sh", "-c", "command -v git && command -v xz", NULL}, *out = NULL, *err = NULL;
    if (test_run(have, &out, &err) != 0) {
        print_message("skipped: no git or xz here to make an archive with\n");
        free(out), free(err), test_rmtree(dir);
        skip();
    }
    free(out), free(err);
    char *mk[] = {"sh", "-c", cmd, NULL};
    if (test_run(mk, &out, &err) != 0) fail_msg("the archive was not made: %s", err ? err : "");
    free(out), free(err);
    char ids_path[400], commit[41], tree[41];
    snprintf(ids_path, sizeof ids_path, "%s/ids", dir);
    char *ids = test_read_file(ids_path, NULL);
    assert_non_null(ids);
    assert_int_equal(sscanf(ids, "%40s %40s", commit, tree), 2);
    free(ids);
    const struct { const char *commit, *tree; int rc; const char *says; } cases[] = {
        {commit, tree, 0, "files, tree"},
        {commit, commit, 2, "nothing run"},
        {"abc", tree, 2, "is not a full 40-digit hash"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && TMPDIR='%s' '%s' a.tar.xz %s %s out verify", dir, dir,
                 script, cases[i].commit, cases[i].tree);
        char *run[] = {"sh", "-c", cmd, NULL};
        const int rc = test_run(run, &out, &err);
        if (rc != cases[i].rc || (!strstr(out ? out : "", cases[i].says) && !strstr(err ? err : "", cases[i].says)))
            fail_msg("case %zu: exit %d (expected %d), output lacks \"%s\": %s%s", i, rc, cases[i].rc,
                     cases[i].says, out ? out : "", err ? err : "");
        free(out), free(err);
    }
    test_rmtree(dir);
}

const struct CMUnitTest reproduce_tests[] = {
    cmocka_unit_test(reproduce_without_a_gpu_checks_the_host_claims),
    cmocka_unit_test(a_host_without_a_registry_is_told_the_way_that_needs_none),
    cmocka_unit_test(an_archive_runs_only_as_its_commits_tree),
};
const size_t reproduce_tests_count = sizeof reproduce_tests / sizeof reproduce_tests[0];
