/* mmladder: the command line.  See `mmladder --help`. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "claims.h"
#include "derive.h"
#include "values.h"
#include "experiment.h"
#include "gpu.h"
#include "plan.h"
#include "provenance.h"
#include "registry.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "trust.h"

enum exit_code {
    EXIT_OK = 0,
    EXIT_INPUT = 1,        /* bad command line, experiment file or output; I/O error */
    EXIT_WRONG = 2,        /* a point was incorrect or failed */
    EXIT_UNAVAILABLE = 3,  /* points could not run on this machine (e.g. no GPU) */
    EXIT_INTERRUPTED = 130,
};

static const char USAGE[] =
    "usage: mmladder COMMAND [ARGS]\n"
    "\n"
    "The matrix-multiplication ladder: run a declared experiment, every point verified\n"
    "against float64, into a new self-describing HDF5 file.\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.ini [-o FILE.h5 | -d DIR] [--host-budget S | --no-budget] [--kernel-timer]\n"
    "        run every point; write FILE.h5 (default DIR/NAME-GPU-UTCSTAMP.h5, DIR = data)\n"
    "        never overwrites; each point is flushed to disk as soon as it is recorded.\n"
    "        A host point whose estimated time (see plan) exceeds the host budget is\n"
    "        recorded as skipped with that reason: the budget is the file's [sampling]\n"
    "        host_point_budget_s (default 60 s); --host-budget S sets it to S seconds,\n"
    "        --no-budget runs every host point; --kernel-timer times every GPU sample's\n"
    "        kernels by their CUPTI records too, as [sampling] kernel_timer = cupti does\n"
    "  list [--markdown | EXPERIMENT.ini [--host-budget S | --no-budget]]\n"
    "        the variants (rungs) in ladder order (--markdown: as the README's table), or\n"
    "        the points a file expands to\n"
    "  plan EXPERIMENT.ini [--host-budget S | --no-budget]\n"
    "        dry run: the points, skip reasons and an estimated time; runs nothing\n"
    "  info FILE.h5\n"
    "        provenance attributes, counts and the summary table of a results file\n"
    "  export FILE.h5 [--csv] [--passed | --samples | --attrs]\n"
    "        rows of /results, of /samples, or the root attributes, as TSV (default)\n"
    "        or CSV on stdout; --passed keeps verified rows only\n"
    "  compare NEW.h5 REFERENCE.h5 [--tolerance 0.10] [--tsv]\n"
    "        per rung and shape: best GFLOP/s in each file, the ratio, and whether it\n"
    "        is within the tolerance (exit 0 either way; 1 if nothing matched)\n"
    "  table VIEW [--n N] [ROLE=]FILE.h5 ...\n"
    "        a derived view as a table with a header row (the figures draw these):\n"
    "        rungs (no file), runs (any number), ladder, configs, speedup, samples\n"
    "        (--n: the square size, default 4096 or the largest), telemetry (every\n"
    "        GPU sample's time, clock, power and throttling), transfers, shapes (the\n"
    "        shape suite: each rung's best per shape, class, waves, K per block),\n"
    "        suite (per shape and precision: the fastest hand-written rung, the\n"
    "        dispatch row, cuBLAS), corpus (a corpus run: per shape and precision, its\n"
    "        class, the fastest rung at least as precise and the dispatch row, as % of\n"
    "        cuBLAS, and the bytes moved against the copy bandwidth), corpus-classes\n"
    "        (the same summed up per class), corpus-cdf (their distribution: each\n"
    "        shape's % in rising order), estimates (each paired row's paired,\n"
    "        kernel-timer and standalone % of cuBLAS) (one file each), compare (two)\n"
    "  claims CLAIMS.ini [--markdown] [--partial] [--mine FILE.h5] ROLE=FILE.h5 ...\n"
    "        every claim of the file checked against the runs: measured, expected,\n"
    "        verdict (exit 1 if one fails, or if one names a run not given, unless\n"
    "        --partial); --mine: the claims a reviewer's own run can check, on that run\n"
    "  values --claims CLAIMS.ini --out VALUES.tex --tables DIR ROLE=FILE.h5 ... --\n"
    "         PAPER.tex ...\n"
    "        every \\val{KEY} and \\valtable{NAME} of the paper answered from the runs\n"
    "        (harness/values.h lists the keys); a key it cannot answer is an error\n"
    "  device\n"
    "        the GPU this binary would use, or why there is none (exit 3)\n"
    "\n"
    "exit status: 0 all points passed (or were skipped by design); 1 bad input or I/O\n"
    "error; 2 some point incorrect or failed; 3 some points could not run on this\n"
    "machine (no GPU); 130 interrupted (the file keeps every completed point).\n";

static volatile sig_atomic_t interrupted;   /* the one global: signal handlers need it */

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static int load(const char *path, struct experiment *e)
{
    char err[PATH_MAX + 512];
    if (experiment_load(path, e, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return -1;
    }
    return 0;
}

static void print_variants(void)
{
    printf("%-2s %-19s %-22s %-5s %-5s %s\n", "#", "variant", "seed name", "dev", "prec",
           "adds; configurations (tile/WPT)");
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char configs[256] = "";
        size_t used = 0;
        const unsigned axes = registry_axes(v);
        if (axes & AXIS_OPT) snprintf(configs, sizeof configs, " -O1 -O2 -O3");
        for (const struct rung_config *c = v->configs;
             (axes & (AXIS_TILE | AXIS_WPT)) && c && c->tile >= 0 && used < sizeof configs; c++)
            used += (size_t)snprintf(configs + used, sizeof configs - used, " %d/%d", c->tile,
                                     c->wpt);
        if ((axes & AXIS_SPLIT) && used < sizeof configs)
            snprintf(configs + used, sizeof configs - used, ", split 0-%d", RUNG_MAX_SPLIT);
        printf("%02zu %-19s %-22s %-5s %-5s %s%s%s%s\n", i + 1, v->name, v->seed_name,
               v->device == DEV_GPU ? "gpu" : "host", v->precision == PREC_TF32 ? "tf32" : "fp32",
               v->adds, configs[0] ? ";" : "", configs,
               (v->device == DEV_GPU && !v->gpu) ? " [not built]" : "");
    }
}

/* Points skipped for want of this machine share one reason (no GPU): it is
 * said once, with their count, not on every row. */
static void say_unavailable(FILE *out, const struct plan *p)
{
    size_t n = plan_count_skipped_env(p);
    if (n)
        fprintf(out, "mmladder: %s: %zu of %zu points need a GPU and are skipped\n",
                p->env_reason, n, p->n);
}

static void print_points(const struct experiment *e, const struct plan *p, int with_estimate)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        double est = point_estimate_s(pt, e);
        printf("%4zu  %-12s %-19s %5d %5d %5d  TS=%-3d WPT=%-3d S=%-3d -O%d %-8s  ", i, pt->sweep,
               pt->v->name, pt->M, pt->N, pt->K, pt->tile, pt->wpt, pt->split, pt->opt_level,
               host_memory_name(pt->host_memory));
        if (pt->skip_env)
            printf("skip: needs a GPU (below)\n");
        else if (pt->skip)
            printf("skip: %s\n", pt->skip_reason);
        else if (with_estimate)
            printf("~%.2f s\n", est);
        else
            printf("run\n");
    }
    printf("%zu points, %zu to run, %zu skipped", p->n, plan_count_runnable(p),
           p->n - plan_count_runnable(p));
    if (with_estimate) {
        struct plan_estimate est;
        plan_estimate(p, e, &est);
        printf("; estimated %.0f s (%.1f min) from nominal rates: GPU points %.0f s, host "
               "points %.0f s beside them", est.total_s, est.total_s / 60, est.gpu_s, est.host_s);
    }
    printf("\n");
    say_unavailable(stdout, p);
}

/* Open the GPU if there is one; never fatal here (the plan records why not). */
static struct gpu *open_gpu(struct gpu_info *gi, char *why, size_t whylen)
{
    struct gpu *g = NULL;
    const char *e = gpu_open(&g, gi);
    if (e) {
        snprintf(why, whylen, "%s", e);
        return NULL;
    }
    return g;
}

/* The host time budget the command line asks for. */
struct budget_opt {
    int given;          /* 0: the file's; 1: --host-budget S; 2: --no-budget */
    double s;
    const char *arg;    /* the first budget option given, for messages */
};

/* Is argv[*i] a budget option?  1: taken (with its value, *i advanced), 0: not
 * one, -1: refused (message printed). */
static int budget_arg(const char *cmd, int argc, char **argv, int *i, struct budget_opt *b)
{
    const char *a = argv[*i];
    int no = !strcmp(a, "--no-budget");
    if (!no && strcmp(a, "--host-budget") != 0) return 0;
    if (b->given) {
        fprintf(stderr, "mmladder %s: '%s' after '%s' (expected one of --host-budget S and "
                        "--no-budget, once)\n", cmd, a, b->arg);
        return -1;
    }
    b->arg = a;
    if (no) {
        b->given = 2;
        return 1;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "mmladder %s: '--host-budget' needs a value (expected --host-budget "
                        "SECONDS, e.g. --host-budget 600)\n", cmd);
        return -1;
    }
    const char *v = argv[++*i];
    char *end;
    errno = 0;
    b->s = strtod(v, &end);
    if (end == v || *end || errno == ERANGE || !isfinite(b->s) || !(b->s > 0)) {
        fprintf(stderr, "mmladder %s: --host-budget '%s' (expected a positive number of "
                        "seconds, e.g. 600)\n", cmd, v);
        return -1;
    }
    b->given = 1;
    return 1;
}

static double budget_of(const struct budget_opt *b, const struct experiment *e)
{
    return b->given == 2 ? 0.0 : b->given == 1 ? b->s : e->host_point_budget_s;
}

/* Expand the plan, skip what the GPU gi (NULL: none opened) cannot run, and
 * apply the host budget; *over gets the points the budget skipped. */
static int plan_or_die(const struct experiment *e, int gpu_ok, const char *why,
                       const struct gpu_info *gi, double budget_s, struct plan *p, size_t *over)
{
    char err[PATH_MAX + 512];
    if (plan_from_experiment(e, gpu_ok, why, p, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return -1;
    }
    if (gi) {
        const struct gpu_caps caps = {gi->name, gi->cc_major * 10 + gi->cc_minor,
                                      gi->smem_per_block_optin, provenance_nvccflags()};
        const size_t n = plan_apply_gpu(p, &caps);
        if (n)
            fprintf(stderr, "mmladder: %zu GPU point%s this %s (compute capability %d.%d) cannot "
                            "run: recorded as skipped, each with the reason\n",
                    n, n == 1 ? "" : "s", gi->name, gi->cc_major, gi->cc_minor);
    }
    *over = plan_apply_host_budget(p, e, budget_s);
    return 0;
}

static void say_over_budget(size_t over, double budget_s)
{
    if (over)
        fprintf(stderr, "mmladder: %zu host point%s estimated over the host budget of %g s: "
                        "recorded as skipped (--host-budget S to raise it, --no-budget to run "
                        "them)\n", over, over == 1 ? "" : "s", budget_s);
}

/* An option's value: argv[*i + 1], or NULL with a message. */
static const char *option_value(const char *cmd, int argc, char **argv, int *i,
                                const char *expect)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "mmladder %s: '%s' needs a value (expected %s %s)\n", cmd, argv[*i],
                argv[*i], expect);
        return NULL;
    }
    return argv[++*i];
}

/* NULL if path is an existing folder, else what it is instead. */
static const char *not_a_folder(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return errno == ENOENT ? "does not exist" : strerror(errno);
    return S_ISDIR(st.st_mode) ? NULL : "is not a folder";
}

/* Refuse an output that cannot be created before anything runs: the file must
 * not exist (never overwritten) and its folder must. */
static int check_output(const char *out, const char *dir, int dir_given)
{
    const char *why;
    const char *given = out ? out : dir;
    if (strlen(given) >= PATH_MAX - 128) {
        fprintf(stderr, "mmladder run: %s '%.60s...': %zu bytes long (expected a path of at most "
                        "%d bytes%s)\n", out ? "-o" : "-d", given, strlen(given), PATH_MAX - 129,
                out ? "" : ", leaving room for the file name");
        return -1;
    }
    if (!out) {
        if ((why = not_a_folder(dir))) {
            fprintf(stderr, "mmladder run: %s '%s': %s (expected an existing folder%s)\n",
                    dir_given ? "-d" : "output folder", dir, why,
                    dir_given ? "" : "; the default, relative to here: -d DIR or -o FILE.h5 "
                                     "to choose another");
            return -1;
        }
        return 0;
    }
    struct stat st;
    if (lstat(out, &st) == 0) {
        fprintf(stderr, "mmladder run: -o '%s': already exists (results files are never "
                        "overwritten; name a new file)\n", out);
        return -1;
    }
    char parent[PATH_MAX];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == out)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - out), out);
    if ((why = not_a_folder(parent))) {
        fprintf(stderr, "mmladder run: -o '%s': folder '%s' %s (expected an existing folder)\n",
                out, parent, why);
        return -1;
    }
    return 0;
}

static void slug(char *out, size_t len, const char *name)
{
    size_t j = 0;
    if (strncmp(name, "NVIDIA ", 7) == 0) name += 7;
    for (size_t i = 0; name[i] && j + 1 < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (isalnum(ch))
            out[j++] = (char)tolower(ch);
        else if (j > 0 && out[j - 1] != '-')
            out[j++] = '-';
    }
    while (j > 0 && out[j - 1] == '-') j--;
    out[j] = '\0';
}

struct run_args {
    const char *exp_path, *out, *dir;
    struct budget_opt budget;
    int kernel_timer;
};

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        int b = budget_arg("run", argc, argv, &i, &a->budget);
        if (b < 0) return -1;
        if (b > 0) continue;
        if (!strcmp(arg, "-o") || !strcmp(arg, "-d")) {
            const char **dst = arg[1] == 'o' ? &a->out : &a->dir;
            const char *v = option_value("run", argc, argv, &i, arg[1] == 'o' ? "FILE.h5" : "DIR");
            if (!v) return -1;
            if (*dst) {
                fprintf(stderr, "mmladder run: %s given twice ('%s', then '%s')\n", arg, *dst, v);
                return -1;
            }
            if (!*v) {
                fprintf(stderr, "mmladder run: %s '' (expected a %s)\n", arg,
                        arg[1] == 'o' ? "file name" : "folder");
                return -1;
            }
            *dst = v;
        } else if (!strcmp(arg, "--kernel-timer")) {
            a->kernel_timer = 1;
        } else if (arg[0] == '-' && arg[1]) {
            fprintf(stderr, "mmladder run: unknown option '%s'\n%s", arg, USAGE);
            return -1;
        } else if (a->exp_path) {
            fprintf(stderr, "mmladder run: unexpected argument '%s' (one experiment file: '%s' "
                            "came first)\n", arg, a->exp_path);
            return -1;
        } else {
            a->exp_path = arg;
        }
    }
    if (a->out && a->dir) {
        fprintf(stderr, "mmladder run: -o '%s' and -d '%s' exclude each other (-o names the "
                        "file, -d the folder of a generated name)\n", a->out, a->dir);
        return -1;
    }
    if (!a->exp_path) {
        fprintf(stderr, "mmladder run: no experiment file given\n%s", USAGE);
        return -1;
    }
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    /* From the start: an interrupt before the run begins writes nothing. */
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    struct run_args a;
    if (parse_run_args(argc, argv, &a) != 0) return EXIT_INPUT;
    const char *exp_path = a.exp_path, *out = a.out, *dir = a.dir ? a.dir : "data";
    if (check_output(out, dir, a.dir != NULL) != 0) return EXIT_INPUT;
    struct experiment *e = calloc(1, sizeof *e);
    if (!e) abort();
    if (load(exp_path, e) != 0) {
        free(e);
        return EXIT_INPUT;
    }
    struct gpu_info gi;
    char why[512] = "";
    struct gpu *g = open_gpu(&gi, why, sizeof why);
    struct plan p;
    int rc = EXIT_INPUT;
    const double budget_s = budget_of(&a.budget, e);
    size_t over;
    if (plan_or_die(e, g != NULL, why, g ? &gi : NULL, budget_s, &p, &over) != 0) goto out_exp;

    char path[PATH_MAX], err[PATH_MAX + 512];
    if (out) {
        snprintf(path, sizeof path, "%s", out);
    } else {
        char stamp[32], dev[64];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
        slug(dev, sizeof dev, g ? gi.name : "cpu");
        snprintf(path, sizeof path, "%s/%s-%s-%s.h5", dir, e->name, dev, stamp);
    }
    if (runner_preflight(&p, e->path, g, &gi, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        goto out_plan;
    }
    say_unavailable(stderr, &p);
    if (plan_count_runnable(&p) == 0 && plan_count_skipped_env(&p) > 0) {
        /* A file of nothing but "no GPU" rows would only stand in the way. */
        fprintf(stderr, "mmladder: nothing of %s can run on this machine; no file was written\n",
                e->path);
        rc = EXIT_UNAVAILABLE;
        goto out_plan;
    }
    say_over_budget(over, budget_s);

    if (interrupted) {
        fprintf(stderr, "mmladder: interrupted before the run began; no file was written\n");
        rc = EXIT_INTERRUPTED;
        goto out_plan;
    }

    /* Default names are made unique (a suffix when taken); -o names are never reused. */
    struct run_options o = {.out_path = path, .unique_name = !out, .log = stdout,
                            .interrupted = &interrupted, .kernel_timer = a.kernel_timer,
                            .argc = argc, .argv = argv};
    struct run_summary s;
    if (runner_run(e, &p, g, &gi, why, &o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        if (s.abandoned) return EXIT_INPUT;   /* see below */
        rc = EXIT_INPUT;
        goto out_plan;
    }
    printf("\n%s: %zu of %zu points recorded in %.1f s: %zu passed, %zu incorrect, %zu failed, "
           "%zu skipped (%zu for want of this machine)%s\n",
           s.path, s.recorded, s.planned, s.wall_s, s.passed, s.incorrect, s.failed, s.skipped,
           s.skipped_env, s.complete ? "; complete" : "; INCOMPLETE");
    if (s.interrupted) {
        if (s.complete)
            fprintf(stderr, "mmladder: interrupted after the last point: %s is complete\n",
                    s.path);
        else
            fprintf(stderr, "mmladder: interrupted: kept %zu of %zu points in %s (marked "
                            "incomplete)\n", s.recorded, s.planned, s.path);
        rc = EXIT_INTERRUPTED;
    } else if (s.incorrect || s.failed) {
        fprintf(stderr, "mmladder: %zu incorrect and %zu failed points (see 'reason' in %s)\n",
                s.incorrect, s.failed, s.path);
        rc = EXIT_WRONG;
    } else if (s.skipped_env) {
        rc = EXIT_UNAVAILABLE;
    } else {
        rc = EXIT_OK;
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

/* The ladder as the README's table: number, rung, seed name, precision and
 * reference, configurations, what it adds. */
static void print_variants_markdown(void)
{
    printf("| # | rung | seed name | precision, against | configurations (tile/WPT: block, per "
           "thread) | what it adds |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char configs[512] = "";
        size_t used = 0;
        if (v->device == DEV_HOST) snprintf(configs, sizeof configs, "-O1, -O2, -O3");
        for (const struct rung_config *c = v->configs; c && c->tile >= 0 && used < sizeof configs;
             c++) {
            if (c->block_rows == 0) break;   /* cuBLAS: its own choice */
            const unsigned axes = registry_axes(v);
            char sel[32] = "";
            if (axes & AXIS_TILE) snprintf(sel, sizeof sel, "%d%s", c->tile, axes & AXIS_WPT ? "/" : "");
            if (axes & AXIS_WPT) snprintf(sel + strlen(sel), sizeof sel - strlen(sel), "%d", c->wpt);
            used += (size_t)snprintf(configs + used, sizeof configs - used, "%s%s%s%dx%d, %dx%d",
                                     used ? "; " : "", sel, sel[0] ? ": " : "", c->block_rows,
                                     c->block_cols, c->thread_rows, c->thread_cols);
        }
        if ((registry_axes(v) & AXIS_SPLIT) && used < sizeof configs)
            snprintf(configs + used, sizeof configs - used, "; each with K split in 1 to %d "
                     "parts, or by its rule", RUNG_MAX_SPLIT);
        if (v->dispatch) snprintf(configs, sizeof configs, "picks one of the above by shape");
        const int plain = v->seed_name[0] == '(';   /* "(past the seeds)": not a name */
        printf("| %02zu | `%s` | %s%s%s | %s%s%s | %s | %s |\n", i + 1, v->name, plain ? "" : "`",
               v->seed_name, plain ? "" : "`",
               v->precision == PREC_TF32 ? "**TF32**" : "FP32", v->reference ? ", against " : "",
               v->reference ? v->reference : "", configs[0] ? configs : "chosen by cuBLAS", v->adds);
    }
}

static int cmd_list_or_plan(int argc, char **argv, int dry_run)
{
    if (!dry_run && argc == 3 && !strcmp(argv[2], "--markdown")) {
        print_variants_markdown();
        return EXIT_OK;
    }
    if (argc < 3) {
        if (dry_run) {
            fprintf(stderr, "mmladder plan: no experiment file given\n%s", USAGE);
            return EXIT_INPUT;
        }
        print_variants();
        return EXIT_OK;
    }
    struct budget_opt budget = {0};
    for (int i = 3; i < argc; i++) {
        int b = budget_arg(argv[1], argc, argv, &i, &budget);
        if (b < 0) return EXIT_INPUT;
        if (b == 0) {
            fprintf(stderr, "mmladder %s: unexpected argument '%s' (expected EXPERIMENT.ini "
                            "[--host-budget S | --no-budget])\n", argv[1], argv[i]);
            return EXIT_INPUT;
        }
    }
    struct experiment *e = calloc(1, sizeof *e);
    if (!e) abort();
    int rc = EXIT_INPUT;
    if (load(argv[2], e) == 0) {
        /* Planning asks whether a GPU is there but runs nothing on it. */
        struct gpu_info gi;
        char why[512] = "";
        struct gpu *g = dry_run ? open_gpu(&gi, why, sizeof why) : NULL;
        struct plan p;
        const double budget_s = budget_of(&budget, e);
        size_t over;
        if (plan_or_die(e, dry_run ? g != NULL : 1, why, g ? &gi : NULL, budget_s, &p, &over) == 0) {
            print_points(e, &p, dry_run);
            say_over_budget(over, budget_s);
            rc = EXIT_OK;
            if (dry_run) {
                char err[PATH_MAX + 512];
                if (runner_preflight(&p, e->path, g, &gi, err, sizeof err) != 0) {
                    fprintf(stderr, "mmladder: %s\n", err);
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

static void print_attr(const char *name, const char *value, void *ctx)
{
    (void)ctx;
    if (!strcmp(name, "experiment_text")) {
        printf("  %-26s (%zu bytes; mmladder export shows rows)\n", name, strlen(value));
        return;
    }
    printf("  %-26s %s\n", name, value);
}

/* What a reader of a results file should know before trusting what it shows. */
static void warn_about(const char *path, const struct results_file *f)
{
    if (f->damaged)
        fprintf(stderr, "mmladder: warning: %s is DAMAGED: %zu rows or samples not believed "
                        "or lost (see below)\n", path, f->damaged);
    if (!f->complete)
        fprintf(stderr, "mmladder: warning: %s is incomplete (it holds fewer rows than its "
                        "plan)\n", path);
    if (f->notes[0]) fprintf(stderr, "mmladder: warning: %s: %s\n", path, f->notes);
}

static int cmd_info(int argc, char **argv)
{
    if (argc != 3) {
        if (argc < 3)
            fprintf(stderr, "mmladder info: no results file given\n%s", USAGE);
        else
            fprintf(stderr, "mmladder info: unexpected argument '%s' (expected one results "
                            "file)\n", argv[3]);
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct results_file f;
    if (results_read(argv[2], &f, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    derive_upgrade(&f);
    printf("%s\nattributes:\n", argv[2]);
    const int attrs_ok = results_visit_attrs(argv[2], print_attr, NULL, err, sizeof err) == 0;
    if (!attrs_ok) printf("  (cannot be read: %s)\n", err);
    size_t counts[TRUST_UNKNOWN + 1] = {0};
    for (size_t i = 0; i < f.n_rows; i++) counts[trust_disposition(f.rows[i].disposition)]++;
    printf("rows: %zu (%zu passed, %zu incorrect, %zu skipped, %zu failed, %zu damaged), "
           "samples: %zu, %s%s\n", f.n_rows, counts[0], counts[1], counts[2], counts[3], counts[4],
           f.n_samples, f.complete ? "complete" : "INCOMPLETE",
           f.damaged || !attrs_ok ? ", DAMAGED" : "");
    if (f.checksummed)
        printf("checksums: every row's, with its samples, matched or marked damaged\n");
    else
        printf("checksums: none (schema %d; a changed value within reason is not found)\n",
               f.schema_version);
    if (f.notes[0]) printf("%s: %s\n", f.damaged ? "damaged" : "recovered", f.notes);
    warn_about(argv[2], &f);
    printf("\n");
    report_summary(stdout, f.rows, f.n_rows);
    results_file_free(&f);
    if (!attrs_ok) fprintf(stderr, "mmladder: %s\n", err);
    return attrs_ok ? EXIT_OK : EXIT_INPUT;
}

static int cmd_export(int argc, char **argv)
{
    const char *path = NULL;
    int csv = 0, passed = 0, samples = 0, attrs = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) csv = 1;
        else if (!strcmp(argv[i], "--passed")) passed = 1;
        else if (!strcmp(argv[i], "--samples")) samples = 1;
        else if (!strcmp(argv[i], "--attrs")) attrs = 1;
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(stderr, "mmladder export: %s '%s'\n%s",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i], USAGE);
            return EXIT_INPUT;
        }
    }
    if (!path) {
        fprintf(stderr, "mmladder export: no results file given\n%s", USAGE);
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    if (samples + passed + attrs > 1) {
        fprintf(stderr, "mmladder export: --passed, --samples and --attrs exclude each other\n");
        return EXIT_INPUT;
    }
    /* The attributes too are exported only from a file the checks read. */
    struct results_file f;
    if (results_read(path, &f, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    warn_about(path, &f);
    if (attrs) {
        results_file_free(&f);
        if (report_export_attrs(stdout, path, csv ? EXPORT_CSV : EXPORT_TSV, err, sizeof err)) {
            fprintf(stderr, "mmladder: %s\n", err);
            return EXIT_INPUT;
        }
        return EXIT_OK;   /* main checks what reached standard output */
    }
    derive_upgrade(&f);
    if (samples)
        report_export_samples(stdout, &f, csv ? EXPORT_CSV : EXPORT_TSV);
    else
        report_export_rows(stdout, &f, csv ? EXPORT_CSV : EXPORT_TSV, passed);
    results_file_free(&f);
    return EXIT_OK;   /* main checks what reached standard output */
}

static void take_gpu_name(const char *name, const char *value, void *ctx)
{
    if (!strcmp(name, "gpu_name")) snprintf(ctx, 128, "%s", value);
}

static int cmd_compare(int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL};
    double tol = 0.10;
    int tsv = 0, np = 0;
    for (int i = 2; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--tsv")) {
            tsv = 1;
        } else if (!strcmp(argv[i], "--tolerance")) {
            if (!option_value("compare", argc, argv, &i, "FRACTION, e.g. 0.10")) return EXIT_INPUT;
            tol = strtod(argv[i], &end);
            if (*end || !(tol > 0 && tol < 10)) {
                fprintf(stderr, "mmladder compare: --tolerance '%s' (expected a fraction, e.g. "
                                "0.10 for 10%%)\n", argv[i]);
                return EXIT_INPUT;
            }
        } else if (argv[i][0] != '-' && np < 2) {
            paths[np++] = argv[i];
        } else {
            fprintf(stderr, "mmladder compare: unexpected argument '%s'\n%s", argv[i], USAGE);
            return EXIT_INPUT;
        }
    }
    if (np != 2) {
        if (np == 1)
            fprintf(stderr, "mmladder compare: only one results file, '%s' (expected NEW.h5 and "
                            "REFERENCE.h5)\n", paths[0]);
        else
            fprintf(stderr, "mmladder compare: no results files given (expected NEW.h5 and "
                            "REFERENCE.h5)\n%s", USAGE);
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct results_file f[2];
    for (int k = 0; k < 2; k++) {
        if (results_read(paths[k], &f[k], err, sizeof err) != 0) {
            fprintf(stderr, "mmladder: %s\n", err);
            if (k) results_file_free(&f[0]);
            return EXIT_INPUT;
        }
        warn_about(paths[k], &f[k]);
        derive_upgrade(&f[k]);
    }
    /* Tolerances are per GPU model: two models' runs are reported, not judged. */
    char gpu[2][128] = {"", ""};
    for (int k = 0; k < 2; k++) results_visit_attrs(paths[k], take_gpu_name, gpu[k], err, sizeof err);
    const int across = gpu[0][0] && gpu[1][0] && strcmp(gpu[0], gpu[1]) != 0;
    if (across)
        fprintf(stderr, "mmladder compare: %s ran on '%s' and %s on '%s': two GPU models; their "
                        "pairs are reported, not held to a tolerance\n", paths[0], gpu[0],
                paths[1], gpu[1]);
    size_t compared = 0, host = 0;
    size_t outside = report_compare(stdout, &f[0], &f[1], tol, across, tsv, &compared, &host);
    if (!tsv) {
        printf("\n");
        if (compared)
            printf("%zu of %zu GPU (rung, shape) pairs within %.0f%% of the reference\n",
                   compared - outside, compared, tol * 100);
        if (across)
            printf("%zu (rung, shape) pairs of two GPU models ('%s' against '%s') reported, not "
                   "held to a tolerance\n", host, gpu[0], gpu[1]);
        else if (host)
            printf("%zu host (rung, shape) pairs reported, not held to a tolerance (one CPU "
                   "core's timings differ between machines and runs)\n", host);
    }
    results_file_free(&f[0]);
    results_file_free(&f[1]);
    if (!compared && !host) {
        fprintf(stderr, "mmladder compare: no passed (rung, shape) in common\n");
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* The runs a derived command (table, claims, values) takes: the paper matrix,
 * shape suite, transfers, portability run and reproductions of two GPUs. */
#define MAX_RUNS 24

/* "ROLE=PATH" or "PATH" (role "runK"): the runs a derived command is given,
 * each incomplete or damaged one said on stderr; with strict 1 such a run is
 * refused, with strict 2 (claims --partial) left out.  Returns how many were
 * opened, or -1 (after a message). */
static int open_runs(int argc, char **argv, int first, struct run *runs, size_t max, int strict)
{
    size_t n = 0;
    for (int i = first; i < argc; i++) {
        if (n == max) {
            fprintf(stderr, "mmladder: more than %zu results files\n", max);
            goto fail;
        }
        char role[32], err[PATH_MAX + 512];
        const char *path = argv[i], *eq = strchr(argv[i], '=');
        if (eq && (size_t)(eq - argv[i]) < sizeof role && eq > argv[i]) {
            snprintf(role, sizeof role, "%.*s", (int)(eq - argv[i]), argv[i]);
            path = eq + 1;
        } else {
            snprintf(role, sizeof role, "run%zu", n + 1);
        }
        for (size_t j = 0; j < n; j++)
            if (!strcmp(runs[j].role, role)) {
                fprintf(stderr, "mmladder: role '%s' given twice (%s and %s; expected one file "
                                "a role)\n", role, runs[j].path, path);
                goto fail;
            }
        if (derive_open(&runs[n], role, path, err, sizeof err) != 0) {
            fprintf(stderr, "mmladder: %s\n", err);
            goto fail;
        }
        n++;
        const struct results_file *f = &runs[n - 1].f;
        warn_about(path, f);
        if (strict && (f->damaged || !f->complete)) {
            fprintf(stderr, "mmladder: %s=%s is %s: nothing is stated from it%s\n", role, path,
                    f->damaged ? "damaged" : "incomplete",
                    strict == 2 ? "; left out" : " (--partial: leave it out)");
            if (strict != 2) goto fail;
            derive_close(&runs[--n]);
        }
    }
    return (int)n;
fail:
    while (n > 0) derive_close(&runs[--n]);
    return -1;
}

static int cmd_table(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "mmladder table: no view given (expected one of: %s)\n%s", DERIVE_VIEWS,
                USAGE);
        return EXIT_INPUT;
    }
    const char *view = argv[2], *n_arg = NULL;
    int first = 3;
    if (argc > 4 && !strcmp(argv[3], "--n")) {
        n_arg = argv[4];
        char *end;
        long n = strtol(n_arg, &end, 10);
        if (*end || n < 1 || n > 1000000) {
            fprintf(stderr, "mmladder table: --n '%s' (expected a square size, e.g. 4096)\n",
                    n_arg);
            return EXIT_INPUT;
        }
        first = 5;
    }
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "mmladder table: unknown option '%s'\n%s", argv[i], USAGE);
            return EXIT_INPUT;
        }
    struct run *runs = calloc(MAX_RUNS, sizeof *runs);
    if (!runs) {
        fprintf(stderr, "mmladder table: out of memory\n");
        return EXIT_INPUT;
    }
    int n = open_runs(argc, argv, first, runs, MAX_RUNS, 0);
    if (n < 0) {
        free(runs);
        return EXIT_INPUT;
    }
    char err[512];
    int rc = derive_table(stdout, view, runs, (size_t)n, n_arg, err, sizeof err);
    if (rc != 0) fprintf(stderr, "mmladder table: %s\n", err);
    for (int i = 0; i < n; i++) derive_close(&runs[i]);
    free(runs);
    return rc ? EXIT_INPUT : EXIT_OK;
}

/* claims CLAIMS.ini [--markdown] [--mine FILE] [--partial] [ROLE=]FILE...:
 * each claim's measured value and verdict; exit 1 when a claim fails, or when
 * one could not be evaluated for want of a run it names (not evaluated is not
 * passed), unless --partial (or --mine) asks for the claims the runs given
 * allow. */
static int cmd_claims(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "mmladder claims: no claims file given\n%s", USAGE);
        return EXIT_INPUT;
    }
    const char *mine_path = NULL;
    int markdown = 0, partial = 0, first = 3;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--markdown")) {
            markdown = 1;
        } else if (!strcmp(argv[first], "--partial")) {
            partial = 1;
        } else if (!strcmp(argv[first], "--mine") && first + 1 < argc) {
            mine_path = argv[++first];
        } else {
            fprintf(stderr, "mmladder claims: unknown option '%s' (expected --markdown, "
                            "--partial or --mine FILE)\n", argv[first]);
            return EXIT_INPUT;
        }
    }
    char err[PATH_MAX + 512];
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result *rs = calloc(CLAIM_MAX, sizeof *rs);
    struct run *runs = calloc(MAX_RUNS + 1, sizeof *runs);
    if (!cs || !rs || !runs) {
        fprintf(stderr, "mmladder claims: out of memory\n");
        free(cs), free(rs), free(runs);
        return EXIT_INPUT;
    }
    int rc = EXIT_INPUT, n = -1;
    if (claims_load(argv[2], cs, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        goto out;
    }
    if ((n = open_runs(argc, argv, first, runs, MAX_RUNS, partial ? 2 : 1)) < 0) goto out;
    if (claims_check_roles(cs, runs, (size_t)n, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder claims: %s\n", err);
        goto out;
    }
    if (mine_path && derive_open(&runs[MAX_RUNS], "mine", mine_path, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        goto out;
    }
    for (size_t i = 0; i < cs->n; i++) {
        if (mine_path)
            claims_evaluate_mine(&cs->c[i], &runs[MAX_RUNS], runs, (size_t)n, &rs[i]);
        else
            claims_evaluate(&cs->c[i], runs, (size_t)n, &rs[i]);
    }
    size_t failed = claims_report(stdout, cs, rs, markdown);
    size_t evaluated = 0;
    for (size_t i = 0; i < cs->n; i++) evaluated += rs[i].verdict != CLAIM_NOT_EVALUATED;
    if (!markdown)
        printf("\n%zu claims: %zu evaluated, %zu failed, %zu not evaluated\n", cs->n, evaluated,
               failed, cs->n - evaluated);
    rc = failed ? EXIT_INPUT : EXIT_OK;
    if (evaluated < cs->n && !partial && !mine_path) {
        size_t first_missing = 0;
        while (rs[first_missing].verdict != CLAIM_NOT_EVALUATED) first_missing++;
        fprintf(stderr, "mmladder claims: %zu of %zu claims not evaluated (the first, [%s]: %s); "
                        "a claim not evaluated is not passed (expected every run the claims "
                        "name, or --partial for those the runs given allow)\n",
                cs->n - evaluated, cs->n, cs->c[first_missing].id, rs[first_missing].why);
        rc = EXIT_INPUT;
    }
    if (mine_path) derive_close(&runs[MAX_RUNS]);
out:
    for (int i = 0; i < n; i++) derive_close(&runs[i]);
    free(cs), free(rs), free(runs);
    return rc;
}

/* values --claims CLAIMS.ini --out VALUES.tex --tables DIR ROLE=FILE... -- TEX...:
 * every \\val{KEY} and \\valtable{NAME} the TeX files use, answered. */
static int cmd_values(int argc, char **argv)
{
    const char *claims_path = NULL, *out = NULL, *tables = NULL;
    int i = 2;
    for (; i + 1 < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i += 2) {
        if (!strcmp(argv[i], "--claims")) claims_path = argv[i + 1];
        else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
        else if (!strcmp(argv[i], "--tables")) tables = argv[i + 1];
        else break;
    }
    int dash = i;
    while (dash < argc && strcmp(argv[dash], "--")) dash++;
    if (!claims_path || !out || !tables || dash >= argc - 1) {
        fprintf(stderr, "mmladder values: usage: values --claims CLAIMS.ini --out VALUES.tex "
                        "--tables DIR ROLE=FILE.h5 ... -- PAPER.tex ...\n");
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct claims *cs = calloc(1, sizeof *cs);
    struct claim_result *rs = calloc(CLAIM_MAX, sizeof *rs);
    struct run *runs = calloc(MAX_RUNS, sizeof *runs);
    int rc = EXIT_INPUT, n = -1;
    if (!cs || !rs || !runs) goto out;
    if (claims_load(claims_path, cs, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        goto out;
    }
    char *saved = argv[dash];
    argv[dash] = NULL;   /* open_runs stops at argc: give it the runs only */
    n = open_runs(dash, argv, i, runs, MAX_RUNS, 1);
    argv[dash] = saved;
    if (n < 0) goto out;
    if (claims_check_roles(cs, runs, (size_t)n, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder values: %s\n", err);
        goto out;
    }
    for (size_t k = 0; k < cs->n; k++) claims_evaluate(&cs->c[k], runs, (size_t)n, &rs[k]);
    if (values_write((const char *const *)argv + dash + 1, (size_t)(argc - dash - 1), out, tables,
                     runs, (size_t)n, cs, rs, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder values: %s\n", err);
        goto out;
    }
    rc = EXIT_OK;
out:
    for (int k = 0; k < n; k++) derive_close(&runs[k]);
    free(cs), free(rs), free(runs);
    return rc;
}

static int cmd_device(void)
{
    struct gpu_info gi;
    char why[512];
    struct gpu *g = open_gpu(&gi, why, sizeof why);
    if (!g) {
        printf("%s\n", why);
        return EXIT_UNAVAILABLE;
    }
    printf("%s (compute capability %d.%d, %d SMs, %d MHz, %.0f GiB, L2 %lld MiB), CUDA driver "
           "%d, runtime %d\n",
           gi.name, gi.cc_major, gi.cc_minor, gi.sm_count, gi.max_clock_mhz,
           gi.global_mem_bytes / 1073741824.0, gi.l2_bytes >> 20, gi.driver_version,
           gi.runtime_version);
    gpu_close(g);
    return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "help")) {
        fputs(USAGE, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_INPUT : EXIT_OK;
    }
    if (!strcmp(argv[1], "run")) return cmd_run(argc, argv);
    if (!strcmp(argv[1], "list")) return cmd_list_or_plan(argc, argv, 0);
    if (!strcmp(argv[1], "plan")) return cmd_list_or_plan(argc, argv, 1);
    if (!strcmp(argv[1], "info")) return cmd_info(argc, argv);
    if (!strcmp(argv[1], "export")) return cmd_export(argc, argv);
    if (!strcmp(argv[1], "compare")) return cmd_compare(argc, argv);
    if (!strcmp(argv[1], "table")) return cmd_table(argc, argv);
    if (!strcmp(argv[1], "claims")) return cmd_claims(argc, argv);
    if (!strcmp(argv[1], "values")) return cmd_values(argc, argv);
    if (!strcmp(argv[1], "device")) {
        if (argc == 2) return cmd_device();
        fprintf(stderr, "mmladder device: unexpected argument '%s' (it takes none)\n", argv[2]);
        return EXIT_INPUT;
    }
    fprintf(stderr, "mmladder: unknown command '%s'\n%s", argv[1], USAGE);
    return EXIT_INPUT;
}

int main(int argc, char **argv)
{
    /* A closed pipe or a file grown past its limit is an error to report, not a
     * signal to die of: the writes then fail with EPIPE or EFBIG. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    int rc = dispatch(argc, argv);
    /* A failed write leaves its errno; a flush that has nothing left to write
     * sets none, so the one of the last failed write is kept. */
    const int earlier = errno;
    errno = 0;
    const int flushed = fflush(stdout);
    if (flushed != 0 || ferror(stdout)) {
        const int e = flushed != 0 && errno ? errno : earlier;
        fprintf(stderr, "mmladder: writing to standard output failed: %s%s\n",
                e ? strerror(e) : "a write error",
                argc > 1 && !strcmp(argv[1], "run") ? " (the results file is not affected)" : "");
        if (rc == EXIT_OK || rc == EXIT_UNAVAILABLE) rc = EXIT_INPUT;
    }
    /* After an interrupt, leave at once: the CUDA runtime's clean-up at exit would
     * wait for a kernel still running on the device. */
    if (rc == EXIT_INTERRUPTED) {
        fflush(stderr);
        _exit(rc);
    }
    return rc;
}
