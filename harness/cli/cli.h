/* The command line: `mmladder COMMAND ARGS` as a function, so that it can be
 * called in-process (main.c, the fuzz target tests/fuzz/fuzz_cli.c).
 *
 * cli.c holds the dispatch, usage.c the usage, common.c what the commands
 * share (none of them calls back into cli.c); each cmd_*.c holds a group of
 * commands: cmd_run.c runs an experiment, cmd_plan.c
 * lists and plans one (and says which GPU is here), cmd_pick.c says what a
 * dispatch row picks at a shape, cmd_read.c reads results
 * files (info, export, compare, table), cmd_claims.c checks the claims and
 * answers the paper's values.  A command prints to c->out and c->err, never
 * exits, and returns its exit status. */
#ifndef CLI_H
#define CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

struct experiment;
struct gpu;
struct gpu_info;
struct plan;
struct results_file;
struct run;

enum exit_code {
    EXIT_OK = 0,
    EXIT_INPUT = 1,        /* bad command line, experiment file or output; I/O error */
    EXIT_WRONG = 2,        /* a point was incorrect or failed */
    EXIT_UNAVAILABLE = 3,  /* points could not run on this machine (e.g. no GPU) */
    EXIT_PARTIAL = 4,      /* merge: written, marked incomplete (shards missing or cut short) */
    EXIT_INTERRUPTED = 130,
    EXIT_PIPE = 141,       /* standard output's reader stopped reading (128 + SIGPIPE) */
};

/* What every command is given besides its arguments. */
struct cli {
    FILE *out, *err;                     /* standard output and error, or stand-ins */
    /* Set (asynchronously) once SIGINT or SIGTERM came; never NULL. */
    volatile sig_atomic_t *interrupted;
    /* run calls it before anything else, merge before it writes: from then on
     * an interrupt sets *interrupted instead of ending the process (a run's
     * work file keeps every point recorded; a merge removes its own).  NULL:
     * the signals are left as they are. */
    void (*catch_interrupts)(void);
};

/* The command argv[1] with its arguments; then, if c->out has failed (a closed
 * pipe, a full disk), says so and makes a success exit 1.  Returns the exit
 * status (enum exit_code). */
int cli_main(const struct cli *c, int argc, char **argv);

/* ---- shared by the commands (common.c; cli_usage: usage.c) ------------------ */
/* The usage text, on out. */
void cli_usage(FILE *out);

/* The runs a derived command (table, claims, values) takes: the paper matrix,
 * shape suite, transfers, portability run and reproductions of two GPUs. */
#define CLI_MAX_RUNS 24

/* An option's value: argv[*i + 1] (*i advanced), or NULL with a message. */
const char *cli_option_value(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                             const char *expect);
/* A GPU's name as results files' names carry it: "NVIDIA H100 80GB HBM3" as
 * "h100-80gb-hbm3" (letters and digits, lower case, '-' between words). */
void cli_gpu_slug(char *out, size_t len, const char *name);
/* Is path free for a new results file (no file there, no live writer of it
 * on this machine)?  0, or -1 after saying on c->err, as "mmladder WHAT: ...",
 * which process holds it. */
int cli_name_free(const struct cli *c, const char *what, const char *path);
/* Which process made the file at path (when it holds a name another process
 * wanted): its pid, host, date and command line, or what it is instead. */
void cli_say_holder(const struct cli *c, const char *path);
/* What a reader of a results file should know before trusting what it shows:
 * that it is damaged, what was recovered, and with incomplete_too that it is
 * incomplete (a reader that refuses it says so instead). */
void cli_warn_about(const struct cli *c, const char *path, const struct results_file *f,
                    int incomplete_too);
/* A reader of an incomplete file (the readers' exit status EXIT_PARTIAL, unless
 * --allow-incomplete): says so on c->err, with what reads it anyway. */
#define CLI_READ_ANYWAY "--allow-incomplete reads it as it is"
void cli_say_incomplete(const struct cli *c, const char *path, const struct results_file *f);
/* "ROLE=PATH" or "PATH" (role "runK"): the runs argv[first..argc) of a derived
 * command, each incomplete or damaged one said on c->err; with strict 1 such a
 * run is refused, with strict 2 (claims --partial) left out, with strict
 * CLI_WHOLE_RUNS an incomplete one refused (cli_say_incomplete).  Returns how
 * many were opened, or -1 (after a message; -2 when it was for an incomplete
 * run). */
#define CLI_WHOLE_RUNS 3
int cli_open_runs(const struct cli *c, int argc, char **argv, int first, struct run *runs,
                  size_t max, int strict);

/* ---- what run shares with plan (cmd_plan.c) ---------------------------------- */
/* The host time budget the command line asks for. */
struct budget_opt {
    int given;          /* 0: the file's; 1: --host-budget S; 2: --no-budget */
    double s;
    const char *arg;    /* the first budget option given, for messages */
};

/* --shard K/N and --host-shard K (run, plan): which part of the plan (shard.h). */
struct shard_opt {
    int k, n;           /* n 0: the whole plan */
    int host_shard;     /* -1: host points balanced over the shards like the rest */
    const char *arg;    /* --shard's value, for messages */
};
#define SHARD_OPT_NONE {0, 0, -1, NULL}

/* Is argv[*i] a shard option?  1: taken (with its value, *i advanced), 0: not
 * one, -1: refused (message printed). */
int cli_shard_arg(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                  struct shard_opt *s);
/* Once every argument is read: --host-shard without --shard, or beyond it.  0,
 * or -1 after a message. */
int cli_shard_check(const struct cli *c, const char *cmd, const struct shard_opt *s);

/* Is argv[*i] a budget option?  1: taken (with its value, *i advanced), 0: not
 * one, -1: refused (message printed). */
int cli_budget_arg(const struct cli *c, const char *cmd, int argc, char **argv, int *i,
                   struct budget_opt *b);
double cli_budget_of(const struct budget_opt *b, const struct experiment *e);
/* Load the experiment file at path; -1 after a message. */
int cli_load(const struct cli *c, const char *path, struct experiment *e);
/* Open the GPU if there is one; never fatal here (the plan records why not). */
struct gpu *cli_open_gpu(struct gpu_info *gi, char *why, size_t whylen);
/* Expand the plan, keep the shard sh asks for (NULL: the whole plan), skip what
 * the GPU gi (NULL: none opened) cannot run, and apply the host budget; *over
 * gets the points the budget skipped. */
int cli_plan(const struct cli *c, const struct experiment *e, int gpu_ok, const char *why,
             const struct gpu_info *gi, double budget_s, const struct shard_opt *sh,
             struct plan *p, size_t *over);
void cli_say_unavailable(FILE *out, const struct plan *p);
void cli_say_over_budget(const struct cli *c, size_t over, double budget_s);

/* ---- the commands: each returns its exit status ------------------------------- */
int cmd_run(const struct cli *c, int argc, char **argv);                   /* cmd_run.c */
int cmd_list_or_plan(const struct cli *c, int argc, char **argv, int dry_run);  /* cmd_plan.c */
int cmd_device(const struct cli *c, int argc, char **argv);
int cmd_pick(const struct cli *c, int argc, char **argv);                  /* cmd_pick.c */
int cmd_info(const struct cli *c, int argc, char **argv);                  /* cmd_read.c */
int cmd_export(const struct cli *c, int argc, char **argv);
int cmd_compare(const struct cli *c, int argc, char **argv);
int cmd_table(const struct cli *c, int argc, char **argv);
int cmd_claims(const struct cli *c, int argc, char **argv);                /* cmd_claims.c */
int cmd_values(const struct cli *c, int argc, char **argv);
int cmd_merge(const struct cli *c, int argc, char **argv);                 /* cmd_merge.c */

#endif
