/* libFuzzer target for the results-file readers (harness/results/results.c) and what
 * reads their output (harness/views/report.c).
 *
 * Each input is written to a file and read as a results file: results_read
 * (rows and attributes in one pass), then the summary table and the TSV/CSV
 * exports of what it returned; where results_read refused the file,
 * results_visit_attrs, which reads the attributes alone.  Built with
 * -fsanitize=fuzzer,address,undefined and -DRESULTS_READ_IN_PROCESS by
 * `make fuzz`: the readers run the HDF5 library
 * (Debian's, not instrumented) in this process, not in a child, so that
 * libFuzzer sees their coverage; scripts/fuzz.sh runs this target in
 * libFuzzer's fork mode, because the library can crash or hang here, and says
 * whose each crash is.  Besides not crashing, hanging or leaking, the reader
 * must keep its promises (results.h, trust.h), checked here; a broken one
 * aborts:
 *   - a refusal is -1 with "PATH: ..." in err;
 *   - what it returns is consistent: counts within the stated limits, every
 *     string ends within its field, every sample names a returned row, samples
 *     in the order of their rows, no row left "recording";
 *   - what it returns is trusted only as trust.h says: a schema it knows;
 *     every row's disposition one it names; a row it did not believe marked
 *     damaged with the reason; every other row of a known device and
 *     precision, positive dimensions and flops = 2 M N K; every passed row
 *     with finite positive times in order, samples, gflops = flops / median
 *     time and its error within its tolerance; in a checksummed file (schema
 *     9 on), every row not marked matching its checksum; a file that says how
 *     many points it planned is complete exactly when it holds that many rows;
 *   - every HDF5 handle the readers opened is closed again (no file, or object
 *     in one, open after an input; no type, space or property list opened
 *     during it still valid): a handle left open would carry the library's
 *     state from one input to the next. */
#define _POSIX_C_SOURCE 200809L
#include <hdf5.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "views/report.h"
#include "results/results.h"
#include "results/trust.h"

#ifndef RESULTS_READ_IN_PROCESS
#error "fuzz_results reads in its own process: build it with -DRESULTS_READ_IN_PROCESS (Makefile)"
#endif

/* Equal up to rounding: trust.c believes a value within 1e-9 of what it should
 * be; the promise is "within rounding", checked here more loosely so as not to
 * restate trust.c's own bound. */
#define ROUNDING 1e-6

static void broken(const char *what, size_t at)
{
    fprintf(stderr, "fuzz_results: broken promise: %s (at %zu)\n", what, at);
    abort();
}

static void check_strings(const struct result_row *r, size_t i)
{
    for (size_t k = 0; k < RESULT_NFIELDS; k++) {
        const struct field_desc *d = &RESULT_FIELDS[k];
        if (d->kind == FIELD_STR && !memchr((const char *)r + d->offset, '\0', d->size))
            broken("a string that does not end within its field", i);
    }
}

static int near(double a, double b)
{
    return isfinite(a) && isfinite(b) && fabs(a - b) <= ROUNDING * fmax(fabs(a), fabs(b));
}

/* A row the checks believed: what trust.h promises of it. */
static void check_believed(const struct result_row *r, size_t i)
{
    if (strcmp(r->device, "gpu") && strcmp(r->device, "host")) broken("an unknown device", i);
    if (strcmp(r->precision, "fp32") && strcmp(r->precision, "tf32"))
        broken("an unknown precision", i);
    if (r->M < 1 || r->N < 1 || r->K < 1) broken("a dimension below 1", i);
    if (!near(r->flops, 2.0 * r->M * r->N * r->K)) broken("flops other than 2 M N K", i);
    if (strcmp(r->disposition, "passed")) return;
    const double t[] = {r->time_ms_min, r->time_ms_median, r->time_ms_mean, r->time_ms_max};
    for (size_t k = 0; k < 4; k++)
        if (!(isfinite(t[k]) && t[k] > 0)) broken("a passed row's time not a positive number", i);
    if (!(t[0] <= t[1] && t[1] <= t[3] && t[0] <= t[2] && t[2] <= t[3]))
        broken("a passed row's times out of order", i);
    if (!(r->time_ms_stddev >= 0)) broken("a passed row's spread negative or unknown", i);
    if (r->samples < 1) broken("a passed row without samples", i);
    if (!near(r->gflops, r->flops / r->time_ms_median / 1e6))
        broken("a passed row's gflops other than flops / median time", i);
    if (!(r->max_rel_err <= r->tolerance)) broken("a passed row's error above its tolerance", i);
}

/* Row i's disposition and, for the rows believed, their values and checksum;
 * its samples are samples[at, at + n). */
static void check_row(const struct results_file *f, size_t i, size_t at, size_t n)
{
    const struct result_row *r = &f->rows[i];
    check_strings(r, i);
    const size_t d = trust_disposition(r->disposition);
    if (d == TRUST_UNKNOWN && strcmp(r->disposition, TRUST_DAMAGED))
        broken("a disposition the checks do not name", i);
    if (d == TRUST_UNKNOWN) {
        if (strncmp(r->reason, "damaged: ", 9) != 0 || !r->reason[9])
            broken("a row marked damaged without the reason", i);
        return;
    }
    check_believed(r, i);
    if (f->checksummed && (uint32_t)r->crc32 != trust_row_crc(r, f->samples + at, n, f->schema_version))
        broken("a row believed whose checksum does not match", i);
}

static void check_file(const struct results_file *f)
{
    if (f->n_rows > RESULTS_MAX_ROWS || f->n_samples > RESULTS_MAX_SAMPLES)
        broken("more rows or samples than the limits", 0);
    if (f->schema_version < 1 || f->schema_version > RESULTS_SCHEMA_VERSION)
        broken("a schema the reader does not know", 0);
    if (f->checksummed != (f->schema_version >= 9)) broken("checksums said of the wrong schemas", 0);
    for (size_t i = 0; i < f->n_samples; i++) {
        if (f->samples[i].row < 0 || (size_t)f->samples[i].row >= f->n_rows)
            broken("a sample of no returned row", i);
        if (i && f->samples[i].row < f->samples[i - 1].row) broken("samples out of row order", i);
    }
    size_t at = 0, damaged = 0;
    for (size_t i = 0; i < f->n_rows; i++) {
        size_t n = 0;
        while (at + n < f->n_samples && f->samples[at + n].row == (int32_t)i) n++;
        check_row(f, i, at, n);
        damaged += !strcmp(f->rows[i].disposition, TRUST_DAMAGED);
        at += n;
    }
    if (f->damaged < damaged) broken("fewer damaged rows counted than marked", damaged);
    if (f->planned >= 0 && f->complete != ((size_t)f->planned == f->n_rows))
        broken("complete other than 'holds every planned point'", f->n_rows);
    if (f->attrs_why[0] && (f->n_attrs || !f->damaged))
        broken("attributes not read whole, yet given or the file not damaged", f->n_attrs);
    if (!memchr(f->attrs_why, '\0', sizeof f->attrs_why)) broken("attrs_why without its end", 0);
    for (size_t i = 0; i < f->n_attrs; i++) {
        if (!f->attrs[i].name || !f->attrs[i].value || f->attrs[i].kind > ATTR_OTHER)
            broken("an attribute without a name, a value or a kind", i);
        if (i && strcmp(f->attrs[i - 1].name, f->attrs[i].name) >= 0)
            broken("attributes out of name order, or one twice", i);
    }
}

/* HDF5 numbers the handles of each kind in sequence and never reuses a number,
 * and its H5Inmembers does not count the library's own kinds: so a handle of a
 * type, a space or a property list that the readers opened and did not close
 * is found as a valid number between one made before the input and one made
 * after it.  Files and what is open in them are counted by H5Fget_obj_count. */
#define HANDLE_KINDS 3
static hid_t probe(size_t kind)
{
    return kind == 0 ? H5Tcopy(H5T_NATIVE_INT)
           : kind == 1 ? H5Screate(H5S_SCALAR)
                       : H5Pcreate(H5P_DATASET_XFER);
}

static void close_probe(size_t kind, hid_t id)
{
    if ((kind == 0 ? H5Tclose(id) : kind == 1 ? H5Sclose(id) : H5Pclose(id)) < 0) abort();
}

static void handles_before(hid_t *first)
{
    for (size_t k = 0; k < HANDLE_KINDS; k++) {
        if ((first[k] = probe(k)) < 0) abort();
        close_probe(k, first[k]);
    }
}

static void check_handles(const hid_t *first)
{
    if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
        broken("an HDF5 file, or an object in one, left open", 0);
    for (size_t k = 0; k < HANDLE_KINDS; k++) {
        const hid_t last = probe(k);
        if (last < 0) abort();
        for (hid_t id = first[k] + 1; id < last; id++)
            if (H5Iis_valid(id) > 0) broken("an HDF5 type, space or property list left open", k);
        close_probe(k, last);
    }
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

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* HDF5 keeps freed blocks on free lists of its own for reuse, but by
     * default drops any that exceed a list's limit (64 KiB for a fixed-size
     * kind): each open's metadata cache, about 600 KiB, is then allocated anew,
     * which under ASan means a fresh mapping to fault in and clear, about 40%
     * of an input's time.  Without limits it is reused: the same reading, 1.7
     * times as many inputs a second, and no more memory at the peak (the lists
     * hold what one input needed). */
    if (H5open() < 0 || H5set_free_list_limits(-1, -1, -1, -1, -1, -1) < 0) abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[96];
    fuzz_write_input(path, sizeof path, "fuzz-results", "h5", data, size);
    hid_t first[HANDLE_KINDS];
    handles_before(first);

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
        report_export_attrs(null, &f, EXPORT_CSV);
        fclose(null);
        results_file_free(&f);
    } else {
        if (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':')
            broken("a refusal that does not start with 'PATH:'", 0);
        if (results_visit_attrs(path, ignore_attr, NULL, err, sizeof err) != 0 &&
            (strncmp(err, path, strlen(path)) != 0 || err[strlen(path)] != ':'))
            broken("an attribute refusal that does not start with 'PATH:'", 0);
    }
    check_handles(first);
    unlink(path);
    return 0;
}
