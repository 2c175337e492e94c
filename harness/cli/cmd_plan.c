/* mmladder list, plan and device: what an experiment expands to and what this
 * machine can run of it; and the plan's steps that run shares (cli.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "experiment/experiment.h"
#include "device/device.h"
#include "measure/measure.h"
#include "core/core.h"

int cli_load(const struct cli *c, const char *path, struct experiment *e)
{
    char err[PATH_MAX + 512];
    if (experiment_load(path, e, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        return -1;
    }
    return 0;
}

static void print_variants(const struct cli *c)
{
    fprintf(c->out, "%-2s %-19s %-22s %-5s %-5s %s\n", "#", "variant", "seed name", "dev",
            "prec", "adds; configurations (tile/WPT)");
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char configs[256] = "";
        size_t used = 0;
        const unsigned axes = registry_axes(v);
        if (axes & AXIS_OPT) snprintf(configs, sizeof configs, " -O1 -O2 -O3");
        for (const struct rung_config *cf = v->configs;
             (axes & (AXIS_TILE | AXIS_WPT)) && cf && cf->tile >= 0 && used < sizeof configs; cf++)
            used += (size_t)snprintf(configs + used, sizeof configs - used, " %d/%d", cf->tile,
                                     cf->wpt);
        if ((axes & AXIS_SPLIT) && used < sizeof configs)
            snprintf(configs + used, sizeof configs - used, ", split 0-%d", RUNG_MAX_SPLIT);
        fprintf(c->out, "%02zu %-19s %-22s %-5s %-5s %s%s%s%s\n", i + 1, v->name, v->seed_name,
                v->device == DEV_GPU ? "gpu" : "host", v->precision == PREC_TF32 ? "tf32" : "fp32",
                v->adds, configs[0] ? ";" : "", configs,
                (v->device == DEV_GPU && !v->gpu) ? " [not built]" : "");
    }
}

/* Points skipped for want of this machine share one reason (no GPU): it is
 * said once, with their count, not on every row. */
void cli_say_unavailable(FILE *out, const struct plan *p)
{
    size_t n = plan_count_skipped_env(p);
    if (n)
        fprintf(out, "mmladder: %s: %zu of %zu points need a GPU and are skipped\n",
                p->env_reason, n, p->n);
}

static void print_points(const struct cli *c, const struct experiment *e, const struct plan *p,
                         int with_estimate)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        double est = point_estimate_s(pt, e);
        fprintf(c->out, "%4zu  %-12s %-19s %5d %5d %5d  TS=%-3d WPT=%-3d S=%-3d -O%d %-8s  ",
                pt->index,
                pt->sweep, pt->v->name, pt->M, pt->N, pt->K, pt->tile, pt->wpt, pt->split,
                pt->opt_level, host_memory_name(pt->host_memory));
        if (pt->skip_env)
            fprintf(c->out, "skip: needs a GPU (below)\n");
        else if (pt->skip)
            fprintf(c->out, "skip: %s\n", pt->skip_reason);
        else if (with_estimate)
            fprintf(c->out, "~%.2f s\n", est);
        else
            fprintf(c->out, "run\n");
    }
    fprintf(c->out, "%zu points, %zu to run, %zu skipped", p->n, plan_count_runnable(p),
            p->n - plan_count_runnable(p));
    if (p->shards)
        fprintf(c->out, " (shard %d of %d of a plan of %zu points)", p->shard, p->shards, p->whole);
    if (with_estimate) {
        struct plan_estimate est;
        plan_estimate(p, e, &est);
        fprintf(c->out, "; estimated %.0f s (%.1f min) from nominal rates: GPU points %.0f s, "
                "host points %.0f s beside them", est.total_s, est.total_s / 60, est.gpu_s,
                est.host_s);
    }
    fprintf(c->out, "\n");
    cli_say_unavailable(c->out, p);
}

struct gpu *cli_open_gpu(struct gpu_info *gi, char *why, size_t whylen)
{
    struct gpu *g = NULL;
    const char *e = gpu_open(&g, gi);
    if (e) {
        snprintf(why, whylen, "%s", e);
        return NULL;
    }
    return g;
}

int cli_budget_arg(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                   struct budget_opt *b)
{
    const char *a = argv[*i];
    int no = !strcmp(a, "--no-budget");
    if (!no && strcmp(a, "--host-budget") != 0) return 0;
    if (b->given) {
        fprintf(c->err, "mmladder %s: '%s' after '%s' (expected one of --host-budget S and "
                        "--no-budget, once)\n", cmd, a, b->arg);
        return -1;
    }
    b->arg = a;
    if (no) {
        b->given = 2;
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(c->err, "mmladder %s: '--host-budget' needs a value (expected --host-budget "
                        "SECONDS, e.g. --host-budget 600)\n", cmd);
        return -1;
    }
    const char *v = argv[++*i];
    char *end;
    errno = 0;
    b->s = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(b->s) || !(b->s > 0)) {
        fprintf(c->err, "mmladder %s: --host-budget '%s' (expected a positive number of "
                        "seconds, e.g. 600)\n", cmd, v);
        return -1;
    }
    b->given = 1;
    return 1;
}

double cli_budget_of(const struct budget_opt *b, const struct experiment *e)
{
    return b->given == 2 ? 0.0 : b->given == 1 ? b->s : e->host_point_budget_s;
}

int cli_shard_arg(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                  struct shard_opt *s)
{
    const char *a = argv[*i];
    const int host = !strcmp(a, "--host-shard");
    if (!host && strcmp(a, "--shard") != 0) return 0;
    const char *v = cli_option_value(c, cmd, argc, argv, i, host ? "K (a shard's number)" : "K/N");
    if (!v) return -1;
    char why[200];
    if (host) {
        char *end;
        errno = 0;
        const long k = strtol(v, &end, 10);
        if (end == v || *end || errno || k < 0 || k >= SHARD_MAX || s->host_shard >= 0) {
            fprintf(c->err, "mmladder %s: --host-shard '%s' (expected a shard's number, 0 to N-1, "
                            "once)\n", cmd, v);
            return -1;
        }
        s->host_shard = (int)k;
    } else if (s->n || shard_parse(v, &s->k, &s->n, why, sizeof why) != 0) {
        fprintf(c->err, "mmladder %s: --shard %s\n", cmd,
                s->n ? "given twice (expected once)" : why);
        return -1;
    } else {
        s->arg = v;
    }
    return 1;
}

int cli_shard_check(const struct cli *c, const char *cmd, const struct shard_opt *s)
{
    if (s->host_shard >= 0 && (!s->n || s->host_shard >= s->n)) {
        fprintf(c->err, "mmladder %s: --host-shard %d %s (expected a shard of --shard K/N, 0 to "
                        "N-1)\n", cmd, s->host_shard, s->n ? "is not one of the shards" : "without --shard");
        return -1;
    }
    return 0;
}

int cli_plan(const struct cli *c, const struct experiment *e, int gpu_ok, const char *why,
             const struct gpu_info *gi, double budget_s, const struct shard_opt *sh,
             struct plan *p, size_t *over)
{
    char err[PATH_MAX + 512];
    if (plan_from_experiment(e, gpu_ok, why, p, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        return -1;
    }
    if (sh && sh->n && shard_keep(p, e, sh->k, sh->n, sh->host_shard, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        plan_free(p);
        return -1;
    }
    if (gi) {
        const struct gpu_caps caps = {gi->name, gi->cc_major * 10 + gi->cc_minor,
                                      gi->smem_per_block_optin, provenance_nvccflags()};
        const size_t n = plan_apply_gpu(p, &caps);
        if (n)
            fprintf(c->err, "mmladder: %zu GPU point%s this %s (compute capability %d.%d) cannot "
                            "run: recorded as skipped, each with the reason\n",
                    n, n == 1 ? "" : "s", gi->name, gi->cc_major, gi->cc_minor);
    }
    *over = plan_apply_host_budget(p, e, budget_s);
    return 0;
}

void cli_say_over_budget(const struct cli *c, size_t over, double budget_s)
{
    if (over)
        fprintf(c->err, "mmladder: %zu host point%s estimated over the host budget of %g s: "
                        "recorded as skipped (--host-budget S to raise it, --no-budget to run "
                        "them)\n", over, over == 1 ? "" : "s", budget_s);
}

/* The ladder as the README's table: number, rung, seed name, precision and
 * reference, configurations, what it adds. */
static void print_variants_markdown(const struct cli *c)
{
    fprintf(c->out, "| # | rung | seed name | precision, against | configurations (tile/WPT: "
            "block, per thread) | what it adds |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char configs[512] = "";
        size_t used = 0;
        if (v->device == DEV_HOST) snprintf(configs, sizeof configs, "-O1, -O2, -O3");
        for (const struct rung_config *cf = v->configs;
             cf && cf->tile >= 0 && used < sizeof configs; cf++) {
            if (cf->block_rows == 0) break;   /* cuBLAS: its own choice */
            const unsigned axes = registry_axes(v);
            char sel[32] = "";
            if (axes & AXIS_TILE)
                snprintf(sel, sizeof sel, "%d%s", cf->tile, axes & AXIS_WPT ? "/" : "");
            if (axes & AXIS_WPT)
                snprintf(sel + strlen(sel), sizeof sel - strlen(sel), "%d", cf->wpt);
            used += (size_t)snprintf(configs + used, sizeof configs - used, "%s%s%s%dx%d, %dx%d",
                                     used ? "; " : "", sel, sel[0] ? ": " : "", cf->block_rows,
                                     cf->block_cols, cf->thread_rows, cf->thread_cols);
        }
        if ((registry_axes(v) & AXIS_SPLIT) && used < sizeof configs)
            snprintf(configs + used, sizeof configs - used, "; each with K split in 1 to %d "
                     "parts, or by its rule", RUNG_MAX_SPLIT);
        if (v->dispatch) snprintf(configs, sizeof configs, "picks one of the above by shape");
        const int plain = v->seed_name[0] == '(';   /* "(past the seeds)": not a name */
        fprintf(c->out, "| %02zu | `%s` | %s%s%s | %s%s%s | %s | %s |\n", i + 1, v->name,
                plain ? "" : "`", v->seed_name, plain ? "" : "`",
                v->precision == PREC_TF32 ? "**TF32**" : "FP32", v->reference ? ", against " : "",
                v->reference ? v->reference : "", configs[0] ? configs : "chosen by cuBLAS",
                v->adds);
    }
}

int cmd_list_or_plan(const struct cli *c, int argc, char **argv, int dry_run)
{
    if (!dry_run && argc == 3 && !strcmp(argv[2], "--markdown")) {
        print_variants_markdown(c);
        return EXIT_OK;
    }
    if (argc < 3) {
        if (dry_run) {
            fprintf(c->err, "mmladder plan: no experiment file given\n");
            cli_usage(c->err);
            return EXIT_INPUT;
        }
        print_variants(c);
        return EXIT_OK;
    }
    struct budget_opt budget = {0};
    struct shard_opt shard = SHARD_OPT_NONE;
    for (int i = 3; i < argc; i++) {
        int b = cli_budget_arg(c, argv[1], argc, argv, &i, &budget);
        if (b == 0) b = cli_shard_arg(c, argv[1], argc, argv, &i, &shard);
        if (b < 0) return EXIT_INPUT;
        if (b == 0) {
            fprintf(c->err, "mmladder %s: unexpected argument '%s' (expected EXPERIMENT.ini "
                            "[--host-budget S | --no-budget] [--shard K/N [--host-shard K]])\n",
                    argv[1], argv[i]);
            return EXIT_INPUT;
        }
    }
    if (cli_shard_check(c, argv[1], &shard) != 0) return EXIT_INPUT;
    struct experiment *e = calloc(1, sizeof *e);
    if (!e) abort();
    int rc = EXIT_INPUT;
    if (cli_load(c, argv[2], e) == 0) {
        /* Planning asks whether a GPU is there but runs nothing on it. */
        struct gpu_info gi;
        char why[512] = "";
        struct gpu *g = dry_run ? cli_open_gpu(&gi, why, sizeof why) : NULL;
        struct plan p;
        const double budget_s = cli_budget_of(&budget, e);
        size_t over;
        if (cli_plan(c, e, dry_run ? g != NULL : 1, why, g ? &gi : NULL, budget_s, &shard, &p,
                     &over) == 0) {
            print_points(c, e, &p, dry_run);
            cli_say_over_budget(c, over, budget_s);
            rc = EXIT_OK;
            if (dry_run) {
                char err[PATH_MAX + 512];
                if (runner_preflight(&p, e->path, g, &gi, err, sizeof err) != 0) {
                    fprintf(c->err, "mmladder: %s\n", err);
                    rc = EXIT_INPUT;
                }
            }
            plan_free(&p);
        }
        gpu_close(g);
    }
    experiment_free(e);
    free(e);
    return rc;
}

int cmd_device(const struct cli *c, int argc, char **argv)
{
    const int name_only = argc == 3 && !strcmp(argv[2], "--file-name");
    if (argc > 2 && !name_only) {
        fprintf(c->err, "mmladder device: unexpected argument '%s' (expected nothing, or "
                        "--file-name)\n", argv[2]);
        return EXIT_INPUT;
    }
    struct gpu_info gi;
    char why[512];
    struct gpu *g = cli_open_gpu(&gi, why, sizeof why);
    if (!g) {   /* like every other non-zero exit, said on stderr */
        fprintf(c->err, "mmladder device: %s\n", why);
        return EXIT_UNAVAILABLE;
    }
    if (name_only) {   /* as a results file's default name carries it */
        char slug[128];
        cli_gpu_slug(slug, sizeof slug, gi.name);
        fprintf(c->out, "%s\n", slug);
        gpu_close(g);
        return EXIT_OK;
    }
    fprintf(c->out, "%s (compute capability %d.%d, %d SMs, %d MHz, %.0f GiB, L2 %lld MiB), CUDA "
            "driver %d, runtime %d\n",
            gi.name, gi.cc_major, gi.cc_minor, gi.sm_count, gi.max_clock_mhz,
            gi.global_mem_bytes / 1073741824.0, gi.l2_bytes >> 20, gi.driver_version,
            gi.runtime_version);
    gpu_close(g);
    return EXIT_OK;
}
