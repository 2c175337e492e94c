/* The wall clock as results files write it: see clock.h. */
#define _DEFAULT_SOURCE
#include "clock.h"

#include <time.h>

void utc_now_iso(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
