/* mmladder merge: see cli.h and merge.h. */
#include <stdio.h>

#include "cli.h"
#include "merge.h"

int cmd_merge(const struct cli *c, int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(c->err, "mmladder merge: unknown option '%s' (expected OUT.h5 SHARD.h5 ...)\n",
                    argv[i]);
            return EXIT_INPUT;
        }
    if (argc < 4) {
        fprintf(c->err, "mmladder merge: %s (expected OUT.h5 SHARD.h5 ...: the file to write, "
                        "then the shards' files)\n",
                argc < 3 ? "no output file given" : "no shard files given");
        return EXIT_INPUT;
    }
    char err[4096];
    const enum merge_outcome m = merge_shards(argv[2], argv + 3, (size_t)(argc - 3), c->out, argc,
                                              argv, err, sizeof err);
    if (m == MERGE_COMPLETE) return EXIT_OK;
    fprintf(c->err, "mmladder merge: %s%s\n", err,
            m == MERGE_REFUSED ? " (nothing was written)" : "");
    return m == MERGE_REFUSED ? EXIT_INPUT : EXIT_PARTIAL;
}
