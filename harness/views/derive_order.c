/* Derived views of results files (derive.h): the orders shapes are shown in
 * (the figures' order, the suite's), a shape's rank among the distinct shapes
 * of a table (struct shapes, derive_parts.h), and a shape's class in the suite
 * (the rule the suite's order and view use). */
#include "derive.h"
#include "derive_parts.h"

#include <stdio.h>
#include <stdlib.h>

/* Shapes in the order every figure shows them: the square sizes ascending, then
 * the other shapes by FLOP count, then M. */
int shape_before(struct shape a, struct shape b)
{
    const int sa = shape_square(a), sb = shape_square(b);
    if ((sa > 0) != (sb > 0)) return sa > 0;
    if (sa > 0) return sa < sb;
    return flops_before(a, b);
}

/* The suite's order: class, then FLOP count */
int suite_before(struct shape a, struct shape b)
{
    const enum shape_class ca = shape_class_of(a), cb = shape_class_of(b);
    if (ca != cb) return ca < cb;
    return flops_before(a, b);
}

/* before(a, b) as a total order: ties (shapes of one FLOP count whose product
 * rounds alike) by M, N and K */
int shape_order(int (*before)(struct shape, struct shape), const struct shape *a,
                const struct shape *b)
{
    if (before(*a, *b)) return -1;
    if (before(*b, *a)) return 1;
    if (a->M != b->M) return a->M < b->M ? -1 : 1;
    if (a->N != b->N) return a->N < b->N ? -1 : 1;
    return (a->K > b->K) - (a->K < b->K);
}

int by_shape_before(const void *a, const void *b) { return shape_order(shape_before, a, b); }
int by_suite_before(const void *a, const void *b) { return shape_order(suite_before, a, b); }

void shapes_add(struct shapes *t, struct shape s)
{
    if (t->n == t->room) {
        const size_t room = t->room ? 2 * t->room : 64;
        struct shape *more = realloc(t->s, room * sizeof *more);
        if (!more) {
            fprintf(stderr, "mmladder: out of memory for the shapes of a table: shape_rank 0 "
                            "from %zu on\n", t->n + 1);
            return;
        }
        t->s = more;
        t->room = room;
    }
    t->s[t->n++] = s;
}

void shapes_sort(struct shapes *t)
{
    if (!t->n) return;
    qsort(t->s, t->n, sizeof *t->s, t->cmp);
    size_t m = 1;
    for (size_t i = 1; i < t->n; i++)
        if (!same_shape(t->s[i], t->s[m - 1])) t->s[m++] = t->s[i];
    t->n = m;
}

int shape_rank(const struct shapes *t, struct shape s)
{
    const struct shape *at = t->n ? bsearch(&s, t->s, t->n, sizeof *t->s, t->cmp) : NULL;
    return at ? (int)(at - t->s) + 1 : 0;
}

/* ---- a shape's class in the suite ---------------------------------------------- */

static const char *const CLASS_NAMES[SC_COUNT] = {"decode", "small",  "long_k", "short_k",
                                                  "odd",    "aspect", "large"};

enum shape_class shape_class_of(struct shape s)
{
    const int lo = s.M < s.N ? s.M : s.N, hi = s.M < s.N ? s.N : s.M;
    const int dmax = hi > s.K ? hi : s.K, dmin = lo < s.K ? lo : s.K;
    if (lo <= 32 && hi >= 2048) return SC_DECODE;
    if (lo <= 256 && s.K >= 32768) return SC_LONG_K;
    if (s.K <= 128 && lo >= 2048) return SC_SHORT_K;
    if (dmax <= 512) return SC_SMALL;
    if (s.M % 32 || s.N % 32 || s.K % 32) return SC_ODD;
    if (dmax >= 8.0 * dmin) return SC_ASPECT;
    return SC_LARGE;
}

const char *shape_class_name(enum shape_class c)
{
    return name_at(CLASS_NAMES, SC_COUNT, (int)c);
}

int shape_class_parse(const char *name, enum shape_class *out)
{
    const int c = name_index(CLASS_NAMES, SC_COUNT, name);
    if (c >= 0) *out = (enum shape_class)c;
    return c >= 0 ? 0 : -1;
}
