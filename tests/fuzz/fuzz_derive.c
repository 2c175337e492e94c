/* libFuzzer target for the derived views (harness/views/derive*.c, estimates.c): every
 * table of `mmladder table`, `compare` included, over rows whose values a
 * damaged or hostile file could carry.
 *
 * Each input is read as rows of ROW_BYTES bytes: the rung (an index into the
 * registry, or a name it does not know), the disposition, M, N and K (any
 * 32-bit value), the GFLOP/s (any double: NaN, infinities, negatives), the
 * configuration (tile, wpt, split, the block's geometry), host memory, pairing
 * and the ratio to the reference.  The first half of the rows is one run (an
 * H100's), the second half another (an H200's); both are indexed as
 * derive_open indexes them, and every view is derived into /dev/null: each
 * run's own views, `runs` over both, `compare` both ways.  Built with
 * -fsanitize=fuzzer,address,undefined by `make fuzz`: any crash,
 * out-of-bounds access, undefined behaviour (a signed overflow in a tile count,
 * say) or leak fails the run.  The promise checked besides: a view either is
 * derived (0) or says why (-1 with a message). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/derive.h"
#include "views/estimates.h"
#include "fuzz_util.h"
#include "core/registry.h"

#define ROW_BYTES 40
#define MAX_ROWS 2048

static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_derive: broken promise: %s (%s)\n", what, detail);
    abort();
}

static const char *const DISPOSITIONS[] = {"passed", "failed", "incorrect", "skipped", "damaged",
                                           "recording"};
static const char *const MEMORY[] = {"", "pinned", "pageable"};

static int32_t i32(const uint8_t *p)
{
    uint32_t u;
    memcpy(&u, p, sizeof u);
    return (int32_t)u;
}

static double f64(const uint8_t *p)
{
    double d;
    memcpy(&d, p, sizeof d);
    return d;
}

/* One row from ROW_BYTES bytes at p. */
static struct result_row row_of(const uint8_t *p)
{
    struct result_row r;
    memset(&r, 0, sizeof r);
    const size_t nrungs = registry_count();
    const struct variant *v = p[0] < nrungs ? registry_at(p[0]) : NULL;
    snprintf(r.variant, sizeof r.variant, "%s", v ? v->name : (p[0] & 1) ? "no_such_rung" : "");
    snprintf(r.device, sizeof r.device, "%s", v && v->device == DEV_HOST ? "host" : "gpu");
    snprintf(r.precision, sizeof r.precision, "%s",
             v && v->precision == PREC_TF32 ? "tf32" : "fp32");
    snprintf(r.disposition, sizeof r.disposition, "%s", DISPOSITIONS[p[1] % 6]);
    /* small shapes most of the time, so that rows share them; any value else */
    r.M = p[2] & 0x80 ? i32(p + 4) : 1 + (p[2] & 7) * 512;
    r.N = p[3] & 0x80 ? i32(p + 8) : 1 + (p[3] & 7) * 512;
    r.K = p[3] & 0x40 ? i32(p + 12) : 1 + (p[2] & 0x70);
    r.gflops = p[16] & 1 ? f64(p + 24) : 100.0 * (1 + p[17]);
    r.flops = 2.0 * r.M * (double)r.N * r.K;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = r.flops / (r.gflops * 1e6);
    r.time_ms_stddev = p[18] * 1e-3 * r.time_ms_mean;
    r.samples = p[19];
    r.tile = (int[]){0, 8, 16, 32, 64, 128, 256, -1}[p[20] & 7];
    r.wpt = (int[]){0, 1, 8, 16, 32, 64, 128, 3}[p[20] >> 5];
    r.split = (int[]){0, 1, 2, 3, 8, 64, 256, -4}[p[21] & 7];
    r.opt_level = 1 + p[21] % 3;
    r.block_rows = p[22] & 0x80 ? i32(p + 32) : (p[22] & 3) * 64;
    r.block_cols = p[22] & 0x40 ? i32(p + 36) : ((p[22] >> 2) & 3) * 32;
    r.thread_rows = p[23] & 15, r.thread_cols = p[23] >> 4;
    r.grid_blocks = p[22] & 0x20 ? i32(p + 28) : p[17] * 7;
    r.blocks_per_sm = p[16] >> 5;
    r.k_splits = p[16] >> 4 & 1 ? i32(p + 12) : p[21] >> 3;
    snprintf(r.host_memory, sizeof r.host_memory, "%s", MEMORY[p[17] % 3]);
    if (v && v->reference && (p[16] & 2)) {
        snprintf(r.paired_with, sizeof r.paired_with, "%s", v->reference);
        r.pairs = p[19] & 7;
        r.ref_ratio = p[16] & 4 ? f64(p + 24) : 0.5 + p[18] / 128.0;
        r.ref_ratio_ci95 = 0.01;
        r.ref_ms_median = r.time_ms_median * r.ref_ratio;
        r.kernel_ratio = r.ref_ratio;
        r.kernel_ms_median = r.time_ms_median, r.ref_kernel_ms_median = r.ref_ms_median;
        r.probe_mhz_mean = 1755;
    }
    if (v && v->dispatch) snprintf(r.chosen, sizeof r.chosen, "%s", p[18] & 1 ? "gpu_splitk 64/64 split 8" : "?");
    return r;
}

static void make_run(struct run *r, const char *role, const char *gpu, const uint8_t *data, size_t n)
{
    fuzz_run_attrs(r, role, gpu);
    r->f.rows = calloc(n + 1, sizeof *r->f.rows);
    r->f.samples = calloc(1, sizeof *r->f.samples);
    if (!r->f.rows || !r->f.samples) abort();
    for (size_t i = 0; i < n; i++) r->f.rows[i] = row_of(data + i * ROW_BYTES);
    r->f.n_rows = n;
    r->f.complete = 1;
    if (derive_index(r) != 0) abort();
}

static void view(FILE *null, const char *name, const struct run *runs, size_t n, const char *arg)
{
    char err[512] = "";
    if (derive_table(null, name, runs, n, arg, err, sizeof err) != 0 && !err[0])
        broken("a view refused without a reason", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / ROW_BYTES;
    if (n > MAX_ROWS) n = MAX_ROWS;
    const size_t half = n / 2;
    struct run runs[2];
    make_run(&runs[0], "h100", "NVIDIA H100 80GB HBM3", data, half);
    make_run(&runs[1], "h200", "NVIDIA H200", data + half * ROW_BYTES, n - half);
    FILE *null = fopen("/dev/null", "w");
    if (!null) abort();
    static const char *const one[] = {"ladder", "configs", "speedup", "samples", "telemetry",
                                      "transfers", "shapes", "suite", "corpus", "corpus-classes",
                                      "corpus-cdf", "estimates"};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
            view(null, one[i], &runs[k], 1, !strcmp(one[i], "samples") ? "513" : NULL);
    view(null, "runs", runs, 2, NULL);
    view(null, "compare", runs, 2, NULL);
    const struct run swapped[2] = {runs[1], runs[0]};
    view(null, "compare", swapped, 2, NULL);
    fclose(null);
    derive_close(&runs[0]);
    derive_close(&runs[1]);
    return 0;
}
