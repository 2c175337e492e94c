/* The paper's values by key: see values.h. */
#define _POSIX_C_SOURCE 200809L
#include "values.h"
#include "views/views.h"
#include "quantity.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- formatting ------------------------------------------------------------------ */

/* s with LaTeX's special characters escaped, into out. */
static void latex(const char *s, char *out, size_t len)
{
    size_t o = 0;
    for (; *s && o + 8 < len; s++) {
        const char *rep = NULL;
        switch (*s) {
        case '_': rep = "\\_"; break;
        case '%': rep = "\\%"; break;
        case '&': rep = "\\&"; break;
        case '#': rep = "\\#"; break;
        case '$': rep = "\\$"; break;
        case '{': rep = "\\{"; break;
        case '}': rep = "\\}"; break;
        case '~': rep = "\\textasciitilde{}"; break;
        case '^': rep = "\\textasciicircum{}"; break;
        case '\\': rep = "\\textbackslash{}"; break;
        }
        if (rep) o += (size_t)snprintf(out + o, len - o, "%s", rep);
        else out[o++] = *s;
    }
    out[o] = '\0';
}

/* s as LaTeX (latex()) with the hyphen of a range of numbers ("0.97-1.08")
 * an en dash. */
static void latex_ranges(const char *s, char *out, size_t len)
{
    char tmp[1024];
    size_t o = 0;
    for (size_t i = 0; s[i] && o + 2 < sizeof tmp; i++) {
        const int range = s[i] == '-' && i > 0 && isdigit((unsigned char)s[i - 1]) &&
                          isdigit((unsigned char)s[i + 1]);
        tmp[o++] = s[i];
        if (range) tmp[o++] = '-';
    }
    tmp[o] = '\0';
    latex(tmp, out, len);
}

/* A configuration label as LaTeX, "128x64" with a times sign. */
static void latex_config(const char *s, char *out, size_t len)
{
    char tmp[512];
    latex(s, tmp, sizeof tmp);
    size_t o = 0;
    for (size_t i = 0; tmp[i] && o + 16 < len; i++) {
        if (tmp[i] == 'x' && i > 0 && isdigit((unsigned char)tmp[i - 1]) &&
            isdigit((unsigned char)tmp[i + 1]))
            o += (size_t)snprintf(out + o, len - o, "\\(\\times\\)");
        else
            out[o++] = tmp[i];
    }
    out[o] = '\0';
}

static int number(char *out, size_t len, const char *fmt, double x, char *why, size_t whylen,
                  const char *what)
{
    if (!isfinite(x)) {
        snprintf(why, whylen, "the data have no %s", what);
        return -1;
    }
    snprintf(out, len, fmt, x);
    return 0;
}

/* 6.9e-04 as $6.9\times10^{-4}$ */
static void scientific(double x, char *out, size_t len)
{
    const int e = x > 0 ? (int)floor(log10(x)) : 0;
    snprintf(out, len, "$%.1f\\times10^{%d}$", x / pow(10, e), e);
}

/* ---- keys ------------------------------------------------------------------------ */

static const struct run *role_run(const struct run *runs, size_t n, const char *role)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(runs[i].role, role)) return &runs[i];
    return NULL;
}

/* The runs of the roles a table names, into rr: 0, or -1 naming the one missing. */
static int role_runs(char *const *roles, int nr, const struct run *runs, size_t nruns,
                     const struct run **rr, char *why, size_t whylen)
{
    for (int i = 0; i < nr; i++)
        if (!(rr[i] = role_run(runs, nruns, roles[i]))) {
            snprintf(why, whylen, "no run has the role '%s'", roles[i]);
            return -1;
        }
    return 0;
}

/* Split key on '.' into at most max parts (in buf). */
static int split(const char *key, char *buf, size_t len, char **part, int max)
{
    snprintf(buf, len, "%s", key);
    int n = 0;
    for (char *s = buf; n < max;) {
        part[n++] = s;
        char *d = strchr(s, '.');
        if (!d) return n;
        *d = '\0';
        s = d + 1;
    }
    return -1;
}

static size_t count_disposition(const struct run *r, const char *d)
{
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows; i++) n += !strcmp(r->f.rows[i].disposition, d);
    return n;
}

/* The largest (sign 1) or smallest (-1) step among the GPU FP32 rungs that are
 * not references, at shape s: its value and rung. */
static double extreme_step(const struct run *r, struct shape s, int sign, const struct variant **at)
{
    double best = NAN;
    *at = NULL;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        if (v->device != DEV_GPU || v->precision != PREC_FP32 || registry_is_reference(v)) continue;
        const double x = derive_step(r, v, s);
        if (isfinite(x) && (!isfinite(best) || sign * x > sign * best)) {
            best = x;
            *at = v;
        }
    }
    return best;
}

/* The words a row's stop rule is printed as; NULL for none. */
static const char *stop_words(const char *rule)
{
    if (!strcmp(rule, "converged")) return "converged";
    if (!strcmp(rule, "timeout")) return "timed out";
    if (!strcmp(rule, "max_samples")) return "reached the sample limit";
    if (!strcmp(rule, "long_point")) return "took one sample (long point)";
    return NULL;
}

/* Passed ordinary rows on `device` ("gpu" or "host"), with stop rule `rule`
 * when it is not NULL. */
static size_t count_rows(const struct run *r, const char *device, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        n += !strcmp(row->disposition, "passed") && !row->host_memory[0] &&
             !strcmp(row->device, device) && (!rule || !strcmp(row->stop_rule, rule));
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A passed ordinary GPU row (not a transfer point). */
static int gpu_row(const struct result_row *row)
{
    return !strcmp(row->disposition, "passed") && !row->host_memory[0] && !strcmp(row->device, "gpu");
}

/* The median, over the passed ordinary GPU rows with samples, of their
 * stddev / mean (%); NaN without any. */
static double median_rel_stddev(const struct run *r)
{
    double *x = malloc((r->f.n_rows + 1) * sizeof *x), m = NAN;
    size_t n = 0;
    if (!x) return NAN;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        const double y = derive_rel_stddev(row);
        if (gpu_row(row) && isfinite(y)) x[n++] = 100.0 * y;
    }
    if (n) {
        qsort(x, n, sizeof *x, cmp_double);
        m = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    }
    free(x);
    return m;
}

/* Passed GPU rows that had a throttled sample (what = "throttled_rows"), were
 * timed as CUDA graphs ("graph_rows") or carry NVML telemetry ("telemetry_rows"). */
static size_t count_gpu_method(const struct run *r, const char *what)
{
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        if (!gpu_row(row)) continue;
        n += what[0] == 'g'   ? !strcmp(row->timing, "graph")
           : what[1] == 'h'   ? row->throttled_samples > 0
                              : !strcmp(row->telemetry, "nvml");
    }
    return n;
}

/* The median warm-up of the passed GPU rows in ms (median = 1), or the
 * longest in s; NaN without any. */
static double warmup_stat(const struct run *r, int median)
{
    double *x = malloc((r->f.n_rows + 1) * sizeof *x), m = NAN;
    size_t n = 0;
    if (!x) return NAN;
    for (size_t i = 0; i < r->f.n_rows; i++)
        if (gpu_row(&r->f.rows[i]) && isfinite(r->f.rows[i].warmup_ms)) x[n++] = r->f.rows[i].warmup_ms;
    if (n) {
        qsort(x, n, sizeof *x, cmp_double);
        m = median ? (n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2) : x[n - 1] / 1000.0;
    }
    free(x);
    return m;
}

static double max_power(const struct run *r)
{
    double m = NAN;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const double y = r->f.rows[i].power_w_max;
        if (gpu_row(&r->f.rows[i]) && isfinite(y) && (!isfinite(m) || y > m)) m = y;
    }
    return m;
}

/* One parameter of a sampling rule ("min_samples=10 ... target_rel_stddev=0.005"):
 * as the file records it, or target_pct (target_rel_stddev in %) and
 * long_point_s (long_point_ms in s). */
static int rule_value(const char *rule, const char *name, char *out, size_t len, char *why,
                      size_t whylen)
{
    const int pct = !strcmp(name, "target_pct"), secs = !strcmp(name, "long_point_s");
    const char *want = pct ? "target_rel_stddev" : secs ? "long_point_ms" : name;
    const size_t wn = strlen(want);
    for (const char *s = rule; (s = strstr(s, want)); s += wn) {
        if ((s != rule && s[-1] != ' ') || s[wn] != '=') continue;
        char *end;
        const double x = strtod(s + wn + 1, &end);
        if (end == s + wn + 1) break;
        snprintf(out, len, "%g", pct ? 100 * x : secs ? x / 1000 : x);
        return 0;
    }
    snprintf(why, whylen, "the run's sampling rule has no '%s'", want);
    return -1;
}

/* The GPU's first word after "NVIDIA " ("H100"), as LaTeX. */
static void gpu_short(const struct run *r, char *out, size_t len)
{
    char tmp[256];
    const char *m = strncmp(r->gpu_name, "NVIDIA ", 7) ? r->gpu_name : r->gpu_name + 7;
    snprintf(tmp, sizeof tmp, "%.*s", (int)strcspn(m, " "), m);
    latex(tmp, out, len);
}

static int run_key(const struct run *r, char **p, int n, char *out, size_t len, char *why,
                   size_t whylen)
{
    char tmp[256];
    const char *what = p[1];
    if (n == 2) {
        if (!strcmp(what, "gpu")) latex(r->gpu_name, out, len);
        else if (!strcmp(what, "gpu_model"))
            latex(strncmp(r->gpu_name, "NVIDIA ", 7) ? r->gpu_name : r->gpu_name + 7, out, len);
        else if (!strcmp(what, "gpu_short")) gpu_short(r, out, len);
        else if (!strcmp(what, "file")) {
            const char *base = strrchr(r->path, '/');
            latex(base ? base + 1 : r->path, out, len);
        } else if (!strcmp(what, "date")) snprintf(out, len, "%.10s", r->created_utc);
        else if (!strcmp(what, "commit")) snprintf(out, len, "\\texttt{%.7s}", r->git_commit);
        else if (!strcmp(what, "cpu")) latex(r->cpu_model, out, len);
        else if (!strcmp(what, "peak_tflops")) return number(out, len, "%.1f", r->peak_gflops / 1e3, why, whylen, "FP32 peak");
        else if (!strcmp(what, "copy_tbs")) return number(out, len, "%.2f", r->copy_gbs / 1e3, why, whylen, "copy bandwidth");
        else if (!strcmp(what, "sms")) return number(out, len, "%.0f", r->sms, why, whylen, "SM count");
        else if (!strcmp(what, "clock_mhz")) return number(out, len, "%.0f", r->clock_mhz, why, whylen, "clock");
        else if (!strcmp(what, "l2_mib")) return number(out, len, "%.0f", r->l2_bytes / 1048576.0, why, whylen, "L2 size");
        else if (!strcmp(what, "wall_min")) return number(out, len, "%.1f", r->wall_s / 60.0, why, whylen, "wall time");
        else if (!strcmp(what, "wall_s")) return number(out, len, "%.0f", r->wall_s, why, whylen, "wall time");
        else if (!strcmp(what, "estimated_s")) return number(out, len, "%.0f", r->estimated_s, why, whylen, "plan estimate");
        else if (!strcmp(what, "telemetry_refresh_ms"))
            return number(out, len, "%.0f", r->telemetry_refresh_ms, why, whylen, "telemetry refresh period");
        else if (!strcmp(what, "points")) snprintf(out, len, "%zu", r->f.n_rows);
        else if (!strcmp(what, "passed")) snprintf(out, len, "%zu", count_disposition(r, "passed"));
        else if (!strcmp(what, "skipped")) snprintf(out, len, "%zu", count_disposition(r, "skipped"));
        else if (!strcmp(what, "seed")) snprintf(out, len, "%s", r->seed[0] ? r->seed : "?");
        else if (!strcmp(what, "cc_version")) {
            const char *last = strrchr(r->cc_version, ' ');
            if (!r->cc_version[0]) {
                snprintf(why, whylen, "the run records no compiler version");
                return -1;
            }
            latex(last ? last + 1 : r->cc_version, out, len);
        } else if (!strcmp(what, "max_err_pct_tol")) {
            double worst = NAN;
            for (size_t i = 0; i < r->f.n_rows; i++) {
                const struct result_row *row = &r->f.rows[i];
                if (strcmp(row->disposition, "passed") || !(row->tolerance > 0)) continue;
                const double x = 100.0 * fmax(row->rel_err, row->max_rel_err) / row->tolerance;
                if (isfinite(x) && (!isfinite(worst) || x > worst)) worst = x;
            }
            return number(out, len, "%.1f", worst, why, whylen, "passed rows");
        } else if (!strcmp(what, "median_rel_stddev")) {
            return number(out, len, "%.2f", median_rel_stddev(r), why, whylen, "GPU rows with samples");
        } else if (!strcmp(what, "throttled_rows") || !strcmp(what, "graph_rows") ||
                   !strcmp(what, "telemetry_rows")) {
            snprintf(out, len, "%zu", count_gpu_method(r, what));
        } else if (!strcmp(what, "warmup_ms_median") || !strcmp(what, "warmup_s_max")) {
            const double x = warmup_stat(r, what[7] == 'm');
            return number(out, len, what[7] == 'm' ? "%.0f" : "%.1f", x, why, whylen, "warm-up");
        } else if (!strcmp(what, "power_w_max")) {
            return number(out, len, "%.0f", max_power(r), why, whylen, "power reading");
        } else {
            snprintf(why, whylen, "no such value of a run: '%s'", what);
            return -1;
        }
        return 0;
    }
    if (n == 3 && !strcmp(what, "rows")) {
        snprintf(out, len, "%zu", count_rows(r, p[2], NULL));
        return 0;
    }
    if (n == 4 && !strcmp(what, "stopped")) {
        snprintf(out, len, "%zu", count_rows(r, p[2], p[3]));
        return 0;
    }
    if (n == 3 && (!strcmp(what, "max_rel_err") || !strcmp(what, "min_clock"))) {
        if (strcmp(p[2], "fp32") && strcmp(p[2], "tf32")) {
            snprintf(why, whylen, "expected fp32 or tf32, not '%s'", p[2]);
            return -1;
        }
        double x = NAN;
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            if (strcmp(row->disposition, "passed") || strcmp(row->precision, p[2])) continue;
            const double y = what[1] == 'a' ? row->rel_err : row->clock_mhz_min;
            if (!(y > 0) || !isfinite(y)) continue;
            if (!isfinite(x) || (what[1] == 'a' ? y > x : y < x)) x = y;
        }
        if (!isfinite(x)) {
            snprintf(why, whylen, "the run has no passed %s row with that value", p[2]);
            return -1;
        }
        if (what[1] == 'a') scientific(x, out, len);
        else snprintf(out, len, "%.0f", x);
        return 0;
    }
    if (n == 3 && (!strcmp(what, "gpu_rule") || !strcmp(what, "host_rule")))
        return rule_value(what[0] == 'g' ? r->gpu_rule : r->host_rule, p[2], out, len, why, whylen);
    struct shape s;
    if (n == 5 && !strcmp(what, "copy_pct")) {
        const struct variant *v = registry_find(p[2]);
        if (!v) goto bad_rung;
        if (shape_parse(p[3], &s)) goto bad_shape;
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            if (strcmp(row->variant, v->name) || strcmp(row->disposition, "passed") ||
                strcmp(row->host_memory, p[4]) || row->M != s.M || row->N != s.N || row->K != s.K)
                continue;
            const double cp = row->h2d_ms_median + row->d2h_ms_median;
            return number(out, len, "%.0f", 100 * cp / (cp + row->time_ms_median), why, whylen, "");
        }
        goto no_data;
    }
    if ((!strcmp(what, "largest_step") || !strcmp(what, "largest_step_rung") ||
         !strcmp(what, "smallest_step") || !strcmp(what, "smallest_step_rung")) && n == 3) {
        if (shape_parse(p[2], &s)) goto bad_shape;
        const struct variant *at;
        const double x = extreme_step(r, s, what[0] == 'l' ? 1 : -1, &at);
        if (strstr(what, "_rung")) {
            if (!at) goto no_data;
            latex(at->name, tmp, sizeof tmp);
            snprintf(out, len, "\\rung{%s}", tmp);
            return 0;
        }
        return number(out, len, "%.2f", x, why, whylen, "step there");
    }
    if (!strcmp(what, "ratio") && n == 5) {
        const struct variant *a = registry_find(p[2]), *b = registry_find(p[3]);
        if (!a || !b) goto bad_rung;
        if (shape_parse(p[4], &s)) goto bad_shape;
        const double x = derive_gflops(r, a, s) / derive_gflops(r, b, s);
        return number(out, len, x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x, why, whylen,
                      "rows for that ratio");
    }
    if (n != 4) {
        snprintf(why, whylen, "no such key (see harness/values.h)");
        return -1;
    }
    const struct variant *v = registry_find(p[2]);
    if (!v) goto bad_rung;
    if (shape_parse(p[3], &s)) goto bad_shape;
    const struct result_row *b = derive_best(r, v, s);
    if (!b) goto no_data;
    if (!strcmp(what, "gflops"))
        return number(out, len, b->gflops < 10 ? "%.2f" : b->gflops < 100 ? "%.1f" : "%.0f",
                      b->gflops, why, whylen, "");
    if (!strcmp(what, "tflops")) return number(out, len, "%.1f", b->gflops / 1e3, why, whylen, "");
    if (!strcmp(what, "pct_ref")) return number(out, len, "%.1f", estimates_pct_ref(r, v, s), why, whylen, "reference there");
    if (!strcmp(what, "pct_peak")) return number(out, len, "%.1f", derive_pct_peak(r, v, s), why, whylen, "FP32 peak for it");
    if (!strcmp(what, "step")) return number(out, len, "%.2f", derive_step(r, v, s), why, whylen, "step there");
    if (!strcmp(what, "rel_stddev")) return number(out, len, "%.2f", 100 * derive_rel_stddev(b), why, whylen, "samples");
    if (!strcmp(what, "rel_err")) {
        scientific(b->rel_err, out, len);
        return 0;
    }
    if (!strcmp(what, "samples")) {
        snprintf(out, len, "%d", b->samples);
        return 0;
    }
    if (!strcmp(what, "stop")) {
        if (!stop_words(b->stop_rule)) goto no_data;
        snprintf(out, len, "%s", stop_words(b->stop_rule));
        return 0;
    }
    if (!strcmp(what, "clock")) return number(out, len, "%.0f", b->clock_mhz_mean, why, whylen, "clock reading");
    if (!strcmp(what, "clock_min")) return number(out, len, "%.0f", b->clock_mhz_min, why, whylen, "clock reading");
    if (!strcmp(what, "power")) return number(out, len, "%.0f", b->power_w_mean, why, whylen, "power reading");
    if (!strcmp(what, "pct_ref_ci"))
        return number(out, len, "%.2f", derive_pct_ref_ci95(r, v, s), why, whylen, "paired reference there");
    static const struct {
        const char *key;
        enum estimate_kind kind;
    } est[] = {{"pct_ref_kernel", EST_KERNEL}, {"pct_ref_alone", EST_ALONE},
               {"pct_ref_paired", EST_PAIRED}, {"estimates_spread", EST_SPREAD},
               {"ref_in_pairs", EST_REF_IN_PAIRS}, {"clock_in_pairs", EST_CLOCK_IN_PAIRS}};
    for (size_t i = 0; i < sizeof est / sizeof est[0]; i++)
        if (!strcmp(what, est[i].key))
            return number(out, len,
                          est[i].kind == EST_SPREAD ? "%.2f"
                          : est[i].kind == EST_REF_IN_PAIRS || est[i].kind == EST_CLOCK_IN_PAIRS
                              ? "%.3f"
                              : "%.1f",
                          estimates_at(r, v, s, est[i].kind), why, whylen,
                          "estimate of that kind there");
    if (!strcmp(what, "throttled")) {
        snprintf(out, len, "%d", b->throttled_samples);
        return 0;
    }
    if (!strcmp(what, "launches") || !strcmp(what, "input_sets")) {
        snprintf(out, len, "%d", what[0] == 'l' ? b->launches : b->input_sets);
        return 0;
    }
    if (!strcmp(what, "warmup_ms")) return number(out, len, "%.0f", b->warmup_ms, why, whylen, "warm-up");
    if (!strcmp(what, "intensity")) {
        const double x = derive_intensity(v, b);
        return number(out, len, x < 1 ? "%.2f" : "%.1f", x, why, whylen, "global-load model for it");
    }
    if (!strcmp(what, "implied_bw_pct"))
        return number(out, len, "%.0f", 100.0 * b->gflops / derive_intensity(v, b) / r->copy_gbs,
                      why, whylen, "global-load model or copy bandwidth for it");
    if (!strcmp(what, "waves")) return number(out, len, "%.2f", derive_waves(r, b), why, whylen, "grid for it");
    if (!strcmp(what, "tiles")) return number(out, len, "%.0f", derive_tiles(b), why, whylen, "block geometry for it");
    if (!strcmp(what, "k_per_block"))
        return number(out, len, "%.0f", derive_k_per_block(b), why, whylen, "split of K for it");
    if (!strcmp(what, "splits") || !strcmp(what, "grid") || !strcmp(what, "blocks_per_sm")) {
        const int x = what[0] == 's' ? b->k_splits : what[0] == 'g' ? b->grid_blocks : b->blocks_per_sm;
        if (x <= 0) goto no_data;
        snprintf(out, len, "%d", x);
        return 0;
    }
    if (!strcmp(what, "config")) {
        derive_config_label(v, b, tmp, sizeof tmp);
        latex_config(tmp, out, len);
        return 0;
    }
    snprintf(why, whylen, "no such value of a rung: '%s'", what);
    return -1;
bad_rung:
    snprintf(why, whylen, "unknown rung");
    return -1;
bad_shape:
    snprintf(why, whylen, "not a shape (expected 4096 or MxNxK)");
    return -1;
no_data:
    snprintf(why, whylen, "the run has no passed row of it there");
    return -1;
}

/* registry.rungs, .host_rungs, .seed_rungs, .past_rungs, .last_kernel: counts of
 * the ladder's entries, so that no count of rungs is typed into the prose. */
static int registry_key(const char *what, char *out, size_t len, char *why, size_t whylen)
{
    int all = 0, host = 0, seed = 0, past = 0, last = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        const int kernel = !v->dispatch && !registry_is_reference(v);
        all++;
        if (v->device == DEV_HOST) host++;
        else if (kernel && v->seed_name[0] != '(') seed++;
        else if (kernel) past++;
        if (v->device != DEV_HOST && kernel) last = registry_number(v);
    }
    const struct { const char *name; int v; } k[] = {
        {"rungs", all}, {"host_rungs", host}, {"seed_rungs", seed}, {"past_rungs", past},
        {"last_kernel", last}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(what, k[i].name)) {
            snprintf(out, len, "%d", k[i].v);
            return 0;
        }
    snprintf(why, whylen, "no such key (registry.rungs|host_rungs|seed_rungs|past_rungs|last_kernel)");
    return -1;
}

int values_key(const char *key, const struct run *runs, size_t nruns, const struct claims *cs,
               const struct claim_result *rs, char *out, size_t outlen, char *why, size_t whylen)
{
    char buf[256], *p[6];
    int n = split(key, buf, sizeof buf, p, 6);
    if (n < 2) {
        snprintf(why, whylen, "no such key (see harness/values.h)");
        return -1;
    }
    if (!strcmp(p[0], "claims") && n == 2 && cs) {   /* how many, and when their bands were stated */
        static const char *const which[] = {"count", "predicted", "revised", "after"};
        static const enum claim_stated as[] = {STATED_UNKNOWN, STATED_BEFORE, STATED_REVISED,
                                               STATED_AFTER};
        size_t counts[STATED_UNRECORDED + 1] = {0};
        for (size_t i = 0; i < cs->n; i++) counts[rs[i].stated]++;
        for (size_t k = 0; k < sizeof which / sizeof which[0]; k++) {
            if (strcmp(p[1], which[k])) continue;
            if (k && counts[STATED_UNKNOWN] == cs->n) {
                snprintf(why, whylen, "the claims' history was not given (values --history)");
                return -1;
            }
            snprintf(out, outlen, "%zu", k ? counts[as[k]] : cs->n);
            return 0;
        }
        snprintf(why, whylen, "no such count of claims (claims.count|predicted|revised|after)");
        return -1;
    }
    if (!strcmp(p[0], "claim")) {
        for (size_t i = 0; cs && n == 3 && i < cs->n; i++) {
            if (strcmp(cs->c[i].id, p[1])) continue;
            const struct claim_result *r = &rs[i];
            if (r->verdict == CLAIM_NOT_EVALUATED) {
                snprintf(why, whylen, "claim not evaluated: %s", r->why);
                return -1;
            }
            char fmt[8] = "%.2f";
            if (!strcmp(p[2], "text")) latex_ranges(r->text, out, outlen);
            else if (!strcmp(p[2], "measured")) latex_ranges(r->measured, out, outlen);
            else if (!strcmp(p[2], "expected")) latex(r->expected, out, outlen);
            else if (!strcmp(p[2], "verdict")) snprintf(out, outlen, "%s", r->verdict == CLAIM_PASSED ? "passed" : "FAILED");
            else if (!strcmp(p[2], "min")) snprintf(out, outlen, fmt, r->min);
            else if (!strcmp(p[2], "max")) snprintf(out, outlen, fmt, r->max);
            else if (!strcmp(p[2], "min_at")) latex_config(r->min_at, out, outlen);
            else if (!strcmp(p[2], "max_at")) latex_config(r->max_at, out, outlen);
            else if (!strcmp(p[2], "dev_pct"))
                snprintf(out, outlen, "%.1f", 100 * fmax(fabs(r->min - 1), fabs(r->max - 1)));
            else break;
            return 0;
        }
        snprintf(why, whylen, "no such claim value (claim.ID.text|measured|expected|verdict|min|max|min_at|max_at|dev_pct)");
        return -1;
    }
    if (!strcmp(p[0], "registry")) return registry_key(n == 2 ? p[1] : "", out, outlen, why, whylen);
    const struct run *r = role_run(runs, nruns, p[0]);
    if (!r) {
        snprintf(why, whylen, "no run has the role '%s'", p[0]);
        return -1;
    }
    return run_key(r, p, n, out, outlen, why, whylen);
}

/* ---- tables ---------------------------------------------------------------------- */

static int split_list(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, "-"); t && n < max; t = strtok(NULL, "-")) w[n++] = t;
    return n;
}

/* A % with one decimal, or "--" for NaN. */
static void pct_cell(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, " & %.1f", x);
    else fputs(" & --", f);
}

/* A table's ROLE-ROLE and SHAPE-SHAPE parts (up to 4 each): the runs into rr
 * and the shapes into sh, their counts into *nr and *ns.  0, or -1 with why. */
static int roles_and_shapes(char *roles_s, char *shapes_s, const struct run *runs, size_t nruns,
                            const struct run **rr, int *nr, struct shape *sh, int *ns, char *why,
                            size_t whylen)
{
    char *roles[4], *shapes[4];
    *nr = split_list(roles_s, roles, 4);
    *ns = split_list(shapes_s, shapes, 4);
    if (role_runs(roles, *nr, runs, nruns, rr, why, whylen)) return -1;
    for (int i = 0; i < *ns; i++)
        if (shape_parse(shapes[i], &sh[i])) {
            snprintf(why, whylen, "'%s' is not a shape", shapes[i]);
            return -1;
        }
    return 0;
}

static int table_ladder(FILE *f, char *roles_s, char *shapes_s, const struct run *runs,
                        size_t nruns, char *why, size_t whylen)
{
    const struct run *rr[4];
    struct shape sh[4];
    int nr, ns;
    if (roles_and_shapes(roles_s, shapes_s, runs, nruns, rr, &nr, sh, &ns, why, whylen)) return -1;
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        if (v->device != DEV_GPU || !derive_best(rr[0], v, sh[0])) continue;
        char name[64], cfg[96], cfgl[128];
        latex(v->name, name, sizeof name);
        derive_config_label(v, derive_best(rr[0], v, sh[0]), cfg, sizeof cfg);
        latex_config(cfg, cfgl, sizeof cfgl);
        fprintf(f, "%02zu & \\rung{%s}%s & %s", k + 1, name,
                v->precision == PREC_TF32 ? "$^\\dagger$" : "", cfgl);
        /* The % is the rung's % of cuBLAS as every text prints it: the lowest of
         * the run's estimates, at most the ratio of the two TFLOP/s cells (the
         * rung's and its reference's own row); the estimates table has each. */
        for (int i = 0; i < nr; i++)
            for (int j = 0; j < ns; j++) {
                const double g = derive_gflops(rr[i], v, sh[j]);
                if (isfinite(g)) fprintf(f, " & %.1f", g / 1e3);
                else fputs(" & --", f);
                pct_cell(f, estimates_pct_ref(rr[i], v, sh[j]));
            }
        fputs(" \\\\\n", f);
    }
    return 0;
}

static int table_host(FILE *f, char *roles_s, const struct run *runs, size_t nruns, char *why,
                      size_t whylen)
{
    char *roles[4];
    const int nr = split_list(roles_s, roles, 4);
    const struct run *rr[4];
    if (role_runs(roles, nr, runs, nruns, rr, why, whylen)) return -1;
    const struct variant *naive = registry_find("host_naive"), *restr = registry_find("host_restrict");
    /* the host shapes of the first run, in file order */
    struct shape seen[64];
    int nseen = 0;
    for (size_t i = 0; i < rr[0]->f.n_rows && nseen < 64; i++) {
        const struct result_row *row = &rr[0]->f.rows[i];
        if (strcmp(row->variant, "host_naive") || strcmp(row->disposition, "passed")) continue;
        struct shape s = {row->M, row->N, row->K};
        int j = 0;
        while (j < nseen && !(seen[j].M == s.M && seen[j].N == s.N && seen[j].K == s.K)) j++;
        if (j == nseen) seen[nseen++] = s;
    }
    for (int j = 0; j < nseen; j++) {
        char label[48], tex[128];
        shape_label(seen[j], label, sizeof label);
        latex_config(label, tex, sizeof tex);
        fprintf(f, "%s", tex);
        for (int i = 0; i < nr; i++)
            for (int o = 1; o <= 3; o++) {
                const struct result_row *a = NULL, *b = NULL;
                for (size_t k = 0; k < rr[i]->f.n_rows; k++) {
                    const struct result_row *row = &rr[i]->f.rows[k];
                    if (row->opt_level != o || strcmp(row->disposition, "passed") ||
                        row->M != seen[j].M || row->N != seen[j].N || row->K != seen[j].K)
                        continue;
                    if (!strcmp(row->variant, restr->name)) a = row;
                    if (!strcmp(row->variant, naive->name)) b = row;
                }
                if (a && b) fprintf(f, " & %.2f", a->gflops / b->gflops);
                else fputs(" & --", f);
            }
        fputs(" \\\\\n", f);
    }
    return 0;
}

static int table_hardware(FILE *f, char *roles_s, const struct run *runs, size_t nruns, char *why,
                          size_t whylen)
{
    char *roles[4];
    const int nr = split_list(roles_s, roles, 4);
    const struct run *rr[4];
    if (role_runs(roles, nr, runs, nruns, rr, why, whylen)) return -1;
    static const char *const rows[] = {"SMs", "max. SM clock (MHz)", "L2 (MiB)",
                                       "FP32 peak (TFLOP/s)", "copy bandwidth (TB/s)",
                                       "CUDA driver", "nvcc"};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        fprintf(f, "%s", rows[k]);
        for (int i = 0; i < nr; i++) {
            const struct run *r = rr[i];
            switch (k) {
            case 0: fprintf(f, " & %.0f", r->sms); break;
            case 1: fprintf(f, " & %.0f", r->clock_mhz); break;
            case 2: fprintf(f, " & %.0f", r->l2_bytes / 1048576.0); break;
            case 3: fprintf(f, " & %.1f", r->peak_gflops / 1e3); break;
            case 4: fprintf(f, " & %.2f", r->copy_gbs / 1e3); break;
            case 5: fprintf(f, " & %.0f.%.0f", floor(r->driver / 1000), fmod(r->driver, 1000) / 10); break;
            default: fprintf(f, " & %s", r->nvcc_version); break;
            }
        }
        fputs(" \\\\\n", f);
    }
    return 0;
}

static int table_transfers(FILE *f, const char *role, const char *rung, const struct run *runs,
                           size_t nruns, char *why, size_t whylen)
{
    const struct run *r = role_run(runs, nruns, role);
    if (!r || !registry_find(rung)) {
        snprintf(why, whylen, "no run '%s' or no rung '%s'", role, rung);
        return -1;
    }
    int sizes[32], ns = 0;
    for (size_t i = 0; i < r->f.n_rows && ns < 32; i++) {
        const struct result_row *row = &r->f.rows[i];
        if (strcmp(row->variant, rung) || !row->host_memory[0]) continue;
        int j = 0;
        while (j < ns && sizes[j] != row->M) j++;
        if (j == ns) sizes[ns++] = row->M;
    }
    for (int j = 0; j < ns; j++) {
        const struct result_row *pin = NULL, *pag = NULL;
        for (size_t i = 0; i < r->f.n_rows; i++) {
            const struct result_row *row = &r->f.rows[i];
            if (strcmp(row->variant, rung) || row->M != sizes[j] || strcmp(row->disposition, "passed"))
                continue;
            if (!strcmp(row->host_memory, "pinned")) pin = row;
            if (!strcmp(row->host_memory, "pageable")) pag = row;
        }
        if (!pin || !pag) continue;
        const double cp = pin->h2d_ms_median + pin->d2h_ms_median, cu = pag->h2d_ms_median + pag->d2h_ms_median;
        fprintf(f, "%d & %.3f & %.3f & %.3f & %.3f & %.3f & %.0f & %.0f \\\\\n", sizes[j],
                pin->h2d_ms_median, pag->h2d_ms_median, pin->d2h_ms_median, pag->d2h_ms_median,
                pin->time_ms_median, 100 * cp / (cp + pin->time_ms_median),
                100 * cu / (cu + pag->time_ms_median));
    }
    return 0;
}

/* A table's run by its role, or NULL with why. */
static const struct run *table_run(const char *role, const struct run *runs, size_t nruns,
                                   char *why, size_t whylen)
{
    const struct run *r = role_run(runs, nruns, role);
    if (!r) snprintf(why, whylen, "no run '%s'", role);
    return r;
}

/* shapes.ROLE: per shape of the suite (its order): the class, then for FP32
 * and TF32 the fastest hand-written rung (number), its % of the reference, the
 * waves of its grid and the K each block multiplies, and the dispatch row's %
 * of the reference. */
static int table_shapes(FILE *f, const char *role, const struct run *runs, size_t nruns,
                        char *why, size_t whylen)
{
    const struct run *r = table_run(role, runs, nruns, why, whylen);
    if (!r) return -1;
    const size_t room = derive_suite_room(r);
    struct suite_point *pt[2] = {malloc(room * sizeof *pt[0]), malloc(room * sizeof *pt[1])};
    if (!pt[0] || !pt[1]) {
        free(pt[0]), free(pt[1]);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    size_t n[2];
    for (int p = PREC_FP32; p <= PREC_TF32; p++) n[p] = derive_suite(r, (enum precision)p, pt[p], room);
    int rc = 0;
    if (!n[PREC_FP32]) {
        snprintf(why, whylen, "run '%s' has no shape with an FP32 rung and cuBLAS FP32", role);
        rc = -1;
    }
    for (size_t i = 0; i < n[PREC_FP32] && !rc; i++) {
        const struct suite_point *q[2] = {&pt[PREC_FP32][i], NULL};
        for (size_t j = 0; j < n[PREC_TF32]; j++)
            if (pt[PREC_TF32][j].s.M == q[0]->s.M && pt[PREC_TF32][j].s.N == q[0]->s.N &&
                pt[PREC_TF32][j].s.K == q[0]->s.K)
                q[1] = &pt[PREC_TF32][j];
        char label[48], tex[128], cls[32];
        shape_label(q[0]->s, label, sizeof label);
        latex_config(label, tex, sizeof tex);
        latex(shape_class_name(q[0]->cls), cls, sizeof cls);
        fprintf(f, "%s & %s", tex, cls);
        for (int p = 0; p < 2; p++) {
            if (!q[p]) {
                fputs(" & -- & -- & -- & -- & --", f);
                continue;
            }
            fprintf(f, " & %02d & %.1f", registry_number(q[p]->best), q[p]->best_pct);
            const double w = derive_waves(r, q[p]->best_row), k = derive_k_per_block(q[p]->best_row);
            if (isfinite(w)) fprintf(f, " & %.2f", w);
            else fputs(" & --", f);
            if (isfinite(k)) fprintf(f, " & %.0f", k);
            else fputs(" & --", f);
            if (isfinite(q[p]->dispatch_pct)) fprintf(f, " & %.1f", q[p]->dispatch_pct);
            else fputs(" & --", f);
        }
        fputs(" \\\\\n", f);
    }
    free(pt[0]), free(pt[1]);
    return rc;
}

/* corpus.ROLE: per precision and corpus class (then all of them), the shapes,
 * the fastest rung's geometric mean and lowest % of cuBLAS, the dispatch row's,
 * and the share of shapes where the fastest rung reaches 90% (derive.h's
 * corpus_summary). */
static int table_corpus(FILE *f, const char *role, const struct run *runs, size_t nruns,
                        char *why, size_t whylen)
{
    const struct run *r = table_run(role, runs, nruns, why, whylen);
    if (!r) return -1;
    const size_t room = derive_suite_room(r);
    struct suite_point *pt = malloc(room * sizeof *pt);
    if (!pt) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    size_t rows = 0;
    for (int p = PREC_FP32; p <= PREC_TF32; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, room);
        const size_t before = rows;
        for (int c = 0; c <= CC_COUNT; c++) {
            struct corpus_summary su;
            derive_corpus_summary(pt, n, c, &su);
            if (!su.shapes) continue;
            char cls[32];
            latex(c < CC_COUNT ? corpus_class_name((enum corpus_class)c) : "all", cls, sizeof cls);
            /* a rule between the precisions and above each one's total */
            const int rule = c == CC_COUNT || (rows == before && rows > 0);
            fprintf(f, "%s%s & %s & %zu & %.1f & %.1f", rule ? "\\midrule\n" : "",
                    p == PREC_TF32 ? "TF32" : "FP32", cls, su.shapes, su.best_geomean, su.best_min);
            pct_cell(f, su.dispatch_geomean);
            pct_cell(f, su.dispatch_min);
            fprintf(f, " & %.0f \\\\\n", su.best_share_90);
            rows++;
        }
    }
    free(pt);
    if (!rows) {
        snprintf(why, whylen, "run '%s' has no corpus shape with a rung and cuBLAS", role);
        return -1;
    }
    return 0;
}

/* estimates.ROLE-ROLE.RUNG-RUNG.SHAPE-SHAPE: per rung, shape and role, the
 * fastest paired row's three estimates of its % of the reference (estimates.h):
 * the GPU, the rung, the shape, the row's configuration, paired with half its
 * 95% interval, the standalone rows' (marked where the rung's own row is its
 * pairs), the second timer's, their spread in points, and the lowest. */
static int table_estimates(FILE *f, char *roles_s, char *rungs_s, char *shapes_s,
                           const struct run *runs, size_t nruns, char *why, size_t whylen)
{
    char *rungs[8];
    const int nv = split_list(rungs_s, rungs, 8);
    const struct run *rr[4];
    struct shape sh[4];
    int nr, ns;
    if (roles_and_shapes(roles_s, shapes_s, runs, nruns, rr, &nr, sh, &ns, why, whylen)) return -1;
    for (int k = 0; k < nv; k++) {
        const struct variant *v = registry_find(rungs[k]);
        if (!v) {
            snprintf(why, whylen, "no rung '%s'", rungs[k]);
            return -1;
        }
        char name[64];
        latex(v->name, name, sizeof name);
        for (int j = 0; j < ns; j++)
            for (int i = 0; i < nr; i++) {
                const struct result_row *p = estimates_best_paired(rr[i], v, sh[j]);
                char gpu[64], label[48], shape[128], cfg[96], cfgl[128];
                shape_label(sh[j], label, sizeof label);
                if (!p) {
                    snprintf(why, whylen, "run '%s' has no paired row of %s at %s", rr[i]->role,
                             rungs[k], label);
                    return -1;
                }
                struct estimates e;
                estimates_of(rr[i], p, &e);
                gpu_short(rr[i], gpu, sizeof gpu);
                latex_config(label, shape, sizeof shape);
                derive_config_label(v, p, cfg, sizeof cfg);
                latex_config(cfg, cfgl, sizeof cfgl);
                fprintf(f, "%s & %02d & \\rung{%s} & %s & %s & %.1f $\\pm$ %.1f", gpu,
                        registry_number(v), name, shape, cfgl, e.paired, e.paired_ci95);
                pct_cell(f, e.alone);
                if (isfinite(e.alone) && !e.alone_rows) fputs("$^a$", f);
                pct_cell(f, e.kernel);
                if (isfinite(e.spread)) fprintf(f, " & %.2f", e.spread);
                else fputs(" & --", f);
                fputs(" \\\\\n", f);
            }
    }
    return 0;
}

/* ---- writing ----------------------------------------------------------------------- */

/* The first line of every file values writes: what it may write again. */
#define VALUES_MARK "% written by mmladder values"
#define VALUES_HEADER VALUES_MARK ": every value the paper uses, by key\n"

/* path may be written (for option, --out or --tables): it does not exist, or
 * values wrote it (its first line), and it is none of the sources. */
static int may_write(const char *path, const char *option, const char *const *tex, size_t ntex,
                     char *err, size_t errlen)
{
    struct stat so, st;
    if (stat(path, &so) != 0) {
        if (errno == ENOENT) return 0;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    for (size_t t = 0; t < ntex; t++)
        if (stat(tex[t], &st) == 0 && st.st_dev == so.st_dev && st.st_ino == so.st_ino) {
            snprintf(err, errlen, "%s: is one of the paper's sources (expected another path "
                                  "for %s)", path, option);
            return -1;
        }
    char first[sizeof VALUES_MARK] = "";
    FILE *f = fopen(path, "r");
    const int ours = f && fread(first, 1, sizeof first - 1, f) == sizeof first - 1 &&
                     !strcmp(first, VALUES_MARK);
    if (f) fclose(f);
    if (!ours) {
        snprintf(err, errlen, "%s: exists and was not written by mmladder values (expected %s, "
                              "or that file removed first)", path,
                 strcmp(option, "--out") ? "another folder for --tables" : "a new path for --out");
        return -1;
    }
    return 0;
}

/* The tables one values_write has written: removed again if it fails, so
 * that a refused paper leaves nothing behind. */
struct written {
    char (*path)[512];
    size_t n, room;
};

static int remember(struct written *w, const char *path)
{
    if (w->n == w->room) {
        const size_t room = w->room ? 2 * w->room : 16;
        char(*more)[512] = realloc(w->path, room * sizeof *more);
        if (!more) return -1;
        w->path = more, w->room = room;
    }
    snprintf(w->path[w->n++], sizeof w->path[0], "%s", path);
    return 0;
}

/* claims.revisions: per claim whose band moved after its runs, in the file's
 * order: its id, the band before, the band now, when, and why. */
static int table_revised(FILE *f, const struct claims *cs, const struct claim_result *rs,
                         char *why, size_t whylen)
{
    size_t rows = 0;
    for (size_t i = 0; i < cs->n; i++) {
        if (rs[i].stated != STATED_REVISED) continue;
        const struct claim_revision *r = &cs->c[i].rev[cs->c[i].n_rev - 1];
        char id[96], from[128], to[128], when[128], reason[700];
        latex(cs->c[i].id, id, sizeof id);
        latex(r->old_band, from, sizeof from);
        latex(r->new_band, to, sizeof to);
        latex(r->when, when, sizeof when);
        latex(r->why, reason, sizeof reason);
        fprintf(f, "\\code{%s} & %s & %s & %s & %s \\\\\n", id, from, to, when, reason);
        rows++;
    }
    if (!rows) {
        snprintf(why, whylen, "no claim was revised after its data (or no history given: values "
                              "--history)");
        return -1;
    }
    return 0;
}

/* claims.host: per claim over host rows, in the file's order: its id, its
 * measured range, its bounds, and where it holds (claims_holds_on). */
static int table_claims(FILE *f, const char *which, const struct claims *cs,
                        const struct claim_result *rs, char *why, size_t whylen)
{
    if (cs && !strcmp(which, "revisions")) return table_revised(f, cs, rs, why, whylen);
    if (strcmp(which, "host") || !cs) {
        snprintf(why, whylen, "no such table of claims (expected claims.host or claims.revisions)");
        return -1;
    }
    size_t rows = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const struct claim *c = &cs->c[i];
        if (!claims_on_host(c)) continue;
        if (rs[i].verdict == CLAIM_NOT_EVALUATED) {
            snprintf(why, whylen, "claim %s not evaluated: %s", c->id, rs[i].why);
            return -1;
        }
        char id[96], measured[128], expected[160];
        latex(c->id, id, sizeof id);
        latex_ranges(rs[i].measured, measured, sizeof measured);
        /* ">= 1.50" and "<= 0.50" in the text font's own signs */
        const char *e = rs[i].expected;
        if (!strncmp(e, ">= ", 3) || !strncmp(e, "<= ", 3))
            snprintf(expected, sizeof expected, "%s %s", e[0] == '>' ? "$\\geq$" : "$\\leq$", e + 3);
        else
            latex(e, expected, sizeof expected);
        fprintf(f, "\\code{%s} & %s & %s & %s \\\\\n", id, measured, expected, claims_holds_on(c));
        rows++;
    }
    if (!rows) {
        snprintf(why, whylen, "no claim reads host rows");
        return -1;
    }
    return 0;
}

/* The rows of \valtable{name} into DIR/table-NAME.tex, after a line that
 * says who wrote them. */
static int write_table(const char *name, const char *dir, const struct run *runs, size_t nruns,
                       const struct claims *cs, const struct claim_result *rs,
                       const char *const *tex, size_t ntex, struct written *w, char *why,
                       size_t whylen)
{
    char buf[256], *p[4], path[512];
    int n = split(name, buf, sizeof buf, p, 4);
    snprintf(path, sizeof path, "%.300s/table-%.128s.tex", dir, name);
    if (may_write(path, "--tables", tex, ntex, why, whylen) != 0) return -1;
    FILE *f = fopen(path, "w");
    if (!f || remember(w, path) != 0) {
        snprintf(why, whylen, "cannot write %s: %s", path, f ? "out of memory" : strerror(errno));
        if (f) fclose(f), remove(path);
        return -1;
    }
    fprintf(f, "%s: the rows of the table %s\n", VALUES_MARK, name);
    int rc;
    if (n == 3 && !strcmp(p[0], "ladder")) rc = table_ladder(f, p[1], p[2], runs, nruns, why, whylen);
    else if (n == 2 && !strcmp(p[0], "host")) rc = table_host(f, p[1], runs, nruns, why, whylen);
    else if (n == 2 && !strcmp(p[0], "hardware")) rc = table_hardware(f, p[1], runs, nruns, why, whylen);
    else if (n == 3 && !strcmp(p[0], "transfers")) rc = table_transfers(f, p[1], p[2], runs, nruns, why, whylen);
    else if (n == 2 && !strcmp(p[0], "shapes")) rc = table_shapes(f, p[1], runs, nruns, why, whylen);
    else if (n == 2 && !strcmp(p[0], "corpus")) rc = table_corpus(f, p[1], runs, nruns, why, whylen);
    else if (n == 2 && !strcmp(p[0], "claims")) rc = table_claims(f, p[1], cs, rs, why, whylen);
    else if (n == 4 && !strcmp(p[0], "estimates"))
        rc = table_estimates(f, p[1], p[2], p[3], runs, nruns, why, whylen);
    else {
        snprintf(why, whylen, "no such table (see harness/values.h)");
        rc = -1;
    }
    if (fclose(f) != 0 && rc == 0) {
        snprintf(why, whylen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    return rc;
}

/* ---- scanning the paper ------------------------------------------------------------ */

struct answering {
    const struct run *runs;
    size_t nruns;
    const struct claims *cs;
    const struct claim_result *rs;
};

/* Has the key a value?  (quantity_paragraph_end's question) */
static int answers(const char *key, void *ctx)
{
    const struct answering *a = ctx;
    char val[1024], why[640];
    return values_key(key, a->runs, a->nruns, a->cs, a->rs, val, sizeof val, why, sizeof why) == 0;
}

/* ID of a claim.ID.WHAT key into id; 0, or -1 for another key. */
static int claim_id(const char *key, char *id, size_t len)
{
    const char *dot = strncmp(key, "claim.", 6) ? NULL : strchr(key + 6, '.');
    if (!dot || (size_t)(dot - key - 6) >= len) return -1;
    snprintf(id, len, "%.*s", (int)(dot - key - 6), key + 6);
    return 0;
}

int values_write(const char *const *tex, size_t ntex, const char *out, const char *tabledir,
                 const struct run *runs, size_t nruns, const struct claims *cs,
                 const struct claim_result *rs, char *err, size_t errlen)
{
    if (may_write(out, "--out", tex, ntex, err, errlen) != 0) return -1;
    FILE *o = fopen(out, "w");
    if (!o) {
        snprintf(err, errlen, "%s: cannot write: %s", out, strerror(errno));
        return -1;
    }
    fputs(VALUES_HEADER, o);
    int rc = 0;
    struct written tables = {0};
    char (*done)[128] = NULL;   /* the keys answered, each once */
    size_t ndone = 0, room = 0;
    struct answering ctx = {runs, nruns, cs, rs};
    struct quantity_paragraph *para = calloc(1, sizeof *para);
    if (!para) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (size_t t = 0; t < ntex && rc == 0; t++) {
        FILE *f = fopen(tex[t], "r");
        if (!f) {
            snprintf(err, errlen, "%s: cannot read: %s", tex[t], strerror(errno));
            rc = -1;
            break;
        }
        char line[4096];
        int lineno = 0;
        while (rc == 0 && fgets(line, sizeof line, f)) {
            lineno++;
            /* a line of blanks ends a paragraph (a comment line does not) */
            if (line[strspn(line, " \t\r\n")] == '\0' &&
                quantity_paragraph_end(para, answers, &ctx, err, errlen) != 0) {
                rc = -1;
                break;
            }
            /* a comment (from an unescaped %) names no key */
            for (char *c = line; (c = strchr(c, '%')); c++)
                if (c == line || c[-1] != '\\') {
                    *c = '\0';
                    break;
                }
            for (char *s = line; rc == 0 && (s = strstr(s, "\\val"));) {
                const int table = !strncmp(s, "\\valtable{", 10);
                if (!table && strncmp(s, "\\val{", 5)) {
                    s += 4;
                    continue;
                }
                char *k = s + (table ? 10 : 5), *e = strchr(k, '}');
                if (!e || e - k >= 128) {
                    snprintf(err, errlen, "%s:%d: \\val without a closing brace", tex[t], lineno);
                    rc = -1;
                    break;
                }
                char key[128];
                snprintf(key, sizeof key, "%.*s", (int)(e - k), k);
                s = e + 1;
                if (!table && quantity_note(para, key, tex[t], lineno, err, errlen) != 0) {
                    rc = -1;
                    break;
                }
                size_t j = 0;
                while (j < ndone && strcmp(done[j], key)) j++;
                /* answered already, or a macro's own definition (\val{#1}, \val{claim.#1.text}) */
                if (j < ndone || strchr(key, '#')) continue;
                char val[1024], why[640];
                if (table ? write_table(key, tabledir, runs, nruns, cs, rs, tex, ntex, &tables, why,
                                        sizeof why)
                          : values_key(key, runs, nruns, cs, rs, val, sizeof val, why, sizeof why)) {
                    snprintf(err, errlen, "%s:%d: %s{%s}: %s", tex[t], lineno,
                             table ? "\\valtable" : "\\val", key, why);
                    rc = -1;
                    break;
                }
                if (!table) fprintf(o, "\\valdef{%s}{%s}\n", key, val);
                if (ndone == room) {
                    room = room ? 2 * room : 256;
                    char(*more)[128] = realloc(done, room * sizeof *done);
                    if (!more) {
                        snprintf(err, errlen, "out of memory for %zu keys", room);
                        rc = -1;
                        break;
                    }
                    done = more;
                }
                snprintf(done[ndone++], sizeof done[0], "%s", key);
            }
        }
        if (rc == 0 && quantity_paragraph_end(para, answers, &ctx, err, errlen) != 0) rc = -1;
        fclose(f);
    }
    /* the claims printed: one quantity over one set of runs */
    const char **ids = rc == 0 ? calloc(ndone + 1, sizeof *ids) : NULL;
    char (*idbuf)[48] = rc == 0 ? calloc(ndone + 1, sizeof *idbuf) : NULL;
    if (rc == 0 && (!ids || !idbuf)) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    size_t nids = 0;
    for (size_t i = 0; rc == 0 && i < ndone; i++)
        if (claim_id(done[i], idbuf[nids], sizeof idbuf[0]) == 0) ids[nids] = idbuf[nids], nids++;
    const char **names = rc == 0 ? calloc(tables.n + 1, sizeof *names) : NULL;
    char (*namebuf)[256] = rc == 0 ? calloc(tables.n + 1, sizeof *namebuf) : NULL;
    if (rc == 0 && (!names || !namebuf)) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    size_t nnames = 0;
    for (size_t i = 0; rc == 0 && i < tables.n; i++) {   /* DIR/table-NAME.tex: NAME */
        const char *b = strrchr(tables.path[i], '/');
        b = b ? b + 1 : tables.path[i];
        const size_t len = strlen(b);
        if (strncmp(b, "table-", 6) || len < 10) continue;
        snprintf(namebuf[nnames], sizeof namebuf[0], "%.*s", (int)(len - 10), b + 6);
        names[nnames] = namebuf[nnames], nnames++;
    }
    if (rc == 0 && quantity_claims_agree(cs, ids, nids, names, nnames, err, errlen) != 0) rc = -1;
    free(names);
    free(namebuf);
    free(ids);
    free(idbuf);
    free(para);
    free(done);
    if (fclose(o) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: cannot write: %s", out, strerror(errno));
        rc = -1;
    }
    if (rc != 0) {
        remove(out);
        for (size_t i = 0; i < tables.n; i++) remove(tables.path[i]);
    }
    free(tables.path);
    return rc;
}
