/* Provenance: the root attributes that make a results file self-describing
 * (what ran, built how, on which machine and device, from which experiment). */
#ifndef HARNESS_PROVENANCE_H
#define HARNESS_PROVENANCE_H

#include "experiment/experiment.h"
#include "device/device.h"
#include "results/results.h"

/* `gi` is NULL when no GPU was used; `gpu_why` then says why.  `copy_gbs` is the
 * measured device-to-device bandwidth (0 when not measured). */
/* The nvcc -gencode options this binary's ordinary GPU kernels were built with
 * (build/buildinfo.h), for the plan to tell which GPUs it holds code for. */
const char *provenance_nvccflags(void);

int provenance_record(struct results *r, const struct experiment *e, const struct gpu_info *gi,
                      const char *gpu_why, double copy_gbs, int argc, char **argv);

#endif
