/* Results files through HDF5's C API: see results.h for the layout and why it
 * survives a crash. */
#define _GNU_SOURCE   /* O_TMPFILE, linkat */
#include "results.h"

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

#include "files.h"

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

#define RECORDING "recording"       /* a row whose samples are being committed */
#define UTC_LEN 20                  /* "2026-11-24T10:00:00Z" */
#define ROWS_PER_CHUNK 64
#define SAMPLES_PER_CHUNK 1024
#define MAX_COLUMNS 64
#define MAX_ATTR_BYTES ((size_t)16 << 20)   /* longer attribute values are not shown */
/* How much larger than its stored bytes a compressed table (schemas 1-3) may
 * claim to be; far above what deflate gives these tables (about 4). */
#define MAX_INFLATION 64

/* ---- HDF5 set-up and its error messages ------------------------------------- */

/* No automatic error printing (every error is reported with context here), and
 * no clean-up at exit: after an I/O error the library would try to flush the
 * file again and could fail worse; files are closed explicitly instead. */
static void h5_setup_once(void)
{
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void h5_setup(void)
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
static const char *h5_why(char *buf, size_t len)
{
    struct h5_walk w = {"", ""};
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_walk_one, &w);
    H5Eclear2(H5E_DEFAULT);
    if (w.system[0])
        snprintf(buf, len, "%s", w.system);
    else if (w.inner[0])
        snprintf(buf, len, "HDF5: %s", w.inner);
    else
        snprintf(buf, len, "HDF5 error");
    return buf;
}

/* ---- compound types from the field tables ------------------------------------- */

static hid_t string_type(size_t size)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return -1;
    if (H5Tset_size(t, size) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* The in-memory compound type of a record laid out as `fd` describes. */
static hid_t memory_type(const struct field_desc *fd, size_t nf, size_t rec_size)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, rec_size);
    for (size_t i = 0; t >= 0 && i < nf; i++) {
        hid_t m = fd[i].kind == FIELD_STR   ? string_type(fd[i].size)
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
    int published;       /* on disk under its name, in SWMR write mode */
    int broken;          /* an I/O error happened: take nothing more */
    int unique;          /* RESULTS_UNIQUE */
    char path[PATH_MAX];
    char build[PATH_MAX];    /* where it is made before it is published ("" after) */
    char msg[PATH_MAX + 800];
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
    if (strlen(path) >= PATH_MAX) {
        snprintf(err, errlen, "%.80s...: the path is %zu bytes long (at most %d)", path,
                 strlen(path), PATH_MAX - 1);
        return -1;
    }
    struct results *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    r->file = r->rows_ds = r->samples_ds = r->row_mt = r->sample_mt = -1;
    r->unique = (flags & RESULTS_UNIQUE) != 0;
    snprintf(r->path, sizeof r->path, "%s", path);
    /* Early answers (the file is only named at results_start, which decides). */
    struct stat st;
    char dir[PATH_MAX];
    folder_of(r->path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot create: folder %s %s", path, dir,
                 stat(dir, &st) != 0 ? "does not exist" : "is not a folder");
        free(r);
        return -1;
    }
    if (!r->unique && lstat(path, &st) == 0) {
        snprintf(err, errlen, "%s: already exists (results files are never overwritten)", path);
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
    if (fapl >= 0) H5Pclose(fapl);
    int ok = r->file >= 0;
    if (!ok) failf(r, "cannot create an HDF5 file (in %s)", r->build);
    if (ok) {
        r->row_mt = memory_type(RESULT_FIELDS, RESULT_NFIELDS, sizeof(struct result_row));
        r->sample_mt = memory_type(SAMPLE_FIELDS, SAMPLE_NFIELDS, sizeof(struct sample_row));
        ok = r->row_mt >= 0 && r->sample_mt >= 0;
        if (ok) r->rows_ds = make_table(r->file, "results", r->row_mt, ROWS_PER_CHUNK);
        if (ok) r->samples_ds = make_table(r->file, "samples", r->sample_mt, SAMPLES_PER_CHUNK);
        ok = ok && r->rows_ds >= 0 && r->samples_ds >= 0;
        if (!ok) failf(r, "cannot create the tables /results and /samples");
    }
    /* The attributes the end of the run sets, created now: in SWMR mode an
     * attribute can be rewritten but not created. */
    ok = ok && results_attr_int(r, "complete", 0) == 0 &&
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

/* Give the written file its name: atomically, and never over an existing file
 * (link fails with EEXIST); with RESULTS_UNIQUE a taken name gets a suffix. */
static int name_file(struct results *r, int fd, const char *tmp)
{
    char base[PATH_MAX], from[64];
    snprintf(base, sizeof base, "%s", r->path);
    snprintf(from, sizeof from, "/proc/self/fd/%d", fd);
    const char *dot = strrchr(base, '.'), *slash = strrchr(base, '/');
    const size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - base) : strlen(base);
    for (int k = 1; k < 1000; k++) {
        if (k > 1) {
            int w = snprintf(r->path, sizeof r->path, "%.*s-%d%s", (int)stem, base, k, base + stem);
            if (w < 0 || (size_t)w >= sizeof r->path) break;
        }
        int rc = tmp[0] ? link(tmp, r->path) : linkat(AT_FDCWD, from, AT_FDCWD, r->path,
                                                       AT_SYMLINK_FOLLOW);
        if (rc == 0) return 0;
        if (errno != EEXIST) return fail_errno(r, "cannot create");
        if (!r->unique) break;
    }
    if (errno == EEXIST && !r->unique) {
        snprintf(r->msg, sizeof r->msg, "%s: already exists (results files are never "
                                        "overwritten)", r->path);
        return -1;
    }
    snprintf(r->msg, sizeof r->msg, "%s: no free name with a suffix", base);
    snprintf(r->path, sizeof r->path, "%s", base);
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

/* Put the file in its folder under its name and reopen it there in SWMR write
 * mode: the made file is closed (consistent), copied into a nameless file of the
 * folder (O_TMPFILE), which is then linked to the name, atomically and never
 * over an existing file. */
static int results_start(struct results *r)
{
    if (r->published) return 0;
    if (r->broken) return -1;
    r->broken = 1;   /* until it has worked */
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
    int named = name_file(r, fd, tmp);
    close(fd);
    if (tmp[0]) unlink(tmp);
    if (named != 0) return -1;

    hid_t fapl = file_access();
    if (fapl >= 0) r->file = H5Fopen(r->path, H5F_ACC_RDWR | H5F_ACC_SWMR_WRITE, fapl);
    if (fapl >= 0) H5Pclose(fapl);
    if (r->file < 0) return failf(r, "cannot open for writing");
    r->rows_ds = H5Dopen2(r->file, "results", H5P_DEFAULT);
    r->samples_ds = H5Dopen2(r->file, "samples", H5P_DEFAULT);
    if (r->rows_ds < 0 || r->samples_ds < 0) return failf(r, "cannot open its tables");
    r->published = 1;
    r->broken = 0;
    return 0;
}

const char *results_path(const struct results *r) { return r->path; }
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
    if (!value) value = "";
    /* UTF-8 text; the finished_utc placeholder is sized for its final value. */
    size_t n = strlen(value);
    if (!strcmp(name, "finished_utc") && n < UTC_LEN) n = UTC_LEN;
    char *buf = calloc(n + 1, 1);
    if (!buf) return -1;
    memcpy(buf, value, strlen(value));
    hid_t t = string_type(n + 1);
    int rc = t < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0 ? -1 : write_attr(r, name, t, buf);
    if (t >= 0) H5Tclose(t);
    free(buf);
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
    if (r->broken) return -1;
    if (n < 0 || (n > 0 && !samples_ms) || r->rows >= RESULTS_MAX_ROWS ||
        r->samples + (size_t)n > RESULTS_MAX_SAMPLES) {
        snprintf(r->msg, sizeof r->msg, "%s: row %zu: %d samples: beyond the file's limits", r->path,
                 r->rows, n);
        return -1;
    }
    if (results_start(r) != 0) return -1;
    struct sample_row *s = NULL;
    if (n > 0) {
        s = malloc((size_t)n * sizeof *s);
        if (!s) {
            snprintf(r->msg, sizeof r->msg, "%s: out of memory for %d samples", r->path, n);
            return -1;
        }
        for (int i = 0; i < n; i++)
            s[i] = (struct sample_row){.row = (int32_t)r->rows, .sample = i,
                                       .time_ms = samples_ms[i],
                                       .h2d_ms = h2d_ms ? h2d_ms[i] : 0.0,
                                       .d2h_ms = d2h_ms ? d2h_ms[i] : 0.0};
    }
    /* Row first (marked "recording" while it has samples to come), then the
     * samples, then the row's real disposition: each step flushed. */
    struct result_row first = *row;
    if (n > 0) snprintf(first.disposition, sizeof first.disposition, "%s", RECORDING);
    int rc = 0;
    if (write_records(r->rows_ds, r->row_mt, r->rows, 1, &first) < 0)
        rc = failf(r, "appending row %zu", r->rows);
    else if ((rc = flush(r, "the new row")) == 0 && n > 0) {
        if (write_records(r->samples_ds, r->sample_mt, r->samples, (hsize_t)n, s) < 0)
            rc = failf(r, "appending %d samples of row %zu", n, r->rows);
        else if ((rc = flush(r, "the samples")) == 0 &&
                 write_records(r->rows_ds, r->row_mt, r->rows, 1, row) < 0)
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
    if (results_start(r) != 0) return -1;
    char utc[UTC_LEN + 1] = "";
    snprintf(utc, sizeof utc, "%s", finished_utc ? finished_utc : "");
    if (results_attr_str(r, "finished_utc", utc) != 0 ||
        results_attr_double(r, "wall_time_s", wall_time_s) != 0 ||
        results_attr_int(r, "complete", complete ? 1 : 0) != 0 || flush(r, "the end of the run")) {
        r->broken = 1;
        return -1;
    }
    return 0;
}

int results_close(struct results *r, char *err, size_t errlen)
{
    if (!r) return 0;
    int rc = r->broken ? -1 : 0;
    close_ids(r);
    if (r->row_mt >= 0) H5Tclose(r->row_mt);
    if (r->sample_mt >= 0) H5Tclose(r->sample_mt);
    if (r->file >= 0 && H5Fclose(r->file) < 0 && rc == 0) rc = failf(r, "closing the file");
    if (r->build[0]) unlink(r->build);   /* never published */
    /* A file that never got a row because of an error holds nothing of value. */
    if (rc != 0 && r->published && r->rows == 0 && unlink(r->path) == 0 &&
        strlen(r->msg) + 40 < sizeof r->msg)
        strcat(r->msg, " (no row was recorded: file removed)");
    if (rc != 0 && err) snprintf(err, errlen, "%s", r->msg);
    free(r);
    return rc;
}

/* ---- reading ------------------------------------------------------------------ */

/* Open for reading: plainly, or, when its writer never closed it (a run killed,
 * or still going), as an SWMR reader.  *writer_open says which. */
static hid_t open_for_reading(const char *path, int *writer_open, char *why, size_t whylen)
{
    *writer_open = 0;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0) {
        if (fapl >= 0) H5Pclose(fapl);
        h5_why(why, whylen);
        return -1;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (f < 0) {
        char first[256];
        h5_why(first, sizeof first);
        f = H5Fopen(path, H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl);
        if (f >= 0) {
            *writer_open = 1;
        } else if (strstr(first, "lock") || strstr(first, "Resource temporarily unavailable")) {
            snprintf(why, whylen, "locked by another process (a run still writing it?): %s",
                     first);
        } else {
            H5Eclear2(H5E_DEFAULT);
            htri_t is = H5Fis_hdf5(path);
            H5Eclear2(H5E_DEFAULT);
            snprintf(why, whylen, "%s", is > 0 ? first : "not an HDF5 file");
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

/* The memory type matching the file's columns: each of the file's columns must
 * be one of ours with the right class; ours it lacks (older schemas) stay zero.
 * Returns the type, or -1 with why. */
static hid_t matching_type(hid_t ft, const struct field_desc *fd, size_t nf, size_t rec_size,
                           char *why, size_t whylen)
{
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
        if (bad) {
            snprintf(why, whylen, "column %d%s%.64s%s: %s", i, name ? " '" : "", name ? name : "",
                     name ? "'" : "", bad);
            H5Tclose(mt);
            mt = -1;
        } else {
            hid_t t = fd[k].kind == FIELD_STR   ? string_type(fd[k].size)
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
        }
        if (member >= 0) H5Tclose(member);
        if (name) H5free_memory(name);
    }
    return mt;
}

/* Read records [at, at + n) of d into buf (records of rec_size bytes). */
static herr_t read_block(hid_t d, hid_t mt, size_t rec_size, hsize_t at, hsize_t n, void *buf)
{
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &n, NULL);
    herr_t st = (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, &at, NULL, &n, NULL) < 0)
                    ? -1
                    : H5Dread(d, mt, ms, fs, H5P_DEFAULT, (char *)buf + at * rec_size);
    if (ms >= 0) H5Sclose(ms);
    if (fs >= 0) H5Sclose(fs);
    return st;
}

struct table_read {
    void *buf;
    size_t n;              /* records read */
    size_t declared;       /* records the table declares */
};

/* Read a whole table, validated before anything is allocated: one dimension,
 * at most max_records, and no more bytes than the file could hold (times
 * MAX_INFLATION for compressed tables of schemas 1-3).  A table that cannot be
 * read whole is read chunk by chunk up to the first damaged one.  Returns 0
 * (t->n < t->declared when a damaged tail was dropped), or -1 with why. */
static int read_table(hid_t f, const char *name, const struct field_desc *fd, size_t nf,
                      size_t rec_size, size_t max_records, double file_bytes,
                      struct table_read *t, char *why, size_t whylen)
{
    memset(t, 0, sizeof *t);
    htri_t there = H5Lexists(f, name, H5P_DEFAULT);
    hid_t d = there > 0 ? H5Dopen2(f, name, H5P_DEFAULT) : -1;
    if (d < 0) {
        snprintf(why, whylen, "no table /%s", name);
        return -1;
    }
    hid_t sp = H5Dget_space(d), ft = H5Dget_type(d), dcpl = H5Dget_create_plist(d), mt = -1;
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
    if ((mt = matching_type(ft, fd, nf, rec_size, why, whylen)) < 0) {
        char col[160];
        snprintf(col, sizeof col, "%s", why);
        snprintf(why, whylen, "/%s: %s", name, col);
        goto done;
    }
    t->declared = (size_t)nrec;
    t->buf = calloc(nrec ? (size_t)nrec : 1, rec_size);
    if (!t->buf) {
        snprintf(why, whylen, "/%s: out of memory for %llu records", name, (unsigned long long)nrec);
        goto done;
    }
    rc = 0;
    if (nrec == 0 || read_block(d, mt, rec_size, 0, nrec, t->buf) >= 0) {
        t->n = (size_t)nrec;
    } else {
        /* Recover the readable prefix, a chunk at a time. */
        H5Eclear2(H5E_DEFAULT);
        if (H5Pget_layout(dcpl) == H5D_CHUNKED) H5Pget_chunk(dcpl, 1, &chunk);
        if (chunk < 1) chunk = 1;
        hsize_t at = 0;
        while (at < nrec) {
            hsize_t n = nrec - at < chunk ? nrec - at : chunk;
            if (read_block(d, mt, rec_size, at, n, t->buf) < 0) break;
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
    if (mt >= 0) H5Tclose(mt);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (ft >= 0) H5Tclose(ft);
    if (sp >= 0) H5Sclose(sp);
    H5Dclose(d);
    H5Eclear2(H5E_DEFAULT);
    if (rc != 0) {
        free(t->buf);
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

static void note(struct results_file *f, const char *fmt, ...)
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
 * whose samples are not all there is said to be so. */
static void reconcile(struct results_file *f, size_t samples_declared, size_t rows_declared)
{
    if (f->n_rows < rows_declared)
        note(f, "rows %zu-%zu of /results unreadable (damaged): dropped", f->n_rows,
             rows_declared - 1);
    if (f->n_samples < samples_declared)
        note(f, "samples %zu-%zu of /samples unreadable (damaged): dropped", f->n_samples,
             samples_declared - 1);
    size_t keep = f->n_rows;
    while (keep > 0 && !strcmp(f->rows[keep - 1].disposition, RECORDING)) keep--;
    if (keep < f->n_rows)
        note(f, "row %zu (%s) was being recorded when its run stopped: dropped with its "
                "samples", keep, f->rows[keep].variant);
    for (size_t i = 0; i < keep; i++)
        if (!strcmp(f->rows[i].disposition, RECORDING)) {
            note(f, "row %zu is marked '%s' amid committed rows (damaged)", i, RECORDING);
            break;
        }
    f->n_rows = keep;
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
        note(f, "%zu samples of no recorded row: dropped", stray);
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
        note(f, "%zu passed rows (the first: row %zu) lack some of their samples; their "
                "statistics are kept", short_rows, first);
}

int results_read(const char *path, struct results_file *out, char *err, size_t errlen)
{
    h5_setup();
    memset(out, 0, sizeof *out);
    char why[512];
    struct stat st;
    if (files_check_regular(path, why, sizeof why) || stat(path, &st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, why);
        return -1;
    }
    hid_t f = open_for_reading(path, &out->writer_open, why, sizeof why);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, why);
        return -1;
    }
    const double bytes = (double)st.st_size;
    struct table_read rows, samples;
    int rc = read_table(f, "results", RESULT_FIELDS, RESULT_NFIELDS, sizeof(struct result_row),
                        RESULTS_MAX_ROWS, bytes, &rows, why, sizeof why);
    if (rc == 0 && read_table(f, "samples", SAMPLE_FIELDS, SAMPLE_NFIELDS,
                              sizeof(struct sample_row), RESULTS_MAX_SAMPLES, bytes, &samples,
                              why, sizeof why) != 0) {
        free(rows.buf);
        rc = -1;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        H5Fclose(f);
        return -1;
    }
    out->rows = rows.buf;
    out->n_rows = rows.n;
    out->samples = samples.buf;
    out->n_samples = samples.n;
    long long v = 0;
    if (int_attr(f, "complete", &v) == 0) out->complete = v == 1;
    if (int_attr(f, "schema_version", &v) == 0 && v > 0 && v < 1000) out->schema_version = (int)v;
    H5Fclose(f);
    H5Eclear2(H5E_DEFAULT);
    reconcile(out, samples.declared, rows.declared);
    if (out->writer_open)
        note(out, "its writer never closed it (the run was killed, or is still going)");
    return 0;
}

void results_file_free(struct results_file *f)
{
    free(f->rows);
    free(f->samples);
    memset(f, 0, sizeof *f);
}

/* ---- attributes as text ---------------------------------------------------------- */

struct visit {
    attr_visit_fn fn;
    void *ctx;
};

/* One attribute's value as text into *text (malloc'd when long). */
static void attr_text(hid_t a, char *buf, size_t len, char **text)
{
    *text = buf;
    snprintf(buf, len, "(unreadable)");
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    hssize_t npoints = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    H5T_class_t cls = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    if (t < 0 || npoints < 0) {
        /* unreadable */
    } else if (npoints != 1) {
        snprintf(buf, len, "(%lld values, not shown)", (long long)npoints);
    } else if (cls == H5T_STRING && H5Tis_variable_str(t) > 0) {
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
            if (H5Aread(a, H5T_NATIVE_ULLONG, &u) >= 0) snprintf(buf, len, "%llu", u);
        } else {
            long long s = 0;
            if (H5Aread(a, H5T_NATIVE_LLONG, &s) >= 0) snprintf(buf, len, "%lld", s);
        }
    } else if (cls == H5T_FLOAT) {
        double d = 0;
        if (H5Aread(a, H5T_NATIVE_DOUBLE, &d) >= 0) snprintf(buf, len, "%.17g", d);
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
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a >= 0) {
        attr_text(a, buf, sizeof buf, &text);
        H5Aclose(a);
    } else {
        snprintf(buf, sizeof buf, "(unreadable)");
    }
    H5Eclear2(H5E_DEFAULT);
    v->fn(name, text, v->ctx);
    if (text != buf) free(text);
    return 0;
}

int results_visit_attrs(const char *path, attr_visit_fn fn, void *ctx, char *err, size_t errlen)
{
    h5_setup();
    char why[512];
    int writer_open;
    if (files_check_regular(path, why, sizeof why)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, why);
        return -1;
    }
    hid_t f = open_for_reading(path, &writer_open, why, sizeof why);
    if (f < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, why);
        return -1;
    }
    struct visit v = {fn, ctx};
    hsize_t idx = 0;
    herr_t st = H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_one, &v);
    H5Fclose(f);
    if (st < 0) {
        snprintf(err, errlen, "%s: cannot read its attributes: %s", path, h5_why(why, sizeof why));
        return -1;
    }
    return 0;
}
