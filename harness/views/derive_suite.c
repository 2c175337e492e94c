/* Derived views of results files (derive.h): the shape suite.  The suite's
 * points (the fastest hand-written rung of a precision at each
 * shape, the dispatch row, the reference) and their geometric mean, and the
 * shapes and suite views (a shape's class is derive_order.c's). */
#include "derive.h"
#include "derive_parts.h"
#include "estimates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the shape suite ----------------------------------------------------------- */

int derive_hand_written(const struct variant *v, enum precision p)
{
    return v->device == DEV_GPU && v->precision == p && !registry_is_reference(v) &&
           !v->dispatch && v->reference;
}

void derive_best_and_dispatch(const struct run *r, enum precision p,
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

void derive_shapes_of(const struct run *r, enum precision p,
                      int (*takes)(const struct variant *, enum precision), struct shapes *t)
{
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        const struct variant *v = registry_find(row->variant);
        if (ordinary(row) && v && takes(v, p)) shapes_add(t, shape_of(row));
    }
    shapes_sort(t);
}

size_t derive_suite(const struct run *r, enum precision p, struct suite_point *out, size_t max)
{
    struct shapes t = {NULL, 0, 0, by_suite_before};
    derive_shapes_of(r, p, derive_hand_written, &t);
    size_t n = 0;
    for (size_t j = 0; j < t.n && n < max; j++) {
        const struct shape s = t.s[j];
        struct suite_point pt = {.s = s, .cls = shape_class_of(s), .dispatch_pct = NAN,
                                 .best_pct_kernel = NAN, .dispatch_pct_kernel = NAN};
        derive_best_and_dispatch(r, p, derive_hand_written, &pt);
        pt.ref = pt.best->reference ? registry_find(pt.best->reference) : NULL;
        pt.ref_row = pt.ref ? derive_best(r, pt.ref, s) : NULL;
        if (!pt.ref_row) continue;   /* nothing to measure it against */
        pt.best_pct = estimates_pct_ref(r, pt.best, s);
        pt.best_ci95 = derive_pct_ref_ci95(r, pt.best, s);
        if (pt.dispatch) pt.dispatch_pct = estimates_pct_ref(r, pt.dispatch, s);
        out[n++] = pt;   /* in the suite's order, as t is */
    }
    free(t.s);
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

/* ---- the shapes and suite views --------------------------------------------------- */

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

/* The point of shape s among n in the suite's order (derive_suite), or NULL */
static const struct suite_point *suite_point_at(const struct suite_point *pt, size_t n,
                                                struct shape s)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = by_suite_before(&s, &pt[mid].s);
        if (c == 0) return &pt[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

/* shapes: at each shape of the suite, every GPU rung's best that is measured
 * against a reference (hand-written rungs and dispatch rows), with its class,
 * whether it is the fastest hand-written rung of its precision there, and its
 * decomposition (tiles of C, waves, K per block); in ladder order, then the
 * suite's order */
void view_shapes(FILE *out, const struct run *r)
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
            const struct suite_point *q = suite_point_at(su.pt[v->precision], su.n[v->precision], sh);
            if (!b || !q) continue;
            char cfg[96];
            derive_config_label(v, b, cfg, sizeof cfg);
            row_cells(out, v, sh);
            fprintf(out, "\t%d", (int)j + 1);
            str(out, shape_class_name(q->cls));
            fprintf(out, "\t%d", (int)q->cls + 1);
            num(out, b->gflops);
            num(out, estimates_pct_ref(r, v, sh));
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
void view_suite(FILE *out, const struct run *r)
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
