/* Summary, comparison and export: see report.h. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "derive.h"
#include "estimates.h"
#include "core/core.h"
#include "util/util.h"
#include "results/results.h"

/* ---- summary ----------------------------------------------------------------- */

struct summary_group {
    const struct result_row *first, *best;
    size_t counts[TRUST_UNKNOWN + 1];   /* by trust_disposition */
};

static int by_first_row(const void *a, const void *b)
{
    const struct summary_group *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

void report_summary(FILE *out, const struct result_row *rows, size_t n)
{
    /* The rows as a run, so that "best" and "% of the reference" are derive's;
     * its groups (rung, shape, host memory) from derive's index, in the order
     * of their first rows. */
    struct run r;
    memset(&r, 0, sizeof r);
    r.f.rows = (struct result_row *)rows;
    r.f.n_rows = n;
    struct summary_group *g = malloc((n ? n : 1) * sizeof *g);
    if (!g || derive_index(&r) != 0) {
        free(g);
        fprintf(out, "(no summary: out of memory)\n");
        return;
    }
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        const struct result_row *x = r.by_group[i];
        if (i == 0 || derive_group_cmp(r.by_group[i - 1], x) != 0)
            g[ng++] = (struct summary_group){x, NULL, {0}};
        struct summary_group *c = &g[ng - 1];
        c->counts[trust_disposition(x->disposition)]++;
        const char *d = x->disposition;
        if (!strcmp(d, "passed") && (!c->best || x->gflops > c->best->gflops)) c->best = x;
    }
    qsort(g, ng, sizeof *g, by_first_row);
    fprintf(out, "(%% ref: of the rung's cuBLAS line, cublas_fp32 or, marked T, cublas_tf32, from\n"
                 " paired samples, +- its 95%% interval; MHz: mean SM clock over the samples;\n"
                 " thr: samples throttled by the power cap or heat, of all; - where unavailable)\n");
    fprintf(out, "%-19s %-16s %-28s %12s %7s %5s %5s %7s %10s  %s\n", "variant", "shape",
            "best config", "GFLOP/s", "% ref", "+-", "MHz", "thr", "rel_err", "disposition");
    for (size_t k = 0; k < ng; k++) {
        const struct result_row *best = g[k].best, *first = g[k].first;
        const size_t *counts = g[k].counts;
        const struct variant *v = registry_find(first->variant);
        char shape[48], cfg[96] = "", pct[16] = "-", gf[16] = "-", err[16] = "-", disp[96];
        char ci[16] = "-", mhz[16] = "-", thr[24] = "-";
        shape_str(shape, sizeof shape, first->M, first->N, first->K);
        if (best && v) {
            derive_config_label(v, best, cfg, sizeof cfg);
            if (best->host_memory[0])
                snprintf(cfg + strlen(cfg), sizeof cfg - strlen(cfg), "%s%s", cfg[0] ? " " : "",
                         best->host_memory);
            snprintf(gf, sizeof gf, "%.1f", best->gflops);
            snprintf(err, sizeof err, "%.2e", best->rel_err);
            const double p = best->host_memory[0] ? NAN
                             : estimates_pct_ref(&r, v, (struct shape){best->M, best->N, best->K});
            if (isfinite(p))
                snprintf(pct, sizeof pct, "%.1f%s", p, v->precision == PREC_TF32 ? "T" : "");
            const double c = best->host_memory[0] ? NAN
                             : derive_pct_ref_ci95(&r, v, (struct shape){best->M, best->N, best->K});
            if (isfinite(c)) snprintf(ci, sizeof ci, "%.2f", c);
            if (!strcmp(best->telemetry, "nvml")) {
                if (isfinite(best->clock_mhz_mean)) snprintf(mhz, sizeof mhz, "%.0f", best->clock_mhz_mean);
                snprintf(thr, sizeof thr, "%d/%d", best->throttled_samples, best->samples);
            }
        }
        int used = snprintf(disp, sizeof disp, "%zu passed", counts[0]);
        for (size_t j = 1; j <= TRUST_UNKNOWN; j++)
            if (counts[j] && used < (int)sizeof disp)
                used += snprintf(disp + used, sizeof disp - (size_t)used, ", %zu %s", counts[j],
                                 TRUST_DISPOSITIONS[j]);
        fprintf(out, "%-19s %-16s %-28s %12s %7s %5s %5s %7s %10s  %s\n", first->variant, shape,
                cfg, gf, pct, ci, mhz, thr, err, disp);
    }
    free(g);
    derive_unindex(&r);
}

/* ---- comparison ------------------------------------------------------------- */

size_t report_compare(FILE *out, const struct results_file *mine, const struct results_file *ref,
                      double tolerance, int across, int tsv, size_t *compared,
                      size_t *reported)
{
    struct run a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.f = *mine;
    b.f = *ref;
    struct pair *p;
    const size_t np = derive_pairs(&a, &b, &p);
    size_t outside = 0, n = 0, host = 0;
    if (tsv)
        fprintf(out, "variant\tM\tN\tK\thost_memory\tconfig\tgflops\tref_config\tref_gflops\t"
                     "ratio\twithin\n");
    else
        fprintf(out, "%-19s %-16s %-9s %-28s %11s %11s %7s  %s\n", "variant", "shape", "memory",
                "config", "GFLOP/s", "ref GFLOP/s", "ratio", "within");
    for (size_t i = 0; i < np; i++) {
        /* Host rows are single-core timings of whatever CPU ran them, and GPU
         * rows of two GPU models are two machines: reported, never held to the
         * tolerance. */
        const int is_host = p[i].v->device == DEV_HOST || across;
        const int ok = fabs(p[i].ratio - 1.0) <= tolerance;
        const char *verdict = is_host ? "reported" : ok ? "yes" : tsv ? "no" : "NO";
        if (is_host) {
            host++;
        } else {
            outside += !ok;
            n++;
        }
        char shape[48], c1[96], c2[96];
        shape_str(shape, sizeof shape, p[i].s.M, p[i].s.N, p[i].s.K);
        derive_config_label(p[i].v, p[i].a, c1, sizeof c1);
        derive_config_label(p[i].v, p[i].b, c2, sizeof c2);
        if (tsv)
            fprintf(out, "%s\t%d\t%d\t%d\t%s\t%s\t%.6g\t%s\t%.6g\t%.4f\t%s\n", p[i].v->name,
                    p[i].s.M, p[i].s.N, p[i].s.K, p[i].memory[0] ? p[i].memory : "-",
                    c1[0] ? c1 : "-", p[i].a->gflops, c2[0] ? c2 : "-", p[i].b->gflops, p[i].ratio,
                    verdict);
        else
            fprintf(out, "%-19s %-16s %-9s %-28s %11.1f %11.1f %7.3f  %s\n", p[i].v->name, shape,
                    p[i].memory[0] ? p[i].memory : "-", c1, p[i].a->gflops, p[i].b->gflops,
                    p[i].ratio, verdict);
    }
    free(p);
    if (compared) *compared = n;
    if (reported) *reported = host;
    return outside;
}

/* ---- export ------------------------------------------------------------------ */

void report_export_attrs(FILE *out, const struct results_file *f, enum export_format fmt)
{
    const char sep = fmt == EXPORT_CSV ? ',' : '\t';
    fprintf(out, "name%cvalue\n", sep);
    for (size_t i = 0; i < f->n_attrs; i++) {
        const struct results_attr *a = &f->attrs[i];
        if (!strcmp(a->name, "experiment_text")) continue;   /* multi-line: see h5dump -A */
        fprintf(out, "%s%c", a->name, sep);
        for (const char *p = a->value; *p; p++)
            fputc(*p == '\t' || *p == '\n' || *p == sep ? ' ' : *p, out);
        fputc('\n', out);
    }
}

/* One field at p, as the TSV or CSV export writes it; returns its end. */
static char *put_field(char *p, const struct field_desc *f, const void *rec, char sep)
{
    const char *v = (const char *)rec + f->offset;
    switch (f->kind) {
    case FIELD_STR:
        if (sep == ',') {
            /* CSV: quote every string, doubling quotes. */
            *p++ = '"';
            for (size_t i = 0; i < f->size && v[i]; i++) {
                if (v[i] == '"') *p++ = '"';
                *p++ = v[i];
            }
            *p++ = '"';
        } else {
            /* TSV: an empty string would shift gnuplot's columns; write "-". */
            if (!v[0]) *p++ = '-';
            for (size_t i = 0; i < f->size && v[i]; i++)
                *p++ = v[i] == '\t' || v[i] == '\n' ? ' ' : (v[i] == ' ' ? '_' : v[i]);
        }
        return p;
    case FIELD_INT: {
        int32_t i;
        memcpy(&i, v, sizeof i);
        return p + numtext_int(p, i);
    }
    case FIELD_DBL: {
        double d;
        memcpy(&d, v, sizeof d);
        return p + numtext_g9(p, d);
    }
    }
    return p;
}

void report_export_rows(FILE *out, const struct results_file *f, enum export_format fmt,
                        int passed_only)
{
    const char sep = fmt == EXPORT_CSV ? ',' : '\t';
    /* A row is formatted whole, then written at once.  A string field of s
     * bytes takes at most 2s + 3 (quoted, every character doubled, a
     * separator), a number (4 or 8 bytes in the row) at most NUMTEXT_MAX + 1:
     * each under 9 characters a byte of the row. */
    char line[9 * sizeof(struct result_row) + NUMTEXT_MAX + 2];
    fprintf(out, "row");
    for (size_t k = 0; k < RESULT_NFIELDS; k++) fprintf(out, "%c%s", sep, RESULT_FIELDS[k].name);
    fputc('\n', out);
    for (size_t i = 0; i < f->n_rows; i++) {
        if (passed_only && strcmp(f->rows[i].disposition, "passed") != 0) continue;
        char *p = line + numtext_int(line, (long long)i);
        for (size_t k = 0; k < RESULT_NFIELDS; k++) {
            *p++ = sep;
            p = put_field(p, &RESULT_FIELDS[k], &f->rows[i], sep);
        }
        *p++ = '\n';
        fwrite(line, 1, (size_t)(p - line), out);
    }
}

void report_export_samples(FILE *out, const struct results_file *f, enum export_format fmt)
{
    const char sep = fmt == EXPORT_CSV ? ',' : '\t';
    fprintf(out, "row%cvariant%cM%cN%cK%ctile%cwpt%copt_level%csample%ctime_ms%ch2d_ms%cd2h_ms\n",
            sep, sep, sep, sep, sep, sep, sep, sep, sep, sep, sep);
    for (size_t i = 0; i < f->n_samples; i++) {
        const struct sample_row *s = &f->samples[i];
        if (s->row < 0 || (size_t)s->row >= f->n_rows) continue;   /* never in a valid file */
        const struct result_row *r = &f->rows[s->row];
        const int ints[] = {r->M, r->N, r->K, r->tile, r->wpt, r->opt_level, s->sample};
        const double times[] = {s->time_ms, s->h2d_ms, s->d2h_ms};
        char line[sizeof r->variant + 16 * NUMTEXT_MAX], *p = line;
        p += numtext_int(p, s->row);
        *p++ = sep;
        const size_t vlen = strnlen(r->variant, sizeof r->variant);
        memcpy(p, r->variant, vlen);
        p += vlen;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) *p++ = sep, p += numtext_int(p, ints[k]);
        for (size_t k = 0; k < 3; k++) *p++ = sep, p += numtext_g9(p, times[k]);
        *p++ = '\n';
        fwrite(line, 1, (size_t)(p - line), out);
    }
}
