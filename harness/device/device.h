/* The public header of harness/device (harness/README.md: the layers).
 * device: the GPU as the measuring half uses it: its services (gpu.h; gpu_none.c
 * without CUDA), its telemetry, and the second timer (kernel_timer.h, inside). */
#ifndef HARNESS_DEVICE_H
#define HARNESS_DEVICE_H

#include "gpu.h"
#include "telemetry.h"

#endif
