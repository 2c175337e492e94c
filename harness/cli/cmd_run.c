/* mmladder run: an experiment's every point run, verified and recorded into a
 * new results file that nothing else is allowed to be written over. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "experiment/experiment.h"
#include "device/device.h"
#include "measure/measure.h"
#include "views/views.h"

/* NULL if path is an existing folder, else what it is instead. */
static const char *not_a_folder(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return errno == ENOENT ? "does not exist" : strerror(errno);
    return S_ISDIR(st.st_mode) ? NULL : "is not a folder";
}

/* Refuse an output that cannot be created before anything runs: the file must
 * not exist (never overwritten) and its folder must. */
static int check_output(const struct cli *c, const char *out, const char *dir, int dir_given)
{
    const char *why;
    const char *given = out ? out : dir;
    if (strlen(given) >= PATH_MAX - 128) {
        fprintf(c->err, "mmladder run: %s '%.60s...': %zu bytes long (expected a path of at most "
                        "%d bytes%s)\n", out ? "-o" : "-d", given, strlen(given), PATH_MAX - 129,
                out ? "" : ", leaving room for the file name");
        return -1;
    }
    if (!out) {
        if ((why = not_a_folder(dir))) {
            fprintf(c->err, "mmladder run: %s '%s': %s (expected an existing folder%s)\n",
                    dir_given ? "-d" : "output folder", dir, why,
                    dir_given ? "" : "; the default, relative to here: -d DIR or -o FILE.h5 "
                                     "to choose another");
            return -1;
        }
        return 0;
    }
    char what[PATH_MAX + 16];
    snprintf(what, sizeof what, "run: -o '%s'", out);
    if (cli_name_free(c, what, out) != 0) return -1;
    char parent[PATH_MAX];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == out)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - out), out);
    if ((why = not_a_folder(parent))) {
        fprintf(c->err, "mmladder run: -o '%s': folder '%s' %s (expected an existing folder)\n",
                out, parent, why);
        return -1;
    }
    return 0;
}

struct run_args {
    const char *exp_path, *out, *dir;
    struct budget_opt budget;
    struct shard_opt shard;
    int kernel_timer;
};

static int parse_run_args(const struct cli *c, int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    a->shard = (struct shard_opt)SHARD_OPT_NONE;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        int b = cli_budget_arg(c, "run", argc, argv, &i, &a->budget);
        if (b == 0) b = cli_shard_arg(c, "run", argc, argv, &i, &a->shard);
        if (b < 0) return -1;
        if (b > 0) continue;
        if (!strcmp(arg, "-o") || !strcmp(arg, "-d")) {
            const char **dst = arg[1] == 'o' ? &a->out : &a->dir;
            const char *v = cli_option_value(c, "run", argc, argv, &i,
                                             arg[1] == 'o' ? "FILE.h5" : "DIR");
            if (!v) return -1;
            if (*dst) {
                fprintf(c->err, "mmladder run: %s given twice ('%s', then '%s')\n", arg, *dst,
                        v);
                return -1;
            }
            *dst = v;
        } else if (!strcmp(arg, "--kernel-timer")) {
            a->kernel_timer = 1;
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(c->err, "mmladder run: unknown option '%s'\n", arg);
            cli_usage(c->err);
            return -1;
        } else if (a->exp_path) {
            fprintf(c->err, "mmladder run: unexpected argument '%s' (one experiment file: '%s' "
                            "came first)\n", arg, a->exp_path);
            return -1;
        } else {
            a->exp_path = arg;
        }
    }
    if (a->out && !strcmp(a->out, "-")) {
        fprintf(c->err, "mmladder run: -o '-': a results file is a named file, not standard "
                        "output (expected -o FILE.h5)\n");
        return -1;
    }
    if (a->out && a->dir) {
        fprintf(c->err, "mmladder run: -o '%s' and -d '%s' exclude each other (-o names the "
                        "file, -d the folder of a generated name)\n", a->out, a->dir);
        return -1;
    }
    if (!a->exp_path) {
        fprintf(c->err, "mmladder run: no experiment file given\n");
        cli_usage(c->err);
        return -1;
    }
    return cli_shard_check(c, "run", &a->shard);
}

/* The results file's path: -o's, or DIR/NAME-GPU-UTCSTAMP.h5 (a shard's:
 * DIR/NAME-GPU-UTCSTAMP-shardK-of-N.h5). */
static void output_path(char *path, size_t len, const char *out, const char *dir,
                        const struct experiment *e, const char *gpu_name, const struct plan *p)
{
    if (out) {
        snprintf(path, len, "%s", out);
        return;
    }
    char stamp[32], dev[64];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    cli_gpu_slug(dev, sizeof dev, gpu_name);
    char part[48] = "";
    if (p->shards) snprintf(part, sizeof part, "-shard%d-of-%d", p->shard, p->shards);
    snprintf(path, len, "%s/%s-%s-%s%s.h5", dir, e->name, dev, stamp, part);
}

/* What a finished (or interrupted) run says, and its exit status. */
static int say_outcome(const struct cli *c, const struct run_summary *s)
{
    if (s->path[0])   /* else nothing was recorded, and no file is left: said below */
        fprintf(c->out, "\n%s: %zu of %zu points recorded in %.1f s: %zu passed, %zu incorrect, "
                "%zu failed, %zu skipped (%zu for want of this machine)%s\n",
                s->path, s->recorded, s->planned, s->wall_s, s->passed, s->incorrect, s->failed,
                s->skipped, s->skipped_env, s->complete ? "; complete" : "; INCOMPLETE");
    if (s->interrupted) {
        if (s->complete)
            fprintf(c->err, "mmladder: interrupted after the last point: %s is complete\n",
                    s->path);
        else if (s->path[0])
            fprintf(c->err, "mmladder: interrupted: kept %zu of %zu points in %s (marked "
                            "incomplete; %s is left to a run that ends)\n", s->recorded,
                    s->planned, s->path, s->final);
        else
            fprintf(c->err, "mmladder: interrupted before the first point was recorded; no "
                            "file was written\n");
        return EXIT_INTERRUPTED;
    }
    if (s->incorrect || s->failed) {
        fprintf(c->err, "mmladder: %zu incorrect and %zu failed points (see 'reason' in %s)\n",
                s->incorrect, s->failed, s->path);
        return EXIT_WRONG;
    }
    return s->skipped_env ? EXIT_UNAVAILABLE : EXIT_OK;
}

int cmd_run(const struct cli *c, int argc, char **argv)
{
    /* From the start: an interrupt before the run begins writes nothing. */
    if (c->catch_interrupts) c->catch_interrupts();
    struct run_args a;
    if (parse_run_args(c, argc, argv, &a) != 0) return EXIT_INPUT;
    const char *out = a.out, *dir = a.dir ? a.dir : "data";
    if (check_output(c, out, dir, a.dir != NULL) != 0) return EXIT_INPUT;
    struct experiment *e = calloc(1, sizeof *e);
    if (!e) abort();
    if (cli_load(c, a.exp_path, e) != 0) {
        free(e);
        return EXIT_INPUT;
    }
    struct gpu_info gi;
    char why[512] = "";
    struct gpu *g = cli_open_gpu(&gi, why, sizeof why);
    struct plan p;
    int rc = EXIT_INPUT;
    const double budget_s = cli_budget_of(&a.budget, e);
    size_t over;
    if (cli_plan(c, e, g != NULL, why, g ? &gi : NULL, budget_s, &a.shard, &p, &over) != 0)
        goto out_exp;

    char path[PATH_MAX], err[2 * PATH_MAX + 800];
    output_path(path, sizeof path, out, dir, e, g ? gi.name : "cpu", &p);
    if (p.n == 0) {
        /* More shards than the plan has shapes: this one has nothing (merge.h
         * takes a plan's points from the shards that have any). */
        fprintf(c->err, "mmladder: shard %d of %d of %s has no points (a plan of %zu points); no "
                        "file was written\n", p.shard, p.shards, e->path, p.whole);
        rc = EXIT_OK;
        goto out_plan;
    }
    if (runner_preflight(&p, e->path, g, &gi, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto out_plan;
    }
    cli_say_unavailable(c->err, &p);
    if (plan_count_runnable(&p) == 0 && plan_count_skipped_env(&p) > 0) {
        /* A file of nothing but "no GPU" rows would only stand in the way. */
        fprintf(c->err, "mmladder: nothing of %s can run on this machine; no file was written\n",
                e->path);
        rc = EXIT_UNAVAILABLE;
        goto out_plan;
    }
    cli_say_over_budget(c, over, budget_s);

    if (*c->interrupted) {
        fprintf(c->err, "mmladder: interrupted before the run began; no file was written\n");
        rc = EXIT_INTERRUPTED;
        goto out_plan;
    }

    /* Default names are made unique (a suffix when taken); -o names are never reused. */
    struct run_options o = {.out_path = path, .unique_name = !out, .log = c->out,
                            .interrupted = c->interrupted, .kernel_timer = a.kernel_timer,
                            .argc = argc, .argv = argv, .summary = report_summary};
    struct run_summary s;
    if (runner_run(e, &p, g, &gi, why, &o, &s, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        if (s.taken) cli_say_holder(c, s.final);
        if (s.abandoned) return EXIT_INPUT;   /* see below */
        goto out_plan;
    }
    rc = say_outcome(c, &s);
    if (rc == EXIT_UNAVAILABLE) {
        /* last, after the summary and above make's "Error 3"; a failed write of
         * the summary is reported as the command ends (cli_main) */
        (void)fflush(c->out);
        fprintf(c->err, "mmladder: exit status 3: no GPU here for %zu point%s (skipped, as said "
                        "above); %zu ran, %zu of them passed; all are recorded in %s\n",
                s.skipped_env, s.skipped_env == 1 ? "" : "s", s.recorded - s.skipped, s.passed,
                s.path);
    }
    /* A host job the interrupt left running still reads the plan and the
     * experiment: they stay until the process exits, moments from now. */
    if (s.abandoned) return rc;
out_plan:
    plan_free(&p);
out_exp:
    gpu_close(g);
    experiment_free(e);
    free(e);
    return rc;
}
