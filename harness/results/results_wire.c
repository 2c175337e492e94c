/* Reading results files, in two processes: a child reads the file
 * (results_read.c's functions) and sends what it read down a pipe and a bulk
 * file; the parent waits for it within a time limit and takes the rows,
 * samples and attributes (see file.h for why a child). */
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

/* A reader gets this long, plus a second per 50 MB of file, before it is
 * taken for hung (a sound file of a paper run reads in a tenth of a second). */
#define READ_TIMEOUT_S 30

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
        if (H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, read_visit_one, &v) < 0) {
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
        read_complete_and_trust(&f, says_complete, planned, peak, lost);
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
    hid_t f = read_open_for_reading(path, &writer_open, &padded, why, sizeof why);
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
