/* Derived views of results files (derive.h): the views of each rung's rows.
 * ladder (each rung's best at each shape, with what it is measured against),
 * configs (every ordinary row and whether it is its rung's best), speedup
 * (over host_naive) and transfers (transfer points: copies and kernel). */
#include "derive.h"
#include "derive_parts.h"
#include "estimates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each (rung, shape) of a run's ordinary rows once, in ladder order, then the
 * square sizes ascending, then the other shapes by FLOP count (so that a rung's
 * squares are adjacent rows, one line in a figure); f(row of the group's best)
 * is called for each. */
static void each_best(const struct run *r, void (*f)(FILE *, const struct run *,
                                                      const struct variant *, struct shape),
                      FILE *out)
{
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        struct shapes t = {NULL, 0, 0, by_shape_before};   /* squares by n, then the others */
        const struct row_span c = derive_rows_of_rung(r, v->name);
        for (size_t i = 0; i < c.n; i++) {
            const struct result_row *row = row_span_at(&c, i);
            if (ordinary(row) && !strcmp(row->variant, v->name)) shapes_add(&t, shape_of(row));
        }
        shapes_sort(&t);
        for (size_t j = 0; j < t.n; j++) f(out, r, v, t.s[j]);
        free(t.s);
    }
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
    num(out, estimates_pct_ref(r, v, s));
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

void view_ladder(FILE *out, const struct run *r)
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

void view_configs(FILE *out, const struct run *r)
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
        const struct row_span c = derive_rows_of_rung(r, v->name);
        for (size_t i = 0; i < c.n; i++) {   /* this rung's rows, in any order: sorted below */
            const struct result_row *row = row_span_at(&c, i);
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
void view_speedup(FILE *out, const struct run *r)
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

/* transfers: transfer points, their copies and kernel */
void view_transfers(FILE *out, const struct run *r)
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
