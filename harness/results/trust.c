/* Whether what a results file holds can be trusted (trust.h). */
#define _POSIX_C_SOURCE 200809L   /* strnlen */
#include "trust.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "results_h5.h"

/* Rounding: gflops and flops are computed once and stored as doubles. */
#define SAME_REL 1e-9
/* Above the recorded FP32 peak (at the GPU's highest clock); TF32 tensor
 * cores reach 8 (A100, H100) to about 15 (B200) times the FP32 peak. */
#define PEAK_MARGIN 1.10
#define TF32_OVER_FP32 32.0
/* A host row runs on one core: two FMA units of 16 FP32 lanes at 6 GHz make
 * 384 GFLOP/s, so no host row reaches this (a host run records no peak). */
#define HOST_MAX_GFLOPS 1000.0
/* The first schema all of whose runs record planned_points (before their first
 * row; it came amid schema 4, whose early files lack it). */
#define PLANNED_SINCE 6
/* The first schema with attrs_crc32 and complete written when a file is created. */
#define ATTRS_CRC_SINCE 9

int trust_schema(int schema_version, const unsigned char *present,
                 const unsigned char *sample_present, char *why, size_t whylen)
{
    if (schema_version < 1 || schema_version > RESULTS_SCHEMA_VERSION) {
        snprintf(why, whylen, "schema_version %d (this mmladder reads 1 to %d%s)", schema_version,
                 RESULTS_SCHEMA_VERSION,
                 schema_version > RESULTS_SCHEMA_VERSION ? "; written by a newer mmladder?"
                                                         : "; not a results file, or damaged");
        return -1;
    }
    const struct {
        const char *table;
        const struct field_desc *fd;
        size_t n;
        const unsigned char *have;
    } tables[] = {{"results", RESULT_FIELDS, RESULT_NFIELDS, present},
                  {"samples", SAMPLE_FIELDS, SAMPLE_NFIELDS, sample_present}};
    for (size_t t = 0; t < 2; t++)
        for (size_t k = 0; k < tables[t].n; k++) {
            const struct field_desc *fd = &tables[t].fd[k];
            if (fd->since <= schema_version && !tables[t].have[k]) {
                snprintf(why, whylen, "/%s has no column '%s', which schema %d has (since %d): "
                                      "damaged", tables[t].table, fd->name, schema_version, fd->since);
                return -1;
            }
            /* A version lower than its columns' would have the reader skip the
             * checks of the later schemas (schema 9's checksums). */
            if (fd->since > schema_version && tables[t].have[k]) {
                snprintf(why, whylen, "/%s has the column '%s' of schema %d, yet the file says "
                                      "schema_version %d: damaged", tables[t].table, fd->name,
                         fd->since, schema_version);
                return -1;
            }
        }
    return 0;
}

uint32_t trust_crc32(uint32_t crc, const void *data, size_t n)
{
    /* zlib's, in pieces it takes whole (its length is a uInt) */
    const unsigned char *p = data;
    uLong c = crc;
    for (size_t done = 0; done < n;) {
        const size_t k = n - done < 0x40000000u ? n - done : 0x40000000u;
        c = crc32(c, p + done, (uInt)k);
        done += k;
    }
    return (uint32_t)c;
}

/* The fields of one record as the checksum reads them, one after another (a
 * string up to its NUL), but the one at offset `skip`: gathered first and
 * then read in one pass, since a call per field costs more than its bytes. */
static uint32_t crc_fields(uint32_t crc, const void *rec, const struct field_desc *fd, size_t nf,
                           size_t skip, int schema)
{
    unsigned char buf[sizeof(struct result_row) + sizeof(struct sample_row)];
    size_t len = 0;
    for (size_t k = 0; k < nf; k++) {
        if (fd[k].offset == skip || fd[k].since > schema) continue;
        const char *p = (const char *)rec + fd[k].offset;
        const size_t n = fd[k].kind == FIELD_STR ? strnlen(p, fd[k].size) : fd[k].size;
        if (len + n > sizeof buf) {   /* no record is larger, but never past buf */
            crc = trust_crc32(crc, buf, len);
            len = 0;
        }
        memcpy(buf + len, p, n);
        len += n;
    }
    return trust_crc32(crc, buf, len);
}

uint32_t trust_attr_crc(uint32_t crc, const char *name, const char *value)
{
    if (!strcmp(name, TRUST_ATTRS_CRC)) return crc;
    crc = trust_crc32(crc, name, strlen(name) + 1);
    return trust_crc32(crc, value, strlen(value) + 1);
}

uint32_t trust_row_crc(const struct result_row *row, const struct sample_row *samples, size_t n,
                       int schema)
{
    uint32_t crc = crc_fields(0, row, RESULT_FIELDS, RESULT_NFIELDS,
                              offsetof(struct result_row, crc32), schema);
    for (size_t i = 0; i < n; i++)
        crc = crc_fields(crc, &samples[i], SAMPLE_FIELDS, SAMPLE_NFIELDS, SIZE_MAX, schema);
    return crc;
}

const char *const TRUST_DISPOSITIONS[TRUST_UNKNOWN + 1] = {"passed", "incorrect", "skipped",
                                                          "failed", TRUST_DAMAGED};

size_t trust_disposition(const char *d)
{
    size_t k = 0;
    while (k < TRUST_UNKNOWN && strcmp(d, TRUST_DISPOSITIONS[k])) k++;
    return k;
}

void trust_count(const struct results_file *f, size_t counts[TRUST_UNKNOWN + 1])
{
    for (size_t d = 0; d <= TRUST_UNKNOWN; d++) counts[d] = 0;
    for (size_t i = 0; i < f->n_rows; i++) counts[trust_disposition(f->rows[i].disposition)]++;
}

static int one_of(const char *s, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, names[i])) return 1;
    return 0;
}

static int same(double a, double b)
{
    return isfinite(a) && isfinite(b) && fabs(a - b) <= SAME_REL * fmax(fabs(a), fabs(b));
}

/* What is wrong with a row, or NULL. */
static const char *row_fault(const struct result_row *r, double fp32_peak, char *buf, size_t len)
{
    static const char *const devices[] = {"gpu", "host"}, *const precisions[] = {"fp32", "tf32"},
                             *const memories[] = {"", "pinned", "pageable"},
                             *const stops[] = {"converged", "timeout", "max_samples", "long_point"};
    if (trust_disposition(r->disposition) == TRUST_UNKNOWN) return "an unknown disposition";
    if (!one_of(r->device, devices, 2)) return "an unknown device";
    if (!one_of(r->precision, precisions, 2)) return "an unknown precision";
    if (!one_of(r->host_memory, memories, 3)) return "an unknown host memory";
    if (r->M < 1 || r->N < 1 || r->K < 1) return "a dimension below 1";
    /* configurations, geometry, resources and counts: none below 0 */
    const struct {
        const char *name;
        int32_t v;
    } counts[] = {{"tile", r->tile}, {"wpt", r->wpt}, {"opt_level", r->opt_level},
                  {"split", r->split}, {"samples", r->samples}, {"block_rows", r->block_rows},
                  {"block_cols", r->block_cols}, {"thread_rows", r->thread_rows},
                  {"thread_cols", r->thread_cols}, {"registers", r->registers},
                  {"shared_bytes", r->shared_bytes}, {"local_bytes", r->local_bytes},
                  {"threads", r->threads}, {"blocks_per_sm", r->blocks_per_sm},
                  {"grid_blocks", r->grid_blocks}, {"k_splits", r->k_splits},
                  {"workspace_bytes", r->workspace_bytes}, {"launches", r->launches},
                  {"input_sets", r->input_sets}, {"pairs", r->pairs},
                  {"throttled_samples", r->throttled_samples}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (counts[i].v < 0) {
            snprintf(buf, len, "%s = %d, below 0", counts[i].name, counts[i].v);
            return buf;
        }
    if (!r->host_memory[0] && (r->h2d_ms_median != 0 || r->d2h_ms_median != 0))
        return "copy times on a point that copies nothing (not a transfer point)";
    if (r->throttled_samples > r->samples) return "more throttled samples than samples";
    if (!same(r->flops, 2.0 * r->M * r->N * r->K)) return "flops other than 2 M N K";
    if (strcmp(r->disposition, "passed") != 0) return NULL;
    const double t[] = {r->time_ms_min, r->time_ms_median, r->time_ms_mean, r->time_ms_max};
    for (size_t i = 0; i < 4; i++)
        if (!(isfinite(t[i]) && t[i] > 0)) return "a time that is not a positive number";
    if (!(t[0] <= t[1] && t[1] <= t[3] && t[0] <= t[2] && t[2] <= t[3]))
        return "times out of order (min <= median, mean <= max)";
    if (!(r->time_ms_stddev >= 0)) return "a negative or unknown spread";
    if (r->samples < 1) return "no samples";
    if (!one_of(r->stop_rule, stops, 4)) return "an unknown stop rule";
    if (!same(r->gflops, r->flops / r->time_ms_median / 1e6))
        return "gflops other than flops / median time";
    if (!(r->rel_err <= r->tolerance && r->max_rel_err <= r->tolerance))   /* verify.c's test */
        return "an error above its tolerance, yet passed";
    if (!strcmp(r->device, "host") && r->gflops > HOST_MAX_GFLOPS) {
        snprintf(buf, len, "%.0f GFLOP/s on one CPU core (at most %.0f)", r->gflops,
                 HOST_MAX_GFLOPS);
        return buf;
    }
    if (!strcmp(r->device, "gpu") && isfinite(fp32_peak) && fp32_peak > 0) {
        const double peak = fp32_peak * (!strcmp(r->precision, "tf32") ? TF32_OVER_FP32 : 1);
        const double cap = peak * PEAK_MARGIN;
        if (r->gflops > cap) {
            snprintf(buf, len, "%.0f GFLOP/s, above the file's %s peak (%.0f)", r->gflops,
                     r->precision, peak);
            return buf;
        }
    }
    return NULL;
}

struct point_at {
    int32_t point;
    size_t row;
};

static int by_point(const void *a, const void *b)
{
    const struct point_at *x = a, *y = b;
    if (x->point != y->point) return (x->point > y->point) - (x->point < y->point);
    return (x->row > y->row) - (x->row < y->row);
}

/* Rows whose point of the plan (schema 10) an earlier row has too, or below
 * -1 (-1: not known), flagged 1; NULL when out of memory (then none are). */
static unsigned char *repeated_points(const struct result_row *rows, size_t n)
{
    struct point_at *p = malloc((n ? n : 1) * sizeof *p);
    unsigned char *flag = calloc(n ? n : 1, 1);
    if (!p || !flag) {
        free(p);
        free(flag);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) p[i] = (struct point_at){rows[i].point, i};
    qsort(p, n, sizeof *p, by_point);
    for (size_t i = 0; i < n; i++)
        if (p[i].point < -1 || (i && p[i].point >= 0 && p[i].point == p[i - 1].point))
            flag[p[i].row] = 1;
    free(p);
    return flag;
}

/* What is wrong with the samples of a passed row r, or NULL. */
static const char *samples_fault(const struct result_row *r, const struct sample_row *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!(isfinite(s[i].time_ms) && s[i].time_ms > 0))
            return "a sample whose time is not a positive number";
        if (!r->host_memory[0] && (s[i].h2d_ms != 0 || s[i].d2h_ms != 0))
            return "a sample with copy times on a point that copies nothing";
    }
    return NULL;
}

/* One point of a plan: its sweep, rung, shape and configuration.  The
 * experiment parser refuses a value listed twice in a sweep, so no plan holds a
 * point twice. */
static uint64_t point_hash(const struct result_row *r)
{
    const char *const s[] = {r->sweep, r->variant, r->host_memory};
    const int32_t v[] = {r->M, r->N, r->K, r->tile, r->wpt, r->opt_level, r->split};
    uint64_t h = 14695981039346656037ull;   /* FNV-1a */
    for (size_t k = 0; k < 3; k++)
        for (const char *p = s[k];; p++) {
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
            if (!*p) break;
        }
    const unsigned char *b = (const unsigned char *)v;
    for (size_t k = 0; k < sizeof v; k++) h = (h ^ b[k]) * 1099511628211ull;
    return h;
}

static int same_point(const struct result_row *a, const struct result_row *b)
{
    return !strcmp(a->sweep, b->sweep) && !strcmp(a->variant, b->variant) &&
           !strcmp(a->host_memory, b->host_memory) && a->M == b->M && a->N == b->N &&
           a->K == b->K && a->tile == b->tile && a->wpt == b->wpt &&
           a->opt_level == b->opt_level && a->split == b->split;
}

/* For each row that repeats an earlier row's point, its index and that
 * row's: repeat[i] = j + 1 (0: none), through a hash table of twice the rows
 * (linear in the rows).  -1 when out of memory. */
static int find_repeats(const struct results_file *f, size_t *repeat)
{
    size_t cap = 16;
    while (cap < 2 * f->n_rows) cap *= 2;
    size_t *slot = calloc(cap, sizeof *slot);   /* row + 1, 0: empty */
    if (!slot) return -1;
    for (size_t i = 0; i < f->n_rows; i++) {
        repeat[i] = 0;
        size_t k = (size_t)point_hash(&f->rows[i]) & (cap - 1);
        while (slot[k] && !same_point(&f->rows[slot[k] - 1], &f->rows[i])) k = (k + 1) & (cap - 1);
        if (slot[k])
            repeat[i] = slot[k];
        else
            slot[k] = i + 1;
    }
    free(slot);
    return 0;
}

/* Marks row i damaged for `why`, keeping the first such row for the note. */
static void mark(struct results_file *f, size_t i, const char *why, size_t *first, char *first_why,
                 size_t len)
{
    struct result_row *r = &f->rows[i];
    if (f->damaged++ == 0) {
        *first = i;
        snprintf(first_why, len, "%s", why);
    }
    snprintf(r->reason, sizeof r->reason, "damaged: %.120s (was %.12s)", why, r->disposition);
    snprintf(r->disposition, sizeof r->disposition, "%s", TRUST_DAMAGED);
}

void trust_rows(struct results_file *f, int says_complete, long long planned, double fp32_peak,
                size_t lost)
{
    f->damaged = 0;
    f->checksummed = f->schema_version >= 9;
    unsigned char *repeated = f->schema_version >= 10 ? repeated_points(f->rows, f->n_rows) : NULL;
    size_t first = 0, at = 0;
    char first_why[160] = "";
    for (size_t i = 0; i < f->n_rows; i++) {
        struct result_row *r = &f->rows[i];
        /* its samples: those of row i, where the reader's order puts them */
        while (at < f->n_samples && f->samples[at].row < (int32_t)i) at++;
        size_t n = 0;
        while (at + n < f->n_samples && f->samples[at + n].row == (int32_t)i) n++;
        char buf[160];
        const char *why = row_fault(r, fp32_peak, buf, sizeof buf);
        if (!why && !strcmp(r->disposition, "passed")) why = samples_fault(r, f->samples + at, n);
        if (!why && f->checksummed &&
            (uint32_t)r->crc32 != trust_row_crc(r, f->samples + at, n, f->schema_version))
            why = "its checksum does not match its values and samples";
        if (!why && repeated && repeated[i])
            why = r->point < -1 ? "its point of the plan is negative"
                                : "its point of the plan is another row's too (a row repeated)";
        if (why) mark(f, i, why, &first, first_why, sizeof first_why);
    }
    free(repeated);
    /* Every run on a GPU records its peak: without it (its name or value
     * damaged) no GPU rate is held to one, and the views' % of peak are blank. */
    size_t gpu_passed = 0;
    for (size_t i = 0; i < f->n_rows; i++)
        gpu_passed += !strcmp(f->rows[i].device, "gpu") && !strcmp(f->rows[i].disposition, "passed");
    if (gpu_passed && !(isfinite(fp32_peak) && fp32_peak > 0)) {
        results_note(f, "%zu passed GPU rows, but no readable gpu_fp32_peak_gflops to hold their "
                        "rates to (damaged)", gpu_passed);
        f->damaged++;
    }
    size_t *repeat = malloc((f->n_rows ? f->n_rows : 1) * sizeof *repeat);
    if (repeat && find_repeats(f, repeat) == 0) {
        for (size_t i = 0; i < f->n_rows; i++)
            if (repeat[i] && strcmp(f->rows[i].disposition, TRUST_DAMAGED) != 0) {
                char buf[160];
                snprintf(buf, sizeof buf, "the point of row %zu again (sweep, rung, shape and "
                                          "configuration)", repeat[i] - 1);
                mark(f, i, buf, &first, first_why, sizeof first_why);
            }
    } else {
        results_note(f, "its rows could not be checked for repeated points (out of memory)");
    }
    free(repeat);
    if (f->damaged)
        results_note(f, "%zu rows not believed (the first, row %zu: %s): marked '%s'", f->damaged,
                 first, first_why, TRUST_DAMAGED);
    if (planned >= 0) {
        f->complete = (size_t)planned == f->n_rows;
        if (says_complete && !f->complete) {
            results_note(f, "it says it is complete but holds %zu of its %lld planned rows (damaged)",
                     f->n_rows, planned);
            f->damaged += (size_t)planned > f->n_rows ? (size_t)planned - f->n_rows : 1;
        }
    } else if (f->schema_version >= PLANNED_SINCE) {
        /* Its runs record planned_points before their first row: without it
         * (its name or value damaged) no count of rows can be known complete. */
        f->complete = 0;
        results_note(f, "it has no readable planned_points, which every run of schema %d records "
                        "(damaged)", f->schema_version);
        f->damaged++;
    } else {
        f->complete = says_complete;
    }
    if (says_complete && lost) {
        results_note(f, "it says it is complete, yet %zu of its rows and samples were lost or cut "
                    "short reading it (damaged)", lost);
        f->damaged += lost;
    }
}

void trust_attrs(struct results_file *f, const char *unreadable, const char *crc,
                 const char *complete)
{
    if (unreadable) {
        results_note(f, "%s", unreadable);
        f->damaged++;
        return;
    }
    if (complete && strcmp(complete, "0") && strcmp(complete, "1")) {
        results_note(f, "complete = %.32s (0 or 1 expected): damaged", complete);
        f->damaged++;
    }
    if (f->schema_version < ATTRS_CRC_SINCE) return;
    if (!complete) {
        results_note(f, "it has no attribute complete, which every file of schema %d has from "
                        "its start (damaged)", f->schema_version);
        f->damaged++;
    } else if (!strcmp(complete, "1") && (!crc || !strcmp(crc, "0"))) {
        /* A run that ended wrote both; a killed run's are 0 and 0. */
        results_note(f, "it says it is complete, yet its attributes have no checksum (%s), which "
                        "the end of a run of schema %d writes (damaged)", TRUST_ATTRS_CRC,
                     f->schema_version);
        f->damaged++;
    }
}
