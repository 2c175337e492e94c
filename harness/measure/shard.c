/* Shards of a plan: see shard.h. */
#include "shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int shard_parse(const char *text, int *k, int *n, char *why, size_t whylen)
{
    char *end;
    errno = 0;
    const long a = strtol(text, &end, 10);
    const int slash = *end == '/' && end > text;
    const char *rest = slash ? end + 1 : end;
    const long b = slash ? strtol(rest, &end, 10) : 0;
    if (!slash || end == rest || *end || errno || a < 0 || b < 1 || b > SHARD_MAX || a >= b) {
        snprintf(why, whylen, "'%s' (expected K/N: shard K of N, 0 <= K < N <= %d)", text,
                 SHARD_MAX);
        return -1;
    }
    *k = (int)a, *n = (int)b;
    return 0;
}

/* A group of points that go together: one sweep's shape, GPU or host. */
struct group {
    size_t first, count;   /* its points, in plan order (consecutive) */
    double weight;         /* seconds, by the plan's estimate */
    int host;
};

static int same_group(const struct point *a, const struct point *b)
{
    return a->sweep == b->sweep && a->M == b->M && a->N == b->N && a->K == b->K;
}

/* A point's share of the estimate, as if this machine could run it. */
static double weight_of(const struct point *pt, const struct experiment *e)
{
    if (pt->skip && !pt->skip_env) return 0.0;
    struct point q = *pt;
    q.skip = q.skip_env = q.jit_first = 0;
    return point_estimate_s(&q, e);
}

static int heavier_first(const void *a, const void *b)
{
    const struct group *x = a, *y = b;
    if (x->weight != y->weight) return x->weight < y->weight ? 1 : -1;
    return (x->first > y->first) - (x->first < y->first);
}

/* Points ordered by sweep, then shape, then variant: a sweep's shape is one
 * run of points, which splits into its GPU points and its host points. */
static size_t make_groups(const struct plan *p, const struct experiment *e, struct group *g)
{
    size_t n = 0;
    for (size_t i = 0, j; i < p->n; i = j) {
        for (j = i + 1; j < p->n && same_group(&p->points[i], &p->points[j]);) j++;
        for (int host = 0; host < 2; host++) {
            struct group one = {.first = i, .count = j - i, .host = host};
            int any = 0;
            for (size_t q = i; q < j; q++) {
                const struct point *pt = &p->points[q];
                if ((pt->v->device == DEV_HOST) != host) continue;
                one.weight += weight_of(pt, e);
                any = 1;
            }
            if (!any) continue;
            if (!host) one.weight += plan_shape_setup_s(p->points[i].M, p->points[i].N,
                                                        p->points[i].K, e);
            g[n++] = one;
        }
    }
    return n;
}

int shard_assign(const struct plan *p, const struct experiment *e, int n, int host_shard,
                 int *owner)
{
    struct group *g = malloc((2 * p->n + 1) * sizeof *g);
    double *load = calloc(2 * (size_t)n, sizeof *load);   /* GPU loads, then host loads */
    if (!g || !load) {
        free(g);
        free(load);
        return -1;
    }
    const size_t ng = make_groups(p, e, g);
    qsort(g, ng, sizeof *g, heavier_first);
    for (size_t i = 0; i < ng; i++) {
        double *l = load + (g[i].host ? n : 0);
        int to = 0;
        if (g[i].host && host_shard >= 0) {
            to = host_shard;
        } else {
            for (int s = 1; s < n; s++)
                if (l[s] < l[to]) to = s;
        }
        l[to] += g[i].weight;
        for (size_t q = g[i].first; q < g[i].first + g[i].count; q++)
            if ((p->points[q].v->device == DEV_HOST) == g[i].host) owner[q] = to;
    }
    free(g);
    free(load);
    return 0;
}

int shard_keep(struct plan *p, const struct experiment *e, int k, int n, int host_shard,
               char *why, size_t whylen)
{
    if (k < 0 || n < 1 || k >= n || host_shard >= n) {
        snprintf(why, whylen, "shard %d of %d (host points in %d): no such shard", k, n,
                 host_shard);
        return -1;
    }
    int *owner = malloc((p->n + 1) * sizeof *owner);
    if (!owner || shard_assign(p, e, n, host_shard, owner) != 0) {
        free(owner);
        snprintf(why, whylen, "out of memory cutting the plan into %d shards", n);
        return -1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < p->n; i++)
        if (owner[i] == k) p->points[kept++] = p->points[i];
    free(owner);
    p->n = kept;
    p->shard = k, p->shards = n, p->host_shard = host_shard;
    return 0;
}
