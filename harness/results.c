/* Results files through HDF5's high-level table (H5TB) and lite (H5LT) APIs. */
#include "results.h"

#include <errno.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RF(name, kind) {#name, offsetof(struct result_row, name), sizeof(((struct result_row *)0)->name), kind}
const struct field_desc RESULT_FIELDS[] = {
    RF(variant, FIELD_STR),        RF(seed_name, FIELD_STR),      RF(device, FIELD_STR),
    RF(precision, FIELD_STR),      RF(sweep, FIELD_STR),          RF(M, FIELD_INT),
    RF(N, FIELD_INT),              RF(K, FIELD_INT),              RF(tile, FIELD_INT),
    RF(wpt, FIELD_INT),            RF(opt_level, FIELD_INT),      RF(samples, FIELD_INT),
    RF(flops, FIELD_DBL),          RF(time_ms_min, FIELD_DBL),    RF(time_ms_median, FIELD_DBL),
    RF(time_ms_mean, FIELD_DBL),   RF(time_ms_max, FIELD_DBL),    RF(time_ms_stddev, FIELD_DBL),
    RF(gflops, FIELD_DBL),         RF(rel_err, FIELD_DBL),        RF(max_rel_err, FIELD_DBL),
    RF(tolerance, FIELD_DBL),      RF(sm_clock_mhz, FIELD_DBL),   RF(disposition, FIELD_STR),
    RF(stop_rule, FIELD_STR),      RF(reason, FIELD_STR),         RF(host_memory, FIELD_STR),
    RF(h2d_ms_median, FIELD_DBL),  RF(d2h_ms_median, FIELD_DBL),  RF(registers, FIELD_INT),
    RF(shared_bytes, FIELD_INT),   RF(local_bytes, FIELD_INT),    RF(threads, FIELD_INT),
    RF(blocks_per_sm, FIELD_INT),
};
const size_t RESULT_NFIELDS = sizeof RESULT_FIELDS / sizeof RESULT_FIELDS[0];

#define SF(name, kind) {#name, offsetof(struct sample_row, name), sizeof(((struct sample_row *)0)->name), kind}
static const struct field_desc SAMPLE_FIELDS[] = {
    SF(row, FIELD_INT), SF(sample, FIELD_INT), SF(time_ms, FIELD_DBL), SF(h2d_ms, FIELD_DBL),
    SF(d2h_ms, FIELD_DBL)};
#define SAMPLE_NFIELDS (sizeof SAMPLE_FIELDS / sizeof SAMPLE_FIELDS[0])

#define MAX_FIELDS 64

/* Offsets, sizes, names and HDF5 types of a table's fields, as H5TB wants them. */
struct table_layout {
    size_t n;
    const char *names[MAX_FIELDS];
    size_t offsets[MAX_FIELDS], sizes[MAX_FIELDS];
    hid_t types[MAX_FIELDS];
};

static void layout_of(const struct field_desc *f, size_t n, struct table_layout *t)
{
    if (n > MAX_FIELDS) abort();   /* a schema change outgrew MAX_FIELDS */
    t->n = n;
    for (size_t i = 0; i < n; i++) {
        t->names[i] = f[i].name;
        t->offsets[i] = f[i].offset;
        t->sizes[i] = f[i].size;
        if (f[i].kind == FIELD_STR) {
            t->types[i] = H5Tcopy(H5T_C_S1);
            H5Tset_size(t->types[i], f[i].size);
        } else {
            t->types[i] = f[i].kind == FIELD_INT ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
        }
    }
}

static void layout_free(struct table_layout *t, const struct field_desc *f)
{
    for (size_t i = 0; i < t->n; i++)
        if (f[i].kind == FIELD_STR) H5Tclose(t->types[i]);
}

struct results {
    hid_t file;
    size_t rows, samples;
    struct table_layout rl, sl;
};

int results_create(struct results **out, const char *path, char *err, size_t errlen)
{
    *out = NULL;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);   /* we report errors ourselves, with context */
    FILE *probe = fopen(path, "r");
    if (probe) {
        fclose(probe);
        snprintf(err, errlen, "%s: already exists (results files are never overwritten)", path);
        return -1;
    }
    hid_t f = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot create HDF5 file (%s)", path,
                 errno ? strerror(errno) : "HDF5 error");
        return -1;
    }
    struct results *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->file = f;
    layout_of(RESULT_FIELDS, RESULT_NFIELDS, &r->rl);
    layout_of(SAMPLE_FIELDS, SAMPLE_NFIELDS, &r->sl);
    int complete = 0;
    if (H5TBmake_table("one row per planned point", f, "results", r->rl.n, 0,
                       sizeof(struct result_row), r->rl.names, r->rl.offsets, r->rl.types, 64,
                       NULL, 1, NULL) < 0 ||
        H5TBmake_table("one row per timed sample", f, "samples", r->sl.n, 0,
                       sizeof(struct sample_row), r->sl.names, r->sl.offsets, r->sl.types, 1024,
                       NULL, 1, NULL) < 0 ||
        H5LTset_attribute_int(f, "/", "complete", &complete, 1) < 0 ||
        H5Fflush(f, H5F_SCOPE_GLOBAL) < 0) {
        snprintf(err, errlen, "%s: cannot create the result tables", path);
        results_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

int results_attr_str(struct results *r, const char *name, const char *value)
{
    return H5LTset_attribute_string(r->file, "/", name, value ? value : "") < 0 ? -1 : 0;
}

int results_attr_int(struct results *r, const char *name, long long value)
{
    return H5LTset_attribute_long_long(r->file, "/", name, &value, 1) < 0 ? -1 : 0;
}

int results_attr_u64(struct results *r, const char *name, uint64_t value)
{
    _Static_assert(sizeof(unsigned long) == sizeof(uint64_t), "LP64 assumed for uint64 attributes");
    unsigned long v = value;
    return H5LTset_attribute_ulong(r->file, "/", name, &v, 1) < 0 ? -1 : 0;
}

int results_attr_double(struct results *r, const char *name, double value)
{
    return H5LTset_attribute_double(r->file, "/", name, &value, 1) < 0 ? -1 : 0;
}

int results_append(struct results *r, const struct result_row *row, const double *samples_ms,
                   const double *h2d_ms, const double *d2h_ms, int n)
{
    if (n > 0) {
        struct sample_row *s = malloc((size_t)n * sizeof *s);
        if (!s) return -1;
        for (int i = 0; i < n; i++)
            s[i] = (struct sample_row){.row = (int32_t)r->rows, .sample = i,
                                       .time_ms = samples_ms[i],
                                       .h2d_ms = h2d_ms ? h2d_ms[i] : 0.0,
                                       .d2h_ms = d2h_ms ? d2h_ms[i] : 0.0};
        herr_t st = H5TBappend_records(r->file, "samples", (hsize_t)n, sizeof *s, r->sl.offsets,
                                       r->sl.sizes, s);
        free(s);
        if (st < 0) return -1;
    }
    if (H5TBappend_records(r->file, "results", 1, sizeof *row, r->rl.offsets, r->rl.sizes, row) < 0)
        return -1;
    if (H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0) return -1;
    r->rows++;
    r->samples += (size_t)n;
    return 0;
}

size_t results_rows(const struct results *r) { return r->rows; }

int results_mark_complete(struct results *r)
{
    int one = 1;
    if (H5LTset_attribute_int(r->file, "/", "complete", &one, 1) < 0) return -1;
    return H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0 ? -1 : 0;
}

int results_close(struct results *r)
{
    if (!r) return 0;
    layout_free(&r->rl, RESULT_FIELDS);
    layout_free(&r->sl, SAMPLE_FIELDS);
    herr_t st = H5Fclose(r->file);
    free(r);
    return st < 0 ? -1 : 0;
}

/* ---- reading --------------------------------------------------------------- */

/* Read a whole table into records laid out as `fd` describes, matching the
 * file's columns to ours by name: columns we do not know are an error, columns
 * the file lacks (an older schema) stay zero. */
static int read_table(hid_t f, const char *name, const struct field_desc *fd, size_t nf,
                      size_t rec_size, void **buf, size_t *n)
{
    *buf = NULL;
    *n = 0;
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0) return -1;
    hid_t ft = H5Dget_type(d), sp = H5Dget_space(d);
    hsize_t nrec = 0;
    int rc = (ft < 0 || sp < 0 || H5Sget_simple_extent_dims(sp, &nrec, NULL) != 1) ? -1 : 0;
    hid_t mt = H5Tcreate(H5T_COMPOUND, rec_size);
    int nm = rc == 0 ? H5Tget_nmembers(ft) : 0;
    for (int i = 0; rc == 0 && i < nm; i++) {
        char *mname = H5Tget_member_name(ft, (unsigned)i);
        size_t k = 0;
        while (k < nf && strcmp(fd[k].name, mname) != 0) k++;
        if (k == nf) {
            rc = -1;
        } else if (fd[k].kind == FIELD_STR) {
            hid_t st = H5Tcopy(H5T_C_S1);
            H5Tset_size(st, fd[k].size);
            rc = H5Tinsert(mt, mname, fd[k].offset, st) < 0 ? -1 : 0;
            H5Tclose(st);
        } else {
            hid_t nt = fd[k].kind == FIELD_INT ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE;
            rc = H5Tinsert(mt, mname, fd[k].offset, nt) < 0 ? -1 : 0;
        }
        H5free_memory(mname);
    }
    if (rc == 0) {
        *buf = calloc(nrec ? nrec : 1, rec_size);
        if (!*buf) abort();
        if (nrec && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, *buf) < 0) rc = -1;
        *n = (size_t)nrec;
    }
    H5Tclose(mt);
    if (sp >= 0) H5Sclose(sp);
    if (ft >= 0) H5Tclose(ft);
    H5Dclose(d);
    return rc;
}

int results_read(const char *path, struct results_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot open as HDF5", path);
        return -1;
    }
    int rc = 0;
    void *rows = NULL, *samples = NULL;
    if (read_table(f, "results", RESULT_FIELDS, RESULT_NFIELDS, sizeof(struct result_row), &rows,
                   &out->n_rows) < 0 ||
        read_table(f, "samples", SAMPLE_FIELDS, SAMPLE_NFIELDS, sizeof(struct sample_row),
                   &samples, &out->n_samples) < 0) {
        snprintf(err, errlen, "%s: no readable /results and /samples tables", path);
        rc = -1;
    }
    out->rows = rows;
    out->samples = samples;
    long long v = 0;
    if (rc == 0 && H5LTget_attribute_long_long(f, "/", "complete", &v) >= 0) out->complete = (int)v;
    if (rc == 0 && H5LTget_attribute_long_long(f, "/", "schema_version", &v) >= 0)
        out->schema_version = (int)v;
    H5Fclose(f);
    if (rc) results_file_free(out);
    return rc;
}

void results_file_free(struct results_file *f)
{
    free(f->rows);
    free(f->samples);
    memset(f, 0, sizeof *f);
}

struct visit {
    attr_visit_fn fn;
    void *ctx;
};

static herr_t visit_one(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)info;
    struct visit *v = op;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    hid_t sp = H5Aget_space(a);
    char buf[256];
    char *text = buf;
    buf[0] = '\0';
    if (H5Tget_class(t) == H5T_STRING) {
        size_t sz = H5Tget_size(t);
        text = calloc(sz + 1, 1);
        if (!text) abort();
        hid_t mt = H5Tcopy(H5T_C_S1);
        H5Tset_size(mt, sz + 1);
        H5Aread(a, mt, text);
        H5Tclose(mt);
    } else if (H5Tget_class(t) == H5T_INTEGER) {
        if (H5Tget_sign(t) == H5T_SGN_NONE) {
            unsigned long long u = 0;
            H5Aread(a, H5T_NATIVE_ULLONG, &u);
            snprintf(buf, sizeof buf, "%llu", u);
        } else {
            long long s = 0;
            H5Aread(a, H5T_NATIVE_LLONG, &s);
            snprintf(buf, sizeof buf, "%lld", s);
        }
    } else if (H5Tget_class(t) == H5T_FLOAT) {
        double d = 0;
        H5Aread(a, H5T_NATIVE_DOUBLE, &d);
        snprintf(buf, sizeof buf, "%.17g", d);
    }
    v->fn(name, text, v->ctx);
    if (text != buf) free(text);
    H5Sclose(sp);
    H5Tclose(t);
    H5Aclose(a);
    return 0;
}

int results_visit_attrs(const char *path, attr_visit_fn fn, void *ctx, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot open as HDF5", path);
        return -1;
    }
    struct visit v = {fn, ctx};
    hsize_t idx = 0;
    herr_t st = H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_one, &v);
    H5Fclose(f);
    if (st < 0) {
        snprintf(err, errlen, "%s: cannot read its attributes", path);
        return -1;
    }
    return 0;
}
