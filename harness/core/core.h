/* The public header of harness/core (harness/README.md: the layers).
 * core: the ladder itself and what every half shares: the registry of rungs, the
 * verification against float64, the corpora of shapes, the inputs, the
 * sampling rule and its statistics. */
#ifndef HARNESS_CORE_H
#define HARNESS_CORE_H

#include "registry.h"
#include "verify.h"
#include "corpus.h"
#include "inputs.h"
#include "sampling.h"

#endif
