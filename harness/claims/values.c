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
#include "values_parts.h"

/* ---- formatting ------------------------------------------------------------------ */

/* s with LaTeX's special characters escaped, into out. */
void value_latex(const char *s, char *out, size_t len)
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

/* s as LaTeX (value_latex()) with the hyphen of a range of numbers ("0.97-1.08")
 * an en dash. */
void value_latex_ranges(const char *s, char *out, size_t len)
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
    value_latex(tmp, out, len);
}

/* A configuration label as LaTeX, "128x64" with a times sign. */
void value_latex_config(const char *s, char *out, size_t len)
{
    char tmp[512];
    value_latex(s, tmp, sizeof tmp);
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

const struct run *value_role_run(const struct run *runs, size_t n, const char *role)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(runs[i].role, role)) return &runs[i];
    return NULL;
}

/* The runs of the roles a table names, into rr: 0, or -1 naming the one missing. */
int value_role_runs(char *const *roles, int nr, const struct run *runs, size_t nruns,
                     const struct run **rr, char *why, size_t whylen)
{
    for (int i = 0; i < nr; i++)
        if (!(rr[i] = value_role_run(runs, nruns, roles[i]))) {
            snprintf(why, whylen, "no run has the role '%s'", roles[i]);
            return -1;
        }
    return 0;
}

/* Split key on '.' into at most max parts (in buf). */
int value_split(const char *key, char *buf, size_t len, char **part, int max)
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
void value_gpu_short(const struct run *r, char *out, size_t len)
{
    char tmp[256];
    const char *m = strncmp(r->gpu_name, "NVIDIA ", 7) ? r->gpu_name : r->gpu_name + 7;
    snprintf(tmp, sizeof tmp, "%.*s", (int)strcspn(m, " "), m);
    value_latex(tmp, out, len);
}

static int run_key(const struct run *r, char **p, int n, char *out, size_t len, char *why,
                   size_t whylen)
{
    char tmp[256];
    const char *what = p[1];
    if (n == 2) {
        if (!strcmp(what, "gpu")) value_latex(r->gpu_name, out, len);
        else if (!strcmp(what, "gpu_model"))
            value_latex(strncmp(r->gpu_name, "NVIDIA ", 7) ? r->gpu_name : r->gpu_name + 7, out, len);
        else if (!strcmp(what, "gpu_short")) value_gpu_short(r, out, len);
        else if (!strcmp(what, "file")) value_latex(derive_file_name(r), out, len);
        else if (!strcmp(what, "date")) snprintf(out, len, "%.10s", r->created_utc);
        else if (!strcmp(what, "commit")) snprintf(out, len, "\\texttt{%.7s}", r->git_commit);
        else if (!strcmp(what, "cpu")) value_latex(r->cpu_model, out, len);
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
            value_latex(last ? last + 1 : r->cc_version, out, len);
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
            value_latex(at->name, tmp, sizeof tmp);
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
        snprintf(why, whylen, "no such key (see harness/claims/values.h)");
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
        value_latex_config(tmp, out, len);
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

/* Whether any of the runs has a row of rung v. */
static int runs_hold(const struct variant *v, const struct run *runs, size_t nruns)
{
    for (size_t i = 0; i < nruns; i++) {
        const struct row_span c = derive_rows_of_rung(&runs[i], v->name);
        for (size_t j = 0; j < c.n; j++)
            if (!strcmp(row_span_at(&c, j)->variant, v->name)) return 1;
    }
    return 0;
}

/* registry.rungs, .host_rungs, .seed_rungs, .past_rungs, .last_kernel: counts of
 * the ladder's entries that the runs measured (a rung added since has no rows
 * there, and the paper, which reads those runs, does not count it), so that no
 * count of rungs is typed into the prose; registry.number.RUNG: a rung's number
 * in the ladder (its place in the registry, as the tables print it). */
static int registry_key(char **p, int n, const struct run *runs, size_t nruns, char *out, size_t len,
                        char *why, size_t whylen)
{
    if (n == 3 && !strcmp(p[1], "number")) {
        const struct variant *v = registry_find(p[2]);
        if (!v) {
            snprintf(why, whylen, "no rung '%s' in the registry", p[2]);
            return -1;
        }
        snprintf(out, len, "%d", registry_number(v));
        return 0;
    }
    const char *what = n == 2 ? p[1] : "";
    int all = 0, host = 0, seed = 0, past = 0, last = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        if (!runs_hold(v, runs, nruns)) continue;
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
    snprintf(why, whylen, "no such key (registry.rungs|host_rungs|seed_rungs|past_rungs|last_kernel, "
                          "registry.number.RUNG)");
    return -1;
}

int values_key(const char *key, const struct run *runs, size_t nruns, const struct claims *cs,
               const struct claim_result *rs, char *out, size_t outlen, char *why, size_t whylen)
{
    char buf[256], *p[6];
    int n = value_split(key, buf, sizeof buf, p, 6);
    if (n < 2) {
        snprintf(why, whylen, "no such key (see harness/claims/values.h)");
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
            if (!strcmp(p[2], "text")) value_latex_ranges(r->text, out, outlen);
            else if (!strcmp(p[2], "measured")) value_latex_ranges(r->measured, out, outlen);
            else if (!strcmp(p[2], "expected")) value_latex(r->expected, out, outlen);
            else if (!strcmp(p[2], "verdict")) snprintf(out, outlen, "%s", r->verdict == CLAIM_PASSED ? "passed" : "FAILED");
            else if (!strcmp(p[2], "min")) snprintf(out, outlen, fmt, r->min);
            else if (!strcmp(p[2], "max")) snprintf(out, outlen, fmt, r->max);
            else if (!strcmp(p[2], "min_at")) value_latex_config(r->min_at, out, outlen);
            else if (!strcmp(p[2], "max_at")) value_latex_config(r->max_at, out, outlen);
            else if (!strcmp(p[2], "dev_pct"))
                snprintf(out, outlen, "%.1f", 100 * fmax(fabs(r->min - 1), fabs(r->max - 1)));
            else break;
            return 0;
        }
        snprintf(why, whylen, "no such claim value (claim.ID.text|measured|expected|verdict|min|max|min_at|max_at|dev_pct)");
        return -1;
    }
    if (!strcmp(p[0], "registry")) return registry_key(p, n, runs, nruns, out, outlen, why, whylen);
    const struct run *r = value_role_run(runs, nruns, p[0]);
    if (!r) {
        snprintf(why, whylen, "no run has the role '%s'", p[0]);
        return -1;
    }
    return run_key(r, p, n, out, outlen, why, whylen);
}
