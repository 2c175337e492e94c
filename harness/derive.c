/* Derived views of results files: see derive.h. */
#include "derive.h"
#include "estimates.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry.h"

/* ---- runs ---------------------------------------------------------------------- */

struct attr_sink {
    struct run *r;
};

static void take_attr(const char *name, const char *value, void *ctx)
{
    struct run *r = ((struct attr_sink *)ctx)->r;
    char *end;
    if (!strcmp(name, "gpu_name")) snprintf(r->gpu_name, sizeof r->gpu_name, "%s", value);
    else if (!strcmp(name, "created_utc")) snprintf(r->created_utc, sizeof r->created_utc, "%s", value);
    else if (!strcmp(name, "git_commit")) snprintf(r->git_commit, sizeof r->git_commit, "%s", value);
    else if (!strcmp(name, "cpu_model")) snprintf(r->cpu_model, sizeof r->cpu_model, "%s", value);
    else if (!strcmp(name, "nvcc_version")) snprintf(r->nvcc_version, sizeof r->nvcc_version, "%s", value);
    else if (!strcmp(name, "seed")) snprintf(r->seed, sizeof r->seed, "%s", value);
    else if (!strcmp(name, "cc_version")) snprintf(r->cc_version, sizeof r->cc_version, "%s", value);
    else if (!strcmp(name, "gpu_sampling_rule")) snprintf(r->gpu_rule, sizeof r->gpu_rule, "%s", value);
    else if (!strcmp(name, "host_sampling_rule")) snprintf(r->host_rule, sizeof r->host_rule, "%s", value);
    static const struct {
        const char *name;
        size_t off;
    } nums[] = {{"gpu_fp32_peak_gflops", offsetof(struct run, peak_gflops)},
                {"gpu_copy_bandwidth_gbs", offsetof(struct run, copy_gbs)},
                {"wall_time_s", offsetof(struct run, wall_s)},
                {"estimated_s", offsetof(struct run, estimated_s)},
                {"telemetry_refresh_ms", offsetof(struct run, telemetry_refresh_ms)},
                {"gpu_sm_count", offsetof(struct run, sms)},
                {"gpu_max_clock_mhz", offsetof(struct run, clock_mhz)},
                {"gpu_l2_bytes", offsetof(struct run, l2_bytes)},
                {"cuda_driver_version", offsetof(struct run, driver)}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(name, nums[i].name)) continue;
        double x = strtod(value, &end);
        if (end != value && x > 0 && isfinite(x)) *(double *)((char *)r + nums[i].off) = x;
    }
}

/* Rows by group (variant, shape, host memory), and within a group in file order. */
static int group_cmp(const struct result_row *x, const struct result_row *y)
{
    int c = strcmp(x->variant, y->variant);
    if (!c) c = (x->M > y->M) - (x->M < y->M);
    if (!c) c = (x->N > y->N) - (x->N < y->N);
    if (!c) c = (x->K > y->K) - (x->K < y->K);
    return c ? c : strcmp(x->host_memory, y->host_memory);
}

int derive_group_cmp(const struct result_row *x, const struct result_row *y)
{
    return group_cmp(x, y);
}

int derive_open(struct run *r, const char *role, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->peak_gflops = r->copy_gbs = r->wall_s = r->sms = r->clock_mhz = r->l2_bytes = r->driver = NAN;
    r->estimated_s = r->telemetry_refresh_ms = NAN;
    size_t n = strlen(role);
    if (n == 0 || n >= sizeof r->role) {
        snprintf(err, errlen, "run role '%s' (expected 1 to %zu letters, digits, '_' or '-')",
                 role, sizeof r->role - 1);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)role[i]) && role[i] != '_' && role[i] != '-') {
            snprintf(err, errlen, "run role '%s' (expected letters, digits, '_' or '-')", role);
            return -1;
        }
    snprintf(r->role, sizeof r->role, "%s", role);
    snprintf(r->path, sizeof r->path, "%s", path);
    if (results_read(path, &r->f, err, errlen) != 0) return -1;
    struct attr_sink sink = {r};
    if (results_visit_attrs(path, take_attr, &sink, err, errlen) != 0) {
        results_file_free(&r->f);
        return -1;
    }
    derive_upgrade(&r->f);
    if (derive_index(r) != 0) {
        snprintf(err, errlen, "%s: out of memory for an index of %zu rows", path, r->f.n_rows);
        results_file_free(&r->f);
        return -1;
    }
    return 0;
}

/* Sorting rows into groups (group_cmp's order, each group in file order) by
 * integer keys: each distinct variant and host-memory string gets its rank in
 * strcmp order (found through a hash table, so linear in the rows however many
 * distinct strings a damaged file has), and the keys sort without a string
 * compare.  A million rows: about a fifth of the time of qsort with
 * group_cmp. */
struct group_key {
    uint32_t variant, memory;
    int M, N, K;
    size_t at;   /* the row's index: file order within a group */
};

static int by_key(const void *a, const void *b)
{
    const struct group_key *x = a, *y = b;
    if (x->variant != y->variant) return x->variant < y->variant ? -1 : 1;
    if (x->M != y->M) return x->M < y->M ? -1 : 1;
    if (x->N != y->N) return x->N < y->N ? -1 : 1;
    if (x->K != y->K) return x->K < y->K ? -1 : 1;
    if (x->memory != y->memory) return x->memory < y->memory ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

struct names {
    const char **slot;   /* open addressing: the first row's copy of each string */
    uint32_t *id;        /* its id, in order of first appearance */
    size_t mask;
    const char **by_id;
    uint32_t n;
};

static uint32_t name_id(struct names *t, const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < len && s[i]; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    for (size_t i = (size_t)h & t->mask;; i = (i + 1) & t->mask) {
        if (!t->slot[i]) {
            t->slot[i] = s;
            t->by_id[t->n] = s;
            return t->id[i] = t->n++;
        }
        if (strncmp(t->slot[i], s, len) == 0) return t->id[i];
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

/* rows[0..n) into by, in group order; 0, or -1 out of memory. */
static int sort_groups(const struct result_row *rows, size_t n, const struct result_row **by)
{
    size_t cap = 16;
    while (cap < 4 * n + 4) cap *= 2;   /* two strings a row, the table at most half full */
    struct names t = {calloc(cap, sizeof *t.slot), malloc(cap * sizeof *t.id), cap - 1,
                      malloc((2 * n + 2) * sizeof *t.by_id), 0};
    struct group_key *k = malloc((n + 1) * sizeof *k);
    const char ***order = NULL;
    uint32_t *rank = NULL;
    int rc = -1;
    if (!t.slot || !t.id || !t.by_id || !k) goto out;
    for (size_t i = 0; i < n; i++) {
        k[i] = (struct group_key){name_id(&t, rows[i].variant, sizeof rows[i].variant),
                                  name_id(&t, rows[i].host_memory, sizeof rows[i].host_memory),
                                  rows[i].M, rows[i].N, rows[i].K, i};
    }
    /* ids into ranks in strcmp order */
    order = malloc((t.n + 1) * sizeof *order);
    rank = malloc((t.n + 1) * sizeof *rank);
    if (!order || !rank) goto out;
    for (uint32_t i = 0; i < t.n; i++) order[i] = &t.by_id[i];
    qsort(order, t.n, sizeof *order, by_name);
    for (uint32_t i = 0; i < t.n; i++) rank[order[i] - t.by_id] = i;
    for (size_t i = 0; i < n; i++) k[i].variant = rank[k[i].variant], k[i].memory = rank[k[i].memory];
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n; i++) by[i] = &rows[k[i].at];
    rc = 0;
out:
    free(t.slot), free(t.id), free(t.by_id), free(k), free(order), free(rank);
    return rc;
}

int derive_index(struct run *r)
{
    const struct result_row **by = malloc((r->f.n_rows + 1) * sizeof *by);
    if (!by) return -1;
    if (sort_groups(r->f.rows, r->f.n_rows, by) != 0) {
        free(by);
        return -1;
    }
    r->by_group = by;
    return 0;
}

void derive_unindex(struct run *r)
{
    free(r->by_group);
    r->by_group = NULL;
}

void derive_upgrade(struct results_file *f)
{
    for (size_t i = 0; i < f->n_rows; i++) {
        struct result_row *row = &f->rows[i];
        const struct variant *v = registry_find(row->variant);
        const struct rung_config *c = v ? rung_config_find(v->configs, row->tile, row->wpt) : NULL;
        if (c && row->block_rows == 0 && row->thread_rows == 0) {
            row->block_rows = c->block_rows;
            row->block_cols = c->block_cols;
            row->thread_rows = c->thread_rows;
            row->thread_cols = c->thread_cols;
        }
    }
}

void derive_close(struct run *r)
{
    derive_unindex(r);
    results_file_free(&r->f);
}

/* ---- shapes ---------------------------------------------------------------------- */

int shape_parse(const char *s, struct shape *out)
{
    int d[3], n = 0, consumed = 0;
    char x1, x2;
    if (sscanf(s, "%d%c%d%c%d%n", &d[0], &x1, &d[1], &x2, &d[2], &n) == 5 && x1 == 'x' &&
        x2 == 'x' && s[n] == '\0') {
        *out = (struct shape){d[0], d[1], d[2]};
    } else if (sscanf(s, "%d%n", &d[0], &consumed) == 1 && s[consumed] == '\0') {
        *out = (struct shape){d[0], d[0], d[0]};
    } else {
        return -1;
    }
    return out->M > 0 && out->N > 0 && out->K > 0 ? 0 : -1;
}

int shape_square(struct shape s)
{
    return s.M == s.N && s.N == s.K && s.M % 32 == 0 ? s.M : 0;
}

void shape_label(struct shape s, char *buf, size_t len)
{
    if (s.M == s.N && s.N == s.K) snprintf(buf, len, "%d", s.M);
    else snprintf(buf, len, "%dx%dx%d", s.M, s.N, s.K);
}

static struct shape shape_of(const struct result_row *row)
{
    return (struct shape){row->M, row->N, row->K};
}

static int same_shape(struct shape a, struct shape b)
{
    return a.M == b.M && a.N == b.N && a.K == b.K;
}

/* ---- a rung's best, and what is measured against it ---------------------------- */

static int ordinary(const struct result_row *row)
{
    return !strcmp(row->disposition, "passed") && row->host_memory[0] == '\0';
}

/* The first of r->by_group not before (variant, s, host memory ""). */
static size_t group_start(const struct run *r, const char *variant, struct shape s)
{
    struct result_row key;
    memset(&key, 0, sizeof key);
    snprintf(key.variant, sizeof key.variant, "%s", variant);
    key.M = s.M, key.N = s.N, key.K = s.K;
    size_t lo = 0, hi = r->f.n_rows;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (group_cmp(r->by_group[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

struct row_span derive_rows_of(const struct run *r, const char *variant, struct shape s)
{
    if (!r->by_group) return (struct row_span){NULL, r->f.rows, r->f.n_rows};
    const size_t first = group_start(r, variant, s);
    size_t i = first;
    for (; i < r->f.n_rows; i++) {
        const struct result_row *row = r->by_group[i];
        if (strcmp(row->variant, variant) || !same_shape(shape_of(row), s) || row->host_memory[0])
            break;
    }
    return (struct row_span){r->by_group + first, NULL, i - first};
}

const struct result_row *derive_best(const struct run *r, const struct variant *v, struct shape s)
{
    const struct result_row *best = NULL;
    const struct row_span c = derive_rows_of(r, v->name, s);
    for (size_t i = 0; i < c.n; i++) {   /* in file order: the first of equal rates */
        const struct result_row *row = row_span_at(&c, i);
        if (ordinary(row) && !strcmp(row->variant, v->name) && same_shape(shape_of(row), s) &&
            (!best || row->gflops > best->gflops))
            best = row;
    }
    return best;
}

double derive_gflops(const struct run *r, const struct variant *v, struct shape s)
{
    const struct result_row *b = derive_best(r, v, s);
    return b ? b->gflops : NAN;
}

/* The best row's pairing with its reference, when it was sampled paired. */
static const struct result_row *paired_best(const struct run *r, const struct variant *v,
                                            struct shape s)
{
    const struct result_row *b = derive_best(r, v, s);
    return b && b->pairs > 1 && v->reference && !strcmp(b->paired_with, v->reference) &&
                   isfinite(b->ref_ratio)
               ? b
               : NULL;
}

double derive_pct_ref(const struct run *r, const struct variant *v, struct shape s)
{
    const struct result_row *p = paired_best(r, v, s);
    if (p) return 100.0 * p->ref_ratio;
    const struct variant *ref = v->reference ? registry_find(v->reference) : NULL;
    return ref ? 100.0 * derive_gflops(r, v, s) / derive_gflops(r, ref, s) : NAN;
}

double derive_pct_ref_ci95(const struct run *r, const struct variant *v, struct shape s)
{
    const struct result_row *p = paired_best(r, v, s);
    return p ? 100.0 * p->ref_ratio_ci95 : NAN;
}

double derive_pct_peak(const struct run *r, const struct variant *v, struct shape s)
{
    if (v->device != DEV_GPU || v->precision != PREC_FP32 || !(r->peak_gflops > 0)) return NAN;
    return 100.0 * derive_gflops(r, v, s) / r->peak_gflops;
}

const struct variant *derive_prev(const struct run *r, const struct variant *v, struct shape s)
{
    for (int i = registry_number(v) - 2; i >= 0; i--) {
        const struct variant *u = registry_at((size_t)i);
        if (u->device == v->device && u->precision == v->precision && !registry_is_reference(u) &&
            derive_best(r, u, s))
            return u;
    }
    return NULL;
}

double derive_step(const struct run *r, const struct variant *v, struct shape s)
{
    if (registry_is_reference(v)) return NAN;
    const struct variant *p = derive_prev(r, v, s);
    return p ? derive_gflops(r, v, s) / derive_gflops(r, p, s) : NAN;
}

double derive_intensity(const struct variant *v, const struct result_row *row)
{
    if (v->device != DEV_GPU || registry_is_reference(v)) return NAN;
    if (!v->tiled) return 2.0 / (2 * sizeof(float));   /* one FMA, two operands */
    const double bm = row->block_rows, bn = row->block_cols;
    return bm > 0 && bn > 0 ? 2.0 * bm * bn / (sizeof(float) * (bm + bn)) : NAN;
}

double derive_compulsory_intensity(struct shape s)
{
    const double M = s.M, N = s.N, K = s.K;
    return 2.0 * M * N * K / (sizeof(float) * (M * K + K * N + M * N));
}

double derive_rel_stddev(const struct result_row *row)
{
    return row->samples > 1 && row->time_ms_mean > 0 ? row->time_ms_stddev / row->time_ms_mean
                                                      : NAN;
}

void derive_config_label(const struct variant *v, const struct result_row *row, char *buf,
                         size_t len)
{
    int n;
    if (v->device == DEV_HOST)
        n = snprintf(buf, len, "-O%d", row->opt_level);
    else if (row->chosen[0])   /* a dispatch row: what it picked */
        n = snprintf(buf, len, "%s", row->chosen);
    else if (row->block_rows > 0 && row->thread_rows > 0)
        n = snprintf(buf, len, "%dx%d block, %dx%d per thread", row->block_rows, row->block_cols,
                     row->thread_rows, row->thread_cols);
    else if (row->tile || row->wpt)   /* files of schema < 5 */
        n = snprintf(buf, len, "tile %d, WPT %d", row->tile, row->wpt);
    else
        n = snprintf(buf, len, "%s", "");
    /* K divided among blocks (schema 7): by how many, and whether by the rule */
    if (!row->chosen[0] && row->k_splits > 1 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ", K in %d%s", row->k_splits,
                 row->split == 0 ? " (rule)" : "");
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

size_t derive_squares(const struct run *r, int device, int *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        const struct variant *v = registry_find(row->variant);
        const int sq = shape_square(shape_of(row));
        if (!v || !sq || !ordinary(row) || (device >= 0 && (int)v->device != device)) continue;
        size_t k = 0;
        while (k < n && out[k] != sq) k++;
        if (k == n && n < max) out[n++] = sq;
    }
    qsort(out, n, sizeof *out, cmp_int);
    return n;
}

/* ---- pairs of runs ------------------------------------------------------------- */

static int same_group(const struct result_row *x, const struct result_row *y)
{
    return same_shape(shape_of(x), shape_of(y)) && !strcmp(x->variant, y->variant) &&
           !strcmp(x->host_memory, y->host_memory);
}

const struct result_row *derive_best_of_group(const struct results_file *f,
                                              const struct result_row *x)
{
    const struct result_row *best = NULL;
    for (size_t i = 0; i < f->n_rows; i++)
        if (same_group(&f->rows[i], x) && !strcmp(f->rows[i].disposition, "passed") &&
            (!best || f->rows[i].gflops > best->gflops))
            best = &f->rows[i];
    return best;
}

/* A group of a file's rows: its first row and its best passed row (NULL: none). */
struct group {
    const struct result_row *first, *best;
};

/* f's groups, sorted by group_cmp; returns how many, or -1 out of memory. */
static long groups_of(const struct results_file *f, struct group **out)
{
    const struct result_row **by = malloc((f->n_rows + 1) * sizeof *by);
    *out = malloc((f->n_rows + 1) * sizeof **out);
    if (!by || !*out) {
        free(by), free(*out);
        *out = NULL;
        return -1;
    }
    if (sort_groups(f->rows, f->n_rows, by) != 0) {
        free(by), free(*out);
        *out = NULL;
        return -1;
    }
    long n = 0;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct result_row *x = by[i];
        if (i == 0 || group_cmp(by[i - 1], x) != 0) (*out)[n++] = (struct group){x, NULL};
        struct group *g = &(*out)[n - 1];
        if (!strcmp(x->disposition, "passed") && (!g->best || x->gflops > g->best->gflops))
            g->best = x;
    }
    free(by);
    return n;
}

static int pair_in_file_order(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    return (x->a_first > y->a_first) - (x->a_first < y->a_first);
}

/* Sorting both files' rows by group and walking the two lists together: time
 * n log n in the rows, where a scan of every row for every group was n^2 (a
 * run of 98,305 rows took 69 s to compare with itself). */
size_t derive_pairs(const struct run *a, const struct run *b, struct pair **out)
{
    *out = NULL;
    struct group *ga = NULL, *gb = NULL;
    const long na = groups_of(&a->f, &ga), nb = na < 0 ? -1 : groups_of(&b->f, &gb);
    size_t n = 0;
    if (na >= 0 && nb >= 0) *out = malloc(((size_t)na + 1) * sizeof **out);
    if (!*out) {
        fprintf(stderr, "mmladder: out of memory pairing %s with %s\n", a->path, b->path);
        free(ga), free(gb);
        return 0;
    }
    for (long i = 0, j = 0; i < na && j < nb;) {
        const int c = group_cmp(ga[i].first, gb[j].first);
        if (c < 0 || c > 0) {
            i += c < 0, j += c > 0;
            continue;
        }
        const struct variant *v = registry_find(ga[i].first->variant);
        const struct result_row *x = ga[i].first, *ba = ga[i].best, *bb = gb[j].best;
        if (v && ba && bb)
            (*out)[n++] = (struct pair){v, shape_of(x), x->host_memory, ba, bb,
                                        ba->gflops / bb->gflops, x};
        i++, j++;
    }
    qsort(*out, n, sizeof **out, pair_in_file_order);
    free(ga), free(gb);
    return n;
}

/* ---- the shape suite ----------------------------------------------------------- */

static const char *const CLASS_NAMES[SC_COUNT] = {"decode", "small",  "long_k", "short_k",
                                                  "odd",    "aspect", "large"};

enum shape_class shape_class_of(struct shape s)
{
    const int lo = s.M < s.N ? s.M : s.N, hi = s.M < s.N ? s.N : s.M;
    const int dmax = hi > s.K ? hi : s.K, dmin = lo < s.K ? lo : s.K;
    if (lo <= 32 && hi >= 2048) return SC_DECODE;
    if (lo <= 256 && s.K >= 32768) return SC_LONG_K;
    if (s.K <= 128 && lo >= 2048) return SC_SHORT_K;
    if (dmax <= 512) return SC_SMALL;
    if (s.M % 32 || s.N % 32 || s.K % 32) return SC_ODD;
    if (dmax >= 8.0 * dmin) return SC_ASPECT;
    return SC_LARGE;
}

const char *shape_class_name(enum shape_class c)
{
    return c >= 0 && c < SC_COUNT ? CLASS_NAMES[c] : "?";
}

int shape_class_parse(const char *name, enum shape_class *out)
{
    for (int c = 0; c < SC_COUNT; c++)
        if (!strcmp(name, CLASS_NAMES[c])) {
            *out = (enum shape_class)c;
            return 0;
        }
    return -1;
}

/* By FLOP count, then M, then N */
static int flops_before(struct shape a, struct shape b)
{
    const double fa = (double)a.M * a.N * a.K, fb = (double)b.M * b.N * b.K;
    return fa < fb || (fa == fb && (a.M < b.M || (a.M == b.M && a.N < b.N)));
}

/* The suite's order: class, then FLOP count */
static int suite_before(struct shape a, struct shape b)
{
    const enum shape_class ca = shape_class_of(a), cb = shape_class_of(b);
    if (ca != cb) return ca < cb;
    return flops_before(a, b);
}

/* The hand-written rungs a suite point takes its best from */
static int hand_written(const struct variant *v, enum precision p)
{
    return v->device == DEV_GPU && v->precision == p && !registry_is_reference(v) &&
           !v->dispatch && v->reference;
}

/* At pt->s: the fastest rung that `takes` for precision p (its best row), and
 * the dispatch row of p */
static void best_and_dispatch(const struct run *r, enum precision p,
                              int (*takes)(const struct variant *, enum precision),
                              struct suite_point *pt)
{
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *u = registry_at(k);
        const struct result_row *b = derive_best(r, u, pt->s);
        if (!b) continue;
        if (takes(u, p) && (!pt->best_row || b->gflops > pt->best_row->gflops))
            pt->best = u, pt->best_row = b;
        if (u->dispatch && u->precision == p && u->device == DEV_GPU && !pt->dispatch)
            pt->dispatch = u, pt->dispatch_row = b;
    }
}

size_t derive_suite_room(const struct run *r) { return r->f.n_rows + 1; }

size_t derive_suite(const struct run *r, enum precision p, struct suite_point *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows && n < max; i++) {
        const struct result_row *row = &r->f.rows[i];
        const struct variant *v = registry_find(row->variant);
        if (!ordinary(row) || !v || !hand_written(v, p)) continue;
        const struct shape s = shape_of(row);
        size_t j = 0;
        while (j < n && !same_shape(out[j].s, s)) j++;
        if (j < n) continue;
        struct suite_point pt = {.s = s, .cls = shape_class_of(s), .dispatch_pct = NAN};
        best_and_dispatch(r, p, hand_written, &pt);
        pt.ref = pt.best->reference ? registry_find(pt.best->reference) : NULL;
        pt.ref_row = pt.ref ? derive_best(r, pt.ref, s) : NULL;
        if (!pt.ref_row) continue;   /* nothing to measure it against */
        pt.best_pct = derive_pct_ref(r, pt.best, s);
        pt.best_ci95 = derive_pct_ref_ci95(r, pt.best, s);
        if (pt.dispatch) pt.dispatch_pct = derive_pct_ref(r, pt.dispatch, s);
        j = n++;
        for (; j > 0 && suite_before(s, out[j - 1].s); j--) out[j] = out[j - 1];
        out[j] = pt;
    }
    return n;
}

/* ---- the corpora ------------------------------------------------------------- */

static const char *const CORPUS_CLASS_NAMES[CC_COUNT] = {"gemv", "short_k", "few", "rest"};

enum corpus_class corpus_class_of(struct shape s)
{
    const int lo = s.M < s.N ? s.M : s.N;
    if (lo <= 8) return CC_GEMV;
    if (s.K <= 64) return CC_SHORT_K;
    if (lo <= 32) return CC_FEW;
    return CC_REST;
}

const char *corpus_class_name(enum corpus_class c)
{
    return c >= 0 && c < CC_COUNT ? CORPUS_CLASS_NAMES[c] : "?";
}

int corpus_class_parse(const char *name, enum corpus_class *out)
{
    for (int c = 0; c < CC_COUNT; c++)
        if (!strcmp(name, CORPUS_CLASS_NAMES[c])) {
            *out = (enum corpus_class)c;
            return 0;
        }
    return -1;
}

/* The corpus's order: class, then FLOP count */
static int corpus_before(struct shape a, struct shape b)
{
    const enum corpus_class ca = corpus_class_of(a), cb = corpus_class_of(b);
    if (ca != cb) return ca < cb;
    return flops_before(a, b);
}

/* A hand-written rung at least as precise as p */
static int as_precise(const struct variant *v, enum precision p)
{
    return hand_written(v, p) || (p == PREC_TF32 && hand_written(v, PREC_FP32));
}

size_t derive_corpus(const struct run *r, enum precision p, struct suite_point *out, size_t max)
{
    const char *ref_name = p == PREC_TF32 ? "cublas_tf32" : "cublas_fp32";
    const struct variant *ref = registry_find(ref_name);
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows && n < max; i++) {
        const struct result_row *row = &r->f.rows[i];
        const struct variant *v = registry_find(row->variant);
        if (!ordinary(row) || !v || !as_precise(v, p)) continue;
        const struct shape s = shape_of(row);
        size_t j = 0;
        while (j < n && !same_shape(out[j].s, s)) j++;
        if (j < n) continue;
        struct suite_point pt = {.s = s, .cls = shape_class_of(s), .corpus = corpus_class_of(s),
                                 .dispatch_pct = NAN, .best_ci95 = NAN, .ref = ref};
        pt.ref_row = ref ? derive_best(r, ref, s) : NULL;
        if (!pt.ref_row || !(pt.ref_row->gflops > 0)) continue;   /* nothing to measure it against */
        best_and_dispatch(r, p, as_precise, &pt);
        pt.best_pct = 100.0 * pt.best_row->gflops / pt.ref_row->gflops;
        if (pt.dispatch_row) pt.dispatch_pct = 100.0 * pt.dispatch_row->gflops / pt.ref_row->gflops;
        j = n++;
        for (; j > 0 && corpus_before(s, out[j - 1].s); j--) out[j] = out[j - 1];
        out[j] = pt;
    }
    return n;
}

double derive_suite_geomean(const struct suite_point *pt, size_t n, int dispatch)
{
    if (n == 0) return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        const double x = dispatch ? pt[i].dispatch_pct : pt[i].best_pct;
        if (!(x > 0)) return NAN;
        sum += log(x);
    }
    return exp(sum / (double)n);
}

double derive_tiles(const struct result_row *row)
{
    if (row->block_rows <= 0 || row->block_cols <= 0) return NAN;
    return (double)(((long long)row->M + row->block_rows - 1) / row->block_rows) *
           (double)(((long long)row->N + row->block_cols - 1) / row->block_cols);
}

double derive_waves(const struct run *r, const struct result_row *row)
{
    if (row->grid_blocks <= 0 || row->blocks_per_sm <= 0 || !(r->sms > 0)) return NAN;
    return row->grid_blocks / (row->blocks_per_sm * r->sms);
}

double derive_k_per_block(const struct result_row *row)
{
    return row->k_splits > 0 ? (double)row->K / row->k_splits : NAN;
}

/* ---- tables ---------------------------------------------------------------------- */

const char *const DERIVE_VIEWS =
    "rungs runs ladder configs speedup samples telemetry transfers shapes suite corpus "
    "corpus-classes corpus-cdf estimates compare";

static void num(FILE *out, double x)
{
    if (isfinite(x)) fprintf(out, "\t%.6g", x);
    else fputs("\t-", out);
}

static void str(FILE *out, const char *s)
{
    fputc('\t', out);
    if (!s || !*s) {
        fputc('-', out);
        return;
    }
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

void derive_cell_num(FILE *out, double x) { num(out, x); }
void derive_cell_str(FILE *out, const char *s) { str(out, s); }

/* rungs: the registry, for the figures' styles and keys */
static void view_rungs(FILE *out)
{
    fputs("number\trung\tdevice\tprecision\treference\tis_reference\tcolour\tpoint\ttitle"
          "\tfrom_seeds\n", out);
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char title[96];
        snprintf(title, sizeof title, "%02zu %s%s", i + 1, v->name,
                 v->precision == PREC_TF32 ? " (TF32)" : "");
        fprintf(out, "%zu", i + 1);
        str(out, v->name);
        str(out, v->device == DEV_GPU ? "gpu" : "host");
        str(out, v->precision == PREC_TF32 ? "tf32" : "fp32");
        str(out, v->reference);
        fprintf(out, "\t%d", registry_is_reference(v));
        str(out, v->colour);
        fprintf(out, "\t%d", v->point);
        str(out, title);
        /* 1: one of the seeds' kernels (or their cuBLAS), 0: a rung past them */
        fprintf(out, "\t%d", strcmp(v->seed_name, "(past the seeds)") != 0);
        fputc('\n', out);
    }
}

/* runs: what a figure writes in its corner and on its guides */
static void view_runs(FILE *out, const struct run *runs, size_t nruns)
{
    fputs("role\tgpu\tdate\tcomplete\tpeak_gflops\tcopy_gbs\tcommit\tcpu\tmax_clock_mhz\n", out);
    for (size_t k = 0; k < nruns; k++) {
        const struct run *r = &runs[k];
        char date[32];
        snprintf(date, sizeof date, "%.10s %.5s UTC", r->created_utc,
                 strlen(r->created_utc) > 11 ? r->created_utc + 11 : "");
        fputs(r->role, out);
        str(out, r->gpu_name[0] && strcmp(r->gpu_name, "none") ? r->gpu_name : "no GPU");
        str(out, r->created_utc[0] ? date : "undated");
        fprintf(out, "\t%d", r->f.complete);
        num(out, r->peak_gflops);
        num(out, r->copy_gbs);
        str(out, r->git_commit);
        str(out, r->cpu_model);
        num(out, r->clock_mhz);
        fputc('\n', out);
    }
}

/* The columns every row-level view starts with. */
static void row_head(FILE *out)
{
    fputs("number\trung\tdevice\tprecision\tM\tN\tK\tn\tshape", out);
}

static void row_cells(FILE *out, const struct variant *v, struct shape s)
{
    fprintf(out, "%d", registry_number(v));
    str(out, v->name);
    str(out, v->device == DEV_GPU ? "gpu" : "host");
    str(out, v->precision == PREC_TF32 ? "tf32" : "fp32");
    char label[48];
    shape_label(s, label, sizeof label);
    fprintf(out, "\t%d\t%d\t%d\t%d", s.M, s.N, s.K, shape_square(s));
    str(out, label);
}

void derive_row_head(FILE *out) { row_head(out); }
void derive_row_cells(FILE *out, const struct variant *v, struct shape s) { row_cells(out, v, s); }

/* Shapes in the order every figure shows them: the square sizes ascending, then
 * the other shapes by FLOP count, then M. */
static int shape_before(struct shape a, struct shape b)
{
    const int sa = shape_square(a), sb = shape_square(b);
    if ((sa > 0) != (sb > 0)) return sa > 0;
    if (sa > 0) return sa < sb;
    return flops_before(a, b);
}

/* The distinct shapes of a table, in an order (cmp: by_shape_before or
 * by_suite_before); shapes_add gathers them, shapes_sort puts them in order
 * once all are in, and shape_rank is then a shape's 1-based place among them
 * (the x position figures give it; 0 if absent), found by a binary search. */
struct shapes {
    struct shape *s;
    size_t n, room;
    int (*cmp)(const void *, const void *);
};

/* before(a, b) as a total order: ties (shapes of one FLOP count whose product
 * rounds alike) by M, N and K */
static int ordered(int (*before)(struct shape, struct shape), const struct shape *a,
                   const struct shape *b)
{
    if (before(*a, *b)) return -1;
    if (before(*b, *a)) return 1;
    if (a->M != b->M) return a->M < b->M ? -1 : 1;
    if (a->N != b->N) return a->N < b->N ? -1 : 1;
    return (a->K > b->K) - (a->K < b->K);
}

static int by_shape_before(const void *a, const void *b) { return ordered(shape_before, a, b); }
static int by_suite_before(const void *a, const void *b) { return ordered(suite_before, a, b); }

static void shapes_add(struct shapes *t, struct shape s)
{
    if (t->n == t->room) {
        const size_t room = t->room ? 2 * t->room : 64;
        struct shape *more = realloc(t->s, room * sizeof *more);
        if (!more) {
            fprintf(stderr, "mmladder: out of memory for the shapes of a table: shape_rank 0 "
                            "from %zu on\n", t->n + 1);
            return;
        }
        t->s = more;
        t->room = room;
    }
    t->s[t->n++] = s;
}

static void shapes_sort(struct shapes *t)
{
    if (!t->n) return;
    qsort(t->s, t->n, sizeof *t->s, t->cmp);
    size_t m = 1;
    for (size_t i = 1; i < t->n; i++)
        if (!same_shape(t->s[i], t->s[m - 1])) t->s[m++] = t->s[i];
    t->n = m;
}

static int shape_rank(const struct shapes *t, struct shape s)
{
    const struct shape *at = t->n ? bsearch(&s, t->s, t->n, sizeof *t->s, t->cmp) : NULL;
    return at ? (int)(at - t->s) + 1 : 0;
}

/* Each (rung, shape) of a run's ordinary rows once, in ladder order, then the
 * square sizes ascending, then the other shapes by FLOP count (so that a rung's
 * squares are adjacent rows, one line in a figure); f(row of the group's best)
 * is called for each. */
static void each_best(const struct run *r, void (*f)(FILE *, const struct run *,
                                                      const struct variant *, struct shape),
                      FILE *out)
{
    struct shape *seen = malloc((r->f.n_rows + 1) * sizeof *seen);
    if (!seen) {
        fprintf(stderr, "mmladder: out of memory for the shapes of %s\n", r->path);
        return;
    }
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        size_t ns = 0;
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            if (!ordinary(row) || strcmp(row->variant, v->name)) continue;
            struct shape s = shape_of(row);
            size_t j = 0;
            while (j < ns && !same_shape(seen[j], s)) j++;
            if (j == ns) seen[ns++] = s;
        }
        for (size_t a = 1; a < ns; a++)   /* squares by n, then the others (shape_before) */
            for (size_t b = a; b > 0 && shape_before(seen[b], seen[b - 1]); b--) {
                struct shape t = seen[b];
                seen[b] = seen[b - 1];
                seen[b - 1] = t;
            }
        for (size_t j = 0; j < ns; j++) f(out, r, v, seen[j]);
    }
    free(seen);
}

/* ladder: each rung's best at each shape, with what it is measured against */
static void ladder_row(FILE *out, const struct run *r, const struct variant *v, struct shape s)
{
    const struct result_row *b = derive_best(r, v, s);
    const struct variant *p = derive_prev(r, v, s);
    char cfg[96];
    derive_config_label(v, b, cfg, sizeof cfg);
    row_cells(out, v, s);
    num(out, b->gflops);
    num(out, derive_pct_ref(r, v, s));
    num(out, derive_pct_peak(r, v, s));
    num(out, derive_step(r, v, s));
    str(out, p && !registry_is_reference(v) ? p->name : NULL);
    num(out, derive_intensity(v, b));
    num(out, 100.0 * derive_rel_stddev(b));
    fprintf(out, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d", b->tile, b->wpt, b->opt_level, b->block_rows,
            b->block_cols, b->thread_rows, b->thread_cols);
    str(out, cfg);
    num(out, derive_pct_ref_ci95(r, v, s));
    num(out, b->clock_mhz_mean);
    num(out, b->samples > 0 && b->telemetry[0] && strcmp(b->telemetry, "unavailable")
                 ? 100.0 * b->throttled_samples / b->samples
                 : NAN);
    fputc('\n', out);
}

static void view_ladder(FILE *out, const struct run *r)
{
    row_head(out);
    fputs("\tgflops\tpct_ref\tpct_peak\tstep\tstep_from\tintensity\trel_stddev_pct\ttile\twpt"
          "\topt_level\tblock_rows\tblock_cols\tthread_rows\tthread_cols\tconfig"
          "\tpct_ref_ci95\tclock_mhz\tthrottled_pct\n", out);
    each_best(r, ladder_row, out);
}

/* configs: every ordinary row, with whether it is its rung's best there; in
 * ladder order, then by configuration (opt_level, tile, wpt, geometry), then
 * shape (shape_before), so that one configuration's sizes are adjacent rows */
static int config_before(const struct result_row *a, const struct result_row *b)
{
    const int ka[] = {a->opt_level, a->tile, a->wpt, a->split, a->block_rows, a->block_cols,
                      a->thread_rows, a->thread_cols},
              kb[] = {b->opt_level, b->tile, b->wpt, b->split, b->block_rows, b->block_cols,
                      b->thread_rows, b->thread_cols};
    for (size_t i = 0; i < sizeof ka / sizeof ka[0]; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i];
    return shape_before(shape_of(a), shape_of(b));
}

/* config_before as qsort's order; rows it does not order stay in file order. */
static int by_config(const void *a, const void *b)
{
    const struct result_row *x = *(const struct result_row *const *)a;
    const struct result_row *y = *(const struct result_row *const *)b;
    if (config_before(x, y)) return -1;
    if (config_before(y, x)) return 1;
    return (x > y) - (x < y);
}

static void view_configs(FILE *out, const struct run *r)
{
    row_head(out);
    fputs("\ttile\twpt\topt_level\tblock_rows\tblock_cols\tthread_rows\tthread_cols\tgflops"
          "\tintensity\tcompulsory_intensity\tbest\trel_stddev_pct\tsamples\tconfig"
          "\tshape_rank\n", out);
    struct shapes t = {NULL, 0, 0, by_shape_before};
    for (size_t i = 0; i < r->f.n_rows; i++)
        if (ordinary(&r->f.rows[i]) && registry_find(r->f.rows[i].variant))
            shapes_add(&t, shape_of(&r->f.rows[i]));
    shapes_sort(&t);
    const struct result_row **rows = malloc((r->f.n_rows + 1) * sizeof *rows);
    if (!rows) return;
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        size_t n = 0;
        for (size_t i = 0; i < r->f.n_rows; i++) {   /* this rung's rows */
            const struct result_row *row = &r->f.rows[i];
            if (ordinary(row) && !strcmp(row->variant, v->name)) rows[n++] = row;
        }
        qsort(rows, n, sizeof *rows, by_config);
        for (size_t i = 0; i < n; i++) {
            const struct result_row *row = rows[i];
            char cfg[96];
            derive_config_label(v, row, cfg, sizeof cfg);
            row_cells(out, v, shape_of(row));
            fprintf(out, "\t%d\t%d\t%d\t%d\t%d\t%d\t%d", row->tile, row->wpt, row->opt_level,
                    row->block_rows, row->block_cols, row->thread_rows, row->thread_cols);
            num(out, row->gflops);
            num(out, derive_intensity(v, row));
            num(out, derive_compulsory_intensity(shape_of(row)));
            fprintf(out, "\t%d", derive_best(r, v, shape_of(row)) == row);
            num(out, 100.0 * derive_rel_stddev(row));
            fprintf(out, "\t%d", row->samples);
            str(out, cfg);
            fprintf(out, "\t%d", shape_rank(&t, shape_of(row)));
            fputc('\n', out);
        }
    }
    free(rows);
    free(t.s);
}

/* speedup: at the largest square size host_naive ran at, each rung's best and
 * its speedup over host_naive's best there */
static void view_speedup(FILE *out, const struct run *r)
{
    const struct variant *base = registry_find("host_naive");
    int sizes[64];
    size_t n = derive_squares(r, DEV_HOST, sizes, 64);
    int nh = 0;
    for (size_t i = 0; i < n; i++)
        if (derive_best(r, base, (struct shape){sizes[i], sizes[i], sizes[i]})) nh = sizes[i];
    row_head(out);
    fputs("\tgflops\tspeedup\tconfig\tbaseline\n", out);
    if (!nh) return;
    const struct shape s = {nh, nh, nh};
    const double b = derive_gflops(r, base, s);
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        const struct result_row *row = derive_best(r, v, s);
        if (!row) continue;
        char cfg[96];
        derive_config_label(v, row, cfg, sizeof cfg);
        row_cells(out, v, s);
        num(out, row->gflops);
        num(out, row->gflops / b);
        str(out, cfg);
        str(out, base->name);
        fputc('\n', out);
    }
}

/* 1: a power or thermal clock-event reason was seen during the sample (0 too
 * when its reasons were not recorded: files of schema < 6, no telemetry). */
static int sample_throttled(const struct sample_row *sm)
{
    return ((unsigned long long)(uint32_t)sm->reasons & TELEMETRY_THROTTLE_REASONS) != 0;
}

/* samples: every sample of each rung's best row at square size n (the arg, or
 * 4096 when the run has it, else its largest GPU square size) */
static void view_samples(FILE *out, const struct run *r, const char *arg)
{
    int n = arg ? atoi(arg) : 0;
    if (n <= 0) {
        int sizes[64];
        size_t k = derive_squares(r, DEV_GPU, sizes, 64);
        if (k == 0) k = derive_squares(r, -1, sizes, 64);
        n = k ? sizes[k - 1] : 0;
        for (size_t i = 0; i < k; i++)
            if (sizes[i] == 4096) n = 4096;
    }
    row_head(out);
    fputs("\tx\tsample\ttime_ms\tdev_pct\tmedian_ms\tstop_rule\tsamples\tconfig\tclock_mhz"
          "\tthrottled\tthrottled_samples\n", out);
    const struct shape s = {n, n, n};
    int x = 0;
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        const struct result_row *row = derive_best(r, v, s);
        if (!row) continue;
        const int32_t index = (int32_t)(row - r->f.rows);
        char cfg[96];
        derive_config_label(v, row, cfg, sizeof cfg);
        for (size_t i = 0; i < r->f.n_samples; i++) {
            const struct sample_row *sm = &r->f.samples[i];
            if (sm->row != index) continue;
            row_cells(out, v, s);
            fprintf(out, "\t%d\t%d", x, sm->sample);
            num(out, sm->time_ms);
            num(out, 100.0 * (sm->time_ms / row->time_ms_median - 1.0));
            num(out, row->time_ms_median);
            str(out, row->stop_rule);
            fprintf(out, "\t%d", row->samples);
            str(out, cfg);
            num(out, sm->clock_mhz);
            fprintf(out, "\t%d\t%d", sample_throttled(sm), row->throttled_samples);
            fputc('\n', out);
        }
        x++;
    }
}

/* telemetry: every sample of the run's passed GPU rows that recorded NVML
 * telemetry (schema 6), by the time it ended (t_s, seconds since the run
 * began; then by row and sample), with the mean SM clock and power over it and
 * whether a power or thermal reason held the clock; only the header when the
 * run has none (older files, runs without NVML) */
static int has_telemetry(const struct run *r, const struct sample_row *sm)
{
    if (sm->row < 0 || (size_t)sm->row >= r->f.n_rows) return 0;
    const struct result_row *row = &r->f.rows[sm->row];
    const struct variant *v = registry_find(row->variant);
    return v && v->device == DEV_GPU && !strcmp(row->disposition, "passed") &&
           !strcmp(row->telemetry, "nvml") && isfinite(sm->t_s) && isfinite(sm->clock_mhz);
}

static int cmp_sample_time(const void *a, const void *b)
{
    const struct sample_row *x = *(const struct sample_row *const *)a,
                            *y = *(const struct sample_row *const *)b;
    if (x->t_s != y->t_s) return x->t_s < y->t_s ? -1 : 1;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->sample > y->sample) - (x->sample < y->sample);
}

static void view_telemetry(FILE *out, const struct run *r)
{
    row_head(out);
    fputs("\tsweep\thost_memory\trow\tsample\tt_s\ttime_ms\tclock_mhz\tpower_w\treasons"
          "\tthrottled\n", out);
    const struct sample_row **s = malloc((r->f.n_samples + 1) * sizeof *s);
    if (!s) return;
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_samples; i++)
        if (has_telemetry(r, &r->f.samples[i])) s[n++] = &r->f.samples[i];
    qsort(s, n, sizeof *s, cmp_sample_time);
    for (size_t i = 0; i < n; i++) {
        const struct result_row *row = &r->f.rows[s[i]->row];
        row_cells(out, registry_find(row->variant), shape_of(row));
        str(out, row->sweep);
        str(out, row->host_memory);
        fprintf(out, "\t%d\t%d", s[i]->row, s[i]->sample);
        num(out, s[i]->t_s);
        num(out, s[i]->time_ms);
        num(out, s[i]->clock_mhz);
        num(out, s[i]->power_w);
        fprintf(out, "\t%d\t%d", s[i]->reasons, sample_throttled(s[i]));
        fputc('\n', out);
    }
    free(s);
}

/* transfers: transfer points, their copies and kernel */
static void view_transfers(FILE *out, const struct run *r)
{
    row_head(out);
    fputs("\thost_memory\th2d_ms\tkernel_ms\td2h_ms\ttotal_ms\n", out);
    for (size_t k = 0; k < registry_count(); k++)
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            if (strcmp(row->variant, registry_at(k)->name) || !row->host_memory[0] ||
                strcmp(row->disposition, "passed"))
                continue;
            row_cells(out, registry_at(k), shape_of(row));
            str(out, row->host_memory);
            num(out, row->h2d_ms_median);
            num(out, row->time_ms_median);
            num(out, row->d2h_ms_median);
            num(out, row->h2d_ms_median + row->time_ms_median + row->d2h_ms_median);
            fputc('\n', out);
        }
}

/* The points of both precisions of a run's suite (derive_suite), and its
 * shapes in the suite's order (shape_rank: the x position figure 12 gives a
 * shape); 0, or -1 out of memory */
struct suite {
    struct suite_point *pt[2];
    size_t n[2];
    struct shapes t;
};

static int suite_open(const struct run *r, struct suite *su)
{
    su->t = (struct shapes){NULL, 0, 0, by_suite_before};
    for (int p = PREC_FP32; p <= PREC_TF32; p++) {
        su->n[p] = 0;
        su->pt[p] = malloc(derive_suite_room(r) * sizeof *su->pt[p]);
    }
    if (!su->pt[0] || !su->pt[1]) return -1;
    for (int p = PREC_FP32; p <= PREC_TF32; p++) {
        su->n[p] = derive_suite(r, (enum precision)p, su->pt[p], derive_suite_room(r));
        for (size_t i = 0; i < su->n[p]; i++) shapes_add(&su->t, su->pt[p][i].s);
    }
    shapes_sort(&su->t);
    return 0;
}

static void suite_close(struct suite *su) { free(su->pt[0]), free(su->pt[1]), free(su->t.s); }

/* shapes: at each shape of the suite, every GPU rung's best that is measured
 * against a reference (hand-written rungs and dispatch rows), with its class,
 * whether it is the fastest hand-written rung of its precision there, and its
 * decomposition (tiles of C, waves, K per block); in ladder order, then the
 * suite's order */
static void view_shapes(FILE *out, const struct run *r)
{
    struct suite su;
    const int ok = suite_open(r, &su) == 0;
    row_head(out);
    fputs("\tshape_rank\tclass\tclass_rank\tgflops\tpct_ref\tpct_ref_ci95\tbest\tdispatch\tconfig"
          "\ttiles\twaves\tk_splits\tk_per_block\tblocks_per_sm\tgrid_blocks\n", out);
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        if (v->device != DEV_GPU || !v->reference || !ok) continue;
        for (size_t j = 0; j < su.t.n; j++) {
            const struct shape sh = su.t.s[j];
            const struct result_row *b = derive_best(r, v, sh);
            const struct suite_point *q = NULL;
            for (size_t i = 0; i < su.n[v->precision]; i++)
                if (same_shape(su.pt[v->precision][i].s, sh)) q = &su.pt[v->precision][i];
            if (!b || !q) continue;
            char cfg[96];
            derive_config_label(v, b, cfg, sizeof cfg);
            row_cells(out, v, sh);
            fprintf(out, "\t%d", (int)j + 1);
            str(out, shape_class_name(q->cls));
            fprintf(out, "\t%d", (int)q->cls + 1);
            num(out, b->gflops);
            num(out, derive_pct_ref(r, v, sh));
            num(out, derive_pct_ref_ci95(r, v, sh));
            fprintf(out, "\t%d\t%d", q->best == v, v->dispatch);
            str(out, cfg);
            num(out, derive_tiles(b));
            num(out, derive_waves(r, b));
            fprintf(out, "\t%d", b->k_splits);
            num(out, derive_k_per_block(b));
            fprintf(out, "\t%d\t%d\n", b->blocks_per_sm, b->grid_blocks);
        }
    }
    suite_close(&su);
}

/* suite: one row per (precision, shape) of the suite: the fastest hand-written
 * rung there and its decomposition, the dispatch row, and the reference */
static void view_suite(FILE *out, const struct run *r)
{
    struct suite su;
    const int ok = suite_open(r, &su) == 0;
    fputs("precision\tM\tN\tK\tshape\tshape_rank\tclass\tbest_number\tbest_rung\tbest_config"
          "\tbest_gflops\tbest_pct_ref\tbest_pct_ref_ci95\tdispatch_config\tdispatch_pct_ref"
          "\tdispatch_over_best\tref_gflops\ttiles\ttiles_per_sm\twaves\tk_splits\tk_per_block"
          "\tblocks_per_sm\n", out);
    for (int p = PREC_FP32; p <= PREC_TF32 && ok; p++) {
        for (size_t i = 0; i < su.n[p]; i++) {
            const struct suite_point *q = &su.pt[p][i];
            char label[48], cfg[96], dcfg[96] = "";
            shape_label(q->s, label, sizeof label);
            derive_config_label(q->best, q->best_row, cfg, sizeof cfg);
            if (q->dispatch) derive_config_label(q->dispatch, q->dispatch_row, dcfg, sizeof dcfg);
            fputs(p == PREC_TF32 ? "tf32" : "fp32", out);
            fprintf(out, "\t%d\t%d\t%d", q->s.M, q->s.N, q->s.K);
            str(out, label);
            fprintf(out, "\t%d", shape_rank(&su.t, q->s));
            str(out, shape_class_name(q->cls));
            fprintf(out, "\t%d", registry_number(q->best));
            str(out, q->best->name);
            str(out, cfg);
            num(out, q->best_row->gflops);
            num(out, q->best_pct);
            num(out, q->best_ci95);
            str(out, dcfg);
            num(out, q->dispatch_pct);
            num(out, q->dispatch_row ? q->dispatch_row->gflops / q->best_row->gflops : NAN);
            num(out, q->ref_row->gflops);
            num(out, derive_tiles(q->best_row));
            num(out, derive_tiles(q->best_row) / r->sms);
            num(out, derive_waves(r, q->best_row));
            fprintf(out, "\t%d", q->best_row->k_splits);
            num(out, derive_k_per_block(q->best_row));
            fprintf(out, "\t%d\n", q->best_row->blocks_per_sm);
        }
    }
    suite_close(&su);
}

/* corpus: one row per (precision, shape) of a corpus run (derive_corpus): its
 * class, the fastest rung at least as precise and its % of cuBLAS at the
 * precision, the dispatch row's, and the bytes the product must move (A and B
 * read, C written once) over the best row's time against the run's measured
 * copy bandwidth.  Then corpus-classes: per precision and class (and `all`),
 * the shapes, the geometric mean and the lowest of both %s, and the share of
 * shapes where the fastest rung reaches 90% of cuBLAS. */
static void view_corpus(FILE *out, const struct run *r)
{
    struct suite_point *pt = malloc(derive_suite_room(r) * sizeof *pt);
    fputs("precision\tM\tN\tK\tshape\tclass\tbest_number\tbest_rung\tbest_config\tbest_pct_ref"
          "\tdispatch_config\tdispatch_pct_ref\tref_gflops\tbytes\tbest_tbs\tbest_copy_share\n", out);
    for (int p = PREC_FP32; p <= PREC_TF32 && pt; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, derive_suite_room(r));
        for (size_t i = 0; i < n; i++) {
            const struct suite_point *q = &pt[i];
            char label[48], cfg[96], dcfg[96] = "";
            shape_label(q->s, label, sizeof label);
            derive_config_label(q->best, q->best_row, cfg, sizeof cfg);
            if (q->dispatch) derive_config_label(q->dispatch, q->dispatch_row, dcfg, sizeof dcfg);
            const double bytes = 4.0 * ((double)q->s.M * q->s.K + (double)q->s.K * q->s.N +
                                        (double)q->s.M * q->s.N);
            const double tbs = bytes / (q->best_row->time_ms_median * 1e-3) / 1e12;
            fputs(p == PREC_TF32 ? "tf32" : "fp32", out);
            fprintf(out, "\t%d\t%d\t%d", q->s.M, q->s.N, q->s.K);
            str(out, label);
            str(out, corpus_class_name(q->corpus));
            fprintf(out, "\t%d", registry_number(q->best));
            str(out, q->best->name);
            str(out, cfg);
            num(out, q->best_pct);
            str(out, dcfg);
            num(out, q->dispatch_pct);
            num(out, q->ref_row->gflops);
            num(out, bytes);
            num(out, tbs);
            num(out, r->copy_gbs > 0 ? tbs * 1e3 / r->copy_gbs : NAN);
            fputc('\n', out);
        }
    }
    free(pt);
}

void derive_corpus_summary(const struct suite_point *pt, size_t n, int cls,
                           struct corpus_summary *out)
{
    size_t m = 0, at90 = 0;
    double lb = 0, ld = 0, minb = INFINITY, mind = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (cls < CC_COUNT && pt[i].corpus != (enum corpus_class)cls) continue;
        m++;
        lb += log(pt[i].best_pct), ld += log(pt[i].dispatch_pct);   /* NaN without one */
        minb = fmin(minb, pt[i].best_pct), mind = fmin(mind, pt[i].dispatch_pct);
        at90 += pt[i].best_pct >= 90.0;
    }
    *out = (struct corpus_summary){m, NAN, NAN, NAN, NAN, NAN};
    if (!m) return;
    out->best_geomean = exp(lb / (double)m), out->best_min = minb;
    out->dispatch_geomean = exp(ld / (double)m), out->dispatch_min = mind;
    out->best_share_90 = 100.0 * (double)at90 / (double)m;
}

static void view_corpus_classes(FILE *out, const struct run *r)
{
    struct suite_point *pt = malloc(derive_suite_room(r) * sizeof *pt);
    fputs("precision\tclass\tshapes\tbest_geomean\tbest_min\tdispatch_geomean\tdispatch_min"
          "\tbest_share_90\n", out);
    for (int p = PREC_FP32; p <= PREC_TF32 && pt; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, derive_suite_room(r));
        for (int c = 0; c <= CC_COUNT; c++) {   /* CC_COUNT: all of them */
            struct corpus_summary su;
            derive_corpus_summary(pt, n, c, &su);
            if (!su.shapes) continue;
            fputs(p == PREC_TF32 ? "tf32" : "fp32", out);
            str(out, c < CC_COUNT ? corpus_class_name((enum corpus_class)c) : "all");
            fprintf(out, "\t%zu", su.shapes);
            num(out, su.best_geomean);
            num(out, su.best_min);
            num(out, su.dispatch_geomean);
            num(out, su.dispatch_min);
            num(out, su.best_share_90);
            fputc('\n', out);
        }
    }
    free(pt);
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* corpus-cdf: the distribution of a corpus run's % of cuBLAS, per precision,
 * for the fastest rung (best) and the dispatch row: each shape's %, in rising
 * order, with the share of shapes at or below it (an empirical CDF). */
static void view_corpus_cdf(FILE *out, const struct run *r)
{
    const size_t room = derive_suite_room(r);
    struct suite_point *pt = malloc(room * sizeof *pt);
    double *v = malloc(room * sizeof *v);
    fputs("precision\tseries\trank\tshare\tpct_ref\n", out);
    for (int p = PREC_FP32; p <= PREC_TF32 && pt && v; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, room);
        for (int d = 0; d < 2; d++) {
            size_t m = 0;
            for (size_t i = 0; i < n; i++) {
                const double x = d ? pt[i].dispatch_pct : pt[i].best_pct;
                if (isfinite(x)) v[m++] = x;
            }
            qsort(v, m, sizeof *v, by_double);
            for (size_t i = 0; i < m; i++) {
                fputs(p == PREC_TF32 ? "tf32" : "fp32", out);
                str(out, d ? "dispatch" : "best");
                fprintf(out, "\t%zu", i + 1);
                num(out, (double)(i + 1) / (double)m);
                num(out, v[i]);
                fputc('\n', out);
            }
        }
    }
    free(pt);
    free(v);
}

/* compare: each (rung, shape, host memory) of the first run that the second
 * has too: both bests and their ratio; in ladder order, then shape
 * (shape_before), then host memory */
static int pair_before(const struct pair *x, const struct pair *y)
{
    const int kx = registry_number(x->v), ky = registry_number(y->v);
    if (kx != ky) return kx < ky;
    if (!same_shape(x->s, y->s)) return shape_before(x->s, y->s);
    return strcmp(x->memory, y->memory) < 0;
}

static void view_compare(FILE *out, const struct run *a, const struct run *b)
{
    struct pair *p;
    size_t n = derive_pairs(a, b, &p);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && pair_before(&p[j], &p[j - 1]); j--) {
            struct pair t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    row_head(out);
    fputs("\thost_memory\tgflops\tgflops_ref\tratio\tconfig\tconfig_ref\tshape_rank\n", out);
    struct shapes t = {NULL, 0, 0, by_shape_before};
    for (size_t i = 0; i < n; i++) shapes_add(&t, p[i].s);
    shapes_sort(&t);
    for (size_t i = 0; i < n; i++) {
        char c1[96], c2[96];
        derive_config_label(p[i].v, p[i].a, c1, sizeof c1);
        derive_config_label(p[i].v, p[i].b, c2, sizeof c2);
        row_cells(out, p[i].v, p[i].s);
        str(out, p[i].memory);
        num(out, p[i].a->gflops);
        num(out, p[i].b->gflops);
        num(out, p[i].ratio);
        str(out, c1);
        str(out, c2);
        fprintf(out, "\t%d", shape_rank(&t, p[i].s));
        fputc('\n', out);
    }
    free(p);
    free(t.s);
}

int derive_table(FILE *out, const char *view, const struct run *runs, size_t nruns,
                 const char *arg, char *err, size_t errlen)
{
    static const char *const known[] = {"rungs",     "runs",      "ladder", "configs",
                                        "speedup",   "samples",   "telemetry", "transfers",
                                        "shapes",    "suite",     "corpus", "corpus-classes",
                                        "corpus-cdf", "estimates", "compare"};
    size_t k = 0;
    while (k < sizeof known / sizeof known[0] && strcmp(known[k], view)) k++;
    if (k == sizeof known / sizeof known[0]) {
        snprintf(err, errlen, "unknown view '%s' (expected one of: %s)", view, DERIVE_VIEWS);
        return -1;
    }
    const char *want = !strcmp(view, "rungs")     ? (nruns == 0 ? NULL : "no results file")
                       : !strcmp(view, "runs")    ? (nruns >= 1 ? NULL : "results files")
                       : !strcmp(view, "compare") ? (nruns == 2 ? NULL : "two results files")
                                                  : (nruns == 1 ? NULL : "one results file");
    if (want) {
        snprintf(err, errlen, "view '%s' takes %s (given %zu)", view, want, nruns);
        return -1;
    }
    if (!strcmp(view, "rungs")) view_rungs(out);
    else if (!strcmp(view, "runs")) view_runs(out, runs, nruns);
    else if (!strcmp(view, "ladder")) view_ladder(out, &runs[0]);
    else if (!strcmp(view, "configs")) view_configs(out, &runs[0]);
    else if (!strcmp(view, "speedup")) view_speedup(out, &runs[0]);
    else if (!strcmp(view, "samples")) view_samples(out, &runs[0], arg);
    else if (!strcmp(view, "telemetry")) view_telemetry(out, &runs[0]);
    else if (!strcmp(view, "transfers")) view_transfers(out, &runs[0]);
    else if (!strcmp(view, "shapes")) view_shapes(out, &runs[0]);
    else if (!strcmp(view, "suite")) view_suite(out, &runs[0]);
    else if (!strcmp(view, "corpus")) view_corpus(out, &runs[0]);
    else if (!strcmp(view, "corpus-classes")) view_corpus_classes(out, &runs[0]);
    else if (!strcmp(view, "corpus-cdf")) view_corpus_cdf(out, &runs[0]);
    else if (!strcmp(view, "estimates")) estimates_view(out, &runs[0]);
    else view_compare(out, &runs[0], &runs[1]);
    return 0;
}
