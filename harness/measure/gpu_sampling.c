/* The GPU's timed samples of one point: see gpu_sampling.h. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_sampling.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int sample_rows_reserve(struct sample_rows *s, int need)
{
    if (need <= s->cap) return 0;
    const int cap = need < 64 ? 64 : 2 * need;
    struct sample_row *p = realloc(s->sr, (size_t)cap * sizeof *p);
    if (p) s->sr = p;
    struct gpu_kernels *a = p ? realloc(s->ka, (size_t)cap * sizeof *a) : NULL;
    if (a) s->ka = a;
    struct gpu_kernels *b = a ? realloc(s->kb, (size_t)cap * sizeof *b) : NULL;
    if (!b) return -1;
    s->kb = b;
    s->cap = cap;
    return 0;
}

static int interrupted(const struct gpu_sampler *s) { return *s->interrupted != 0; }

/* ---- the SM clock as the SMs count it ------------------------------------------ */

static const char *read_clock(struct gpu_sampler *s, double *mhz)
{
    const char *e = gpu_sm_clock_mhz(s->g, mhz);
    if (e) return e;
    const int i = s->clocks++ % GPU_CLOCK_LOG;
    s->clock_t[i] = now_ms();
    s->clock_mhz[i] = *mhz;
    return NULL;
}

/* The mean of the clock readings taken in [t0, t1]; NaN when none. */
static double clock_mean(const struct gpu_sampler *s, double t0, double t1)
{
    double sum = 0;
    int n = 0;
    const int held = s->clocks < GPU_CLOCK_LOG ? s->clocks : GPU_CLOCK_LOG;
    for (int k = 0; k < held; k++) {
        const int i = (s->clocks - 1 - k) % GPU_CLOCK_LOG;
        if (s->clock_t[i] < t0) break;   /* newest first: the rest are older */
        if (s->clock_t[i] <= t1) sum += s->clock_mhz[i], n++;
    }
    return n ? sum / n : NAN;
}

/* ---- telemetry ------------------------------------------------------------------- */

/* The NVML readings over [t0, t1], once the sampler has caught up with t1. */
static int window_of(const struct gpu_sampler *s, double t0, double t1, struct telemetry_summary *w)
{
    telemetry_sync(s->tm, t1);
    telemetry_window(s->tm, t0, t1, w);
    return w->n > 0;
}

const char *gpu_sampling_measure_refresh(struct gpu_sampler *s, double ms, double *refresh_ms,
                                         double *instant_refresh_ms)
{
    *refresh_ms = *instant_refresh_ms = NAN;
    const double t0 = now_ms();
    const char *e = gpu_spin(s->g, ms);
    if (e) return e;
    const double t1 = now_ms();
    if (!s->tm) return NULL;
    telemetry_sync(s->tm, t1);
    *refresh_ms = telemetry_refresh_ms(s->tm, t0, t1, TELEMETRY_POWER);
    *instant_refresh_ms = telemetry_refresh_ms(s->tm, t0, t1, TELEMETRY_INSTANT);
    s->instant = isfinite(*instant_refresh_ms);
    const double used = s->instant ? *instant_refresh_ms : *refresh_ms;
    s->window_floor_ms = isfinite(used) ? used : 0;
    return NULL;
}

void gpu_sample_telemetry(const struct gpu_sampler *s, double t0, double t1, struct sample_row *out)
{
    struct telemetry_summary w = {0};
    if (s->tm) telemetry_window(s->tm, t0, t1, &w);
    out->t_s = (t1 - s->t_start) / 1e3;
    out->clock_mhz = w.n ? w.clock_mean : NAN;
    out->power_w = w.n ? w.power_mean : NAN;
    out->reasons = (int32_t)w.reasons;
}

void gpu_row_telemetry(const struct gpu_sampler *s, const struct sample_row *sr, int n, double t0,
                       struct result_row *row)
{
    double probe = 0;
    int probes = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(sr[i].probe_mhz)) probe += sr[i].probe_mhz, probes++;
    row->probe_mhz_mean = probes ? probe / probes : NAN;
    if (!s->tm) {
        snprintf(row->telemetry, sizeof row->telemetry, "unavailable");
        return;
    }
    struct telemetry_summary w;
    const double t1 = now_ms();
    telemetry_sync(s->tm, t1);
    telemetry_window(s->tm, t0, t1, &w);
    snprintf(row->telemetry, sizeof row->telemetry, "%s", w.n ? "nvml" : "unavailable");
    if (!w.n) return;
    row->clock_mhz_min = w.clock_min;
    row->clock_mhz_mean = w.clock_mean;
    row->clock_mhz_max = w.clock_max;
    row->power_w_mean = w.power_mean;
    row->power_w_max = w.power_max;
    row->temp_c_max = w.temp_max;
    row->clock_reasons = (int32_t)w.reasons;
    for (int i = 0; i < n; i++)
        row->throttled_samples += (sr[i].reasons & TELEMETRY_THROTTLE_REASONS) != 0;
}

/* ---- warm-up ------------------------------------------------------------------- */

/* The power a window is judged by: the instant reading where there is one. */
static double window_power(const struct gpu_sampler *s, const struct telemetry_summary *w)
{
    return s->instant ? w->instant_mean : w->power_mean;
}

/* The highest power read in [t0, t1] (instant where there is one); NaN when
 * there is no reading. */
static double peak_power(const struct gpu_sampler *s, double t0, double t1)
{
    struct telemetry_summary w;
    if (!s->tm || !window_of(s, t0, t1, &w)) return NAN;
    return s->instant ? w.instant_max : w.power_max;
}

/* Untimed samples (of the rung, and of its reference when paired), each
 * followed by a reading of the SM clock, for at least shape_warmup_ms before
 * the shape's first point (the GPU idled while its inputs were made) and
 * warmup_min_ms before the others, and until the point has settled, at most
 * warmup_max_ms.  Settled: the mean SM clock of the newest warmup_window_ms
 * within 1% of the window before (the clock as the SMs count it: no refresh
 * period limits it); and where the power read since the window before the
 * warm-up reaches POWER_NEAR_CAP of the enforced limit, so that the cap can
 * move the clock, also the mean power of the newest window no shorter than
 * the telemetry's refresh within 2% of the window before it.  Whether the
 * power comes near the cap is judged by readings the load can have moved: a
 * field that refreshes every 100 ms still shows the previous point's power
 * well after the warm-up began, and a warm-up that ended on the clock alone
 * before the first new reading left a capped kernel's first samples at the
 * boost clock (cuBLAS TF32 at 4096^3 on an H100: 1966 MHz falling to 1546
 * within 100 ms).  So the warm-up of a row sampled alone also waits for the
 * power reading to change FRESH_AFTER_MS or more after it began (or for two
 * refresh periods, where a value repeats), and the peak is taken from that
 * reading on.  A paired row's two kernels share that transient, A B B A, and
 * their ratio does not move with it; waiting before each of them would cost
 * the paper matrix and the shape suite half a minute.  *capped: a
 * power or thermal reason held the clock in the last window read; *settled:
 * the warm-up ended settled, not at its limit.  NULL, or the error. */
#define POWER_NEAR_CAP 0.9
#define FRESH_AFTER_MS 10.0
static const char *warm_up(struct gpu_sampler *s, const struct sampling_rule *rule, int paired,
                           double *warm_ms, int *capped, int *settled)
{
    const double min_ms = s->shape_warm ? rule->warmup_min_ms
                                        : fmax(rule->shape_warmup_ms, rule->warmup_min_ms);
    const double cw = rule->warmup_window_ms, pw = fmax(cw, s->window_floor_ms);
    const double limit = s->tm ? telemetry_power_limit_w(s->tm) : NAN;
    const double w0 = now_ms();
    double clock0 = w0, power0 = w0, ms, mhz;
    double prev_clock = clock_mean(s, w0 - cw, w0), prev_power = NAN;
    struct telemetry_summary w = {0};
    if (s->tm && window_of(s, w0 - pw, w0, &w)) prev_power = window_power(s, &w);
    const enum telemetry_quantity q = s->instant ? TELEMETRY_INSTANT : TELEMETRY_POWER;
    double fresh = NAN;   /* the first power reading that can show this load */
    int clock_ok = 0, power_ok = 0;
    *capped = *settled = 0;
    for (;;) {
        if (interrupted(s)) return "interrupted";
        const char *e = gpu_timing_sample(s->g, 0, &ms, NULL);
        if (!e && paired) e = gpu_timing_sample(s->g, 1, &ms, NULL);
        if (!e) e = read_clock(s, &mhz);
        if (e) return e;
        const double t = now_ms();
        if (t - w0 >= rule->warmup_max_ms) break;
        if (t - clock0 >= cw) {
            const double clock = clock_mean(s, clock0, t);
            clock_ok = clock_settled(prev_clock, clock);
            prev_clock = clock;
            clock0 = t;
        }
        if (s->tm && t - power0 >= pw) {
            double power = NAN;
            if (window_of(s, power0, t, &w)) {
                *capped = (w.reasons & TELEMETRY_THROTTLE_REASONS) != 0;
                power = window_power(s, &w);
            }
            power_ok = isfinite(power) && isfinite(prev_power) &&
                       fabs(power - prev_power) <= 0.02 * prev_power;
            prev_power = power;
            power0 = t;
        }
        if (s->tm && !paired && isnan(fresh)) {
            telemetry_sync(s->tm, t);
            fresh = telemetry_first_change_ms(s->tm, w0 + FRESH_AFTER_MS, t, q);
        }
        const int seen = paired || !s->tm || !(s->window_floor_ms > 0) || isfinite(fresh) ||
                         t - w0 >= 2 * s->window_floor_ms + FRESH_AFTER_MS;
        const double peak = peak_power(s, isfinite(fresh) ? fresh : w0 - pw, t);
        const int near_cap = s->tm && (!(limit > 0) || !isfinite(peak) ||
                                       peak >= POWER_NEAR_CAP * limit || *capped);
        if (t - w0 >= min_ms && seen && clock_ok && (!near_cap || power_ok)) {
            *settled = 1;
            break;
        }
    }
    *warm_ms = now_ms() - w0;
    s->shape_warm = 1;
    return NULL;
}

/* ---- sampling ------------------------------------------------------------------ */

struct sample_stats sample_rows_stats(const struct sample_row *sr, int n, size_t offset)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return (struct sample_stats){0};
    int k = 0;
    for (int i = 0; i < n; i++) {
        const double x = *(const double *)((const char *)&sr[i] + offset);
        if (isfinite(x)) v[k++] = x;
    }
    const struct sample_stats st = sample_stats_of(v, k);
    free(v);
    return st;
}

/* The median of a column (NaN ones left out); NaN when none. */
static double median_of(const struct sample_row *sr, int n, size_t offset)
{
    const struct sample_stats st = sample_rows_stats(sr, n, offset);
    return st.n ? st.median : NAN;
}

/* Sample i of the prepared launches, paired when the rung has a reference:
 * A then B at even i, B then A at odd i; then a reading of the SM clock.  The
 * events' times into sr (time_ms, ref_ms, probe_mhz), the second timer's
 * windows into ka and kb (used while the timer is on), and the wall time around
 * the rung's sample into *ta, *tb. */
static const char *take_sample(struct gpu_sampler *s, int paired, int i, struct sample_row *sr,
                               struct gpu_kernels *ka, struct gpu_kernels *kb, double *ta,
                               double *tb)
{
    const char *e;
    double mhz;
    if (paired && i % 2 && (e = gpu_timing_sample(s->g, 1, &sr->ref_ms, kb))) return e;
    *ta = now_ms();
    if ((e = gpu_timing_sample(s->g, 0, &sr->time_ms, ka))) return e;
    *tb = now_ms();
    if (paired && !(i % 2) && (e = gpu_timing_sample(s->g, 1, &sr->ref_ms, kb))) return e;
    if ((e = read_clock(s, &mhz))) return e;
    sr->probe_mhz = mhz;
    return NULL;
}

/* With the second timer on: the records of the n samples' windows, fetched
 * once the samples are taken, into each sample's record (kernel_ms,
 * ref_kernel_ms) and the row (their medians, the mean of the pairs' kernel
 * ratios and its interval, the kernels per launch and the longest kernel of
 * each). */
static const char *kernel_times(struct gpu_sampler *s, const struct variant *ref,
                                struct result_row *row, struct sample_rows *rows, int n)
{
    const char *e = gpu_kernels_resolve(s->g, rows->ka, ref ? rows->kb : NULL, n);
    if (e || !n) return e;
    struct sample_acc kratio = {0};
    for (int i = 0; i < n; i++) {
        rows->sr[i].kernel_ms = rows->ka[i].ms;
        if (!ref) continue;
        rows->sr[i].ref_kernel_ms = rows->kb[i].ms;
        sample_acc_add(&kratio, rows->kb[i].ms / rows->ka[i].ms);
    }
    row->kernel_ms_median = median_of(rows->sr, n, offsetof(struct sample_row, kernel_ms));
    row->kernels_per_launch = rows->ka[n - 1].per_launch;
    snprintf(row->kernel_name, sizeof row->kernel_name, "%s", rows->ka[n - 1].name);
    if (ref) {
        row->ref_kernel_ms_median = median_of(rows->sr, n, offsetof(struct sample_row, ref_kernel_ms));
        row->kernel_ratio = kratio.mean;
        row->kernel_ratio_ci95 = sample_ci95(&kratio);
        snprintf(row->ref_kernel_name, sizeof row->ref_kernel_name, "%s", rows->kb[n - 1].name);
    }
    return NULL;
}

/* The timing prepared, the warm-up, then samples until the rule stops them;
 * a rung with a reference is sampled paired with it, A B then B A in turn, on
 * the same inputs and at the same clock.  Each sample (and each pair) is
 * followed by a reading of the SM clock; with the second timer on, each notes
 * its window, whose kernels are summed once the samples are taken. */
const char *gpu_sample_point(struct gpu_sampler *s, const struct sampling_rule *rule,
                             const struct point *pt, struct result_row *row,
                             struct sample_rows *rows, int *n, enum stop_rule *stop)
{
    const struct variant *ref =
        pt->v->reference && !pt->unpaired ? registry_find(pt->v->reference) : NULL;
    struct gpu_timing tm;
    const char *e = gpu_timing_prepare(s->g, pt->v->gpu, pt->tile, pt->wpt, pt->split,
                                       ref ? ref->gpu : NULL, rule->min_sample_ms, &tm);
    if (e) return e;
    int capped = 0, settled = 0;
    if ((e = warm_up(s, rule, ref != NULL, &row->warmup_ms, &capped, &settled))) return e;
    row->warmup_settled = settled;
    /* Under the power (or thermal) cap the clock steps every few milliseconds:
     * a sample then spans capped_sample_ms, so that it averages over the steps. */
    if (capped && rule->capped_sample_ms > rule->min_sample_ms &&
        (e = gpu_timing_prepare(s->g, pt->v->gpu, pt->tile, pt->wpt, pt->split,
                                ref ? ref->gpu : NULL, rule->capped_sample_ms, &tm)))
        return e;
    snprintf(row->timing, sizeof row->timing, "%s", tm.method);
    row->launches = tm.launches;
    row->input_sets = tm.input_sets;

    struct sample_acc acc = {0}, ratio = {0};
    const double t0 = now_ms();
    *stop = STOP_NONE;
    while (*stop == STOP_NONE) {
        if (interrupted(s)) return "interrupted";
        const int i = acc.n;
        if (sample_rows_reserve(rows, i + 1) != 0) return "out of host memory for samples";
        struct sample_row *sr = &rows->sr[i];
        *sr = (struct sample_row){.ref_ms = NAN, .kernel_ms = NAN, .ref_kernel_ms = NAN};
        double ta, tb;
        rows->ka[i] = rows->kb[i] = (struct gpu_kernels){0, 0, 0, NAN, NAN, NAN, ""};
        if ((e = take_sample(s, ref != NULL, i, sr, &rows->ka[i], &rows->kb[i], &ta, &tb)))
            return e;
        gpu_sample_telemetry(s, ta, tb, sr);
        sample_acc_add_launches(&acc, sr->time_ms, tm.launches);
        if (ref) sample_acc_add(&ratio, sr->ref_ms / sr->time_ms);
        *stop = ref ? sampling_should_stop_paired(rule, &acc, &ratio, now_ms() - t0)
                    : sampling_should_stop(rule, &acc, now_ms() - t0);
    }
    row->start_s = (t0 - s->t_start) / 1e3;
    row->ref_ms_median = row->kernel_ms_median = row->ref_kernel_ms_median = NAN;
    row->kernel_ratio = row->kernel_ratio_ci95 = row->kernels_per_launch = NAN;
    if (ref) {
        snprintf(row->paired_with, sizeof row->paired_with, "%s", ref->name);
        row->pairs = ratio.n;
        row->ref_ratio = ratio.mean;
        row->ref_ratio_ci95 = sample_ci95(&ratio);
        row->ref_ms_median = median_of(rows->sr, acc.n, offsetof(struct sample_row, ref_ms));
    }
    if (s->kernel_timer && (e = kernel_times(s, ref, row, rows, acc.n))) return e;
    *n = acc.n;
    return NULL;
}
