/* Report: what people read of a results file.  The summary table (a run's end
 * prints it through the hook its command sets, runner.h; `info` prints it), the
 * comparison of two runs, and the export of rows as TSV/CSV for gnuplot and
 * others.  It only formats: it never runs kernels nor writes results files. */
#ifndef HARNESS_REPORT_H
#define HARNESS_REPORT_H

#include <stdio.h>

#include "results/results.h"

/* One row per (variant, shape) at its best tile/WPT/opt level among passed rows,
 * with GFLOP/s, % of cublas_fp32 at the same shape, and counts of the rest. */
void report_summary(FILE *out, const struct result_row *rows, size_t n);

enum export_format { EXPORT_TSV, EXPORT_CSV };
/* All /results columns (header first); `passed_only` drops unverified rows. */
void report_export_rows(FILE *out, const struct results_file *f, enum export_format fmt,
                        int passed_only);
/* /samples joined with the identifying columns of their row. */
void report_export_samples(FILE *out, const struct results_file *f, enum export_format fmt);

/* Reproduction: for each (variant, shape, host memory) in `mine`, the best passed
 * GFLOP/s here and in `ref`, their ratio, and whether |ratio - 1| <= tolerance;
 * host rows, and with `across` (runs of two GPU models) every row, are reported
 * ("reported"), never held to the tolerance.  `tsv` prints machine-readable rows
 * instead of the aligned table.  Returns the number of GPU pairs outside the
 * tolerance; *compared gets the number of pairs held to it, *reported that of
 * the others. */
size_t report_compare(FILE *out, const struct results_file *mine, const struct results_file *ref,
                      double tolerance, int across, int tsv, size_t *compared,
                      size_t *reported);

/* The root attributes results_read read, as name/value lines, header first
 * (experiment_text left out: it spans lines). */
void report_export_attrs(FILE *out, const struct results_file *f, enum export_format fmt);

#endif
