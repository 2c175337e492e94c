/* The private parts of the results reader that the reading of a file's tables
 * (results_read.c) and the child and parent around it (results_wire.c)
 * share. */
#ifndef HARNESS_RESULTS_READ_PARTS_H
#define HARNESS_RESULTS_READ_PARTS_H

#include "file.h"
#include "util/util.h"
#include "results_h5.h"
#include "trust.h"

/* Where a reader in a child puts its tables: one after another in a memory
 * file, each at a page boundary, which the parent maps once the child is done
 * (so that the rows are written once and never copied). */
struct bulk {
    int fd;
    size_t end;                /* bytes of the file so far */
    size_t rows_at, samples_at;   /* where read_file's two tables begin in it */
};

/* An attribute visitor's function and its context (read_visit_one). */
struct visit {
    attr_kind_fn fn;
    void *ctx;
};

/* Open for reading: plainly, or, when its writer never closed it (a run killed,
 * or still going), as an SWMR reader; a file that ends before its own stated
 * end (a full disk cut its last writes) is read from a copy padded to that
 * length, so that everything before the cut can be.  *writer_open and
 * *padded say which. */
hid_t read_open_for_reading(const char *path, int *writer_open, long long *padded, char *why,
                              size_t whylen);

/* Read in the child (results_read has checked that path is a regular file);
 * on success the file is left open in *file, for its attributes. */
int read_file(const char *path, struct bulk *b, struct results_file *out, int *says_complete,
                     long long *planned, double *fp32_peak, size_t *lost, hid_t *file, char *err,
                     size_t errlen);

/* What every reader does with the rows it read: the values an older schema
 * lacks made unknown, then trust_rows's judgement. */
void read_complete_and_trust(struct results_file *f, int says_complete, long long planned,
                             double fp32_peak, size_t lost);

/* One attribute of an H5Aiterate2 (op: a struct visit). */
herr_t read_visit_one(hid_t loc, const char *name, const H5A_info_t *info, void *op);

#endif
