/* The stream-K plan (kernels/gpu/stream_k.cuh) walked on the host, worker by
 * worker, as rungs 16 and 20 walk it on the GPU: what their kernels take for
 * granted of it, checked (tests/test_plan.c calls it; built with nvcc only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/stream_k.cuh"

/* NULL when the plan of this shape is sound, else what is wrong, in a buffer of
 * the calling thread.  Sound: every slice of every tile is computed exactly
 * once; a worker has at most two pieces of shared tiles, the first and the
 * last of its run, which its two workspace slots tell apart (slot 0 for the
 * tile its run starts in, 1 for any other); the workers that
 * hold a shared tile's slices are those from sk_block_of of its first slice to
 * that of its last, and only they; no run is shorter than min_slices; and with
 * `aligned`, no run crosses the end of a tile and a tile's runs differ by one
 * slice at most. */
extern "C" const char *stream_k_plan_check(int M, int N, int K, int bm, int bn, long long resident,
                                           int min_slices, int share, int aligned)
{
    static thread_local char why[256];
    const sk_plan p = sk_plan_for(M, N, K, bm, bn, 32, resident, min_slices, share, aligned != 0);
#define BAD(...) return (snprintf(why, sizeof why, "%dx%dx%d, tiles %dx%d on %lld%s: ", M, N, K, bm, bn, \
                                  resident, aligned ? ", aligned" : ""),                                 \
                         snprintf(why + strlen(why), sizeof why - strlen(why), __VA_ARGS__), why)
    if (p.G < 1 || p.G > p.D || p.D > (resident > p.T ? resident : p.T))
        BAD("workers G %d, D %d", p.G, p.D);
    if (p.sk && p.W / p.G < min_slices && p.I >= min_slices) BAD("runs of %lld slices", p.W / p.G);
    /* seen[t]: slices of tile t computed; holders[t]: the workers with a piece of it */
    long long *seen = (long long *)calloc((size_t)p.T, sizeof *seen);
    int *lo = (int *)malloc((size_t)p.T * sizeof *lo), *hi = (int *)malloc((size_t)p.T * sizeof *hi);
    if (!seen || !lo || !hi) {
        free(seen), free(lo), free(hi);
        BAD("out of memory");
    }
    for (int t = 0; t < p.T; t++) lo[t] = p.D, hi[t] = -1;
    const char *err = NULL;
    for (int b = 0; b < p.D && !err; b++) {
        int t, k0, k1, partial = 0, pieces = 0;
        const long long run = sk_begin(p, b + 1) - sk_begin(p, b);
        if (b < p.G && p.sk && run < min_slices && p.I >= min_slices)
            err = (snprintf(why, sizeof why, "worker %d: a run of %lld slices", b, run), why);
        for (sk_walk u(p, b); !err && u.next(p, t, k0, k1); pieces++) {
            if (t < 0 || t >= p.T || k0 < 0 || k1 > p.I || k0 >= k1) {
                err = (snprintf(why, sizeof why, "worker %d: piece (%d, %d, %d)", b, t, k0, k1), why);
                break;
            }
            seen[t] += k1 - k0;
            lo[t] = b < lo[t] ? b : lo[t], hi[t] = b > hi[t] ? b : hi[t];
            if (k0 > 0 || k1 < p.I) {   /* a piece of a shared tile: slot 0 the run's first, 1 its last */
                const int slot = t == sk_begin(p, b) / p.I ? 0 : 1;
                const bool last = (long long)t * p.I + k1 == sk_begin(p, b + 1);
                if (partial & (1 << slot) || (slot == 0 && pieces > 0) || (slot == 1 && !last))
                    err = (snprintf(why, sizeof why, "worker %d: piece %d, of shared tile %d, in slot %d", b,
                                    pieces, t, slot), why);
                partial |= 1 << slot;
                if (aligned && k1 - k0 < p.I / (p.G / p.sk) - 1)
                    err = (snprintf(why, sizeof why, "worker %d: a run of %d of tile %d", b, k1 - k0, t), why);
            }
            if (aligned && b < p.G && pieces == 0 && sk_begin(p, b + 1) > (long long)(t + 1) * p.I)
                err = (snprintf(why, sizeof why, "worker %d: its run crosses tile %d's end", b, t), why);
        }
    }
    for (int t = 0; t < p.T && !err; t++) {
        if (seen[t] != p.I)
            err = (snprintf(why, sizeof why, "tile %d: %lld of %d slices computed", t, seen[t], p.I), why);
        else if (t < p.sk && (lo[t] != sk_block_of(p, (long long)t * p.I) ||
                              hi[t] != sk_block_of(p, (long long)(t + 1) * p.I - 1)))
            err = (snprintf(why, sizeof why, "tile %d: held by workers %d-%d, the plan says %d-%d", t, lo[t],
                            hi[t], sk_block_of(p, (long long)t * p.I),
                            sk_block_of(p, (long long)(t + 1) * p.I - 1)), why);
    }
    free(seen), free(lo), free(hi);
    if (err) {
        char tail[256];
        snprintf(tail, sizeof tail, "%s", err);
        BAD("%s", tail);
    }
    return NULL;
#undef BAD
}
