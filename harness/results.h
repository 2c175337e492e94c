/* Results files: the HDF5 schema (documented in data/README.md).
 *
 *   /            attributes: provenance (provenance.c), `complete` (0/1)
 *   /results     table (HDF5 high-level H5TB), one row per planned point
 *   /samples     table, one row per timed sample: (row, sample, time_ms)
 *
 * A file is created exclusively (an existing file is never touched), every row
 * is appended together with its samples and flushed to disk at once, so a run
 * killed at any moment leaves a readable file holding every completed row, and
 * `complete` is set to 1 only when the whole plan has been recorded. */
#ifndef HARNESS_RESULTS_H
#define HARNESS_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#define RESULTS_SCHEMA_VERSION 3   /* 2 added host_memory, h2d/d2h times; 3 kernel resources */

struct result_row {
    char variant[32];
    char seed_name[32];
    char device[8];          /* "host" | "gpu" */
    char precision[8];       /* "fp32" | "tf32" */
    char sweep[32];
    int32_t M, N, K;
    int32_t tile, wpt, opt_level;    /* 0 where the variant has no such axis */
    int32_t samples;
    double flops;            /* 2 M N K */
    double time_ms_min, time_ms_median, time_ms_mean, time_ms_max, time_ms_stddev;
    double gflops;           /* flops / median time */
    double rel_err, max_rel_err, tolerance;
    double sm_clock_mhz;     /* effective SM clock just after sampling; 0 on host */
    char disposition[12];    /* passed | incorrect | skipped | failed */
    char stop_rule[16];      /* converged | timeout | max_samples | long_point | "" */
    char reason[160];        /* why skipped or failed; "" otherwise */
    char host_memory[12];    /* "" (inputs resident on the device), "pinned" or "pageable":
                                then each sample also copies A, B in and C out */
    double h2d_ms_median;    /* copy of A and B to the device; 0 when not measured */
    double d2h_ms_median;    /* copy of C back to the host; 0 when not measured */
    /* The kernel's resources (cudaFuncGetAttributes, occupancy calculator); all 0
     * for host rows and library (cuBLAS) rows. */
    int32_t registers, shared_bytes, local_bytes, threads, blocks_per_sm;
};

struct sample_row {
    int32_t row;             /* index into /results */
    int32_t sample;          /* 0, 1, ... */
    double time_ms;          /* the kernel (or host call) alone */
    double h2d_ms, d2h_ms;   /* transfer points only; else 0 */
};

/* The columns of /results, in order: one table drives the HDF5 types, the
 * reader and the TSV/CSV export alike. */
enum field_kind { FIELD_STR, FIELD_INT, FIELD_DBL };
struct field_desc {
    const char *name;
    size_t offset, size;
    enum field_kind kind;
};
extern const struct field_desc RESULT_FIELDS[];
extern const size_t RESULT_NFIELDS;

struct results;

/* Create `path`; fails (without touching it) if it exists. */
int results_create(struct results **r, const char *path, char *err, size_t errlen);
int results_attr_str(struct results *r, const char *name, const char *value);
int results_attr_int(struct results *r, const char *name, long long value);
int results_attr_u64(struct results *r, const char *name, uint64_t value);
int results_attr_double(struct results *r, const char *name, double value);
/* Append one row and its n samples (h2d_ms and d2h_ms may be NULL: zeros),
 * then flush the file to disk. */
int results_append(struct results *r, const struct result_row *row, const double *samples_ms,
                   const double *h2d_ms, const double *d2h_ms, int n);
size_t results_rows(const struct results *r);
int results_mark_complete(struct results *r);
int results_close(struct results *r);

/* Reading back (info, export, tests).  Columns are matched by name, so files of
 * older schemas (without the transfer or resource columns) read with those
 * columns zero. */
struct results_file {
    size_t n_rows, n_samples;
    struct result_row *rows;
    struct sample_row *samples;
    int complete;
    int schema_version;
};
int results_read(const char *path, struct results_file *f, char *err, size_t errlen);
void results_file_free(struct results_file *f);

/* Visit every root attribute as text (for `info`). */
typedef void (*attr_visit_fn)(const char *name, const char *value, void *ctx);
int results_visit_attrs(const char *path, attr_visit_fn fn, void *ctx, char *err, size_t errlen);

#endif
