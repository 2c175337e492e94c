/* The run loop: see runner.h. */
#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "measure.h"
#include "provenance.h"
#include "report.h"
#include "results.h"
#include "verify.h"

/* Inputs of the current shape on the host, its float64 reference when a host
 * point needs one, and whether the device holds the same shape. */
struct shape_state {
    int M, N, K;
    float *A, *B, *C;
    double *R;
    int host_ref_ready, gpu_ready;
};

struct ctx {
    const struct experiment *e;
    const struct run_options *o;
    struct gpu *g;
    struct shape_state sh;
    double *samples, *h2d, *d2h;   /* per sample: kernel (or host call), copies in and out */
    int samples_cap;
    /* Host buffers of a transfer point (pinned or pageable), for its duration. */
    float *tA, *tB, *tC;
    int t_pinned;
};

static int prepare_shape(struct ctx *c, const struct point *pt, char *why, size_t whylen)
{
    struct shape_state *s = &c->sh;
    if (s->A && s->M == pt->M && s->N == pt->N && s->K == pt->K) return 0;
    free(s->A); free(s->B); free(s->C); free(s->R);
    memset(s, 0, sizeof *s);
    s->A = malloc((size_t)pt->M * pt->K * sizeof(float));
    s->B = malloc((size_t)pt->K * pt->N * sizeof(float));
    if (!s->A || !s->B) {
        snprintf(why, whylen, "out of host memory for the inputs of %dx%dx%d", pt->M, pt->N, pt->K);
        return -1;
    }
    s->M = pt->M; s->N = pt->N; s->K = pt->K;
    inputs_fill(s->A, s->B, s->M, s->N, s->K, c->e->seed);
    return 0;
}

static int prepare_host_ref(struct shape_state *s, char *why, size_t whylen)
{
    if (s->host_ref_ready) return 0;
    s->C = malloc((size_t)s->M * s->N * sizeof(float));
    s->R = malloc((size_t)s->M * s->N * sizeof(double));
    if (!s->C || !s->R) {
        snprintf(why, whylen, "out of host memory for the float64 reference");
        return -1;
    }
    verify_reference_fp64(s->R, s->A, s->B, s->M, s->N, s->K);
    s->host_ref_ready = 1;
    return 0;
}

static int grow_samples(struct ctx *c, int need)
{
    if (need <= c->samples_cap) return 0;
    int cap = need < 64 ? 64 : 2 * need;
    double *p = realloc(c->samples, (size_t)cap * sizeof *p);
    if (p) c->samples = p;
    double *q = p ? realloc(c->h2d, (size_t)cap * sizeof *q) : NULL;
    if (q) c->h2d = q;
    double *r = q ? realloc(c->d2h, (size_t)cap * sizeof *r) : NULL;
    if (!r) return -1;
    c->d2h = r;
    c->samples_cap = cap;
    return 0;
}

static void free_transfer_buffers(struct ctx *c)
{
    gpu_host_free(c->tA, c->t_pinned);
    gpu_host_free(c->tB, c->t_pinned);
    gpu_host_free(c->tC, c->t_pinned);
    c->tA = c->tB = c->tC = NULL;
}

/* Host buffers of the kind the point asks for, holding the current inputs. */
static const char *transfer_buffers(struct ctx *c, const struct point *pt)
{
    const int pinned = pt->host_memory == HOST_MEMORY_PINNED;
    const size_t a = (size_t)pt->M * pt->K, b = (size_t)pt->K * pt->N, o = (size_t)pt->M * pt->N;
    const char *e;
    c->t_pinned = pinned;
    if ((e = gpu_host_alloc(c->g, (void **)&c->tA, a * sizeof(float), pinned)) ||
        (e = gpu_host_alloc(c->g, (void **)&c->tB, b * sizeof(float), pinned)) ||
        (e = gpu_host_alloc(c->g, (void **)&c->tC, o * sizeof(float), pinned)))
        return e;
    memcpy(c->tA, c->sh.A, a * sizeof(float));
    memcpy(c->tB, c->sh.B, b * sizeof(float));
    return NULL;
}

/* One timed execution of the point, sample i; host or device. */
static const char *time_once(struct ctx *c, const struct point *pt, int i)
{
    double *ms = &c->samples[i];
    c->h2d[i] = c->d2h[i] = 0.0;
    if (pt->v->device == DEV_GPU && pt->host_memory)
        return gpu_time_round_trip(c->g, pt->v->gpu, pt->tile, pt->wpt, c->tA, c->tB, c->tC,
                                   &c->h2d[i], ms, &c->d2h[i]);
    if (pt->v->device == DEV_GPU) return gpu_time_once(c->g, pt->v->gpu, pt->tile, pt->wpt, ms);
    struct shape_state *s = &c->sh;
    double t0 = now_ms();
    pt->v->host[pt->opt_level](s->C, s->A, s->B, s->M, s->N, s->K);
    *ms = now_ms() - t0;
    return NULL;
}

/* Compare the current output of the point with the float64 reference. */
static const char *check(struct ctx *c, const struct point *pt, struct verdict *vd)
{
    struct err_stats st;
    if (pt->v->device == DEV_GPU) {
        const char *e = gpu_compare(c->g, &st);
        if (e) return e;
    } else {
        verify_compare(&st, c->sh.C, c->sh.R, (long long)c->sh.M * c->sh.N);
    }
    *vd = verify_judge(&st, verify_tolerance(pt->v->precision, pt->K));
    return NULL;
}

static void set_reason(struct result_row *row, enum disposition d, const char *why)
{
    snprintf(row->disposition, sizeof row->disposition, "%s", disposition_name(d));
    snprintf(row->reason, sizeof row->reason, "%s", why);
}

static void verdict_reason(struct result_row *row, const struct verdict *vd, const char *when)
{
    char why[160];
    if (vd->nonfinite)
        snprintf(why, sizeof why, "%s: %llu of %lld outputs NaN/Inf (unwritten or overflow)", when,
                 (unsigned long long)vd->nonfinite, (long long)row->M * row->N);
    else
        snprintf(why, sizeof why, "%s: rel_err %.3e > tolerance %.3e", when, vd->rel_err,
                 vd->tolerance);
    set_reason(row, DISP_INCORRECT, why);
}

/* Run, verify, measure one point into row and c->samples; returns the sample count. */
static int run_point(struct ctx *c, const struct point *pt, struct result_row *row)
{
    char why[160];
    const struct sampling_rule *rule =
        pt->v->device == DEV_GPU ? &c->e->gpu_rule : &c->e->host_rule;
    const int gpu = pt->v->device == DEV_GPU;
    const char *err;

    if (prepare_shape(c, pt, why, sizeof why) != 0 ||
        (!gpu && prepare_host_ref(&c->sh, why, sizeof why) != 0)) {
        set_reason(row, DISP_FAILED, why);
        return 0;
    }
    if (gpu && !c->sh.gpu_ready) {
        if ((err = gpu_set_inputs(c->g, c->sh.A, c->sh.B, pt->M, pt->N, pt->K))) {
            snprintf(why, sizeof why, "preparing inputs and float64 reference: %s", err);
            set_reason(row, DISP_FAILED, why);
            return 0;
        }
        c->sh.gpu_ready = 1;
    }

    /* Run once on a poisoned output and verify; on the GPU this is also the
     * warm-up that keeps module loading out of the samples. */
    if (grow_samples(c, 1) != 0) abort();
    if (gpu) {
        err = gpu_poison_output(c->g);
        if (!err) err = gpu_run_once(c->g, pt->v->gpu, pt->tile, pt->wpt);
        if (!err && pt->host_memory) err = transfer_buffers(c, pt);
    } else {
        verify_poison(c->sh.C, (long long)pt->M * pt->N);
        err = time_once(c, pt, 0);
    }
    if (err) {
        set_reason(row, DISP_FAILED, err);
        return 0;
    }
    struct verdict vd;
    if ((err = check(c, pt, &vd))) {
        set_reason(row, DISP_FAILED, err);
        return 0;
    }
    row->rel_err = vd.rel_err;
    row->max_rel_err = vd.max_rel_err;
    row->tolerance = vd.tolerance;
    if (vd.disposition != DISP_PASSED) {
        verdict_reason(row, &vd, "first run");
        return 0;
    }

    /* Sample under the rule.  On the host the verified first call is sample 0. */
    int n = gpu ? 0 : 1;
    enum stop_rule stop = sampling_should_stop(rule, c->samples, n, 0);
    const double t0 = now_ms();
    while (stop == STOP_NONE) {
        if (*c->o->interrupted) return -1;
        if (grow_samples(c, n + 1) != 0) abort();
        if ((err = time_once(c, pt, n))) {
            set_reason(row, DISP_FAILED, err);
            return 0;
        }
        n++;
        stop = sampling_should_stop(rule, c->samples, n, now_ms() - t0);
    }
    struct kernel_resources kr = {0};
    if (gpu && ((err = gpu_sm_clock_mhz(c->g, &row->sm_clock_mhz)) ||
                (err = gpu_describe(c->g, pt->v->gpu, pt->tile, pt->wpt, &kr)))) {
        set_reason(row, DISP_FAILED, err);
        return 0;
    }
    row->registers = kr.registers;
    row->shared_bytes = kr.shared_bytes;
    row->local_bytes = kr.local_bytes;
    row->threads = kr.threads;
    row->blocks_per_sm = kr.blocks_per_sm;

    /* The output of the last sample must still be right (a race shows here). */
    struct verdict after;
    if ((err = check(c, pt, &after))) {
        set_reason(row, DISP_FAILED, err);
        return 0;
    }
    if (after.disposition != DISP_PASSED) {
        verdict_reason(row, &after, "after sampling");
        return 0;
    }

    struct sample_stats ss = sample_stats_of(c->samples, n);
    row->samples = n;
    row->time_ms_min = ss.min;
    row->time_ms_median = ss.median;
    row->time_ms_mean = ss.mean;
    row->time_ms_max = ss.max;
    row->time_ms_stddev = ss.stddev;
    row->gflops = row->flops / (ss.median * 1e6);
    if (pt->host_memory) {
        row->h2d_ms_median = sample_stats_of(c->h2d, n).median;
        row->d2h_ms_median = sample_stats_of(c->d2h, n).median;
    }
    snprintf(row->stop_rule, sizeof row->stop_rule, "%s", stop_rule_name(stop));
    set_reason(row, DISP_PASSED, "");
    return n;
}

static void row_identity(struct result_row *row, const struct point *pt)
{
    memset(row, 0, sizeof *row);
    snprintf(row->variant, sizeof row->variant, "%s", pt->v->name);
    snprintf(row->seed_name, sizeof row->seed_name, "%s", pt->v->seed_name);
    snprintf(row->device, sizeof row->device, "%s", pt->v->device == DEV_GPU ? "gpu" : "host");
    snprintf(row->precision, sizeof row->precision, "%s",
             pt->v->precision == PREC_TF32 ? "tf32" : "fp32");
    snprintf(row->sweep, sizeof row->sweep, "%s", pt->sweep);
    row->M = pt->M; row->N = pt->N; row->K = pt->K;
    row->tile = pt->tile; row->wpt = pt->wpt; row->opt_level = pt->opt_level;
    row->flops = point_flops(pt);
    snprintf(row->host_memory, sizeof row->host_memory, "%s", host_memory_name(pt->host_memory));
    row->rel_err = row->max_rel_err = NAN;
}

int runner_check_memory(const struct plan *p, size_t free_b, size_t total_b, long long l2_bytes,
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        if (pt->skip || pt->v->device != DEV_GPU) continue;
        size_t need = gpu_bytes_needed(pt->M, pt->N, pt->K, l2_bytes);
        if (need > free_b) {
            snprintf(err, errlen,
                     "shape %dx%dx%d needs %.2f GiB (%zu bytes) of device memory, %.2f GiB "
                     "(%zu bytes) free of %.2f GiB (nothing was run)",
                     pt->M, pt->N, pt->K, need / 1073741824.0, need, free_b / 1073741824.0,
                     free_b, total_b / 1073741824.0);
            return -1;
        }
    }
    return 0;
}

int runner_preflight(const struct plan *p, struct gpu *g, const struct gpu_info *gi, char *err,
                     size_t errlen)
{
    if (!g) return 0;
    size_t free_b = 0, total_b = 0;
    const char *e = gpu_mem_info(g, &free_b, &total_b);
    if (e) {
        snprintf(err, errlen, "reading free device memory: %s", e);
        return -1;
    }
    return runner_check_memory(p, free_b, total_b, gi->l2_bytes, err, errlen);
}

int runner_run(const struct experiment *e, const struct plan *p, struct gpu *g,
               const struct gpu_info *gi, const char *gpu_why, const struct run_options *o,
               struct run_summary *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->planned = p->n;
    const double t_start = now_ms();

    double copy_gbs = 0;
    if (g) {
        const char *ce = gpu_copy_bandwidth_gbs(g, (size_t)1 << 30, &copy_gbs);
        if (ce) {
            snprintf(err, errlen, "measuring device copy bandwidth: %s", ce);
            return -1;
        }
    }

    struct results *r;
    if (results_create(&r, o->out_path, err, errlen) != 0) return -1;
    if (provenance_record(r, e, g ? gi : NULL, gpu_why, copy_gbs, o->argc, o->argv) != 0) {
        snprintf(err, errlen, "%s: cannot write provenance attributes", o->out_path);
        results_close(r);
        return -1;
    }

    struct ctx c = {.e = e, .o = o, .g = g};
    struct result_row *rows = calloc(p->n ? p->n : 1, sizeof *rows);
    if (!rows) abort();
    double total_est = 0;
    for (size_t i = 0; i < p->n; i++) total_est += point_estimate_s(&p->points[i], e);
    struct progress prog;
    progress_start(&prog, o->log, p->n, total_est);

    int rc = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (*o->interrupted) break;
        const struct point *pt = &p->points[i];
        struct result_row *row = &rows[i];
        row_identity(row, pt);
        int n = 0;
        if (pt->skip) {
            set_reason(row, DISP_SKIPPED, pt->skip_reason);
        } else {
            n = run_point(&c, pt, row);
            free_transfer_buffers(&c);
            if (n < 0) break;   /* interrupted mid-point: that point is not recorded */
        }
        if (results_append(r, row, c.samples, c.h2d, c.d2h, n) != 0) {
            snprintf(err, errlen, "%s: cannot append row %zu (rows before it are kept)",
                     o->out_path, i);
            rc = -1;
            break;
        }
        s->recorded++;
        s->passed += !strcmp(row->disposition, "passed");
        s->incorrect += !strcmp(row->disposition, "incorrect");
        s->failed += !strcmp(row->disposition, "failed");
        s->skipped += !strcmp(row->disposition, "skipped");
        s->skipped_env += pt->skip_env;
        progress_point(&prog, i, row, point_estimate_s(pt, e), pt->skip_env);
    }
    progress_end(&prog);
    s->interrupted = *o->interrupted != 0;
    s->wall_s = (now_ms() - t_start) / 1e3;

    if (rc == 0) {
        char now[32];
        utc_now_iso(now, sizeof now);
        results_attr_str(r, "finished_utc", now);
        results_attr_double(r, "wall_time_s", s->wall_s);
        if (s->recorded == p->n && results_mark_complete(r) != 0) {
            snprintf(err, errlen, "%s: cannot mark complete", o->out_path);
            rc = -1;
        }
    }
    if (results_close(r) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: error closing the file", o->out_path);
        rc = -1;
    }
    if (s->recorded) {
        fprintf(o->log, "\n");
        report_summary(o->log, rows, s->recorded);
    }
    free(rows);
    free(c.samples);
    free(c.h2d);
    free(c.d2h);
    free(c.sh.A); free(c.sh.B); free(c.sh.C); free(c.sh.R);
    return rc;
}
