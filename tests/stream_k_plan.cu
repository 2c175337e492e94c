/* The stream-K plan (kernels/gpu/stream_k.cuh) walked on the host, worker by
 * worker, as rungs 16 and 20 walk it on the GPU, and rung 21's plan of the
 * last wave (kernels/gpu/split_k.cuh) block by block: what their kernels take
 * for granted of them, checked (tests/test_plan.c calls it; built with nvcc
 * only). */
#include <stdio.h>
#include <stdlib.h>

#include "gpu/split_k.cuh"
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
    char what[192] = "";   /* the first thing wrong */
#define FAIL(...) snprintf(what, sizeof what, __VA_ARGS__)
    const sk_plan p = sk_plan_for(M, N, K, bm, bn, 32, resident, min_slices, share, aligned != 0);
    /* seen[t]: slices of tile t computed; lo[t] to hi[t]: the workers with a piece of it */
    long long *seen = (long long *)calloc((size_t)p.T, sizeof *seen);
    int *lo = (int *)malloc((size_t)p.T * sizeof *lo), *hi = (int *)malloc((size_t)p.T * sizeof *hi);
    if (!seen || !lo || !hi) FAIL("out of memory");
    else if (p.G < 1 || p.G > p.D || p.D > (resident > p.T ? resident : p.T))
        FAIL("workers G %d, D %d", p.G, p.D);
    else if (p.sk && p.W / p.G < min_slices && p.I >= min_slices) FAIL("runs of %lld slices", p.W / p.G);
    else
        for (int t = 0; t < p.T; t++) lo[t] = p.D, hi[t] = -1;
    for (int b = 0; b < p.D && !*what; b++) {
        int t, k0, k1, partial = 0, pieces = 0;
        const long long run = sk_begin(p, b + 1) - sk_begin(p, b);
        if (b < p.G && p.sk && run < min_slices && p.I >= min_slices)
            FAIL("worker %d: a run of %lld slices", b, run);
        for (sk_walk u(p, b); !*what && u.next(p, t, k0, k1); pieces++) {
            if (t < 0 || t >= p.T || k0 < 0 || k1 > p.I || k0 >= k1) {
                FAIL("worker %d: piece (%d, %d, %d)", b, t, k0, k1);
                break;
            }
            seen[t] += k1 - k0;
            lo[t] = b < lo[t] ? b : lo[t], hi[t] = b > hi[t] ? b : hi[t];
            if (k0 > 0 || k1 < p.I) {   /* a piece of a shared tile: slot 0 the run's first, 1 its last */
                const int slot = t == sk_begin(p, b) / p.I ? 0 : 1;
                const bool last = (long long)t * p.I + k1 == sk_begin(p, b + 1);
                if (partial & (1 << slot) || (slot == 0 && pieces > 0) || (slot == 1 && !last))
                    FAIL("worker %d: piece %d, of shared tile %d, in slot %d", b, pieces, t, slot);
                partial |= 1 << slot;
                if (aligned && k1 - k0 < p.I / (p.G / p.sk) - 1)
                    FAIL("worker %d: a run of %d of tile %d", b, k1 - k0, t);
            }
            if (aligned && b < p.G && pieces == 0 && sk_begin(p, b + 1) > (long long)(t + 1) * p.I)
                FAIL("worker %d: its run crosses tile %d's end", b, t);
        }
    }
    for (int t = 0; t < p.T && !*what; t++) {
        if (seen[t] != p.I)
            FAIL("tile %d: %lld of %d slices computed", t, seen[t], p.I);
        else if (t < p.sk && (lo[t] != sk_block_of(p, (long long)t * p.I) ||
                              hi[t] != sk_block_of(p, (long long)(t + 1) * p.I - 1)))
            FAIL("tile %d: held by workers %d-%d, the plan says %d-%d", t, lo[t], hi[t],
                 sk_block_of(p, (long long)t * p.I), sk_block_of(p, (long long)(t + 1) * p.I - 1));
    }
    free(seen), free(lo), free(hi);
    if (!*what) return NULL;
    snprintf(why, sizeof why, "%dx%dx%d, tiles %dx%d on %lld%s: %s", M, N, K, bm, bn, resident,
             aligned ? ", aligned" : "", what);
    return why;
#undef FAIL
}

/* NULL when rung 21's plan of this shape is sound, else what is wrong (a buffer
 * of the calling thread).  Sound: every slice of every tile is computed exactly
 * once, by one block for a tile run whole and by the S blocks whole + S u ..
 * whole + S u + S - 1 for tile whole + u (the counter and the slots the last
 * of them reads); the cut tiles are the last wave's, and by the rule (asked 0)
 * their parts fit in that wave, none under `floor` slices where K has that
 * many. */
extern "C" const char *tail_plan_check(int M, int N, int K, int bm, int bn, long long resident, int asked,
                                       int floor)
{
    static thread_local char why[256];
    char what[192] = "";
#define FAIL(...) snprintf(what, sizeof what, __VA_ARGS__)
    const char *refused = NULL;
    const tail_plan p = tail_plan_for(M, N, K, bm, bn, 32, resident, asked, floor, &refused);
    const long long cut = p.T - p.whole, blocks = p.whole + cut * p.S;
    long long *seen = (long long *)calloc((size_t)p.T, sizeof *seen);
    if (!seen) FAIL("out of memory");
    else if (refused) {   /* only where the parts exceed the workspace limit */
        if ((size_t)cut * p.S * bm * bn * sizeof(float) <= GPU_WORKSPACE_MAX_BYTES) FAIL("refused: %s", refused);
        free(seen);
        return NULL;
    }
    else if (p.S < 1 || p.S > p.I || (asked && p.S != (asked < p.I ? asked : p.I)))
        FAIL("S = %d (asked %d, %d slices)", p.S, asked, p.I);
    else if (p.S == 1 ? cut != 0 : cut < 1 || cut > resident || p.whole % resident != 0)
        FAIL("%lld tiles cut after %d whole, S = %d", cut, p.whole, p.S);
    else if (!asked && p.S > 1 && (cut * p.S > resident || (p.I >= floor && p.I / p.S < floor)))
        FAIL("the rule cut %lld tiles in %d parts of %d slices", cut, p.S, p.I / p.S);
    for (int b = 0; b < blocks && !*what; b++) {
        int t, k0, k1;
        tail_unit(p, b, t, k0, k1);
        const bool part = b >= p.whole;
        if (t < 0 || t >= p.T || k0 < 0 || k1 > p.I || k0 >= k1 || part != (t >= p.whole) ||
            (part && (b - p.whole) / p.S != t - p.whole))
            FAIL("block %d: tile %d, slices %d-%d", b, t, k0, k1);
        else seen[t] += k1 - k0;
    }
    for (int t = 0; t < p.T && !*what; t++)
        if (seen[t] != p.I) FAIL("tile %d: %lld of %d slices computed", t, seen[t], p.I);
    free(seen);
    if (!*what) return NULL;
    snprintf(why, sizeof why, "%dx%dx%d, tiles %dx%d on %lld, asked %d: %s", M, N, K, bm, bn, resident, asked,
             what);
    return why;
#undef FAIL
}
