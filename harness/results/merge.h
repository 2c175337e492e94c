/* Merge: the shards of one plan (shard.h), each run into a file of its own,
 * put together into one results file that every reader takes like any run.
 *
 * Every shard is read and checked as every reader checks a file (trust.h); a
 * damaged one is refused, and so is a merged file given as a shard.  Shards
 * belong together when they have the same plan (plan_hash, plan_points), cut
 * the same way (shards, host_shard), by the same code (schema_version,
 * git_commit, git_dirty), of the same experiment (experiment_text); a shard
 * given twice, or a point two shards hold, is refused too.  Some differences
 * change what a number means: how the code was built (cflags,
 * host_kernel_cflags, nvccflags, cc_version, nvcc_version, gpu_targets), the
 * CUDA runtime (and so cuBLAS), the GPU model (gpu_name: tolerances are per
 * model), the CPU of host points (cpu_model, among the shards that hold host
 * points).  Shards that differ in one of those are refused unless the caller
 * allows that attribute to be mixed.  A refusal writes nothing.
 *
 * The merged file has the rows in plan order, each with its samples.  What
 * each shard says of itself (its host, GPU, Slurm task, pid, command line,
 * times and counts), and any attribute in which the shards differ, is kept per
 * shard as `shardK_NAME` (a Slurm task's ids there alone).  At the root: an
 * attribute the shards agree on, once; the hosts and GPUs of all, joined; an
 * attribute in which they differ, as text "shard 0: V0; shard 1: V1; ..." (a
 * number: the lowest shard's), its name in `merge_differs` (comma-separated,
 * "" when they agree on all); `planned_points` the whole plan's,
 * `wall_time_s` the longest shard's (they run side by side), `merge_host` and
 * `merge_pid` the merge's own.  It is complete when it holds every point of the
 * plan and every shard said it was complete; else it is written marked
 * incomplete, `merge_missing` saying how many points it holds, the shards
 * missing and those cut short, never silently short.
 *
 * The file is written under a work name and takes its name only when whole
 * (outname.h): an interrupted or failed merge leaves nothing under the name
 * and removes its own work file; of two merges to one name, one takes it and
 * the other is told. */
#ifndef HARNESS_MERGE_H
#define HARNESS_MERGE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

enum merge_outcome {
    MERGE_REFUSED = -1,      /* nothing written; err says why */
    MERGE_COMPLETE = 0,
    MERGE_INCOMPLETE = 1,    /* written, marked incomplete; err says what is missing */
    MERGE_TAKEN = 2,         /* another process took the name first; nothing of this kept */
    MERGE_INTERRUPTED = 3,   /* *interrupted was set; nothing written */
};

struct merge_options {
    FILE *log;                           /* what it did */
    int argc;                            /* recorded as the merge's command line */
    char **argv;
    const char *allow_mixed;             /* attributes that may differ (comma-separated),
                                            of those named above; NULL: none */
    volatile sig_atomic_t *interrupted;  /* set asynchronously: stop, write nothing */
};

/* The attributes that allow_mixed may name, comma-separated. */
extern const char MERGE_MIXABLE[];
/* Does the comma-separated list name one that is not among them?  1 with it
 * in name ("" for an empty one), else 0. */
int merge_unmixable(const char *list, char *name, size_t len);

/* Merge the n shard files into `out` (never overwritten).  Returns the
 * outcome, with err saying why where it is not MERGE_COMPLETE. */
enum merge_outcome merge_shards(const char *out, char *const *paths, size_t n,
                                const struct merge_options *o, char *err, size_t errlen);

#endif
