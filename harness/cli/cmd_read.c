/* mmladder info, export, compare and table: what results files hold, as they
 * are and as derived views. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "views/views.h"
#include "results/results.h"

/* One attribute of a file, on the stream out. */
static void print_attr(const char *name, const char *value, void *out)
{
    if (!strcmp(name, "experiment_text")) {
        fprintf(out, "  %-26s (%zu bytes; mmladder export shows rows)\n", name, strlen(value));
        return;
    }
    fprintf(out, "  %-26s %s\n", name, value);
}

/* --allow-incomplete at argv[i]? */
static int allow_incomplete(const char *arg)
{
    return !strcmp(arg, "--allow-incomplete");
}

int cmd_info(const struct cli *c, int argc, char **argv)
{
    const char *path = NULL;
    int anyway = 0;
    for (int i = 2; i < argc; i++) {
        if (allow_incomplete(argv[i])) {
            anyway = 1;
        } else if (path || argv[i][0] == '-') {
            fprintf(c->err, "mmladder info: %s '%s' (expected one results file, and "
                            "--allow-incomplete)\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return EXIT_INPUT;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fprintf(c->err, "mmladder info: no results file given\n");
        cli_usage(c->err);
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct results_file f;
    if (results_read(path, &f, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    derive_upgrade(&f);
    fprintf(c->out, "%s\nattributes:\n", path);
    const int attrs_ok = !f.attrs_why[0];
    for (size_t i = 0; i < f.n_attrs; i++) print_attr(f.attrs[i].name, f.attrs[i].value, c->out);
    if (!attrs_ok) {
        snprintf(err, sizeof err, "%s: %s", path, f.attrs_why);
        fprintf(c->out, "  (cannot be read: %s)\n", err);
    }
    size_t counts[TRUST_UNKNOWN + 1];
    trust_count(&f, counts);
    fprintf(c->out, "rows: %zu (%zu passed, %zu incorrect, %zu skipped, %zu failed, %zu damaged), "
            "samples: %zu, %s%s\n", f.n_rows, counts[0], counts[1], counts[2], counts[3],
            counts[4], f.n_samples, f.complete ? "complete" : "INCOMPLETE",
            f.damaged || !attrs_ok ? ", DAMAGED" : "");
    if (f.checksummed)
        fprintf(c->out, "checksums: every row's, with its samples, matched or marked damaged\n");
    else
        fprintf(c->out, "checksums: none (schema %d; a changed value within reason is not "
                "found)\n", f.schema_version);
    if (f.notes[0]) fprintf(c->out, "%s: %s\n", f.damaged ? "damaged" : "recovered", f.notes);
    cli_warn_about(c, path, &f, anyway);
    fprintf(c->out, "\n");
    report_summary(c->out, f.rows, f.n_rows);
    const int whole = f.complete || anyway;
    if (!whole) cli_say_incomplete(c, path, &f);
    results_file_free(&f);
    if (!attrs_ok) fprintf(c->err, "mmladder: %s\n", err);
    return !attrs_ok ? EXIT_INPUT : whole ? EXIT_OK : EXIT_PARTIAL;
}

int cmd_export(const struct cli *c, int argc, char **argv)
{
    const char *path = NULL;
    int csv = 0, passed = 0, samples = 0, attrs = 0, anyway = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--csv")) csv = 1;
        else if (allow_incomplete(argv[i])) anyway = 1;
        else if (!strcmp(argv[i], "--passed")) passed = 1;
        else if (!strcmp(argv[i], "--samples")) samples = 1;
        else if (!strcmp(argv[i], "--attrs")) attrs = 1;
        else if (argv[i][0] != '-' && !path) path = argv[i];
        else {
            fprintf(c->err, "mmladder export: %s '%s'\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            cli_usage(c->err);
            return EXIT_INPUT;
        }
    }
    if (!path) {
        fprintf(c->err, "mmladder export: no results file given\n");
        cli_usage(c->err);
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    if (samples + passed + attrs > 1) {
        fprintf(c->err, "mmladder export: --passed, --samples and --attrs exclude each other\n");
        return EXIT_INPUT;
    }
    /* The attributes too are exported only from a file the checks read. */
    struct results_file f;
    if (results_read(path, &f, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    cli_warn_about(c, path, &f, anyway);
    if (!f.complete && !anyway) {
        cli_say_incomplete(c, path, &f);
        results_file_free(&f);
        return EXIT_PARTIAL;
    }
    if (attrs) {
        report_export_attrs(c->out, &f, csv ? EXPORT_CSV : EXPORT_TSV);
        const int read = !f.attrs_why[0];
        if (!read) fprintf(c->err, "mmladder: %s: %s\n", path, f.attrs_why);
        results_file_free(&f);
        return read ? EXIT_OK : EXIT_INPUT;   /* main checks what reached standard output */
    }
    derive_upgrade(&f);
    if (samples)
        report_export_samples(c->out, &f, csv ? EXPORT_CSV : EXPORT_TSV);
    else
        report_export_rows(c->out, &f, csv ? EXPORT_CSV : EXPORT_TSV, passed);
    results_file_free(&f);
    return EXIT_OK;   /* main checks what reached standard output */
}

int cmd_compare(const struct cli *c, int argc, char **argv)
{
    const char *paths[2] = {NULL, NULL};
    double tol = 0.10;
    int tsv = 0, np = 0, anyway = 0;
    for (int i = 2; i < argc; i++) {
        char *end = NULL;
        if (!strcmp(argv[i], "--tsv")) {
            tsv = 1;
        } else if (allow_incomplete(argv[i])) {
            anyway = 1;
        } else if (!strcmp(argv[i], "--tolerance")) {
            if (!cli_option_value(c, "compare", argc, argv, &i, "FRACTION, e.g. 0.10"))
                return EXIT_INPUT;
            tol = strtod(argv[i], &end);
            if (*end || !(tol > 0 && tol < 10)) {
                fprintf(c->err, "mmladder compare: --tolerance '%s' (expected a fraction, e.g. "
                                "0.10 for 10%%)\n", argv[i]);
                return EXIT_INPUT;
            }
        } else if (argv[i][0] != '-' && np < 2) {
            paths[np++] = argv[i];
        } else {
            fprintf(c->err, "mmladder compare: unexpected argument '%s'\n", argv[i]);
            cli_usage(c->err);
            return EXIT_INPUT;
        }
    }
    if (np != 2) {
        if (np == 1)
            fprintf(c->err, "mmladder compare: only one results file, '%s' (expected NEW.h5 and "
                            "REFERENCE.h5)\n", paths[0]);
        else {
            fprintf(c->err, "mmladder compare: no results files given (expected NEW.h5 and "
                            "REFERENCE.h5)\n");
            cli_usage(c->err);
        }
        return EXIT_INPUT;
    }
    char err[PATH_MAX + 512];
    struct results_file f[2];
    if (results_read_all((const char *const *)paths, f, 2, err, sizeof err) != 0) {   /* at once */
        fprintf(c->err, "mmladder: %s\n", err);
        return EXIT_INPUT;
    }
    for (int k = 0; k < 2; k++) {
        cli_warn_about(c, paths[k], &f[k], anyway);
        derive_upgrade(&f[k]);
    }
    for (int k = 0; k < 2; k++)
        if (!f[k].complete && !anyway) {
            cli_say_incomplete(c, paths[k], &f[k]);
            results_file_free(&f[0]);
            results_file_free(&f[1]);
            return EXIT_PARTIAL;
        }
    /* Tolerances are per GPU model: two models' runs are reported, not judged. */
    char gpu[2][128] = {"", ""};
    for (int k = 0; k < 2; k++) {
        const char *name = results_attr_value(&f[k], "gpu_name");
        snprintf(gpu[k], sizeof gpu[k], "%s", name ? name : "");
    }
    const int across = gpu[0][0] && gpu[1][0] && strcmp(gpu[0], gpu[1]) != 0;
    if (across)
        fprintf(c->err, "mmladder compare: %s ran on '%s' and %s on '%s': two GPU models; their "
                        "pairs are reported, not held to a tolerance\n", paths[0], gpu[0],
                paths[1], gpu[1]);
    size_t compared = 0, host = 0;
    size_t outside = report_compare(c->out, &f[0], &f[1], tol, across, tsv, &compared, &host);
    if (!tsv) {
        fprintf(c->out, "\n");
        if (compared)
            fprintf(c->out, "%zu of %zu GPU (rung, shape) pairs within %.0f%% of the reference\n",
                    compared - outside, compared, tol * 100);
        if (across)
            fprintf(c->out, "%zu (rung, shape) pairs of two GPU models ('%s' against '%s') "
                    "reported, not held to a tolerance\n", host, gpu[0], gpu[1]);
        else if (host)
            fprintf(c->out, "%zu host (rung, shape) pairs reported, not held to a tolerance (one "
                    "CPU core's timings differ between machines and runs)\n", host);
    }
    results_file_free(&f[0]);
    results_file_free(&f[1]);
    if (!compared && !host) {
        fprintf(c->err, "mmladder compare: no passed (rung, shape) in common\n");
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_table(const struct cli *c, int argc, char **argv)
{
    if (argc < 3) {
        fprintf(c->err, "mmladder table: no view given (expected one of: %s)\n", DERIVE_VIEWS);
        cli_usage(c->err);
        return EXIT_INPUT;
    }
    const char *view = argv[2], *n_arg = NULL;
    int first = 3, anyway = 0, markdown = 0;
    while (argc > first && argv[first][0] == '-') {
        if (allow_incomplete(argv[first])) anyway = 1, first++;
        else if (!strcmp(argv[first], "--markdown")) markdown = 1, first++;
        else if (!strcmp(argv[first], "--n") && argc > first + 1) {
            n_arg = argv[first + 1];
            char *end;
            long n = strtol(n_arg, &end, 10);
            if (*end || n < 1 || n > 1000000) {
                fprintf(c->err, "mmladder table: --n '%s' (expected a square size, e.g. 4096)\n",
                        n_arg);
                return EXIT_INPUT;
            }
            first += 2;
        } else break;
    }
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(c->err, "mmladder table: unknown option '%s'\n", argv[i]);
            cli_usage(c->err);
            return EXIT_INPUT;
        }
    if (markdown && strcmp(view, "runs")) {
        fprintf(c->err, "mmladder table: --markdown is the runs view's alone (given '%s')\n", view);
        return EXIT_INPUT;
    }
    struct run *runs = calloc(CLI_MAX_RUNS, sizeof *runs);
    if (!runs) {
        fprintf(c->err, "mmladder table: out of memory\n");
        return EXIT_INPUT;
    }
    int n = cli_open_runs(c, argc, argv, first, runs, CLI_MAX_RUNS, anyway ? 0 : CLI_WHOLE_RUNS);
    if (n < 0) {
        free(runs);
        return n == -2 ? EXIT_PARTIAL : EXIT_INPUT;
    }
    char err[512];
    int rc = 0;
    if (markdown && n > 0) derive_runs_markdown(c->out, runs, (size_t)n);
    else rc = derive_table(c->out, view, runs, (size_t)n, n_arg, err, sizeof err);
    if (rc != 0) fprintf(c->err, "mmladder table: %s\n", err);
    for (int i = 0; i < n; i++) derive_close(&runs[i]);
    free(runs);
    return rc ? EXIT_INPUT : EXIT_OK;
}
