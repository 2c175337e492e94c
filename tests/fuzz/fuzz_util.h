/* What the fuzz targets share: the file an input is written to, and a run held
 * in memory with the attributes a file's run has (an H100's or H200's). */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "views/derive.h"

/* Write the input to TMPDIR/STEM-PID.EXT (the path made once into path[len]). */
static inline void fuzz_write_input(char *path, size_t len, const char *stem, const char *ext,
                                    const uint8_t *data, size_t size)
{
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, len, "%.40s/%s-%ld.%s", tmp && *tmp ? tmp : "/tmp", stem, (long)getpid(),
                 ext);
    }
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(data, 1, size, out) != size || fclose(out) != 0) abort();
}

/* r empty, then its role, GPU and the attributes derive reads from a file. */
static inline void fuzz_run_attrs(struct run *r, const char *role, const char *gpu)
{
    memset(r, 0, sizeof *r);
    snprintf(r->role, sizeof r->role, "%s", role);
    snprintf(r->path, sizeof r->path, "%s.h5", role);
    snprintf(r->gpu_name, sizeof r->gpu_name, "%s", gpu);
    snprintf(r->git_commit, sizeof r->git_commit, "0123456789abcdef");
    r->peak_gflops = 66900, r->copy_gbs = 3000, r->wall_s = 200, r->estimated_s = 190;
    r->sms = 132, r->clock_mhz = 1980, r->l2_bytes = 52428800, r->driver = 13000;
    r->telemetry_refresh_ms = 100;
}

#endif
