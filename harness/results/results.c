/* Results files through HDF5's C API: see file.h for the layout and why it
 * survives a crash. */
#define _GNU_SOURCE   /* O_TMPFILE, linkat */
#include "file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"
#include "outname.h"
#include "results_h5.h"
#include "trust.h"

#define UTC_LEN 20                  /* "2026-11-24T10:00:00Z" */
#define ROWS_PER_CHUNK 64
#define SAMPLES_PER_CHUNK 1024

/* ---- compound types from the field tables ------------------------------------- */

/* The in-memory compound type of a record laid out as `fd` describes. */
static hid_t memory_type(const struct field_desc *fd, size_t nf, size_t rec_size)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, rec_size);
    for (size_t i = 0; t >= 0 && i < nf; i++) {
        hid_t m = fd[i].kind == FIELD_STR   ? h5_string_type(fd[i].size)
                  : fd[i].kind == FIELD_INT ? H5Tcopy(H5T_NATIVE_INT32)
                                            : H5Tcopy(H5T_NATIVE_DOUBLE);
        herr_t st = m < 0 ? -1 : H5Tinsert(t, fd[i].name, fd[i].offset, m);
        if (m >= 0) H5Tclose(m);
        if (st < 0) {
            H5Tclose(t);
            t = -1;
        }
    }
    return t;
}

/* ---- writing ------------------------------------------------------------------ */

struct results {
    hid_t file, rows_ds, samples_ds, row_mt, sample_mt;
    size_t rows, samples;
    int published;       /* on disk under its work name, in SWMR write mode */
    int broken;          /* an I/O error happened: take nothing more */
    int flags;           /* RESULTS_UNIQUE, RESULTS_WHOLE_ONLY, RESULTS_ALL_OR_NOTHING */
    int finished;        /* results_finish has run: 1, or 2 when it said complete */
    int taken;           /* the final name went to another process */
    char asked[PATH_MAX];    /* the name asked for */
    char path[PATH_MAX];     /* the final name (with RESULTS_UNIQUE, chosen at results_begin) */
    char work[PATH_MAX + OUTNAME_EXTRA];   /* where it is written until it is finished ("" before) */
    char build[PATH_MAX];    /* where it is made before it is published ("" after) */
    char msg[2 * PATH_MAX + 800];
};

static int failf(struct results *r, const char *fmt, ...)
{
    char what[512], why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(r->msg, sizeof r->msg, "%s: %s: %s", r->path, what, h5_why(why, sizeof why));
    return -1;
}

/* The same for a system call that set errno. */
static int fail_errno(struct results *r, const char *what)
{
    snprintf(r->msg, sizeof r->msg, "%s: %s: %s", r->path, what, strerror(errno));
    return -1;
}

static void close_ids(struct results *r)
{
    if (r->rows_ds >= 0) H5Dclose(r->rows_ds);
    if (r->samples_ds >= 0) H5Dclose(r->samples_ds);
    r->rows_ds = r->samples_ds = -1;
}

/* A chunked, unlimited, uncompressed table of records of memory type mt (stored
 * packed). */
static hid_t make_table(hid_t file, const char *name, hid_t mt, hsize_t chunk)
{
    hsize_t zero = 0, unlimited = H5S_UNLIMITED;
    hid_t ft = H5Tcopy(mt), sp = H5Screate_simple(1, &zero, &unlimited),
          dcpl = H5Pcreate(H5P_DATASET_CREATE), d = -1;
    if (ft >= 0 && sp >= 0 && dcpl >= 0 && H5Tpack(ft) >= 0 && H5Pset_chunk(dcpl, 1, &chunk) >= 0)
        d = H5Dcreate2(file, name, ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (sp >= 0) H5Sclose(sp);
    if (ft >= 0) H5Tclose(ft);
    return d;
}

/* Write n records at index `at` of a table, growing it first if needed. */
static herr_t write_records(hid_t d, hid_t mt, hsize_t at, hsize_t n, const void *buf)
{
    hsize_t end = at + n, cur = 0;
    hid_t fs = H5Dget_space(d);
    if (fs < 0) return -1;
    herr_t st = H5Sget_simple_extent_dims(fs, &cur, NULL) < 0 ? -1 : 0;
    H5Sclose(fs);
    if (st < 0 || (end > cur && H5Dset_extent(d, &end) < 0)) return -1;
    fs = H5Dget_space(d);
    hid_t ms = H5Screate_simple(1, &n, NULL);
    st = (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &n, NULL) < 0)
             ? -1
             : H5Dwrite(d, mt, ms, fs, H5P_DEFAULT, buf);
    if (ms >= 0) H5Sclose(ms);
    if (fs >= 0) H5Sclose(fs);
    return st;
}

/* Files being made are named BUILD_PREFIX<pid>-XXXXXX in the temporary folder.
 * One whose process is gone (killed while making it) is removed by the next
 * run, so a kill leaves nothing behind for long. */
#define BUILD_PREFIX "mmladder-build-"

static void remove_stale_builds(const char *tmpdir)
{
    DIR *d = opendir(tmpdir);
    if (!d) return;
    struct dirent *e;
    const size_t k = strlen(BUILD_PREFIX);
    while ((e = readdir(d))) {
        char *end;
        if (strncmp(e->d_name, BUILD_PREFIX, k) != 0) continue;
        long pid = strtol(e->d_name + k, &end, 10);
        if (end == e->d_name + k || *end != '-' || pid <= 0) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours */
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", tmpdir, e->d_name) < (int)sizeof path) unlink(path);
    }
    closedir(d);
}

/* The folder of a path: "." for a bare name. */
static void folder_of(const char *path, char *dir, size_t len)
{
    snprintf(dir, len, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, len, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
}

/* File format 1.10 (the oldest with SWMR; h5py and HDF5 >= 1.10 read it), and
 * closing the file closes everything in it. */
static hid_t file_access(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && (H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0 ||
                      H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0)) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

int results_create(struct results **out, const char *path, int flags, char *err, size_t errlen)
{
    h5_setup();
    *out = NULL;
    if (strlen(path) >= PATH_MAX - 16) {
        snprintf(err, errlen, "%.80s...: the path is %zu bytes long (at most %d)", path,
                 strlen(path), PATH_MAX - 17);
        return -1;
    }
    struct results *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    r->file = r->rows_ds = r->samples_ds = r->row_mt = r->sample_mt = -1;
    r->flags = flags;
    snprintf(r->asked, sizeof r->asked, "%s", path);
    snprintf(r->path, sizeof r->path, "%s", path);
    /* Early answers (the file is only named at results_begin, which decides). */
    struct stat st;
    char dir[PATH_MAX], who[PATH_MAX + 64];
    folder_of(r->path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot create: folder %s %s", path, dir,
                 stat(dir, &st) != 0 ? "does not exist" : "is not a folder");
        free(r);
        return -1;
    }
    if (!(flags & RESULTS_UNIQUE) && lstat(path, &st) == 0) {
        snprintf(err, errlen, "%s: already exists (results files are never overwritten)", path);
        free(r);
        return -1;
    }
    if (!(flags & RESULTS_UNIQUE) && outname_writer(path, who, sizeof who)) {
        snprintf(err, errlen, "%s: being written by %s on this machine (results files are never "
                              "overwritten: wait for it, or name another file)", path, who);
        free(r);
        return -1;
    }
    /* Until the first row the file is made in the temporary folder; it reaches
     * its own folder whole (results_start), so no moment leaves a half-made file
     * under its name. */
    const char *tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
    remove_stale_builds(tmpdir);
    snprintf(r->build, sizeof r->build, "%s/%s%ld-XXXXXX", tmpdir, BUILD_PREFIX, (long)getpid());
    int fd = mkstemp(r->build);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot make a temporary file: %s", r->build, strerror(errno));
        free(r);
        return -1;
    }
    close(fd);
    hid_t fapl = file_access();
    if (fapl >= 0) r->file = H5Fcreate(r->build, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    int ok = r->file >= 0;
    if (!ok) failf(r, "cannot create an HDF5 file (in %s)", r->build);   /* before H5Pclose
                                                                           clears the stack */
    if (fapl >= 0) H5Pclose(fapl);
    if (ok) {
        r->row_mt = memory_type(RESULT_FIELDS, RESULT_NFIELDS, sizeof(struct result_row));
        r->sample_mt = memory_type(SAMPLE_FIELDS, SAMPLE_NFIELDS, sizeof(struct sample_row));
        ok = r->row_mt >= 0 && r->sample_mt >= 0;
        if (ok) r->rows_ds = make_table(r->file, "results", r->row_mt, ROWS_PER_CHUNK);
        if (ok) r->samples_ds = make_table(r->file, "samples", r->sample_mt, SAMPLES_PER_CHUNK);
        ok = ok && r->rows_ds >= 0 && r->samples_ds >= 0;
        if (!ok) failf(r, "cannot create the tables /results and /samples");
    }
    /* The schema these tables are (the reader holds a file to it), and the
     * attributes the end of the run sets, created now: in SWMR mode an
     * attribute can be rewritten but not created. */
    ok = ok && results_attr_int(r, "schema_version", RESULTS_SCHEMA_VERSION) == 0 &&
         results_attr_int(r, TRUST_ATTRS_CRC, 0) == 0 && results_attr_int(r, "complete", 0) == 0 &&
         results_attr_str(r, "finished_utc", "not finished") == 0 &&
         results_attr_double(r, "wall_time_s", NAN) == 0;
    if (!ok) {
        snprintf(err, errlen, "%s", r->msg);
        results_close(r, NULL, 0);
        return -1;
    }
    *out = r;
    return 0;
}

/* Write the image into a new file in `dir` that has no name yet (O_TMPFILE) or
 * a hidden temporary one; returns its descriptor (and *tmp, the temporary name,
 * or "") or -1 with errno. */
static int write_image(const char *dir, const void *img, size_t n, char *tmp, size_t tmplen)
{
    tmp[0] = '\0';
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        snprintf(tmp, tmplen, "%s/.mmladder-XXXXXX", dir);
        fd = mkstemp(tmp);
        if (fd >= 0) fchmod(fd, 0644);
        else tmp[0] = '\0';
    }
    if (fd < 0) return -1;
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, (const char *)img + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            if (tmp[0]) unlink(tmp);
            errno = e;
            return -1;
        }
        done += (size_t)w;
    }
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        if (tmp[0]) unlink(tmp);
        errno = e;
        return -1;
    }
    return fd;
}

/* The final name to aim at: the one asked for, or with RESULTS_UNIQUE the
 * first of NAME, STEM-2.EXT, STEM-3.EXT, ... from the k-th on that is free
 * (outname.h): the k of the one chosen, or 0 when none is. */
static int choose_name(struct results *r, int k)
{
    if (!(r->flags & RESULTS_UNIQUE)) {
        snprintf(r->path, sizeof r->path, "%s", r->asked);
        return k == 1 ? 1 : 0;
    }
    const char *dot = strrchr(r->asked, '.'), *slash = strrchr(r->asked, '/');
    const size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - r->asked) : strlen(r->asked);
    for (; k < 1000; k++) {
        if (k == 1) snprintf(r->path, sizeof r->path, "%s", r->asked);
        else if ((size_t)snprintf(r->path, sizeof r->path, "%.*s-%d%s", (int)stem, r->asked, k,
                                  r->asked + stem) >= sizeof r->path)
            break;
        if (outname_free(r->path)) return k;
    }
    snprintf(r->path, sizeof r->path, "%s", r->asked);
    return 0;
}

/* Give the written file (descriptor fd, or the temporary name tmp) its work
 * name, atomically and never over an existing file. */
static int name_work(struct results *r, int fd, const char *tmp)
{
    char from[64];
    snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
    if (outname_work(r->path, r->work, sizeof r->work) != 0) {
        r->work[0] = '\0';
        snprintf(r->msg, sizeof r->msg, "%s: the path is too long for its work name", r->path);
        return -1;
    }
    int rc = tmp[0] ? link(tmp, r->work)
                    : linkat(AT_FDCWD, from, AT_FDCWD, r->work, AT_SYMLINK_FOLLOW);
    if (rc == 0) return 0;
    const int e = errno;
    snprintf(r->msg, sizeof r->msg, "%s: cannot create %s: %s", r->path, r->work, strerror(e));
    r->work[0] = '\0';
    return -1;
}

/* The whole of a file, read into memory: its bytes and their count, or NULL. */
static void *slurp(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *buf = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 && (buf = malloc((size_t)st.st_size))) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t k = read(fd, (char *)buf + got, (size_t)st.st_size - got);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) break;
            got += (size_t)k;
        }
        if (got != (size_t)st.st_size) {
            free(buf);
            buf = NULL;
        }
        *n = got;
    }
    if (fd >= 0) close(fd);
    return buf;
}

/* Put the file in its folder under its work name (outname.h) and reopen it
 * there in SWMR write mode: the made file is closed (consistent), copied into a
 * nameless file of the folder (O_TMPFILE), which is then linked to the work
 * name, atomically and never over an existing file.  The final name is chosen
 * now (RESULTS_UNIQUE) and taken at results_close. */
int results_begin(struct results *r)
{
    if (r->published) return 0;
    if (r->broken) return -1;
    r->broken = 1;   /* until it has worked */
    if (!choose_name(r, 1)) {
        snprintf(r->msg, sizeof r->msg, "%s: no free name with a suffix", r->asked);
        return -1;
    }
    close_ids(r);
    herr_t closed = H5Fclose(r->file);
    r->file = -1;
    size_t n = 0;
    void *img = closed < 0 ? NULL : slurp(r->build, &n);
    unlink(r->build);
    if (!img) return failf(r, "making the new file (in %s)", r->build);
    r->build[0] = '\0';

    char dir[PATH_MAX], tmp[PATH_MAX + 32];
    folder_of(r->path, dir, sizeof dir);
    int fd = write_image(dir, img, n, tmp, sizeof tmp);
    free(img);
    if (fd < 0) return fail_errno(r, "cannot write the new file");
    int named = name_work(r, fd, tmp);
    close(fd);
    if (tmp[0]) unlink(tmp);
    if (named != 0) return -1;

    hid_t fapl = file_access();
    if (fapl >= 0) r->file = H5Fopen(r->work, H5F_ACC_RDWR | H5F_ACC_SWMR_WRITE, fapl);
    if (r->file < 0) failf(r, "cannot open %s for writing", r->work);
    if (fapl >= 0) H5Pclose(fapl);
    if (r->file < 0) return -1;
    r->rows_ds = H5Dopen2(r->file, "results", H5P_DEFAULT);
    r->samples_ds = H5Dopen2(r->file, "samples", H5P_DEFAULT);
    if (r->rows_ds < 0 || r->samples_ds < 0) return failf(r, "cannot open its tables");
    r->published = 1;
    r->broken = 0;
    return 0;
}

const char *results_path(const struct results *r) { return r->path; }
const char *results_work_path(const struct results *r) { return r->work; }
const char *results_error(const struct results *r) { return r->msg; }
size_t results_rows(const struct results *r) { return r->rows; }

/* Write a scalar root attribute of type t (creating it only before the file is
 * published; in SWMR mode an existing attribute may be rewritten). */
static int write_attr(struct results *r, const char *name, hid_t t, const void *value)
{
    if (r->broken) return -1;
    htri_t exists = H5Aexists(r->file, name);
    if (exists < 0) return failf(r, "attribute %s", name);
    if (exists && !r->published && H5Adelete(r->file, name) < 0)
        return failf(r, "replacing attribute %s", name);
    if (!exists && r->published) {
        snprintf(r->msg, sizeof r->msg, "%s: attribute %s: attributes are created before the "
                                        "first row", r->path, name);
        return -1;
    }
    hid_t a = -1;
    if (exists && r->published) {
        a = H5Aopen(r->file, name, H5P_DEFAULT);
    } else {
        hid_t sp = H5Screate(H5S_SCALAR);
        if (sp >= 0) a = H5Acreate2(r->file, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
        if (sp >= 0) H5Sclose(sp);
    }
    herr_t st = a < 0 ? -1 : H5Awrite(a, t, value);
    if (a >= 0 && H5Aclose(a) < 0) st = -1;
    return st < 0 ? failf(r, "writing attribute %s", name) : 0;
}

int results_attr_str(struct results *r, const char *name, const char *value)
{
    /* Variable-length UTF-8: h5py reads it as a str, not bytes. */
    const char *v = value ? value : "";
    hid_t t = H5Tcopy(H5T_C_S1);
    int rc = t < 0 || H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0
                 ? -1
                 : write_attr(r, name, t, &v);
    if (t >= 0) H5Tclose(t);
    return rc;
}

int results_attr_int(struct results *r, const char *name, long long value)
{
    return write_attr(r, name, H5T_NATIVE_LLONG, &value);
}

int results_attr_u64(struct results *r, const char *name, uint64_t value)
{
    return write_attr(r, name, H5T_NATIVE_UINT64, &value);
}

int results_attr_double(struct results *r, const char *name, double value)
{
    return write_attr(r, name, H5T_NATIVE_DOUBLE, &value);
}

static int flush(struct results *r, const char *what)
{
    return H5Fflush(r->file, H5F_SCOPE_GLOBAL) < 0 ? failf(r, "flushing %s", what) : 0;
}

int results_append(struct results *r, const struct result_row *row, const double *samples_ms,
                   const double *h2d_ms, const double *d2h_ms, int n)
{
    if (n < 0 || (n > 0 && !samples_ms)) return results_append_samples(r, row, NULL, n < 0 ? n : -1);
    struct sample_row *s = NULL;
    if (n > 0 && !(s = malloc((size_t)n * sizeof *s))) {
        snprintf(r->msg, sizeof r->msg, "%s: out of memory for %d samples", r->path, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        s[i] = (struct sample_row){.time_ms = samples_ms[i],
                                   .h2d_ms = h2d_ms ? h2d_ms[i] : 0.0,
                                   .d2h_ms = d2h_ms ? d2h_ms[i] : 0.0,
                                   .t_s = NAN, .clock_mhz = NAN, .power_w = NAN, .ref_ms = NAN,
                                   .kernel_ms = NAN, .ref_kernel_ms = NAN, .probe_mhz = NAN};
    const int rc = results_append_samples(r, row, s, n);
    free(s);
    return rc;
}

int results_append_samples(struct results *r, const struct result_row *row,
                           const struct sample_row *given, int n)
{
    if (r->broken) return -1;
    if (n < 0 || (n > 0 && !given) || r->rows >= RESULTS_MAX_ROWS ||
        r->samples + (size_t)n > RESULTS_MAX_SAMPLES) {
        snprintf(r->msg, sizeof r->msg, "%s: row %zu: %d samples: beyond the file's limits", r->path,
                 r->rows, n);
        return -1;
    }
    if (results_begin(r) != 0) return -1;
    struct sample_row *s = NULL;
    if (n > 0) {
        s = malloc((size_t)n * sizeof *s);
        if (!s) {
            snprintf(r->msg, sizeof r->msg, "%s: out of memory for %d samples", r->path, n);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            s[i] = given[i];
            s[i].row = (int32_t)r->rows;
            s[i].sample = i;
        }
    }
    /* Row first (marked "recording" while it has samples to come), then the
     * samples, then the row's real disposition with the checksum of the row
     * and its samples: each step flushed. */
    struct result_row final = *row;
    final.crc32 = (int32_t)trust_row_crc(&final, s, (size_t)n, RESULTS_SCHEMA_VERSION);
    struct result_row first = final;
    if (n > 0) snprintf(first.disposition, sizeof first.disposition, "%s", RESULTS_RECORDING);
    int rc = 0;
    if (write_records(r->rows_ds, r->row_mt, r->rows, 1, &first) < 0)
        rc = failf(r, "appending row %zu", r->rows);
    else if ((rc = flush(r, "the new row")) == 0 && n > 0) {
        if (write_records(r->samples_ds, r->sample_mt, r->samples, (hsize_t)n, s) < 0)
            rc = failf(r, "appending %d samples of row %zu", n, r->rows);
        else if ((rc = flush(r, "the samples")) == 0 &&
                 write_records(r->rows_ds, r->row_mt, r->rows, 1, &final) < 0)
            rc = failf(r, "committing row %zu", r->rows);
        else if (rc == 0)
            rc = flush(r, "the committed row");
    }
    free(s);
    if (rc != 0) {
        r->broken = 1;
        return -1;
    }
    r->rows++;
    r->samples += (size_t)n;
    return 0;
}

int results_finish(struct results *r, int complete, const char *finished_utc, double wall_time_s)
{
    if (results_begin(r) != 0) return -1;
    char utc[UTC_LEN + 1] = "";
    snprintf(utc, sizeof utc, "%s", finished_utc ? finished_utc : "");
    uint32_t crc = 0;
    if (results_attr_str(r, "finished_utc", utc) != 0 ||
        results_attr_double(r, "wall_time_s", wall_time_s) != 0 ||
        results_attr_int(r, "complete", complete ? 1 : 0) != 0 ||
        (results_attrs_crc(r->file, &crc) != 0 && failf(r, "reading back the attributes")) ||
        results_attr_int(r, TRUST_ATTRS_CRC, crc) != 0 || flush(r, "the end of the run")) {
        r->broken = 1;
        return -1;
    }
    r->finished = complete ? 2 : 1;
    return 0;
}

/* Append to r->msg. */
static void say_more(struct results *r, const char *fmt, const char *what)
{
    const size_t used = strlen(r->msg);
    snprintf(r->msg + used, sizeof r->msg - used, fmt, what);
}

/* The closed file at its work name takes its final name (RESULTS_UNIQUE: the
 * next free one, if another process took the one chosen): 0, or -1 with why
 * (r->taken when the name went to another process). */
static int place(struct results *r)
{
    for (int k = 1;;) {
        if (outname_place(r->work, r->path) == 0) {
            r->work[0] = '\0';
            return 0;
        }
        if (errno != EEXIST) {
            const int e = errno;
            snprintf(r->msg, sizeof r->msg, "%s: cannot give %s its name: %s", r->path, r->work,
                     strerror(e));
            return -1;
        }
        if (!(r->flags & RESULTS_UNIQUE) || !(k = choose_name(r, k + 1))) break;
    }
    r->taken = 1;
    snprintf(r->msg, sizeof r->msg, "%s: already exists: another process took the name while "
             "this file was written (results files are never overwritten)",
             r->flags & RESULTS_UNIQUE ? r->asked : r->path);
    return -1;
}

/* What is left of a file that does not take its final name: nothing, when it
 * holds no row or the caller wants all or nothing; else its work file, named
 * in r->msg when there is an error to report. */
static void leave_work(struct results *r, int failed)
{
    if (!r->work[0]) return;
    if (r->rows == 0 || (r->flags & RESULTS_ALL_OR_NOTHING)) {
        if (unlink(r->work) == 0 && failed)
            say_more(r, " (%s was removed: nothing of it is kept)",
                     r->rows ? "this file" : "no row was recorded: the file");
        r->work[0] = '\0';
    } else if (failed) {
        say_more(r, " (its rows are kept in %s)", r->work);
    }
}

int results_close_at(struct results *r, char *where, size_t wherelen, char *err, size_t errlen)
{
    if (where && wherelen) where[0] = '\0';
    if (!r) return 0;
    int rc = r->broken ? -1 : 0;
    /* After an I/O error the library holds writes it could not make; closing
     * would flush some of them (a table's new length without its data).  The
     * file is left as the last good flush left it: its handle is not closed
     * (the process ends soon, and the library does not flush at exit). */
    if (r->broken && r->published) {
        leave_work(r, 1);
        if (where && r->work[0]) snprintf(where, wherelen, "%s", r->work);
        if (err) snprintf(err, errlen, "%s", r->msg);
        free(r);
        return -1;
    }
    close_ids(r);
    if (r->row_mt >= 0) H5Tclose(r->row_mt);
    if (r->sample_mt >= 0) H5Tclose(r->sample_mt);
    if (r->file >= 0 && H5Fclose(r->file) < 0 && rc == 0) rc = failf(r, "closing the file");
    if (r->build[0]) unlink(r->build);   /* never published */
    /* Finished and closed: it takes its name (RESULTS_WHOLE_ONLY: if complete). */
    const int whole = r->finished == 2 || (r->finished && !(r->flags & RESULTS_WHOLE_ONLY));
    if (rc == 0 && r->work[0] && whole && place(r) != 0) rc = r->taken ? RESULTS_TAKEN : -1;
    leave_work(r, rc != 0);
    if (where) snprintf(where, wherelen, "%s", r->work[0] ? r->work : rc == 0 && whole ? r->path : "");
    if (rc != 0 && err) snprintf(err, errlen, "%s", r->msg);
    free(r);
    return rc;
}

int results_close(struct results *r, char *err, size_t errlen)
{
    return results_close_at(r, NULL, 0, err, errlen);
}

void shape_str(char *buf, size_t len, int M, int N, int K)
{
    snprintf(buf, len, "%dx%dx%d", M, N, K);
}

void config_str(char *buf, size_t len, const struct result_row *row)
{
    int n;
    if (row->tile && row->wpt)
        n = snprintf(buf, len, "TS=%d WPT=%d", row->tile, row->wpt);
    else if (row->tile)
        n = snprintf(buf, len, "TS=%d", row->tile);
    else if (row->opt_level)
        n = snprintf(buf, len, "-O%d", row->opt_level);
    else
        n = snprintf(buf, len, "%s", "");
    if (row->k_splits > 1 && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "%sK/%d%s", n ? " " : "", row->k_splits,
                      row->split ? "" : "(rule)");
    if (row->host_memory[0] && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "%s%s", n ? " " : "", row->host_memory);
}
