/* Damaged and crafted results files: refused, or read with what was lost said,
 * never a crash or a hang of the tools; untrustworthy rows marked; the fuzz
 * triage telling the library's faults from ours. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>
#include <hdf5.h>
#include <math.h>

#include "results/results.h"
#include "results/results_h5.h"
#include "results/trust.h"
#include "util.h"

/* ---- damaged and crafted files --------------------------------------------- */

/* A file whose /results is a compound table of `rows` declared records (chunked,
 * nothing written: the chunks stay unallocated), with column M of type mt. */
static void craft_table(const char *path, hsize_t rows, hid_t m_type)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, 16);
    H5Tinsert(t, "variant", 0, H5T_NATIVE_INT32);   /* wrong: a string in ours */
    H5Tinsert(t, "M", 8, m_type);
    hsize_t max = H5S_UNLIMITED, chunk = 64;
    hid_t sp = H5Screate_simple(1, &rows, &max), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    hid_t d = H5Dcreate2(f, "results", t, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hid_t d2 = H5Dcreate2(f, "samples", t, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    assert_true(f >= 0 && d >= 0 && d2 >= 0);
    H5Dclose(d); H5Dclose(d2); H5Pclose(dcpl); H5Sclose(sp); H5Tclose(t); H5Fclose(f);
}

/* A results file as a run leaves it, rows then rewritten to suit a case. */
static void write_rows(const char *path, struct result_row *rows, int n_rows, int samples_each)
{
    char err[512];
    struct results *r;
    if (results_create(&r, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    double s[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (int i = 0; i < n_rows; i++) {
        struct result_row row = rows[i];
        row.point = i;   /* each its own point of the plan */
        assert_int_equal(results_append(r, &row, s, NULL, NULL, samples_each), 0);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
}

/* Overwrite row i of /results with `row` (as a crash mid-commit would leave
 * it, or a damaged file), and optionally grow /samples by orphans. */
static void rewrite_row(const char *path, hsize_t i, const struct result_row *row)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "results", H5P_DEFAULT), ft = H5Dget_type(d);
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof *row);
    for (size_t k = 0; k < RESULT_NFIELDS; k++) {
        const struct field_desc *fd = &RESULT_FIELDS[k];
        hid_t t = fd->kind == FIELD_STR ? H5Tcopy(H5T_C_S1)
                  : fd->kind == FIELD_INT ? H5Tcopy(H5T_NATIVE_INT32) : H5Tcopy(H5T_NATIVE_DOUBLE);
        if (fd->kind == FIELD_STR) H5Tset_size(t, fd->size);
        H5Tinsert(mt, fd->name, fd->offset, t);
        H5Tclose(t);
    }
    hsize_t one = 1;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &one, NULL);
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &i, NULL, &one, NULL);
    assert_true(H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, row) >= 0);
    H5Sclose(ms); H5Sclose(fs); H5Tclose(mt); H5Tclose(ft); H5Dclose(d); H5Fclose(f);
}

static void crafted_files_are_refused_or_recovered(void **state)
{
    (void)state;
    char dir[256], path[300], err[1024];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/c.h5", dir);
    struct results_file f;
    /* 2^40 and 4M declared rows in a file of a few KB: refused before allocating. */
    const hsize_t huge[] = {(hsize_t)1 << 40, 4u << 20};
    for (size_t k = 0; k < 2; k++) {
        unlink(path);
        craft_table(path, huge[k], H5T_NATIVE_INT32);
        assert_int_equal(results_read(path, &f, err, sizeof err), -1);
        print_message("%s\n", err);
        assert_non_null(strstr(err, "declares"));
        assert_non_null(strstr(err, "(damaged)"));
    }
    /* A column of the wrong type. */
    unlink(path);
    craft_table(path, 3, H5T_NATIVE_INT32);
    assert_int_equal(results_read(path, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "'variant': a column of the wrong type"));

    /* A row left "recording" by a crash mid-commit: dropped with its samples. */
    unlink(path);
    struct result_row rows[3];
    for (int i = 0; i < 3; i++)
        rows[i] = (struct result_row){.variant = "host_naive", .device = "host", .M = 8 + i,
                                      .N = 8, .K = 8, .samples = 4, .disposition = "passed"};
    write_rows(path, rows, 3, 4);
    struct result_row rec = rows[2];
    snprintf(rec.disposition, sizeof rec.disposition, "recording");
    rewrite_row(path, 2, &rec);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.n_rows, 2);
    assert_int_equal(f.n_samples, 8);
    assert_int_equal(f.planned, -1);   /* none said */
    assert_non_null(strstr(f.notes, "row 2 (host_naive) was being recorded"));
    results_file_free(&f);
    /* A passed row claiming more samples than the file holds: kept, and said. */
    struct result_row more = rows[1];
    more.samples = 7;
    rewrite_row(path, 1, &more);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_non_null(strstr(f.notes, "lack some of their samples"));
    results_file_free(&f);
    test_rmtree(dir);
}

/* A column whose stored integer is 4 GB wide (a file the fuzzer made): refused
 * by name before HDF5 would allocate that much per record to convert it. */
static void a_column_of_impossible_width_is_refused(void **state)
{
    (void)state;
    struct results_file f;
    char err[512];
    assert_int_equal(results_read("tests/fuzz/results/corpus/found-member-size-4gb.h5", &f, err,
                                  sizeof err), -1);
    assert_non_null(strstr(err, "'blocks_per_sm': a column whose stored size is impossible"));
}

/* A killed run's file with one bit of its metadata flipped (a seed of the
 * fuzzer): an SWMR reader once retried the bad checksum with waits until the
 * reader's time ran out; it is now refused as damaged at once (within a limit
 * far below that time). */
static void damaged_metadata_is_refused_not_waited_on(void **state)
{
    (void)state;
    setenv("MMLADDER_READ_TIMEOUT_S", "10", 1);
    struct results_file f;
    char err[1024];
    const int rc = results_read("tests/fuzz/results/corpus/found-swmr-metadata-retries.h5", &f, err,
                                sizeof err);
    unsetenv("MMLADDER_READ_TIMEOUT_S");
    assert_int_equal(rc, -1);
    if (strstr(err, "did not end in time")) fail_msg("waited on: %s", err);
    assert_non_null(strstr(err, "damaged"));
}

/* Every seed of the reader's fuzzer (sound and damaged files of schemas 3, 4
 * and 9, host and GPU runs): info, export and compare end with 0, 1 or 4 (an
 * incomplete file), never by a signal, and a refusal names the file. */
static void damaged_files_never_crash_the_tools(void **state)
{
    (void)state;
    const char *dir = "tests/fuzz/results/corpus";
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    size_t files = 0, refused = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *argvs[][5] = {{(char *)test_binary(), "info", path, NULL, NULL},
                            {(char *)test_binary(), "export", path, "--samples", NULL},
                            {(char *)test_binary(), "export", path, "--attrs", NULL},
                            {(char *)test_binary(), "compare", path, path, NULL}};
        for (size_t k = 0; k < 4; k++) {
            char *out, *er;
            int rc = test_run(argvs[k], &out, &er);
            if (rc != 0 && rc != 1 && rc != 4)
                fail_msg("%s %s: exit %d: %s", argvs[k][1], path, rc, er);
            if (rc != 0 && !strstr(er, path)) fail_msg("%s %s: message without the path: %s",
                                                      argvs[k][1], path, er);
            refused += rc == 1;
            free(out); free(er);
        }
        files++;
    }
    closedir(d);
    print_message("%zu files, 4 commands each: %zu refusals, no crash\n", files, refused);
    assert_true(files >= 10);
}

static void ignore_attr(const char *name, const char *value, void *ctx)
{
    (void)name, (void)value, (void)ctx;
}

/* results_visit_attrs_kind's callback: the next attribute must be the next of
 * the list in ctx (what results_read returned), name, value and kind. */
struct attr_match {
    const struct results_file *f;
    size_t at;
};

static void match_attr(const char *name, const char *value, enum attr_kind kind, void *ctx)
{
    struct attr_match *m = ctx;
    assert_true(m->at < m->f->n_attrs);
    const struct results_attr *a = &m->f->attrs[m->at++];
    assert_string_equal(a->name, name);
    assert_string_equal(a->value, value);
    assert_int_equal(a->kind, kind);
}

/* A passed GPU row whose values agree with each other (trust.h). */
static struct result_row sound_row(int n)
{
    struct result_row r = {.variant = "gpu_tiled", .device = "gpu", .precision = "fp32", .M = n,
                           .N = n, .K = n, .tile = 16, .samples = 2, .disposition = "passed",
                           .stop_rule = "converged", .tolerance = 1e-5, .max_rel_err = 1e-7};
    r.flops = 2.0 * n * n * n;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = 1.0;
    r.gflops = r.flops / 1e6;
    return r;
}

/* A file of `n` rows (`bad` rewritten in after), with `planned` points (< 0:
 * none said) that says it is complete, of schema `schema`, FP32 peak 60000. */
static void write_trust_case(const char *path, const struct result_row *rows, int n, long long planned,
                             int schema)
{
    char err[512];
    struct results *r;
    if (results_create(&r, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(results_attr_double(r, "gpu_fp32_peak_gflops", 60000), 0);
    if (planned >= 0) assert_int_equal(results_attr_int(r, "planned_points", planned), 0);
    if (schema != RESULTS_SCHEMA_VERSION)
        assert_int_equal(results_attr_int(r, "schema_version", schema), 0);
    const double s[2] = {1, 1};
    for (int i = 0; i < n; i++) {
        struct result_row row = rows[i];
        row.point = i;   /* each its own point of the plan */
        assert_int_equal(results_append(r, &row, s, NULL, NULL, 2), 0);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
}

/* A file of schema 9 whose /results lacks the column `drop` and stores the
 * column `wide` as a 64-bit integer. */
static void write_odd_columns(const char *path, const char *drop, const char *wide)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t tables[2] = {H5Tcreate(H5T_COMPOUND, sizeof(struct result_row)),
                       H5Tcreate(H5T_COMPOUND, sizeof(struct sample_row))};
    const struct field_desc *fds[2] = {RESULT_FIELDS, SAMPLE_FIELDS};
    const size_t nf[2] = {RESULT_NFIELDS, SAMPLE_NFIELDS};
    for (int t = 0; t < 2; t++)
        for (size_t k = 0; k < nf[t]; k++) {
            const struct field_desc *fd = &fds[t][k];
            if (t == 0 && !strcmp(fd->name, drop)) continue;
            hid_t m = fd->kind == FIELD_STR ? H5Tcopy(H5T_C_S1)
                      : fd->kind == FIELD_INT ? H5Tcopy(t == 0 && !strcmp(fd->name, wide)
                                                            ? H5T_NATIVE_INT64 : H5T_NATIVE_INT32)
                                              : H5Tcopy(H5T_NATIVE_DOUBLE);
            if (fd->kind == FIELD_STR) H5Tset_size(m, fd->size);
            H5Tinsert(tables[t], fd->name, fd->offset, m);
            H5Tclose(m);
        }
    hsize_t one = 1;
    hid_t sp = H5Screate_simple(1, &one, NULL);
    const char *names[2] = {"results", "samples"};
    for (int t = 0; t < 2; t++) {
        hid_t d = H5Dcreate2(f, names[t], tables[t], sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(d >= 0);
        H5Dclose(d);
        H5Tclose(tables[t]);
    }
    long long v = RESULTS_SCHEMA_VERSION;
    hid_t as = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "schema_version", H5T_NATIVE_LLONG, as, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_LLONG, &v) >= 0);
    H5Aclose(a); H5Sclose(as); H5Sclose(sp); H5Fclose(f);
}

/* A row repeated (its point of the plan another row's too) is marked
 * damaged, the first of them believed; points not known (-1) are no repeats. */
static void repeated_points_are_damaged(void **state)
{
    (void)state;
    char dir[256], path[300], err[1024];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/p.h5", dir);
    struct results *r;
    if (results_create(&r, path, 0, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(results_attr_double(r, "gpu_fp32_peak_gflops", 60000), 0);
    assert_int_equal(results_attr_int(r, "planned_points", 6), 0);
    const int32_t points[] = {4, 2, 4, -1, -1, -7};
    const double s[2] = {1, 1};
    for (int i = 0; i < 6; i++) {
        struct result_row row = sound_row(64 + i);
        row.point = points[i];
        assert_int_equal(results_append(r, &row, s, NULL, NULL, 2), 0);
    }
    assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
    assert_int_equal(results_close(r, err, sizeof err), 0);
    struct results_file f;
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    const char *want[] = {"passed", "passed", "damaged", "passed", "passed", "damaged"};
    for (int i = 0; i < 6; i++) assert_string_equal(f.rows[i].disposition, want[i]);
    assert_non_null(strstr(f.rows[2].reason, "another row's too"));
    assert_non_null(strstr(f.rows[5].reason, "negative"));
    if (f.damaged != 2) fail_msg("%zu damaged: %s", f.damaged, f.notes);   /* those two alone */
    results_file_free(&f);
    test_rmtree(dir);
}

/* The defects of a file the readers once believed (issue: a truncated file read
 * as complete, a schema broken, impossible values): each is refused, or read
 * with its rows marked damaged and the reason in the notes. */
static void untrustworthy_files_are_refused_or_marked(void **state)
{
    (void)state;
    char dir[256], path[300], err[1024];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.h5", dir);
    struct results_file f;

    /* sound: 3 rows of 3 planned */
    struct result_row rows[6];
    for (int i = 0; i < 6; i++) rows[i] = sound_row(64 << i);
    write_trust_case(path, rows, 3, 3, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_true(f.complete && f.damaged == 0 && f.notes[0] == '\0' && f.checksummed);
    assert_int_equal(f.planned, 3);
    /* its attributes, read with the rows: the same as read alone, in order */
    {
        struct attr_match m = {&f, 0};
        assert_string_equal(f.attrs_why, "");
        assert_int_equal(results_visit_attrs_kind(path, match_attr, &m, err, sizeof err), 0);
        assert_true(m.at == f.n_attrs && f.n_attrs >= 5);
        assert_string_equal(results_attr_value(&f, "complete"), "1");
        assert_null(results_attr_value(&f, "no_such_attribute"));
    }
    /* an attribute changed after the run ended: its checksum finds it */
    {
        char copy[320];
        snprintf(copy, sizeof copy, "%s/attr.h5", dir);
        char *cp[] = {"cp", path, copy, NULL}, *o, *e;
        assert_int_equal(test_run(cp, &o, &e), 0);
        free(o), free(e);
        hid_t h = H5Fopen(copy, H5F_ACC_RDWR, H5P_DEFAULT);
        hid_t a = H5Aopen(h, "gpu_fp32_peak_gflops", H5P_DEFAULT);
        const double more = 61000;
        assert_true(h >= 0 && a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &more) >= 0);
        H5Aclose(a), H5Fclose(h);
        assert_int_equal(results_visit_attrs(copy, ignore_attr, NULL, err, sizeof err), -1);
        assert_non_null(strstr(err, "its attributes do not match their checksum"));
        assert_int_equal(results_visit_attrs(path, ignore_attr, NULL, err, sizeof err), 0);
        /* the checksum stored as another integer with the same low 32 bits
         * (the CRC - 2^32): not the CRC the file format defines */
        assert_int_equal(test_run(cp, &o, &e), 0);
        free(o), free(e);
        h = H5Fopen(copy, H5F_ACC_RDWR, H5P_DEFAULT);
        a = H5Aopen(h, TRUST_ATTRS_CRC, H5P_DEFAULT);
        long long crc = 0;
        assert_true(h >= 0 && a >= 0 && H5Aread(a, H5T_NATIVE_LLONG, &crc) >= 0 && crc > 0);
        crc -= 4294967296LL;
        assert_true(H5Awrite(a, H5T_NATIVE_LLONG, &crc) >= 0);
        H5Aclose(a), H5Fclose(h);
        assert_int_equal(results_visit_attrs(copy, ignore_attr, NULL, err, sizeof err), -1);
        assert_non_null(strstr(err, "its attributes do not match their checksum"));
    }
    /* a value changed within reason (a flipped bit in a spread): only the
     * checksum finds it */
    struct result_row changed = f.rows[1];
    changed.time_ms_stddev = 0.25;
    results_file_free(&f);
    rewrite_row(path, 1, &changed);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_string_equal(f.rows[1].disposition, TRUST_DAMAGED);
    assert_non_null(strstr(f.rows[1].reason, "its checksum does not match its values and samples"));
    results_file_free(&f);

    /* says complete, holds 3 of 5 planned rows (a cut file) */
    unlink(path);
    write_trust_case(path, rows, 3, 5, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.complete, 0);
    assert_int_equal(f.damaged, 2);
    assert_non_null(strstr(f.notes, "says it is complete but holds 3 of its 5 planned rows"));
    results_file_free(&f);
    /* ... which `info` says, and from which no claim is checked */
    char *out, *er, role[340];
    char *info[] = {(char *)test_binary(), "info", path, NULL};
    assert_int_equal(test_run(info, &out, &er), 4);
    assert_non_null(strstr(out, "INCOMPLETE, DAMAGED"));
    assert_non_null(strstr(er, "is DAMAGED"));
    assert_non_null(strstr(er, "is incomplete: it holds 3 of its plan's 5 points"));
    free(out), free(er);
    snprintf(role, sizeof role, "h100=%s", path);
    char *claims[] = {(char *)test_binary(), "claims", "paper/claims.ini", role, NULL};
    assert_int_equal(test_run(claims, &out, &er), 1);
    assert_non_null(strstr(er, "is damaged: nothing is stated from it (--partial: leave it out)"));
    free(out), free(er);
    /* a sound run of one GPU given as another's (paper/claims.ini [roles]) */
    char h200_file[300], h100[400];
    test_reference("REF_H200", h200_file, sizeof h200_file);
    snprintf(h100, sizeof h100, "h100=%s", h200_file);
    char *swapped[] = {(char *)test_binary(), "claims", "paper/claims.ini", h100, NULL};
    assert_int_equal(test_run(swapped, &out, &er), 1);
    assert_non_null(strstr(er, "is a run on 'NVIDIA H200', but paper/claims.ini:"));
    assert_non_null(strstr(er, "says the role 'h100' is a run on a GPU named '*H100*'"));
    free(out), free(er);
    /* two GPU models compared: every pair reported, none held to the tolerance */
    char h100_file[300];
    test_reference("REF_H100", h100_file, sizeof h100_file);
    char *compare[] = {(char *)test_binary(), "compare", h100_file, h200_file, NULL};
    assert_int_equal(test_run(compare, &out, &er), 0);
    assert_non_null(strstr(out, "pairs of two GPU models ('NVIDIA H100 80GB HBM3' against "
                                "'NVIDIA H200') reported, not held to a tolerance"));
    assert_null(strstr(out, "within 10%"));
    assert_non_null(strstr(er, "two GPU models"));
    free(out), free(er);

    /* values that cannot be: a rate above the peak (consistent with its time),
     * a NaN median, gflops against flops / time, an unknown disposition, a
     * passed row over its tolerance */
    rows[1].time_ms_min = rows[1].time_ms_median = rows[1].time_ms_mean = rows[1].time_ms_max = 1e-5;
    rows[1].gflops = rows[1].flops / 1e-5 / 1e6;   /* 419,430 GFLOP/s */
    rows[2].time_ms_median = NAN;
    rows[3].gflops *= 2;
    snprintf(rows[4].disposition, sizeof rows[4].disposition, "pasesd");
    rows[5].max_rel_err = 1;
    unlink(path);
    write_trust_case(path, rows, 6, 6, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 5);
    assert_int_equal(f.complete, 1);
    assert_string_equal(f.rows[0].disposition, "passed");
    const char *why[] = {"above the file's fp32 peak (60000)", "not a positive number",
                         "gflops other than flops / median time", "an unknown disposition",
                         "an error above its tolerance"};
    for (int i = 1; i < 6; i++) {
        assert_string_equal(f.rows[i].disposition, TRUST_DAMAGED);
        if (!strstr(f.rows[i].reason, why[i - 1]))
            fail_msg("row %d: reason '%s' (expected '%s')", i, f.rows[i].reason, why[i - 1]);
    }
    assert_non_null(strstr(f.notes, "5 rows not believed (the first, row 1:"));
    results_file_free(&f);

    /* a schema this reader does not know */
    unlink(path);
    write_trust_case(path, rows, 1, 1, 99);
    assert_int_equal(results_read(path, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "schema_version 99 (this mmladder reads 1 to"));

    /* a column its schema has, missing */
    unlink(path);
    write_odd_columns(path, "gflops", "");
    assert_int_equal(results_read(path, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "/results has no column 'gflops', which schema 10 has"));
    test_rmtree(dir);
}

/* What tests/fuzz/damage/damage-readers.py found read as sound (crafted files,
 * their checksums made to match): each is now refused, or read as damaged with
 * the reason. */
static void crafted_damage_is_found(void **state)
{
    (void)state;
    char dir[256], path[300], err[1024];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/t.h5", dir);
    struct results_file f;
    struct result_row rows[2] = {sound_row(64), sound_row(128)};

    /* a schema_version below its columns' (9's crc32 in a file that says 8):
     * the checks of the later schema would be skipped */
    write_trust_case(path, rows, 1, 1, 8);
    assert_int_equal(results_read(path, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "has the column 'crc32' of schema 9, yet the file says "
                                "schema_version 8"));
    /* ... which export --attrs refuses as export does */
    char *out, *er;
    char *attrs[] = {(char *)test_binary(), "export", path, "--attrs", NULL};
    assert_int_equal(test_run(attrs, &out, &er), 1);
    assert_non_null(strstr(er, "yet the file says schema_version 8"));
    free(out), free(er);

    /* M stored as int64: a value past INT_MAX would be read as INT_MAX, and with
     * flops and time to match (2^31 against 2^31 - 1, within rounding) believed */
    unlink(path);
    write_odd_columns(path, "", "M");
    assert_int_equal(results_read(path, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "column 5 'M': an integer column wider than the 32-bit"));

    /* a passed row whose norm-wise error is NaN (verify.c passes neither) */
    unlink(path);
    rows[1].rel_err = NAN;
    write_trust_case(path, rows, 2, 2, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.rows[1].reason, "an error above its tolerance, yet passed"));
    results_file_free(&f);
    rows[1].rel_err = 0;

    /* a host row faster than one core can be (a host run records no peak) */
    unlink(path);
    struct result_row host = sound_row(256);
    snprintf(host.variant, sizeof host.variant, "host_naive");
    snprintf(host.device, sizeof host.device, "host");
    host.tile = 0, host.opt_level = 2;
    host.time_ms_min = host.time_ms_median = host.time_ms_mean = host.time_ms_max = 1e-5;
    host.gflops = host.flops / 1e-5 / 1e6;   /* 3.4 million GFLOP/s */
    write_trust_case(path, &host, 1, 1, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.rows[0].reason, "GFLOP/s on one CPU core (at most 1000)"));
    results_file_free(&f);

    /* a passed row with a sample whose time is NaN */
    unlink(path);
    {
        struct results *r;
        assert_int_equal(results_create(&r, path, 0, err, sizeof err), 0);
        assert_int_equal(results_attr_int(r, "planned_points", 1), 0);
        const double s[2] = {NAN, 1};
        assert_int_equal(results_append(r, &rows[0], s, NULL, NULL, 2), 0);
        assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
        assert_int_equal(results_close(r, err, sizeof err), 0);
    }
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.rows[0].reason, "a sample whose time is not a positive number"));
    results_file_free(&f);

    /* passed GPU rows without the peak their rates are held to */
    unlink(path);
    {
        struct results *r;
        assert_int_equal(results_create(&r, path, 0, err, sizeof err), 0);
        assert_int_equal(results_attr_int(r, "planned_points", 1), 0);
        const double s[2] = {1, 1};
        assert_int_equal(results_append(r, &rows[0], s, NULL, NULL, 2), 0);
        assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
        assert_int_equal(results_close(r, err, sizeof err), 0);
    }
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.notes, "1 passed GPU rows, but no readable gpu_fp32_peak_gflops"));
    results_file_free(&f);

    /* values no writer writes, each a one-bit flip of a shipped file that read
     * as sound: a count below 0, more throttled samples than samples, a stop
     * rule with a byte flipped, copy times on a point that copies nothing (a
     * 0.0 whose exponent gained a bit: 1.8e-307), in the row or a sample */
    unlink(path);
    {
        struct result_row odd[5];
        for (int i = 0; i < 5; i++) odd[i] = sound_row(16 << i);
        odd[0].block_cols = INT32_MIN;
        odd[1].throttled_samples = 5;
        snprintf(odd[2].stop_rule, sizeof odd[2].stop_rule, "converged\x10");
        odd[3].h2d_ms_median = 1.78e-307;
        struct results *r;
        assert_int_equal(results_create(&r, path, 0, err, sizeof err), 0);
        assert_int_equal(results_attr_int(r, "planned_points", 5), 0);
        assert_int_equal(results_attr_double(r, "gpu_fp32_peak_gflops", 60000), 0);
        const double s[2] = {1, 1}, copies[2] = {0, 1.78e-307};
        for (int i = 0; i < 5; i++)
            assert_int_equal(results_append(r, &odd[i], s, i == 4 ? copies : NULL, NULL, 2), 0);
        assert_int_equal(results_finish(r, 1, "2026-11-24T00:00:00Z", 1.0), 0);
        assert_int_equal(results_close(r, err, sizeof err), 0);
    }
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 5);
    const char *odd_why[] = {"block_cols = -2147483648, below 0", "more throttled samples than samples",
                             "an unknown stop rule", "copy times on a point that copies nothing",
                             "a sample with copy times on a point that copies nothing"};
    for (int i = 0; i < 5; i++)
        if (!strstr(f.rows[i].reason, odd_why[i]))
            fail_msg("row %d: reason '%s' (expected '%s')", i, f.rows[i].reason, odd_why[i]);
    results_file_free(&f);

    /* one point of the plan twice (a row copied over another, or appended) */
    unlink(path);
    rows[1] = rows[0];
    write_trust_case(path, rows, 2, 2, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_string_equal(f.rows[0].disposition, "passed");
    assert_non_null(strstr(f.rows[1].reason, "the point of row 0 again"));
    results_file_free(&f);
    rows[1] = sound_row(128);

    /* no planned_points (every run of schema 6 on records it): rows cut short
     * could not be told from a complete file */
    unlink(path);
    write_trust_case(path, rows, 2, -1, RESULTS_SCHEMA_VERSION);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_true(!f.complete && f.damaged == 1);
    assert_non_null(strstr(f.notes, "it has no readable planned_points"));
    results_file_free(&f);

    /* attributes: every reader checks them, not only those that show them */
    unlink(path);
    write_trust_case(path, rows, 2, 2, RESULTS_SCHEMA_VERSION);
    hid_t h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = H5Aopen(h, "gpu_fp32_peak_gflops", H5P_DEFAULT);
    const double more = 61000;
    assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &more) >= 0);
    H5Aclose(a), H5Fclose(h);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.notes, "its attributes do not match their checksum"));
    /* the rows are kept; the attributes are not given, and attrs_why says why */
    assert_int_equal(f.n_rows, 2);
    assert_true(f.n_attrs == 0 && f.attrs == NULL);
    assert_string_equal(f.attrs_why, "damaged (its attributes do not match their checksum, "
                                     "attrs_crc32)");
    results_file_free(&f);
    /* ... complete = 1 with no checksum over them (removed with the change) */
    h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(h >= 0 && H5Adelete(h, TRUST_ATTRS_CRC) >= 0);
    H5Fclose(h);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_int_equal(f.damaged, 1);
    assert_non_null(strstr(f.notes, "it says it is complete, yet its attributes have no checksum"));
    results_file_free(&f);
    /* ... complete other than 0 or 1 */
    h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    a = H5Aopen(h, "complete", H5P_DEFAULT);
    const long long two = 2;
    assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_LLONG, &two) >= 0);
    H5Aclose(a), H5Fclose(h);
    assert_int_equal(results_read(path, &f, err, sizeof err), 0);
    assert_true(f.damaged >= 1);
    assert_non_null(strstr(f.notes, "complete = 2 (0 or 1 expected)"));
    results_file_free(&f);
    test_rmtree(dir);
}

/* scripts/fuzz-triage.sh, over real libFuzzer logs of each kind of report
 * (tests/fuzz/triage/reports.c, make-logs.sh): in a forked child, as the
 * tools' readers run the library, and in the fuzzing process, as the results
 * fuzzer runs it.  A report is the HDF5 library's only when every stack starts
 * in the library (past the sanitizer's runtime, libFuzzer and the C library):
 * a double free or a segfault in it, a timeout that finds the process in it,
 * an allocation of its over the malloc limit.  The library overflowing a
 * buffer we allocated, an overflow in our code, a UBSan report and an abort of
 * ours (a fuzz target's broken promise) are ours. */
static void fuzz_triage_tells_the_library_from_ours(void **state)
{
    (void)state;
    const struct {
        const char *log, *kind, *verdict, *what;
    } cases[] = {
        {"L", "crash-", "\tlibrary\t", "double-free (in H5MM_xfree"},
        {"B", "crash-", "\tours\t", "heap-buffer-overflow (in our_short_buffer"},
        {"O", "crash-", "\tours\t", "heap-buffer-overflow (in our_overflow"},
        {"U", "crash-", "\tours\t", "UBSan: signed integer overflow"},
        {"S", "crash-", "\tlibrary\t", "AddressSanitizer: SEGV (in H5A__close"},
        {"T", "timeout-", "\tlibrary\t", "libFuzzer: timeout after 1 seconds (in H5T__"},
        {"M", "oom-", "\tlibrary\t", "out-of-memory (malloc(536870912)) (in H5allocate_memory"},
        {"A", "crash-", "\tours\t", "libFuzzer: deadly signal (in our_abort"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char log[128];
        snprintf(log, sizeof log, "tests/fuzz/triage/log-%s", cases[i].log);
        char *argv[] = {"scripts/fuzz-triage.sh", log, "fuzz_triage_reports", NULL}, *out, *err;
        assert_int_equal(test_run(argv, &out, &err), 0);
        if (strncmp(out, cases[i].kind, strlen(cases[i].kind)) != 0 ||
            !strstr(out, cases[i].verdict) || !strstr(out, cases[i].what) ||
            strchr(out, '\n') != out + strlen(out) - 1)
            fail_msg("%s: expected one line of %s with '%s' and '%s', got: %s", log, cases[i].kind,
                     cases[i].verdict + 1, cases[i].what, out);
        free(out);
        free(err);
    }
}

const struct CMUnitTest damaged_tests[] = {
    cmocka_unit_test(damaged_metadata_is_refused_not_waited_on),
    cmocka_unit_test(untrustworthy_files_are_refused_or_marked),
    cmocka_unit_test(repeated_points_are_damaged),
    cmocka_unit_test(crafted_damage_is_found),
    cmocka_unit_test(fuzz_triage_tells_the_library_from_ours),
    cmocka_unit_test(a_column_of_impossible_width_is_refused),
    cmocka_unit_test(crafted_files_are_refused_or_recovered),
    cmocka_unit_test(damaged_files_never_crash_the_tools),
};
const size_t damaged_tests_count = sizeof damaged_tests / sizeof damaged_tests[0];
