/* Whether what a results file holds can be trusted: the one place that
 * decides, run by results_read on every file before any reader derives
 * anything (info, export, compare, the tables, the claims, the values).
 *
 *   - The schema: a version this reader knows (1 to RESULTS_SCHEMA_VERSION),
 *     every column that version defines (results.c: RESULT_FIELDS' `since`)
 *     and none of a later one; a file that fails is refused with the reason.
 *   - Completeness: a file is complete when it holds every planned point
 *     (`planned_points`, schemas 6 on, where its absence is damage; older
 *     files: their `complete` attribute).  One that says complete and holds
 *     fewer rows, or lost rows or samples on the way (unreadable, out of
 *     order, cut short), is damaged, and said so.
 *   - Values, row by row: a known disposition, device, precision and host
 *     memory; positive dimensions and flops = 2 M N K; no configuration,
 *     geometry, resource or count below 0, nor more throttled samples than
 *     samples; no copy times (its samples' included) on a point that is not a
 *     transfer point; for a passed row, a known stop rule, finite positive
 *     times (its samples' too) with min <= median <= max, gflops = flops / median
 *     time, both errors within its tolerance, a GPU rate under the file's own
 *     recorded FP32 peak (TF32: 32 times it) with a 10% margin, a host rate
 *     under what one core can; no point of the plan twice (sweep, rung, shape
 *     and configuration).  A row that breaks one is not believed:
 *     its disposition becomes "damaged", its reason says what broke, and the
 *     file's notes say how many.
 *   - Points of the plan (schema 10): a row whose `point` in the whole plan
 *     another row has too (a row repeated) is damaged; -1 is "not known".
 *   - Checksums (schema 9): a row whose CRC-32 over its fields and its
 *     samples' differs from its stored one is damaged the same way.  Files of
 *     older schemas have none and are read as they are, said so
 *     (f->checksummed 0).
 *   - Attributes (trust_attrs): read whole, matching their checksum. */
#ifndef HARNESS_TRUST_H
#define HARNESS_TRUST_H
#include <stddef.h>
#include <stdint.h>

#include "file.h"

/* The checksum of a row (schema 9 on): zlib's CRC-32 over each field of
 * RESULT_FIELDS but crc32 that the file's schema has, in order, then each
 * field of each of its samples (SAMPLE_FIELDS); an integer as its 4 bytes and
 * a double as its 8 (little endian), a string as its characters up to its
 * first NUL.  (In Python: zlib.crc32 over the same bytes.) */
uint32_t trust_row_crc(const struct result_row *row, const struct sample_row *samples, size_t n,
                       int schema);

/* The checksum of the root attributes (schema 9), the attribute TRUST_ATTRS_CRC,
 * written when the run ends (0 until then: a killed run's are not checked):
 * zlib's CRC-32 over every other attribute in the byte order of their names,
 * each as its name, a NUL, its value as text (an integer in decimal, a float
 * as "%.17g", a string as stored), a NUL.
 * trust_attr_crc adds one attribute to crc (the checksum's own is skipped). */
#define TRUST_ATTRS_CRC "attrs_crc32"
uint32_t trust_attr_crc(uint32_t crc, const char *name, const char *value);
/* zlib's CRC-32 (polynomial 0xEDB88320, reflected) of n bytes, continued from crc. */
uint32_t trust_crc32(uint32_t crc, const void *data, size_t n);

/* The disposition of a row the checks did not believe. */
#define TRUST_DAMAGED "damaged"
/* The dispositions a row may have once read: passed, incorrect, skipped,
 * failed, and at TRUST_UNKNOWN, damaged (the checks' mark for anything else).
 * trust_disposition: the index of d, or TRUST_UNKNOWN. */
#define TRUST_UNKNOWN 4
extern const char *const TRUST_DISPOSITIONS[TRUST_UNKNOWN + 1];
size_t trust_disposition(const char *d);
/* A file's rows by disposition, in that order. */
void trust_count(const struct results_file *f, size_t counts[TRUST_UNKNOWN + 1]);

/* The schema and its columns.  present[k] (sample_present[k]): whether
 * RESULT_FIELDS[k] (SAMPLE_FIELDS[k]) is in the file.  0, or -1 with why. */
int trust_schema(int schema_version, const unsigned char *present,
                 const unsigned char *sample_present, char *why, size_t whylen);

/* Completeness and values, on what was read.  says_complete: the file's
 * `complete` attribute (1, or 0 when absent or otherwise); planned: its
 * `planned_points` (-1 when absent); fp32_peak: its `gpu_fp32_peak_gflops` (NaN
 * when absent: no rate is then held to a peak); lost: rows and samples the
 * reader could not keep (a file that says it is complete has none).  Sets
 * f->complete and f->damaged, marks rows, and adds to f->notes. */
void trust_rows(struct results_file *f, int says_complete, long long planned, double fp32_peak,
                size_t lost);

/* The root attributes, as results_read read them with the rows of every
 * file: unreadable, why they were not (NULL: read whole, and matching
 * their checksum where they have one); crc and complete, the text of
 * attrs_crc32 and of complete (NULL where absent).  Damaged: attributes that
 * cannot be read or do not match their checksum; complete other than 0 or 1;
 * from schema 9, no complete (written when a file is created), or complete = 1
 * without a checksum (the end of a run writes both; a killed run's are 0). */
void trust_attrs(struct results_file *f, const char *unreadable, const char *crc,
                 const char *complete);

#endif
