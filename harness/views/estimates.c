/* The three estimates of a % of the reference: see estimates.h. */
#include "estimates.h"

#include <math.h>
#include <string.h>

#include "core/core.h"

static int passed_row(const struct result_row *row)
{
    return !strcmp(row->disposition, "passed") && row->host_memory[0] == '\0';
}

static int same_shape(const struct result_row *a, const struct result_row *b)
{
    return a->M == b->M && a->N == b->N && a->K == b->K;
}

/* The reference's own row at the shape of `row` (sampled alone: no pairs). */
static const struct result_row *reference_row(const struct run *r, const struct result_row *row)
{
    const struct row_span c = derive_rows_of(r, row->paired_with, (struct shape){row->M, row->N, row->K});
    for (size_t i = 0; i < c.n; i++) {
        const struct result_row *x = row_span_at(&c, i);
        if (passed_row(x) && !x->pairs && same_shape(x, row) && !strcmp(x->variant, row->paired_with))
            return x;
    }
    return NULL;
}

/* The rung's own row of the same configuration and shape (pairing = none). */
static const struct result_row *alone_row(const struct run *r, const struct result_row *row)
{
    const struct row_span c = derive_rows_of(r, row->variant, (struct shape){row->M, row->N, row->K});
    for (size_t i = 0; i < c.n; i++) {
        const struct result_row *x = row_span_at(&c, i);
        if (passed_row(x) && !x->pairs && same_shape(x, row) && !strcmp(x->variant, row->variant) &&
            x->tile == row->tile && x->wpt == row->wpt && x->split == row->split)
            return x;
    }
    return NULL;
}

void estimates_of(const struct run *r, const struct result_row *row, struct estimates *e)
{
    *e = (struct estimates){NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN, NULL, NULL};
    if (row->pairs < 2 || !passed_row(row)) return;
    e->paired = 100.0 * row->ref_ratio;
    e->paired_ci95 = 100.0 * row->ref_ratio_ci95;
    e->kernel = row->kernel_ratio > 0 ? 100.0 * row->kernel_ratio : NAN;   /* 0: none */
    e->ref_row = reference_row(r, row);
    e->alone_row = alone_row(r, row);
    e->alone_rows = e->alone_row != NULL;
    const double rung_ms = e->alone_row ? e->alone_row->time_ms_median : row->time_ms_median;
    if (e->ref_row) {
        e->alone = 100.0 * e->ref_row->time_ms_median / rung_ms;
        e->ref_in_pairs = row->ref_ms_median / e->ref_row->time_ms_median;
        e->clock_in_pairs = row->probe_mhz_mean / e->ref_row->probe_mhz_mean;
    }
    double lo = INFINITY, hi = -INFINITY;
    const double v[3] = {e->paired, e->kernel, e->alone};
    for (int i = 0; i < 3; i++)
        if (isfinite(v[i])) lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
    e->spread = hi >= lo ? hi - lo : NAN;
    e->lowest = hi >= lo ? lo : NAN;
}

const struct result_row *estimates_best_paired(const struct run *r, const struct variant *v,
                                               struct shape s)
{
    const struct result_row *b = NULL;
    const struct row_span c = derive_rows_of(r, v->name, s);
    for (size_t i = 0; i < c.n; i++) {
        const struct result_row *x = row_span_at(&c, i);
        if (passed_row(x) && x->pairs > 1 && !strcmp(x->variant, v->name) && x->M == s.M &&
            x->N == s.N && x->K == s.K && (!b || x->gflops > b->gflops))
            b = x;
    }
    return b;
}

double estimates_at(const struct run *r, const struct variant *v, struct shape s,
                    enum estimate_kind kind)
{
    const struct result_row *p = estimates_best_paired(r, v, s);
    struct estimates e;
    if (!p) return NAN;
    estimates_of(r, p, &e);
    switch (kind) {
    case EST_PAIRED: return e.paired;
    case EST_KERNEL: return e.kernel;
    case EST_ALONE: return e.alone;
    case EST_SPREAD: return e.spread;
    case EST_REF_IN_PAIRS: return e.ref_in_pairs;
    case EST_CLOCK_IN_PAIRS: return e.clock_in_pairs;
    case EST_LOWEST: return e.lowest;
    }
    return NAN;
}

static double lower(double a, double b)
{
    return !isfinite(a) ? b : !isfinite(b) ? a : fmin(a, b);
}

double estimates_pct_of_row(const struct run *r, const struct result_row *row,
                            const struct result_row *ref_row)
{
    if (!row || !ref_row || !(row->gflops > 0) || !(ref_row->gflops > 0)) return NAN;
    double pct = 100.0 * row->gflops / ref_row->gflops;
    if (!strcmp(row->paired_with, ref_row->variant)) {   /* paired with this reference */
        struct estimates e;
        estimates_of(r, row, &e);
        pct = lower(pct, e.lowest);
    }
    if (row->pairs < 2 && row->kernel_ms_median > 0 && ref_row->kernel_ms_median > 0)
        pct = lower(pct, 100.0 * ref_row->kernel_ms_median / row->kernel_ms_median);
    return pct;
}

double estimates_pct_ref(const struct run *r, const struct variant *v, struct shape s)
{
    const struct variant *ref = v->reference ? registry_find(v->reference) : NULL;
    if (!ref) return NAN;
    const double ratio = 100.0 * derive_gflops(r, v, s) / derive_gflops(r, ref, s);
    return lower(isfinite(ratio) ? ratio : NAN, estimates_at(r, v, s, EST_LOWEST));
}

void estimates_view(FILE *out, const struct run *r)
{
    derive_row_head(out);
    fputs("\tconfig\trung_ms\tref_ms_pairs\tref_ms_alone\trung_ms_alone\tkernel_ms"
          "\tref_kernel_ms\tpct_paired\tpct_paired_ci95\tpct_kernel\tpct_alone\talone_rows"
          "\tspread\tprobe_mhz\tref_probe_mhz\tref_kernel\n", out);
    for (size_t k = 0; k < registry_count(); k++)
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            struct estimates e;
            if (strcmp(row->variant, registry_at(k)->name)) continue;
            estimates_of(r, row, &e);
            if (!isfinite(e.paired)) continue;
            char label[96];
            derive_config_label(registry_at(k), row, label, sizeof label);
            derive_row_cells(out, registry_at(k),
                             (struct shape){row->M, row->N, row->K});
            derive_cell_str(out, label);
            derive_cell_num(out, row->time_ms_median);
            derive_cell_num(out, row->ref_ms_median);
            derive_cell_num(out, e.ref_row ? e.ref_row->time_ms_median : NAN);
            derive_cell_num(out, e.alone_row ? e.alone_row->time_ms_median : NAN);
            derive_cell_num(out, row->kernel_ms_median);
            derive_cell_num(out, row->ref_kernel_ms_median);
            derive_cell_num(out, e.paired);
            derive_cell_num(out, e.paired_ci95);
            derive_cell_num(out, e.kernel);
            derive_cell_num(out, e.alone);
            fprintf(out, "\t%d", e.alone_rows);
            derive_cell_num(out, e.spread);
            derive_cell_num(out, row->probe_mhz_mean);
            derive_cell_num(out, e.ref_row ? e.ref_row->probe_mhz_mean : NAN);
            derive_cell_str(out, row->ref_kernel_name);
            fputc('\n', out);
        }
}
