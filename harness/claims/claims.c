/* Claims checked against the data: see check.h. */
#include "check.h"
#include "views/views.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
static int pairwise(enum claim_value v) { return v == CV_AGREEMENT || v == CV_AGREEMENT_SHARE; }

/* The values of two runs together: the pairwise ones and the ratio of wall times. */
static int of_two_runs(enum claim_value v) { return pairwise(v) || v == CV_WALL_RATIO; }

/* The values that take one number per run: the noise of its long GPU points. */
static int per_run(enum claim_value v)
{
    return v == CV_STABLE_SHARE || v == CV_STABLE_UNCAPPED || v == CV_UNSTABLE_UNCAPPED;
}

/* The corpus values by the second timer: a run without it is refused */
static int by_kernel_timer(enum claim_value v)
{
    return v == CV_CORPUS_KERNEL_GEOMEAN || v == CV_CORPUS_KERNEL_DISPATCH_GEOMEAN ||
           v == CV_CORPUS_KERNEL_GAP || v == CV_CORPUS_KERNEL_SHARE || v == CV_CORPUS_KERNEL_APART_MS;
}

/* The values over a corpus run (derive_corpus). */
static int over_corpus(enum claim_value v)
{
    return v == CV_CORPUS_PCT_REF || v == CV_CORPUS_GEOMEAN || v == CV_CORPUS_DISPATCH_PCT ||
           v == CV_CORPUS_DISPATCH_GEOMEAN || v == CV_CORPUS_DISPATCH_SHARE ||
           v == CV_CORPUS_SHARE_90 || v == CV_CORPUS_ESTIMATES_SHARE || v == CV_CORPUS_COPY_PCT ||
           by_kernel_timer(v);
}

/* The values over the shape suite (derive_suite) or a corpus. */
static int over_suite(enum claim_value v)
{
    return v == CV_SUITE_PCT_REF || v == CV_SUITE_GEOMEAN || v == CV_DISPATCH_SHARE ||
           over_corpus(v);
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
        if (over_corpus(c->value) ? corpus_class_parse(w[i], &q) : shape_class_parse(w[i], &k))
            return bad(p, "[%s]: classes: '%s' (expected %s)", c->id, w[i],
                       over_corpus(c->value) ? "gemv, short_k, few or rest"
                                             : "decode, small, long_k, short_k, odd, aspect or large");
        c->classes |= 1u << (over_corpus(c->value) ? (int)q : (int)k);
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
static double stability(const struct claim *c, const struct run *r)
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
    if (pairwise(c->value) && c->n_runs != 2)
        return bad(p, "[%s]: agreement compares exactly two runs", c->id);
    if (c->value == CV_WALL_RATIO && c->n_runs != 2)
        return bad(p, "[%s]: wall_ratio compares exactly two runs", c->id);
    if (!pairwise(c->value) && c->value != CV_UNVERIFIED && c->value != CV_ESTIMATE &&
        c->value != CV_WALL_S && c->value != CV_WALL_RATIO && !per_run(c->value) && !over_suite(c->value) && !c->n_shapes)
        return bad(p, "[%s] needs shapes", c->id);
    if (over_suite(c->value) && c->precision < 0)
        return bad(p, "[%s]: a value over the shape suite or a corpus needs precision (fp32 or tf32)", c->id);
    if (!over_suite(c->value) && c->class_names[0])
        return bad(p, "[%s]: classes filter values over the shape suite or a corpus only", c->id);
    if (c->class_names[0] && parse_classes(p, c)) return -1;
    if (c->n_other_shapes && (c->value != CV_RATIO || c->n_other_shapes != c->n_shapes))
        return bad(p, "[%s]: other_shapes: one for each of shapes, for a ratio", c->id);
    if ((!pairwise(c->value) && !over_suite(c->value) && c->precision >= 0) ||
        (!pairwise(c->value) && c->host_rows))
        return bad(p, "[%s]: precision filters agreement claims and values over the shape "
                      "suite, device agreement claims only", c->id);
    if (!pairwise(c->value) && c->n_only && !per_run(c->value))
        return bad(p, "[%s]: rungs filter agreement claims, or name the exceptions of a "
                      "noise claim", c->id);
    if (c->n_except && (!pairwise(c->value) || c->n_only))
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
    case CV_CORPUS_KERNEL_GAP: case CV_CORPUS_KERNEL_SHARE: case CV_CORPUS_KERNEL_APART_MS: break;
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
    case CV_REF_IN_PAIRS: case CV_CLOCK_IN_PAIRS: return "%.3f";
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
    if (pairwise(c->value)) {
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
    } else if (over_suite(c->value)) {
        size_t room = 1;
        for (size_t k = 0; k < nrs; k++)
            if (derive_suite_room(rs[k]) > room) room = derive_suite_room(rs[k]);
        struct suite_point *pt = malloc(room * sizeof *pt);
        const int corpus = over_corpus(c->value);
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
            if (by_kernel_timer(c->value) && m && !(pt[0].best_pct_kernel > 0)) {
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
                                 : c->value == CV_CORPUS_KERNEL_GAP ? gap
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
    } else if (per_run(c->value)) {
        for (size_t k = 0; k < nrs; k++) take(&a, c, stability(c, rs[k]), rs[k]->role, rs[k]->role);
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
    if (of_two_runs(c->value)) {
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
    if (pairwise(c->value)) return c->host_rows;
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
    if (pairwise(c->value))
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
