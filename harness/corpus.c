/* Corpora of shapes: see corpus.h. */
#include "corpus.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "inputs.h"

void corpus_defaults(struct corpus_spec *s)
{
    s->lo = 1, s->hi = 16384;
    s->flops_lo = 0, s->flops_hi = INFINITY;
}

/* An integer of [lo, hi], log-uniform: exp of a uniform over [log lo, log(hi+1)),
 * floored.  53 random bits make the uniform. */
static int log_uniform(uint64_t *state, int lo, int hi)
{
    const double u = (double)(splitmix64(state) >> 11) * 0x1.0p-53;
    const double a = log((double)lo), b = log((double)hi + 1.0);
    const int x = (int)floor(exp(a + u * (b - a)));
    return x < lo ? lo : x > hi ? hi : x;
}

static int seen(const struct corpus_shape *list, size_t n, struct corpus_shape s)
{
    for (size_t i = 0; i < n; i++)
        if (list[i].M == s.M && list[i].N == s.N && list[i].K == s.K) return 1;
    return 0;
}

/* Within the spec's range and window, and A, B and C of at most INT_MAX elements. */
static int admits(const struct corpus_spec *s, struct corpus_shape c)
{
    const double flops = 2.0 * c.M * (double)c.N * c.K;
    const int lo = s->kind == CORPUS_LLAMA3 && !s->range_given ? 1 : s->lo;
    const int hi = s->kind == CORPUS_LLAMA3 && !s->range_given ? CORPUS_MAX_DIM : s->hi;
    return c.M >= lo && c.M <= hi && c.N >= lo && c.N <= hi && c.K >= lo && c.K <= hi &&
           flops >= s->flops_lo && flops <= s->flops_hi &&
           (double)c.M * c.K <= INT_MAX && (double)c.K * c.N <= INT_MAX &&
           (double)c.M * c.N <= INT_MAX;
}

static int draw_loguniform(const struct corpus_spec *s, const struct corpus_shape *avoid,
                           size_t n_avoid, struct corpus_shape *out, char *err, size_t errlen)
{
    uint64_t state = s->seed;
    for (int i = 0; i < s->count; i++) {
        for (int tries = 1;; tries++) {
            if (tries > CORPUS_DRAWS_PER_SHAPE) {
                snprintf(err, errlen,
                         "corpus: no new shape of %d..%d with 2MNK in [%g, %g] after %d draws "
                         "(shape %d of %d; expected a wider range or FLOP window, or fewer "
                         "shapes)", s->lo, s->hi, s->flops_lo, s->flops_hi,
                         CORPUS_DRAWS_PER_SHAPE, i + 1, s->count);
                return -1;
            }
            struct corpus_shape c;
            c.M = log_uniform(&state, s->lo, s->hi);
            c.N = log_uniform(&state, s->lo, s->hi);
            c.K = log_uniform(&state, s->lo, s->hi);
            if (!admits(s, c) || seen(out, (size_t)i, c) || seen(avoid, n_avoid, c)) continue;
            out[i] = c;
            break;
        }
    }
    return 0;
}

/* Which half of the corpus a shape is in: a hash of (seed, M, N, K). */
static enum corpus_part half_of(uint64_t seed, struct corpus_shape c)
{
    uint64_t h = seed ^ ((uint64_t)c.M << 42 ^ (uint64_t)c.N << 21 ^ (uint64_t)c.K);
    return splitmix64(&h) & 1 ? CORPUS_HELDOUT : CORPUS_TUNING;
}

#define LLAMA3_SHAPES (2 * 4 * 4 * 15)

static size_t list_llama3(const struct corpus_spec *s, const struct corpus_shape *avoid,
                          size_t n_avoid, struct corpus_shape *out)
{
    static const struct {
        int hidden, mlp;
    } model[2] = {{4096, 14336}, {8192, 28672}};
    const int kv = 2 * 8 * 128;   /* K and V: 8 heads of 128 each */
    size_t n = 0;
    for (int m = 0; m < 2; m++)
        for (int proj = 0; proj < 4; proj++)
            for (int tp = 1; tp <= 8; tp *= 2)
                for (int tokens = 1; tokens <= 16384; tokens *= 2) {
                    const int h = model[m].hidden, f = model[m].mlp;
                    struct corpus_shape c = {tokens, 0, 0};
                    switch (proj) {
                    case 0: c.K = h, c.N = (h + kv) / tp; break;   /* QKV, by columns */
                    case 1: c.K = h / tp, c.N = h; break;          /* output, by rows */
                    case 2: c.K = h, c.N = 2 * f / tp; break;      /* gate and up */
                    default: c.K = f / tp, c.N = h; break;         /* down */
                    }
                    if (!admits(s, c) || seen(out, n, c) || seen(avoid, n_avoid, c)) continue;
                    if (s->part != CORPUS_ALL && half_of(s->seed, c) != s->part) continue;
                    out[n++] = c;
                }
    return n;
}

int corpus_shapes(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                  struct corpus_shape **out, size_t *n, char *err, size_t errlen)
{
    const size_t cap = s->kind == CORPUS_LLAMA3 ? LLAMA3_SHAPES : (size_t)s->count;
    *out = malloc((cap ? cap : 1) * sizeof **out);
    *n = 0;
    if (!*out) {
        snprintf(err, errlen, "corpus: out of memory for %zu shapes", cap);
        return -1;
    }
    if (s->kind == CORPUS_LLAMA3) {
        *n = list_llama3(s, avoid, n_avoid, *out);
        return 0;
    }
    if (s->kind == CORPUS_LOGUNIFORM) {
        if (draw_loguniform(s, avoid, n_avoid, *out, err, errlen) != 0) {
            free(*out);
            *out = NULL;
            return -1;
        }
        *n = (size_t)s->count;
    }
    return 0;
}
