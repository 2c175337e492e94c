/* Expanding an experiment into points: see plan.h. */
#include "plan.h"
#include "device/device.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int push(struct plan *p, const struct point *pt)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 256;
        struct point *np = realloc(p->points, cap * sizeof *np);
        if (!np) return -1;
        p->points = np;
        p->cap = cap;
    }
    p->points[p->n++] = *pt;
    return 0;
}

/* The values an axis takes for a variant: the sweep's list when the variant
 * uses the axis, else the single value 0. */
static int axis_values(const struct int_axis *ax, int used, const int **vals)
{
    static const int zero[1] = {0};
    if (!used) {
        *vals = zero;
        return 1;
    }
    *vals = ax->v;
    return ax->n;
}

static int check_sweep(const struct experiment *e, const struct sweep *s, char *err,
                       size_t errlen)
{
    char names[512];
    for (int i = 0; i < s->n_variants; i++) {
        const struct variant *v = registry_find(s->variants[i]);
        if (!v) {
            snprintf(err, errlen, "%s:%d: variants: unknown variant '%s' (expected one of: %s)",
                     e->path, s->variants_line, s->variants[i],
                     registry_names(names, sizeof names));
            return -1;
        }
        /* A variant whose axis has no values in this sweep would silently vanish. */
        static const struct {
            unsigned axis;
            const char *key;
            size_t off;
            const char *example;
        } axes[] = {{AXIS_TILE, "tiles", offsetof(struct sweep, tiles), "8 16 32"},
                    {AXIS_WPT, "wpts", offsetof(struct sweep, wpts), "8 16 32"},
                    {AXIS_SPLIT, "splits", offsetof(struct sweep, splits), "0 4 16"},
                    {AXIS_OPT, "opt_levels", offsetof(struct sweep, opt_levels), "1 2 3"}};
        for (size_t a = 0; a < sizeof axes / sizeof axes[0]; a++) {
            const struct int_axis *ax = (const struct int_axis *)((const char *)s + axes[a].off);
            if (s->all_configs && (axes[a].axis & (AXIS_TILE | AXIS_WPT))) continue;
            if ((registry_axes(v) & axes[a].axis) && ax->n == 0) {
                snprintf(err, errlen,
                         "%s:%d: sweep [%s]: variant '%s' needs '%s' (expected e.g. %s = %s)",
                         e->path, s->line, s->name, v->name, axes[a].key, axes[a].key,
                         axes[a].example);
                return -1;
            }
        }
    }
    return 0;
}

/* The (tile, wpt) pairs a sweep gives a GPU variant: its own configurations
 * (`configs = all`), into tiles[] and wpts[] when not NULL; returns how many. */
static size_t own_configs(const struct variant *v, int *tiles, int *wpts, size_t cap)
{
    size_t n = 0;
    for (const struct rung_config *c = v->configs; c && c->tile >= 0; c++, n++)
        if (tiles && n < cap) tiles[n] = c->tile, wpts[n] = c->wpt;
    return n;
}

/* How many points a checked sweep of nh shapes expands to (lists of 64
 * multiply up fast). */
static size_t sweep_points(const struct sweep *s, size_t nh)
{
    size_t n = 0;
    for (int vi = 0; vi < s->n_variants; vi++) {
        const struct variant *v = registry_find(s->variants[vi]);
        size_t k = nh;
        const unsigned axes = registry_axes(v);
        if (s->all_configs && (axes & (AXIS_TILE | AXIS_WPT))) k *= own_configs(v, NULL, NULL, 0);
        if (!s->all_configs && (axes & AXIS_TILE)) k *= (size_t)s->tiles.n;
        if (!s->all_configs && (axes & AXIS_WPT)) k *= (size_t)s->wpts.n;
        if (axes & AXIS_SPLIT) k *= (size_t)s->splits.n;
        if (axes & AXIS_OPT) k *= (size_t)s->opt_levels.n;
        if (v->device == DEV_GPU && s->host_memory.n > 0) k *= (size_t)s->host_memory.n;
        n += k;
    }
    return n;
}

/* A sweep's shapes, malloc'd into *out: those it lists, then its corpus's
 * (corpus.h), none repeated.  0, or -1 with err (file:line). */
static int sweep_shapes(const struct experiment *e, const struct sweep *s,
                        struct corpus_shape **out, size_t *n, char *err, size_t errlen)
{
    struct corpus_shape listed[EXP_MAX_LIST], *drawn = NULL;
    size_t nd = 0;
    for (int i = 0; i < s->n_shapes; i++)
        listed[i] = (struct corpus_shape){s->shapes[i].M, s->shapes[i].N, s->shapes[i].K};
    if (s->corpus.kind) {
        char why[400];
        if (corpus_shapes(&s->corpus, listed, (size_t)s->n_shapes, &drawn, &nd, why,
                          sizeof why) != 0) {
            snprintf(err, errlen, "%s:%d: sweep [%s]: %s", e->path, s->corpus.line, s->name, why);
            return -1;
        }
    }
    *n = (size_t)s->n_shapes + nd;
    *out = malloc((*n ? *n : 1) * sizeof **out);
    if (!*out) {
        free(drawn);
        snprintf(err, errlen, "out of memory expanding the plan");
        return -1;
    }
    memcpy(*out, listed, (size_t)s->n_shapes * sizeof **out);
    if (nd) memcpy(*out + s->n_shapes, drawn, nd * sizeof **out);
    free(drawn);
    return 0;
}

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* What makes two points the same point, whatever machine expands the plan
 * (not whether it is skipped: that depends on the machine). */
static uint64_t points_hash(const struct plan *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        const int32_t v[] = {pt->M, pt->N, pt->K, pt->tile, pt->wpt, pt->split, pt->opt_level,
                             pt->host_memory, pt->unpaired};
        h = fnv(h, pt->v->name, strlen(pt->v->name) + 1);
        h = fnv(h, pt->sweep, strlen(pt->sweep) + 1);
        h = fnv(h, v, sizeof v);
    }
    return h;
}

int plan_from_experiment(const struct experiment *e, int gpu_ok, const char *gpu_why,
                         struct plan *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    size_t total = 0;
    for (int si = 0; si < e->n_sweeps; si++) {
        const struct sweep *s = &e->sweeps[si];
        if (check_sweep(e, s, err, errlen) != 0) goto fail;
        struct corpus_shape *shapes;
        size_t nh;
        if (sweep_shapes(e, s, &shapes, &nh, err, errlen) != 0) goto fail;
        size_t n = sweep_points(s, nh);
        total += n;
        if (total > PLAN_MAX_POINTS) {
            char with[64] = "";
            if (total > n) snprintf(with, sizeof with, ", %zu with the sweeps before it", total);
            snprintf(err, errlen,
                     "%s:%d: sweep [%s] expands to %zu points%s: more than %d in one plan "
                     "(expected shorter lists, or the sweep split over files)",
                     e->path, s->line, s->name, n, with, PLAN_MAX_POINTS);
            free(shapes);
            goto fail;
        }
        for (size_t hi = 0; hi < nh; hi++) {
            const int line = hi < (size_t)s->n_shapes ? s->shapes[hi].line : s->corpus.line;
            for (int vi = 0; vi < s->n_variants; vi++) {
                const struct variant *v = registry_find(s->variants[vi]);
                const int *tiles, *wpts, *splits, *opts, *mems;
                const unsigned axes = registry_axes(v);
                int nt = axis_values(&s->tiles, axes & AXIS_TILE, &tiles);
                int nw = axis_values(&s->wpts, axes & AXIS_WPT, &wpts);
                /* configs = all: the rung's own (tile, wpt) pairs, walked as one axis */
                int pair_tiles[EXP_MAX_LIST], pair_wpts[EXP_MAX_LIST];
                const int pairs = s->all_configs && (axes & (AXIS_TILE | AXIS_WPT));
                if (pairs) {
                    nt = (int)own_configs(v, pair_tiles, pair_wpts, EXP_MAX_LIST);
                    if (nt > EXP_MAX_LIST) nt = EXP_MAX_LIST;
                    tiles = pair_tiles, wpts = pair_wpts, nw = 1;
                }
                int ns = axis_values(&s->splits, axes & AXIS_SPLIT, &splits);
                int no = axis_values(&s->opt_levels, axes & AXIS_OPT, &opts);
                int nm = axis_values(&s->host_memory,
                                     v->device == DEV_GPU && s->host_memory.n > 0, &mems);
                for (int ti = 0; ti < nt; ti++)
                    for (int wi = 0; wi < nw; wi++)
                        for (int xi = 0; xi < ns; xi++)
                        for (int oi = 0; oi < no; oi++)
                        for (int mi = 0; mi < nm; mi++) {
                            struct point pt = {
                                .v = v, .M = shapes[hi].M, .N = shapes[hi].N,
                                .K = shapes[hi].K, .tile = tiles[ti],
                                .wpt = pairs ? wpts[ti] : wpts[wi],
                                .split = splits[xi], .opt_level = opts[oi],
                                .host_memory = mems[mi], .unpaired = s->unpaired,
                                .sweep = s->name,
                                .line = line, .index = p->n};
                            if (!registry_supports(v, pt.tile, pt.wpt, pt.split, pt.opt_level,
                                                   &pt.cfg, pt.skip_reason,
                                                   sizeof pt.skip_reason) ||
                                !registry_config_fits(pt.cfg, pt.M, pt.N, pt.K, pt.skip_reason,
                                                      sizeof pt.skip_reason))
                                pt.skip = 1;
                            else if (v->device == DEV_GPU && (!v->gpu || !gpu_ok)) {
                                pt.skip = pt.skip_env = 1;
                                snprintf(pt.skip_reason, sizeof pt.skip_reason, "%s",
                                         !v->gpu ? "built without CUDA (nvcc was not found at "
                                                   "build time)"
                                                 : gpu_why);
                                snprintf(p->env_reason, sizeof p->env_reason, "%s",
                                         pt.skip_reason);
                            }
                            if (push(p, &pt) != 0) {
                                snprintf(err, errlen, "out of memory expanding the plan");
                                free(shapes);
                                goto fail;
                            }
                        }
            }
        }
        free(shapes);
    }
    p->whole = p->n;
    p->host_shard = -1;
    p->hash = points_hash(p);
    return 0;
fail:
    plan_free(p);
    return -1;
}

void plan_free(struct plan *p)
{
    free(p->points);
    memset(p, 0, sizeof *p);
}

double point_flops(const struct point *pt) { return 2.0 * pt->M * (double)pt->N * pt->K; }

/* One launch of a GPU kernel at this point's shape, in ms: the launch's fixed
 * cost and the longer of its arithmetic and its memory traffic.  A rung with a
 * tile (cfg) runs in waves of blocks over the SMs, each block doing its tile's
 * share of K at the SM's share of the nominal rate; a split it is left to pick
 * is assumed to fill the SMs.  So a tile far larger than a small matrix costs a
 * whole tile, which the nominal rate alone counts as nothing. */
static double launch_ms(const struct variant *v, const struct rung_config *cfg, int split,
                        int M, int N, int K)
{
    const double flops = 2.0 * M * (double)N * K;
    const double per_sm = v->nominal_gflops * 1e9 / PLAN_SMS;
    double work = flops / (v->nominal_gflops * 1e9);
    if (cfg && cfg->block_rows > 0 && cfg->block_cols > 0) {
        const double tiles = ceil((double)M / cfg->block_rows) * ceil((double)N / cfg->block_cols);
        double s = split > 0 ? split : 1;
        if (split <= 0 && cfg->max_split > 0)
            s = fmax(1.0, fmin(cfg->max_split, floor(PLAN_SMS / tiles)));
        const double waves = ceil(tiles * s / PLAN_SMS);
        work = waves * 2.0 * cfg->block_rows * cfg->block_cols * ceil(K / s) / per_sm;
    }
    const double bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    return PLAN_LAUNCH_MS + fmax(work * 1e3, bytes / (PLAN_DRAM_GBS * 1e6));
}

/* One sample of a kernel that takes `one` ms at a shape of `flops`: a launch
 * that lasts the rule's min_sample_ms or, under the power cap,
 * capped_sample_ms, is one sample; a shorter one is repeated over the shape's
 * input sets at least once round (gpu_timing_prepare), so a slow rung at a
 * small shape samples for sets x one, however short min_sample_ms is.  Which
 * points end their warm-up under the cap is not known beforehand: at shapes of
 * PLAN_CAP_FLOPS and more, a share PLAN_CAPPED_SHARE of them is assumed to. */
static double sample_ms(double one, double sets, double flops, const struct sampling_rule *r)
{
    double s = r->min_sample_ms;
    if (flops >= PLAN_CAP_FLOPS && r->capped_sample_ms > s)
        s += PLAN_CAPPED_SHARE * (r->capped_sample_ms - s);
    return one >= s ? one : fmax(s, sets * one);
}

double point_estimate_s(const struct point *pt, const struct experiment *e)
{
    if (pt->skip) return 0.0;
    const int gpu = pt->v->device == DEV_GPU;
    const struct sampling_rule *r = gpu ? &e->gpu_rule : &e->host_rule;
    const double flops = point_flops(pt);
    const double one = flops / (pt->v->nominal_gflops * 1e9) * 1e3;   /* ms */
    if (!gpu) {
        /* The verified call is sample 0; then calls until min_samples and
         * min_time, stopped by the timeout once min_samples are in. */
        double ms = one * r->min_samples;
        if (ms < r->min_time_ms) ms = fmin(r->min_time_ms, fmax(r->timeout_ms, ms));
        if (one >= r->long_point_ms) ms = one;
        return ms / 1e3;
    }
    if (pt->host_memory) {
        /* Round trips: A and B copied in, the kernel, C copied out, each sample;
         * the rule counts the kernel's time towards min_time_ms, so small
         * shapes take max_samples round trips. */
        const double bytes = 4.0 * ((double)pt->M * pt->K + (double)pt->K * pt->N +
                                    (double)pt->M * pt->N);
        const double gbs = pt->host_memory == HOST_MEMORY_PINNED ? PLAN_PINNED_GBS : PLAN_PAGEABLE_GBS;
        const double trip = one + bytes / (gbs * 1e6) + PLAN_TRIP_MS;
        const double n = fmax(r->min_samples, fmin(r->max_samples, ceil(r->min_time_ms / one)));
        const double ms = fmin(n * trip, fmax(r->timeout_ms, r->min_samples * trip));
        /* ... after the transfer buffers are allocated and filled */
        return (ms + 2 * one + bytes / (PLAN_STAGE_GBS * 1e6) + PLAN_POINT_MS) / 1e3;
    }
    /* GPU: the verification launch, one timing launch, the warm-up, then
     * samples of the rung (and, paired, of its reference) until the rung's have
     * min_samples and min_time, at most the timeout once min_samples are in. */
    const struct variant *ref =
        pt->v->reference && !pt->unpaired ? registry_find(pt->v->reference) : NULL;
    const double sets = gpu_input_sets(pt->M, pt->N, pt->K, PLAN_L2_BYTES);
    const double rung = launch_ms(pt->v, pt->cfg, pt->split, pt->M, pt->N, pt->K);
    const double ref_one = ref ? launch_ms(ref, NULL, 0, pt->M, pt->N, pt->K) : 0;
    const double a = sample_ms(rung, sets, flops, r), b = ref ? sample_ms(ref_one, sets, flops, r) : 0;
    const double pair = a + b + (ref ? 2 : 1) * PLAN_SAMPLE_MS;
    const double n = fmax(r->min_samples, ceil(r->min_time_ms / a));
    /* A pair expected near parity under the power cap (nominal rates within
     * PARITY_BAND, TF32 at the cap's shapes) rarely narrows its interval: it
     * samples until the parity timeout. */
    const int capped_tf32 = pt->v->precision == PREC_TF32 && flops >= PLAN_CAP_FLOPS;
    const int near =
        ref && capped_tf32 && fabs(pt->v->nominal_gflops / ref->nominal_gflops - 1.0) <= PARITY_BAND;
    const double timeout = near ? fmax(r->parity_timeout_ms, r->timeout_ms) : r->timeout_ms;
    double ms = fmin(near ? fmax(n * pair, timeout) : n * pair, fmax(timeout, r->min_samples * pair));
    /* the warm-up, a pair of samples at a time: its minimum and the clock's
     * settling, which takes longer the longer a sample is (the settled test
     * compares windows of samples), longer under the power cap, and for a row
     * sampled alone, until the power reading is fresh; it stops at its limit
     * only after the pair under way */
    double warm = fmax(r->warmup_min_ms + PLAN_SETTLE_WINDOWS * r->warmup_window_ms,
                       PLAN_WARM_MS * pow(a + b, PLAN_WARM_POWER));
    if (capped_tf32) warm += PLAN_CAPPED_WARM_MS;
    if (!ref) warm += PLAN_FRESH_MS;
    ms += fmin(warm, r->warmup_max_ms) + PLAN_WARM_OVERRUN * (a + b);
    ms += 2 * rung + ref_one + PLAN_POINT_MS;
    /* a rung the driver compiles from PTX: once, at its first launch */
    if (pt->jit_first) ms += PLAN_JIT_MS;
    return ms / 1e3;
}

double plan_shape_setup_s(int M, int N, int K, const struct experiment *e)
{
    const double elems = (double)M * K + (double)K * N;
    const struct sampling_rule *r = &e->gpu_rule;
    return PLAN_SHAPE_MS / 1e3 + elems * PLAN_INPUT_NS_PER_ELEM * 1e-9 +
           fmax(0.0, fmin(r->shape_warmup_ms, r->warmup_max_ms) - r->warmup_min_ms) / 1e3;
}

static int by_shape(const void *a, const void *b)
{
    const int *x = a, *y = b;
    for (int i = 0; i < 3; i++)
        if (x[i] != y[i]) return (x[i] > y[i]) - (x[i] < y[i]);
    return 0;
}

void plan_estimate(const struct plan *p, const struct experiment *e, struct plan_estimate *out)
{
    memset(out, 0, sizeof *out);
    int(*shapes)[3] = malloc((p->n ? p->n : 1) * sizeof *shapes);
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        if (pt->skip) continue;
        const double t = point_estimate_s(pt, e);
        if (pt->v->device == DEV_HOST) {
            out->host_s += t;
            continue;
        }
        out->gpu_s += t;
        if (shapes) shapes[n][0] = pt->M, shapes[n][1] = pt->N, shapes[n][2] = pt->K, n++;
    }
    /* The GPU points run shape by shape: a shape's first point makes its inputs
     * (on the host, copied in, rotated into copies, with the float64 reference)
     * and warms up longer.  (Without memory for the list, the estimate leaves
     * this out.) */
    if (shapes) qsort(shapes, n, sizeof *shapes, by_shape);
    for (size_t i = 0; i < n; i++)
        if (!i || by_shape(shapes[i], shapes[i - 1]))
            out->gpu_s += plan_shape_setup_s(shapes[i][0], shapes[i][1], shapes[i][2], e);
    free(shapes);
    out->total_s = fmax(out->gpu_s, out->host_s);
}

size_t plan_count_runnable(const struct plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) n += !p->points[i].skip;
    return n;
}

size_t plan_count_skipped_env(const struct plan *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) n += p->points[i].skip_env;
    return n;
}

/* Does the binary hold code for compute capability cc?  SASS for sm_XY runs on
 * X.Y and later minors of major X; PTX for compute_XY is compiled by the driver
 * for any later GPU.  The targets come from nvcc's -gencode options; a build
 * without them holds none. */
static int built_for(const char *flags, int cc, char *list, size_t len)
{
    int any = 0;
    size_t used = 0;
    list[0] = '\0';
    for (const char *s = flags ? strstr(flags, "code=") : NULL; s; s = strstr(s + 5, "code=")) {
        const char *t = s + 5;
        const int sass = !strncmp(t, "sm_", 3), ptx = !strncmp(t, "compute_", 8);
        if (!sass && !ptx) continue;
        const char *num = t + (sass ? 3 : 8);
        char *end;
        const long x = strtol(num, &end, 10);
        if (end == num || *end == 'a' || *end == 'f') continue;   /* arch-specific: not here */
        if (used < len) {
            const int w = snprintf(list + used, len - used, "%s%s%ld", used ? " " : "",
                                   sass ? "sm_" : "compute_", x);
            if (w > 0) used += (size_t)w;
        }
        if (sass ? (x / 10 == cc / 10 && x <= cc) : x <= cc) any = 1;
    }
    return any;
}

void plan_targets(const char *nvccflags, char *out, size_t len)
{
    char list[160];
    built_for(nvccflags, 0, list, sizeof list);
    if (!list[0]) snprintf(out, len, "none (built without CUDA)");
    else snprintf(out, len, "%s; rungs built for one compute capability alone: its sm_XXa", list);
}

int plan_gpu_refuses(const struct variant *v, const struct rung_config *cfg,
                     const struct gpu_caps *d, char *why, size_t len)
{
    if (v->device != DEV_GPU) return 0;
    if (v->only_cc && d->cc != v->min_cc) {
        snprintf(why, len, "needs sm_%da (built for it alone: %s); this GPU is sm_%d", v->min_cc,
                 v->min_cc == 90 ? "wgmma, TMA" : "arch-specific instructions", d->cc);
        return 1;
    }
    if (!v->only_cc && d->cc < v->min_cc) {
        snprintf(why, len, "needs compute capability %d.%d or later; this GPU is %d.%d",
                 v->min_cc / 10, v->min_cc % 10, d->cc / 10, d->cc % 10);
        return 1;
    }
    char list[128];
    if (!v->only_cc && !built_for(d->nvccflags, d->cc, list, sizeof list)) {
        snprintf(why, len, "this binary holds no code for sm_%d (built: %s; make ARCH=%d builds it)",
                 d->cc, list[0] ? list : "none", d->cc);
        return 1;
    }
    if (cfg && cfg->smem_bytes > d->smem_per_block) {
        snprintf(why, len, "needs %ld KiB of shared memory per block; this GPU offers %lld KiB",
                 (cfg->smem_bytes + 1023) / 1024, d->smem_per_block / 1024);
        return 1;
    }
    return 0;
}

/* Does the binary hold machine code (SASS) that runs on compute capability cc?
 * Without it the driver compiles the PTX when a kernel first launches. */
static int sass_for(const char *flags, int cc)
{
    for (const char *s = flags ? strstr(flags, "code=sm_") : NULL; s; s = strstr(s + 8, "code=sm_")) {
        char *end;
        const long x = strtol(s + 8, &end, 10);
        if (end != s + 8 && *end != 'a' && *end != 'f' && x / 10 == cc / 10 && x <= cc) return 1;
    }
    return 0;
}

size_t plan_apply_gpu(struct plan *p, const struct gpu_caps *d)
{
    size_t n = 0;
    const int jit = !sass_for(d->nvccflags, d->cc);
    for (size_t i = 0; i < p->n; i++) {
        struct point *pt = &p->points[i];
        if (pt->skip || pt->v->device != DEV_GPU) continue;
        if (plan_gpu_refuses(pt->v, pt->cfg, d, pt->skip_reason, sizeof pt->skip_reason)) {
            pt->skip = 1;
            n++;
            continue;
        }
        /* Our own kernels (not cuBLAS's, not the sm_90a image's, not a dispatch
         * row's, whose rung comes first), one configuration after another. */
        if (!jit || pt->v->only_cc || !pt->v->reference || pt->v->dispatch) continue;
        pt->jit_first = 1;
        for (size_t j = 0; j < i && pt->jit_first; j++)
            if (p->points[j].v == pt->v && p->points[j].cfg == pt->cfg && !p->points[j].skip)
                pt->jit_first = 0;
    }
    return n;
}

/* Seconds as people write them: "812", "60", "12.9", "0.001". */
static void seconds_str(char *buf, size_t len, double s)
{
    snprintf(buf, len, s >= 100 && s < 1e9 ? "%.0f" : "%.3g", s);
}

size_t plan_apply_host_budget(struct plan *p, const struct experiment *e, double budget_s)
{
    size_t n = 0;
    if (!(budget_s > 0)) return 0;
    for (size_t i = 0; i < p->n; i++) {
        struct point *pt = &p->points[i];
        if (pt->skip || pt->v->device != DEV_HOST) continue;
        double est = point_estimate_s(pt, e);
        if (est <= budget_s) continue;
        char es[24], bs[24];
        seconds_str(es, sizeof es, est);
        seconds_str(bs, sizeof bs, budget_s);
        snprintf(pt->skip_reason, sizeof pt->skip_reason,
                 "estimated %s s > host budget %s s (--host-budget S or --no-budget to run "
                 "it)", es, bs);
        pt->skip = 1;
        n++;
    }
    return n;
}
