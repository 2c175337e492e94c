/* What the tests of the derived views and the claims (tests/test_derive.c,
 * tests/test_claims.c, tests/test_suite.c) share: rows and runs made up, the
 * known run of the fixture. */
#ifndef HARNESS_DERIVE_PARTS_H
#define HARNESS_DERIVE_PARTS_H

#include "claims/claims.h"
#include "views/derive.h"
#include "experiment/experiment.h"
#include "core/inputs.h"
#include "views/estimates.h"
#include "measure/plan.h"
#include "claims/values.h"
#include "util.h"

/* The fixture of derive_known_setup: a run of known rows in a folder of its own. */
struct known {
    char dir[256], path[300];
    struct run run;
};

/* A passed row of `rung` at n x n x n: gflops, and its tile / WPT. */
struct result_row derive_row_of(const char *rung, int n, double gflops, int tile, int wpt);

/* A complete file of `rows` (two samples of 1 ms each) on "NVIDIA Test GPU",
 * with its FP32 peak and SM count when they are > 0. */
void derive_write_rows(const char *path, const struct result_row *rows, size_t n, double peak,
                       double sms);

int derive_known_setup(void **state);

int derive_known_teardown(void **state);

/* A test of the known run (derive_known_setup). */
#define KNOWN(f) cmocka_unit_test_setup_teardown(f, derive_known_setup, derive_known_teardown)

void derive_write_text(const char *path, const char *text);

/* A view of one run as text (malloc'd). */
char *derive_view_text(const char *view, const struct run *r, const char *arg);

/* The cell of column `name` in data row `line` (0: the first after the header)
 * of a view's text, into cell; -1 when there is no such row or column. */
int derive_cell(const char *text, int line, const char *name, char *cell, size_t len);

#endif
