/* The private parts of claims/ that the keys of the values (values.c) and their
 * tables, writing and scan of the paper (values_tables.c) share. */
#ifndef HARNESS_VALUES_PARTS_H
#define HARNESS_VALUES_PARTS_H

#include "values.h"
#include "views/views.h"
#include "quantity.h"

/* s with LaTeX's special characters escaped, into out. */
void value_latex(const char *s, char *out, size_t len);

/* s as LaTeX (value_latex()) with the hyphen of a range of numbers ("0.97-1.08")
 * an en dash. */
void value_latex_ranges(const char *s, char *out, size_t len);

/* A configuration label as LaTeX, "128x64" with a times sign. */
void value_latex_config(const char *s, char *out, size_t len);

const struct run *value_role_run(const struct run *runs, size_t n, const char *role);

/* The runs of the roles a table names, into rr: 0, or -1 naming the one missing. */
int value_role_runs(char *const *roles, int nr, const struct run *runs, size_t nruns,
                     const struct run **rr, char *why, size_t whylen);

/* Split key on '.' into at most max parts (in buf). */
int value_split(const char *key, char *buf, size_t len, char **part, int max);

/* The GPU's first word after "NVIDIA " ("H100"), as LaTeX. */
void value_gpu_short(const struct run *r, char *out, size_t len);

#endif
