/* One quantity, one number: see quantity.h. */
#include "quantity.h"

#include <stdio.h>
#include <string.h>

#include "views/views.h"

/* The estimates of one row, in the order of their bits. */
static const char *const estimate_kind[] = {"pct_ref_paired", "pct_ref_alone", "pct_ref_kernel"};
#define ESTIMATE_KINDS (sizeof estimate_kind / sizeof estimate_kind[0])

/* ROLE.KIND.RUNG.SHAPE with KIND an estimate: its bit, and ROLE.RUNG.SHAPE into
 * row; -1 for any other key. */
static int estimate_of(const char *key, char *row, size_t len)
{
    const char *a = strchr(key, '.'), *b = a ? strchr(a + 1, '.') : NULL;
    if (!b) return -1;
    for (size_t k = 0; k < ESTIMATE_KINDS; k++)
        if ((size_t)(b - a - 1) == strlen(estimate_kind[k]) &&
            !strncmp(a + 1, estimate_kind[k], (size_t)(b - a - 1))) {
            snprintf(row, len, "%.*s%s", (int)(a - key + 1), key, b + 1);
            return (int)k;
        }
    return -1;
}

int quantity_note(struct quantity_paragraph *p, const char *key, const char *file, int line,
                  char *err, size_t errlen)
{
    char row[128];
    const int k = estimate_of(key, row, sizeof row);
    if (k < 0) return 0;
    size_t i = 0;
    while (i < p->n && strcmp(p->e[i].row, row)) i++;
    if (i == p->n) {
        if (p->n == QUANTITY_MAX_PER_PARAGRAPH) {
            snprintf(err, errlen, "%s:%d: more than %d rows' estimates in one paragraph", file, line,
                     QUANTITY_MAX_PER_PARAGRAPH);
            return -1;
        }
        struct quantity_estimate *e = &p->e[p->n++];
        snprintf(e->row, sizeof e->row, "%s", row);
        snprintf(e->file, sizeof e->file, "%s", file);
        e->line = line;
        e->kinds = 0;
    }
    p->e[i].kinds |= 1u << k;
    return 0;
}

int quantity_paragraph_end(struct quantity_paragraph *p, int (*answers)(const char *key, void *ctx),
                           void *ctx, char *err, size_t errlen)
{
    int rc = 0;
    for (size_t i = 0; i < p->n && rc == 0; i++) {
        const struct quantity_estimate *e = &p->e[i];
        const char *dot = strchr(e->row, '.');
        for (size_t k = 0; k < ESTIMATE_KINDS && rc == 0; k++) {
            if (e->kinds & (1u << k)) continue;
            char key[192];
            snprintf(key, sizeof key, "%.*s%s%s", (int)(dot - e->row + 1), e->row,
                     estimate_kind[k], dot);
            if (answers(key, ctx)) {
                snprintf(err, errlen, "%s:%d: an estimate of %s is printed without \\val{%s} in "
                         "its paragraph (the estimates of a row are printed together; a rung's "
                         "%% of cuBLAS is ROLE.pct_ref.RUNG.SHAPE, the lowest of them)",
                         e->file, e->line, e->row, key);
                rc = -1;
            }
        }
    }
    p->n = 0;
    return rc;
}

static int same_filter(const struct claim_filter *a, const struct claim_filter *b)
{
    if (a->n_opt != b->n_opt || a->n_tiles != b->n_tiles || a->n_wpts != b->n_wpts) return 0;
    for (int i = 0; i < a->n_opt; i++)
        if (a->opt_levels[i] != b->opt_levels[i]) return 0;
    for (int i = 0; i < a->n_tiles; i++)
        if (a->tiles[i] != b->tiles[i]) return 0;
    for (int i = 0; i < a->n_wpts; i++)
        if (a->wpts[i] != b->wpts[i]) return 0;
    return 1;
}

static int same_names(const char (*a)[32], int na, const char (*b)[32], int nb)
{
    if (na != nb) return 0;
    for (int i = 0; i < na; i++)
        if (strcmp(a[i], b[i])) return 0;
    return 1;
}

static int in_shapes(struct shape s, const struct shape *t, int n)
{
    for (int i = 0; i < n; i++)
        if (t[i].M == s.M && t[i].N == s.N && t[i].K == s.K) return 1;
    return 0;
}

/* A value of one rung (or of a suite's or corpus's rungs) at shapes, which a
 * run measures once: not a count or share over runs, which other runs make
 * another statement. */
static int per_shape(const struct claim *c)
{
    switch (c->value) {
    case CV_PCT_REF: case CV_PCT_PEAK: case CV_TFLOPS: case CV_RATIO: case CV_STEP:
    case CV_REL_STDDEV: case CV_COPY_RATIO: case CV_PCT_REF_CI: case CV_PCT_REF_KERNEL:
    case CV_PCT_REF_ALONE: case CV_PCT_REF_PAIRED: case CV_ESTIMATES_SPREAD: case CV_REF_IN_PAIRS:
    case CV_CLOCK_IN_PAIRS: case CV_SUITE_PCT_REF: case CV_SUITE_GEOMEAN: case CV_DISPATCH_SHARE:
    case CV_CORPUS_PCT_REF: case CV_CORPUS_GEOMEAN: case CV_CORPUS_DISPATCH_PCT:
    case CV_CORPUS_DISPATCH_GEOMEAN: case CV_CORPUS_DISPATCH_SHARE: case CV_CORPUS_SHARE_90:
    case CV_CORPUS_REGRET_MEDIAN: case CV_CORPUS_REGRET_P90: case CV_CORPUS_DISPATCH_SHARE_10:
        return 1;
    default:
        return 0;
    }
}

/* Do a and b measure one thing (at a shape they share, or both over a whole
 * suite or corpus)? */
static int one_quantity(const struct claim *a, const struct claim *b)
{
    if (!per_shape(a) || a->value != b->value || strcmp(a->rung, b->rung) || strcmp(a->other, b->other) ||
        a->precision != b->precision || a->classes != b->classes || a->host_rows != b->host_rows ||
        !same_filter(&a->filter, &b->filter) || !same_filter(&a->other_filter, &b->other_filter) ||
        !same_names(a->only, a->n_only, b->only, b->n_only) ||
        !same_names(a->except, a->n_except, b->except, b->n_except) ||
        a->n_other_shapes != b->n_other_shapes)
        return 0;
    if (!a->n_shapes || !b->n_shapes) return !a->n_shapes && !b->n_shapes;
    for (int i = 0; i < a->n_shapes; i++)
        if (in_shapes(a->shapes[i], b->shapes, b->n_shapes)) return 1;
    return 0;
}

static int same_runs(const struct claim *a, const struct claim *b)
{
    if (a->n_runs != b->n_runs) return 0;
    for (int i = 0; i < a->n_runs; i++) {
        int found = 0;
        for (int j = 0; j < b->n_runs && !found; j++) found = !strcmp(a->runs[i], b->runs[j]);
        if (!found) return 0;
    }
    return 1;
}

static void runs_text(const struct claim *c, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < c->n_runs && o < len; i++)
        o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " " : "", c->runs[i]);
}

/* ---- the tables beside the claims -------------------------------------------------- */

#define TABLE_PARTS 8

/* a-b-c into up to TABLE_PARTS parts of buf; their count */
static int dashed(const char *s, char *buf, size_t len, char **part)
{
    snprintf(buf, len, "%s", s);
    int n = 0;
    for (char *t = strtok(buf, "-"); t && n < TABLE_PARTS; t = strtok(NULL, "-")) part[n++] = t;
    return n;
}

static int kind_in(enum claim_value v, const enum claim_value *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (k[i] == v) return 1;
    return 0;
}

/* Does the table `name` show claim c's value at one of its shapes (or, for a
 * suite's or corpus's value, at all)?  Its roles into roles (count *nroles). */
static int table_shows(const char *name, const struct claim *c, char (*roles)[32], int *nroles)
{
    static const enum claim_value ladder[] = {CV_PCT_REF, CV_TFLOPS},
                                  suite[] = {CV_SUITE_PCT_REF, CV_SUITE_GEOMEAN, CV_DISPATCH_SHARE},
                                  corpus[] = {CV_CORPUS_PCT_REF, CV_CORPUS_GEOMEAN,
                                              CV_CORPUS_DISPATCH_PCT, CV_CORPUS_DISPATCH_GEOMEAN,
                                              CV_CORPUS_SHARE_90},
                                  estimates[] = {CV_PCT_REF_PAIRED, CV_PCT_REF_ALONE,
                                                 CV_PCT_REF_KERNEL, CV_ESTIMATES_SPREAD};
    char buf[256], *p[4] = {0}, rb[256], *r[TABLE_PARTS], sb[256], *s[TABLE_PARTS], nb[256],
                   *rung[TABLE_PARTS];
    snprintf(buf, sizeof buf, "%s", name);
    int n = 0;
    for (char *t = strtok(buf, "."); t && n < 4; t = strtok(NULL, ".")) p[n++] = t;
    if (n < 2) return 0;
    int shows = 0, nshapes = 0, nrungs = -1;   /* -1: every rung */
    if (!strcmp(p[0], "ladder") && n == 3) {
        shows = kind_in(c->value, ladder, 2) && c->n_shapes > 0;
        nshapes = dashed(p[2], sb, sizeof sb, s);
    } else if (!strcmp(p[0], "shapes") && n == 2) {
        shows = kind_in(c->value, suite, 3);
    } else if (!strcmp(p[0], "corpus") && n == 2) {
        shows = kind_in(c->value, corpus, 5);
    } else if (!strcmp(p[0], "host") && n == 2) {
        shows = c->value == CV_RATIO && !strcmp(c->rung, "host_restrict") &&
                !strcmp(c->other, "host_naive");
    } else if (!strcmp(p[0], "estimates") && n == 4) {
        shows = kind_in(c->value, estimates, 4) && c->n_shapes > 0;
        nrungs = dashed(p[2], nb, sizeof nb, rung);
        nshapes = dashed(p[3], sb, sizeof sb, s);
    }
    if (!shows) return 0;
    if (nrungs >= 0) {
        int found = 0;
        for (int i = 0; i < nrungs && !found; i++) found = !strcmp(rung[i], c->rung);
        if (!found) return 0;
    }
    if (nshapes) {
        int found = 0;
        for (int i = 0; i < nshapes && !found; i++) {
            struct shape t;
            found = shape_parse(s[i], &t) == 0 && in_shapes(t, c->shapes, c->n_shapes);
        }
        if (!found) return 0;
    }
    *nroles = dashed(p[1], rb, sizeof rb, r);
    for (int i = 0; i < *nroles; i++) snprintf(roles[i], 32, "%.31s", r[i]);
    return 1;
}

/* 0, or -1 with err when c's runs are not the roles of the printed tables
 * that show its value. */
static int runs_of_tables(const struct claims *cs, const struct claim *c, const char (*keys)[128],
                          const unsigned char *table, size_t n, char *err, size_t errlen)
{
    struct claim shown = {.n_runs = 0};
    char names[512] = "";
    size_t o = 0;
    for (size_t t = 0; t < n; t++) {
        char roles[TABLE_PARTS][32];
        int nr = 0;
        if (!table[t] || !table_shows(keys[t], c, roles, &nr)) continue;
        o += (size_t)snprintf(names + o, o < sizeof names ? sizeof names - o : 0, "%s%s",
                              o ? ", " : "", keys[t]);
        for (int i = 0; i < nr; i++) {
            int seen = 0;
            for (int j = 0; j < shown.n_runs && !seen; j++) seen = !strcmp(shown.runs[j], roles[i]);
            if (!seen && shown.n_runs < CLAIM_MAX_LIST)
                snprintf(shown.runs[shown.n_runs++], sizeof shown.runs[0], "%.31s", roles[i]);
        }
    }
    if (!shown.n_runs || same_runs(c, &shown)) return 0;
    char ra[CLAIM_MAX_LIST * 33], rb[CLAIM_MAX_LIST * 33];
    runs_text(c, ra, sizeof ra);
    runs_text(&shown, rb, sizeof rb);
    snprintf(err, errlen, "%s:%d: [%s] spans the runs %s, but the tables that show its value (%s) "
             "show %s: a range in the text spans the runs of the table beside it",
             cs->path, c->line, c->id, ra, names, rb);
    return -1;
}

/* Does key, a \val key, print something of claim id (claim.ID.WHAT)? */
static int prints_claim(const char *key, const char *id)
{
    const size_t len = strlen(id);
    return !strncmp(key, "claim.", 6) && !strncmp(key + 6, id, len) && key[6 + len] == '.';
}

int quantity_claims_agree(const struct claims *cs, const char (*keys)[128],
                          const unsigned char *table, size_t n, char *err, size_t errlen)
{
    const struct claim *c[CLAIM_MAX];
    size_t m = 0;
    for (size_t i = 0; cs && i < cs->n && m < CLAIM_MAX; i++)
        for (size_t j = 0; j < n; j++)
            if (!table[j] && prints_claim(keys[j], cs->c[i].id)) {
                c[m++] = &cs->c[i];
                break;
            }
    for (size_t i = 0; i < m; i++)
        if (runs_of_tables(cs, c[i], keys, table, n, err, errlen) != 0) return -1;
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++)
            if (one_quantity(c[i], c[j]) && !same_runs(c[i], c[j])) {
                char ra[CLAIM_MAX_LIST * 33], rb[CLAIM_MAX_LIST * 33];
                runs_text(c[i], ra, sizeof ra);
                runs_text(c[j], rb, sizeof rb);
                snprintf(err, errlen, "%s:%d: [%s] and line %d's [%s] print one quantity over "
                         "different runs (%s; %s): a range printed twice spans the same runs",
                         cs->path, c[i]->line, c[i]->id, c[j]->line, c[j]->id, ra, rb);
                return -1;
            }
    return 0;
}
