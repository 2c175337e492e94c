/* Reading results files: see file.h.
 *
 * The HDF5 library (1.10) can itself crash on a damaged file: fuzzing found a
 * segfault inside H5Aiterate2.  So every read runs in a child process: the
 * child opens the file with HDF5, validates what it reads and sends it through
 * a pipe; the parent decodes it.  A child that dies, or does not finish within
 * a time limit, makes the file "damaged" with the reason, and no tool of ours
 * crashes or hangs on what it is given to read.  (The results fuzzer is built
 * with RESULTS_READ_IN_PROCESS: it runs the same reading in its own process,
 * see run_child.) */
#define _GNU_SOURCE   /* strsignal, mkstemp, ftruncate, memfd_create */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>   /* memfd_create */
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "results_h5.h"
#include "trust.h"
#include "results_read_parts.h"

#define MAX_COLUMNS 128
/* The longest fixed-length string column a file may store (ours are 8 to 160
 * bytes; an older or newer writer's may differ, within reason).  A column
 * stored wider than this, or an integer or float wider than 16 bytes, is
 * damage: HDF5 would allocate that width for every record to convert it. */
#define MAX_STORED_STRING 4096
#define MAX_ATTR_BYTES ((size_t)16 << 20)   /* longer attribute values are not shown */
/* How much larger than its stored bytes a compressed table (schemas 1-3) may
 * claim to be; far above what deflate gives these tables (about 4). */
#define MAX_INFLATION 64
/* How often an SWMR reader reads a piece of metadata whose checksum fails
 * before it takes the file for damaged (HDF5's default, 100, with its waits
 * between tries, made a damaged file cost the whole timeout): a live writer's
 * flush is over within a few tries. */
#define SWMR_READ_ATTEMPTS 4

/* ---- reading, in the child -------------------------------------------------------- */

/* Open for reading: plainly, or, when its writer never closed it (a run killed,
 * or still going), as an SWMR reader.  *writer_open says which. */
/* A copy of `path` in the temporary folder, extended with zeros to `size`
 * bytes and already unlinked (open for reading through "/proc/self/fd/N" is not
 * possible for HDF5, so the name lives only until the file is opened): 0 with
 * its name in tmp, or -1. */
static int padded_copy(const char *path, long long size, char *tmp, size_t len)
{
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, len, "%s/mmladder-padded-XXXXXX", dir && *dir ? dir : "/tmp");
    int out = mkstemp(tmp), in = open(path, O_RDONLY | O_CLOEXEC);
    int rc = out >= 0 && in >= 0 ? 0 : -1;
    char buf[65536];
    for (ssize_t n; rc == 0 && (n = read(in, buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 || write(out, buf, (size_t)n) != n) rc = -1;
    }
    if (rc == 0 && ftruncate(out, (off_t)size) != 0) rc = -1;
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (rc != 0 && out >= 0) unlink(tmp);
    return rc;
}

/* Open for reading: plainly, or, when its writer never closed it (a run killed,
 * or still going), as an SWMR reader; a file that ends before its own stated
 * end (a full disk cut its last writes) is read from a copy padded to that
 * length, so that everything before the cut can be.  *writer_open and
 * *padded say which. */
hid_t read_open_for_reading(const char *path, int *writer_open, long long *padded, char *why,
                              size_t whylen)
{
    *writer_open = 0;
    *padded = 0;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        H5Pset_metadata_read_attempts(fapl, SWMR_READ_ATTEMPTS) < 0) {
        if (fapl >= 0) H5Pclose(fapl);
        h5_why(why, whylen);
        return -1;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (f < 0) {
        char first[256];
        h5_why(first, sizeof first);
        /* as an SWMR reader only where the file says a writer has it open (an
         * open of a damaged file costs as much as a sound one's) */
        if (strstr(first, "already open for write"))
            f = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
        char *eof = strstr(first, "stored_eof = ");
        struct stat st;
        char tmp[4096];
        if (f >= 0) {
            *writer_open = 1;
        } else if (strstr(first, "lock file") || strstr(first, "temporarily unavailable")) {
            snprintf(why, whylen, "locked by another process (a run still writing it?): %s",
                     first);
        } else if (strstr(first, "truncated file") && eof && stat(path, &st) == 0 &&
                   atoll(eof + 13) > st.st_size && atoll(eof + 13) < 2 * st.st_size + (64 << 20) &&
                   padded_copy(path, atoll(eof + 13), tmp, sizeof tmp) == 0) {
            H5Eclear2(H5E_DEFAULT);
            f = H5Fopen(tmp, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
            if (f < 0) f = H5Fopen(tmp, H5F_ACC_RDONLY, fapl);
            unlink(tmp);
            *writer_open = 1;
            *padded = atoll(eof + 13) - (long long)st.st_size;
            if (f < 0) snprintf(why, whylen, "damaged (%s)", first);
        } else {
            H5Eclear2(H5E_DEFAULT);
            htri_t is = H5Fis_hdf5(path);
            H5Eclear2(H5E_DEFAULT);
            if (is > 0)
                snprintf(why, whylen, "damaged (%s)", first);
            else
                snprintf(why, whylen, "not an HDF5 file");
        }
    }
    H5Pclose(fapl);
    return f;
}

/* The member type class a field must have in the file. */
static H5T_class_t class_of(enum field_kind k)
{
    return k == FIELD_STR ? H5T_STRING : k == FIELD_INT ? H5T_INTEGER : H5T_FLOAT;
}

/* Columns older schemas wrote that this one no longer reads: sm_clock_mhz (one
 * reading of the SM clock after sampling, schemas 1-5; telemetry replaced it). */
static int retired(const char *column)
{
    static const char *const names[] = {"sm_clock_mhz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], column)) return 1;
    return 0;
}

/* The memory type matching the file's columns: each of the file's columns must
 * be one of ours with the right class; ours it lacks (older schemas) stay zero.
 * Returns the type, or -1 with why. */
static hid_t matching_type(hid_t ft, const struct field_desc *fd, size_t nf, size_t rec_size,
                           unsigned char *present, char *why, size_t whylen)
{
    memset(present, 0, nf);
    if (H5Tget_class(ft) != H5T_COMPOUND) {
        snprintf(why, whylen, "not a table of records");
        return -1;
    }
    int nm = H5Tget_nmembers(ft);
    if (nm < 1 || nm > MAX_COLUMNS) {
        snprintf(why, whylen, "%d columns (expected 1 to %d)", nm, MAX_COLUMNS);
        return -1;
    }
    hid_t mt = H5Tcreate(H5T_COMPOUND, rec_size);
    for (int i = 0; mt >= 0 && i < nm; i++) {
        char *name = H5Tget_member_name(ft, (unsigned)i);
        size_t k = 0;
        while (name && k < nf && strcmp(fd[k].name, name) != 0) k++;
        if (name && k == nf && retired(name)) {   /* an older schema's column: not read */
            H5free_memory(name);
            continue;
        }
        hid_t member = H5Tget_member_type(ft, (unsigned)i);
        const char *bad = NULL;
        if (!name)
            bad = "a column without a name";
        else if (k == nf)
            bad = "a column this schema does not have (written by a newer mmladder?)";
        else if (member < 0 || H5Tget_class(member) != class_of(fd[k].kind))
            bad = "a column of the wrong type";
        else if (fd[k].kind == FIELD_STR && H5Tis_variable_str(member) != 0)
            bad = "a variable-length string column";
        else if (H5Tget_size(member) == 0 ||
                 H5Tget_size(member) > (fd[k].kind == FIELD_STR ? MAX_STORED_STRING : 16) ||
                 H5Tget_member_offset(ft, (unsigned)i) + H5Tget_size(member) > H5Tget_size(ft))
            bad = "a column whose stored size is impossible (damaged)";
        else if (fd[k].kind == FIELD_INT &&
                 (H5Tget_size(member) > 4 ||
                  (H5Tget_size(member) == 4 && H5Tget_sign(member) != H5T_SGN_2)))
            /* HDF5 would clamp a value past INT_MAX to it without a word;
             * every writer of ours stores them as int32 */
            bad = "an integer column wider than the 32-bit signed integers it is read into";
        if (bad) {
            snprintf(why, whylen, "column %d%s%.64s%s: %s", i, name ? " '" : "", name ? name : "",
                     name ? "'" : "", bad);
            H5Tclose(mt);
            mt = -1;
        } else {
            hid_t t = fd[k].kind == FIELD_STR   ? h5_string_type(fd[k].size)
                      : fd[k].kind == FIELD_INT ? H5Tcopy(H5T_NATIVE_INT32)
                                                : H5Tcopy(H5T_NATIVE_DOUBLE);
            /* HDF5 converts strings only between the same character sets. */
            if (t >= 0 && fd[k].kind == FIELD_STR && H5Tset_cset(t, H5Tget_cset(member)) < 0) {
                H5Tclose(t);
                t = -1;
            }
            if (t < 0 || H5Tinsert(mt, name, fd[k].offset, t) < 0) {
                snprintf(why, whylen, "column '%.64s': %s", name, "cannot be read");
                H5Tclose(mt);
                mt = -1;
            }
            if (t >= 0) H5Tclose(t);
            if (mt >= 0) present[k] = 1;
        }
        if (member >= 0) H5Tclose(member);
        if (name) H5free_memory(name);
    }
    return mt;
}

/* The transfer properties of a table's reads: HDF5 converts records through
 * buffers of 1 MiB unless told otherwise, allocated and zeroed for every read;
 * a table of a few records gets buffers of its own size (at most 1 MiB, at
 * least one record as stored or in memory).  -1 if they cannot be made. */
static hid_t transfer_props(hsize_t nrec, size_t file_rec, size_t rec_size)
{
    const size_t rec = file_rec > rec_size ? file_rec : rec_size, most = (size_t)1 << 20;
    const size_t size = nrec == 0 ? rec : nrec >= most / rec ? (most > rec ? most : rec) : (size_t)nrec * rec;
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (dxpl >= 0 && H5Pset_buffer(dxpl, size, NULL, NULL) < 0) {
        H5Pclose(dxpl);
        dxpl = -1;
    }
    return dxpl;
}

/* Read records [at, at + n) of d into buf (records of rec_size bytes). */
static herr_t read_block(hid_t d, hid_t mt, hid_t dxpl, size_t rec_size, hsize_t at, hsize_t n,
                         void *buf)
{
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &n, NULL);
    herr_t st = (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &n, NULL) < 0)
                    ? -1
                    : H5Dread(d, mt, ms, fs, dxpl, (char *)buf + at * rec_size);
    if (ms >= 0) H5Sclose(ms);
    if (fs >= 0) H5Sclose(fs);
    return st;
}

struct table_read {
    void *buf;             /* malloc'd, or in the bulk file (never freed: the reader's
                              process ends) */
    size_t at;             /* where buf begins in the bulk file */
    size_t n;              /* records read */
    size_t declared;       /* records the table declares */
    unsigned char present[MAX_COLUMNS];   /* which of its fields the file has */
};

/* bytes of zeros for a table: at *at in b's file, or calloc'd without one (or
 * for none) */
static void *table_memory(struct bulk *b, size_t bytes, size_t *at)
{
    *at = 0;
    if (!b || bytes == 0) return calloc(bytes ? bytes : 1, 1);
    *at = (b->end + 4095) & ~(size_t)4095;
    if (ftruncate(b->fd, (off_t)(*at + bytes)) != 0) return NULL;
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, (off_t)*at);
    if (m == MAP_FAILED) return NULL;
    b->end = *at + bytes;
    return m;
}

/* Read a whole table, validated before anything is allocated: one dimension,
 * at most max_records, and no more bytes than the file could hold (times
 * MAX_INFLATION for compressed tables of schemas 1-3).  A table that cannot be
 * read whole is read chunk by chunk up to the first damaged one.  Returns 0
 * (t->n < t->declared when a damaged tail was dropped), or -1 with why. */
static int read_table(hid_t f, const char *name, const struct field_desc *fd, size_t nf,
                      size_t rec_size, size_t max_records, double file_bytes, struct bulk *b,
                      struct table_read *t, char *why, size_t whylen)
{
    memset(t, 0, sizeof *t);
    htri_t there = H5Lexists(f, name, H5P_DEFAULT);
    hid_t d = there > 0 ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
    if (d < 0) {
        snprintf(why, whylen, "no table /%s (not a results file, or damaged)", name);
        H5Eclear2(H5E_DEFAULT);
        return -1;
    }
    hid_t sp = H5Dget_space(d), ft = H5Dget_type(d), dcpl = H5Dget_create_plist(d), mt = -1;
    hid_t dxpl = -1;
    hsize_t nrec = 0, chunk = 1024;
    int rc = -1;
    if (sp < 0 || ft < 0 || dcpl < 0 || H5Sget_simple_extent_ndims(sp) != 1 ||
        H5Sget_simple_extent_dims(sp, &nrec, NULL) != 1) {
        snprintf(why, whylen, "/%s is not a one-dimensional table", name);
        goto done;
    }
    const size_t file_rec = H5Tget_size(ft);
    const int filters = H5Pget_nfilters(dcpl);
    const double limit = file_bytes * (filters > 0 ? MAX_INFLATION : 1);
    if (nrec > max_records || file_rec == 0 || (double)nrec * (double)file_rec > limit) {
        snprintf(why, whylen, "/%s declares %llu records of %zu bytes in a file of %.0f bytes "
                              "(damaged)", name, (unsigned long long)nrec, file_rec, file_bytes);
        goto done;
    }
    if ((mt = matching_type(ft, fd, nf, rec_size, t->present, why, whylen)) < 0) {
        char col[160];
        snprintf(col, sizeof col, "%s", why);
        snprintf(why, whylen, "/%s: %s", name, col);
        goto done;
    }
    t->declared = (size_t)nrec;
    t->buf = table_memory(b, (size_t)nrec * rec_size, &t->at);
    if (!t->buf || (dxpl = transfer_props(nrec, file_rec, rec_size)) < 0) {
        snprintf(why, whylen, "/%s: out of memory for %llu records", name, (unsigned long long)nrec);
        goto done;
    }
    rc = 0;
    if (nrec == 0 || read_block(d, mt, dxpl, rec_size, 0, nrec, t->buf) >= 0) {
        t->n = (size_t)nrec;
    } else {
        /* Recover the readable prefix, a chunk at a time. */
        H5Eclear2(H5E_DEFAULT);
        if (H5Pget_layout(dcpl) == H5D_CHUNKED) H5Pget_chunk(dcpl, 1, &chunk);
        if (chunk < 1) chunk = 1;
        hsize_t at = 0;
        while (at < nrec) {
            hsize_t n = nrec - at < chunk ? nrec - at : chunk;
            if (read_block(d, mt, dxpl, rec_size, at, n, t->buf) < 0) break;
            at += n;
        }
        H5Eclear2(H5E_DEFAULT);
        t->n = (size_t)at;
    }
    /* Our strings end within their fields, whatever the file held. */
    for (size_t i = 0; i < t->n; i++)
        for (size_t k = 0; k < nf; k++)
            if (fd[k].kind == FIELD_STR)
                ((char *)t->buf)[i * rec_size + fd[k].offset + fd[k].size - 1] = '\0';
done:
    if (dxpl >= 0) H5Pclose(dxpl);
    if (mt >= 0) H5Tclose(mt);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (ft >= 0) H5Tclose(ft);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0) {
        if (!b) free(t->buf);
        t->buf = NULL;
    }
    return rc;
}

/* An integer root attribute, if there is a readable scalar one. */
static int int_attr(hid_t f, const char *name, long long *v)
{
    if (H5Aexists(f, name) <= 0) return -1;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : -1, sp = a >= 0 ? H5Aget_space(a) : -1;
    int rc = (t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_INTEGER &&
              H5Sget_simple_extent_npoints(sp) == 1 && H5Aread(a, H5T_NATIVE_LLONG, v) >= 0)
                 ? 0
                 : -1;
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* A floating-point root attribute, or NaN if there is no readable scalar one. */
static double double_attr(hid_t f, const char *name)
{
    double v = NAN;
    if (H5Aexists(f, name) <= 0) return v;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : -1, sp = a >= 0 ? H5Aget_space(a) : -1;
    if (!(t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_FLOAT &&
          H5Sget_simple_extent_npoints(sp) == 1 && H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0))
        v = NAN;
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    H5Eclear2(H5E_DEFAULT);
    return v;
}

/* Make rows and samples agree: a row still "recording" (its run stopped while
 * committing it) is dropped, samples of no kept row are dropped, and a row
 * whose samples are not all there is said to be so.  Returns how many rows and
 * samples were lost (dropped, or unreadable) and rows left short of samples. */
static size_t reconcile(struct results_file *f, size_t samples_declared, size_t rows_declared)
{
    if (f->n_rows < rows_declared)
        results_note(f, "rows %zu-%zu of /results unreadable (damaged): dropped", f->n_rows,
             rows_declared - 1);
    if (f->n_samples < samples_declared)
        results_note(f, "samples %zu-%zu of /samples unreadable (damaged): dropped", f->n_samples,
             samples_declared - 1);
    size_t keep = f->n_rows;
    while (keep > 0 && !strcmp(f->rows[keep - 1].disposition, RESULTS_RECORDING)) keep--;
    if (keep < f->n_rows)
        results_note(f, "row %zu (%s) was being recorded when its run stopped: dropped with its "
                "samples", keep, f->rows[keep].variant);
    for (size_t i = 0; i < keep; i++)
        if (!strcmp(f->rows[i].disposition, RESULTS_RECORDING)) {
            results_note(f, "row %zu is marked '%s' amid committed rows (damaged)", i, RESULTS_RECORDING);
            break;
        }
    f->n_rows = keep;
    /* Samples are written in order of (row, sample): one out of that order
     * (fill values of a table grown but never written, say) ends the good part. */
    size_t ordered = 0;
    while (ordered < f->n_samples) {
        const struct sample_row *s = &f->samples[ordered], *p = ordered ? s - 1 : NULL;
        if (p && (s->row < p->row || (s->row == p->row && s->sample != p->sample + 1))) break;
        if (!p && s->sample != 0) break;
        ordered++;
    }
    if (ordered < f->n_samples)
        results_note(f, "samples %zu-%zu out of order (written in part when its run stopped): dropped",
             ordered, f->n_samples - 1);
    f->n_samples = ordered;
    size_t out = 0, stray = 0;
    for (size_t i = 0; i < f->n_samples; i++) {
        const struct sample_row *s = &f->samples[i];
        if (s->row < 0 || (size_t)s->row >= keep) {
            stray++;
            continue;
        }
        f->samples[out++] = *s;
    }
    if (stray && !(keep < rows_declared || f->n_rows < rows_declared))
        results_note(f, "%zu samples of no recorded row: dropped", stray);
    f->n_samples = out;
    size_t short_rows = 0, first = 0, at = 0;
    for (size_t i = 0; i < keep; i++) {
        size_t n = 0;
        while (at < out && f->samples[at].row < (int32_t)i) at++;
        while (at + n < out && f->samples[at + n].row == (int32_t)i) n++;
        if ((size_t)(f->rows[i].samples < 0 ? 0 : f->rows[i].samples) != n &&
            !strcmp(f->rows[i].disposition, "passed") && short_rows++ == 0)
            first = i;
    }
    if (short_rows)
        results_note(f, "%zu passed rows (the first: row %zu) lack some of their samples; their "
                "statistics are kept", short_rows, first);
    return (samples_declared - out) + (rows_declared - keep) + short_rows;
}

/* Files of schemas 1-5 have no telemetry, no pairing and no sample times:
 * those values are unknown (NaN), not zero. */
static void unknown_before_6(struct results_file *f)
{
    for (size_t i = 0; i < f->n_rows; i++) {
        struct result_row *r = &f->rows[i];
        r->clock_mhz_min = r->clock_mhz_mean = r->clock_mhz_max = NAN;
        r->power_w_mean = r->power_w_max = r->temp_c_max = NAN;
        r->warmup_ms = r->start_s = r->ref_ratio = r->ref_ratio_ci95 = NAN;
    }
    for (size_t i = 0; i < f->n_samples; i++) {
        struct sample_row *s = &f->samples[i];
        s->t_s = s->clock_mhz = s->power_w = s->ref_ms = NAN;
    }
}

/* Files of schemas 1-7 have neither the second timer nor the clock the SMs
 * counted nor the reference's own median in the pairs: unknown (NaN). */
static void unknown_before_8(struct results_file *f)
{
    for (size_t i = 0; i < f->n_rows; i++) {
        struct result_row *r = &f->rows[i];
        r->ref_ms_median = r->kernel_ms_median = r->ref_kernel_ms_median = NAN;
        r->kernel_ratio = r->kernel_ratio_ci95 = r->kernels_per_launch = r->probe_mhz_mean = NAN;
    }
    for (size_t i = 0; i < f->n_samples; i++) {
        struct sample_row *s = &f->samples[i];
        s->kernel_ms = s->ref_kernel_ms = s->probe_mhz = NAN;
    }
}

/* What every reader does with the rows it read: the values an older schema
 * lacks made unknown, then trust_rows's judgement. */
void read_complete_and_trust(struct results_file *f, int says_complete, long long planned,
                             double fp32_peak, size_t lost)
{
    if (f->schema_version >= 1 && f->schema_version < 6) unknown_before_6(f);
    if (f->schema_version >= 1 && f->schema_version < 8) unknown_before_8(f);
    if (f->schema_version < 10)   /* no point of the plan recorded */
        for (size_t i = 0; i < f->n_rows; i++) f->rows[i].point = -1;
    trust_rows(f, says_complete, planned, fp32_peak, lost);
}

/* Read in the child (results_read has checked that path is a regular file);
 * on success the file is left open in *file, for its attributes. */
int read_file(const char *path, struct bulk *b, struct results_file *out, int *says_complete,
                     long long *planned, double *fp32_peak, size_t *lost, hid_t *file, char *err,
                     size_t errlen)
{
    *lost = 0;
    h5_setup();
    memset(out, 0, sizeof *out);
    char why[512];
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    long long padded = 0;
    hid_t f = read_open_for_reading(path, &out->writer_open, &padded, why, sizeof why);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, why);
        return -1;
    }
    const double bytes = (double)st.st_size;
    struct table_read rows, samples;
    int rc = read_table(f, "results", RESULT_FIELDS, RESULT_NFIELDS, sizeof(struct result_row),
                        RESULTS_MAX_ROWS, bytes, b, &rows, why, sizeof why);
    if (rc == 0 && read_table(f, "samples", SAMPLE_FIELDS, SAMPLE_NFIELDS,
                              sizeof(struct sample_row), RESULTS_MAX_SAMPLES, bytes, b, &samples,
                              why, sizeof why) != 0) {
        if (!b) free(rows.buf);
        rc = -1;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        H5Fclose(f);
        return -1;
    }
    if (b) b->rows_at = rows.at, b->samples_at = samples.at;
    out->rows = rows.buf;
    out->n_rows = rows.n;
    out->samples = samples.buf;
    out->n_samples = samples.n;
    long long v = 0;
    *says_complete = int_attr(f, "complete", &v) == 0 && v == 1;
    if (int_attr(f, "planned_points", planned) != 0 || *planned < 0) *planned = -1;
    *fp32_peak = double_attr(f, "gpu_fp32_peak_gflops");
    out->schema_version = int_attr(f, "schema_version", &v) == 0 && v > 0 && v < 1000 ? (int)v : 0;
    H5Eclear2(H5E_DEFAULT);
    if (trust_schema(out->schema_version, rows.present, samples.present, why, sizeof why) != 0) {
        H5Fclose(f);
        snprintf(err, errlen, "%s: %s", path, why);
        if (b) memset(out, 0, sizeof *out);   /* the bulk file's: this process ends */
        else results_file_free(out);
        return -1;
    }
    *file = f;
    *lost = reconcile(out, samples.declared, rows.declared) + (padded > 0);
    if (padded)
        results_note(out, "the file ends %lld bytes before its own stated end (its disk filled while "
                  "it was written); read from a copy padded with zeros", padded);
    else if (out->writer_open)
        results_note(out, "its writer never closed it (the run was killed, or is still going)");
    return 0;
}

void results_file_free(struct results_file *f)
{
    if (f->map) munmap(f->map, f->map_len);
    else free(f->rows), free(f->samples);
    free(f->attrs);   /* one block: the array, then the texts */
    memset(f, 0, sizeof *f);
}

const char *results_attr_value(const struct results_file *f, const char *name)
{
    for (size_t i = 0; i < f->n_attrs; i++)
        if (!strcmp(f->attrs[i].name, name)) return f->attrs[i].value;
    return NULL;
}

/* ---- attributes as text ---------------------------------------------------------- */

/* One attribute's value as text into *text (malloc'd when long). */
static void attr_text(hid_t a, char *buf, size_t len, char **text, enum attr_kind *kind)
{
    *text = buf;
    *kind = ATTR_OTHER;
    snprintf(buf, len, "(unreadable)");
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    hssize_t npoints = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t < 0 || npoints < 0) {
        /* unreadable */
    } else if (npoints != 1) {
        snprintf(buf, len, "(%lld values, not shown)", (long long)npoints);
    } else if (cls == H5T_STRING && H5Tis_variable_str(t) > 0) {
        *kind = ATTR_TEXT;
        hid_t mt = H5Tcopy(H5T_C_S1);
        char *s = NULL;
        if (mt >= 0 && H5Tset_size(mt, H5T_VARIABLE) >= 0 && H5Tset_cset(mt, H5Tget_cset(t)) >= 0 &&
            H5Aread(a, mt, &s) >= 0 && s) {
            size_t n = strnlen(s, MAX_ATTR_BYTES);
            char *copy = malloc(n + 1);
            if (copy) {
                memcpy(copy, s, n);
                copy[n] = '\0';
                *text = copy;
            }
        }
        if (s) H5free_memory(s);
        if (mt >= 0) H5Tclose(mt);
    } else if (cls == H5T_STRING) {
        *kind = ATTR_TEXT;
        size_t sz = H5Tget_size(t);
        if (sz == 0 || sz > MAX_ATTR_BYTES) {
            snprintf(buf, len, "(a string of %zu bytes, not shown)", sz);
        } else {
            char *s = calloc(sz + 1, 1);
            hid_t mt = H5Tcopy(H5T_C_S1);
            if (s && mt >= 0 && H5Tset_size(mt, sz + 1) >= 0 &&
                H5Tset_cset(mt, H5Tget_cset(t)) >= 0 && H5Aread(a, mt, s) >= 0) {
                *text = s;
                s = NULL;
            }
            free(s);
            if (mt >= 0) H5Tclose(mt);
        }
    } else if (cls == H5T_INTEGER) {
        if (H5Tget_sign(t) == H5T_SGN_NONE) {
            unsigned long long u = 0;
            if (H5Aread(a, H5T_NATIVE_ULLONG, &u) >= 0) snprintf(buf, len, "%llu", u), *kind = ATTR_UINT;
        } else {
            long long s = 0;
            if (H5Aread(a, H5T_NATIVE_LLONG, &s) >= 0) snprintf(buf, len, "%lld", s), *kind = ATTR_INT;
        }
    } else if (cls == H5T_FLOAT) {
        double d = 0;
        if (H5Aread(a, H5T_NATIVE_DOUBLE, &d) >= 0) snprintf(buf, len, "%.17g", d), *kind = ATTR_FLOAT;
    } else {
        snprintf(buf, len, "(a value of another type, not shown)");
    }
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    H5Eclear2(H5E_DEFAULT);
}

herr_t read_visit_one(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)info;
    struct visit *v = op;
    char buf[256], *text = buf;
    enum attr_kind kind = ATTR_OTHER;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a >= 0) {
        attr_text(a, buf, sizeof buf, &text, &kind);
        H5Aclose(a);
    } else {
        snprintf(buf, sizeof buf, "(unreadable)");
    }
    H5Eclear2(H5E_DEFAULT);
    v->fn(name, text, kind, v->ctx);
    if (text != buf) free(text);
    return 0;
}

static void add_attr_crc(const char *name, const char *value, enum attr_kind kind, void *ctx)
{
    (void)kind;
    uint32_t *crc = ctx;
    *crc = trust_attr_crc(*crc, name, value);
}

int results_attrs_crc(hid_t file, uint32_t *crc)
{
    *crc = 0;
    struct visit v = {add_attr_crc, crc};
    hsize_t idx = 0;
    herr_t st = H5Aiterate2(file, H5_INDEX_NAME, H5_ITER_INC, &idx, read_visit_one, &v);
    H5Eclear2(H5E_DEFAULT);
    return st < 0 ? -1 : 0;
}
