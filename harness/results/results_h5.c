/* What the results writer (results.c), the reader (results_read.c) and the
 * trust in what was read (trust.c) share, at the bottom of results/ (see
 * results_h5.h): the columns of both tables, HDF5's set-up and its errors in a
 * few words, the string type of a column, and the notes of a file read. */
#include "file.h"
#include "results_h5.h"

#include <hdf5.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Each column: its name, where it is in the row, its kind, and the schema that
 * added it (file.h; the reader refuses a file that lacks a column its schema
 * has). */
#define RF(name, kind, since) \
    {#name, offsetof(struct result_row, name), sizeof(((struct result_row *)0)->name), kind, since}
const struct field_desc RESULT_FIELDS[] = {
    RF(variant, FIELD_STR, 1), RF(seed_name, FIELD_STR, 1), RF(device, FIELD_STR, 1),
    RF(precision, FIELD_STR, 1), RF(sweep, FIELD_STR, 1), RF(M, FIELD_INT, 1), RF(N, FIELD_INT, 1),
    RF(K, FIELD_INT, 1), RF(tile, FIELD_INT, 1), RF(wpt, FIELD_INT, 1), RF(opt_level, FIELD_INT, 1),
    RF(split, FIELD_INT, 7), RF(samples, FIELD_INT, 1), RF(flops, FIELD_DBL, 1),
    RF(time_ms_min, FIELD_DBL, 1), RF(time_ms_median, FIELD_DBL, 1), RF(time_ms_mean, FIELD_DBL, 1),
    RF(time_ms_max, FIELD_DBL, 1), RF(time_ms_stddev, FIELD_DBL, 1), RF(gflops, FIELD_DBL, 1),
    RF(rel_err, FIELD_DBL, 1), RF(max_rel_err, FIELD_DBL, 1), RF(tolerance, FIELD_DBL, 1),
    RF(disposition, FIELD_STR, 1), RF(stop_rule, FIELD_STR, 1), RF(reason, FIELD_STR, 1),
    RF(host_memory, FIELD_STR, 2), RF(h2d_ms_median, FIELD_DBL, 2), RF(d2h_ms_median, FIELD_DBL, 2),
    RF(registers, FIELD_INT, 3), RF(shared_bytes, FIELD_INT, 3), RF(local_bytes, FIELD_INT, 3),
    RF(threads, FIELD_INT, 3), RF(blocks_per_sm, FIELD_INT, 3), RF(block_rows, FIELD_INT, 5),
    RF(block_cols, FIELD_INT, 5), RF(thread_rows, FIELD_INT, 5), RF(thread_cols, FIELD_INT, 5),
    RF(grid_blocks, FIELD_INT, 7), RF(k_splits, FIELD_INT, 7), RF(workspace_bytes, FIELD_INT, 7),
    RF(chosen, FIELD_STR, 7), RF(timing, FIELD_STR, 6), RF(launches, FIELD_INT, 6),
    RF(input_sets, FIELD_INT, 6), RF(warmup_ms, FIELD_DBL, 6), RF(telemetry, FIELD_STR, 6),
    RF(clock_mhz_min, FIELD_DBL, 6), RF(clock_mhz_mean, FIELD_DBL, 6),
    RF(clock_mhz_max, FIELD_DBL, 6), RF(power_w_mean, FIELD_DBL, 6), RF(power_w_max, FIELD_DBL, 6),
    RF(temp_c_max, FIELD_DBL, 6), RF(clock_reasons, FIELD_INT, 6),
    RF(throttled_samples, FIELD_INT, 6), RF(start_s, FIELD_DBL, 6), RF(paired_with, FIELD_STR, 6),
    RF(pairs, FIELD_INT, 6), RF(ref_ratio, FIELD_DBL, 6), RF(ref_ratio_ci95, FIELD_DBL, 6),
    RF(ref_ms_median, FIELD_DBL, 8), RF(kernel_ms_median, FIELD_DBL, 8),
    RF(ref_kernel_ms_median, FIELD_DBL, 8), RF(kernel_ratio, FIELD_DBL, 8),
    RF(kernel_ratio_ci95, FIELD_DBL, 8), RF(kernels_per_launch, FIELD_DBL, 8),
    RF(kernel_name, FIELD_STR, 8), RF(ref_kernel_name, FIELD_STR, 8),
    RF(probe_mhz_mean, FIELD_DBL, 8), RF(warmup_settled, FIELD_INT, 8), RF(crc32, FIELD_INT, 9),
    RF(point, FIELD_INT, 10),
};
const size_t RESULT_NFIELDS = sizeof RESULT_FIELDS / sizeof RESULT_FIELDS[0];

#define SF(name, kind, since) \
    {#name, offsetof(struct sample_row, name), sizeof(((struct sample_row *)0)->name), kind, since}
const struct field_desc SAMPLE_FIELDS[] = {
    SF(row, FIELD_INT, 1), SF(sample, FIELD_INT, 1), SF(time_ms, FIELD_DBL, 1),
    SF(h2d_ms, FIELD_DBL, 2), SF(d2h_ms, FIELD_DBL, 2), SF(t_s, FIELD_DBL, 6),
    SF(clock_mhz, FIELD_DBL, 6), SF(power_w, FIELD_DBL, 6), SF(reasons, FIELD_INT, 6),
    SF(ref_ms, FIELD_DBL, 6), SF(kernel_ms, FIELD_DBL, 8), SF(ref_kernel_ms, FIELD_DBL, 8),
    SF(probe_mhz, FIELD_DBL, 8),
};
const size_t SAMPLE_NFIELDS = sizeof SAMPLE_FIELDS / sizeof SAMPLE_FIELDS[0];

/* ---- HDF5 set-up and its error messages ------------------------------------- */

/* No automatic error printing (every error is reported with context here), and
 * no clean-up at exit: after an I/O error the library would try to flush the
 * file again and could fail worse; files are closed explicitly instead. */
static void h5_setup_once(void)
{
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void h5_setup(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, h5_setup_once);
}

struct h5_walk {
    char inner[256];      /* the innermost message */
    char system[160];     /* the system's error text, if the stack names one */
};

static herr_t h5_walk_one(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    struct h5_walk *w = data;
    if (!e->desc) return 0;
    snprintf(w->inner, sizeof w->inner, "%s", e->desc);
    const char *m = strstr(e->desc, "error message = '");
    if (m) {
        m += strlen("error message = '");
        snprintf(w->system, sizeof w->system, "%.*s", (int)strcspn(m, "'"), m);
    }
    return 0;
}

/* The current HDF5 error stack in a few words: the system's error when the
 * stack holds one (a full disk, a lock), else the innermost message. */
const char *h5_why(char *buf, size_t len)
{
    struct h5_walk w = {"", ""};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, h5_walk_one, &w);
    H5Eclear2(H5E_DEFAULT);
    if (w.system[0])
        snprintf(buf, len, "%s", w.system);
    else if (w.inner[0])
        snprintf(buf, len, "HDF5: %s", w.inner);
    else
        snprintf(buf, len, "HDF5 error");
    return buf;
}

/* ---- the string type of a column, and a file's notes ------------------------ */

hid_t h5_string_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return -1;
    if (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

void results_note(struct results_file *f, const char *fmt, ...)
{
    size_t used = strlen(f->notes);
    if (used + 3 >= sizeof f->notes) return;
    if (used) {
        strcat(f->notes, "; ");
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->notes + used, sizeof f->notes - used, fmt, ap);
    va_end(ap);
}
