/* Claims evaluated against the runs: see check.h. */
#include "check.h"
#include "views/views.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "claims_parts.h"

/* ---- evaluation ------------------------------------------------------------------ */

static const struct run *find_run(const struct run *runs, size_t n, const char *role)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(runs[i].role, role)) return &runs[i];
    return NULL;
}

/* Does a row pass a filter? */
static int filtered(const struct claim_filter *c, const struct result_row *row)
{
    int ok = 1;
    if (c->n_opt) {
        ok = 0;
        for (int i = 0; i < c->n_opt; i++) ok |= row->opt_level == c->opt_levels[i];
    }
    if (ok && c->n_tiles) {
        ok = 0;
        for (int i = 0; i < c->n_tiles; i++) ok |= row->tile == c->tiles[i];
    }
    if (ok && c->n_wpts) {
        ok = 0;
        for (int i = 0; i < c->n_wpts; i++) ok |= row->wpt == c->wpts[i];
    }
    return ok;
}

/* The best passed ordinary row of `rung` at s within a filter. */
static const struct result_row *best(const struct claim_filter *c, const struct run *r,
                                     const char *rung, struct shape s)
{
    const struct result_row *b = NULL;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        if (!strcmp(row->variant, rung) && !strcmp(row->disposition, "passed") &&
            !row->host_memory[0] && row->M == s.M && row->N == s.N && row->K == s.K &&
            filtered(c, row) && (!b || row->gflops > b->gflops))
            b = row;
    }
    return b;
}

/* One value of the claim in run r at its i-th shape s: NaN when the data lack it. */
/* Was this row sampled paired with its rung's reference? */
static int paired(const struct result_row *a, const struct variant *v)
{
    return a->pairs > 1 && v->reference && !strcmp(a->paired_with, v->reference) &&
           isfinite(a->ref_ratio);
}

static double value_at(const struct claim *c, const struct run *r, int i, struct shape s)
{
    const struct variant *v = registry_find(c->rung);
    const struct result_row *a = best(&c->filter, r, c->rung, s);
    switch (c->value) {
    case CV_PCT_REF: {   /* the lowest estimate: the number every table prints */
        const struct claim_filter *f = &c->filter;
        if (!f->n_opt && !f->n_tiles && !f->n_wpts) return estimates_pct_ref(r, v, s);
        const struct variant *ref = v->reference ? registry_find(v->reference) : NULL;
        return a && ref ? estimates_pct_of_row(r, a, derive_best(r, ref, s)) : NAN;
    }
    case CV_PCT_REF_PAIRED: return a && paired(a, v) ? 100.0 * a->ref_ratio : NAN;
    case CV_PCT_REF_CI: return a && paired(a, v) ? 100.0 * a->ref_ratio_ci95 : NAN;
    case CV_PCT_PEAK: return a && r->peak_gflops > 0 ? 100.0 * a->gflops / r->peak_gflops : NAN;
    case CV_TFLOPS: return a ? a->gflops / 1000.0 : NAN;
    case CV_RATIO: {
        const struct result_row *b =
            best(&c->other_filter, r, c->other, c->n_other_shapes ? c->other_shapes[i] : s);
        return a && b ? a->gflops / b->gflops : NAN;
    }
    case CV_COPY_RATIO: {
        double copies[2] = {NAN, NAN};   /* pinned, pageable */
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            const int kind = !strcmp(row->host_memory, "pinned") ? 0
                             : !strcmp(row->host_memory, "pageable") ? 1 : -1;
            if (kind >= 0 && !strcmp(row->variant, c->rung) && !strcmp(row->disposition, "passed") &&
                row->M == s.M && row->N == s.N && row->K == s.K && filtered(&c->filter, row))
                copies[kind] = row->h2d_ms_median + row->d2h_ms_median;
        }
        return copies[1] / copies[0];
    }
    case CV_STEP: return a ? derive_step(r, v, s) : NAN;
    case CV_REL_STDDEV: return a ? 100.0 * derive_rel_stddev(a) : NAN;
    case CV_PCT_REF_KERNEL: return estimates_at(r, v, s, EST_KERNEL);
    case CV_PCT_REF_ALONE: return estimates_at(r, v, s, EST_ALONE);
    case CV_ESTIMATES_SPREAD: return estimates_at(r, v, s, EST_SPREAD);
    case CV_REF_IN_PAIRS: return estimates_at(r, v, s, EST_REF_IN_PAIRS);
    case CV_CLOCK_IN_PAIRS: return estimates_at(r, v, s, EST_CLOCK_IN_PAIRS);
    case CV_AGREEMENT: case CV_UNVERIFIED: case CV_STABLE_SHARE: case CV_STABLE_UNCAPPED:
    case CV_UNSTABLE_UNCAPPED: case CV_SUITE_PCT_REF: case CV_SUITE_GEOMEAN:
    case CV_DISPATCH_SHARE: case CV_ESTIMATE: case CV_WALL_S: case CV_AGREEMENT_SHARE:
    case CV_CORPUS_PCT_REF: case CV_CORPUS_GEOMEAN: case CV_CORPUS_DISPATCH_PCT:
    case CV_CORPUS_DISPATCH_GEOMEAN: case CV_CORPUS_DISPATCH_SHARE: case CV_CORPUS_SHARE_90:
    case CV_WALL_RATIO: case CV_CORPUS_ESTIMATES_SHARE: case CV_CORPUS_COPY_PCT:
    case CV_CORPUS_KERNEL_GEOMEAN: case CV_CORPUS_KERNEL_DISPATCH_GEOMEAN:
    case CV_CORPUS_KERNEL_GAP: case CV_CORPUS_KERNEL_SHARE: case CV_CORPUS_KERNEL_APART_MS:
    case CV_CORPUS_REGRET_MEDIAN: case CV_CORPUS_REGRET_P90: case CV_CORPUS_DISPATCH_SHARE_10: break;
    }
    return NAN;
}

struct acc {
    size_t count;
    double min, max;
    double worst_dist;      /* how far outside the bounds (or, inside, how close) */
    char worst[128];
    char min_at[96], max_at[96];
    int failed;
};

/* Take value x, measured at `where` ("h100 4096": in the report) and `at` (the
 * same without the run: in the text's {min_at} and {max_at}). */
static void take(struct acc *a, const struct claim *c, double x, const char *where, const char *at)
{
    if (!isfinite(x)) return;
    if (a->count++ == 0 || x < a->min) {
        a->min = x;
        snprintf(a->min_at, sizeof a->min_at, "%s", at);
    }
    if (a->count == 1 || x > a->max) {
        a->max = x;
        snprintf(a->max_at, sizeof a->max_at, "%s", at);
    }
    /* distance past the nearer bound: > 0 outside, <= 0 inside */
    const double past = fmax(c->lo - x, x - c->hi);
    if (past > 0) a->failed = 1;
    if ((a->count == 1 && !a->failed) || past > a->worst_dist) {
        a->worst_dist = past;
        snprintf(a->worst, sizeof a->worst, "%s", where);
    }
}

static const char *fmt_of(enum claim_value v)
{
    switch (v) {
    case CV_RATIO: case CV_STEP: case CV_AGREEMENT: case CV_ESTIMATE: case CV_WALL_RATIO:
        return "%.2f";
    case CV_REF_IN_PAIRS: case CV_CLOCK_IN_PAIRS: case CV_CORPUS_REGRET_MEDIAN:
    case CV_CORPUS_REGRET_P90: return "%.3f";
    case CV_UNVERIFIED: case CV_UNSTABLE_UNCAPPED: case CV_WALL_S: return "%.0f";
    case CV_PCT_REF_CI: case CV_ESTIMATES_SPREAD: case CV_CORPUS_KERNEL_APART_MS: return "%.2f";
    case CV_REL_STDDEV: return "%.2f";
    default: return "%.1f";
    }
}

static void format_range(char *buf, size_t len, const char *fmt, double lo, double hi)
{
    char a[32], b[32];
    snprintf(a, sizeof a, fmt, lo);
    snprintf(b, sizeof b, fmt, hi);
    if (!strcmp(a, b)) snprintf(buf, len, "%s", a);
    else snprintf(buf, len, "%s-%s", a, b);
}

/* The text with {range}, {min}, {max} and {count} filled in. */
static void fill_text(const struct claim *c, const struct claim_result *r, char *out, size_t len)
{
    const char *fmt = fmt_of(c->value);
    size_t o = 0;
    for (const char *s = c->text; *s && o + 1 < len;) {
        char val[96] = "";
        const char *end = NULL;
        int words = 0;   /* a placeholder of words, not of a value */
        if (*s == '{' && (end = strchr(s, '}'))) {
            const size_t n = (size_t)(end - s - 1);
            if (n == 4 && !strncmp(s + 1, "cpus", 4))   /* whose CPUs measured the values */
                words = snprintf(val, sizeof val, "%s",
                                 r->mine ? "this machine's CPU" : "the reference machines' CPUs");
            else if (n == 5 && !strncmp(s + 1, "range", 5)) format_range(val, sizeof val, fmt, r->min, r->max);
            else if (n == 3 && !strncmp(s + 1, "min", 3)) snprintf(val, sizeof val, fmt, r->min);
            else if (n == 3 && !strncmp(s + 1, "max", 3)) snprintf(val, sizeof val, fmt, r->max);
            else if (n == 5 && !strncmp(s + 1, "count", 5)) snprintf(val, sizeof val, "%zu", r->count);
            else if (n == 6 && !strncmp(s + 1, "min_at", 6)) snprintf(val, sizeof val, "%s", r->min_at);
            else if (n == 6 && !strncmp(s + 1, "max_at", 6)) snprintf(val, sizeof val, "%s", r->max_at);
            else end = NULL;
        }
        if (end) {
            if (!r->count && !words) snprintf(val, sizeof val, "?");
            o += (size_t)snprintf(out + o, len - o, "%s", val);
            s = end + 1;
        } else {
            out[o++] = *s++;
        }
    }
    out[o < len ? o : len - 1] = '\0';
}

static void expected_text(const struct claim *c, char *buf, size_t len)
{
    const char *fmt = fmt_of(c->value);
    char a[32], b[32];
    snprintf(a, sizeof a, fmt, c->lo);
    snprintf(b, sizeof b, fmt, c->hi);
    if (c->expect == CE_AT_LEAST) snprintf(buf, len, ">= %s", a);
    else if (c->expect == CE_AT_MOST) snprintf(buf, len, "<= %s", b);
    else snprintf(buf, len, "%s to %s", a, b);
}

/* Was the run made on a GPU?  A run without one records gpu_name "none"
 * (provenance.c); older files left it empty. */
static int has_gpu(const struct run *r) { return r->gpu_name[0] && strcmp(r->gpu_name, "none"); }

/* The GPU model a run names, without "NVIDIA " and past its first word ("H100",
 * "H200"); "host" for a run without a GPU. */
static int gpu_model(const struct run *r, const char **m)
{
    *m = !has_gpu(r) ? "host" : strncmp(r->gpu_name, "NVIDIA ", 7) ? r->gpu_name : r->gpu_name + 7;
    return (int)strcspn(*m, " ");
}

/* Do both runs have a wall time and the same GPU model? */
static int same_gpu(const struct run *a, const struct run *b)
{
    const char *ma, *mb;
    int la = gpu_model(a, &ma);
    return isfinite(a->wall_s) && isfinite(b->wall_s) && gpu_model(b, &mb) == la &&
           !strncmp(ma, mb, (size_t)la);
}

static void duration(double s, char *out, size_t len)
{
    if (s < 90) snprintf(out, len, "%.0f s", s);
    else snprintf(out, len, "%.0f min", s / 60);
}

/* How long the runs a claim reads took, from their files, one entry per GPU
 * model in the claim's order: "3 min on the H100, 16 s to 4 min on the H200"
 * ("" when no file says).  Entries that do not fit end the text with ", ...". */
static void run_times(const struct run *const *rs, size_t nrs, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (size_t k = 0; k < nrs; k++) {
        const char *m;
        int ml = gpu_model(rs[k], &m), seen = !isfinite(rs[k]->wall_s);
        for (size_t j = 0; j < k && !seen; j++) seen = same_gpu(rs[j], rs[k]);
        if (seen) continue;
        double lo = rs[k]->wall_s, hi = lo;
        for (size_t j = k + 1; j < nrs; j++)
            if (same_gpu(rs[j], rs[k])) {
                lo = fmin(lo, rs[j]->wall_s);
                hi = fmax(hi, rs[j]->wall_s);
            }
        char a[32], b[32], entry[96];
        duration(lo, a, sizeof a);
        duration(hi, b, sizeof b);
        if (strcmp(a, b)) snprintf(entry, sizeof entry, "%s to %s on the %.*s", a, b, ml, m);
        else snprintf(entry, sizeof entry, "%s on the %.*s", a, ml, m);
        const char *sep = o ? ", " : "";
        if (o + strlen(sep) + strlen(entry) + strlen(", ...") >= len) {
            if (o + strlen(", ...") < len) snprintf(out + o, len - o, "%s...", sep);
            return;
        }
        o += (size_t)snprintf(out + o, len - o, "%s%s", sep, entry);
    }
}

/* Of the corpus points whose fastest rung was sampled paired with the
 * corpus's reference, the % whose paired estimate of its % of the reference
 * agrees with the standalone one within ESTIMATES_CLOSE; NaN when none was. */
static double estimates_share(const struct suite_point *pt, size_t n)
{
    size_t paired = 0, close = 0;
    for (size_t i = 0; i < n; i++) {
        const struct result_row *b = pt[i].best_row;
        if (!b || !pt[i].ref || b->pairs < 2 || strcmp(b->paired_with, pt[i].ref->name) != 0 ||
            !isfinite(b->ref_ratio) || !(pt[i].best_pct_events > 0))
            continue;
        paired++;
        close += fabs(100.0 * b->ref_ratio / pt[i].best_pct_events - 1.0) <= ESTIMATES_CLOSE;
    }
    return paired ? 100.0 * (double)close / (double)paired : NAN;
}

/* Of the corpus points, the % whose fastest rung's % of the reference by the
 * second timer agrees with the events' (standalone) within ESTIMATES_CLOSE
 * (apart_ms = 0), or the longest reference time (ms, events) among those that
 * do not (apart_ms = 1; 0 when every one agrees), *at its index (n when
 * none); NaN when a point has no second timer's. */
static double kernel_share(const struct suite_point *pt, size_t n, int apart_ms, size_t *at)
{
    size_t close = 0;
    double longest = 0;
    *at = n;
    for (size_t i = 0; i < n; i++) {
        if (!(pt[i].best_pct_kernel > 0) || !(pt[i].best_pct_events > 0)) return NAN;
        const int agree = fabs(pt[i].best_pct_kernel / pt[i].best_pct_events - 1.0) <= ESTIMATES_CLOSE;
        close += agree;
        if (!agree && pt[i].ref_row->time_ms_median > longest) {
            longest = pt[i].ref_row->time_ms_median;
            *at = i;
        }
    }
    return !n ? NAN : apart_ms ? longest : 100.0 * (double)close / (double)n;
}

/* Evaluate over the claim's runs, in its order. */
static void evaluate(const struct claim *c, const struct run *const *rs, size_t nrs,
                     struct claim_result *out)
{
    struct acc a = {0};
    char where[192], shape[48];
    if (claim_pairwise(c->value)) {
        struct pair *p;
        size_t n = derive_pairs(rs[0], rs[1], &p), kept = 0, within = 0;
        for (size_t i = 0; i < n; i++) {
            int keep = p[i].v->device == (c->host_rows ? DEV_HOST : DEV_GPU) &&
                       (c->precision < 0 || (int)p[i].v->precision == c->precision);
            if (keep && c->n_only) {
                keep = 0;
                for (int k = 0; k < c->n_only; k++) keep |= !strcmp(c->only[k], p[i].v->name);
            }
            for (int k = 0; keep && k < c->n_except; k++) keep = strcmp(c->except[k], p[i].v->name) != 0;
            if (keep && c->n_shapes) {
                keep = 0;
                for (int k = 0; k < c->n_shapes; k++)
                    keep |= p[i].s.M == c->shapes[k].M && p[i].s.N == c->shapes[k].N &&
                            p[i].s.K == c->shapes[k].K;
            }
            if (!keep) continue;
            kept++;
            within += fabs(p[i].ratio - 1.0) <= AGREEMENT_CLOSE;
            shape_label(p[i].s, shape, sizeof shape);
            snprintf(where, sizeof where, "%s %s%s%s", p[i].v->name, shape, p[i].memory[0] ? " " : "",
                     p[i].memory);
            if (c->value == CV_AGREEMENT) take(&a, c, p[i].ratio, where, where);
        }
        free(p);
        if (c->value == CV_AGREEMENT_SHARE && kept)
            take(&a, c, 100.0 * within / kept, rs[0]->role, rs[0]->role);
    } else if (claim_over_suite(c->value)) {
        size_t room = 1;
        for (size_t k = 0; k < nrs; k++)
            if (derive_suite_room(rs[k]) > room) room = derive_suite_room(rs[k]);
        struct suite_point *pt = malloc(room * sizeof *pt);
        const int corpus = claim_over_corpus(c->value);
        for (size_t k = 0; k < nrs && pt; k++) {
            const enum precision pr = (enum precision)c->precision;
            size_t n = corpus ? derive_corpus(rs[k], pr, pt, room) : derive_suite(rs[k], pr, pt, room);
            size_t m = 0;
            for (size_t i = 0; i < n; i++) {   /* the points the claim keeps */
                int keep = !c->classes || (c->classes >> (corpus ? (int)pt[i].corpus : (int)pt[i].cls) & 1u);
                if (keep && c->n_shapes) {
                    keep = 0;
                    for (int j = 0; j < c->n_shapes; j++)
                        keep |= pt[i].s.M == c->shapes[j].M && pt[i].s.N == c->shapes[j].N &&
                                pt[i].s.K == c->shapes[j].K;
                }
                if (keep) pt[m++] = pt[i];
            }
            if (claim_by_kernel_timer(c->value) && m && !(pt[0].best_pct_kernel > 0)) {
                a.failed = 1;
                a.worst_dist = INFINITY;   /* the reason that stays */
                snprintf(a.worst, sizeof a.worst, "%s: no kernel times (a run without --kernel-timer)",
                         rs[k]->role);
                continue;
            }
            if (c->value == CV_SUITE_PCT_REF || c->value == CV_CORPUS_PCT_REF ||
                c->value == CV_CORPUS_DISPATCH_PCT || c->value == CV_CORPUS_COPY_PCT) {
                const int d = c->value == CV_CORPUS_DISPATCH_PCT;
                for (size_t i = 0; i < m; i++) {
                    shape_label(pt[i].s, shape, sizeof shape);
                    snprintf(where, sizeof where, "%s %s (%s)", rs[k]->role, shape,
                             d ? "dispatch" : pt[i].best->name);
                    take(&a, c,
                         c->value == CV_CORPUS_COPY_PCT ? corpus_copy_pct(rs[k], &pt[i])
                         : d                            ? pt[i].dispatch_pct
                                                        : pt[i].best_pct,
                         where, strchr(where, ' ') + 1);
                }
            } else if (c->value == CV_CORPUS_ESTIMATES_SHARE) {
                const double x = estimates_share(pt, m);
                take(&a, c, x, rs[k]->role, rs[k]->role);
            } else if (c->value == CV_CORPUS_KERNEL_SHARE || c->value == CV_CORPUS_KERNEL_APART_MS) {
                size_t at;   /* the longest product apart: where, by role and shape */
                const double x = kernel_share(pt, m, c->value == CV_CORPUS_KERNEL_APART_MS, &at);
                snprintf(where, sizeof where, "%s", rs[k]->role);
                if (c->value == CV_CORPUS_KERNEL_APART_MS && at < m) {
                    shape_label(pt[at].s, shape, sizeof shape);
                    snprintf(where, sizeof where, "%s %s", rs[k]->role, shape);
                }
                take(&a, c, x, where, where);
            } else if (corpus && m) {
                struct corpus_summary su;
                derive_corpus_summary(pt, m, CC_COUNT, &su);
                /* the two timers: CUPTI's records against the events alone */
                const double gap = fmax(fabs(su.kernel_geomean - su.events_geomean),
                                        fabs(su.kernel_dispatch_geomean - su.events_dispatch_geomean));
                const double x = c->value == CV_CORPUS_GEOMEAN            ? su.best_geomean
                                 : c->value == CV_CORPUS_DISPATCH_GEOMEAN ? su.dispatch_geomean
                                 : c->value == CV_CORPUS_SHARE_90         ? su.best_share_90
                                 : c->value == CV_CORPUS_KERNEL_GEOMEAN   ? su.kernel_geomean
                                 : c->value == CV_CORPUS_KERNEL_DISPATCH_GEOMEAN
                                     ? su.kernel_dispatch_geomean
                                 : c->value == CV_CORPUS_KERNEL_GAP          ? gap
                                 : c->value == CV_CORPUS_REGRET_MEDIAN       ? su.regret_median
                                 : c->value == CV_CORPUS_REGRET_P90          ? su.regret_p90
                                 : c->value == CV_CORPUS_DISPATCH_SHARE_10   ? su.dispatch_share_10
                                 : 100.0 * su.dispatch_geomean / su.best_geomean;
                take(&a, c, x, rs[k]->role, rs[k]->role);
            } else if (m) {
                const double best = derive_suite_geomean(pt, m, 0);
                take(&a, c, c->value == CV_SUITE_GEOMEAN ? best
                                                         : 100.0 * derive_suite_geomean(pt, m, 1) / best,
                     rs[k]->role, rs[k]->role);
            }
        }
        free(pt);
    } else if (claim_per_run(c->value)) {
        for (size_t k = 0; k < nrs; k++) take(&a, c, claim_stability(c, rs[k]), rs[k]->role, rs[k]->role);
    } else if (c->value == CV_ESTIMATE || c->value == CV_WALL_S) {
        for (size_t k = 0; k < nrs; k++)
            take(&a, c, c->value == CV_WALL_S ? rs[k]->wall_s : rs[k]->wall_s / rs[k]->estimated_s,
                 rs[k]->role, rs[k]->role);
    } else if (c->value == CV_WALL_RATIO) {
        take(&a, c, rs[0]->wall_s / rs[1]->wall_s, rs[0]->role, rs[0]->role);
    } else if (c->value == CV_UNVERIFIED) {
        for (size_t k = 0; k < nrs; k++) {
            size_t bad = 0;
            for (size_t i = 0; i < rs[k]->f.n_rows; i++)
                bad += !strcmp(rs[k]->f.rows[i].disposition, "incorrect") ||
                       !strcmp(rs[k]->f.rows[i].disposition, "failed");
            take(&a, c, (double)bad, rs[k]->role, rs[k]->role);
        }
    } else {
        for (size_t k = 0; k < nrs; k++)
            for (int i = 0; i < c->n_shapes; i++) {
                shape_label(c->shapes[i], shape, sizeof shape);
                snprintf(where, sizeof where, "%s %s", rs[k]->role, shape);
                take(&a, c, value_at(c, rs[k], i, c->shapes[i]), where, shape);
            }
    }
    out->count = a.count;
    out->min = a.min;
    out->max = a.max;
    snprintf(out->worst, sizeof out->worst, "%s", a.worst);
    snprintf(out->min_at, sizeof out->min_at, "%s", a.min_at);
    snprintf(out->max_at, sizeof out->max_at, "%s", a.max_at);
    if (!a.count && !a.failed) {
        out->verdict = CLAIM_NOT_EVALUATED;
        snprintf(out->why, sizeof out->why, "no values: the data lack what it measures");
    } else {
        out->verdict = a.failed ? CLAIM_FAILED : CLAIM_PASSED;
    }
    format_range(out->measured, sizeof out->measured, fmt_of(c->value), a.min, a.max);
    if (!a.count) snprintf(out->measured, sizeof out->measured, "-");
    expected_text(c, out->expected, sizeof out->expected);
    fill_text(c, out, out->text, sizeof out->text);
    run_times(rs, nrs, out->time, sizeof out->time);
}

void claims_evaluate(const struct claim *c, const struct run *runs, size_t nruns,
                     struct claim_result *r)
{
    memset(r, 0, sizeof *r);
    const struct run *rs[CLAIM_MAX_LIST];
    for (int i = 0; i < c->n_runs; i++) {
        rs[i] = find_run(runs, nruns, c->runs[i]);
        if (!rs[i]) {
            r->verdict = CLAIM_NOT_EVALUATED;
            snprintf(r->why, sizeof r->why, "needs the run '%s'", c->runs[i]);
            snprintf(r->measured, sizeof r->measured, "-");
            expected_text(c, r->expected, sizeof r->expected);
            fill_text(c, r, r->text, sizeof r->text);
            return;
        }
    }
    evaluate(c, rs, (size_t)c->n_runs, r);
}

void claims_evaluate_mine(const struct claim *c, const struct run *mine, const struct run *refs,
                          size_t nrefs, struct claim_result *r)
{
    memset(r, 0, sizeof *r);
    const int host = claims_on_host(c);
    const char *why = NULL;
    if (claim_of_two_runs(c->value)) {
        why = "compares two reference runs";
    } else if (!host && !has_gpu(mine)) {
        why = "needs a GPU run";
    } else if (!host && !c->any_gpu) {
        why = "needs the reference GPU model (its runs')";
        for (int i = 0; i < c->n_runs; i++) {
            const struct run *ref = find_run(refs, nrefs, c->runs[i]);
            if (ref && has_gpu(ref) && !strcmp(ref->gpu_name, mine->gpu_name)) why = NULL;
        }
    }
    r->mine = 1;   /* before the text is filled: {cpus} is this machine's CPU */
    r->elsewhere = host && !c->any_gpu;
    if (why) {
        r->verdict = CLAIM_NOT_EVALUATED;
        snprintf(r->why, sizeof r->why, "%s", why);
        snprintf(r->measured, sizeof r->measured, "-");
        expected_text(c, r->expected, sizeof r->expected);
        fill_text(c, r, r->text, sizeof r->text);
    } else {
        const struct run *rs[1] = {mine};
        evaluate(c, rs, 1, r);
    }
}

int claims_on_host(const struct claim *c)
{
    if (claim_pairwise(c->value)) return c->host_rows;
    const struct variant *v = c->rung[0] ? registry_find(c->rung) : NULL;
    return v && v->device == DEV_HOST;
}

const char *claims_holds_on(const struct claim *c)
{
    if (claims_on_host(c)) return c->any_gpu ? "any x86-64 core" : "the reference machines' CPUs";
    return c->any_gpu ? "any GPU" : "the GPU models of its runs";
}

/* The README's "without a GPU" cell. */
static const char *without_gpu(const struct claim *c)
{
    if (!claims_on_host(c)) return "checked against the shipped files by `make check-claims`";
    if (claim_pairwise(c->value))
        return "about the reference machines' CPUs: `make reproduce` shows your host rows beside "
               "the reference's, not held to it; checked against the shipped files by "
               "`make check-claims`";
    if (c->any_gpu)
        return "holds on any x86-64 core: measured on yours and checked by `make reproduce`; "
               "checked against the shipped files by `make check-claims`";
    return "about the reference machines' CPUs: measured on yours by `make reproduce` and "
           "reported, not held; checked against the shipped files by `make check-claims`";
}

size_t claims_report(FILE *out, const struct claims *cs, const struct claim_result *rs,
                     int markdown)
{
    size_t failed = 0;
    int history = 0;   /* claims_classify ran: say when each band was stated */
    for (size_t i = 0; i < cs->n; i++) history |= rs[i].stated != STATED_UNKNOWN;
    if (markdown)
        fprintf(out, "| claim | measured | expected | verdict | figure | how to check (time per run) "
                     "| without a GPU |%s\n"
                     "|---|---|---|---|---|---|---|%s\n",
                history ? " band stated |" : "", history ? "---|" : "");
    for (size_t i = 0; i < cs->n; i++) {
        const struct claim *c = &cs->c[i];
        const struct claim_result *r = &rs[i];
        if (r->mine && r->verdict == CLAIM_NOT_EVALUATED) continue;
        const char *verdict = r->verdict == CLAIM_NOT_EVALUATED ? "not evaluated"
                              : !r->mine   ? (r->verdict == CLAIM_PASSED ? "passed" : "FAILED")
                              : r->verdict == CLAIM_PASSED ? "held"
                              : r->elsewhere               ? "not held here"
                                                           : "NOT HELD";
        failed += r->verdict == CLAIM_FAILED && !r->elsewhere;
        if (markdown) {
            char text[1400];
            size_t o = 0;   /* '_' escaped, so that "__restrict" is not emphasis */
            for (const char *t = r->text; *t && o + 3 < sizeof text; t++) {
                if (*t == '_' || *t == '|') text[o++] = '\\';
                text[o++] = *t;
            }
            text[o] = '\0';
            static const char *const when[] = {"-", "before its data", "revised after its data",
                                               "after its data", "MOVED WITHOUT A RECORD"};
            fprintf(out, "| %s | %s | %s | %s | %s | `%s` (%s) | %s |", text, r->measured,
                    r->expected, verdict, c->figure[0] ? c->figure : "-",
                    c->command[0] ? c->command : "make check-claims",
                    r->time[0] ? r->time : "seconds", without_gpu(c));
            if (history) fprintf(out, " %s |", when[r->stated]);
            fputc('\n', out);
        } else if (r->mine && claims_on_host(c)) {   /* a reviewer's CPU: say where it holds */
            const int failed_at = r->verdict == CLAIM_FAILED;
            fprintf(out, "%-28s %-14s %-16s %-14s %s%s%s\n", c->id, r->measured, r->expected,
                    verdict, failed_at ? r->worst : "", failed_at ? " " : "",
                    c->any_gpu ? "(holds on any x86-64 core)"
                               : "(about the reference machines' CPUs: reported, never failed)");
            fprintf(out, "    %s\n", r->text);
        } else {
            fprintf(out, "%-28s %-14s %-16s %-14s %s\n", c->id, r->measured, r->expected, verdict,
                    r->verdict == CLAIM_NOT_EVALUATED ? r->why
                    : r->verdict == CLAIM_FAILED      ? r->worst
                                                      : "");
            fprintf(out, "    %s\n", r->text);
            if (r->stated_text[0]) fprintf(out, "    band %s\n", r->stated_text);
        }
    }
    return failed;
}
