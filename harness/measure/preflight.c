/* The checks before a run writes anything (runner.h): every shape fits in the
 * host's memory and every GPU shape in the device's free memory. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <stdio.h>
#include <unistd.h>

int runner_check_memory(const struct plan *p, size_t free_b, size_t total_b, long long l2_bytes,
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        if (pt->skip || pt->v->device != DEV_GPU) continue;
        size_t need = gpu_bytes_needed(pt->M, pt->N, pt->K, l2_bytes);
        if (need > free_b) {
            snprintf(err, errlen,
                     "shape %dx%dx%d needs %.2f GiB (%zu bytes) of device memory, %.2f GiB "
                     "(%zu bytes) free of %.2f GiB (nothing was run)",
                     pt->M, pt->N, pt->K, need / 1073741824.0, need, free_b / 1073741824.0,
                     free_b, total_b / 1073741824.0);
            return -1;
        }
    }
    return 0;
}

/* Host bytes a point holds at its peak. */
static double host_bytes(const struct point *pt)
{
    const double mk = (double)pt->M * pt->K, kn = (double)pt->K * pt->N, mn = (double)pt->M * pt->N;
    if (pt->v->device == DEV_HOST) return (mk + kn + mn) * sizeof(float) + mn * sizeof(double);
    return (mk + kn) * sizeof(float) * (pt->host_memory ? 2 : 1) +
           (pt->host_memory ? mn * sizeof(float) : 0);
}

int runner_check_host_memory(const struct plan *p, const char *exp_path, double machine_bytes,
                             char *err, size_t errlen)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        const double need = host_bytes(pt);
        if (pt->skip || need <= machine_bytes) continue;
        snprintf(err, errlen,
                 "%s:%d: shape %dx%dx%d needs %.1f GiB of host memory (%s), more than this "
                 "machine's %.1f GiB (nothing was run)", exp_path, pt->line, pt->M, pt->N, pt->K,
                 need / 1073741824.0,
                 pt->v->device == DEV_HOST ? "A, B, C and the float64 reference"
                 : pt->host_memory         ? "A and B, and the transfer buffers"
                                           : "A and B",
                 machine_bytes / 1073741824.0);
        return -1;
    }
    return 0;
}

int runner_preflight(const struct plan *p, const char *exp_path, struct gpu *g,
                     const struct gpu_info *gi, char *err, size_t errlen)
{
    const double machine = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (machine > 0 && runner_check_host_memory(p, exp_path, machine, err, errlen) != 0)
        return -1;
    if (!g) return 0;
    size_t free_b = 0, total_b = 0;
    const char *e = gpu_mem_info(g, &free_b, &total_b);
    if (e) {
        snprintf(err, errlen, "reading free device memory: %s", e);
        return -1;
    }
    return runner_check_memory(p, free_b, total_b, gi->l2_bytes, err, errlen);
}
