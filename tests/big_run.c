/* big_run: a results file of any number of rows, grown from a real one, for
 * timing the readers at scale (scripts/bench-readers.sh; not a test).
 *
 *     build/tests/big-run IN.h5 OUT.h5 ROWS
 *
 * Writes IN's root attributes and then its rows with their samples, copy after
 * copy, until OUT holds ROWS rows (complete, planned_points = ROWS).  Copy c
 * (0, 1, ...) has every M grown by c times (IN's largest M + 1), and every time
 * (the row's, its samples', the paired reference's, the transfers') by the
 * factor that M grew by, so that
 * each row's GFLOP/s, its verification and its ratios are the real row's, and
 * every copy is a distinct shape, each row its own point of the grown plan: the
 * readers check it as they check a run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

/* Each attribute as stored (a string, an integer, a float), but those a run's
 * writer sets itself or that this file's size changes. */
static void copy_attr(const char *name, const char *value, enum attr_kind kind, void *ctx)
{
    static const char *const own[] = {"complete", "finished_utc", "wall_time_s", "schema_version",
                                      "attrs_crc32", "planned_points"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (!strcmp(name, own[i])) return;
    int rc = kind == ATTR_INT     ? results_attr_int(ctx, name, strtoll(value, NULL, 10))
             : kind == ATTR_UINT  ? results_attr_u64(ctx, name, strtoull(value, NULL, 10))
             : kind == ATTR_FLOAT ? results_attr_double(ctx, name, strtod(value, NULL))
             : kind == ATTR_TEXT  ? results_attr_str(ctx, name, value)
                                  : 0;
    if (rc != 0) fprintf(stderr, "big-run: attribute %s not written: %s\n", name, results_error(ctx));
}

static void scale_row(struct result_row *r, double f, int32_t M)
{
    r->M = M;
    r->flops *= f;
    r->time_ms_min *= f, r->time_ms_median *= f, r->time_ms_mean *= f;
    r->time_ms_max *= f, r->time_ms_stddev *= f;
    r->h2d_ms_median *= f, r->d2h_ms_median *= f;
}

static void scale_sample(struct sample_row *s, double f)
{
    s->time_ms *= f, s->h2d_ms *= f, s->d2h_ms *= f;
    s->ref_ms *= f, s->kernel_ms *= f, s->ref_kernel_ms *= f;
}

int main(int argc, char **argv)
{
    char err[512], *end = NULL;
    if (argc != 4) {
        fprintf(stderr, "usage: big-run IN.h5 OUT.h5 ROWS\n");
        return 2;
    }
    errno = 0;
    const long long want = strtoll(argv[3], &end, 10);
    if (errno || *end || want < 1 || want > 100000000) {
        fprintf(stderr, "big-run: ROWS: '%s' is not a count of 1 to 10^8\n", argv[3]);
        return 2;
    }
    struct results_file f;
    if (results_read(argv[1], &f, err, sizeof err) != 0) {
        fprintf(stderr, "big-run: %s\n", err);
        return 1;
    }
    if (!f.n_rows) {
        fprintf(stderr, "big-run: %s has no rows to grow from\n", argv[1]);
        results_file_free(&f);
        return 1;
    }
    struct results *r;
    int rc = 1;
    if (results_create(&r, argv[2], 0, err, sizeof err) != 0) {
        fprintf(stderr, "big-run: %s\n", err);
        results_file_free(&f);
        return 1;
    }
    struct sample_row *buf = malloc((f.n_samples + 1) * sizeof *buf);
    if (!buf || results_visit_attrs_kind(argv[1], copy_attr, r, err, sizeof err) != 0 ||
        results_attr_int(r, "planned_points", want) != 0) {
        fprintf(stderr, "big-run: %s\n", buf ? err : "out of memory");
        goto done;
    }
    int32_t stride = 1;   /* past every M of IN: a copy's shapes are no other copy's */
    for (size_t i = 0; i < f.n_rows; i++)
        if (f.rows[i].M >= stride) stride = f.rows[i].M + 1;
    if ((want / (long long)f.n_rows + 1) * stride > 2000000000) {
        fprintf(stderr, "big-run: %lld rows would take M past 2^31 (%s: M up to %d)\n", want,
                argv[1], stride - 1);
        goto done;
    }
    long long n = 0;
    for (int c = 0; n < want; c++) {
        size_t s = 0;
        for (size_t i = 0; i < f.n_rows && n < want; i++, n++) {
            struct result_row row = f.rows[i];
            const int32_t M = row.M + c * stride;
            const double grown = row.M > 0 ? (double)M / row.M : 1.0;
            scale_row(&row, grown, M);
            row.point = (int32_t)n;   /* the grown plan's points: one per row */
            int k = 0;
            for (; s < f.n_samples && f.samples[s].row == (int32_t)i; s++, k++) {
                buf[k] = f.samples[s];
                scale_sample(&buf[k], grown);
            }
            if (results_append_samples(r, &row, k ? buf : NULL, k) != 0) {
                fprintf(stderr, "big-run: appending row %lld: %s\n", n, results_error(r));
                goto done;
            }
        }
    }
    if (results_finish(r, 1, "2026-11-27T00:00:00Z", 1.0) != 0) {
        fprintf(stderr, "big-run: finishing: %s\n", results_error(r));
        goto done;
    }
    rc = 0;
done:
    if (results_close(r, err, sizeof err) != 0) {
        fprintf(stderr, "big-run: %s\n", err);
        rc = 1;
    }
    free(buf);
    results_file_free(&f);
    return rc;
}
