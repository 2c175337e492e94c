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
    const int listed = s->kind != CORPUS_LOGUNIFORM && !s->range_given;   /* every size */
    const int lo = listed ? 1 : s->lo, hi = listed ? INT_MAX : s->hi;
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

/* Append c to out[0..*n) if the spec admits it, it is new, and it is in the
 * spec's half. */
static void keep(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                 struct corpus_shape c, struct corpus_shape *out, size_t *n)
{
    if (!admits(s, c) || seen(out, *n, c) || seen(avoid, n_avoid, c)) return;
    if (s->part != CORPUS_ALL && half_of(s->seed, c) != s->part) return;
    out[(*n)++] = c;
}

#define LLAMA3_SHAPES (2 * 4 * 4 * 15)

/* DeepBench's GEMM sizes (github.com/baidu-research/DeepBench,
 * code/kernels/gemm_problems.h: its training, inference-server and
 * inference-device sets, in that order), as M, N, K; its transposes dropped,
 * each size once. */
static const struct corpus_shape deepbench[] = {
    {1760, 16, 1760}, {1760, 32, 1760}, {1760, 64, 1760}, {1760, 128, 1760}, {1760, 7000, 1760},
    {2048, 16, 2048}, {2048, 32, 2048}, {2048, 64, 2048}, {2048, 128, 2048}, {2048, 7000, 2048},
    {2560, 16, 2560}, {2560, 32, 2560}, {2560, 64, 2560}, {2560, 128, 2560}, {2560, 7000, 2560},
    {4096, 16, 4096}, {4096, 32, 4096}, {4096, 64, 4096}, {4096, 128, 4096}, {4096, 7000, 4096},
    {1760, 7133, 1760}, {2048, 7133, 2048}, {2560, 7133, 2560}, {4096, 7133, 4096},
    {5124, 9124, 1760}, {35, 8457, 1760}, {5124, 9124, 2048}, {35, 8457, 2048}, {5124, 9124, 2560},
    {35, 8457, 2560}, {5124, 9124, 4096}, {35, 8457, 4096}, {7680, 16, 2560}, {7680, 32, 2560},
    {7680, 64, 2560}, {7680, 128, 2560}, {3072, 16, 1024}, {3072, 32, 1024}, {3072, 64, 1024},
    {3072, 128, 1024}, {3072, 7435, 1024}, {7680, 5481, 2560}, {512, 8, 500000}, {1024, 8, 500000},
    {512, 16, 500000}, {1024, 16, 500000}, {1024, 700, 512}, {7680, 24000, 2560},
    {6144, 24000, 2048}, {4608, 24000, 1536}, {8448, 24000, 2816}, {3072, 24000, 1024},
    {7680, 48000, 2560}, {6144, 48000, 2048}, {4608, 48000, 1536}, {8448, 48000, 2816},
    {3072, 48000, 1024}, {6144, 16, 2048}, {4608, 16, 1536}, {8448, 16, 2816}, {6144, 32, 2048},
    {4608, 32, 1536}, {8448, 32, 2816}, {512, 24000, 2816}, {512, 24000, 2048}, {512, 24000, 2560},
    {512, 24000, 1536}, {1024, 24000, 2816}, {1024, 24000, 2048}, {1024, 24000, 2560},
    {1024, 24000, 1536}, {512, 16, 512}, {1024, 16, 512}, {512, 48000, 2816}, {512, 48000, 2048},
    {512, 48000, 2560}, {512, 48000, 1536}, {1024, 48000, 2816}, {1024, 48000, 2048},
    {1024, 48000, 2560}, {1024, 48000, 1536}, {512, 32, 512}, {1024, 32, 512}, {5124, 700, 2048},
    {35, 700, 2048}, {5124, 700, 2560}, {35, 700, 2560}, {5124, 1500, 2048}, {35, 1500, 2048},
    {5124, 1500, 2560}, {35, 1500, 2560}, {7680, 1, 2560}, {7680, 2, 2560}, {7680, 4, 2560},
    {3072, 1, 1024}, {3072, 2, 1024}, {3072, 4, 1024}, {512, 1, 500000}, {1024, 1, 500000},
    {512, 2, 500000}, {1024, 2, 500000}, {512, 4, 500000}, {1024, 4, 500000}, {7680, 1500, 2560},
    {6144, 1500, 2048}, {4608, 1500, 1536}, {8448, 1500, 2816}, {3072, 1500, 1024},
    {7680, 3000, 2560}, {6144, 3000, 2048}, {4608, 3000, 1536}, {8448, 3000, 2816},
    {3072, 3000, 1024}, {7680, 6000, 2560}, {6144, 6000, 2048}, {4608, 6000, 1536},
    {8448, 6000, 2816}, {3072, 6000, 1024}, {6144, 1, 2048}, {4608, 1, 1536}, {8448, 1, 2816},
    {6144, 2, 2048}, {4608, 2, 1536}, {8448, 2, 2816}, {6144, 4, 2048}, {4608, 4, 1536},
    {8448, 4, 2816}, {512, 1500, 2816}, {512, 1500, 2048}, {512, 1500, 2560}, {512, 1500, 1536},
    {1024, 1500, 2816}, {1024, 1500, 2048}, {1024, 1500, 2560}, {1024, 1500, 1536}, {512, 1, 512},
    {1024, 1, 512}, {512, 3000, 2816}, {512, 3000, 2048}, {512, 3000, 2560}, {512, 3000, 1536},
    {1024, 3000, 2816}, {1024, 3000, 2048}, {1024, 3000, 2560}, {1024, 3000, 1536}, {512, 2, 512},
    {1024, 2, 512}, {512, 6000, 2816}, {512, 6000, 2048}, {512, 6000, 2560}, {512, 6000, 1536},
    {1024, 6000, 2816}, {1024, 6000, 2048}, {1024, 6000, 2560}, {1024, 6000, 1536}, {512, 4, 512},
    {1024, 4, 512}, {64, 1, 1216}, {128, 1500, 1280}, {3072, 1500, 128}, {128, 1, 1024},
    {3072, 1, 128}, {176, 1500, 1408}, {4224, 1500, 176}, {128, 1, 1408}, {4224, 1, 128}
};
#define DEEPBENCH_SHAPES (sizeof deepbench / sizeof deepbench[0])

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
                    keep(s, avoid, n_avoid, c, out, &n);
                }
    return n;
}

int corpus_shapes(const struct corpus_spec *s, const struct corpus_shape *avoid, size_t n_avoid,
                  struct corpus_shape **out, size_t *n, char *err, size_t errlen)
{
    const size_t cap = s->kind == CORPUS_LLAMA3      ? LLAMA3_SHAPES
                       : s->kind == CORPUS_DEEPBENCH ? DEEPBENCH_SHAPES
                                                     : (size_t)s->count;
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
    if (s->kind == CORPUS_DEEPBENCH) {
        for (size_t i = 0; i < DEEPBENCH_SHAPES; i++) keep(s, avoid, n_avoid, deepbench[i], *out, n);
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
