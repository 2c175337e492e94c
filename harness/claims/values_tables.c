/* Values: the tables the paper includes (\valtable), the writing of values.tex
 * and the scan of the paper's sources for the keys: see values.h. */
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
    if (value_role_runs(roles, *nr, runs, nruns, rr, why, whylen)) return -1;
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
        value_latex(v->name, name, sizeof name);
        derive_config_label(v, derive_best(rr[0], v, sh[0]), cfg, sizeof cfg);
        value_latex_config(cfg, cfgl, sizeof cfgl);
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
    if (value_role_runs(roles, nr, runs, nruns, rr, why, whylen)) return -1;
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
        value_latex_config(label, tex, sizeof tex);
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
    if (value_role_runs(roles, nr, runs, nruns, rr, why, whylen)) return -1;
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
    const struct run *r = value_role_run(runs, nruns, role);
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
    const struct run *r = value_role_run(runs, nruns, role);
    if (!r) snprintf(why, whylen, "no run '%s'", role);
    return r;
}

/* The run of ROLE and n arrays of room for its suite points (*room each, of
 * derive_suite_room): the run, or NULL with why (no such run, out of memory). */
static const struct run *run_with_points(const char *role, const struct run *runs, size_t nruns,
                                         struct suite_point **pt, int n, size_t *room, char *why,
                                         size_t whylen)
{
    const struct run *r = table_run(role, runs, nruns, why, whylen);
    if (!r) return NULL;
    *room = derive_suite_room(r);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= (pt[i] = malloc(*room * sizeof *pt[i])) != NULL;
    if (!ok) {
        for (int i = 0; i < n; i++) free(pt[i]);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    return r;
}

/* shapes.ROLE: per shape of the suite (its order): the class, then for FP32
 * and TF32 the fastest hand-written rung (number), its % of the reference, the
 * waves of its grid and the K each block multiplies, and the dispatch row's %
 * of the reference. */
static int table_shapes(FILE *f, const char *role, const struct run *runs, size_t nruns,
                        char *why, size_t whylen)
{
    struct suite_point *pt[2];
    size_t room;
    const struct run *r = run_with_points(role, runs, nruns, pt, 2, &room, why, whylen);
    if (!r) return -1;
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
        value_latex_config(label, tex, sizeof tex);
        value_latex(shape_class_name(q[0]->cls), cls, sizeof cls);
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
    struct suite_point *pt;
    size_t room;
    const struct run *r = run_with_points(role, runs, nruns, &pt, 1, &room, why, whylen);
    if (!r) return -1;
    size_t rows = 0;
    for (int p = PREC_FP32; p <= PREC_TF32; p++) {
        const size_t n = derive_corpus(r, (enum precision)p, pt, room);
        const size_t before = rows;
        for (int c = 0; c <= CC_COUNT; c++) {
            struct corpus_summary su;
            derive_corpus_summary(pt, n, c, &su);
            if (!su.shapes) continue;
            char cls[32];
            value_latex(c < CC_COUNT ? corpus_class_name((enum corpus_class)c) : "all", cls, sizeof cls);
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
        value_latex(v->name, name, sizeof name);
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
                value_gpu_short(rr[i], gpu, sizeof gpu);
                value_latex_config(label, shape, sizeof shape);
                derive_config_label(v, p, cfg, sizeof cfg);
                value_latex_config(cfg, cfgl, sizeof cfgl);
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
        value_latex(cs->c[i].id, id, sizeof id);
        value_latex(r->old_band, from, sizeof from);
        value_latex(r->new_band, to, sizeof to);
        value_latex(r->when, when, sizeof when);
        value_latex(r->why, reason, sizeof reason);
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
        value_latex(c->id, id, sizeof id);
        value_latex_ranges(rs[i].measured, measured, sizeof measured);
        /* ">= 1.50" and "<= 0.50" in the text font's own signs */
        const char *e = rs[i].expected;
        if (!strncmp(e, ">= ", 3) || !strncmp(e, "<= ", 3))
            snprintf(expected, sizeof expected, "%s %s", e[0] == '>' ? "$\\geq$" : "$\\leq$", e + 3);
        else
            value_latex(e, expected, sizeof expected);
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
    int n = value_split(name, buf, sizeof buf, p, 4);
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
        snprintf(why, whylen, "no such table (see harness/claims/values.h)");
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
    unsigned char *done_table = NULL;   /* 1: done[i] is a \valtable's */
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
                    if (more) done = more;
                    unsigned char *flags = more ? realloc(done_table, room) : NULL;
                    if (!flags) {
                        snprintf(err, errlen, "out of memory for %zu keys", room);
                        rc = -1;
                        break;
                    }
                    done_table = flags;
                }
                done_table[ndone] = (unsigned char)table;
                snprintf(done[ndone++], sizeof done[0], "%s", key);
            }
        }
        if (rc == 0 && quantity_paragraph_end(para, answers, &ctx, err, errlen) != 0) rc = -1;
        fclose(f);
    }
    /* the claims printed: one quantity over one set of runs */
    if (rc == 0 && quantity_claims_agree(cs, (const char(*)[128])done, done_table, ndone, err,
                                          errlen) != 0)
        rc = -1;
    free(para);
    free(done);
    free(done_table);
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
