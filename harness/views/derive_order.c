/* Derived views of results files (derive.h): the orders shapes are shown in
 * (the figures' order, the suite's), and a shape's rank among the distinct
 * shapes of a table (struct shapes, derive_parts.h). */
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
