/* Shards: one plan split over processes (the GPUs of a host, the tasks of a
 * Slurm array), each run into a file of its own and merged (merge.h).
 *
 * Every shard expands the whole plan and keeps its own part, so that shards
 * started anywhere agree without talking to each other.  The part is
 * deterministic and balanced: points go in groups of one sweep's shape (their
 * inputs are made once), each group weighted by the plan's own estimate (its
 * points and its shape's inputs); the heaviest groups first, each to the shard
 * with the least work so far (ties: the lower shard).  GPU and host groups are
 * balanced apart, since a run's host points go on a thread of their own beside
 * its GPU points; with host_shard >= 0 every host point goes to that shard (one
 * process per GPU on one host: host points would share its CPUs).  Weights
 * count points skipped for want of this machine as runnable and those skipped
 * by design as nothing, so a shard on a machine without a GPU cuts the plan as
 * one with a GPU does. */
#ifndef HARNESS_SHARD_H
#define HARNESS_SHARD_H

#include <stddef.h>

#include "experiment/experiment.h"
#include "plan.h"

/* "K/N" (0 <= K < N <= SHARD_MAX) into *k, *n: 0, or -1 with why. */
#define SHARD_MAX 1024
int shard_parse(const char *text, int *k, int *n, char *why, size_t whylen);

/* Which shard (0..n-1) each of the plan's points belongs to, into owner[p->n]:
 * 0, or -1 when out of memory. */
int shard_assign(const struct plan *p, const struct experiment *e, int n, int host_shard,
                 int *owner);

/* Keep only shard k of n of the plan (points keep their `index` in the whole
 * plan; p->whole, p->shard and p->shards say what it was cut from): 0, or -1
 * with why. */
int shard_keep(struct plan *p, const struct experiment *e, int k, int n, int host_shard,
               char *why, size_t whylen);

#endif
