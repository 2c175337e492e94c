/* Progress while a run goes: see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"

static void fmt_duration(char *buf, size_t len, double s)
{
    if (s < 0 || !isfinite(s)) s = 0;
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

void progress_start(struct progress *p, FILE *out, size_t total, double total_est_s)
{
    *p = (struct progress){.out = out, .tty = isatty(fileno(out)), .total = total,
                           .total_est_s = total_est_s, .start_ms = now_ms()};
}

void progress_point(struct progress *p, size_t index, const struct result_row *row, double est_s,
                    int said)
{
    char shape[48], cfg[48], eta[48];
    shape_str(shape, sizeof shape, row->M, row->N, row->K);
    config_str(cfg, sizeof cfg, row);
    p->done_est_s += est_s;
    double elapsed = (now_ms() - p->start_ms) / 1e3;
    /* Scale the remaining estimate by how the estimate has fared so far. */
    double scale = p->done_est_s > 1.0 ? elapsed / p->done_est_s : 1.0;
    fmt_duration(eta, sizeof eta, (p->total_est_s - p->done_est_s) * scale);

    char what[200];
    if (strcmp(row->disposition, "passed") == 0)
        snprintf(what, sizeof what, "%10.1f GFLOP/s  median %.4g ms, %d samples, %s",
                 row->gflops, row->time_ms_median, row->samples, row->stop_rule);
    else
        snprintf(what, sizeof what, "%s: %s", row->disposition, row->reason);

    if (p->tty) {
        const int width = 24;
        int fill = (int)((double)(index + 1) / (double)p->total * width);
        char bar[32];
        for (int i = 0; i < width; i++) bar[i] = i < fill ? '#' : '.';
        bar[width] = '\0';
        fprintf(p->out, "\r\033[K[%s] %zu/%zu ETA %s  %s %s %s", bar, index + 1, p->total, eta,
                row->variant, cfg, shape);
    } else if (!said) {
        fprintf(p->out, "[%zu/%zu] %-19s %-12s %-16s %s\n", index + 1, p->total, row->variant,
                cfg, shape, what);
    }
    fflush(p->out);
}

void progress_end(struct progress *p)
{
    if (p->tty) fprintf(p->out, "\n");
    fflush(p->out);
}
