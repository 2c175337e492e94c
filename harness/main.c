/* mmladder: the command line.  See `mmladder --help`. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "experiment.h"
#include "gpu.h"
#include "plan.h"
#include "registry.h"
#include "report.h"
#include "results.h"
#include "runner.h"

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
    "  run EXPERIMENT.ini [-o FILE.h5 | -d DIR]\n"
    "        run every point; write FILE.h5 (default DIR/NAME-GPU-UTCSTAMP.h5, DIR = data)\n"
    "        never overwrites; each point is flushed to disk as soon as it is recorded\n"
    "  list [EXPERIMENT.ini]\n"
    "        the variants (rungs) in ladder order, or the points a file expands to\n"
    "  plan EXPERIMENT.ini\n"
    "        dry run: the points, skip reasons and an estimated time; runs nothing\n"
    "  info FILE.h5\n"
    "        provenance attributes, counts and the summary table of a results file\n"
    "  export FILE.h5 [--csv] [--passed | --samples | --attrs]\n"
    "        rows of /results, of /samples, or the root attributes, as TSV (default)\n"
    "        or CSV on stdout; --passed keeps verified rows only\n"
    "  compare NEW.h5 REFERENCE.h5 [--tolerance 0.10] [--tsv]\n"
    "        per rung and shape: best GFLOP/s in each file, the ratio, and whether it\n"
    "        is within the tolerance (exit 0 either way; 1 if nothing matched)\n"
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
    char err[1024];
    if (experiment_load(path, e, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return -1;
    }
    return 0;
}

static void print_variants(void)
{
    printf("%-2s %-19s %-22s %-5s %-5s %-8s %s\n", "#", "variant", "seed name", "dev", "prec",
           "axes", "adds");
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        char axes[32] = "";
        if (v->axes & AXIS_TILE) strcat(axes, "TS ");
        if (v->axes & AXIS_WPT) strcat(axes, "WPT ");
        if (v->axes & AXIS_OPT) strcat(axes, "-O ");
        printf("%02zu %-19s %-22s %-5s %-5s %-8s %s%s\n", i + 1, v->name, v->seed_name,
               v->device == DEV_GPU ? "gpu" : "host", v->precision == PREC_TF32 ? "tf32" : "fp32",
               axes, v->adds, (v->device == DEV_GPU && !v->gpu) ? " [not built]" : "");
    }
}

static void print_points(const struct experiment *e, const struct plan *p, int with_estimate)
{
    double total = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        double est = point_estimate_s(pt, e);
        total += est;
        printf("%4zu  %-12s %-19s %5d %5d %5d  TS=%-3d WPT=%-3d -O%d %-8s  ", i, pt->sweep,
               pt->v->name, pt->M, pt->N, pt->K, pt->tile, pt->wpt, pt->opt_level,
               host_memory_name(pt->host_memory));
        if (pt->skip)
            printf("skip: %s\n", pt->skip_reason);
        else if (with_estimate)
            printf("~%.2f s\n", est);
        else
            printf("run\n");
    }
    printf("%zu points, %zu to run, %zu skipped", p->n, plan_count_runnable(p),
           p->n - plan_count_runnable(p));
    if (with_estimate)
        printf("; estimated %.0f s (%.1f min) from nominal rates, excluding input setup", total,
               total / 60);
    printf("\n");
}

/* Open the GPU if there is one; never fatal here (the plan records why not). */
static struct gpu *open_gpu(struct gpu_info *gi, char *why, size_t whylen)
{
    struct gpu *g = NULL;
    const char *e = gpu_open(&g, gi);
    if (e) {
        snprintf(why, whylen, "no GPU: %s", e);
        return NULL;
    }
    return g;
}

static int plan_or_die(const struct experiment *e, int gpu_ok, const char *why, struct plan *p)
{
    char err[1024];
    if (plan_from_experiment(e, gpu_ok, why, p, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
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

static int cmd_run(int argc, char **argv)
{
    const char *exp_path = NULL, *out = NULL, *dir = "data";
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "-d") && i + 1 < argc) dir = argv[++i];
        else if (argv[i][0] != '-' && !exp_path) exp_path = argv[i];
        else {
            fprintf(stderr, "mmladder run: unexpected argument '%s'\n%s", argv[i], USAGE);
            return EXIT_INPUT;
        }
    }
    if (!exp_path) {
        fprintf(stderr, "mmladder run: no experiment file given\n%s", USAGE);
        return EXIT_INPUT;
    }
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
    if (plan_or_die(e, g != NULL, why, &p) != 0) goto out_exp;

    char path[1024], err[1024];
    if (out) {
        snprintf(path, sizeof path, "%s", out);
    } else {
        char stamp[32], dev[64];
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
        slug(dev, sizeof dev, g ? gi.name : "host");
        snprintf(path, sizeof path, "%s/%s-%s-%s.h5", dir, e->name, dev, stamp);
    }
    if (runner_preflight(&p, g, &gi, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        goto out_plan;
    }
    if (!g && plan_count_runnable(&p) < p.n)
        fprintf(stderr, "mmladder: %s; GPU points are recorded as skipped\n", why);

    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    printf("mmladder: %s (%zu points) -> %s\n", e->path, p.n, path);
    if (g) printf("device: %s, %d SMs, CUDA driver %d\n", gi.name, gi.sm_count, gi.driver_version);
    fflush(stdout);
    struct run_options o = {.out_path = path, .log = stdout, .interrupted = &interrupted,
                            .argc = argc, .argv = argv};
    struct run_summary s;
    if (runner_run(e, &p, g, &gi, why, &o, &s, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        rc = EXIT_INPUT;
        goto out_plan;
    }
    printf("\n%s: %zu of %zu points recorded in %.1f s: %zu passed, %zu incorrect, %zu failed, "
           "%zu skipped (%zu for want of this machine)%s\n",
           path, s.recorded, s.planned, s.wall_s, s.passed, s.incorrect, s.failed, s.skipped,
           s.skipped_env, s.recorded == s.planned ? "; complete" : "");
    if (s.interrupted) {
        fprintf(stderr, "mmladder: interrupted: kept %zu of %zu points in %s (marked incomplete)\n",
                s.recorded, s.planned, path);
        rc = EXIT_INTERRUPTED;
    } else if (s.incorrect || s.failed) {
        fprintf(stderr, "mmladder: %zu incorrect and %zu failed points (see 'reason' in %s)\n",
                s.incorrect, s.failed, path);
        rc = EXIT_WRONG;
    } else if (s.skipped_env) {
        rc = EXIT_UNAVAILABLE;
    } else {
        rc = EXIT_OK;
    }
out_plan:
    plan_free(&p);
out_exp:
    gpu_close(g);
    experiment_free(e);
    free(e);
    return rc;
}

static int cmd_list_or_plan(int argc, char **argv, int dry_run)
{
    if (argc < 3) {
        if (dry_run) {
            fprintf(stderr, "mmladder plan: no experiment file given\n%s", USAGE);
            return EXIT_INPUT;
        }
        print_variants();
        return EXIT_OK;
    }
    if (argc > 3) {
        fprintf(stderr, "mmladder %s: unexpected argument '%s'\n", argv[1], argv[3]);
        return EXIT_INPUT;
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
        if (plan_or_die(e, dry_run ? g != NULL : 1, why, &p) == 0) {
            print_points(e, &p, dry_run);
            rc = EXIT_OK;
            if (dry_run && g) {
                char err[1024];
                if (runner_preflight(&p, g, &gi, err, sizeof err) != 0) {
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

static int cmd_info(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "mmladder info: expected one results file\n%s", USAGE);
        return EXIT_INPUT;
    }
    char err[1024];
    struct results_file f;
    if (results_read(argv[2], &f, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    printf("%s\nattributes:\n", argv[2]);
    results_visit_attrs(argv[2], print_attr, NULL, err, sizeof err);
    size_t counts[4] = {0};
    for (size_t i = 0; i < f.n_rows; i++) {
        const char *d = f.rows[i].disposition;
        counts[!strcmp(d, "passed") ? 0 : !strcmp(d, "incorrect") ? 1 : !strcmp(d, "skipped") ? 2 : 3]++;
    }
    printf("rows: %zu (%zu passed, %zu incorrect, %zu skipped, %zu failed), samples: %zu, %s\n\n",
           f.n_rows, counts[0], counts[1], counts[2], counts[3], f.n_samples,
           f.complete ? "complete" : "INCOMPLETE");
    report_summary(stdout, f.rows, f.n_rows);
    results_file_free(&f);
    return EXIT_OK;
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
            fprintf(stderr, "mmladder export: unexpected argument '%s'\n%s", argv[i], USAGE);
            return EXIT_INPUT;
        }
    }
    if (!path) {
        fprintf(stderr, "mmladder export: no results file given\n%s", USAGE);
        return EXIT_INPUT;
    }
    char err[1024];
    if (samples + passed + attrs > 1) {
        fprintf(stderr, "mmladder export: --passed, --samples and --attrs exclude each other\n");
        return EXIT_INPUT;
    }
    if (attrs) {
        if (report_export_attrs(stdout, path, csv ? EXPORT_CSV : EXPORT_TSV, err, sizeof err)) {
            fprintf(stderr, "mmladder: %s\n", err);
            return EXIT_INPUT;
        }
        return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
    }
    struct results_file f;
    if (results_read(path, &f, err, sizeof err) != 0) {
        fprintf(stderr, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    if (samples)
        report_export_samples(stdout, &f, csv ? EXPORT_CSV : EXPORT_TSV);
    else
        report_export_rows(stdout, &f, csv ? EXPORT_CSV : EXPORT_TSV, passed);
    results_file_free(&f);
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_INPUT;
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
        } else if (!strcmp(argv[i], "--tolerance") && i + 1 < argc) {
            tol = strtod(argv[++i], &end);
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
        fprintf(stderr, "mmladder compare: expected NEW.h5 and REFERENCE.h5\n%s", USAGE);
        return EXIT_INPUT;
    }
    char err[1024];
    struct results_file f[2];
    for (int k = 0; k < 2; k++) {
        if (results_read(paths[k], &f[k], err, sizeof err) != 0) {
            fprintf(stderr, "mmladder: %s\n", err);
            if (k) results_file_free(&f[0]);
            return EXIT_INPUT;
        }
    }
    size_t compared = 0;
    size_t outside = report_compare(stdout, &f[0], &f[1], tol, tsv, &compared);
    if (!tsv)
        printf("\n%zu of %zu compared (rung, shape) pairs within %.0f%% of the reference\n",
               compared - outside, compared, tol * 100);
    results_file_free(&f[0]);
    results_file_free(&f[1]);
    if (!compared) {
        fprintf(stderr, "mmladder compare: no passed (rung, shape) in common\n");
        return EXIT_INPUT;
    }
    return EXIT_OK;
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

int main(int argc, char **argv)
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
    if (!strcmp(argv[1], "device") && argc == 2) return cmd_device();
    fprintf(stderr, "mmladder: unknown command '%s'\n%s", argv[1], USAGE);
    return EXIT_INPUT;
}
