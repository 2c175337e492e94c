/* Derived views of results files (derive.h): two runs side by side.  The
 * (rung, shape, host memory) groups both have, each with its best passed row
 * in either run (derive_pairs), and the compare view that prints them. */
#include "derive.h"
#include "derive_parts.h"

#include <stdlib.h>
#include <string.h>

static int same_group(const struct result_row *x, const struct result_row *y)
{
    return same_shape(shape_of(x), shape_of(y)) && !strcmp(x->variant, y->variant) &&
           !strcmp(x->host_memory, y->host_memory);
}

const struct result_row *derive_best_of_group(const struct results_file *f,
                                              const struct result_row *x)
{
    const struct result_row *best = NULL;
    for (size_t i = 0; i < f->n_rows; i++)
        if (same_group(&f->rows[i], x) && !strcmp(f->rows[i].disposition, "passed") &&
            (!best || f->rows[i].gflops > best->gflops))
            best = &f->rows[i];
    return best;
}

/* A group of a file's rows: its first row and its best passed row (NULL: none). */
struct group {
    const struct result_row *first, *best;
};

/* f's groups, sorted by derive_group_cmp; returns how many, or -1 out of memory. */
static long groups_of(const struct results_file *f, struct group **out)
{
    const struct result_row **by = malloc((f->n_rows + 1) * sizeof *by);
    *out = malloc((f->n_rows + 1) * sizeof **out);
    if (!by || !*out) {
        free(by), free(*out);
        *out = NULL;
        return -1;
    }
    if (derive_sort_groups(f->rows, f->n_rows, by) != 0) {
        free(by), free(*out);
        *out = NULL;
        return -1;
    }
    long n = 0;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct result_row *x = by[i];
        if (i == 0 || derive_group_cmp(by[i - 1], x) != 0) (*out)[n++] = (struct group){x, NULL};
        struct group *g = &(*out)[n - 1];
        if (!strcmp(x->disposition, "passed") && (!g->best || x->gflops > g->best->gflops))
            g->best = x;
    }
    free(by);
    return n;
}

static int pair_in_file_order(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    return (x->a_first > y->a_first) - (x->a_first < y->a_first);
}

/* Sorting both files' rows by group and walking the two lists together: time
 * n log n in the rows, where a scan of every row for every group was n^2 (a
 * run of 98,305 rows took 69 s to compare with itself). */
size_t derive_pairs(const struct run *a, const struct run *b, struct pair **out)
{
    *out = NULL;
    struct group *ga = NULL, *gb = NULL;
    const long na = groups_of(&a->f, &ga), nb = na < 0 ? -1 : groups_of(&b->f, &gb);
    size_t n = 0;
    if (na >= 0 && nb >= 0) *out = malloc(((size_t)na + 1) * sizeof **out);
    if (!*out) {
        fprintf(stderr, "mmladder: out of memory pairing %s with %s\n", a->path, b->path);
        free(ga), free(gb);
        return 0;
    }
    for (long i = 0, j = 0; i < na && j < nb;) {
        const int c = derive_group_cmp(ga[i].first, gb[j].first);
        if (c < 0 || c > 0) {
            i += c < 0, j += c > 0;
            continue;
        }
        const struct variant *v = registry_find(ga[i].first->variant);
        const struct result_row *x = ga[i].first, *ba = ga[i].best, *bb = gb[j].best;
        if (v && ba && bb)
            (*out)[n++] = (struct pair){v, shape_of(x), x->host_memory, ba, bb,
                                        ba->gflops / bb->gflops, x};
        i++, j++;
    }
    qsort(*out, n, sizeof **out, pair_in_file_order);
    free(ga), free(gb);
    return n;
}

/* ---- the compare view ----------------------------------------------------------- */

/* compare: each (rung, shape, host memory) of the first run that the second
 * has too: both bests and their ratio; in ladder order, then shape
 * (shape_before), then host memory */
static int pair_before(const struct pair *x, const struct pair *y)
{
    const int kx = registry_number(x->v), ky = registry_number(y->v);
    if (kx != ky) return kx < ky;
    if (!same_shape(x->s, y->s)) return shape_before(x->s, y->s);
    return strcmp(x->memory, y->memory) < 0;
}

void view_compare(FILE *out, const struct run *a, const struct run *b)
{
    struct pair *p;
    size_t n = derive_pairs(a, b, &p);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && pair_before(&p[j], &p[j - 1]); j--) {
            struct pair t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    row_head(out);
    fputs("\thost_memory\tgflops\tgflops_ref\tratio\tconfig\tconfig_ref\tshape_rank\n", out);
    struct shapes t = {NULL, 0, 0, by_shape_before};
    for (size_t i = 0; i < n; i++) shapes_add(&t, p[i].s);
    shapes_sort(&t);
    for (size_t i = 0; i < n; i++) {
        char c1[96], c2[96];
        derive_config_label(p[i].v, p[i].a, c1, sizeof c1);
        derive_config_label(p[i].v, p[i].b, c2, sizeof c2);
        row_cells(out, p[i].v, p[i].s);
        str(out, p[i].memory);
        num(out, p[i].a->gflops);
        num(out, p[i].b->gflops);
        num(out, p[i].ratio);
        str(out, c1);
        str(out, c2);
        fprintf(out, "\t%d", shape_rank(&t, p[i].s));
        fputc('\n', out);
    }
    free(p);
    free(t.s);
}
