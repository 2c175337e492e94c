/* mmladder's command line as a function (cli.h): the dispatch to the commands
 * (cmd_*.c) and the check of what reached standard output.  What the commands
 * share is common.c's; the usage text is usage.c's. */
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
    {"values", cmd_values}, {"merge", cmd_merge},   {"device", cmd_device}, {"pick", cmd_pick},
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
