/* Experiment files: the declared matrix, parsed from INI (inih) into axes.
 *
 *   [experiment]              required, once
 *   name        = paper       [A-Za-z0-9_-]+, names the results file
 *   description = free text
 *   seed        = 20261122    unsigned 64-bit; inputs are derived from it
 *
 *   [sampling]                optional; overrides the defaults of core/sampling.h
 *   gpu_min_samples, gpu_max_samples, gpu_min_time_ms, gpu_timeout_ms,
 *   host_min_samples, host_max_samples, host_min_time_ms, host_timeout_ms,
 *   host_long_point_ms, target_rel_stddev        (samples: 1 to EXP_MAX_SAMPLES)
 *   gpu_min_sample_ms, gpu_capped_sample_ms, gpu_shape_warmup_ms,
 *   gpu_warmup_min_ms, gpu_warmup_max_ms, gpu_warmup_window_ms,
 *   gpu_parity_timeout_ms     (the GPU's timing method, core/sampling.h)
 *   host_point_budget_s = 60  a host point whose estimated time (plan.h) exceeds
 *                             it is recorded as skipped with that reason, unless
 *                             `mmladder run --host-budget S` or `--no-budget`
 *
 *   [any-other-name]          a sweep: the product of its axes
 *   variants   = gpu_tiled cublas_fp32     names from the registry (required)
 *   sizes      = 128 256                   square shapes n x n x n
 *   shapes     = 1000x1500x700             explicit MxNxK (sizes and/or shapes required);
 *                                          A (MxK), B (KxN) and C (MxN) of at most
 *                                          INT_MAX elements each
 *   tiles      = 8 16 32                   used by rungs with a tile width
 *   wpts       = 1 2 4                     used by rungs with work per thread
 *   configs    = all                       instead of tiles and wpts: every
 *                                          configuration each rung declares
 *   splits     = 0 4 16                    used by rungs that divide K among blocks:
 *                                          parts of K per tile of C, 0 for the rung's
 *                                          own rule (kernels/rung_config.h)
 *   opt_levels = 1 2 3                     used by host rungs
 *   host_memory = pinned pageable          GPU rungs: also copy A, B in and C out
 *                                          through such host memory in every sample
 *   pairing    = abba                      GPU rungs with a reference (cuBLAS): sampled
 *                                          alternately with it, A B B A (the default),
 *                                          or `none`: alone, as a standalone row
 *   corpus     = loguniform 200            shapes the plan adds (corpus.h) to any sizes
 *                                          and shapes: how many drawn, or
 *                llama3 tuning             Llama 3 layers' shapes, or DeepBench's
 *                                          GEMM sizes (deepbench), all or one half
 *   corpus_seed = 7                        the seed (required): draws, or the halves
 *   corpus_range = 1 16384                 each of M, N, K in this range (default
 *                                          1 16384; llama3, deepbench: every size)
 *   corpus_flops = 1e6 1e12                2MNK in this window (default: any)
 *
 * The file is UTF-8 text: no NUL, no control characters but tab (and CR before
 * the newline: CRLF line ends are fine).
 * Values are whitespace-separated lists; ';' starts a comment.  This stage checks
 * syntax only (integers, shapes, known keys, required keys, no repeats); whether
 * a variant exists or a tile fits is the plan's business, which reports it with
 * the file:line kept here.
 *
 * The parser is the .c files of harness/experiment/ (experiment_parser.h lists its pieces). */
#ifndef HARNESS_EXPERIMENT_H
#define HARNESS_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define EXP_MAX_SAMPLES 1000000   /* *_min_samples, *_max_samples: samples of one point */
#define EXP_MAX_LIST 64
#define EXP_MAX_SWEEPS 32
#define EXP_NAME_LEN 64
#define EXP_DEFAULT_HOST_POINT_BUDGET_S 60.0

struct int_axis {
    int n;                      /* 0: key absent */
    int v[EXP_MAX_LIST];
    int line;                   /* where the key was given; 0 if absent */
};

struct shape_entry {
    int M, N, K;
    int line;
};

struct sweep {
    char name[EXP_NAME_LEN];
    int line;                               /* line of the [section] header */
    int n_variants;
    char variants[EXP_MAX_LIST][EXP_NAME_LEN];
    int variants_line;
    int n_shapes;                           /* sizes and shapes, in file order */
    struct shape_entry shapes[EXP_MAX_LIST];
    struct int_axis tiles, wpts, opt_levels, splits;
    int all_configs;                        /* line of `configs = all`; 0 if absent */
    struct int_axis host_memory;            /* HOST_MEMORY_* values */
    int unpaired;                           /* pairing = none: rungs sampled alone */
    int pairing_line;                       /* where `pairing` was given; 0 if absent */
    struct corpus_spec corpus;              /* shapes drawn by the plan (kind 0: none) */
};

/* Where a transfer point's host buffers live (0: no transfers, inputs resident). */
enum { HOST_MEMORY_NONE = 0, HOST_MEMORY_PINNED = 1, HOST_MEMORY_PAGEABLE = 2 };
const char *host_memory_name(int kind);   /* "pinned", "pageable" or "" */

struct experiment {
    char path[512];
    char name[EXP_NAME_LEN];
    char description[256];
    uint64_t seed;
    char *text;                 /* the file verbatim (recorded with the results) */
    size_t text_len;
    struct sampling_rule gpu_rule, host_rule;
    double host_point_budget_s;  /* [sampling] host_point_budget_s, or the default */
    int kernel_timer;            /* [sampling] kernel_timer = cupti: the second timer on */
    int n_sweeps;
    struct sweep sweeps[EXP_MAX_SWEEPS];
};

/* Parse `path` into *e (zeroed first).  Returns 0, or -1 with a message in err
 * of the form "FILE:LINE: KEY: 'VALUE' WHAT-WAS-WRONG (expected WHAT)". */
int experiment_load(const char *path, struct experiment *e, char *err, size_t errlen);

/* The same from a string already in memory; `path` is used in messages only. */
int experiment_parse(const char *path, const char *text, struct experiment *e, char *err,
                     size_t errlen);

void experiment_free(struct experiment *e);

#endif
