/* The runner: for each point of a plan, run -> verify -> measure -> record.
 * It owns the loop and nothing else: kernels come from the registry, device work
 * from gpu.h, judgement from verify.h, the rule from core/sampling.h, storage from
 * results.h, text from report.h. */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include <signal.h>
#include <stdio.h>

#include "experiment/experiment.h"
#include "device/device.h"
#include "plan.h"

struct result_row;

struct run_options {
    const char *out_path;                /* results file to create (must not exist) */
    int unique_name;                     /* 1: a taken out_path gets a suffix (-2, -3, ...) */
    FILE *log;                           /* progress and summary */
    volatile sig_atomic_t *interrupted;  /* set asynchronously (SIGINT/SIGTERM) */
    int kernel_timer;                    /* 1: the second timer on, whatever the experiment says */
    int argc;                            /* recorded as provenance */
    char **argv;
    /* Prints the summary of the rows recorded, to the log, when the run ends
     * (the command sets it; NULL: none). */
    void (*summary)(FILE *log, const struct result_row *rows, size_t n);
};

struct run_summary {
    char path[4096];                     /* where the file the run wrote is: its final
                                            name, or its work name (outname.h) when
                                            the run did not end, or "" */
    char final[4096];                    /* the name it takes when the run ends */
    int taken;                           /* 1: another process took the final name */
    size_t recorded, planned;
    size_t passed, incorrect, skipped, failed, skipped_env;
    int interrupted;                     /* SIGINT or SIGTERM came */
    int abandoned;                       /* a job of the interrupted run still runs on
                                            the worker: the plan and the experiment
                                            must stay allocated until the process exits */
    int complete;                        /* every planned point recorded, file marked so */
    double wall_s;
};

/* Check the plan against this machine before anything is written: every shape
 * must fit in the host's memory, and every GPU shape in free device memory.
 * Returns -1 with "needed vs there". */
int runner_preflight(const struct plan *p, const char *exp_path, struct gpu *g,
                     const struct gpu_info *gi, char *err, size_t errlen);

/* The check itself, given the free and total device memory and the L2 size (no
 * device needed): -1 for the first runnable GPU shape that does not fit, with
 * "shape MxNxK needs X GiB (B bytes) of device memory, Y GiB (F bytes) free of
 * Z GiB (nothing was run)". */
int runner_check_memory(const struct plan *p, size_t free_b, size_t total_b, long long l2_bytes,
                        char *err, size_t errlen);

/* The host-memory check, given this machine's memory in bytes: -1 for the first
 * runnable point that needs more (A, B, C and the float64 reference for a host
 * point; A, B and the transfer buffers for a GPU point), with "FILE:LINE: shape
 * MxNxK needs X GiB of host memory (...), more than this machine's Y GiB". */
int runner_check_host_memory(const struct plan *p, const char *exp_path, double machine_bytes,
                             char *err, size_t errlen);

/* Run the plan into a new results file.  Returns -1 only when the run could not
 * proceed (file not creatable, write failure: the rows before are kept); point
 * outcomes are in *s.  An interrupt (*o->interrupted) is answered within
 * milliseconds at any stage of a point: that point is not recorded. */
int runner_run(const struct experiment *e, const struct plan *p, struct gpu *g,
               const struct gpu_info *gi, const char *gpu_why, const struct run_options *o,
               struct run_summary *s, char *err, size_t errlen);

#endif
