/* Derived views of results files (derive.h): shapes, and a rung's best row at
 * a shape with what it is measured against (its reference, the FP32 peak, the
 * rung before it); a row's configuration, global-load model and decomposition;
 * the square sizes a run has. */
#include "derive.h"
#include "derive_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- a rung's best, and what is measured against it ---------------------------- */

/* The first of r->by_group not before (variant, s, host memory ""): within
 * the rung's rows, the first whose shape is not before s ("" is the least
 * host memory), found by comparing integers alone. */
static size_t group_start(const struct run *r, const char *variant, struct shape s)
{
    const struct rung_span sp = derive_rung_rows(r, variant);
    size_t lo = sp.lo, hi = sp.hi;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const struct result_row *x = r->by_group[mid];
        const int before = x->M != s.M ? x->M < s.M : x->N != s.N ? x->N < s.N : x->K < s.K;
        if (before) lo = mid + 1;
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

struct row_span derive_rows_of_rung(const struct run *r, const char *variant)
{
    if (!r->by_group) return (struct row_span){NULL, r->f.rows, r->f.n_rows};
    const struct rung_span sp = derive_rung_rows(r, variant);
    return (struct row_span){r->by_group + sp.lo, NULL, sp.hi - sp.lo};
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

double derive_pct_paired(const struct run *r, const struct variant *v, struct shape s)
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

/* ---- a row's decomposition ------------------------------------------------------ */

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
