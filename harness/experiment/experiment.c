/* Experiment files (experiment.h): the entry points.  Reading a file (a
 * regular file of text, at most 1 MiB), parsing it with inih (the reader and
 * the handler, experiment_reader.c and experiment_handler.c), and what is
 * checked once the last line is read (required keys, sampling bounds, a
 * sweep's keys that go together).  The names of the keys and the error kept
 * are experiment_keys.c's.
 * experiment_parser.h lists the pieces and why inih is driven this way. */
#include "experiment.h"
#include "experiment_parser.h"

#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXP_MAX_FILE_BYTES (1L << 20)

/* ---- after the last line ----------------------------------------------- */

static void check_samples(struct parse_ctx *c, const char *which, const struct sampling_rule *r,
                          int min_key, int max_key)
{
    if (r->max_samples >= r->min_samples) return;
    int lmin = c->sampling_lines[min_key], lmax = c->sampling_lines[max_key];
    parse_fail(c, lmin > lmax ? lmin : lmax,
               "[sampling] %s_max_samples (%d%s) is less than %s_min_samples (%d%s)", which,
               r->max_samples, lmax ? "" : ", the default", which, r->min_samples,
               lmin ? "" : ", the default");
}

static void check_complete(struct parse_ctx *c)
{
    struct experiment *e = c->e;
    if (!c->experiment_line) {
        parse_fail(c, 0, "missing [experiment] section (expected 'name' and 'seed' in it)");
        return;
    }
    if (!c->exp_lines[K_NAME]) {
        parse_fail(c, c->experiment_line, "[experiment] has no 'name'");
        return;
    }
    if (!c->exp_lines[K_SEED]) {
        parse_fail(c, c->experiment_line, "[experiment] has no 'seed'");
        return;
    }
    check_samples(c, "gpu", &e->gpu_rule, S_GPU_MIN_SAMPLES, S_GPU_MAX_SAMPLES);
    if (c->have_err) return;
    check_samples(c, "host", &e->host_rule, S_HOST_MIN_SAMPLES, S_HOST_MAX_SAMPLES);
    if (c->have_err) return;
    for (int i = 0; i < e->n_sweeps; i++) {
        const struct sweep *s = &e->sweeps[i];
        if (!c->sweep_lines[i][W_VARIANTS]) {
            parse_fail(c, s->line, "sweep [%s] has no 'variants'", s->name);
            return;
        }
        const int *kl = c->sweep_lines[i];
        if (!kl[W_SIZES] && !kl[W_SHAPES] && !kl[W_CORPUS]) {
            parse_fail(c, s->line, "sweep [%s] has no 'sizes', 'shapes' or 'corpus'", s->name);
            return;
        }
        if (!kl[W_CORPUS] && (kl[W_CORPUS_SEED] || kl[W_CORPUS_RANGE] || kl[W_CORPUS_FLOPS])) {
            const int w = kl[W_CORPUS_SEED] ? W_CORPUS_SEED : kl[W_CORPUS_RANGE] ? W_CORPUS_RANGE
                                                                                 : W_CORPUS_FLOPS;
            parse_fail(c, kl[w], "sweep [%s]: '%s' without 'corpus' (expected e.g. 'corpus = "
                                 "loguniform 200' beside it)", s->name, sweep_keys[w]);
            return;
        }
        if (kl[W_CORPUS] && !kl[W_CORPUS_SEED]) {
            parse_fail(c, kl[W_CORPUS], "sweep [%s]: 'corpus' without 'corpus_seed' (expected "
                                        "the seed its shapes are drawn from: a tuning set and a "
                                        "held-out set differ by it)", s->name);
            return;
        }
        if (s->corpus.lo > s->corpus.hi) {
            parse_fail(c, kl[W_CORPUS_RANGE], "corpus_range: %d is more than %d (expected the "
                                              "least dimension first)", s->corpus.lo, s->corpus.hi);
            return;
        }
        if (s->corpus.flops_lo > s->corpus.flops_hi) {
            parse_fail(c, kl[W_CORPUS_FLOPS], "corpus_flops: %g is more than %g (expected the "
                                              "least first)", s->corpus.flops_lo,
                       s->corpus.flops_hi);
            return;
        }
        const int axis = c->sweep_lines[i][W_TILES] ? c->sweep_lines[i][W_TILES]
                                                    : c->sweep_lines[i][W_WPTS];
        if (s->all_configs && axis) {
            parse_fail(c, axis, "sweep [%s]: '%s' beside 'configs = all' (line %d), which takes "
                                "every configuration already (expected one or the other)", s->name,
                       c->sweep_lines[i][W_TILES] ? "tiles" : "wpts", s->all_configs);
            return;
        }
    }
    if (e->n_sweeps == 0)
        parse_fail(c, 0, "no sweep section (expected at least one [name] section with 'variants' "
                         "and 'sizes' or 'shapes')");
}

/* Parse text (len bytes, NUL-terminated, owned from here on) into *e. */
static int parse_owned(const char *path, char *text, size_t len, struct experiment *e,
                       char *err, size_t errlen)
{
    struct parse_ctx *c = calloc(1, sizeof *c);
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    if (!c) {
        free(text);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    e->text = text;
    e->text_len = len;
    e->gpu_rule = sampling_default_gpu();
    e->host_rule = sampling_default_host();
    e->host_point_budget_s = EXP_DEFAULT_HOST_POINT_BUDGET_S;

    c->e = e;
    c->text = text;
    c->len = len;
    c->key = -1;

    int r = parse_with_inih(c);
    if (!c->have_err) parse_finish_key(c);
    if (r > 0 && (!c->have_err || r < c->err_line))
        parse_fail(c, r, "syntax error (expected 'key = value', '[section]' or a ';' comment)");
    else if (r < 0 && !c->have_err)
        parse_fail(c, 0, "inih failed (%d)", r);
    if (!c->have_err) check_complete(c);

    if (!c->have_err) {
        free(c);
        return 0;
    }
    if (err && errlen) {
        if (c->err_line > 0)
            snprintf(err, errlen, "%s:%d: %s", path, c->err_line, c->msg);
        else
            snprintf(err, errlen, "%s: %s", path, c->msg);
    }
    free(c);
    free(text);
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    return -1;
}

int experiment_parse(const char *path, const char *text, struct experiment *e, char *err,
                     size_t errlen)
{
    if (!path) path = "(experiment)";
    if (!text) {
        memset(e, 0, sizeof *e);
        if (err && errlen) snprintf(err, errlen, "%s: no text", path);
        return -1;
    }
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy) {
        memset(e, 0, sizeof *e);
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(copy, text, len + 1);
    return parse_owned(path, copy, len, e, err, errlen);
}

int experiment_load(const char *path, struct experiment *e, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    char why_not[128];
    if (files_check_regular(path, why_not, sizeof why_not)) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, why_not);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    const char *why = NULL;
    while (buf) {
        if (len + 1 == cap) {
            char *nb = cap > (size_t)EXP_MAX_FILE_BYTES ? NULL : realloc(buf, 2 * cap);
            if (!nb) {
                why = cap > (size_t)EXP_MAX_FILE_BYTES ? "larger than 1 MiB (not an experiment "
                                                         "file?)"
                                                       : "out of memory";
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) why = strerror(errno);
            break;
        }
    }
    fclose(f);
    if (!buf) why = "out of memory";
    if (!why && len > (size_t)EXP_MAX_FILE_BYTES)
        why = "larger than 1 MiB (not an experiment file?)";
    if (!why && memchr(buf, '\0', len)) why = "contains a NUL byte (not a text file?)";
    if (why) {
        if (err && errlen) snprintf(err, errlen, "%s: cannot read: %s", path, why);
        free(buf);
        return -1;
    }
    buf[len] = '\0';
    return parse_owned(path, buf, len, e, err, errlen);
}

void experiment_free(struct experiment *e)
{
    if (!e) return;
    free(e->text);
    e->text = NULL;
    e->text_len = 0;
}
