/* libFuzzer target for the results-file readers (harness/results.c) and what
 * reads their output (harness/report.c).
 *
 * Each input is written to a file and read as a results file: results_read,
 * then the summary table and the TSV/CSV exports of what it returned, then
 * results_visit_attrs.  Built with -fsanitize=fuzzer,address,undefined and
 * -DRESULTS_READ_IN_PROCESS by `make fuzz`: the readers run the HDF5 library
 * (Debian's, not instrumented) in this process, not in a child, so that
 * libFuzzer sees their coverage; scripts/fuzz.sh runs this target in
 * libFuzzer's fork mode, because the library can crash or hang here, and says
 * whose each crash is.  Besides not crashing, hanging or leaking, the reader
 * must keep its promises (results.h), checked here; a broken one aborts:
 *   - a refusal is -1 with "PATH: ..." in err;
 *   - what it returns is consistent: counts within the stated limits, every
 *     string ends within its field, every sample names a returned row, and no
 *     row is left "recording";
 *   - every HDF5 handle the readers opened is closed again (the same number of
 *     open files, groups, datasets, attributes, types, spaces and property
 *     lists after each input as after the one before): a handle left open
 *     would carry the library's state from one input to the next. */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "report.h"
#include "results.h"

#ifndef RESULTS_READ_IN_PROCESS
#error "fuzz_results reads in its own process: build it with -DRESULTS_READ_IN_PROCESS (Makefile)"
#endif

static void broken(const char *what, size_t at)
{
    fprintf(stderr, "fuzz_results: broken promise: %s (at %zu)\n", what, at);
    abort();
}

static void check_file(const struct results_file *f)
{
    if (f->n_rows > RESULTS_MAX_ROWS || f->n_samples > RESULTS_MAX_SAMPLES)
        broken("more rows or samples than the limits", 0);
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct result_row *r = &f->rows[i];
        for (size_t k = 0; k < RESULT_NFIELDS; k++) {
            const struct field_desc *d = &RESULT_FIELDS[k];
            if (d->kind == FIELD_STR && !memchr((const char *)r + d->offset, '\0', d->size))
                broken("a string that does not end within its field", i);
        }
        if (!strcmp(r->disposition, "recording")) broken("a row left 'recording'", i);
    }
    for (size_t i = 0; i < f->n_samples; i++)
        if (f->samples[i].row < 0 || (size_t)f->samples[i].row >= f->n_rows)
            broken("a sample of no returned row", i);
}

/* The HDF5 handles open now, by kind. */
#define HANDLE_KINDS 7
static void open_handles(hsize_t *n)
{
    const H5I_type_t kinds[HANDLE_KINDS] = {H5I_FILE,    H5I_GROUP, H5I_DATATYPE,   H5I_DATASPACE,
                                            H5I_DATASET, H5I_ATTR,  H5I_GENPROP_LST};
    for (size_t k = 0; k < HANDLE_KINDS; k++)
        if (H5Inmembers(kinds[k], &n[k]) < 0) n[k] = (hsize_t)-1;
}

static void check_handles(void)
{
    static hsize_t before[HANDLE_KINDS];
    static int have;
    hsize_t now[HANDLE_KINDS];
    open_handles(now);
    if (have && memcmp(now, before, sizeof now) != 0) broken("an HDF5 handle left open", 0);
    memcpy(before, now, sizeof now);
    have = 1;
}

static void ignore_attr(const char *name, const char *value, void *ctx)
{
    (void)ctx;
    if (!name || !value) broken("an attribute without a name or value", 0);
}

/* The HDF5 library asks malloc for whatever size a damaged file's metadata
 * names.  In the tools malloc then fails or the reader's child process dies,
 * and the file is reported damaged (results.h); under ASan such a request
 * aborts the whole process instead.  ASan returns NULL for it here, as malloc
 * would.
 * The library also leaks, on a damaged file, what it allocated for itself: an
 * object header it could not load (H5C_protect) or a message it could not
 * decode (H5O_msg_read), for instance.  Each allocation keeps only its caller
 * (malloc_context_size=2: malloc, and the function that called it), and a
 * leak whose caller is in libhdf5 is the library's, not reported; one that
 * our code allocated is reported, even when the library called our code (an
 * attribute's text, made in H5Aiterate2's callback).  Not seen: memory that
 * the library allocates and hands to us to free (H5Tget_member_name's names,
 * a variable-length string H5Aread reads), which the reader frees on the one
 * path each takes. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1:malloc_context_size=2"; }
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libhdf5\n"; }

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
        broken("a refusal that does not start with 'PATH:'", 0);
    }
    if (results_visit_attrs(path, ignore_attr, NULL, err, sizeof err) != 0 &&
        strncmp(err, path, strlen(path)) != 0)
        broken("an attribute refusal that does not start with 'PATH'", 0);
    check_handles();
    unlink(path);
    return 0;
}
