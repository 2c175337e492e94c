/* The run loop: see runner.h. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "gpu_sampling.h"
#include "core/core.h"
#include "device/device.h"
#include "progress.h"
#include "provenance.h"
#include "results/results.h"

/* Inputs of the current shape on the host, its float64 reference when a host
 * point needs one, and whether the device holds the same shape. */
struct shape_state {
    int M, N, K;
    float *A, *B, *C;
    double *R;
    int host_ref_ready, gpu_ready;
};

/* One of the run's two lanes: the GPU points in plan order on the main thread,
 * and the host points in plan order on a thread of their own beside them (a
 * host rung needs one core, which the GPU lane leaves idle). */
struct lane {
    struct shape_state sh;
    struct sample_rows rows;       /* the point's samples, as recorded */
};

struct ctx {
    const struct experiment *e;
    const struct run_options *o;
    struct gpu *g;
    struct worker *w;              /* the GPU lane's host work (inputs), so that an
                                      interrupt is not held up */
    struct worker *hw;             /* the host lane */
    struct lane gl, hl;
    struct gpu_sampler gs;         /* the GPU lane's sampling (its telemetry, clock log) */
    struct telemetry *tm;          /* NULL: no telemetry here ("unavailable") */
    double t_start;                /* now_ms() when the run began */
    /* Host buffers of a transfer point (pinned or pageable), for its duration. */
    float *tA, *tB, *tC;
    int t_pinned;
};

static int stopped(const struct ctx *c) { return *c->o->interrupted != 0; }

/* ---- the shape's inputs, filled on the worker --------------------------------- */

struct fill_job {
    struct shape_state *s;
    uint64_t seed;
};

static void fill_inputs(void *p)
{
    struct fill_job *j = p;
    inputs_fill(j->s->A, j->s->B, j->s->M, j->s->N, j->s->K, j->seed);
}

/* Make the point's shape current in the lane: on the worker (the GPU lane), or
 * here (the host lane, already on its thread).  0, -1 with why (out of memory),
 * or 1 when interrupted. */
static int prepare_shape(struct ctx *c, struct lane *L, const struct point *pt, char *why,
                         size_t whylen)
{
    struct shape_state *s = &L->sh;
    if (s->A && s->M == pt->M && s->N == pt->N && s->K == pt->K) return 0;
    free(s->A); free(s->B); free(s->C); free(s->R);
    memset(s, 0, sizeof *s);
    s->A = malloc((size_t)pt->M * pt->K * sizeof(float));
    s->B = malloc((size_t)pt->K * pt->N * sizeof(float));
    if (!s->A || !s->B) {
        snprintf(why, whylen, "out of host memory for the inputs of %dx%dx%d", pt->M, pt->N, pt->K);
        free(s->A); free(s->B);
        s->A = s->B = NULL;
        return -1;
    }
    s->M = pt->M; s->N = pt->N; s->K = pt->K;
    if (L == &c->hl) {
        inputs_fill(s->A, s->B, s->M, s->N, s->K, c->e->seed);
        return 0;
    }
    c->gs.shape_warm = 0;
    /* On the heap: an interrupt leaves the job to the worker (never freed then). */
    struct fill_job *j = malloc(sizeof *j);
    if (!j) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    *j = (struct fill_job){s, c->e->seed};
    if (worker_call(c->w, fill_inputs, j, c->o->interrupted)) return 1;
    free(j);
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

static void lane_free(struct lane *L)
{
    free(L->rows.sr);
    free(L->rows.ka);
    free(L->rows.kb);
    free(L->sh.A); free(L->sh.B); free(L->sh.C); free(L->sh.R);
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
    memcpy(c->tA, c->gl.sh.A, a * sizeof(float));
    memcpy(c->tB, c->gl.sh.B, b * sizeof(float));
    return NULL;
}

/* One timed execution of the point into sample i (room for it reserved), host
 * call or round trip (the GPU's other samples are gpu_sampling's). */
static const char *time_once(struct ctx *c, struct lane *L, const struct point *pt, int i)
{
    struct sample_row *sr = &L->rows.sr[i];
    *sr = (struct sample_row){.ref_ms = NAN, .kernel_ms = NAN, .ref_kernel_ms = NAN,
                              .probe_mhz = NAN};
    const char *e = NULL;
    const double t0 = now_ms();
    if (pt->v->device == DEV_GPU) {
        e = gpu_time_round_trip(c->g, pt->v->gpu, pt->tile, pt->wpt, pt->split, c->tA, c->tB, c->tC,
                                &sr->h2d_ms, &sr->time_ms, &sr->d2h_ms);
        gpu_sample_telemetry(&c->gs, t0, now_ms(), sr);
    } else {
        struct shape_state *s = &L->sh;
        pt->v->host[pt->opt_level](s->C, s->A, s->B, s->M, s->N, s->K);
        sr->time_ms = now_ms() - t0;
        sr->t_s = (now_ms() - c->t_start) / 1e3;
        sr->clock_mhz = sr->power_w = NAN;
    }
    return e;
}

/* Compare the current output of the point with the float64 reference. */
static const char *check(struct ctx *c, const struct lane *L, const struct point *pt,
                         struct verdict *vd)
{
    struct err_stats st;
    if (pt->v->device == DEV_GPU) {
        const char *e = gpu_compare(c->g, 0, &st);
        if (e) return e;
    } else {
        verify_compare(&st, L->sh.C, L->sh.R, (long long)L->sh.M * L->sh.N);
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

/* A step of the point failed: the point is "failed", unless the failure is the
 * interrupt itself (a device wait gives up when it is set): then -1. */
static int failed(struct ctx *c, struct result_row *row, const char *why)
{
    if (stopped(c)) return -1;
    set_reason(row, DISP_FAILED, why);
    return 0;
}

/* After sampling, on the GPU: the output poisoned and made once more by a
 * launch that begins from the workspace as the samples left it, then judged; so
 * is the reference's in paired samples (a kernel right only on a fresh
 * workspace, or with a race, fails here).  A transfer point makes its round
 * trip once more.  A host rung keeps no state between calls: its last sample's
 * output is judged. */
static const char *check_again(struct ctx *c, struct lane *L, const struct point *pt,
                               const struct result_row *row, struct verdict *vd, int *ref_ok,
                               struct verdict *rv)
{
    const char *e;
    *ref_ok = 1;
    if (pt->v->device == DEV_GPU) {
        if (pt->host_memory) {
            if ((e = gpu_poison_output(c->g)) || (e = time_once(c, L, pt, 0))) return e;
        } else if ((e = gpu_rerun_poisoned(c->g, 0))) {
            return e;
        }
    }
    if ((e = check(c, L, pt, vd))) return e;
    if (!row->pairs) return NULL;
    struct err_stats st;
    if ((e = gpu_rerun_poisoned(c->g, 1)) || (e = gpu_compare(c->g, 1, &st))) return e;
    *rv = verify_judge(&st, verify_tolerance(registry_find(row->paired_with)->precision, pt->K));
    *ref_ok = rv->disposition == DISP_PASSED;
    return NULL;
}

/* Run, verify, measure one point into row and the lane's samples; returns the
 * sample count, or -1 when interrupted (the point is then not recorded).  Host
 * points run on the host lane's thread (host_point), device points here. */
static int run_point(struct ctx *c, struct lane *L, const struct point *pt, struct result_row *row)
{
    char why[160];
    const struct sampling_rule *rule =
        pt->v->device == DEV_GPU ? &c->e->gpu_rule : &c->e->host_rule;
    const int gpu = pt->v->device == DEV_GPU;
    const char *err;

    if (!gpu && prepare_host_ref(&L->sh, why, sizeof why) != 0) return failed(c, row, why);
    if (gpu && !L->sh.gpu_ready) {
        if ((err = gpu_set_inputs(c->g, L->sh.A, L->sh.B, pt->M, pt->N, pt->K))) {
            snprintf(why, sizeof why, "preparing inputs and float64 reference: %s", err);
            return failed(c, row, why);
        }
        L->sh.gpu_ready = 1;
    }
    if (stopped(c)) return -1;

    /* Run once on a poisoned output and verify; on the GPU this is also the
     * warm-up that keeps module loading out of the samples. */
    if (sample_rows_reserve(&L->rows, 1) != 0) return failed(c, row, "out of host memory for samples");
    if (gpu) {
        err = gpu_poison_output(c->g);
        if (!err) err = gpu_run_once(c->g, pt->v->gpu, pt->tile, pt->wpt, pt->split);
        if (!err && pt->host_memory) err = transfer_buffers(c, pt);
    } else {
        verify_poison(L->sh.C, (long long)pt->M * pt->N);
        err = time_once(c, L, pt, 0);
    }
    if (err) return failed(c, row, err);
    struct verdict vd;
    if ((err = check(c, L, pt, &vd))) return failed(c, row, err);
    row->rel_err = vd.rel_err;
    row->max_rel_err = vd.max_rel_err;
    row->tolerance = vd.tolerance;
    if (vd.disposition != DISP_PASSED) {
        verdict_reason(row, &vd, "first run");
        return 0;
    }

    /* Sample under the rule.  On the host the verified first call is sample 0. */
    struct sample_acc acc = {0};
    enum stop_rule stop = STOP_NONE;
    const double t0 = now_ms();
    int n = 0;
    if (gpu && !pt->host_memory) {
        if ((err = gpu_sample_point(&c->gs, rule, pt, row, &L->rows, &n, &stop)))
            return failed(c, row, err);
    } else {
        if (!gpu) sample_acc_add(&acc, L->rows.sr[0].time_ms);
        else snprintf(row->timing, sizeof row->timing, "round_trip"), row->launches = 1;
        stop = sampling_should_stop(rule, &acc, 0);
        while (stop == STOP_NONE) {
            if (stopped(c)) return -1;
            if (sample_rows_reserve(&L->rows, acc.n + 1) != 0)
                return failed(c, row, "out of host memory for samples");
            if ((err = time_once(c, L, pt, acc.n))) return failed(c, row, err);
            sample_acc_add(&acc, L->rows.sr[acc.n].time_ms);
            stop = sampling_should_stop(rule, &acc, now_ms() - t0);
        }
        n = acc.n;
        row->start_s = (t0 - c->t_start) / 1e3;
    }
    if (gpu) gpu_row_telemetry(&c->gs, L->rows.sr, n, t0, row);
    struct kernel_resources kr = {0};
    if (gpu && (err = gpu_describe(c->g, pt->v->gpu, pt->tile, pt->wpt, pt->split, &kr)))
        return failed(c, row, err);
    row->registers = kr.registers;
    row->shared_bytes = kr.shared_bytes;
    row->local_bytes = kr.local_bytes;
    row->threads = kr.threads;
    row->blocks_per_sm = kr.blocks_per_sm;
    row->grid_blocks = kr.grid_blocks;
    row->k_splits = kr.k_splits;
    row->workspace_bytes = (int32_t)kr.workspace_bytes;   /* <= GPU_WORKSPACE_MAX_BYTES */
    snprintf(row->chosen, sizeof row->chosen, "%s", kr.chosen);

    struct verdict after, ref_after;
    int ref_ok;
    if ((err = check_again(c, L, pt, row, &after, &ref_ok, &ref_after))) return failed(c, row, err);
    if (after.disposition != DISP_PASSED) {
        verdict_reason(row, &after, "after sampling, on a poisoned C");
        return 0;
    }
    if (!ref_ok) {
        verdict_reason(row, &ref_after, "the reference's output in paired samples");
        return 0;
    }

    struct sample_stats ss = sample_rows_stats(L->rows.sr, n, offsetof(struct sample_row, time_ms));
    if (ss.n != n) return failed(c, row, "out of host memory for the samples' statistics");
    row->samples = n;
    row->time_ms_min = ss.min;
    row->time_ms_median = ss.median;
    row->time_ms_mean = ss.mean;
    row->time_ms_max = ss.max;
    row->time_ms_stddev = ss.stddev;
    row->gflops = row->flops / (ss.median * 1e6);
    if (pt->host_memory) {
        row->h2d_ms_median = sample_rows_stats(L->rows.sr, n, offsetof(struct sample_row, h2d_ms)).median;
        row->d2h_ms_median = sample_rows_stats(L->rows.sr, n, offsetof(struct sample_row, d2h_ms)).median;
    }
    snprintf(row->stop_rule, sizeof row->stop_rule, "%s", stop_rule_name(stop));
    set_reason(row, DISP_PASSED, "");
    return n;
}

/* A host point on the host lane's thread: the shape's inputs, then the point.
 * n: its sample count, or -1 when interrupted. */
struct host_job {
    struct ctx *c;
    const struct point *pt;
    struct result_row *row;
    size_t index;              /* in the plan */
    int n;
};

static void host_point(void *p)
{
    struct host_job *j = p;
    char why[160];
    if (prepare_shape(j->c, &j->c->hl, j->pt, why, sizeof why) != 0) {
        set_reason(j->row, DISP_FAILED, why);
        j->n = 0;
        return;
    }
    j->n = run_point(j->c, &j->c->hl, j->pt, j->row);
}

/* The plan the points came from: its size and hash, and, for a shard, which
 * part of it this file holds (shard.h). */
static int record_plan(struct results *r, const struct plan *p)
{
    int rc = results_attr_int(r, "plan_points", (long long)p->whole) |
             results_attr_u64(r, "plan_hash", p->hash);
    if (p->shards > 0)
        rc |= results_attr_int(r, "shard", p->shard) | results_attr_int(r, "shards", p->shards) |
              results_attr_int(r, "host_shard", p->host_shard);
    return rc ? -1 : 0;
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
    row->point = (int32_t)pt->index;
    row->M = pt->M; row->N = pt->N; row->K = pt->K;
    row->tile = pt->tile; row->wpt = pt->wpt; row->opt_level = pt->opt_level;
    row->split = pt->split;
    if (pt->cfg) {
        row->block_rows = pt->cfg->block_rows;
        row->block_cols = pt->cfg->block_cols;
        row->thread_rows = pt->cfg->thread_rows;
        row->thread_cols = pt->cfg->thread_cols;
    }
    row->flops = point_flops(pt);
    snprintf(row->host_memory, sizeof row->host_memory, "%s", host_memory_name(pt->host_memory));
    row->rel_err = row->max_rel_err = NAN;
}

/* ---- the two lanes ------------------------------------------------------------ */

static int host_lane_point(const struct point *pt)
{
    return !pt->skip && pt->v->device == DEV_HOST;
}

struct shape_key {
    int M, N, K;
    size_t index, first;   /* the point's, and the first point's of its shape */
};

static int by_shape_then_index(const void *a, const void *b)
{
    const struct shape_key *x = a, *y = b;
    if (x->M != y->M) return (x->M > y->M) - (x->M < y->M);
    if (x->N != y->N) return (x->N > y->N) - (x->N < y->N);
    if (x->K != y->K) return (x->K > y->K) - (x->K < y->K);
    return (x->index > y->index) - (x->index < y->index);
}

static int by_first_then_index(const void *a, const void *b)
{
    const struct shape_key *x = a, *y = b;
    if (x->first != y->first) return (x->first > y->first) - (x->first < y->first);
    return (x->index > y->index) - (x->index < y->index);
}

/* The main lane's points (all but the host lane's), shape by shape in the order
 * the shapes first appear in the plan and in plan order within a shape, so that
 * each shape's inputs are made and warmed up once; SIZE_MAX ends the list.
 * NULL: out of memory. */
static size_t *lane_order(const struct plan *p)
{
    struct shape_key *k = malloc((p->n ? p->n : 1) * sizeof *k);
    size_t *order = malloc((p->n + 1) * sizeof *order);
    if (!k || !order) {
        free(k);
        free(order);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        if (!host_lane_point(pt)) k[n++] = (struct shape_key){pt->M, pt->N, pt->K, i, i};
    }
    qsort(k, n, sizeof *k, by_shape_then_index);
    for (size_t i = 1; i < n; i++)
        if (k[i].M == k[i - 1].M && k[i].N == k[i - 1].N && k[i].K == k[i - 1].K)
            k[i].first = k[i - 1].first;
    qsort(k, n, sizeof *k, by_first_then_index);
    for (size_t i = 0; i < n; i++) order[i] = k[i].index;
    order[n] = SIZE_MAX;
    free(k);
    return order;
}

/* Records rows as the lanes finish them, on the main thread (the file's only
 * writer): the file, the summary, the progress, and the rows in the order
 * recorded, for the summary table. */
struct recorder {
    struct results *r;
    struct run_summary *s;
    struct progress *prog;
    const struct plan *p;
    const struct experiment *e;
    struct result_row *rows;   /* by plan index */
    struct result_row *done;   /* in the order recorded */
    int host_leads;            /* the host lane is the longer: the ETA follows it */
};

static int record(struct recorder *rec, size_t i, const struct sample_row *sr, int n, char *err,
                  size_t errlen)
{
    const struct result_row *row = &rec->rows[i];
    const struct point *pt = &rec->p->points[i];
    struct run_summary *s = rec->s;
    if (results_append_samples(rec->r, row, sr, n) != 0) {
        snprintf(err, errlen, "%s (the %zu rows before it are kept in %s)", results_error(rec->r),
                 s->recorded, results_work_path(rec->r));
        if (s->recorded == 0) snprintf(err, errlen, "%s", results_error(rec->r));   /* said there */
        return -1;
    }
    rec->done[s->recorded++] = *row;
    s->passed += !strcmp(row->disposition, "passed");
    s->incorrect += !strcmp(row->disposition, "incorrect");
    s->failed += !strcmp(row->disposition, "failed");
    s->skipped += !strcmp(row->disposition, "skipped");
    s->skipped_env += pt->skip_env;
    const int leads = (pt->v->device == DEV_HOST) == rec->host_leads;
    progress_point(rec->prog, s->recorded - 1, row, leads ? point_estimate_s(pt, rec->e) : 0.0,
                   pt->skip_env);
    return 0;
}

/* The host lane: record its point if finished, and begin its next.  wait: also
 * wait for each point, until none is left or an interrupt comes (which leaves
 * the running point to the thread, unrecorded).  0, or -1 when recording failed. */
static int host_lane(struct ctx *c, struct recorder *rec, struct host_job **job, size_t *next,
                     int wait, char *err, size_t errlen)
{
    const struct plan *p = rec->p;
    for (;;) {
        if (*job) {
            if (wait ? worker_wait(c->hw, c->o->interrupted) : !worker_finished(c->hw)) return 0;
            const struct host_job *j = *job;
            if (j->n < 0) return 0;   /* interrupted mid-point: not recorded */
            if (record(rec, j->index, c->hl.rows.sr, j->n, err, errlen) != 0) return -1;
            free(*job);
            *job = NULL;
        }
        while (*next < p->n && !host_lane_point(&p->points[*next])) ++*next;
        if (*next == p->n || stopped(c)) return 0;
        /* On the heap: an interrupt leaves the job to the thread (never freed then). */
        struct host_job *j = malloc(sizeof *j);
        if (!j) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        const size_t i = (*next)++;
        row_identity(&rec->rows[i], &p->points[i]);
        *j = (struct host_job){c, &p->points[i], &rec->rows[i], i, 0};
        *job = j;
        worker_post(c->hw, host_point, j);
        if (!wait) return 0;
    }
}

/* How long the GPU works while the telemetry's refresh is measured. */
#define REFRESH_PROBE_MS 600.0

/* What the file says of the GPU lane's sampling: the second timer, the
 * telemetry's refresh periods, and the warm-up's settled test. */
static int record_sampling(struct results *r, const struct ctx *c, double refresh_ms,
                           double instant_refresh_ms)
{
    const struct sampling_rule *rule = &c->e->gpu_rule;
    char settled[768];
    snprintf(settled, sizeof settled,
             "the SM clock (gpu_sm_clock_mhz, after each warm-up sample) of the newest %g ms "
             "within 1%% of the %g ms before; for a row sampled alone (unpaired), not "
             "before the power reading has changed >= 10 ms after the warm-up began (or two "
             "refresh periods passed), the power judged from that change on; where the "
             "power read reaches 90%% of gpu_power_limit_w, also %s "
             "over the newest %g ms (no shorter than the telemetry's refresh) within 2%% "
             "of the %g ms before", rule->warmup_window_ms,
             rule->warmup_window_ms,
             c->gs.instant ? "NVML's instant power (field 186)" : "NVML's power",
             fmax(rule->warmup_window_ms, c->gs.window_floor_ms),
             fmax(rule->warmup_window_ms, c->gs.window_floor_ms));
    return results_attr_str(r, "gpu_kernel_timer",
                            c->gs.kernel_timer
                                ? "cupti: CUPTI activity records (CONCURRENT_KERNEL) of each "
                                  "GPU sample's kernels (kernel_ms, ref_kernel_ms)"
                                : "off") ||
           results_attr_double(r, "telemetry_refresh_ms", refresh_ms) ||
           results_attr_double(r, "telemetry_instant_refresh_ms", instant_refresh_ms) ||
           results_attr_double(r, "gpu_power_limit_w", telemetry_power_limit_w(c->tm)) ||
           results_attr_str(r, "warmup_settled_test", settled);
}

/* The way out of runner_run before its loop began: the results file (when it is
 * open) closed, the workers (those started), the telemetry and the context
 * ended; returns -1. */
static int end_before_loop(struct ctx *c, struct results *r)
{
    if (r) results_close(r, NULL, 0);
    worker_end(c->w);
    worker_end(c->hw);
    telemetry_stop(c->tm);
    free(c);
    return -1;
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
        gpu_set_interrupt(g, o->interrupted);
        const char *ce = gpu_copy_bandwidth_gbs(g, (size_t)1 << 30, &copy_gbs);
        if (ce) {
            snprintf(err, errlen, "measuring device copy bandwidth: %s", ce);
            return -1;
        }
    }

    /* On the heap: a job left on the worker by an interrupt (worker.h) may still
     * use it after this function returns, so it is then never freed. */
    struct ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *c = (struct ctx){.e = e, .o = o, .g = g, .t_start = t_start};
    /* Telemetry: NVML sampled every 2 ms beside the run, or a reason why not. */
    char tm_source[256] = "";
    if (g) {
        char bus[64], why[200];
        const char *be = gpu_pci_bus_id(g, bus, sizeof bus);
        if (!be) c->tm = telemetry_start(bus, 2.0, why, sizeof why);
        if (c->tm) snprintf(tm_source, sizeof tm_source, "%s, every 2 ms", telemetry_source_name(c->tm));
        else snprintf(tm_source, sizeof tm_source, "unavailable: %s", be ? be : why);
    }
    /* The GPU lane's sampler; the second timer when the experiment or the
     * command line asks for it; the telemetry's refresh, measured under load. */
    c->gs = (struct gpu_sampler){.g = g, .tm = c->tm, .interrupted = o->interrupted,
                                 .t_start = t_start};
    double refresh_ms = NAN, instant_refresh_ms = NAN;
    const char *ge = NULL;
    if (g && (e->kernel_timer || o->kernel_timer) && !(ge = gpu_kernel_timer_on(g)))
        c->gs.kernel_timer = 1;
    if (g && c->tm && !ge)
        ge = gpu_sampling_measure_refresh(&c->gs, REFRESH_PROBE_MS, &refresh_ms, &instant_refresh_ms);
    if (ge && stopped(c)) ge = NULL;   /* interrupted: the loop below records nothing */
    if (ge) {
        snprintf(err, errlen, "%s", ge);
        return end_before_loop(c, NULL);
    }
    const char *we = worker_start(&c->w);
    if (!we) we = worker_start(&c->hw);   /* on failure c->hw stays NULL */
    if (we) {
        snprintf(err, errlen, "%s", we);
        return end_before_loop(c, NULL);
    }
    struct plan_estimate est;
    plan_estimate(p, e, &est);
    struct results *r;
    const int flags = (o->unique_name ? RESULTS_UNIQUE : 0) | RESULTS_WHOLE_ONLY;
    if (results_create(&r, o->out_path, flags, err, errlen) != 0) return end_before_loop(c, NULL);
    /* Provenance, then the file under its name (chosen now, when default names
     * collide), then the points. */
    if (provenance_record(r, e, g ? gi : NULL, gpu_why, copy_gbs, o->argc, o->argv) != 0 ||
        (g && results_attr_str(r, "gpu_telemetry", tm_source) != 0) ||
        (c->tm && results_attr_str(r, "gpu_serial", telemetry_serial(c->tm)) != 0) ||
        results_attr_int(r, "planned_points", (long long)p->n) != 0 || record_plan(r, p) != 0 ||
        results_attr_double(r, "estimated_s", est.total_s) != 0 ||
        (g && record_sampling(r, c, refresh_ms, instant_refresh_ms) != 0) || results_begin(r) != 0) {
        snprintf(err, errlen, "%s", results_error(r));
        return end_before_loop(c, r);
    }
    snprintf(s->final, sizeof s->final, "%s", results_path(r));
    snprintf(s->path, sizeof s->path, "%s", results_work_path(r));
    fprintf(o->log, "mmladder: %s (%zu points) -> %s (as %s until the run ends)\n", e->path,
            p->n, s->final, s->path);
    if (g)
        fprintf(o->log, "device: %s, %d SMs, CUDA driver %d\n", gi->name, gi->sm_count,
                gi->driver_version);
    fflush(o->log);

    struct result_row *rows = calloc(p->n ? p->n : 1, sizeof *rows);
    struct result_row *done = calloc(p->n ? p->n : 1, sizeof *done);
    size_t *order = rows && done ? lane_order(p) : NULL;
    if (!order) {
        snprintf(err, errlen, "out of memory for %zu rows", p->n);
        free(rows);
        free(done);
        return end_before_loop(c, r);
    }
    struct progress prog;
    progress_start(&prog, o->log, p->n, est.total_s);
    struct recorder rec = {.r = r, .s = s, .prog = &prog, .p = p, .e = e, .rows = rows,
                           .done = done, .host_leads = est.host_s > est.gpu_s};

    /* The main lane: every point but the runnable host points, shape by shape;
     * between its points, the host lane's finished point is recorded and its
     * next one begun. */
    int rc = 0;
    struct host_job *job = NULL;
    size_t next_host = 0;
    for (size_t k = 0; order[k] != SIZE_MAX && !stopped(c) && rc == 0; k++) {
        const size_t i = order[k];
        const struct point *pt = &p->points[i];
        struct result_row *row = &rows[i];
        if ((rc = host_lane(c, &rec, &job, &next_host, 0, err, errlen)) != 0) break;
        row_identity(row, pt);
        int n = 0;
        if (pt->skip) {
            set_reason(row, DISP_SKIPPED, pt->skip_reason);
        } else {
            char why[160];
            int prep = prepare_shape(c, &c->gl, pt, why, sizeof why);
            if (prep > 0) break;   /* interrupted */
            if (prep < 0)
                set_reason(row, DISP_FAILED, why);
            else
                n = run_point(c, &c->gl, pt, row);
            free_transfer_buffers(c);
            if (n < 0) break;   /* interrupted mid-point: that point is not recorded */
        }
        rc = record(&rec, i, c->gl.rows.sr, n, err, errlen);
    }
    /* The host lane's remaining points; after an interrupt, its finished point
     * only (one still running is left to its thread). */
    if (rc == 0) rc = host_lane(c, &rec, &job, &next_host, 1, err, errlen);
    free(order);
    progress_end(&prog);
    s->interrupted = stopped(c);
    s->wall_s = (now_ms() - t_start) / 1e3;

    char now[32];
    utc_now_iso(now, sizeof now);
    if (rc == 0 && results_finish(r, s->recorded == p->n, now, s->wall_s) != 0) {
        snprintf(err, errlen, "%s", results_error(r));
        rc = -1;
    }
    char cerr[2 * PATH_MAX + 800];
    const int closed = results_close_at(r, s->path, sizeof s->path, cerr, sizeof cerr);
    if (closed != 0) {
        if (rc == 0 || s->recorded == 0 || closed == RESULTS_TAKEN) snprintf(err, errlen, "%s", cerr);
        s->taken = closed == RESULTS_TAKEN;
        rc = -1;
    }
    s->complete = rc == 0 && s->recorded == p->n;
    if (s->recorded && o->summary) {
        fprintf(o->log, "\n");
        o->summary(o->log, done, s->recorded);
    }
    /* A job left on a worker may still use the context, the rows, the lanes'
     * buffers and samples (and the plan and experiment: s->abandoned tells the
     * caller): they stay until the process exits, moments from now. */
    telemetry_stop(c->tm);
    s->abandoned = worker_abandoned(c->w) || worker_abandoned(c->hw);
    worker_end(c->w);
    worker_end(c->hw);
    if (!s->abandoned) {
        free(job);
        free(rows);
        free(done);
        lane_free(&c->gl);
        lane_free(&c->hl);
        free(c);
    }
    return rc;
}
