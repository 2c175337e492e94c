/* The public header of harness/views (harness/README.md: the layers).
 * views: what is read from results files: the derived tables (derive.h), the
 * estimates of the % of cuBLAS, and the report (summary, comparison, export).
 * It never includes measure/. */
#ifndef HARNESS_VIEWS_H
#define HARNESS_VIEWS_H

#include "derive.h"
#include "estimates.h"
#include "report.h"

#endif
