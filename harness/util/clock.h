/* The wall clock as results files write it. */
#ifndef HARNESS_CLOCK_H
#define HARNESS_CLOCK_H

#include <stddef.h>

/* UTC now as ISO 8601, e.g. 2026-11-22T03:07:09Z. */
void utc_now_iso(char *buf, size_t len);

#endif
