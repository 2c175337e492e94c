/* libFuzzer target for the experiment-file parser (the .c files of harness/experiment/).
 *
 * Each input is taken as the text of an experiment file and parsed with
 * experiment_parse, then freed.  Built with -fsanitize=fuzzer,address,undefined
 * by `make fuzz`: any crash, out-of-bounds access, undefined behaviour or leak
 * fails the run.  Besides not crashing, the parser must keep its promises
 * (experiment.h), checked here; a broken one aborts, which libFuzzer reports
 * as a crash with the input that caused it:
 *   - a refusal is -1 with "PATH:LINE: ..." or "PATH: ..." in err and *e empty;
 *   - it never reports an "internal error" (inih and the parser disagreeing);
 *   - an accepted file keeps its text verbatim and every value within the
 *     limits the header states. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment/experiment.h"

#define PATH "fuzz.ini"

static void broken(const char *what, const char *err)
{
    fprintf(stderr, "fuzz_experiment: broken promise: %s (message: \"%s\")\n", what, err);
    abort();
}

static void check_refusal(const struct experiment *e, const char *err)
{
    const char *what = err + strlen(PATH ":");   /* past "PATH:", then "LINE:" if any */
    if (strncmp(err, PATH ":", strlen(PATH ":")) != 0 ||
        !(*what == ' ' || (*what >= '1' && *what <= '9')))
        broken("message without 'PATH: ' or 'PATH:LINE: '", err);
    while (*what >= '0' && *what <= '9') what++;
    if (*what == ':') what++;
    if (*what++ != ' ' || !*what) broken("empty message", err);
    if (strncmp(what, "internal error", 14) == 0) broken("inih and the parser disagree", err);
    if (e->text || e->text_len || e->n_sweeps || e->name[0]) broken("refused but not emptied", err);
}

static int positive(double x) { return isfinite(x) && x > 0.0; }

static void check_rule(const struct sampling_rule *r)
{
    if (r->min_samples < 1 || r->max_samples < r->min_samples) broken("samples out of order", "");
    if (!positive(r->min_time_ms) || !positive(r->timeout_ms) || !positive(r->long_point_ms) ||
        !positive(r->target_rel_stddev))
        broken("a sampling value is not a positive number", "");
}

static void check_axis(const struct int_axis *ax)
{
    if (ax->n < 0 || ax->n > EXP_MAX_LIST) broken("axis length out of range", "");
    if (ax->n > 0 && ax->line < 1) broken("axis without its line", "");
}

static void check_sweep(const struct sweep *s)
{
    if (!s->name[0] || s->line < 1) broken("sweep without a name or line", "");
    if (s->n_variants < 1 || s->n_variants > EXP_MAX_LIST || s->variants_line < 1)
        broken("sweep variants out of range", "");
    for (int i = 0; i < s->n_variants; i++)
        if (!s->variants[i][0] || strlen(s->variants[i]) >= EXP_NAME_LEN)
            broken("bad variant name", "");
    if (s->n_shapes < (s->corpus.kind ? 0 : 1) || s->n_shapes > EXP_MAX_LIST)
        broken("shape count out of range", "");
    const struct corpus_spec *c = &s->corpus;
    if (c->kind && (c->line < 1 || c->lo < 1 || c->hi > CORPUS_MAX_DIM || c->lo > c->hi ||
                    !(c->flops_lo >= 0) || !(c->flops_lo <= c->flops_hi) ||
                    (c->kind == CORPUS_LOGUNIFORM && (c->count < 1 || c->count > CORPUS_MAX_COUNT))))
        broken("a corpus out of its limits", "");
    for (int i = 0; i < s->n_shapes; i++) {
        const struct shape_entry *h = &s->shapes[i];
        if (h->M < 1 || h->N < 1 || h->K < 1 || h->line < 1) broken("bad shape", "");
        if ((long long)h->M * h->N > INT_MAX || (long long)h->M * h->K > INT_MAX ||
            (long long)h->K * h->N > INT_MAX)
            broken("a matrix of the shape has more than INT_MAX elements", "");
    }
    check_axis(&s->tiles);
    check_axis(&s->wpts);
    check_axis(&s->opt_levels);
    check_axis(&s->host_memory);
}

static void check_accepted(const struct experiment *e, const char *text)
{
    if (!e->text || strcmp(e->text, text) != 0 || e->text_len != strlen(text))
        broken("accepted text not kept verbatim", "");
    if (strcmp(e->path, PATH) != 0) broken("path not kept", "");
    if (!e->name[0] || strlen(e->name) >= EXP_NAME_LEN) broken("bad name", "");
    if (strlen(e->description) >= sizeof e->description) broken("description too long", "");
    if (e->n_sweeps < 1 || e->n_sweeps > EXP_MAX_SWEEPS) broken("sweep count out of range", "");
    if (!positive(e->host_point_budget_s)) broken("host point budget not positive", "");
    check_rule(&e->gpu_rule);
    check_rule(&e->host_rule);
    for (int i = 0; i < e->n_sweeps; i++) check_sweep(&e->sweeps[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The parser takes a C string, as experiment_load hands it one (a file with
     * a NUL byte is refused before parsing). */
    if (memchr(data, '\0', size)) return -1;   /* not added to the corpus */
    /* 200 kB: reused (experiment_parse zeroes it first), since allocating and
     * poisoning it anew under ASan would take most of each execution. */
    static struct experiment exp;
    struct experiment *e = &exp;
    char *text = malloc(size + 1);
    char err[1024];
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';

    int r = experiment_parse(PATH, text, e, err, sizeof err);
    if (r == 0)
        check_accepted(e, text);
    else if (r == -1)
        check_refusal(e, err);
    else
        broken("return value neither 0 nor -1", err);

    experiment_free(e);
    if (e->text) broken("experiment_free left the text", "");
    free(text);
    return 0;
}
