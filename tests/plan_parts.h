/* What the tests of the plan (tests/test_plan.c, tests/test_estimate.c) share. */
#ifndef TESTS_PLAN_PARTS_H
#define TESTS_PLAN_PARTS_H

#include "experiment/experiment.h"
#include "dispatch.h"
#include "measure/plan.h"
#include "measure/shard.h"
#include "util.h"
#include "core/registry.h"

/* The experiment of an .ini text (named t.ini); a parse error fails the test. */
struct experiment *plan_parse(const char *text);

/* The experiment of plan_parse freed. */
void plan_done(struct experiment *e);

#endif
