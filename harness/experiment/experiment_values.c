/* Experiment files (experiment.h): the values of [experiment] (name,
 * description, seed) and of [sampling] (sample counts, times, the kernel
 * timer), each checked as it is read. */
#include "experiment.h"
#include "experiment_parser.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void parse_experiment_value(struct parse_ctx *c, int key, const char *v, int cont)
{
    struct experiment *e = c->e;
    int line = c->line;
    size_t n = strlen(v);
    if (cont && key != K_DESCRIPTION) {
        parse_fail(c, line, "%s: indented line '%s' would continue a key that takes one value "
                            "(remove the indentation)", exp_keys[key], v);
        return;
    }
    switch (key) {
    case K_NAME:
        if (n >= EXP_NAME_LEN) {
            parse_fail(c, line, "name: '%s' is longer than %d characters", v, EXP_NAME_LEN - 1);
            return;
        }
        if (!is_name(v, n, 1)) {
            parse_fail(c, line, "name: '%s' (expected letters, digits, '_' or '-')", v);
            return;
        }
        memcpy(e->name, v, n + 1);
        break;
    case K_DESCRIPTION: {
        size_t have = strlen(e->description);
        size_t sep = (cont && have > 0 && n > 0) ? 1 : 0;
        if (have + sep + n >= sizeof e->description) {
            parse_fail(c, line, "description: longer than %zu characters",
                       sizeof e->description - 1);
            return;
        }
        if (sep) e->description[have++] = ' ';
        memcpy(e->description + have, v, n + 1);
        break;
    }
    case K_SEED: {
        unsigned long long seed;
        if (!parse_uint(v, n, UINT64_MAX, &seed)) {
            parse_fail(c, line, "seed: '%s' is not an unsigned 64-bit integer", v);
            return;
        }
        e->seed = (uint64_t)seed;
        break;
    }
    }
}

void parse_sampling_value(struct parse_ctx *c, int key, const char *v, int cont)
{
    struct experiment *e = c->e;
    int line = c->line;
    const char *kname = sampling_keys[key];
    if (cont) {
        parse_fail(c, line, "[sampling] %s: indented line '%s' would continue a key that takes "
                            "one value (remove the indentation)", kname, v);
        return;
    }
    switch (key) {
    case S_KERNEL_TIMER:
        if (!strcmp(v, "cupti") || !strcmp(v, "none"))
            e->kernel_timer = !strcmp(v, "cupti");
        else
            parse_fail(c, line, "[sampling] %s: '%s' (expected cupti or none)", kname, v);
        break;
    case S_GPU_MIN_SAMPLES:
    case S_GPU_MAX_SAMPLES:
    case S_HOST_MIN_SAMPLES:
    case S_HOST_MAX_SAMPLES: {
        unsigned long long x;
        if (!parse_uint(v, strlen(v), ULLONG_MAX, &x) || x < 1) {
            parse_fail(c, line, "[sampling] %s: '%s' (expected an integer >= 1)", kname, v);
            return;
        }
        if (x > EXP_MAX_SAMPLES) {
            parse_fail(c, line, "[sampling] %s: '%s' is too large (expected an integer from 1 "
                                "to %d)", kname, v, EXP_MAX_SAMPLES);
            return;
        }
        int *dst = key == S_GPU_MIN_SAMPLES    ? &e->gpu_rule.min_samples
                   : key == S_GPU_MAX_SAMPLES  ? &e->gpu_rule.max_samples
                   : key == S_HOST_MIN_SAMPLES ? &e->host_rule.min_samples
                                               : &e->host_rule.max_samples;
        *dst = (int)x;
        break;
    }
    default: {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || *end != '\0' || errno == ERANGE || !isfinite(x) || !(x > 0.0)) {
            if (key == S_TARGET_REL_STDDEV)
                parse_fail(c, line, "[sampling] %s: '%s' (expected a positive fraction, e.g. "
                                    "0.005)", kname, v);
            else if (key == S_HOST_POINT_BUDGET_S)
                parse_fail(c, line, "[sampling] %s: '%s' (expected a positive number of seconds, "
                                    "e.g. 60)", kname, v);
            else
                parse_fail(c, line,
                           "[sampling] %s: '%s' (expected a positive number of milliseconds, "
                           "e.g. 250 or 0.5)", kname, v);
            return;
        }
        switch (key) {
        case S_GPU_MIN_TIME_MS: e->gpu_rule.min_time_ms = x; break;
        case S_GPU_TIMEOUT_MS: e->gpu_rule.timeout_ms = x; break;
        case S_HOST_MIN_TIME_MS: e->host_rule.min_time_ms = x; break;
        case S_HOST_TIMEOUT_MS: e->host_rule.timeout_ms = x; break;
        case S_HOST_LONG_POINT_MS: e->host_rule.long_point_ms = x; break;
        case S_TARGET_REL_STDDEV:
            e->gpu_rule.target_rel_stddev = x;
            e->host_rule.target_rel_stddev = x;
            break;
        case S_HOST_POINT_BUDGET_S: e->host_point_budget_s = x; break;
        case S_GPU_MIN_SAMPLE_MS: e->gpu_rule.min_sample_ms = x; break;
        case S_GPU_WARMUP_MIN_MS: e->gpu_rule.warmup_min_ms = x; break;
        case S_GPU_WARMUP_MAX_MS: e->gpu_rule.warmup_max_ms = x; break;
        case S_GPU_CAPPED_SAMPLE_MS: e->gpu_rule.capped_sample_ms = x; break;
        case S_GPU_WARMUP_WINDOW_MS: e->gpu_rule.warmup_window_ms = x; break;
        case S_GPU_SHAPE_WARMUP_MS: e->gpu_rule.shape_warmup_ms = x; break;
        case S_GPU_PARITY_TIMEOUT_MS: e->gpu_rule.parity_timeout_ms = x; break;
        }
        break;
    }
    }
}
