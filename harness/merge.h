/* Merge: the shards of one plan (shard.h), each run into a file of its own,
 * put together into one results file that every reader takes like any run.
 *
 * Every shard is read and checked as every reader checks a file (trust.h); a
 * damaged one is refused.  Shards belong together when they have the same
 * plan (plan_hash, plan_points), cut the same way (shards, host_shard), by the
 * same code (schema_version, git_commit, git_dirty), of the same experiment
 * (experiment_text), on the same GPU model (gpu_name: tolerances are per model,
 * so runs of two models are compared, never merged); a shard given twice, or a
 * point two shards hold, is refused too.  A refusal writes nothing.
 *
 * The merged file has the rows in plan order, each with its samples; the
 * attributes the shards share, once; what each shard says of itself (its host,
 * GPU, Slurm task, command line, times and counts) as `shardK_NAME` (a Slurm
 * task's ids there alone), and at the root the hosts and GPUs of all, joined; `planned_points` the whole plan's,
 * `wall_time_s` the longest shard's (they run side by side).  It is complete
 * when it holds every point of the plan and every shard said it was complete;
 * else it is written marked incomplete, `merge_missing` naming the shards
 * missing and those cut short, never silently short. */
#ifndef HARNESS_MERGE_H
#define HARNESS_MERGE_H

#include <stddef.h>
#include <stdio.h>

enum merge_outcome { MERGE_REFUSED = -1, MERGE_COMPLETE = 0, MERGE_INCOMPLETE = 1 };

/* Merge the n shard files into `out` (never overwritten), saying what it did on
 * log; argv is recorded as the merge's command line.  Returns the outcome; on
 * MERGE_REFUSED err says why and nothing was written; on MERGE_INCOMPLETE err
 * says what is missing. */
enum merge_outcome merge_shards(const char *out, char *const *paths, size_t n, FILE *log,
                                int argc, char **argv, char *err, size_t errlen);

#endif
