/* mmladder pick: what a dispatch row would launch at one shape on this GPU,
 * and why: every candidate it weighs with its plan and predicted time, least
 * first, and the pick's time term by term (kernels/dispatch.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "device/device.h"
#include "dispatch.h"

#define PICK_ROOM 128   /* more than the model's table holds */

static int by_time(const void *a, const void *b)
{
    const struct dispatch_choice *x = a, *y = b;
    if (x->ms != y->ms) return x->ms < y->ms ? -1 : 1;
    return x->cand < y->cand ? -1 : x->cand > y->cand;   /* the table's order */
}

/* A dimension: an integer of 1 to INT_MAX. */
static int dimension(const struct cli *c, const char *what, const char *v, int *out)
{
    char *end;
    errno = 0;
    const long long n = strtoll(v, &end, 10);
    if (end == v || *end || errno || n < 1 || n > INT_MAX) {
        fprintf(c->err, "mmladder pick: %s '%s' (expected an integer of 1 to %d)\n", what, v,
                INT_MAX);
        return -1;
    }
    *out = (int)n;
    return 0;
}

static void print_pick(const struct cli *c, const struct gpu_info *gi, int tf32, int M, int N,
                       int K, struct dispatch_choice *all, int count)
{
    qsort(all, (size_t)count, sizeof all[0], by_time);
    fprintf(c->out, "%s, %d SMs: the %s dispatch at %d x %d x %d weighs %d candidates (%s rows)\n",
            gi->name, gi->sm_count, tf32 ? "TF32" : "FP32", M, N, K, count,
            N % 4 == 0 && K % 4 == 0 ? "N and K multiples of 4: aligned" : "unaligned");
    fprintf(c->out, "%-20s %-7s %-9s %9s %6s %5s %8s %13s\n", "rung", "config", "block", "grid",
            "per SM", "parts", "launches", "predicted ms");
    for (int i = 0; i < count; i++) {
        const struct dispatch_choice *d = &all[i];
        char cfg[24], block[24];
        snprintf(cfg, sizeof cfg, "%d/%d", d->cand->tile, d->cand->wpt);
        snprintf(block, sizeof block, "%dx%d", d->plan.block_rows, d->plan.block_cols);
        fprintf(c->out, "%-20s %-7s %-9s %9d %6d %5d %8d %13.4g%s\n", d->cand->rung, cfg, block,
                d->plan.grid_blocks, d->plan.blocks_per_sm, d->plan.k_splits, d->plan.launches,
                d->ms, i == 0 ? "  <- pick" : "");
    }
    const struct dispatch_choice *p = &all[0];
    fprintf(c->out, "pick: %s %d/%d, predicted %.4g ms", p->cand->rung, p->cand->tile,
            p->cand->wpt, p->ms);
    if (count > 1)
        fprintf(c->out, ", %.1f%% under the next (%s %d/%d)",
                100.0 * (1.0 - p->ms / all[1].ms), all[1].cand->rung, all[1].cand->tile,
                all[1].cand->wpt);
    fprintf(c->out, "\nits time, term by term (constant x term, ms):");
    double f[DISPATCH_TERMS];
    dispatch_model_features(M, N, K, &p->plan, gi->sm_count, f);
    for (int t = 0; t < DISPATCH_TERMS; t++)
        if (p->cand->c[t] * f[t] != 0.0)
            fprintf(c->out, " %s %.4g;", dispatch_term_names[t], p->cand->c[t] * f[t]);
    fputc('\n', c->out);
}

int cmd_pick(const struct cli *c, int argc, char **argv)
{
    int dims[3], tf32 = 0, given = 0;
    static const char *const names[3] = {"M", "N", "K"};
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--precision")) {
            const char *v = cli_option_value(c, "pick", argc, argv, &i, "fp32 or tf32");
            if (!v) return EXIT_INPUT;
            if (strcmp(v, "fp32") && strcmp(v, "tf32")) {
                fprintf(c->err, "mmladder pick: --precision '%s' (expected fp32 or tf32)\n", v);
                return EXIT_INPUT;
            }
            tf32 = !strcmp(v, "tf32");
        } else if (given < 3) {
            if (dimension(c, names[given], argv[i], &dims[given]) != 0) return EXIT_INPUT;
            given++;
        } else {
            fprintf(c->err, "mmladder pick: unexpected argument '%s' (expected M N K "
                            "[--precision fp32|tf32])\n", argv[i]);
            return EXIT_INPUT;
        }
    }
    if (given < 3) {
        fprintf(c->err, "mmladder pick: expected M N K [--precision fp32|tf32], got %d of the "
                        "three dimensions\n", given);
        return EXIT_INPUT;
    }
    static const char *const mats[3] = {"A (M x K)", "B (K x N)", "C (M x N)"};
    const long long elems[3] = {(long long)dims[0] * dims[2], (long long)dims[2] * dims[1],
                                (long long)dims[0] * dims[1]};
    for (int m = 0; m < 3; m++)
        if (elems[m] > INT_MAX) {
            fprintf(c->err, "mmladder pick: %d x %d x %d: %s has %lld elements (expected at most "
                            "%d, as in experiment files)\n", dims[0], dims[1], dims[2], mats[m],
                    elems[m], INT_MAX);
            return EXIT_INPUT;
        }
    struct gpu_info gi;
    char why[512];
    struct gpu *g = cli_open_gpu(&gi, why, sizeof why);
    if (!g) {   /* the plans come from the launchers' describe, on a GPU */
        fprintf(c->err, "mmladder pick: %s (a pick needs the GPU: each candidate's plan is "
                        "its launcher's)\n", why);
        return EXIT_UNAVAILABLE;
    }
    if (tf32 && (gi.cc_major != 9 || gi.cc_minor != 0)) {
        fprintf(c->err, "mmladder pick: --precision tf32: the TF32 dispatch runs on compute "
                        "capability 9.0 alone; this GPU is %d.%d\n", gi.cc_major, gi.cc_minor);
        gpu_close(g);
        return EXIT_UNAVAILABLE;
    }
    struct dispatch_choice all[PICK_ROOM];
    int count = 0, pick = -1;
    const char *err = gpu_dispatch_candidates(g, tf32, dims[0], dims[1], dims[2], all, PICK_ROOM,
                                              &count, &pick);
    if (err) {
        fprintf(c->err, "mmladder pick: %s\n", err);
        gpu_close(g);
        return EXIT_UNAVAILABLE;
    }
    print_pick(c, &gi, tf32, dims[0], dims[1], dims[2], all, count);
    gpu_close(g);
    return EXIT_OK;
}
