/* Derived views of results files (derive.h): the views of the samples.
 * samples (every sample of each rung's best row at one square size) and
 * telemetry (every GPU sample with NVML's clock, power and throttling, in the
 * order they were taken). */
#include "derive.h"
#include "derive_parts.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"

/* 1: a power or thermal clock-event reason was seen during the sample (0 too
 * when its reasons were not recorded: files of schema < 6, no telemetry). */
static int sample_throttled(const struct sample_row *sm)
{
    return ((unsigned long long)(uint32_t)sm->reasons & TELEMETRY_THROTTLE_REASONS) != 0;
}

/* samples: every sample of each rung's best row at square size n (the arg, or
 * 4096 when the run has it, else its largest GPU square size) */
void view_samples(FILE *out, const struct run *r, const char *arg)
{
    int n = arg ? atoi(arg) : 0;
    if (n <= 0) {
        int sizes[64];
        size_t k = derive_squares(r, DEV_GPU, sizes, 64);
        if (k == 0) k = derive_squares(r, -1, sizes, 64);
        n = k ? sizes[k - 1] : 0;
        for (size_t i = 0; i < k; i++)
            if (sizes[i] == 4096) n = 4096;
    }
    row_head(out);
    fputs("\tx\tsample\ttime_ms\tdev_pct\tmedian_ms\tstop_rule\tsamples\tconfig\tclock_mhz"
          "\tthrottled\tthrottled_samples\n", out);
    const struct shape s = {n, n, n};
    int x = 0;
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        const struct result_row *row = derive_best(r, v, s);
        if (!row) continue;
        const int32_t index = (int32_t)(row - r->f.rows);
        char cfg[96];
        derive_config_label(v, row, cfg, sizeof cfg);
        for (size_t i = 0; i < r->f.n_samples; i++) {
            const struct sample_row *sm = &r->f.samples[i];
            if (sm->row != index) continue;
            row_cells(out, v, s);
            fprintf(out, "\t%d\t%d", x, sm->sample);
            num(out, sm->time_ms);
            num(out, 100.0 * (sm->time_ms / row->time_ms_median - 1.0));
            num(out, row->time_ms_median);
            str(out, row->stop_rule);
            fprintf(out, "\t%d", row->samples);
            str(out, cfg);
            num(out, sm->clock_mhz);
            fprintf(out, "\t%d\t%d", sample_throttled(sm), row->throttled_samples);
            fputc('\n', out);
        }
        x++;
    }
}

/* telemetry: every sample of the run's passed GPU rows that recorded NVML
 * telemetry (schema 6), by the time it ended (t_s, seconds since the run
 * began; then by row and sample), with the mean SM clock and power over it and
 * whether a power or thermal reason held the clock; only the header when the
 * run has none (older files, runs without NVML) */
static int has_telemetry(const struct run *r, const unsigned char *gpu_passed,
                         const struct sample_row *sm)
{
    if (sm->row < 0 || (size_t)sm->row >= r->f.n_rows || !gpu_passed[sm->row]) return 0;
    return isfinite(sm->t_s) && isfinite(sm->clock_mhz);
}

static int cmp_sample_time(const void *a, const void *b)
{
    const struct sample_row *x = *(const struct sample_row *const *)a,
                            *y = *(const struct sample_row *const *)b;
    if (x->t_s != y->t_s) return x->t_s < y->t_s ? -1 : 1;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->sample > y->sample) - (x->sample < y->sample);
}

void view_telemetry(FILE *out, const struct run *r)
{
    row_head(out);
    fputs("\tsweep\thost_memory\trow\tsample\tt_s\ttime_ms\tclock_mhz\tpower_w\treasons"
          "\tthrottled\n", out);
    /* per row, once: its rung, and whether it is a passed GPU row with NVML
     * telemetry (a file of 10^6 rows has millions of samples) */
    const struct sample_row **s = malloc((r->f.n_samples + 1) * sizeof *s);
    const struct variant **rung = malloc((r->f.n_rows + 1) * sizeof *rung);
    unsigned char *gpu_passed = malloc(r->f.n_rows + 1);
    if (!s || !rung || !gpu_passed) {
        free(s), free(rung), free(gpu_passed);
        return;
    }
    for (size_t i = 0; i < r->f.n_rows; i++) {
        const struct result_row *row = &r->f.rows[i];
        rung[i] = registry_find(row->variant);
        gpu_passed[i] = rung[i] && rung[i]->device == DEV_GPU &&
                        !strcmp(row->disposition, "passed") && !strcmp(row->telemetry, "nvml");
    }
    size_t n = 0;
    for (size_t i = 0; i < r->f.n_samples; i++)
        if (has_telemetry(r, gpu_passed, &r->f.samples[i])) s[n++] = &r->f.samples[i];
    qsort(s, n, sizeof *s, cmp_sample_time);
    for (size_t i = 0; i < n; i++) {
        const struct result_row *row = &r->f.rows[s[i]->row];
        row_cells(out, rung[s[i]->row], shape_of(row));
        str(out, row->sweep);
        str(out, row->host_memory);
        derive_cell_int(out, s[i]->row);
        derive_cell_int(out, s[i]->sample);
        num(out, s[i]->t_s);
        num(out, s[i]->time_ms);
        num(out, s[i]->clock_mhz);
        num(out, s[i]->power_w);
        derive_cell_int(out, s[i]->reasons);
        derive_cell_int(out, sample_throttled(s[i]));
        fputc('\n', out);
    }
    free(rung);
    free(gpu_passed);
    free(s);
}
