/* libFuzzer target for the results-file readers (harness/results.c) and what
 * reads their output (harness/report.c).
 *
 * Each input is written to a file and read as a results file: results_read,
 * then the summary table and the TSV/CSV exports of what it returned, then
 * results_visit_attrs.  Built with -fsanitize=fuzzer,address,undefined by
 * `make fuzz` (the HDF5 library itself is Debian's, not instrumented).  Besides
 * not crashing, hanging or leaking, the reader must keep its promises
 * (results.h), checked here; a broken one aborts:
 *   - a refusal is -1 with "PATH: ..." in err;
 *   - what it returns is consistent: counts within the stated limits, every
 *     string ends within its field, every sample names a returned row, and no
 *     row is left "recording". */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "report.h"
#include "results.h"

static void broken(const char *what)
{
    fprintf(stderr, "fuzz_results: broken promise: %s\n", what);
    abort();
}

static void check_file(const struct results_file *f)
{
    if (f->n_rows > RESULTS_MAX_ROWS || f->n_samples > RESULTS_MAX_SAMPLES)
        broken("more rows or samples than the limits");
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct result_row *r = &f->rows[i];
        for (size_t k = 0; k < RESULT_NFIELDS; k++) {
            const struct field_desc *d = &RESULT_FIELDS[k];
            if (d->kind == FIELD_STR && !memchr((const char *)r + d->offset, '\0', d->size))
                broken("a string that does not end within its field");
        }
        if (!strcmp(r->disposition, "recording")) broken("a row left 'recording'");
    }
    for (size_t i = 0; i < f->n_samples; i++)
        if (f->samples[i].row < 0 || (size_t)f->samples[i].row >= f->n_rows)
            broken("a sample of no returned row");
}

static void ignore_attr(const char *name, const char *value, void *ctx)
{
    (void)ctx;
    if (!name || !value) broken("an attribute without a name or value");
}

/* The HDF5 library (Debian's, not instrumented) asks malloc for whatever size a
 * damaged file's metadata names.  In the tools malloc then fails or the reader's
 * child process dies, and the file is reported damaged (results.h); under ASan
 * such a request aborts the whole process instead.  ASan returns NULL for it
 * here, as malloc would. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* Readers that hang are stopped after 0.5 s here (30 s in the tools): a hang is
 * the library's, and the file is then reported damaged. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("MMLADDER_READ_TIMEOUT_S", "0.5", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[96];
    fuzz_write_input(path, sizeof path, "fuzz-results", "h5", data, size);

    char err[1024];
    struct results_file f;
    if (results_read(path, &f, err, sizeof err) == 0) {
        check_file(&f);
        FILE *null = fopen("/dev/null", "w");
        if (!null) abort();
        report_summary(null, f.rows, f.n_rows);
        report_export_rows(null, &f, EXPORT_TSV, 0);
        report_export_rows(null, &f, EXPORT_CSV, 1);
        report_export_samples(null, &f, EXPORT_TSV);
        fclose(null);
        results_file_free(&f);
    } else if (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':') {
        broken("a refusal that does not start with 'PATH:'");
    }
    if (results_visit_attrs(path, ignore_attr, NULL, err, sizeof err) != 0 &&
        strncmp(err, path, strlen(path)) != 0)
        broken("an attribute refusal that does not start with 'PATH'");
    unlink(path);
    return 0;
}
