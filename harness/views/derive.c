/* Derived views of results files (derive.h): runs.  Loading a results file
 * under a role, the root attributes a view reads, the index of its rows by
 * group, and the geometry old rows get from their kernel files.  The other
 * pieces of derive, and what they share, are listed in derive_parts.h. */
#include "derive.h"
#include "derive_parts.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void take_attr(struct run *r, const char *name, const char *value)
{
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
    else if (!strcmp(name, "merge_differs")) snprintf(r->differs, sizeof r->differs, "%s", value[0] ? value : "none");
    else if (!strcmp(name, "merged_shards")) r->merged = 1;
    else if (!strcmp(name, "gpu_serial")) snprintf(r->gpu_serial, sizeof r->gpu_serial, "%s", value);
    else if (!strcmp(name, "experiment_name")) snprintf(r->experiment, sizeof r->experiment, "%s", value);
    else if (!strcmp(name, "gpu_kernel_timer")) r->kernel_timer = !strncmp(value, "cupti", 5);
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

const char *derive_file_name(const struct run *r)
{
    const char *slash = strrchr(r->path, '/');
    return slash ? slash + 1 : r->path;
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

/* r made ready for role and path, or -1 with err when the role is not one. */
static int open_role(struct run *r, const char *role, const char *path, char *err, size_t errlen)
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
    return 0;
}

/* r's file, read, made its run: attributes, upgrade, index; on failure r->f is freed. */
static int adopt(struct run *r, char *err, size_t errlen)
{
    if (r->f.attrs_why[0]) {
        snprintf(err, errlen, "%s: %s", r->path, r->f.attrs_why);
        results_file_free(&r->f);
        return -1;
    }
    for (size_t i = 0; i < r->f.n_attrs; i++) take_attr(r, r->f.attrs[i].name, r->f.attrs[i].value);
    derive_upgrade(&r->f);
    if (derive_index(r) != 0) {
        snprintf(err, errlen, "%s: out of memory for an index of %zu rows", r->path, r->f.n_rows);
        results_file_free(&r->f);
        return -1;
    }
    return 0;
}

int derive_open(struct run *r, const char *role, const char *path, char *err, size_t errlen)
{
    return derive_open_all(r, &role, &path, 1, err, errlen);
}

int derive_open_all(struct run *runs, const char *const *roles, const char *const *paths, size_t n,
                    char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        if (open_role(&runs[i], roles[i], paths[i], err, errlen) != 0) return -1;
    struct results_file *f = calloc(n ? n : 1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "out of memory for %zu runs", n);
        return -1;
    }
    if (results_read_all(paths, f, n, err, errlen) != 0) {   /* their readers run together */
        free(f);
        return -1;
    }
    for (size_t i = 0; i < n; i++) runs[i].f = f[i];
    free(f);
    for (size_t i = 0; i < n; i++)
        if (adopt(&runs[i], err, errlen) != 0) {
            for (size_t j = 0; j < i; j++) derive_close(&runs[j]);
            for (size_t j = i + 1; j < n; j++) results_file_free(&runs[j].f);
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

int derive_sort_groups(const struct result_row *rows, size_t n, const struct result_row **by)
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
    const size_t n = r->f.n_rows;
    const struct result_row **by = malloc((n + 1) * sizeof *by);
    struct rung_span *sp = malloc((n + 1) * sizeof *sp);   /* at most one a row */
    if (!by || !sp || derive_sort_groups(r->f.rows, n, by) != 0) {
        free(by), free(sp);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(by[i]->variant, by[i - 1]->variant)) {
            if (k) sp[k - 1].hi = i;
            sp[k++] = (struct rung_span){by[i]->variant, i, n};
        }
    }
    r->by_group = by;
    r->spans = sp;
    r->n_spans = k;
    return 0;
}

void derive_unindex(struct run *r)
{
    free(r->by_group);
    free(r->spans);
    r->by_group = NULL;
    r->spans = NULL;
    r->n_spans = 0;
}

struct rung_span derive_rung_rows(const struct run *r, const char *name)
{
    size_t lo = 0, hi = r->n_spans;   /* the first span whose name is not before name */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (strncmp(r->spans[mid].name, name, sizeof r->f.rows[0].variant) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < r->n_spans && !strncmp(r->spans[lo].name, name, sizeof r->f.rows[0].variant))
        return r->spans[lo];
    const size_t at = lo < r->n_spans ? r->spans[lo].lo : r->f.n_rows;
    return (struct rung_span){name, at, at};
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
