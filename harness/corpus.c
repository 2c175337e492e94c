/* Corpora of shapes: see corpus.h. */
#include "corpus.h"

#include <math.h>
#include <stdio.h>

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

int corpus_draw(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                struct corpus_shape *out, char *err, size_t errlen)
{
    uint64_t state = s->seed;
    for (int i = 0; i < s->count; i++) {
        int tries = 0;
        for (;;) {
            if (++tries > CORPUS_DRAWS_PER_SHAPE) {
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
            const double flops = 2.0 * c.M * (double)c.N * c.K;
            if (flops < s->flops_lo || flops > s->flops_hi) continue;
            if (seen(out, (size_t)i, c) || seen(avoid, n_avoid, c)) continue;
            out[i] = c;
            break;
        }
    }
    return 0;
}
