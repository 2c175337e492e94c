/* Experiment files (experiment.h): the values of a sweep's keys.  Variants,
 * sizes and shapes (each of A, B and C indexable by int), the integer axes,
 * host memory, pairing and the corpus keys, each checked as it is read: its
 * form, its range, no repeats, at most EXP_MAX_LIST of a list. */
#include "experiment.h"
#include "experiment_parser.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXP_MAX_DIM 1000000            /* sizes and shape dimensions */
#define EXP_MAX_AXIS 1024              /* tiles, wpts, opt_levels, splits */

/* MxNxK with each dimension in 1..EXP_MAX_DIM. */
static int parse_shape(const char *s, size_t n, int dims[3])
{
    size_t at = 0;
    for (int d = 0; d < 3; d++) {
        size_t end = at;
        while (end < n && s[end] != 'x') end++;
        if ((d < 2) != (end < n)) return 0;
        unsigned long long v;
        if (!parse_uint(s + at, end - at, EXP_MAX_DIM, &v) || v < 1) return 0;
        dims[d] = (int)v;
        at = end + 1;
    }
    return 1;
}

/* The next whitespace-separated token of *p, or NULL at the end. */
static const char *next_token(const char **p, size_t *n)
{
    const char *s = *p;
    while (*s && isspace((unsigned char)*s)) s++;
    if (!*s) return NULL;
    const char *t = s;
    while (*s && !isspace((unsigned char)*s)) s++;
    *n = (size_t)(s - t);
    *p = s;
    return t;
}

/* A (MxK), B (KxN) and C (MxN) must each be indexable by int, as the rungs index. */
static int shape_fits_int(struct parse_ctx *c, const char *kname, const char *tok, size_t n,
                          int M, int N, int K)
{
    const struct {
        const char *what;
        long long elems;
    } m[] = {{"A (M x K)", (long long)M * K}, {"B (K x N)", (long long)K * N},
             {"C (M x N)", (long long)M * N}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (m[i].elems > INT_MAX) {
            parse_fail(c, c->line, "%s: '%.*s' is too large: %s would have %lld elements (expected "
                                   "at most %d in each of A, B and C)",
                       kname, (int)n, tok, m[i].what, m[i].elems, INT_MAX);
            return 0;
        }
    }
    return 1;
}

static void add_shape(struct parse_ctx *c, struct sweep *s, const char *kname, const char *tok,
                      size_t n, int M, int N, int K)
{
    int line = c->line;
    if (!shape_fits_int(c, kname, tok, n, M, N, K)) return;
    for (int i = 0; i < s->n_shapes; i++) {
        const struct shape_entry *h = &s->shapes[i];
        if (h->M == M && h->N == N && h->K == K) {
            parse_fail(c, line, "%s: '%.*s' repeats the shape %dx%dx%d of line %d", kname, (int)n,
                       tok, M, N, K, h->line);
            return;
        }
    }
    if (s->n_shapes == EXP_MAX_LIST) {
        parse_fail(c, line, "%s: more than %d shapes in sweep [%s] (sizes and shapes together): "
                            "'%.*s' would be shape %d", kname, EXP_MAX_LIST, s->name, (int)n, tok,
                   EXP_MAX_LIST + 1);
        return;
    }
    s->shapes[s->n_shapes++] = (struct shape_entry){.M = M, .N = N, .K = K, .line = line};
}

static void add_int(struct parse_ctx *c, struct int_axis *ax, const char *kname,
                    const char *tok, size_t n, const char *example)
{
    int line = c->line;
    unsigned long long x;
    if (!parse_uint(tok, n, EXP_MAX_AXIS, &x)) {
        parse_fail(c, line, "%s: '%.*s' is not an integer from 0 to %d (expected whitespace-"
                            "separated integers, e.g. %s)", kname, (int)n, tok, EXP_MAX_AXIS,
                   example);
        return;
    }
    for (int i = 0; i < ax->n; i++) {
        if (ax->v[i] == (int)x) {
            parse_fail(c, line, "%s: '%.*s' is listed twice", kname, (int)n, tok);
            return;
        }
    }
    if (ax->n == EXP_MAX_LIST) {
        parse_fail(c, line, "%s: more than %d values: '%.*s' would be value %d", kname,
                   EXP_MAX_LIST, (int)n, tok, EXP_MAX_LIST + 1);
        return;
    }
    ax->v[ax->n++] = (int)x;
}

static void add_variant(struct parse_ctx *c, struct sweep *s, const char *tok, size_t n)
{
    int line = c->line;
    if (n >= EXP_NAME_LEN) {
        parse_fail(c, line, "variants: '%.*s' is longer than %d characters", (int)n, tok,
                   EXP_NAME_LEN - 1);
        return;
    }
    if (!is_name(tok, n, 0)) {
        parse_fail(c, line, "variants: '%.*s' is not a variant name (expected letters, digits or "
                            "'_', e.g. gpu_tiled)", (int)n, tok);
        return;
    }
    for (int i = 0; i < s->n_variants; i++) {
        if (strlen(s->variants[i]) == n && memcmp(s->variants[i], tok, n) == 0) {
            parse_fail(c, line, "variants: '%.*s' is listed twice", (int)n, tok);
            return;
        }
    }
    if (s->n_variants == EXP_MAX_LIST) {
        parse_fail(c, line, "variants: more than %d values: '%.*s' would be value %d", EXP_MAX_LIST,
                   (int)n, tok, EXP_MAX_LIST + 1);
        return;
    }
    memcpy(s->variants[s->n_variants], tok, n);
    s->variants[s->n_variants][n] = '\0';
    s->n_variants++;
}

static void add_host_memory(struct parse_ctx *c, struct int_axis *ax, const char *tok, size_t n)
{
    int kind = 0;
    for (int k = HOST_MEMORY_PINNED; k <= HOST_MEMORY_PAGEABLE; k++)
        if (strlen(host_memory_name(k)) == n && memcmp(host_memory_name(k), tok, n) == 0) kind = k;
    if (!kind) {
        parse_fail(c, c->line, "host_memory: '%.*s' is not a kind of host memory (expected pinned "
                               "and/or pageable)", (int)n, tok);
        return;
    }
    for (int i = 0; i < ax->n; i++) {
        if (ax->v[i] == kind) {
            parse_fail(c, c->line, "host_memory: '%.*s' is listed twice", (int)n, tok);
            return;
        }
    }
    ax->v[ax->n++] = kind;
}

const char *host_memory_name(int kind)
{
    return kind == HOST_MEMORY_PINNED ? "pinned" : kind == HOST_MEMORY_PAGEABLE ? "pageable" : "";
}

/* The i-th value of a corpus key (corpus.h). */
static void corpus_value(struct parse_ctx *c, struct sweep *s, int key, int i, const char *tok,
                         size_t n)
{
    struct corpus_spec *k = &s->corpus;
    unsigned long long x;
    if (key == W_CORPUS && i == 0) {
        if (n == 10 && !memcmp(tok, "loguniform", 10)) k->kind = CORPUS_LOGUNIFORM;
        else if (n == 6 && !memcmp(tok, "llama3", 6)) k->kind = CORPUS_LLAMA3;
        else if (n == 9 && !memcmp(tok, "deepbench", 9)) k->kind = CORPUS_DEEPBENCH;
        else {
            parse_fail(c, c->line, "corpus: '%.*s' is not a corpus (expected loguniform and how "
                                   "many shapes, e.g. 'corpus = loguniform 200', or llama3 or "
                                   "deepbench and which half, e.g. 'corpus = llama3 tuning')",
                       (int)n, tok);
            return;
        }
        k->line = c->line;
    } else if (key == W_CORPUS && k->kind != CORPUS_LOGUNIFORM) {
        static const char *const parts[] = {"all", "tuning", "heldout"};
        for (int p = 0; p < 3; p++)
            if (strlen(parts[p]) == n && !memcmp(tok, parts[p], n)) {
                k->part = (enum corpus_part)p;
                return;
            }
        parse_fail(c, c->line, "corpus: '%.*s' is not a part of a listed corpus (expected all, "
                               "tuning or heldout)", (int)n, tok);
    } else if (key == W_CORPUS) {
        if (!parse_uint(tok, n, CORPUS_MAX_COUNT, &x) || x < 1) {
            parse_fail(c, c->line, "corpus: '%.*s' is not a number of shapes (expected 1 to %d)",
                       (int)n, tok, CORPUS_MAX_COUNT);
            return;
        }
        k->count = (int)x;
    } else if (key == W_CORPUS_SEED) {
        if (!parse_uint(tok, n, UINT64_MAX, &x)) {
            parse_fail(c, c->line, "corpus_seed: '%.*s' (expected an unsigned 64-bit integer)",
                       (int)n, tok);
            return;
        }
        k->seed = x;
    } else if (key == W_CORPUS_RANGE) {
        if (!parse_uint(tok, n, CORPUS_MAX_DIM, &x) || x < 1) {
            parse_fail(c, c->line, "corpus_range: '%.*s' (expected two dimensions from 1 to %d, "
                                   "the least and the largest, e.g. 1 16384)", (int)n, tok,
                       CORPUS_MAX_DIM);
            return;
        }
        *(i ? &k->hi : &k->lo) = (int)x;
        k->range_given = 1;
    } else {
        char buf[64], *end;
        double f = NAN;
        if (n < sizeof buf) {
            memcpy(buf, tok, n), buf[n] = '\0';
            errno = 0;
            f = strtod(buf, &end);
            if (end == buf || *end || errno == ERANGE) f = NAN;
        }
        if (!isfinite(f) || !(f > 0.0)) {
            parse_fail(c, c->line, "corpus_flops: '%.*s' (expected two positive numbers, the least "
                                   "and the most 2MNK, e.g. 1e6 1e12)", (int)n, tok);
            return;
        }
        *(i ? &k->flops_hi : &k->flops_lo) = f;
    }
}

void parse_sweep_value(struct parse_ctx *c, int key, const char *v)
{
    struct sweep *s = &c->e->sweeps[c->sweep];
    const char *kname = sweep_keys[key];
    const char *p = v, *tok;
    size_t n;
    while (!c->have_err && (tok = next_token(&p, &n)) != NULL) {
        c->key_values++;
        if (sweep_key_values[key] && c->key_values > sweep_key_values[key]) {
            parse_fail(c, c->line, "%s: '%.*s' is one value too many (expected e.g. '%s = %s')",
                       kname, (int)n, tok, kname, corpus_examples[key]);
            return;
        }
        switch (key) {
        case W_CORPUS:
        case W_CORPUS_SEED:
        case W_CORPUS_RANGE:
        case W_CORPUS_FLOPS: corpus_value(c, s, key, c->key_values - 1, tok, n); break;
        case W_VARIANTS: add_variant(c, s, tok, n); break;
        case W_SIZES: {
            unsigned long long x;
            if (!parse_uint(tok, n, EXP_MAX_DIM, &x) || x < 1) {
                parse_fail(c, c->line, "sizes: '%.*s' is not a size (expected integers from 1 to "
                                       "%d, e.g. 128 256)", (int)n, tok, EXP_MAX_DIM);
                return;
            }
            add_shape(c, s, kname, tok, n, (int)x, (int)x, (int)x);
            break;
        }
        case W_SHAPES: {
            int d[3];
            if (!parse_shape(tok, n, d)) {
                parse_fail(c, c->line, "shapes: '%.*s' is not a shape (expected MxNxK with M, N, "
                                       "K from 1 to %d, e.g. 1000x1500x700)", (int)n, tok,
                           EXP_MAX_DIM);
                return;
            }
            add_shape(c, s, kname, tok, n, d[0], d[1], d[2]);
            break;
        }
        case W_TILES: add_int(c, &s->tiles, kname, tok, n, "8 16 32"); break;
        case W_WPTS: add_int(c, &s->wpts, kname, tok, n, "1 2 4"); break;
        case W_OPT_LEVELS: add_int(c, &s->opt_levels, kname, tok, n, "0 1 2 3"); break;
        case W_HOST_MEMORY: add_host_memory(c, &s->host_memory, tok, n); break;
        case W_SPLITS: add_int(c, &s->splits, kname, tok, n, "0 2 8"); break;
        case W_CONFIGS:
            if (n != 3 || memcmp(tok, "all", 3) != 0 || s->all_configs) {
                parse_fail(c, c->line, "configs: '%.*s' (expected 'all': every configuration each "
                                       "rung declares, instead of tiles x wpts)", (int)n, tok);
                return;
            }
            s->all_configs = c->line;
            break;
        case W_PAIRING:
            if ((n == 4 && !memcmp(tok, "abba", 4)) || (n == 4 && !memcmp(tok, "none", 4))) {
                if (s->pairing_line) {
                    parse_fail(c, c->line, "pairing: '%.*s' after another value (expected one: "
                                           "abba or none)", (int)n, tok);
                    return;
                }
                s->unpaired = tok[0] == 'n';
                s->pairing_line = c->line;
                break;
            }
            parse_fail(c, c->line, "pairing: '%.*s' (expected abba, the rung sampled alternately "
                                   "with its reference, or none, the rung alone)", (int)n, tok);
            return;
        }
    }
}
