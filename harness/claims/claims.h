/* The public header of harness/claims (harness/README.md: the layers).
 * claims: the claims checked against the runs (check.h) and the values the
 * paper prints (values.h). */
#ifndef HARNESS_CLAIMS_H
#define HARNESS_CLAIMS_H

#include "check.h"
#include "values.h"

#endif
