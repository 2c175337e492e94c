/* mmladder's command line as a function (cli.h): the usage, the dispatch to
 * the commands (cmd_*.c), what they share, and the check of what reached
 * standard output. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "views/views.h"
#include "results/results.h"

/* The usage text, in parts: C11 compilers need take no string literal longer
 * than 4095 characters. */
static const char *const USAGE[] = {
    "usage: mmladder COMMAND [ARGS]\n"
    "\n"
    "The matrix-multiplication ladder: run a declared experiment, every point verified\n"
    "against float64, into a new self-describing HDF5 file.\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.ini [-o FILE.h5 | -d DIR] [--host-budget S | --no-budget] [--kernel-timer]\n"
    "      [--shard K/N [--host-shard K]]\n"
    "        run every point; write FILE.h5 (default DIR/NAME-GPU-UTCSTAMP.h5, DIR = data)\n"
    "        never overwrites; each point is flushed to disk as soon as it is recorded.\n"
    "        A host point whose estimated time (see plan) exceeds the host budget is\n"
    "        recorded as skipped with that reason: the budget is the file's [sampling]\n"
    "        host_point_budget_s (default 60 s); --host-budget S sets it to S seconds,\n"
    "        --no-budget runs every host point; --kernel-timer times every GPU sample's\n"
    "        kernels by their CUPTI records too, as [sampling] kernel_timer = cupti does;\n"
    "        --shard K/N runs part K (0..N-1) of the plan cut into N (--host-shard K:\n"
    "        every host point in part K), into NAME-GPU-UTCSTAMP-shardK-of-N.h5\n"
    "  list [--markdown | EXPERIMENT.ini [--host-budget S | --no-budget]]\n"
    "        the variants (rungs) in ladder order (--markdown: as the README's table), or\n"
    "        the points a file expands to\n"
    "  plan EXPERIMENT.ini [--host-budget S | --no-budget] [--shard K/N [--host-shard K]]\n"
    "        dry run: the points (numbered as in the whole plan), skip reasons and an\n"
    "        estimated time; runs nothing\n"
    "  info FILE.h5 [--allow-incomplete]\n"
    "        provenance attributes, counts and the summary table of a results file\n"
    "  export FILE.h5 [--csv] [--passed | --samples | --attrs] [--allow-incomplete]\n"
    "        rows of /results, of /samples, or the root attributes, as TSV (default)\n"
    "        or CSV on stdout; --passed keeps verified rows only\n"
    "  compare NEW.h5 REFERENCE.h5 [--tolerance 0.10] [--tsv] [--allow-incomplete]\n"
    "        per rung and shape: best GFLOP/s in each file, the ratio, and whether it\n"
    "        is within the tolerance (exit 0 either way; 1 if nothing matched)\n",
    "  table VIEW [--n N] [--allow-incomplete] [ROLE=]FILE.h5 ...\n"
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
    "  claims CLAIMS.ini [--markdown | --text ID,...] [--partial] [--mine FILE.h5]\n"
    "         ROLE=FILE.h5 ...\n"
    "        every claim of the file checked against the runs: measured, expected,\n"
    "        verdict (exit 1 if one fails, or if one names a run not given, unless\n"
    "        --partial); --mine: those a reviewer's run can check, on it (a claim about\n"
    "        the reference machines' CPUs is reported, never failed); --text: the\n"
    "        named claims' sentences only (exit 1 unless each passes)\n"
    "  values --claims CLAIMS.ini --out VALUES.tex --tables DIR ROLE=FILE.h5 ... --\n"
    "         PAPER.tex ...\n"
    "        every \\val{KEY} and \\valtable{NAME} of the paper answered from the runs\n"
    "        (harness/values.h lists the keys); a key it cannot answer is an error\n"
    "  merge [--allow-mixed NAME[,NAME...]] OUT.h5 SHARD.h5 ...\n"
    "        one file from the shards of a plan; refuses shards that do not belong\n"
    "        together, or that differ in how their numbers were made (build, CUDA,\n"
    "        GPU model, CPU of host points) unless --allow-mixed names it; with\n"
    "        shards missing, writes OUT.h5 marked incomplete (exit 4)\n"
    "  device [--file-name]\n"
    "        the GPU this binary would use, or why there is none (exit 3); --file-name:\n"
    "        its name as results files carry it (h100-80gb-hbm3)\n"
    "\n"
    "A file takes its name only when its run or merge has ended (an interrupted run's\n"
    "points stay in NAME.HOST.PID.part); a reader of an incomplete file exits 4\n"
    "unless given --allow-incomplete.\n"
    "\n"
    "exit status: 0 all points passed (or were skipped by design); 1 bad input or I/O\n"
    "error; 2 some point incorrect or failed; 3 some points could not run on this\n"
    "machine (no GPU); 4 merged, or read, but incomplete; 130 interrupted (a run's\n"
    "work file keeps every completed point); 141 standard output closed by its reader.\n"};

void cli_usage(FILE *out)
{
    for (size_t i = 0; i < sizeof USAGE / sizeof USAGE[0]; i++) fputs(USAGE[i], out);
}


const char *cli_option_value(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                             const char *expect)
{
    if (*i + 1 >= argc) {
        fprintf(c->err, "mmladder %s: '%s' needs a value (expected %s %s)\n", cmd, argv[*i],
                argv[*i], expect);
        return NULL;
    }
    return argv[++*i];
}

void cli_warn_about(const struct cli *c, const char *path, const struct results_file *f,
                    int incomplete_too)
{
    if (f->damaged)
        fprintf(c->err, "mmladder: warning: %s is DAMAGED: %zu rows or samples not believed "
                        "or lost (see below)\n", path, f->damaged);
    if (!f->complete && incomplete_too)
        fprintf(c->err, "mmladder: warning: %s is incomplete (it holds fewer rows than its "
                        "plan)\n", path);
    if (f->notes[0]) fprintf(c->err, "mmladder: warning: %s: %s\n", path, f->notes);
}

void cli_gpu_slug(char *out, size_t len, const char *name)
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

/* The attributes that say who made a file. */
struct holder {
    char host[256], pid[32], when[64], cmd[512], merged[64];
};

static void take_holder(const char *name, const char *value, void *ctx)
{
    struct holder *h = ctx;
    if (!strcmp(name, "hostname") && !h->host[0]) snprintf(h->host, sizeof h->host, "%s", value);
    else if (!strcmp(name, "merge_host")) snprintf(h->host, sizeof h->host, "%s", value);
    else if (!strcmp(name, "pid") || !strcmp(name, "merge_pid")) snprintf(h->pid, sizeof h->pid, "%s", value);
    else if (!strcmp(name, "created_utc")) snprintf(h->when, sizeof h->when, "%s", value);
    else if (!strcmp(name, "merged_utc")) snprintf(h->merged, sizeof h->merged, "%s", value);
    else if (!strcmp(name, "command_line")) snprintf(h->cmd, sizeof h->cmd, "%s", value);
}

void cli_say_holder(const struct cli *c, const char *path)
{
    struct holder h = {"", "", "", "", ""};
    char err[PATH_MAX + 512];
    if (results_visit_attrs(path, take_holder, &h, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s is there, and is not a results file this reader takes (%s)\n",
                path, err);
        return;
    }
    fprintf(c->err, "mmladder: %s holds the file of %s%s%s%s, %s %s: %s\n", path,
            h.pid[0] ? "pid " : "a process", h.pid, h.host[0] ? " on host " : "", h.host,
            h.merged[0] ? "merged" : "begun", h.merged[0] ? h.merged : h.when[0] ? h.when : "(no date)",
            h.cmd[0] ? h.cmd : "(no command line recorded)");
}

int cli_name_free(const struct cli *c, const char *what, const char *path)
{
    struct stat st;
    char who[PATH_MAX + 64];
    if (lstat(path, &st) == 0) {
        fprintf(c->err, "mmladder %s: already exists (results files are never overwritten; "
                        "nothing was written: name a new file)\n", what);
        cli_say_holder(c, path);
        return -1;
    }
    if (outname_writer(path, who, sizeof who)) {
        fprintf(c->err, "mmladder %s: being written by %s on this machine (results files are "
                        "never overwritten; nothing was written: wait for it, or name a new "
                        "file)\n", what, who);
        return -1;
    }
    return 0;
}

void cli_say_incomplete(const struct cli *c, const char *path, const struct results_file *f)
{
    char planned[32] = "?";
    if (f->planned >= 0) snprintf(planned, sizeof planned, "%lld", f->planned);
    fprintf(c->err, "mmladder: %s is incomplete: it holds %zu of its plan's %s points (a run "
                    "that did not end, or a merge with shards missing); %s\n", path, f->n_rows,
            planned, CLI_READ_ANYWAY);
}

int cli_open_runs(const struct cli *c, int argc, char **argv, int first, struct run *runs,
                  size_t max, int strict)
{
    /* ROLE=FILE (or FILE, as run1, run2, ...): every role and path first, then
     * the files, read at once */
    size_t n = 0;
    char(*role)[32] = calloc(max ? max : 1, sizeof *role);
    const char **roles = calloc(max ? max : 1, sizeof *roles), **paths = calloc(max ? max : 1, sizeof *paths);
    char err[PATH_MAX + 512];
    int rc = -1;
    if (!role || !roles || !paths) {
        fprintf(c->err, "mmladder: out of memory\n");
        goto done;
    }
    for (int i = first; i < argc; i++) {
        if (n == max) {
            fprintf(c->err, "mmladder: more than %zu results files\n", max);
            goto done;
        }
        const char *path = argv[i], *eq = strchr(argv[i], '=');
        if (eq && (size_t)(eq - argv[i]) < sizeof role[n] && eq > argv[i]) {
            snprintf(role[n], sizeof role[n], "%.*s", (int)(eq - argv[i]), argv[i]);
            path = eq + 1;
        } else {
            snprintf(role[n], sizeof role[n], "run%zu", n + 1);
        }
        if (!path[0]) {
            fprintf(c->err, "mmladder: '%s' names no file (expected ROLE=FILE.h5)\n", argv[i]);
            goto done;
        }
        for (size_t j = 0; j < n; j++)
            if (!strcmp(role[j], role[n])) {
                fprintf(c->err, "mmladder: role '%s' given twice (%s and %s; expected one file "
                                "a role)\n", role[n], paths[j], path);
                goto done;
            }
        roles[n] = role[n], paths[n] = path;
        n++;
    }
    if (derive_open_all(runs, roles, paths, n, err, sizeof err) != 0) {
        fprintf(c->err, "mmladder: %s\n", err);
        goto done;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const struct results_file *f = &runs[i].f;
        cli_warn_about(c, paths[i], f, strict == 0);   /* else said as it is refused */
        if (strict == CLI_WHOLE_RUNS && !f->complete) {
            cli_say_incomplete(c, paths[i], f);
            for (size_t j = 0; j < kept; j++) derive_close(&runs[j]);
            for (size_t j = i; j < n; j++) derive_close(&runs[j]);
            rc = -2;
            goto done;
        }
        if (strict && strict != CLI_WHOLE_RUNS && (f->damaged || !f->complete)) {
            fprintf(c->err, "mmladder: %s=%s is %s: nothing is stated from it%s\n", roles[i],
                    paths[i], f->damaged ? "damaged" : "incomplete",
                    strict == 2 ? "; left out" : " (--partial: leave it out)");
            if (strict != 2) {
                for (size_t j = 0; j < kept; j++) derive_close(&runs[j]);
                for (size_t j = i; j < n; j++) derive_close(&runs[j]);
                goto done;
            }
            derive_close(&runs[i]);
            continue;
        }
        if (kept != i) runs[kept] = runs[i];
        kept++;
    }
    rc = (int)kept;
done:
    free(role);
    free(roles);
    free(paths);
    return rc;
}

/* No command takes an empty argument: as a path it names nothing (or, as a
 * folder, the root: values --tables '' wrote its tables into /), and a message
 * about it could not show the value.  An unset shell variable gives one. */
static int refuse_empty(const struct cli *c, int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        if (argv[i][0]) continue;
        if (i > 2 && argv[i - 1][0] == '-' && strcmp(argv[i - 1], "--") != 0)
            fprintf(c->err, "mmladder %s: %s '' (expected a value, not an empty argument)\n",
                    argv[1], argv[i - 1]);
        else
            fprintf(c->err, "mmladder %s: argument %d is '' (expected a file or an option, not "
                            "an empty argument)\n", argv[1], i - 1);
        return -1;
    }
    return 0;
}

static int cmd_list(const struct cli *c, int argc, char **argv)
{
    return cmd_list_or_plan(c, argc, argv, 0);
}

static int cmd_plan(const struct cli *c, int argc, char **argv)
{
    return cmd_list_or_plan(c, argc, argv, 1);
}

static const struct {
    const char *name;
    int (*fn)(const struct cli *c, int argc, char **argv);
} COMMANDS[] = {
    {"run", cmd_run},       {"list", cmd_list},     {"plan", cmd_plan},     {"info", cmd_info},
    {"export", cmd_export}, {"compare", cmd_compare}, {"table", cmd_table}, {"claims", cmd_claims},
    {"values", cmd_values}, {"merge", cmd_merge},   {"device", cmd_device},
};

static int dispatch(const struct cli *c, int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "help")) {
        cli_usage(argc < 2 ? c->err : c->out);
        return argc < 2 ? EXIT_INPUT : EXIT_OK;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name))
            return refuse_empty(c, argc, argv) ? EXIT_INPUT : COMMANDS[i].fn(c, argc, argv);
    fprintf(c->err, "mmladder: unknown command '%s'\n", argv[1]);
    cli_usage(c->err);
    return EXIT_INPUT;
}

int cli_main(const struct cli *c, int argc, char **argv)
{
    int rc = dispatch(c, argc, argv);
    /* A failed write leaves its errno; a flush that has nothing left to write
     * sets none, so the one of the last failed write is kept. */
    const int earlier = errno;
    errno = 0;
    const int flushed = fflush(c->out);
    if (flushed != 0 || ferror(c->out)) {
        const int e = flushed != 0 && errno ? errno : earlier;
        /* The reader of a pipe stopped reading (`mmladder ... | head`): nothing
         * to say, and, as for a process that SIGPIPE ended, the status says it
         * was cut short (a run's own status stands: its file is whole). */
        if (e == EPIPE) {
            const int run = argc > 1 && !strcmp(argv[1], "run");
            return run || rc != EXIT_OK ? rc : EXIT_PIPE;
        }
        fprintf(c->err, "mmladder: writing to standard output failed: %s%s\n",
                e ? strerror(e) : "a write error",
                argc > 1 && !strcmp(argv[1], "run") ? " (the results file is not affected)" : "");
        if (rc == EXIT_OK || rc == EXIT_UNAVAILABLE) rc = EXIT_INPUT;
    }
    return rc;
}
