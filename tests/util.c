/* Test helpers: see util.h. */
#define _XOPEN_SOURCE 700
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "results/results_h5.h"
#include "results/trust.h"

void test_tmpdir(char *buf, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(buf, len, "%s/mmladder-test-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(buf)) {
        perror("mkdtemp");
        abort();
    }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void test_rmtree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

void test_write_script(const char *path, const char *text)
{
    test_write_file(path, text);
    if (chmod(path, 0755) != 0) {
        perror(path);
        abort();
    }
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) abort();
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

bool test_reference_made(const char *key, char *buf, size_t len)
{
    char *text = test_read_file("data/references.mk", NULL);
    size_t k = strlen(key);
    bool named = false;
    buf[0] = '\0';
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        if (strncmp(line, key, k) == 0 && line[k] == '=') {
            snprintf(buf, len, "%s", line + k + 1);
            named = true;
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    if (!named) {
        fprintf(stderr, "data/references.mk names no %s\n", key);
        abort();
    }
    return buf[0] != '\0';
}

void test_reference(const char *key, char *buf, size_t len)
{
    if (!test_reference_made(key, buf, len)) {
        fprintf(stderr, "data/references.mk leaves %s empty (a run not yet made)\n", key);
        abort();
    }
}

void test_tuning2_files(char files[TUNING2_PARTS][512])
{
    static const char *const keys[TUNING2_PARTS] = {
        "REF_TUNING2_RANDOM", "REF_TUNING2_LLAMA3", "REF_TUNING2_DEEPBENCH", "REF_TUNING2_NARROW",
        "REF_TUNING2_MID",    "REF_TUNING2_ROWS",   "REF_TUNING2_LARGE"};
    for (int i = 0; i < TUNING2_PARTS; i++) test_reference(keys[i], files[i], sizeof files[i]);
}

char *test_fit_dispatch(char files[TUNING2_PARTS][512], const char *option, const char *value)
{
    char *argv[TUNING2_PARTS + 8] = {"python3", "-B", "scripts/fit-dispatch.py"};
    int n = 3;
    for (int i = 0; i < TUNING2_PARTS; i++) argv[n++] = files[i];
    argv[n++] = (char *)option;
    if (value) argv[n++] = (char *)value;
    argv[n++] = "--mmladder";
    argv[n++] = (char *)test_binary();
    argv[n] = NULL;
    char *out = NULL, *err = NULL;
    const int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("fit-dispatch.py %s exited %d: %s", option, rc, err);
    free(err);
    return out;
}

/* the roles the Makefile's REF_RUNS gives the runs data/references.mk names */
static const char *const roles[][2] = {
        {"h100", "REF_H100"},          {"h200", "REF_H200"},
        {"transfers", "REF_TRANSFERS"}, {"repro", "REF_REPRO"},
        {"shapes_h100", "REF_SHAPES_H100"}, {"shapes_h200", "REF_SHAPES_H200"},
        {"portability_h100", "REF_PORTABILITY_H100"},
        {"repro_shapes_h100", "REF_REPRO_SHAPES_H100"},
        {"repro_transfers_h100", "REF_REPRO_TRANSFERS_H100"},
        {"transfers_h200", "REF_TRANSFERS_H200"}, {"portability_h200", "REF_PORTABILITY_H200"},
        {"repro_h200", "REF_REPRO_H200"}, {"repro_shapes_h200", "REF_REPRO_SHAPES_H200"},
        {"repro_transfers_h200", "REF_REPRO_TRANSFERS_H200"},
        {"estimates_h100", "REF_ESTIMATES_H100"}, {"estimates_h200", "REF_ESTIMATES_H200"},
        {"heldout_h100", "REF_HELDOUT_H100"}, {"heldout_h200", "REF_HELDOUT_H200"},
        {"repro_heldout_h100", "REF_REPRO_HELDOUT_H100"},
        {"kt_heldout_h100", "REF_KT_HELDOUT_H100"}, {"kt_heldout_h200", "REF_KT_HELDOUT_H200"},
        {"x2_shapes_h100", "REF_X2_SHAPES_H100"}, {"x2_one_shapes_h100", "REF_X2_ONE_SHAPES_H100"},
        {"heldout3_h100", "REF_HELDOUT3_H100"}, {"heldout3_h200", "REF_HELDOUT3_H200"},
        {"kt_heldout3_h100", "REF_KT_HELDOUT3_H100"}, {"kt_heldout3_h200", "REF_KT_HELDOUT3_H200"}};

size_t test_reference_runs(char (*args)[600], size_t max)
{
    char *text = test_read_file("data/references.mk", NULL);
    size_t n = 0;
    for (size_t i = 0; i < sizeof roles / sizeof roles[0] && n < max; i++) {
        char key[64];
        snprintf(key, sizeof key, "\n%s=", roles[i][1]);
        char path[512];
        if (!strstr(text, key) || !test_reference_made(roles[i][1], path, sizeof path))
            continue;   /* a run not (yet) shipped */
        snprintf(args[n++], 600, "%s=%s", roles[i][0], path);
    }
    free(text);
    return n;
}

const char *test_pending_roles(void)
{
    static char list[600];
    list[0] = '\0';
    char *text = test_read_file("data/references.mk", NULL);
    for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\n%s=\n", roles[i][1]);
        if (strstr(text, key))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "," : "",
                     roles[i][0]);
    }
    free(text);
    return list;
}

const char TEST_SLOW_HOST[] =
    "[experiment]\nname = slow\nseed = 3\n[sampling]\nhost_min_samples = 3\n"
    "host_max_samples = 1000000\nhost_min_time_ms = 100\nhost_timeout_ms = 200\n"
    "[h]\nvariants = host_naive\nsizes = 8 9 10 11 12 13 14 15 16 17\nopt_levels = 1\n";

const char *const TEST_SHIPPED_EXPERIMENTS[] = {
    "experiments/paper.ini", "experiments/quick.ini", "experiments/host.ini",
    "experiments/transfers.ini", "experiments/autotune.ini", "experiments/shapes.ini",
    "experiments/estimates.ini", "experiments/portability.ini", NULL};

size_t test_count_of(const char *hay, const char *needle)
{
    size_t n = 0, k = strlen(needle);
    for (const char *p = hay; p && k && (p = strstr(p, needle)); p += k) n++;
    return n;
}

void test_attr(const char *file, const char *name, char *buf, size_t len)
{
    char *argv[] = {(char *)test_binary(), "export", (char *)file, "--attrs", "--allow-incomplete",
                    NULL}, *out, *err;
    assert_int_equal(test_run(argv, &out, &err), 0);
    test_line_value(out, name, buf, len);
    free(out), free(err);
}

const char *test_binary(void)
{
    const char *b = getenv("MMLADDER");
    return b && *b ? b : "bin/mmladder";
}

int test_run(char *const argv[], char **out, char **err)
{
    char dir[256], po[300], pe[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(po, sizeof po, "%s/out", dir);
    snprintf(pe, sizeof pe, "%s/err", dir);
    pid_t pid = fork();
    if (pid < 0) abort();
    if (pid == 0) {
        int fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0) _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        execvp(argv[0], argv);   /* a bare name is looked up on PATH */
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    *out = test_read_file(po, NULL);
    *err = test_read_file(pe, NULL);
    unlink(po);
    unlink(pe);
    rmdir(dir);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void test_line_value(const char *text, const char *key, char *buf, size_t len)
{
    buf[0] = '\0';
    const size_t n = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *k = p;
        while (*k == ' ') k++;
        if (strncmp(k, key, n) != 0 || (k[n] != ' ' && k[n] != '\t' && k[n] != '\n' && k[n] != '\0'))
            continue;
        const char *v = k + n, *e = strchr(v, '\n');
        if (!e) e = v + strlen(v);
        while (v < e && (*v == ' ' || *v == '\t' || *v == '"')) v++;
        while (e > v && (e[-1] == ' ' || e[-1] == ',' || e[-1] == '"')) e--;
        snprintf(buf, len, "%.*s", (int)(e - v), v);
        return;
    }
}

size_t test_work_files(const char *final, char *buf, size_t len)
{
    char dir[4096];
    const char *slash = strrchr(final, '/'), *base = slash ? slash + 1 : final;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - final) : 1, slash ? final : ".");
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0, b = strlen(base);
    struct dirent *e;
    if (buf && len) buf[0] = '\0';
    while ((e = readdir(d))) {
        const size_t k = strlen(e->d_name);
        if (k <= b + 6 || strncmp(e->d_name, base, b) || e->d_name[b] != '.' ||
            strcmp(e->d_name + k - 5, ".part"))
            continue;
        if (!n++ && buf) snprintf(buf, len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    return n;
}

void test_copy_with_attr(const char *from, const char *to, const char *name, const char *value)
{
    char *cp[] = {"cp", (char *)from, (char *)to, NULL}, *o, *e;
    assert_int_equal(test_run(cp, &o, &e), 0);
    free(o), free(e);
    hid_t f = H5Fopen(to, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    if (H5Aexists(f, name) > 0) assert_true(H5Adelete(f, name) >= 0);
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    assert_true(t >= 0 && sp >= 0 && H5Tset_size(t, H5T_VARIABLE) >= 0 &&
                H5Tset_cset(t, H5T_CSET_UTF8) >= 0);
    hid_t a = H5Acreate2(f, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0 && H5Awrite(a, t, &value) >= 0);
    H5Aclose(a), H5Sclose(sp), H5Tclose(t);
    uint32_t crc;
    assert_int_equal(results_attrs_crc(f, &crc), 0);
    const long long v = crc;
    a = H5Aopen(f, TRUST_ATTRS_CRC, H5P_DEFAULT);
    assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Aclose(a), H5Fclose(f);
}

pid_t test_spawn(char *const argv[], const char *outpath, const char *errpath)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) abort();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int fo = open(outpath ? outpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(errpath ? errpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0) _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

int test_reap(pid_t pid, double limit_s)
{
    struct timespec t0, t, pause = {0, 2000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int st;
    for (;;) {
        if (waitpid(pid, &st, WNOHANG) == pid) break;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9 > limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            fail_msg("pid %ld still running after %.0f s: killed", (long)pid, limit_s);
        }
        nanosleep(&pause, NULL);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}
