/* The variant registry: every rung of the ladder by name, in ladder order.
 * A new rung is one file under kernels/ plus one line in registry.c. */
#ifndef HARNESS_REGISTRY_H
#define HARNESS_REGISTRY_H

#include <stddef.h>

#include "matmul.h"
#include "verify.h"

enum device { DEV_HOST = 0, DEV_GPU };

/* Which axes of a sweep a variant uses; the others collapse to 0. */
enum { AXIS_TILE = 1u << 0, AXIS_WPT = 1u << 1, AXIS_OPT = 1u << 2 };

#define REG_MAX_VALUES 8

struct variant {
    const char *name;            /* as written in experiment files, e.g. gpu_tiled */
    const char *seed_name;       /* the seeds' name, e.g. gputiled<TS> */
    enum device device;
    unsigned axes;
    enum precision precision;    /* FP32, or TF32 for tensor-core rows */
    const char *adds;            /* what this rung adds over the previous one */
    int tiles[REG_MAX_VALUES];   /* supported tile widths, 0-terminated */
    int wpts[REG_MAX_VALUES];    /* supported WPT values, 0-terminated */
    host_matmul_fn host[4];      /* by optimisation level; NULL where not built */
    gpu_launch_fn gpu;           /* NULL in builds without CUDA */
    double nominal_gflops;       /* order of magnitude, for dry-run estimates only */
};

size_t registry_count(void);
const struct variant *registry_at(size_t i);
const struct variant *registry_find(const char *name);

/* Is (tile, wpt, opt_level) a combination this variant has code for?  Returns 1, or 0
 * with the reason in `why` (e.g. "WPT 16 does not divide TS 8").  Values of axes
 * the variant does not use must be 0. */
int registry_supports(const struct variant *v, int tile, int wpt, int opt_level, char *why,
                      size_t whylen);

/* Space-separated list of all variant names, for error messages. */
const char *registry_names(char *buf, size_t len);

#endif
