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
/* A reader gets this long, plus a second per 50 MB of file, before it is
 * taken for hung (a sound file of a paper run reads in a tenth of a second). */
#define READ_TIMEOUT_S 30
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
static hid_t open_for_reading(const char *path, int *writer_open, long long *padded, char *why,
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

/* Where a reader in a child puts its tables: one after another in a memory
 * file, each at a page boundary, which the parent maps once the child is done
 * (so that the rows are written once and never copied). */
struct bulk {
    int fd;
    size_t end;                /* bytes of the file so far */
    size_t rows_at, samples_at;   /* where read_file's two tables begin in it */
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

/* Read in the child (results_read has checked that path is a regular file);
 * on success the file is left open in *file, for its attributes. */
static int read_file(const char *path, struct bulk *b, struct results_file *out, int *says_complete,
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
    hid_t f = open_for_reading(path, &out->writer_open, &padded, why, sizeof why);
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

struct visit {
    attr_kind_fn fn;
    void *ctx;
};

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

static herr_t visit_one(hid_t loc, const char *name, const H5A_info_t *info, void *op)
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
    herr_t st = H5Aiterate2(file, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_one, &v);
    H5Eclear2(H5E_DEFAULT);
    return st < 0 ? -1 : 0;
}

/* ---- the child, and what it sends ----------------------------------------------- */

/* What a read sends first; rows and samples follow when rc == 0. */
struct wire_head {
    int32_t rc;
    uint64_t n_rows, n_samples;
    int64_t planned;
    int32_t schema_version, writer_open;
    int32_t complete, checksummed;   /* trust_rows's verdict, made by the reader */
    uint64_t damaged;
    uint64_t rows_at, samples_at;   /* where the rows and samples lie in the bulk file */
    char notes[512];
    char err[1024];
};

static int write_all(int fd, const void *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p = (const char *)p + w;
        n -= (size_t)w;
    }
    return 0;
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
static void complete_and_trust(struct results_file *f, int says_complete, long long planned,
                               double fp32_peak, size_t lost)
{
    if (f->schema_version >= 1 && f->schema_version < 6) unknown_before_6(f);
    if (f->schema_version >= 1 && f->schema_version < 8) unknown_before_8(f);
    if (f->schema_version < 10)   /* no point of the plan recorded */
        for (size_t i = 0; i < f->n_rows; i++) f->rows[i].point = -1;
    trust_rows(f, says_complete, planned, fp32_peak, lost);
}

/* The attribute stream, in which a reader sends the root attributes: per
 * attribute (name length, name, kind, value length, value), with 32-bit lengths
 * and the kind (enum attr_kind) in a byte; then UINT32_MAX and a wire_head for
 * the outcome (rc, err, writer_open).  Written through a buffer: a file has
 * dozens of attributes, each of five pieces. */
struct attr_sink {
    int fd;
    int failed;
    size_t len;
    char buf[1 << 16];
};

static void put(struct attr_sink *s, const void *p, size_t n)
{
    if (s->failed) return;
    if (s->len + n > sizeof s->buf) {
        if (write_all(s->fd, s->buf, s->len) != 0) s->failed = 1;
        s->len = 0;
    }
    if (n > sizeof s->buf) {
        if (!s->failed && write_all(s->fd, p, n) != 0) s->failed = 1;
        return;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
}

static void send_attr(const char *name, const char *value, enum attr_kind kind, void *ctx)
{
    struct attr_sink *s = ctx;
    uint32_t n = (uint32_t)strlen(name), v = (uint32_t)strlen(value);
    const unsigned char k = (unsigned char)kind;
    put(s, &n, sizeof n), put(s, name, n), put(s, &k, 1), put(s, &v, sizeof v), put(s, value, v);
}

/* Send f's attributes (f < 0: it could not be opened, h->err says why) and
 * the outcome in h to fd: 0, or -1 when fd took less than all of it. */
static int send_attrs(hid_t f, struct wire_head *h, int fd)
{
    struct attr_sink *s = malloc(sizeof *s);
    if (!s) return -1;
    s->fd = fd, s->failed = 0, s->len = 0;
    if (f >= 0) {
        struct visit v = {send_attr, s};
        hsize_t idx = 0;
        char why[512];
        if (H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_one, &v) < 0) {
            h->rc = -1;
            snprintf(h->err, sizeof h->err, "cannot read its attributes: %s", h5_why(why, sizeof why));
        }
    }
    const uint32_t end = UINT32_MAX;
    put(s, &end, sizeof end);
    put(s, h, sizeof *h);
    const int rc = s->failed || write_all(fd, s->buf, s->len) != 0 ? -1 : 0;
    free(s);
    return rc;
}

/* A reader's body: read path with the HDF5 library and write what it found to
 * fd (its rows and samples to bulk instead, a file the parent then maps, when
 * bulk >= 0), then its attributes (an attribute stream); 0, or -1 when fd or
 * bulk took less than all of it.  The rows go first, so that a crash or a hang
 * of the library on the attributes costs only them.  It frees what it allocated, so
 * that it can also run within the process (RESULTS_READ_IN_PROCESS). */
static int child_read(const char *path, int fd, int bulk)
{
    struct results_file f;
    struct wire_head h;
    memset(&h, 0, sizeof h);
    int says_complete = 0;
    long long planned = -1;
    double peak = NAN;
    size_t lost = 0;
    hid_t file = -1;
    struct bulk b = {bulk, 0, 0, 0};
    h.rc = read_file(path, bulk >= 0 ? &b : NULL, &f, &says_complete, &planned, &peak, &lost,
                     &file, h.err, sizeof h.err);
    if (h.rc == 0) {
        /* the rows made whole and judged here, where they were read: the
         * readers of several files do this work side by side */
        complete_and_trust(&f, says_complete, planned, peak, lost);
        h.complete = f.complete;
        h.checksummed = f.checksummed;
        h.damaged = f.damaged;
        h.n_rows = f.n_rows;
        h.n_samples = f.n_samples;
        h.planned = planned;
        h.schema_version = f.schema_version;
        h.writer_open = f.writer_open;
        h.rows_at = b.rows_at, h.samples_at = b.samples_at;
        memcpy(h.notes, f.notes, sizeof h.notes);
    }
    /* in bulk, the rows are in the bulk file already */
    int rc = write_all(fd, &h, sizeof h) != 0 ||
                     (h.rc == 0 && bulk < 0 &&
                      (write_all(fd, f.rows, f.n_rows * sizeof *f.rows) != 0 ||
                       write_all(fd, f.samples, f.n_samples * sizeof *f.samples) != 0))
                 ? -1
                 : 0;
    if (bulk < 0) results_file_free(&f);   /* read_file leaves it empty when it refuses; in
                                              bulk they are the bulk file's, and this process ends */
    if (h.rc == 0) {
        struct wire_head a;
        memset(&a, 0, sizeof a);
        a.writer_open = h.writer_open;
        if (rc == 0) rc = send_attrs(file, &a, fd);
        H5Fclose(file);
        H5Eclear2(H5E_DEFAULT);
    }
    return rc;
}

/* A reader's body that sends only the attributes (an attribute stream). */
static int child_visit(const char *path, int fd, int bulk)
{
    (void)bulk;
    h5_setup();
    struct wire_head h;
    memset(&h, 0, sizeof h);
    int writer_open = 0;
    long long padded;
    char why[512];
    hid_t f = open_for_reading(path, &writer_open, &padded, why, sizeof why);
    if (f < 0) h.rc = -1, snprintf(h.err, sizeof h.err, "cannot open: %s", why);
    h.writer_open = writer_open;
    const int rc = send_attrs(f, &h, fd);
    if (f >= 0) H5Fclose(f);
    return rc;
}

/* Where a child's bytes go: room(ctx, have, &len) is the place for the next
 * ones (at most len of them) after `have` have come, or NULL with the reason
 * in *fail; done(ctx, have) once the child closed its end: 0, or -1 with the
 * reason in *fail. */
struct sink {
    char *(*room)(void *ctx, size_t have, size_t *len, const char **fail);
    int (*done)(void *ctx, size_t have, const char **fail);
    void *ctx;
};

/* A sink that keeps everything in one growing buffer, at most `cap` bytes. */
struct grow {
    char *b;
    size_t room, cap, len;   /* len: what came, once all has */
};

static char *grow_room(void *ctx, size_t have, size_t *len, const char **fail)
{
    struct grow *g = ctx;
    if (have == g->room) {
        if (g->room >= g->cap) {
            *fail = "its reader sent more than the file can hold";
            return NULL;
        }
        const size_t room = !g->room ? 1 << 16 : g->room * 2 > g->cap ? g->cap : g->room * 2;
        char *nb = realloc(g->b, room);
        if (!nb) {
            *fail = "out of memory";
            return NULL;
        }
        g->b = nb, g->room = room;
    }
    *len = g->room - have;
    return g->b + have;
}

static int grow_done(void *ctx, size_t have, const char **fail)
{
    (void)fail;
    ((struct grow *)ctx)->len = have;
    return 0;
}

/* A reader's body (child_read, child_visit). */
typedef int (*reader_body)(const char *path, int fd, int bulk);

/* Move what the next read of fd gives into the sink: 1 while more may come, 0
 * once fd has ended (the sink's done has run; what it found in *late), -1 when
 * the sink takes no more (the reason in *fail). */
static int feed_sink(int fd, const struct sink *to, size_t *have, const char **fail,
                     const char **late)
{
    size_t len;
    char *at = to->room(to->ctx, *have, &len, fail);
    if (!at) return -1;
    ssize_t got = read(fd, at, len);
    if (got < 0 && errno == EINTR) return 1;
    if (got <= 0) {   /* the writer closed its end */
        (void)to->done(to->ctx, *have, late);
        return 0;
    }
    *have += (size_t)got;
    return 1;
}

/* How a reader ended: fail (the parent gave up on it) or late (the sink's
 * verdict on what came), else its death by signal `sig` or its exit `status`.
 * 0 when it read the file, or -1 with why. */
static int reader_outcome(const char *fail, const char *late, int sig, int status, char *why,
                          size_t whylen)
{
    if (!fail && sig)
        snprintf(why, whylen, "damaged (the HDF5 library crashed reading it: %s)", strsignal(sig));
    else if (!fail && status != 0)
        snprintf(why, whylen, "damaged (its reader stopped with status %d)", status);
    else if (fail || late)
        snprintf(why, whylen, "%s", fail ? fail : late);
    else
        return 0;
    return -1;
}

/* A reader under way: started by start_reader, ended by end_reader. */
struct reader {
    reader_body body;
    const char *path;
    int bulk;
    pid_t pid;   /* the child's; 0 when it runs in this process (or could not start) */
    int fd;      /* the read end of its pipe; -1 when there is none */
    char why[512];   /* why it could not start, or "" */
};

#ifdef RESULTS_READ_IN_PROCESS
/* The fuzz build (Makefile: build/fuzz/fuzz_results): body runs in this
 * process, so that libFuzzer sees the reader's coverage (a child's counters
 * die with it), and writes its stream into an anonymous file, which then
 * feeds the sink as a child's pipe does.  No timeout: a hang, or a crash of
 * the library, is the fuzzer's to catch (scripts/fuzz-triage.sh says whose).
 * Readers started together run one after the other, in end_reader. */
static void start_reader(struct reader *r, reader_body body, const char *path, int bulk)
{
    *r = (struct reader){.body = body, .path = path, .bulk = bulk, .pid = 0, .fd = -1, .why = ""};
}

static int end_reader(struct reader *r, const struct sink *to, double timeout_s, char *why,
                      size_t whylen)
{
    (void)timeout_s;
    int fd = memfd_create("mmladder-reader", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "cannot make a file for its reader: %s", strerror(errno));
        return -1;
    }
    const int status = r->body(r->path, fd, r->bulk) != 0 ? 3 : 0;
    size_t have = 0;
    const char *fail = NULL, *late = NULL;
    if (lseek(fd, 0, SEEK_SET) != 0)
        fail = "its reader's stream cannot be read back";
    while (!fail && feed_sink(fd, to, &have, &fail, &late) == 1) {}
    close(fd);
    return reader_outcome(fail, late, 0, status, why, whylen);
}
#else
/* Start body(path, fd, bulk) in a child, writing into a pipe. */
static void start_reader(struct reader *r, reader_body body, const char *path, int bulk)
{
    *r = (struct reader){.body = body, .path = path, .bulk = bulk, .pid = 0, .fd = -1, .why = ""};
    int p[2];
    if (pipe(p) != 0) {
        snprintf(r->why, sizeof r->why, "cannot make a pipe: %s", strerror(errno));
        return;
    }
#ifdef F_SETPIPE_SZ
    (void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20);   /* fewer, larger reads; the default if refused */
#endif
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(r->why, sizeof r->why, "cannot start a reader process: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return;
    }
    if (pid == 0) {
        /* A crash of the library is this process's death, which the parent
         * reports: no handler (a sanitizer's, say) may turn it into more. */
        const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGALRM};
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
        close(p[0]);
        _exit(body(path, p[1], bulk) != 0 ? 3 : 0);
    }
    close(p[1]);
    r->pid = pid, r->fd = p[0];
}

/* Put everything r's child writes into the sink, within `timeout_s` from now,
 * and reap it.  0, or -1 with why. */
static int end_reader(struct reader *r, const struct sink *to, double timeout_s, char *why,
                      size_t whylen)
{
    if (r->fd < 0) {
        snprintf(why, whylen, "%s", r->why);
        return -1;
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t have = 0;
    const char *fail = NULL, *late = NULL;   /* late: what the sink found once all had come */
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        const double left = timeout_s - ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec));
        if (left <= 0) {
            fail = "reading it did not end in time (the HDF5 library hung on it)";
            break;
        }
        struct pollfd pf = {.fd = r->fd, .events = POLLIN};
        int rc = poll(&pf, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR) continue;
        if (rc <= 0) continue;
        if (feed_sink(r->fd, to, &have, &fail, &late) != 1) break;
    }
    close(r->fd);
    r->fd = -1;
    if (fail) kill(r->pid, SIGKILL);
    int st = 0;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR) {}
    return reader_outcome(fail, late, WIFSIGNALED(st) ? WTERMSIG(st) : 0,
                          WIFEXITED(st) ? WEXITSTATUS(st) : -1, why, whylen);
}
#endif

/* Run body(path, fd, bulk) and put everything it writes into the sink, within
 * `timeout_s`.  0, or -1 with why. */
static int run_child(reader_body body, const char *path, int bulk, const struct sink *to,
                     double timeout_s, char *why, size_t whylen)
{
    struct reader r;
    start_reader(&r, body, path, bulk);
    return end_reader(&r, to, timeout_s, why, whylen);
}

/* The time a reader of a file of `bytes` may take: READ_TIMEOUT_S, or what
 * MMLADDER_READ_TIMEOUT_S says (the fuzzer's short limit), plus a second per
 * 50 MB. */
static double timeout_for(double bytes)
{
    const char *v = getenv("MMLADDER_READ_TIMEOUT_S");
    char *end;
    double base = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !(base > 0 && base < 1e6)) base = READ_TIMEOUT_S;
    return base + bytes / 50e6;
}

/* The sink of child_read: the wire_head, then the rows and the samples straight
 * into their own arrays, sized by the head once it has come and checked
 * against what the file can hold, then the attribute stream (when the head
 * says the rows were read). */
struct rows_sink {
    struct wire_head h;
    struct grow attrs;                /* the attribute stream */
    int rows_whole;                   /* all came before the attributes */
    int bulk;                         /* >= 0: rows and samples come in this file, not the stream */
    size_t cap;                       /* the most the reader may send */
    struct result_row *rows;
    struct sample_row *samples;
    size_t rows_b, samples_b;
    int sized;                        /* the head has come and the arrays are made */
    void *map;                        /* the bulk file, mapped (rows then samples) */
    size_t map_len;
    char extra;                       /* a byte past the end: the stream is too long */
    char msg[200];
};

static int rows_sized(struct rows_sink *k, const char **fail)
{
    k->h.err[sizeof k->h.err - 1] = k->h.notes[sizeof k->h.notes - 1] = '\0';
    k->sized = 1;
    if (k->h.rc != 0) return 0;   /* nothing follows; results_read reports h.err */
    if (k->h.n_rows > RESULTS_MAX_ROWS || k->h.n_samples > RESULTS_MAX_SAMPLES ||
        (double)k->h.n_rows * sizeof *k->rows + (double)k->h.n_samples * sizeof *k->samples >
            (double)k->cap) {
        snprintf(k->msg, sizeof k->msg, "damaged (its reader announced %llu rows and %llu samples)",
                 (unsigned long long)k->h.n_rows, (unsigned long long)k->h.n_samples);
        *fail = k->msg;
        return -1;
    }
    k->rows_b = (size_t)k->h.n_rows * sizeof *k->rows;
    k->samples_b = (size_t)k->h.n_samples * sizeof *k->samples;
    if (k->bulk >= 0) return 0;   /* mapped once the reader is done */
    k->rows = malloc(k->rows_b ? k->rows_b : 1);
    k->samples = malloc(k->samples_b ? k->samples_b : 1);
    if (!k->rows || !k->samples) {
        *fail = "out of memory for its rows and samples";
        return -1;
    }
    return 0;
}

static char *rows_room(void *ctx, size_t have, size_t *len, const char **fail)
{
    struct rows_sink *k = ctx;
    const size_t head = sizeof k->h;
    if (have < head) {
        *len = head - have;
        return (char *)&k->h + have;
    }
    if (!k->sized && rows_sized(k, fail) != 0) return NULL;
    if (k->h.rc == 0 && k->bulk < 0 && have < head + k->rows_b) {
        *len = head + k->rows_b - have;
        return (char *)k->rows + (have - head);
    }
    if (k->h.rc == 0 && k->bulk < 0 && have < head + k->rows_b + k->samples_b) {
        *len = head + k->rows_b + k->samples_b - have;
        return (char *)k->samples + (have - head - k->rows_b);
    }
    const size_t body = head + (k->h.rc == 0 && k->bulk < 0 ? k->rows_b + k->samples_b : 0);
    if (k->h.rc == 0) {   /* the rows have all come; now the attributes */
        k->rows_whole = 1;
        return grow_room(&k->attrs, have - body, len, fail);
    }
    if (have > body) {
        *fail = "its reader sent more than it announced";
        return NULL;
    }
    *len = 1;   /* anything more is too much: the next call says so */
    return &k->extra;
}

static int rows_done(void *ctx, size_t have, const char **fail)
{
    struct rows_sink *k = ctx;
    const size_t want = sizeof k->h + (k->h.rc == 0 && k->bulk < 0 ? k->rows_b + k->samples_b : 0);
    if (have >= sizeof k->h && !k->sized && rows_sized(k, fail) != 0) return -1;
    if (have < sizeof k->h || have < want || (k->h.rc != 0 && have != want)) {
        snprintf(k->msg, sizeof k->msg, "damaged (its reader sent %zu bytes%s)", have,
                 have < sizeof k->h ? "" : " short of what it announced");
        *fail = k->msg;
        return -1;
    }
    k->rows_whole = 1;
    k->attrs.len = have - want;
    return 0;
}

/* Map the bulk file whose rows and samples the reader wrote, once it is done:
 * where its head says, within the file, or the reader is not believed. */
static int map_bulk(struct rows_sink *k, char *why, size_t whylen)
{
    struct stat st;
    const uint64_t r = k->h.rows_at, s = k->h.samples_at;
    if (fstat(k->bulk, &st) != 0 || (k->rows_b && (r % 4096 || r + k->rows_b > (uint64_t)st.st_size)) ||
        (k->samples_b && (s % 4096 || s + k->samples_b > (uint64_t)st.st_size ||
                          (k->rows_b && s < r + k->rows_b && r < s + k->samples_b)))) {
        snprintf(why, whylen, "damaged (its reader's rows and samples are not where it says)");
        return -1;
    }
    if (st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, k->bulk, 0);
        if (m == MAP_FAILED) {
            snprintf(why, whylen, "cannot map its rows: %s", strerror(errno));
            return -1;
        }
        k->map = m, k->map_len = (size_t)st.st_size;
    }
    /* an empty table points at the mapping's start, or gets an array to free */
    k->rows = (struct result_row *)((char *)k->map + (k->rows_b ? r : 0));
    k->samples = (struct sample_row *)((char *)k->map + (k->samples_b ? s : 0));
    if (!k->map) {
        k->rows = malloc(1), k->samples = malloc(1);
        if (!k->rows || !k->samples) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* The most an attribute stream of a file of `bytes` may hold. */
static size_t attrs_cap(double bytes)
{
    const double cap = 4 * bytes + (1 << 20);
    return cap > (double)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)cap;
}

/* One entry of an attribute stream at *at: 1 with its parts (name and value
 * not NUL-ended) and *at past it, 0 at the end marker (*at past it), -1 when
 * the stream is cut or malformed. */
struct attr_entry {
    const char *name, *value;
    uint32_t n, v;
    enum attr_kind kind;
};

static int next_attr(const char *buf, size_t len, size_t *at, struct attr_entry *e)
{
    if (*at + 4 > len) return -1;
    memcpy(&e->n, buf + *at, 4);
    *at += 4;
    if (e->n == UINT32_MAX) return 0;
    if (e->n > len - *at || len - *at - e->n < 5) return -1;
    const unsigned char k = (unsigned char)buf[*at + e->n];
    memcpy(&e->v, buf + *at + e->n + 1, 4);
    if (k > ATTR_OTHER || e->v > len - (*at + e->n + 5)) return -1;
    e->name = buf + *at;
    e->kind = (enum attr_kind)k;
    e->value = buf + *at + e->n + 5;
    *at += (size_t)e->n + 5 + e->v;
    return 1;
}

/* An attribute stream decoded: the attributes in one block (the array, then
 * their texts; free list), and the texts of attrs_crc32 and complete (NULL
 * where absent). */
struct attrs_read {
    struct results_attr *list;
    size_t n;
    const char *crc, *complete;
};

/* The attribute stream buf[0, len), decoded and judged whole: 0 with *a, or -1
 * with why (the stream is cut, the reader could not read them, or they do not
 * match their checksum). */
static int take_attrs(const char *buf, size_t len, struct attrs_read *a, char *why, size_t whylen)
{
    *a = (struct attrs_read){NULL, 0, NULL, NULL};
    size_t at = 0, count = 0, text = 0;
    int r;
    struct attr_entry e;
    while ((r = next_attr(buf, len, &at, &e)) == 1) count++, text += (size_t)e.n + e.v + 2;
    struct wire_head h;
    if (r != 0 || at + sizeof h != len) {
        snprintf(why, whylen, "damaged (its attributes could not be read)");
        return -1;
    }
    memcpy(&h, buf + at, sizeof h);
    a->list = malloc(count * sizeof *a->list + text + 1);
    if (!a->list) {
        snprintf(why, whylen, "out of memory for its attributes");
        return -1;
    }
    char *t = (char *)(a->list + count);
    uint32_t crc = 0;
    long long stored = 0;   /* TRUST_ATTRS_CRC; 0: none (an older schema, or a killed run) */
    at = 0;
    for (size_t i = 0; i < count && next_attr(buf, len, &at, &e) == 1; i++) {
        struct results_attr *x = &a->list[a->n++];
        x->name = memcpy(t, e.name, e.n), t[e.n] = '\0', t += e.n + 1;
        x->value = memcpy(t, e.value, e.v), t[e.v] = '\0', t += e.v + 1;
        x->kind = e.kind;
        crc = trust_attr_crc(crc, x->name, x->value);
        if (!strcmp(x->name, TRUST_ATTRS_CRC)) a->crc = x->value, stored = strtoll(x->value, NULL, 10);
        else if (!strcmp(x->name, "complete")) a->complete = x->value;
    }
    /* A run killed while it wrote its end (its writer never closed the file) may
     * leave some of the end's attributes on disk and not others: that file is
     * the killed run it is (complete when its rows are all there), where a
     * closed one is damaged.  The CRC is as written: an unsigned 32-bit value
     * (not one that only its low 32 bits match). */
    h.err[sizeof h.err - 1] = '\0';
    if (stored != 0 && (stored < 0 || stored > UINT32_MAX || (uint32_t)stored != crc) && !h.writer_open)
        snprintf(why, whylen, "damaged (its attributes do not match their checksum, %s)",
                 TRUST_ATTRS_CRC);
    else if (h.rc != 0)
        snprintf(why, whylen, "%s", h.err);
    else
        return 0;
    free(a->list);
    *a = (struct attrs_read){NULL, 0, NULL, NULL};
    return -1;
}

/* One file's read under way (results_read_all): its reader, started, and the
 * sink its rows come into; or why it could not start. */
struct file_read {
    struct reader r;
    struct rows_sink *k;
    double timeout_s;
    char why[512];
};

static void start_file_read(const char *path, struct file_read *fr)
{
    memset(fr, 0, sizeof *fr);
    struct stat st;
    char why[sizeof fr->why - 16];
    if (files_check_regular(path, why, sizeof why) || stat(path, &st) != 0) {
        snprintf(fr->why, sizeof fr->why, "cannot read: %s", why);
        return;
    }
    /* What the reader may send: the counts it validated, bounded by the file. */
    const double size = (double)st.st_size;
    const double cap_d = 256.0 * size + 65536;
    struct rows_sink *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(fr->why, sizeof fr->why, "out of memory");
        return;
    }
    k->cap = cap_d > (double)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)cap_d;
    k->attrs.cap = attrs_cap(size);
    /* The rows and samples come in a memory file that is then mapped, not
     * copied through the pipe (where the system has none, through the pipe). */
#ifdef RESULTS_READ_IN_PROCESS
    k->bulk = -1;   /* the reader runs here: its arrays are this process's to free */
#else
    k->bulk = memfd_create("mmladder-rows", MFD_CLOEXEC);
#endif
    fr->k = k;
    fr->timeout_s = timeout_for(size);
    start_reader(&fr->r, child_read, path, k->bulk);
}

/* Wait for a read start_file_read began and make *out of it (results_read). */
static int end_file_read(const char *path, struct file_read *fr, struct results_file *out,
                         char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char why[512];
    struct rows_sink *k = fr->k;
    if (!k) {
        snprintf(err, errlen, "%s: %s", path, fr->why);
        return -1;
    }
    const struct sink to = {rows_room, rows_done, k};
    int rc = end_reader(&fr->r, &to, fr->timeout_s, why, sizeof why);
    /* The rows came whole and the reader died or hung on the attributes: why
     * is theirs. */
    const int attrs_lost = rc != 0 && k->rows_whole && k->h.rc == 0;
    if (attrs_lost) rc = 0;
    if (rc == 0 && k->h.rc == 0 && k->bulk >= 0 && map_bulk(k, why, sizeof why) != 0) rc = -1;
    if (k->bulk >= 0) close(k->bulk);
    if (rc != 0 || k->h.rc != 0) {
        if (rc == 0) snprintf(err, errlen, "%s", k->h.err);   /* the reader's own refusal */
        else snprintf(err, errlen, "%s: %s", path, why);
        if (k->map) munmap(k->map, k->map_len);
        else free(k->rows), free(k->samples);
        free(k->attrs.b);
        free(k);
        return -1;
    }
    out->rows = k->rows;
    out->samples = k->samples;
    out->map = k->map;
    out->map_len = k->map_len;
    out->n_rows = (size_t)k->h.n_rows;
    out->n_samples = (size_t)k->h.n_samples;
    out->schema_version = k->h.schema_version;
    out->writer_open = k->h.writer_open;
    out->planned = k->h.planned;
    memcpy(out->notes, k->h.notes, sizeof out->notes);
    out->complete = k->h.complete;
    out->checksummed = k->h.checksummed;
    out->damaged = (size_t)k->h.damaged;
    /* The attributes, read whole and checked against their checksum: by every
     * reader, not only those that show them. */
    struct attrs_read a = {NULL, 0, NULL, NULL};
    if (attrs_lost) snprintf(out->attrs_why, sizeof out->attrs_why, "%s", why);
    else if (take_attrs(k->attrs.b, k->attrs.len, &a, out->attrs_why, sizeof out->attrs_why) == 0)
        out->attrs = a.list, out->n_attrs = a.n;
    trust_attrs(out, out->attrs_why[0] ? out->attrs_why : NULL, a.crc, a.complete);
    free(k->attrs.b);
    free(k);
    return 0;
}

int results_read(const char *path, struct results_file *out, char *err, size_t errlen)
{
    return results_read_all(&path, out, 1, err, errlen);
}

int results_read_all(const char *const *paths, struct results_file *outs, size_t n, char *err,
                     size_t errlen)
{
    struct file_read *fr = calloc(n ? n : 1, sizeof *fr);
    if (!fr) {
        snprintf(err, errlen, "%s: out of memory", n ? paths[0] : "");
        return -1;
    }
    for (size_t i = 0; i < n; i++) start_file_read(paths[i], &fr[i]);   /* all read at once */
    int rc = 0;
    for (size_t i = 0; i < n; i++) {   /* each ended, so that no reader is left running */
        char other[PATH_MAX + 1024];
        if (end_file_read(paths[i], &fr[i], &outs[i], rc ? other : err, rc ? sizeof other : errlen) != 0)
            rc = -1;
    }
    if (rc != 0)
        for (size_t i = 0; i < n; i++) results_file_free(&outs[i]);
    free(fr);
    return rc;
}

int results_visit_attrs_kind(const char *path, attr_kind_fn fn, void *ctx, char *err,
                             size_t errlen)
{
    char why[512];
    struct stat st;
    if (files_check_regular(path, why, sizeof why) || stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, why);
        return -1;
    }
    struct grow g = {NULL, 0, attrs_cap((double)st.st_size), 0};
    const struct sink to = {grow_room, grow_done, &g};
    struct attrs_read a;
    if (run_child(child_visit, path, -1, &to, timeout_for((double)st.st_size), why, sizeof why) != 0 ||
        take_attrs(g.b, g.len, &a, why, sizeof why) != 0) {
        free(g.b);
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    free(g.b);
    for (size_t i = 0; i < a.n; i++) fn(a.list[i].name, a.list[i].value, a.list[i].kind, ctx);
    free(a.list);
    return 0;
}

/* results_visit_attrs's callback and its context, for the kind-blind visit. */
struct untyped {
    attr_visit_fn fn;
    void *ctx;
};

static void without_kind(const char *name, const char *value, enum attr_kind kind, void *ctx)
{
    (void)kind;
    const struct untyped *u = ctx;
    u->fn(name, value, u->ctx);
}

int results_visit_attrs(const char *path, attr_visit_fn fn, void *ctx, char *err, size_t errlen)
{
    struct untyped u = {fn, ctx};
    return results_visit_attrs_kind(path, without_kind, &u, err, errlen);
}
