/* Results files: the HDF5 schema (documented in data/README.md).
 *
 *   /            attributes: provenance (provenance.c), `planned_points`;
 *                `complete` (0/1), `finished_utc` and `wall_time_s`, set when
 *                the run ends
 *   /results     one row per planned point (a compound dataset)
 *   /samples     one row per timed sample: (row, sample, time_ms, h2d_ms, d2h_ms)
 *
 * Crash consistency, by design rather than by luck:
 *   - The file is written under a work name beside its final name
 *     (FINAL.HOST.PID.part, outname.h) and takes the final name only when its
 *     writer has finished it, atomically and never over an existing file (with
 *     RESULTS_UNIQUE a taken name gets a suffix, -2, -3, ...): a final name only
 *     ever holds a finished file, and two writers of one name leave one file
 *     there and the other told so.  It is written in HDF5's
 *     single-writer/multiple-reader (SWMR) mode, file format 1.10: the library
 *     orders its metadata writes so that what is on disk is always a consistent
 *     file, whatever moment the process dies at.  Tables are chunked and
 *     uncompressed, so an append writes in place and never reallocates a chunk.
 *   - A point is committed row first: its row is appended with disposition
 *     "recording" and flushed, then its samples (flushed), then the row is
 *     rewritten in place with its real disposition (flushed).  So samples never
 *     exist without their row, and a crash leaves at most one row marked
 *     "recording", which the reader drops and says so.
 *   - A run killed outright leaves its work file, marked as open by its SWMR
 *     writer; results_read opens it anyway (h5py: `swmr=True`; `h5clear -s
 *     FILE` clears the mark for other tools).
 *   - On an I/O error (a full disk) the run stops; its work file keeps the rows
 *     committed before it.  A file that never got its first row is removed.
 *
 * The reader validates what it reads (types, sizes, counts against the file's
 * size) before allocating, reads files of schemas 1-3 (H5TB tables, compressed),
 * and recovers what it can of a damaged file, saying what it dropped. */
#ifndef HARNESS_RESULTS_FILE_H
#define HARNESS_RESULTS_FILE_H

#include <stddef.h>
#include <stdint.h>

/* 2 added host_memory, h2d/d2h times; 3 kernel resources; 4 crash-consistent
 * storage (SWMR, uncompressed chunks, rows committed before their samples);
 * 5 the block tile and the outputs per thread as columns of their own; 6 the
 * timing method (input sets rotated, launches per sample, warm-up), telemetry
 * (SM clock, power, temperature, clock-event reasons) per row and per sample,
 * and the paired ratio to the reference; sm_clock_mhz retired; 7 how a launch
 * divides the work: the `split` axis, the blocks launched, the parts of K per
 * tile, the workspace, and a dispatch row's pick; 8 the three estimates of a
 * ratio to the reference: the reference's median in the pairs, the second
 * timer's (CUPTI) kernel times and ratio, the kernels' names, the SM clock read
 * by the GPU itself after each sample, and whether the warm-up settled; 9 a
 * checksum of each row and its samples (trust.h), so that a flipped bit is
 * found, not believed; 10 each row's point in the whole plan (`point`), and
 * the plan's size and hash, the shard and the GPU's identity as attributes, so
 * that shards can be merged (merge.h). */
#define RESULTS_SCHEMA_VERSION 10

/* Limits the reader enforces before allocating (a file beyond them is refused
 * as damaged): rows of /results and samples of /samples. */
#define RESULTS_MAX_ROWS 10000000
#define RESULTS_MAX_SAMPLES 1000000000

struct result_row {
    char variant[32];
    char seed_name[32];
    char device[8];          /* "host" | "gpu" */
    char precision[8];       /* "fp32" | "tf32" */
    char sweep[32];
    int32_t M, N, K;
    int32_t tile, wpt, opt_level;    /* as the experiment named them; 0 where the
                                        variant has no such axis */
    int32_t split;           /* the `splits` axis as named (0: none, or the rung's rule) */
    int32_t samples;
    double flops;            /* 2 M N K */
    double time_ms_min, time_ms_median, time_ms_mean, time_ms_max, time_ms_stddev;
    double gflops;           /* flops / median time */
    double rel_err, max_rel_err, tolerance;
    char disposition[12];    /* passed | incorrect | skipped | failed
                                (| recording: being committed when the run stopped) */
    char stop_rule[16];      /* converged | timeout | max_samples | long_point | "" */
    char reason[160];        /* why skipped or failed; "" otherwise */
    char host_memory[12];    /* "" (inputs resident on the device), "pinned" or "pageable":
                                then each sample also copies A, B in and C out */
    double h2d_ms_median;    /* copy of A and B to the device; 0 when not measured */
    double d2h_ms_median;    /* copy of C back to the host; 0 when not measured */
    /* The kernel's resources (cudaFuncGetAttributes, occupancy calculator); all 0
     * for host rows and library (cuBLAS) rows. */
    int32_t registers, shared_bytes, local_bytes, threads, blocks_per_sm;
    /* The configuration's geometry (kernels/rung_config.h): the tile of C one
     * block computes and the outputs of one thread, rows x columns; 0 for host
     * and library rows, and in files of schema < 5. */
    int32_t block_rows, block_cols, thread_rows, thread_cols;
    /* How the launch divided the work (schema 7; 0 and "" for host and library
     * rows and in older files): the blocks of its main kernel, the most blocks
     * that shared one tile of C along K (1: each tile computed whole by one
     * block), the device workspace it used, and for a dispatch row the rung and
     * configuration it picked. */
    int32_t grid_blocks, k_splits, workspace_bytes;
    char chosen[48];
    /* How the GPU samples were taken (schema 6; "" and 0 on host rows and in
     * older files): "graph" (a CUDA graph of `launches` launches per sample),
     * "launch" (one launch per sample) or "round_trip" (transfer points); the
     * launches rotate over `input_sets` copies of A and B, so that no launch finds
     * its inputs in L2; `warmup_ms` of untimed launches came first. */
    char timing[12];
    int32_t launches, input_sets;
    double warmup_ms;
    /* Telemetry over the sampling interval (NVML): `telemetry` is "nvml", or
     * "unavailable" with every value NaN (never 0); "" on host rows and in older
     * files.  clock_reasons: the OR of NVML's clock-event reasons seen;
     * throttled_samples: samples during which a power or thermal reason was
     * active.  start_s: when sampling began, seconds after the run began. */
    char telemetry[12];
    double clock_mhz_min, clock_mhz_mean, clock_mhz_max, power_w_mean, power_w_max, temp_c_max;
    int32_t clock_reasons, throttled_samples;
    double start_s;
    /* Paired with the reference (the registry's reference rung of this
     * precision, measured interleaved A B B A ... on the same inputs): its name,
     * the pairs, and the mean of (reference time / this time) with the half-width
     * of its 95% confidence interval.  "" and NaN when not paired. */
    char paired_with[32];
    int32_t pairs;
    double ref_ratio, ref_ratio_ci95;
    /* Schema 8 (NaN, "" and 0 in older files).  ref_ms_median: the reference's
     * own median time in the pairs (events; NaN when not paired).  The second
     * timer (CUPTI's kernel records, when the run switched it on; else NaN and
     * ""): the median of the samples' kernel times per launch, the reference's
     * in the pairs, the mean of the pairs' kernel-time ratios (reference / this)
     * with its 95% interval, the kernels a launch made, and the longest kernel's
     * name of each.  probe_mhz_mean: the SM clock as the SMs counted it right
     * after each sample (gpu.h: gpu_sm_clock_mhz), averaged.  warmup_settled: 1
     * when the warm-up ended because clock and power had settled, 0 when it
     * ran out of time first (a GPU row; 0 elsewhere). */
    double ref_ms_median;
    double kernel_ms_median, ref_kernel_ms_median, kernel_ratio, kernel_ratio_ci95;
    double kernels_per_launch;
    char kernel_name[96], ref_kernel_name[96];
    double probe_mhz_mean;
    int32_t warmup_settled;
    /* Schema 9: the CRC-32 (zlib's) of the row's other fields and of its
     * samples' (trust.h: trust_row_crc), as a 32-bit pattern; 0 in older files. */
    int32_t crc32;
    /* Schema 10: the point's place in the whole plan (plan.h), in a run of the
     * whole plan, a shard's file and a merged one alike (shard.h, merge.h); -1
     * in older files. */
    int32_t point;
};

struct sample_row {
    int32_t row;             /* index into /results */
    int32_t sample;          /* 0, 1, ... */
    double time_ms;          /* the kernel (or host call) alone; per launch when a
                                sample is several (the row's `launches`) */
    double h2d_ms, d2h_ms;   /* transfer points only; else 0 */
    /* schema 6: when the sample ended (seconds after the run began), the SM
     * clock and power during it (NaN when unknown), the clock-event reasons seen,
     * and the reference's time of the same pair (NaN when not paired) */
    double t_s, clock_mhz, power_w;
    int32_t reasons;
    double ref_ms;
    /* schema 8: the second timer's kernel time per launch of this sample and of
     * the reference's in its pair (NaN when off or not paired), and the SM
     * clock the SMs counted right after the sample (NaN on the host) */
    double kernel_ms, ref_kernel_ms, probe_mhz;
};

/* The columns of /results, in order: one table drives the HDF5 types, the
 * reader and the TSV/CSV export alike. */
enum field_kind { FIELD_STR, FIELD_INT, FIELD_DBL };
struct field_desc {
    const char *name;
    size_t offset, size;
    enum field_kind kind;
    int since;               /* the schema that added it */
};
extern const struct field_desc RESULT_FIELDS[];
extern const size_t RESULT_NFIELDS;

struct results;

/* results_create's flags. */
enum {
    RESULTS_UNIQUE = 1,         /* a taken name gets a suffix */
    RESULTS_WHOLE_ONLY = 2,     /* the final name only for a file finished complete: an
                                   interrupted run stays under its work name */
    RESULTS_ALL_OR_NOTHING = 4, /* a file that does not take its final name is removed
                                   (a merge, which can be made again) */
};

/* Create a results file that will be named `path` (or, with RESULTS_UNIQUE, the
 * first free name of path, STEM-2.h5, STEM-3.h5, ...).  Never touches an
 * existing file; refuses a name that exists, or that another live process of
 * this machine is writing.  On failure nothing is left behind and err says
 * what and why. */
int results_create(struct results **r, const char *path, int flags, char *err, size_t errlen);
/* The final name the file is to have (chosen once results_begin has run). */
const char *results_path(const struct results *r);
/* Its work name, where it is written until then ("" before results_begin). */
const char *results_work_path(const struct results *r);
/* Root attributes; before the first row only (the writer then switches to SWMR
 * mode, in which no attribute may be created).  Return 0 or -1. */
int results_attr_str(struct results *r, const char *name, const char *value);
int results_attr_int(struct results *r, const char *name, long long value);
int results_attr_u64(struct results *r, const char *name, uint64_t value);
int results_attr_double(struct results *r, const char *name, double value);
/* Put the file in its folder under its name (with RESULTS_UNIQUE, the name
 * chosen now) and switch to SWMR writing; after it, attributes can only be
 * rewritten.  The first append does it if it was not done.  0, or -1 with
 * results_error(). */
int results_begin(struct results *r);
/* Commit one row and its n samples (h2d_ms and d2h_ms may be NULL: zeros) as
 * described above.  Returns 0, or -1 with results_error() saying why; after a
 * failure the file keeps the rows committed before and takes no more. */
int results_append(struct results *r, const struct result_row *row, const double *samples_ms,
                   const double *h2d_ms, const double *d2h_ms, int n);
/* The same with every sample's fields given (`row` and `sample` are set here). */
int results_append_samples(struct results *r, const struct result_row *row,
                           const struct sample_row *samples, int n);
size_t results_rows(const struct results *r);
/* The end of the run: `complete` (every planned point recorded), when, how long. */
int results_finish(struct results *r, int complete, const char *finished_utc, double wall_time_s);
/* Close; a file that results_finish ended (RESULTS_WHOLE_ONLY: ended complete)
 * then takes its final name.  Returns 0; or -1 with err saying why if anything
 * could not be written (then the rows committed before the error are what the
 * work file holds; if there are none, it is removed); or RESULTS_TAKEN when
 * another process took the final name first (the work file is then kept, or
 * with RESULTS_ALL_OR_NOTHING removed).  err may be NULL. */
enum { RESULTS_TAKEN = -2 };
int results_close(struct results *r, char *err, size_t errlen);
/* The same, with where the file now is in `where`: its final name, its work
 * name (not finished, or the name taken), or "" (removed, or never written). */
int results_close_at(struct results *r, char *where, size_t wherelen, char *err, size_t errlen);
/* What the last failed call was doing, and why (HDF5's or the system's words). */
const char *results_error(const struct results *r);

/* A root attribute's value as text, with its kind as stored: a string, a signed
 * or unsigned integer (value in decimal), a float (value as %.17g, which reads
 * back exactly), or anything else (value a description, not the value). */
enum attr_kind { ATTR_TEXT, ATTR_INT, ATTR_UINT, ATTR_FLOAT, ATTR_OTHER };
struct results_attr {
    const char *name, *value;
    enum attr_kind kind;
};

/* Reading back (info, export, compare, tests).  Columns are matched by name, so
 * files of older schemas (without the transfer or resource columns) read with
 * those columns zero. */
struct results_file {
    size_t n_rows, n_samples;
    struct result_row *rows;
    struct sample_row *samples;
    int complete;            /* it holds every planned point (trust.h) */
    long long planned;       /* its run's planned points (`planned_points`); -1 when
                                it does not say (schemas 1-5) */
    size_t damaged;          /* rows not believed, marked "damaged" (trust.h), and rows
                                missing from a file that says it is complete */
    int checksummed;         /* its rows carry checksums (schema 9 on), all checked */
    int schema_version;
    int writer_open;         /* 1: its writer never closed it (the run was killed) */
    char notes[512];         /* what was recovered or dropped; "" for a sound file */
    void *map;               /* rows and samples lie in this mapping (results_file_free
                                unmaps it); NULL: they were malloc'd */
    size_t map_len;
    /* The root attributes, read in the same pass as the rows, in name order (as
     * results_visit_attrs gives them); none, and attrs_why saying why, when they
     * could not be read whole or do not match their checksum (the file is then
     * damaged).  attrs_why is "" when they were read. */
    struct results_attr *attrs;
    size_t n_attrs;
    char attrs_why[1024];
};
int results_read(const char *path, struct results_file *f, char *err, size_t errlen);
/* results_read of n files at once (each in its own reader process, all running
 * together): 0 with every outs[i], or -1 with none and err saying why the first
 * that failed, in the order given, did. */
int results_read_all(const char *const *paths, struct results_file *outs, size_t n, char *err,
                     size_t errlen);
void results_file_free(struct results_file *f);
/* The value of f's attribute `name` as text, or NULL when it has none. */
const char *results_attr_value(const struct results_file *f, const char *name);

/* Visit every root attribute as text, reading only them (for a file whose rows
 * are not wanted, or cannot be read): 0, or -1 with err "PATH: why" when they
 * cannot be read whole or do not match their checksum. */
typedef void (*attr_visit_fn)(const char *name, const char *value, void *ctx);
int results_visit_attrs(const char *path, attr_visit_fn fn, void *ctx, char *err, size_t errlen);
/* The same with each value's kind (enum attr_kind). */
typedef void (*attr_kind_fn)(const char *name, const char *value, enum attr_kind kind, void *ctx);
int results_visit_attrs_kind(const char *path, attr_kind_fn fn, void *ctx, char *err,
                             size_t errlen);

/* A row's text, as progress and reports print it. */
/* "1000x1500x700" */
void shape_str(char *buf, size_t len, int M, int N, int K);
/* "TS=16 WPT=4", "-O2", or "" */
void config_str(char *buf, size_t len, const struct result_row *row);

#endif
