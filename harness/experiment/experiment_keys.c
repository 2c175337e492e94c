/* Experiment files (experiment.h): what every piece of the parser
 * (experiment_parser.h) shares and calls, and nothing it calls back: the names
 * of each section's keys, the error kept (the first line's), and the end of a
 * key (a list may not stay empty). */
#include "experiment.h"
#include "experiment_parser.h"

#include <stdarg.h>
#include <stdio.h>

/* ---- the names of each section's keys (experiment_parser.h) ------------- */

const char *const exp_keys[N_EXP_KEYS] = {"name", "description", "seed"};

const char *const sampling_keys[N_SAMPLING_KEYS] = {
    "gpu_min_samples",  "gpu_max_samples",  "gpu_min_time_ms",  "gpu_timeout_ms",
    "host_min_samples", "host_max_samples", "host_min_time_ms", "host_timeout_ms",
    "host_long_point_ms", "target_rel_stddev", "host_point_budget_s", "gpu_min_sample_ms",
    "gpu_warmup_min_ms", "gpu_warmup_max_ms", "gpu_capped_sample_ms", "gpu_warmup_window_ms",
    "gpu_shape_warmup_ms", "gpu_parity_timeout_ms", "kernel_timer"};

const char *const sweep_keys[N_SWEEP_KEYS] = {
    "variants", "sizes",   "shapes",  "tiles",       "wpts",         "opt_levels",   "host_memory",
    "splits",   "configs", "pairing", "corpus",      "corpus_seed",  "corpus_range", "corpus_flops"};
const int sweep_key_values[N_SWEEP_KEYS] = {[W_CORPUS] = 2, [W_CORPUS_SEED] = 1,
                                            [W_CORPUS_RANGE] = 2, [W_CORPUS_FLOPS] = 2};
const char *const corpus_examples[N_SWEEP_KEYS] = {
    [W_CORPUS] = "loguniform 200' or 'corpus = llama3 tuning", [W_CORPUS_SEED] = "7",
    [W_CORPUS_RANGE] = "1 16384",
    [W_CORPUS_FLOPS] = "1e6 1e12"};

/* ---- errors ---------------------------------------------------------------- */

void parse_fail(struct parse_ctx *c, int line, const char *fmt, ...)
{
    if (c->have_err && line >= c->err_line) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    c->err_line = line;
    c->have_err = 1;
}

/* ---- the end of a key: lists may not stay empty ------------------------ */

void parse_finish_key(struct parse_ctx *c)
{
    if (c->key >= 0 && c->sec == SEC_SWEEP && c->key_values == 0)
        parse_fail(c, c->key_line, "%s: empty list", sweep_keys[c->key]);
    else if (c->key >= 0 && c->sec == SEC_SWEEP && sweep_key_values[c->key] &&
             c->key_values < sweep_key_values[c->key])
        parse_fail(c, c->key_line, "%s: %d value%s where it takes %d (expected e.g. '%s = %s')",
                   sweep_keys[c->key], c->key_values, c->key_values == 1 ? "" : "s",
                   sweep_key_values[c->key], sweep_keys[c->key], corpus_examples[c->key]);
    c->key = -1;
}
