/* Numbers as text, fast and exactly as printf writes them.  An export of a
 * million rows prints about 36 million doubles; glibc's printf converts each
 * through its exact multi-precision path, which was most of the export's time.
 * These write the same bytes in a fraction of it (tests/test_report.c compares
 * them with snprintf over millions of values of every kind). */
#ifndef HARNESS_NUMTEXT_H
#define HARNESS_NUMTEXT_H

#include <stddef.h>

#define NUMTEXT_MAX 32   /* room for any value either function writes, and a NUL */

/* What snprintf(buf, NUMTEXT_MAX, "%.9g", v) writes; returns its length. */
size_t numtext_g9(char *buf, double v);
/* The same of "%.6g" (the derived views' cells). */
size_t numtext_g6(char *buf, double v);
/* What snprintf(buf, NUMTEXT_MAX, "%lld", v) writes; returns its length. */
size_t numtext_int(char *buf, long long v);

#endif
