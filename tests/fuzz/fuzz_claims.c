/* libFuzzer target for the claims (harness/claims/claims.c): the parser of a claims
 * file, and each claim it accepts evaluated over runs held in memory.
 *
 * Each input is written to a file and loaded with claims_load; an accepted
 * file's roles are checked and every claim is evaluated, over all the runs and
 * as a reviewer's own run, against two runs of a few rows made once (an H100's
 * and an H200's: rungs and their references at a square, an odd and a corpus
 * shape, paired and alone).  Built with -fsanitize=fuzzer,address,undefined by
 * `make fuzz`: any crash, out-of-bounds access, undefined behaviour or leak
 * fails the run.  Besides not crashing, the claims must keep their promises
 * (claims.h), checked here; a broken one aborts:
 *   - a refusal is -1 with "PATH:LINE: ..." or "PATH: ..." in err;
 *   - an accepted file holds at most CLAIM_MAX claims, each with an id unique
 *     in the file, text, at least one run and bounds in order;
 *   - a verdict is one of the three, a claim evaluated has values (lowest at
 *     most the highest), and every text it returns ends within its field. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims/claims.h"
#include "views/derive.h"
#include "fuzz_util.h"
#include "core/registry.h"

static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_claims: broken promise: %s (%s)\n", what, detail);
    abort();
}

/* A passed GPU row of rung v at M x N x K running at gflops; a rung with a
 * reference is paired with it (the reference at ref_gflops). */
static struct result_row row(const char *v, int M, int N, int K, double gflops, double ref_gflops,
                             int tile)
{
    const struct variant *var = registry_find(v);
    if (!var) broken("the target's own rows name no rung", v);
    struct result_row r = {.M = M, .N = N, .K = K, .tile = tile, .samples = 5,
                           .disposition = "passed", .stop_rule = "converged"};
    snprintf(r.variant, sizeof r.variant, "%s", v);
    snprintf(r.device, sizeof r.device, "gpu");
    snprintf(r.precision, sizeof r.precision, "%s", var->precision == PREC_TF32 ? "tf32" : "fp32");
    r.flops = 2.0 * M * N * K;
    r.gflops = gflops;
    r.time_ms_min = r.time_ms_median = r.time_ms_mean = r.time_ms_max = r.flops / (gflops * 1e6);
    r.time_ms_stddev = 0.005 * r.time_ms_mean;
    r.kernel_ms_median = r.time_ms_median;
    r.probe_mhz_mean = r.clock_mhz_mean = 1755;
    if (var->reference && ref_gflops > 0) {
        snprintf(r.paired_with, sizeof r.paired_with, "%s", var->reference);
        r.pairs = 5;
        r.ref_ms_median = r.ref_kernel_ms_median = r.flops / (ref_gflops * 1e6);
        r.ref_ratio = r.kernel_ratio = gflops / ref_gflops;
        r.ref_ratio_ci95 = r.kernel_ratio_ci95 = 0.01;
    }
    return r;
}

static void make_run(struct run *r, const char *role, const char *gpu, double scale)
{
    static const struct {
        const char *v;
        int M, N, K;
        double gflops, ref;
    } rows[] = {
        {"cublas_fp32", 4096, 4096, 4096, 50000, 0},  {"cublas_tf32", 4096, 4096, 4096, 300000, 0},
        {"gpu_async_copy", 4096, 4096, 4096, 47000, 50000},
        {"gpu_splitk", 4096, 4096, 4096, 46000, 50000},
        {"tf32_splitk_tma", 4096, 4096, 4096, 280000, 300000},
        {"dispatch_fp32", 4096, 4096, 4096, 46500, 50000},
        {"dispatch_tf32", 4096, 4096, 4096, 270000, 300000},
        {"gpu_naive", 4096, 4096, 4096, 4000, 50000},
        {"host_naive", 512, 512, 512, 1, 0},
        {"cublas_fp32", 35, 6043, 6790, 20000, 0},    {"cublas_tf32", 35, 6043, 6790, 60000, 0},
        {"gpu_splitk", 35, 6043, 6790, 9000, 20000},
        {"tf32_splitk_tma", 35, 6043, 6790, 20000, 60000},
        {"dispatch_fp32", 35, 6043, 6790, 7000, 20000},
        {"dispatch_tf32", 35, 6043, 6790, 16000, 60000},
        {"cublas_fp32", 4, 4096, 4096, 900, 0},       {"cublas_tf32", 4, 4096, 4096, 950, 0},
        {"gpu_gemv", 4, 4096, 4096, 1000, 900},
        {"dispatch_fp32", 4, 4096, 4096, 950, 900},
    };
    const size_t n = sizeof rows / sizeof rows[0];
    fuzz_run_attrs(r, role, gpu);
    r->f.rows = calloc(n, sizeof *r->f.rows);
    r->f.samples = calloc(1, sizeof *r->f.samples);
    if (!r->f.rows || !r->f.samples) abort();
    for (size_t i = 0; i < n; i++) {
        r->f.rows[i] = row(rows[i].v, rows[i].M, rows[i].N, rows[i].K, rows[i].gflops * scale,
                           rows[i].ref * scale, 0);
        if (!strcmp(rows[i].v, "host_naive")) {
            snprintf(r->f.rows[i].device, sizeof r->f.rows[i].device, "host");
            r->f.rows[i].opt_level = 2;
        }
    }
    r->f.n_rows = n;
    r->f.complete = 1;
    if (derive_index(r) != 0) abort();
}

static struct run runs[2];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    make_run(&runs[0], "h100", "NVIDIA H100 80GB HBM3", 1.0);
    make_run(&runs[1], "h200", "NVIDIA H200", 1.05);
    return 0;
}

static void ends_within(const char *s, size_t size, const char *what)
{
    if (!memchr(s, '\0', size)) broken("a text that does not end within its field", what);
}

static void check_result(const struct claim *c, const struct claim_result *r)
{
    if (r->verdict != CLAIM_PASSED && r->verdict != CLAIM_FAILED && r->verdict != CLAIM_NOT_EVALUATED)
        broken("a verdict that is none of the three", c->id);
    ends_within(r->text, sizeof r->text, "text");
    ends_within(r->worst, sizeof r->worst, "worst");
    ends_within(r->min_at, sizeof r->min_at, "min_at");
    ends_within(r->max_at, sizeof r->max_at, "max_at");
    ends_within(r->why, sizeof r->why, "why");
    ends_within(r->measured, sizeof r->measured, "measured");
    ends_within(r->expected, sizeof r->expected, "expected");
    if (r->verdict != CLAIM_NOT_EVALUATED && (r->count == 0 || !(r->min <= r->max)))
        broken("a claim evaluated without values in order", c->id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[96];
    fuzz_write_input(path, sizeof path, "fuzz-claims", "ini", data, size);

    static struct claims cs;   /* large: kept off the stack */
    char err[1024];
    if (claims_load(path, &cs, err, sizeof err) != 0) {
        const char *what = err + strlen(path);
        if (strncmp(err, path, strlen(path)) != 0 || *what != ':')
            broken("a refusal that does not start with 'PATH:'", err);
        unlink(path);
        return 0;
    }
    unlink(path);
    if (cs.n > CLAIM_MAX) broken("more claims than CLAIM_MAX", "");
    for (size_t i = 0; i < cs.n; i++) {
        const struct claim *c = &cs.c[i];
        if (!c->id[0] || !c->text[0] || c->n_runs < 1 || c->n_runs > CLAIM_MAX_LIST)
            broken("a claim without an id, text or runs", c->id);
        if (!(c->lo <= c->hi)) broken("bounds out of order", c->id);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(cs.c[j].id, c->id)) broken("an id given twice", c->id);
    }
    (void)claims_check_roles(&cs, runs, 2, err, sizeof err);
    for (size_t i = 0; i < cs.n; i++) {
        struct claim_result r;
        claims_evaluate(&cs.c[i], runs, 2, &r);
        check_result(&cs.c[i], &r);
        claims_evaluate_mine(&cs.c[i], &runs[1], runs, 1, &r);
        check_result(&cs.c[i], &r);
    }
    return 0;
}
