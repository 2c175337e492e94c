/* The runner: for each point of a plan, run -> verify -> measure -> record.
 * It owns the loop and nothing else: kernels come from the registry, device work
 * from gpu.h, judgement from verify.h, the rule from measure.h, storage from
 * results.h, text from report.h. */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include <signal.h>
#include <stdio.h>

#include "experiment.h"
#include "gpu.h"
#include "plan.h"

struct run_options {
    const char *out_path;                /* results file to create (must not exist) */
    FILE *log;                           /* progress and summary */
    volatile sig_atomic_t *interrupted;  /* set asynchronously (SIGINT/SIGTERM) */
    int argc;                            /* recorded as provenance */
    char **argv;
};

struct run_summary {
    size_t recorded, planned;
    size_t passed, incorrect, skipped, failed, skipped_env;
    int interrupted;
    double wall_s;
};

/* Check the plan against this machine before anything is written: every GPU
 * shape must fit in free device memory.  Returns -1 with "needed vs free". */
int runner_preflight(const struct plan *p, struct gpu *g, const struct gpu_info *gi, char *err,
                     size_t errlen);

/* The check itself, given the free and total device memory and the L2 size (no
 * device needed): -1 for the first runnable GPU shape that does not fit, with
 * "shape MxNxK needs X GiB (B bytes) of device memory, Y GiB (F bytes) free of
 * Z GiB (nothing was run)". */
int runner_check_memory(const struct plan *p, size_t free_b, size_t total_b, long long l2_bytes,
                        char *err, size_t errlen);

/* Run the plan into a new results file.  Returns -1 only when the run could not
 * proceed (file not creatable, write failure); point outcomes are in *s. */
int runner_run(const struct experiment *e, const struct plan *p, struct gpu *g,
               const struct gpu_info *gi, const char *gpu_why, const struct run_options *o,
               struct run_summary *s, char *err, size_t errlen);

#endif
