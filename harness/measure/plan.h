/* The plan: an experiment's sweeps expanded into the points to run, in order.
 *
 * Each sweep expands to the product variants x shapes x tiles x wpts x splits x opt_levels
 * (x host_memory for GPU rungs, when the sweep names it),
 * where a variant uses only its own axes (the others collapse to 0, so a naive
 * rung is not repeated per tile).  A combination the variant cannot run is kept
 * as a point with disposition `skipped` and the reason.  Points are ordered by
 * sweep, then shape, then variant in file order, so that inputs are prepared once
 * per shape. */
#ifndef HARNESS_PLAN_H
#define HARNESS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "experiment/experiment.h"
#include "core/core.h"

struct point {
    const struct variant *v;
    const struct rung_config *cfg;   /* GPU rungs: the configuration; NULL otherwise */
    int M, N, K;
    int tile, wpt, split, opt_level;
    int host_memory;             /* HOST_MEMORY_*: GPU points that also time the copies */
    int unpaired;                /* pairing = none: sampled alone, even with a reference */
    int skip;                    /* 1: recorded as skipped, not run */
    int skip_env;                /* 1: skipped for want of this machine (no GPU), not by design */
    int jit_first;               /* 1: the first point of its kernel, which the driver will
                                    compile from PTX (no machine code for this GPU) */
    char skip_reason[160];
    const char *sweep;           /* name of the sweep it came from */
    int line;                    /* the line of the experiment file that gave its shape */
    size_t index;                /* its place in the whole plan (a shard keeps a part) */
};

#define PLAN_MAX_POINTS 100000   /* a plan beyond it is an error in the file */

struct plan {
    size_t n, cap;
    struct point *points;
    char env_reason[160];        /* why points with skip_env cannot run here; "" if none */
    size_t whole;                /* points of the whole plan (shard.h); n when not cut */
    uint64_t hash;               /* of the whole plan's points: each one's variant, sweep,
                                    shape and configuration, in order (FNV-1a, 64 bits);
                                    shards of one plan have the same */
    int shard, shards;           /* the part kept, of how many; shards 0: the whole plan */
    int host_shard;              /* shards > 0: the shard that has every host point, or -1 */
};

/* Expand; on an error in the file (unknown variant, more than PLAN_MAX_POINTS
 * points, ...) returns -1 with "FILE:LINE: ..." in err.  `gpu_ok` is 0 when no
 * GPU can be used, with `gpu_why` saying why: GPU points are then planned as
 * skipped. */
int plan_from_experiment(const struct experiment *e, int gpu_ok, const char *gpu_why,
                         struct plan *p, char *err, size_t errlen);
void plan_free(struct plan *p);

double point_flops(const struct point *pt);   /* 2 M N K */

/* Rough time of a point in seconds from the variants' nominal rates (the
 * rung's and its reference's) and the sampling rule: for dry runs, the host
 * budget and the progress ETA. */
double point_estimate_s(const struct point *pt, const struct experiment *e);

/* The run's time: the GPU points one after another (with each shape's inputs
 * and first warm-up) and, beside them on a thread of their own, the host
 * points; the run lasts as long as the longer of the two. */
struct plan_estimate {
    double gpu_s, host_s, total_s;
};
void plan_estimate(const struct plan *p, const struct experiment *e, struct plan_estimate *out);
/* The part of it that a shape costs once, before its first GPU point: its
 * inputs made and its first, longer warm-up. */
double plan_shape_setup_s(int M, int N, int K, const struct experiment *e);

/* The estimate's constants.  Measured or taken from the GPU: the fixed cost of
 * a launch, the SMs, the L2 and the HBM rate the kernel times are reckoned for
 * (an H100 or H200: 132 SMs, 50 MiB of L2), host-device copies through pinned
 * and pageable memory and the making of a transfer point's host buffers, a
 * kernel's compilation from PTX (a run of experiments/portability.ini), and the
 * shapes from which a share of the points is sampled under the power cap.
 * Fitted together to the wall times of H100 runs of commit d868be6 (the paper
 * matrix, the shape suite, the transfers and the estimates of data/ and the two
 * tuning corpora, experiments/tuning-*.ini; never the held-out corpus), each
 * within 7% in-sample: the bookkeeping of a GPU point (verification, timing
 * set-up, the record) and of a sample (the wait for its events, its
 * telemetry) and of a round trip; the warm-up's settling, in windows past its
 * minimum, its length as it grows with a pair of samples
 * (PLAN_WARM_MS * ms^PLAN_WARM_POWER: about 6 ms at 0.2 ms, 140 ms at 200 ms),
 * the pair under way when it ends (PLAN_WARM_OVERRUN pairs), under the power
 * cap (TF32 at the cap's shapes) and, for a row sampled alone, until the power
 * reading is fresh; a shape's inputs, per shape and per element of A and B. */
#define PLAN_LAUNCH_MS 0.005
#define PLAN_SMS 132
#define PLAN_L2_BYTES (50LL << 20)
#define PLAN_DRAM_GBS 2500.0
#define PLAN_PINNED_GBS 40.0
#define PLAN_PAGEABLE_GBS 8.0
#define PLAN_STAGE_GBS 1.2
#define PLAN_JIT_MS 350.0
#define PLAN_CAP_FLOPS 1e10
#define PLAN_CAPPED_SHARE 0.4
#define PLAN_POINT_MS 5.0
#define PLAN_SAMPLE_MS 0.6
#define PLAN_TRIP_MS 0.05
#define PLAN_SETTLE_WINDOWS 0.5
#define PLAN_WARM_MS 13.0
#define PLAN_WARM_POWER 0.45
#define PLAN_WARM_OVERRUN 1.0
#define PLAN_CAPPED_WARM_MS 350.0
#define PLAN_FRESH_MS 3.0
#define PLAN_SHAPE_MS 4.0
#define PLAN_INPUT_NS_PER_ELEM 1.0

size_t plan_count_runnable(const struct plan *p);
size_t plan_count_skipped_env(const struct plan *p);   /* points with skip_env */

/* The host time budget: each runnable host point whose estimate (above) exceeds
 * budget_s seconds becomes skipped by design, with the reason "estimated 812 s >
 * host budget 60 s (--host-budget S or --no-budget to run it)".  budget_s <= 0:
 * no budget.  Returns how many points it skipped. */
size_t plan_apply_host_budget(struct plan *p, const struct experiment *e, double budget_s);

/* What a GPU offers the plan: its compute capability (major * 10 + minor), the
 * shared memory one block may opt in to, and the code this binary holds for its
 * ordinary kernels: nvcc's -gencode options as the build used them ("...
 * code=sm_90 ... code=compute_80"; kernels built for sm_90a alone are the
 * registry's `only_cc` rungs). */
struct gpu_caps {
    const char *name;
    int cc;
    long long smem_per_block;
    const char *nvccflags;
};

/* Why this GPU cannot run a configuration of a GPU rung, into why: the compute
 * capability it needs ("needs compute capability 8.0 or later (this GPU is
 * 7.5)"), a kernel built for another GPU alone ("needs sm_90a (built for it
 * alone; this GPU is sm_86)"), shared memory ("needs 146 KiB of shared memory per
 * block; this GPU offers 99 KiB"), or no code in the binary for it ("this binary
 * holds no code for sm_75 (built: sm_90 compute_90; make ARCH=75)").  0 when it
 * can. */
int plan_gpu_refuses(const struct variant *v, const struct rung_config *cfg,
                     const struct gpu_caps *d, char *why, size_t len);

/* The targets of nvccflags in words: "SASS sm_90, PTX compute_90 (runs on
 * compute capability 9.x; the PTX on any later GPU); rungs needing exactly one
 * compute capability: their own sm_XXa", or "none (built without CUDA)". */
void plan_targets(const char *nvccflags, char *out, size_t len);

/* Every runnable GPU point this GPU cannot run becomes skipped by design, with
 * plan_gpu_refuses's reason; returns how many. */
size_t plan_apply_gpu(struct plan *p, const struct gpu_caps *d);

#endif
