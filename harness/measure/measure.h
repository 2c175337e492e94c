/* The public header of harness/measure (harness/README.md: the layers).
 * measure: a run. The plan an experiment expands to, its shards, the runner
 * (run, verify, measure, record), the GPU sampling of a point, provenance and
 * the progress line.  It never includes views/: the summary a run prints is
 * a hook its command sets (runner.h). */
#ifndef HARNESS_MEASURE_LAYER_H
#define HARNESS_MEASURE_LAYER_H

#include "plan.h"
#include "shard.h"
#include "runner.h"
#include "provenance.h"
#include "gpu_sampling.h"
#include "progress.h"

#endif
