/* The variant registry: every rung of the ladder by name, in ladder order, with
 * everything that lists rungs reads: what it is, its precision and the line it
 * is measured against, its configurations (declared in its kernel file), and
 * its colour and point type in every figure.  A new rung is one file under
 * kernels/ plus one line in registry.c. */
#ifndef HARNESS_REGISTRY_H
#define HARNESS_REGISTRY_H

#include <stddef.h>

#include "matmul.h"
#include "rung_config.h"
#include "verify.h"

enum device { DEV_HOST = 0, DEV_GPU };

/* Which axes of a sweep a variant uses; the others collapse to 0. */
enum { AXIS_TILE = 1u << 0, AXIS_WPT = 1u << 1, AXIS_OPT = 1u << 2, AXIS_SPLIT = 1u << 3 };

struct variant {
    const char *name;            /* as written in experiment files, e.g. gpu_tiled */
    const char *seed_name;       /* the seeds' name, e.g. gputiled<TS> */
    enum device device;
    enum precision precision;    /* FP32, or TF32 for tensor-core rows */
    const char *reference;       /* the rung its rows are a percentage of (cuBLAS of the
                                    same precision); NULL for host rungs and references */
    const char *colour;          /* "#RRGGBB", in every figure */
    int point;                   /* gnuplot point type (filled; open is one less) */
    const char *adds;            /* what this rung adds over the previous one */
    const struct rung_config *configs;   /* GPU rungs; NULL for host rungs */
    int tiled;                   /* 1: A and B pass through shared memory one block tile
                                    at a time (the global-load model of derive.h) */
    host_matmul_fn host[4];      /* by optimisation level; NULL where not built */
    gpu_launch_fn gpu;           /* NULL in builds without CUDA */
    double nominal_gflops;       /* order of magnitude, for dry-run estimates only */
    int min_cc;                  /* GPU rungs: the lowest compute capability, major * 10 +
                                    minor (80: cp.async, TF32 mma.sync); 0: any */
    int only_cc;                 /* 1: that compute capability alone (a kernel built for
                                    sm_90a: wgmma, TMA) */
    int dispatch;                /* 1: not a kernel of its own but one entry point that
                                    picks a rung and configuration from the shape
                                    (its rows say which: `chosen`) */
};

size_t registry_count(void);
const struct variant *registry_at(size_t i);
const struct variant *registry_find(const char *name);
/* 1-based place in the ladder, the number figures and tables show; 0 if absent. */
int registry_number(const struct variant *v);

/* AXIS_* the variant uses: tiles and wpts as its configurations name them,
 * splits where they take it (rung_config.h), opt_levels for host rungs. */
unsigned registry_axes(const struct variant *v);

/* Is a rung a reference line (another rung's `reference`)? */
int registry_is_reference(const struct variant *v);

/* Is M x N x K a shape that configuration c is for (rung_config.h's for_rows,
 * for_cols, for_depth)?  Returns 1, or 0 with the reason in `why`. */
int registry_config_fits(const struct rung_config *c, int M, int N, int K, char *why,
                         size_t whylen);

/* Is (tile, wpt, split, opt_level) a combination this variant has code for?
 * Returns 1 (and *cfg, for GPU rungs, when cfg is not NULL), or 0 with the
 * reason in `why`.  Values of axes the variant does not use must be 0. */
int registry_supports(const struct variant *v, int tile, int wpt, int split, int opt_level,
                      const struct rung_config **cfg, char *why, size_t whylen);

/* Space-separated list of all variant names, for error messages. */
const char *registry_names(char *buf, size_t len);

#endif
