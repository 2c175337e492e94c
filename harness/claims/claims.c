/* Claims checked against the data: see check.h. */
#include "check.h"
#include "views/views.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "claims_parts.h"

/* ---- the claims file ------------------------------------------------------------ */

static const struct {
    const char *name;
    enum claim_value v;
    int rungs;   /* how many rung arguments */
} VALUES[] = {
    {"pct_ref", CV_PCT_REF, 1},   {"pct_peak", CV_PCT_PEAK, 1},   {"tflops", CV_TFLOPS, 1},
    {"ratio", CV_RATIO, 2},       {"step", CV_STEP, 1},           {"rel_stddev", CV_REL_STDDEV, 1},
    {"copy_ratio", CV_COPY_RATIO, 1}, {"agreement", CV_AGREEMENT, 0},
    {"unverified", CV_UNVERIFIED, 0}, {"pct_ref_ci", CV_PCT_REF_CI, 1},
    {"stable_share", CV_STABLE_SHARE, 0}, {"stable_share_uncapped", CV_STABLE_UNCAPPED, 0},
    {"unstable_uncapped", CV_UNSTABLE_UNCAPPED, 0}, {"suite_pct_ref", CV_SUITE_PCT_REF, 0},
    {"suite_geomean", CV_SUITE_GEOMEAN, 0}, {"dispatch_share", CV_DISPATCH_SHARE, 0},
    {"estimate", CV_ESTIMATE, 0}, {"wall_s", CV_WALL_S, 0},
    {"agreement_share", CV_AGREEMENT_SHARE, 0},
    {"pct_ref_kernel", CV_PCT_REF_KERNEL, 1}, {"pct_ref_alone", CV_PCT_REF_ALONE, 1},
    {"pct_ref_paired", CV_PCT_REF_PAIRED, 1}, {"estimates_spread", CV_ESTIMATES_SPREAD, 1},
    {"ref_in_pairs", CV_REF_IN_PAIRS, 1}, {"clock_in_pairs", CV_CLOCK_IN_PAIRS, 1},
    {"corpus_pct_ref", CV_CORPUS_PCT_REF, 0}, {"corpus_geomean", CV_CORPUS_GEOMEAN, 0},
    {"corpus_dispatch_pct", CV_CORPUS_DISPATCH_PCT, 0},
    {"corpus_dispatch_geomean", CV_CORPUS_DISPATCH_GEOMEAN, 0},
    {"corpus_dispatch_share", CV_CORPUS_DISPATCH_SHARE, 0},
    {"corpus_share_90", CV_CORPUS_SHARE_90, 0}, {"wall_ratio", CV_WALL_RATIO, 0},
    {"corpus_estimates_share", CV_CORPUS_ESTIMATES_SHARE, 0},
    {"corpus_copy_pct", CV_CORPUS_COPY_PCT, 0},
    {"corpus_kernel_geomean", CV_CORPUS_KERNEL_GEOMEAN, 0},
    {"corpus_kernel_dispatch_geomean", CV_CORPUS_KERNEL_DISPATCH_GEOMEAN, 0},
    {"corpus_kernel_gap", CV_CORPUS_KERNEL_GAP, 0},
    {"corpus_kernel_share", CV_CORPUS_KERNEL_SHARE, 0},
    {"corpus_kernel_apart_ms", CV_CORPUS_KERNEL_APART_MS, 0},
    {"corpus_regret_median", CV_CORPUS_REGRET_MEDIAN, 0},
    {"corpus_regret_p90", CV_CORPUS_REGRET_P90, 0},
    {"corpus_dispatch_share_10", CV_CORPUS_DISPATCH_SHARE_10, 0},
};
#define N_VALUES (sizeof VALUES / sizeof VALUES[0])

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
    return s;
}

/* Split s on whitespace into at most max words; returns the count, or -1 if
 * there are more. */
static int words(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t")) {
        if (n == max) return -1;
        w[n++] = t;
    }
    return n;
}

static int parse_number(const char *s, double *x)
{
    char *end;
    *x = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*x) ? 0 : -1;
}

/* A band of values: at_least X, at_most X, between X Y, about X P% (X within P%)
 * as [*lo, *hi]; with `outside` not NULL also outside X Y, all but [X, Y] (then
 * *outside = 1).  Returns 0, or -1 when v is none of these. */
static int parse_band(const char *v, int allow_outside, double *lo, double *hi, int *outside)
{
    char buf[128], *w[3];
    snprintf(buf, sizeof buf, "%s", v);
    int n = words(buf, w, 3);
    double x, y;
    if (outside) *outside = 0;
    if (n == 2 && !strcmp(w[0], "at_least") && !parse_number(w[1], &x)) {
        *lo = x, *hi = INFINITY;
    } else if (n == 2 && !strcmp(w[0], "at_most") && !parse_number(w[1], &x)) {
        *lo = -INFINITY, *hi = x;
    } else if (n == 3 && (!strcmp(w[0], "between") || (allow_outside && !strcmp(w[0], "outside"))) &&
               !parse_number(w[1], &x) && !parse_number(w[2], &y) && x <= y) {
        *lo = x, *hi = y;
        if (outside) *outside = !strcmp(w[0], "outside");
    } else if (n == 3 && !strcmp(w[0], "about") && !parse_number(w[1], &x) &&
               strchr(w[2], '%') && (w[2][strlen(w[2]) - 1] = '\0', !parse_number(w[2], &y)) &&
               y >= 0) {
        const double a = x * (1 - y / 100), b = x * (1 + y / 100);   /* x may be negative */
        *lo = fmin(a, b), *hi = fmax(a, b);
    } else {
        return -1;
    }
    return 0;
}

struct parse {
    const char *path;
    int line;
    char *err;
    size_t errlen;
};

static int bad(struct parse *p, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->line, msg);
    return -1;
}

static int rung_arg(struct parse *p, const char *name, char *dst, size_t len)
{
    if (!registry_find(name)) return bad(p, "value: unknown rung '%s'", name);
    snprintf(dst, len, "%s", name);
    return 0;
}

static int int_list(struct parse *p, const char *key, char *v, int *dst, int *n, int max)
{
    char *w[CLAIM_MAX_LIST];
    int k = words(v, w, max < CLAIM_MAX_LIST ? max : CLAIM_MAX_LIST);
    if (k <= 0) return bad(p, "%s: expected 1 to %d numbers", key, max);
    for (int i = 0; i < k; i++) {
        char *end;
        long x = strtol(w[i], &end, 10);
        if (*end || x < 0 || x > 100000) return bad(p, "%s: '%s' (expected a number)", key, w[i]);
        dst[i] = (int)x;
    }
    *n = k;
    return 0;
}

void claims_band_text(const char *v, char *dst, size_t len)
{
    size_t o = 0;
    for (const char *q = v; *q && o + 1 < len; q++)
        if (*q != ' ' || (o && dst[o - 1] != ' ' && q[1])) dst[o++] = *q;
    dst[o] = '\0';
}

int claims_parse_band(const char *v, double *lo, double *hi)
{
    return parse_band(v, 0, lo, hi, NULL);
}

/* revised = OLD -> NEW (WHEN): WHY */
static int set_revision(struct parse *p, struct claim *c, const char *v)
{
    const char *arrow = strstr(v, " -> "), *open = arrow ? strstr(arrow, " (") : NULL,
               *close = open ? strstr(open, "): ") : NULL;
    if (!arrow || !open || !close || !close[3])
        return bad(p, "revised: '%.60s' (expected OLD -> NEW (WHEN): WHY, e.g. at_least 90 -> "
                      "at_least 75 (2026-11-28, cfb9a75): what the runs showed)", v);
    if (c->n_rev == CLAIM_MAX_REVISIONS)
        return bad(p, "revised: more than %d records", CLAIM_MAX_REVISIONS);
    struct claim_revision *r = &c->rev[c->n_rev];
    char old_band[64], new_band[64];
    double lo, hi;
    snprintf(old_band, sizeof old_band, "%.*s", (int)(arrow - v), v);
    snprintf(new_band, sizeof new_band, "%.*s", (int)(open - arrow - 4), arrow + 4);
    if (parse_band(old_band, 0, &lo, &hi, NULL) || parse_band(new_band, 0, &lo, &hi, NULL))
        return bad(p, "revised: '%s' or '%s' is not a band (expected at_least X, at_most X, "
                      "between X Y or about X P%%)", old_band, new_band);
    claims_band_text(old_band, r->old_band, sizeof r->old_band);
    claims_band_text(new_band, r->new_band, sizeof r->new_band);
    snprintf(r->when, sizeof r->when, "%.*s", (int)(close - open - 2), open + 2);
    snprintf(r->why, sizeof r->why, "%s", close + 3);
    c->n_rev++;
    return 0;
}

static int set_key(struct parse *p, struct claim *c, const char *key, char *v)
{
    char *w[CLAIM_MAX_LIST];
    int n;
    if (!strcmp(key, "text")) {
        snprintf(c->text, sizeof c->text, "%s", v);
    } else if (!strcmp(key, "value")) {
        if ((n = words(v, w, 3)) < 1) return bad(p, "value: expected a kind and its rungs");
        size_t k = 0;
        while (k < N_VALUES && strcmp(VALUES[k].name, w[0])) k++;
        if (k == N_VALUES) return bad(p, "value: unknown kind '%s'", w[0]);
        if (n - 1 != VALUES[k].rungs)
            return bad(p, "value: %s takes %d rung(s), given %d", w[0], VALUES[k].rungs, n - 1);
        c->value = VALUES[k].v;
        c->has_value = 1;
        if (n > 1 && rung_arg(p, w[1], c->rung, sizeof c->rung)) return -1;
        if (n > 2 && rung_arg(p, w[2], c->other, sizeof c->other)) return -1;
    } else if (!strcmp(key, "runs")) {
        if ((n = words(v, w, CLAIM_MAX_LIST)) < 1) return bad(p, "runs: expected 1 to %d roles", CLAIM_MAX_LIST);
        for (int i = 0; i < n; i++) snprintf(c->runs[i], sizeof c->runs[i], "%s", w[i]);
        c->n_runs = n;
    } else if (!strcmp(key, "shapes") || !strcmp(key, "other_shapes")) {
        struct shape *dst = key[0] == 'o' ? c->other_shapes : c->shapes;
        if ((n = words(v, w, CLAIM_MAX_LIST)) < 1)
            return bad(p, "%s: expected 1 to %d shapes", key, CLAIM_MAX_LIST);
        for (int i = 0; i < n; i++)
            if (shape_parse(w[i], &dst[i]) != 0)
                return bad(p, "%s: '%s' (expected 4096 or MxNxK)", key, w[i]);
        *(key[0] == 'o' ? &c->n_other_shapes : &c->n_shapes) = n;
    } else if (!strcmp(key, "opt_levels") || !strcmp(key, "other_opt_levels")) {
        struct claim_filter *f = key[0] == 'o' && key[1] == 't' ? &c->other_filter : &c->filter;
        return int_list(p, key, v, f->opt_levels, &f->n_opt, 3);
    } else if (!strcmp(key, "tiles") || !strcmp(key, "other_tiles")) {
        struct claim_filter *f = key[0] == 'o' ? &c->other_filter : &c->filter;
        return int_list(p, key, v, f->tiles, &f->n_tiles, CLAIM_MAX_LIST);
    } else if (!strcmp(key, "wpts") || !strcmp(key, "other_wpts")) {
        struct claim_filter *f = key[0] == 'o' ? &c->other_filter : &c->filter;
        return int_list(p, key, v, f->wpts, &f->n_wpts, CLAIM_MAX_LIST);
    } else if (!strcmp(key, "rungs") || !strcmp(key, "except_rungs")) {
        char(*dst)[32] = key[0] == 'r' ? c->only : c->except;
        if ((n = words(v, w, CLAIM_MAX_LIST)) < 1)
            return bad(p, "%s: expected 1 to %d rungs", key, CLAIM_MAX_LIST);
        for (int i = 0; i < n; i++)
            if (rung_arg(p, w[i], dst[i], sizeof dst[i])) return -1;
        *(key[0] == 'r' ? &c->n_only : &c->n_except) = n;
    } else if (!strcmp(key, "precision")) {
        if (strcmp(v, "fp32") && strcmp(v, "tf32"))
            return bad(p, "precision: '%s' (expected fp32 or tf32)", v);
        c->precision = !strcmp(v, "tf32") ? PREC_TF32 : PREC_FP32;
    } else if (!strcmp(key, "classes")) {   /* which classes: by the value (complete_claim) */
        snprintf(c->class_names, sizeof c->class_names, "%s", v);
        if (words(v, w, CLAIM_MAX_LIST) < 1) return bad(p, "classes: expected shape classes");
    } else if (!strcmp(key, "device")) {
        if (strcmp(v, "gpu") && strcmp(v, "host"))
            return bad(p, "device: '%s' (expected gpu or host)", v);
        c->host_rows = !strcmp(v, "host");
    } else if (!strcmp(key, "expect")) {
        snprintf(c->expect_text, sizeof c->expect_text, "%s", v);
        if (parse_band(v, 0, &c->lo, &c->hi, NULL))
            return bad(p, "expect: '%s' (expected at_least X, at_most X, between X Y or about X "
                          "P%%)", c->expect_text);
        c->expect = isinf(c->hi) ? CE_AT_LEAST : isinf(c->lo) ? CE_AT_MOST : CE_BETWEEN;
    } else if (!strcmp(key, "negation")) {
        snprintf(c->negation_text, sizeof c->negation_text, "%s", v);
        if (parse_band(v, 1, &c->neg_lo, &c->neg_hi, &c->neg_outside))
            return bad(p, "negation: '%s' (expected at_least X, at_most X, between X Y, about X "
                          "P%% or outside X Y)", c->negation_text);
    } else if (!strcmp(key, "scope")) {
        if (strcmp(v, "any") && strcmp(v, "reference"))
            return bad(p, "scope: '%s' (expected any or reference)", v);
        c->any_gpu = !strcmp(v, "any");
    } else if (!strcmp(key, "figure")) {
        snprintf(c->figure, sizeof c->figure, "%s", v);
    } else if (!strcmp(key, "command")) {
        snprintf(c->command, sizeof c->command, "%s", v);
    } else if (!strcmp(key, "revised")) {
        return set_revision(p, c, v);
    } else {
        return bad(p, "unknown key '%s'", key);
    }
    return 0;
}

/* The values that compare two runs pair by pair. */
int claim_pairwise(enum claim_value v) { return v == CV_AGREEMENT || v == CV_AGREEMENT_SHARE; }

/* The values of two runs together: the pairwise ones and the ratio of wall times. */
int claim_of_two_runs(enum claim_value v) { return claim_pairwise(v) || v == CV_WALL_RATIO; }

/* The values that take one number per run: the noise of its long GPU points. */
int claim_per_run(enum claim_value v)
{
    return v == CV_STABLE_SHARE || v == CV_STABLE_UNCAPPED || v == CV_UNSTABLE_UNCAPPED;
}

/* The corpus values by the second timer: a run without it is refused */
int claim_by_kernel_timer(enum claim_value v)
{
    return v == CV_CORPUS_KERNEL_GEOMEAN || v == CV_CORPUS_KERNEL_DISPATCH_GEOMEAN ||
           v == CV_CORPUS_KERNEL_GAP || v == CV_CORPUS_KERNEL_SHARE || v == CV_CORPUS_KERNEL_APART_MS;
}

/* The values over a corpus run (derive_corpus). */
int claim_over_corpus(enum claim_value v)
{
    return v == CV_CORPUS_PCT_REF || v == CV_CORPUS_GEOMEAN || v == CV_CORPUS_DISPATCH_PCT ||
           v == CV_CORPUS_DISPATCH_GEOMEAN || v == CV_CORPUS_DISPATCH_SHARE ||
           v == CV_CORPUS_SHARE_90 || v == CV_CORPUS_ESTIMATES_SHARE || v == CV_CORPUS_COPY_PCT ||
           v == CV_CORPUS_REGRET_MEDIAN || v == CV_CORPUS_REGRET_P90 ||
           v == CV_CORPUS_DISPATCH_SHARE_10 || claim_by_kernel_timer(v);
}

/* The values over the shape suite (derive_suite) or a corpus. */
int claim_over_suite(enum claim_value v)
{
    return v == CV_SUITE_PCT_REF || v == CV_SUITE_GEOMEAN || v == CV_DISPATCH_SHARE ||
           claim_over_corpus(v);
}

/* classes = NAMES: the suite's shape classes, or for a corpus value the
 * corpus classes, as bits. */
static int parse_classes(struct parse *p, struct claim *c)
{
    char buf[sizeof c->class_names], *w[CLAIM_MAX_LIST];
    snprintf(buf, sizeof buf, "%s", c->class_names);
    const int n = words(buf, w, CLAIM_MAX_LIST);
    for (int i = 0; i < n; i++) {
        enum shape_class k;
        enum corpus_class q;
        if (claim_over_corpus(c->value) ? corpus_class_parse(w[i], &q) : shape_class_parse(w[i], &k))
            return bad(p, "[%s]: classes: '%s' (expected %s)", c->id, w[i],
                       claim_over_corpus(c->value) ? "gemv, short_k, few or rest"
                                             : "decode, small, long_k, short_k, odd, aspect or large");
        c->classes |= 1u << (claim_over_corpus(c->value) ? (int)q : (int)k);
    }
    return 0;
}

/* Is the row one of the exceptions the claim names (its rungs, at its shapes;
 * every shape when it names none)? */
static int named_exception(const struct claim *c, const struct result_row *row)
{
    int rung = 0, shape = !c->n_shapes;
    for (int k = 0; k < c->n_only; k++) rung |= !strcmp(c->only[k], row->variant);
    for (int k = 0; k < c->n_shapes; k++)
        shape |= c->shapes[k].M == row->M && c->shapes[k].N == row->N && c->shapes[k].K == row->K;
    return rung && shape;
}

/* Over the passed GPU points of >= 1 ms (median) of a run (those without a
 * throttled sample, for the _UNCAPPED values; without the claim's named
 * exceptions): the % within 1% relative stddev, or the count outside it; NaN
 * without any point. */
double claim_stability(const struct claim *c, const struct run *r)
{
    const enum claim_value v = c->value;
    size_t n = 0, stable = 0;
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        if (strcmp(row->device, "gpu") || strcmp(row->disposition, "passed") ||
            row->host_memory[0] || !(row->time_ms_median >= 1.0) ||
            (v != CV_STABLE_SHARE && row->throttled_samples > 0) || named_exception(c, row))
            continue;
        n++;
        stable += derive_rel_stddev(row) <= 0.01;
    }
    if (!n) return NAN;
    return v == CV_UNSTABLE_UNCAPPED ? (double)(n - stable) : 100.0 * stable / n;
}

static int check_claim(struct parse *p, struct claim *c)
{
    if (!c->text[0] || !c->has_value || !c->expect_text[0] || !c->n_runs)
        return bad(p, "[%s] needs text, value, runs and expect", c->id);
    /* A band that passes both the claim and its negation checks nothing: the
     * two may share an end, no more. */
    if (c->negation_text[0] &&
        (c->neg_outside ? (c->lo < c->neg_lo || c->hi > c->neg_hi)
                        : fmax(c->lo, c->neg_lo) < fmin(c->hi, c->neg_hi)))
        return bad(p, "[%s]: expect = %s passes values that its negation (%s) passes too: "
                      "the band cannot fail what the text says", c->id, c->expect_text,
                   c->negation_text);
    if (claim_pairwise(c->value) && c->n_runs != 2)
        return bad(p, "[%s]: agreement compares exactly two runs", c->id);
    if (c->value == CV_WALL_RATIO && c->n_runs != 2)
        return bad(p, "[%s]: wall_ratio compares exactly two runs", c->id);
    if (!claim_pairwise(c->value) && c->value != CV_UNVERIFIED && c->value != CV_ESTIMATE &&
        c->value != CV_WALL_S && c->value != CV_WALL_RATIO && !claim_per_run(c->value) && !claim_over_suite(c->value) && !c->n_shapes)
        return bad(p, "[%s] needs shapes", c->id);
    if (claim_over_suite(c->value) && c->precision < 0)
        return bad(p, "[%s]: a value over the shape suite or a corpus needs precision (fp32 or tf32)", c->id);
    if (!claim_over_suite(c->value) && c->class_names[0])
        return bad(p, "[%s]: classes filter values over the shape suite or a corpus only", c->id);
    if (c->class_names[0] && parse_classes(p, c)) return -1;
    if (c->n_other_shapes && (c->value != CV_RATIO || c->n_other_shapes != c->n_shapes))
        return bad(p, "[%s]: other_shapes: one for each of shapes, for a ratio", c->id);
    if ((!claim_pairwise(c->value) && !claim_over_suite(c->value) && c->precision >= 0) ||
        (!claim_pairwise(c->value) && c->host_rows))
        return bad(p, "[%s]: precision filters agreement claims and values over the shape "
                      "suite, device agreement claims only", c->id);
    if (!claim_pairwise(c->value) && c->n_only && !claim_per_run(c->value))
        return bad(p, "[%s]: rungs filter agreement claims, or name the exceptions of a "
                      "noise claim", c->id);
    if (c->n_except && (!claim_pairwise(c->value) || c->n_only))
        return bad(p, "[%s]: except_rungs filters agreement claims that name no rungs", c->id);
    char band[64];
    claims_band_text(c->expect_text, band, sizeof band);
    for (int i = 0; i < c->n_rev; i++) {
        const char *next = i + 1 < c->n_rev ? c->rev[i + 1].old_band : band;
        if (strcmp(c->rev[i].new_band, next) != 0)
            return bad(p, "[%s]: revised record %d moves the band to '%s', but the band %s is "
                          "'%s' (expected the records oldest first, the last ending at expect)",
                       c->id, i + 1, c->rev[i].new_band, i + 1 < c->n_rev ? "the next one moves" : "now",
                       next);
    }
    return 0;
}

/* A claim's checks, with errors at its header's line; the parse goes on where
 * it was (the header of the next claim, or the end). */
static int complete_claim(struct parse *p, struct claim *c)
{
    struct parse at = *p;
    at.line = c->line;
    return check_claim(&at, c);
}

/* ROLE = WORD in [roles]. */
static int set_role(struct parse *p, struct claims *out, const char *role, const char *gpu)
{
    if (!*role || strlen(role) >= sizeof out->roles[0].role || !*gpu ||
        strlen(gpu) >= sizeof out->roles[0].gpu)
        return bad(p, "role '%s = %s' (expected ROLE = a word of its GPU's name, e.g. h100 = "
                      "H100)", role, gpu);
    for (size_t i = 0; i < out->n_roles; i++)
        if (!strcmp(out->roles[i].role, role))
            return bad(p, "role '%s' given twice (first on line %d)", role, out->roles[i].line);
    if (out->n_roles == CLAIM_MAX_ROLES) return bad(p, "more than %d roles", CLAIM_MAX_ROLES);
    struct claim_role *r = &out->roles[out->n_roles++];
    snprintf(r->role, sizeof r->role, "%s", role);
    snprintf(r->gpu, sizeof r->gpu, "%s", gpu);
    r->line = p->line;
    return 0;
}

int claims_check_roles(const struct claims *cs, const struct run *runs, size_t n, char *err,
                       size_t errlen)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < cs->n_roles; k++)
            if (!strcmp(runs[i].role, cs->roles[k].role) &&
                !strstr(runs[i].gpu_name, cs->roles[k].gpu)) {
                snprintf(err, errlen, "%s=%s is a run on '%s', but %s:%d says the role '%s' is "
                                      "a run on a GPU named '*%s*'", runs[i].role, runs[i].path,
                         runs[i].gpu_name[0] ? runs[i].gpu_name : "no GPU", cs->path,
                         cs->roles[k].line, cs->roles[k].role, cs->roles[k].gpu);
                return -1;
            }
    return 0;
}

int claims_load(const char *path, struct claims *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    struct parse p = {path, 0, err, errlen};
    char buf[1024];
    struct claim *c = NULL;
    int rc = 0, in_roles = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        p.line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = bad(&p, "line longer than %zu characters", sizeof buf - 2);
            break;
        }
        char *s = trim(buf);
        if (*s == ';' || *s == '#' || *s == '\0') continue;
        if (*s == '[') {
            char *e = strchr(s, ']');
            if (!e || e[1] != '\0' || e == s + 1) {
                rc = bad(&p, "section header '%s' (expected [claim_id])", s);
                break;
            }
            if (c && (rc = complete_claim(&p, c)) != 0) break;
            c = NULL;
            in_roles = !strcmp(s, "[roles]");
            if (in_roles) continue;
            if (out->n == CLAIM_MAX) {
                rc = bad(&p, "more than %d claims", CLAIM_MAX);
                break;
            }
            c = &out->c[out->n++];
            memset(c, 0, sizeof *c);
            c->precision = -1;
            snprintf(c->id, sizeof c->id, "%.*s", (int)(e - s - 1), s + 1);
            c->line = p.line;
            for (size_t i = 0; i + 1 < out->n; i++)
                if (!strcmp(out->c[i].id, c->id)) rc = bad(&p, "claim [%s] given twice", c->id);
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq || (!c && !in_roles)) {
            rc = bad(&p, "'%s' (expected key = value inside a [claim] or [roles])", s);
            break;
        }
        *eq = '\0';
        char *v = eq + 1, *semi = strstr(v, " ;");
        if (semi) *semi = '\0';
        rc = in_roles ? set_role(&p, out, trim(s), trim(v)) : set_key(&p, c, trim(s), trim(v));
    }
    if (rc == 0 && ferror(f)) rc = bad(&p, "read error");
    fclose(f);
    if (rc == 0 && c) rc = complete_claim(&p, c);
    if (rc == 0 && out->n == 0) {
        snprintf(err, errlen, "%s: no claims", path);
        rc = -1;
    }
    return rc;
}
