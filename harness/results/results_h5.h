/* What the results writer (results.c), the reader (results_read.c) and the
 * trust (trust.c) share of their HDF5 handling, defined in results_h5.c, which
 * calls none of them: not part of the results interface. */
#ifndef HARNESS_RESULTS_H5_H
#define HARNESS_RESULTS_H5_H

#include <hdf5.h>
#include <stdint.h>

#include "file.h"

/* The disposition of a row whose samples are being committed (file.h). */
#define RESULTS_RECORDING "recording"

/* The columns of /samples, as RESULT_FIELDS are those of /results. */
extern const struct field_desc SAMPLE_FIELDS[];
extern const size_t SAMPLE_NFIELDS;

/* Once per process: no automatic error printing, no clean-up at exit. */
void h5_setup(void);
/* The current HDF5 error stack in a few words (and cleared). */
const char *h5_why(char *buf, size_t len);
/* A fixed-size, NUL-terminated C string type of `size` bytes. */
hid_t h5_string_type(size_t size);
/* The checksum of an open file's root attributes (trust.h: TRUST_ATTRS_CRC), from
 * their values as the readers show them; 0, or -1. */
int results_attrs_crc(hid_t file, uint32_t *crc);
/* Add to f->notes ("; " between notes; what does not fit is left out). */
void results_note(struct results_file *f, const char *fmt, ...);

#endif
