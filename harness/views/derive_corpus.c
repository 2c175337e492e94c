/* Derived views of results files (derive.h): the corpora.  A shape's corpus
 * class, a corpus run's points (the fastest rung at least as precise as a
 * precision, the dispatch row, cuBLAS, as standalone %s), their summary per
 * class, and the corpus, corpus-classes and corpus-cdf views. */
#include "derive.h"
#include "derive_parts.h"
#include "estimates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    return name_at(CORPUS_CLASS_NAMES, CC_COUNT, (int)c);
}

int corpus_class_parse(const char *name, enum corpus_class *out)
{
    const int c = name_index(CORPUS_CLASS_NAMES, CC_COUNT, name);
    if (c >= 0) *out = (enum corpus_class)c;
    return c >= 0 ? 0 : -1;
}

/* The corpus's order: class, then FLOP count */
static int corpus_before(struct shape a, struct shape b)
{
    const enum corpus_class ca = corpus_class_of(a), cb = corpus_class_of(b);
    if (ca != cb) return ca < cb;
    return flops_before(a, b);
}

static int by_corpus_before(const void *a, const void *b)
{
    return shape_order(corpus_before, a, b);
}

/* A hand-written rung at least as precise as p */
static int as_precise(const struct variant *v, enum precision p)
{
    return derive_hand_written(v, p) || (p == PREC_TF32 && derive_hand_written(v, PREC_FP32));
}

/* A row's % of the reference row by the second timer: their kernel times per
 * launch (CUPTI's records, summed over a launch's kernels); NaN without them */
static double kernel_pct(const struct result_row *ref, const struct result_row *row)
{
    return ref->kernel_ms_median > 0 && row->kernel_ms_median > 0
               ? 100.0 * ref->kernel_ms_median / row->kernel_ms_median
               : NAN;
}

size_t derive_corpus(const struct run *r, enum precision p, struct suite_point *out, size_t max)
{
    const char *ref_name = p == PREC_TF32 ? "cublas_tf32" : "cublas_fp32";
    const struct variant *ref = registry_find(ref_name);
    struct shapes t = {NULL, 0, 0, by_corpus_before};
    derive_shapes_of(r, p, as_precise, &t);
    size_t n = 0;
    for (size_t j = 0; j < t.n && n < max; j++) {
        const struct shape s = t.s[j];
        struct suite_point pt = {.s = s, .cls = shape_class_of(s), .corpus = corpus_class_of(s),
                                 .dispatch_pct = NAN, .best_ci95 = NAN, .ref = ref,
                                 .best_pct_kernel = NAN, .dispatch_pct_kernel = NAN,
                                 .dispatch_pct_events = NAN};
        pt.ref_row = ref ? derive_best(r, ref, s) : NULL;
        if (!pt.ref_row || !(pt.ref_row->gflops > 0)) continue;   /* nothing to measure it against */
        derive_best_and_dispatch(r, p, as_precise, &pt);
        pt.best_pct_events = 100.0 * pt.best_row->gflops / pt.ref_row->gflops;
        pt.best_pct = estimates_pct_of_row(r, pt.best_row, pt.ref_row);
        if (pt.dispatch_row) {
            pt.dispatch_pct_events = 100.0 * pt.dispatch_row->gflops / pt.ref_row->gflops;
            pt.dispatch_pct = estimates_pct_of_row(r, pt.dispatch_row, pt.ref_row);
        }
        pt.best_pct_kernel = kernel_pct(pt.ref_row, pt.best_row);
        if (pt.dispatch_row) pt.dispatch_pct_kernel = kernel_pct(pt.ref_row, pt.dispatch_row);
        out[n++] = pt;   /* in the corpus's order, as t is */
    }
    free(t.s);
    return n;
}

double corpus_bytes(struct shape s)
{
    return 4.0 * ((double)s.M * s.K + (double)s.K * s.N + (double)s.M * s.N);
}

/* GB/s at which a point's fastest row moves corpus_bytes */
static double best_gbs(const struct suite_point *q)
{
    return corpus_bytes(q->s) / (q->best_row->time_ms_median * 1e-3) / 1e9;
}

double corpus_copy_pct(const struct run *r, const struct suite_point *q)
{
    return r->copy_gbs > 0 ? 100.0 * best_gbs(q) / r->copy_gbs : NAN;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The regret's median, 90th percentile (nearest rank) and share at most 1.1,
 * over the m points of class cls (NaN where one has no dispatch row, or
 * without memory for them). */
static void regret_summary(const struct suite_point *pt, size_t n, int cls, size_t m,
                           struct corpus_summary *out)
{
    double *v = m ? malloc(m * sizeof *v) : NULL;
    size_t k = 0, within = 0;
    for (size_t i = 0; i < n && v; i++) {
        if (cls < CC_COUNT && pt[i].corpus != (enum corpus_class)cls) continue;
        const double x = pt[i].dispatch_row ? pt[i].dispatch_row->time_ms_median / pt[i].best_row->time_ms_median
                                            : NAN;
        if (!isfinite(x)) break;
        v[k++] = x;
        within += x <= 1.1;
    }
    if (v && k == m) {
        qsort(v, k, sizeof *v, by_double);
        out->regret_median = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
        out->regret_p90 = v[(size_t)ceil(0.9 * (double)k) - 1];
        out->dispatch_share_10 = 100.0 * (double)within / (double)k;
    }
    free(v);
}

void derive_corpus_summary(const struct suite_point *pt, size_t n, int cls,
                           struct corpus_summary *out)
{
    size_t m = 0, at90 = 0;
    double lb = 0, ld = 0, lkb = 0, lkd = 0, leb = 0, led = 0, minb = INFINITY, mind = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (cls < CC_COUNT && pt[i].corpus != (enum corpus_class)cls) continue;
        m++;
        lb += log(pt[i].best_pct), ld += log(pt[i].dispatch_pct);   /* NaN without one */
        lkb += log(pt[i].best_pct_kernel), lkd += log(pt[i].dispatch_pct_kernel);
        leb += log(pt[i].best_pct_events), led += log(pt[i].dispatch_pct_events);
        minb = fmin(minb, pt[i].best_pct), mind = fmin(mind, pt[i].dispatch_pct);
        at90 += pt[i].best_pct >= 90.0;
    }
    *out = (struct corpus_summary){m, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    if (!m) return;
    regret_summary(pt, n, cls, m, out);
    out->best_geomean = exp(lb / (double)m), out->best_min = minb;
    out->dispatch_geomean = exp(ld / (double)m), out->dispatch_min = mind;
    out->best_share_90 = 100.0 * (double)at90 / (double)m;
    out->kernel_geomean = exp(lkb / (double)m), out->kernel_dispatch_geomean = exp(lkd / (double)m);
    out->events_geomean = exp(leb / (double)m), out->events_dispatch_geomean = exp(led / (double)m);
}

/* ---- the corpus views ------------------------------------------------------------ */

/* corpus: one row per (precision, shape) of a corpus run (derive_corpus): its
 * class, the fastest rung at least as precise and its % of cuBLAS at the
 * precision, the dispatch row's, and the bytes the product must move (A and B
 * read, C written once) over the best row's time against the run's measured
 * copy bandwidth; for the roofline, the FLOP per byte moved once (intensity)
 * and the fastest row's GFLOP/s.  Then corpus-classes: per precision and
 * class (and `all`), the shapes, the geometric mean and the lowest of both %s,
 * the share of shapes where the fastest rung reaches 90% of cuBLAS, and the
 * dispatch's regret (derive.h: median, 90th percentile, share within 10%).  The
 * corpus view ends with both %s by the second timer ("-" where it was off). */
void view_corpus(FILE *out, const struct run *r)
{
    struct suite_point *pt = malloc(derive_suite_room(r) * sizeof *pt);
    fputs("precision\tM\tN\tK\tshape\tclass\tbest_number\tbest_rung\tbest_config\tbest_pct_ref"
          "\tdispatch_config\tdispatch_pct_ref\tref_gflops\tbytes\tbest_tbs\tbest_copy_share"
          "\tintensity\tbest_gflops\tbest_pct_kernel\tdispatch_pct_kernel\n", out);
    for (int p = PREC_FP32; p <= PREC_TF32 && pt; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, derive_suite_room(r));
        for (size_t i = 0; i < n; i++) {
            const struct suite_point *q = &pt[i];
            char label[48], cfg[96], dcfg[96] = "";
            shape_label(q->s, label, sizeof label);
            derive_config_label(q->best, q->best_row, cfg, sizeof cfg);
            if (q->dispatch) derive_config_label(q->dispatch, q->dispatch_row, dcfg, sizeof dcfg);
            const double bytes = corpus_bytes(q->s);
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
            num(out, best_gbs(q) / 1e3);
            num(out, corpus_copy_pct(r, q) / 100.0);
            num(out, 2.0 * q->s.M * q->s.N * q->s.K / bytes);
            num(out, q->best_row->gflops);
            num(out, q->best_pct_kernel);
            num(out, q->dispatch_pct_kernel);
            fputc('\n', out);
        }
    }
    free(pt);
}

void view_corpus_classes(FILE *out, const struct run *r)
{
    struct suite_point *pt = malloc(derive_suite_room(r) * sizeof *pt);
    fputs("precision\tclass\tshapes\tbest_geomean\tbest_min\tdispatch_geomean\tdispatch_min"
          "\tbest_share_90\tregret_median\tregret_p90\tdispatch_share_10\n", out);
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
            num(out, su.regret_median);
            num(out, su.regret_p90);
            num(out, su.dispatch_share_10);
            fputc('\n', out);
        }
    }
    free(pt);
}

/* corpus-cdf: the distribution of a corpus run's % of cuBLAS, per precision,
 * for the fastest rung (best) and the dispatch row: each shape's %, in rising
 * order, with the share of shapes at or below it (an empirical CDF). */
void view_corpus_cdf(FILE *out, const struct run *r)
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
