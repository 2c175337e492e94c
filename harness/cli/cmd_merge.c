/* mmladder merge: see cli.h and merge.h. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "results/results.h"

/* Every name of the comma-separated list is one merge may allow to differ:
 * 0, or -1 after a message. */
static int check_mixable(const struct cli *c, const char *list)
{
    char name[64];
    if (!merge_unmixable(list, name, sizeof name)) return 0;
    fprintf(c->err, "mmladder merge: --allow-mixed '%s': '%s' is not one of the attributes that "
                    "may differ (expected NAME[,NAME...] of: %s)\n", list, name, MERGE_MIXABLE);
    return -1;
}

int cmd_merge(const struct cli *c, int argc, char **argv)
{
    const char *mixed = NULL;
    char **files = calloc((size_t)argc, sizeof *files);
    int nf = 0, rc = EXIT_INPUT;
    if (!files) {
        fprintf(c->err, "mmladder merge: out of memory\n");
        return EXIT_INPUT;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--allow-mixed")) {
            if (!(mixed = cli_option_value(c, "merge", argc, argv, &i, "NAME[,NAME...]")) ||
                check_mixable(c, mixed) != 0)
                goto done;
        } else if (!strcmp(argv[i], "-")) {
            fprintf(c->err, "mmladder merge: '-': results files are named files, not standard "
                            "input or output (expected OUT.h5 SHARD.h5 ...)\n");
            goto done;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(c->err, "mmladder merge: unknown option '%s' (expected [--allow-mixed "
                            "NAME[,NAME...]] OUT.h5 SHARD.h5 ...)\n", argv[i]);
            goto done;
        } else {
            files[nf++] = argv[i];
        }
    }
    if (nf < 2) {
        fprintf(c->err, "mmladder merge: %s (expected OUT.h5 SHARD.h5 ...: the file to write, "
                        "then the shards' files)\n",
                nf < 1 ? "no output file given" : "no shard files given");
        goto done;
    }
    char what[PATH_MAX + 16];
    snprintf(what, sizeof what, "merge: %s", files[0]);
    if (cli_name_free(c, what, files[0]) != 0) goto done;
    /* An interrupt stops the merge between rows, leaving nothing behind. */
    if (c->catch_interrupts) c->catch_interrupts();
    char err[2 * PATH_MAX + 1024];
    const struct merge_options o = {.log = c->out, .argc = argc, .argv = argv,
                                    .allow_mixed = mixed, .interrupted = c->interrupted};
    const enum merge_outcome m = merge_shards(files[0], files + 1, (size_t)(nf - 1), &o, err,
                                              sizeof err);
    switch (m) {
    case MERGE_COMPLETE: rc = EXIT_OK; break;
    case MERGE_INCOMPLETE:
        fprintf(c->err, "mmladder merge: %s\n", err);
        rc = EXIT_PARTIAL;
        break;
    case MERGE_INTERRUPTED:
        fprintf(c->err, "mmladder merge: interrupted; nothing was written\n");
        rc = EXIT_INTERRUPTED;
        break;
    case MERGE_TAKEN:
        fprintf(c->err, "mmladder merge: %s\n", err);
        cli_say_holder(c, files[0]);
        break;
    case MERGE_REFUSED:
        fprintf(c->err, "mmladder merge: %s (nothing was written)\n", err);
        if (access(files[0], F_OK) == 0) cli_say_holder(c, files[0]);   /* made meanwhile */
        break;
    }
done:
    free(files);
    return rc;
}
