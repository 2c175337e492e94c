/* Rung 20, past the seeds: rung 14 made persistent (TF32, sm_90a).
 *
 * Adds over rung 14: there each block computes one tile and exits, so a
 * block's store of its tile of C (128 KiB at 256 rows) is never overlapped
 * with the loads of the next tile on that SM (one block fills an SM), and
 * every tile pays the block's start: its barriers, its cluster's launch, the
 * first slices' latency.  Here the grid is as many pairs of blocks as the GPU
 * holds at once (asked of the occupancy API: 66 clusters of 2 on an H100), and
 * cluster c computes the cluster-tiles c, c + G, c + 2G, ... of rung 14's
 * grouped order.  The ring of stages and its phases run on from one tile to
 * the next (one running count of slices per role), so the producer fills the
 * next tile's first stages while the consumers still store this one.  A tile's
 * first wgmma starts its accumulators by its scale-d operand (D = A B) rather
 * than by zeroing them, which would make ptxas serialize the wgmmas (C7515).
 * The `wpt` axis numbers the variant, each adding one technique:
 *   1   persistent alone, with rung 14's direct, guarded stores;
 *   3   and the epilogue through shared memory: each consumer warpgroup writes
 *       its tile 32 rows at a time into one of two 8 KiB buffers, from which one
 *       thread stores it by TMA, under the next buffer's writes and the next
 *       tile's mainloop;
 *   7   and stream-K for the last wave (stream_k.cuh): when it is at most half
 *       full, its tiles are cut into equal runs of slices, as many a tile as the
 *       clusters hold, and run first; the last run of a tile to finish adds the
 *       others' parts from the workspace, in a fixed order, and stores the tile;
 *   23  is 7 in row order, 39 is 7 without clusters (each block loads its own A
 *       slice): what the grouped order and the multicast of A give it.
 * Products TMA cannot read without 4-byte copies (wgmma_direct) run rung 14's
 * kernel; C that TMA cannot store (N % 4, a base off 16 bytes) gets the
 * variant's schedule with direct stores.
 *
 * Predicted (H100) before each step, then measured (development runs, NOTES.md):
 *   3   8192 x 4096 x 128, whose C (128 MiB for 8.6 GFLOP) bounds it at ~183
 *       TFLOP/s by the 3.0 TB/s copy rate: 130-160 (rung 14: 79-108); the
 *       squares +0-1%.  Measured 146, and the squares +0-2%.
 *   7   over 3 at 2304^2 x 8192 (81 cluster-tiles of 256 x 256 on 66 clusters:
 *       1.23 waves): +30-50%.  Runs cut from the tail's slices in a row, one a
 *       cluster, gave +14-16%, starting at every depth of K so that no two read
 *       the same slices of A together; cut a tile at a time, +24-28%.  At 4352^2
 *       x 4096 +6-8%; at 2999^3, predicted +15-25%, +3-5%.
 *   23  -0.5 to -3% at 256 rows: -5% to +2% (and +6% at 2999^3 in one run).
 *   39  -9 to -10% at the squares: -9 to -14% at 8192^3 but 0 at 4096^3; where
 *       the tail is shared, -13 to -18% with its runs cut in a row, 0 to -4% cut
 *       a tile at a time.
 * Not explained: 2999^3, 8% under rung 14 with or without stream-K; the
 * 128-row tile 11-17% under rung 14's at the squares, with or without
 * persistence (the same logic compiled another way moves rung 14 itself by -23%
 * to +6%: the code, not the schedule). */
#include "rung_config.h"
#include "wgmma_tile.cuh"

/* the TMA-store epilogue's buffers: two of 32 x 64 floats per consumer warpgroup */
#define EPI_SMEM (2 * 2 * 32 * 64 * 4)

#ifdef __CUDACC__
#include <algorithm>

#include "stream_k.cuh"

constexpr int P_MIN_SLICES = 8;   /* fewest slices a stream-K run (rung 17: fewer lose in TF32) */
constexpr int P_SHARE = 8;        /* most clusters a tile when C has fewer tiles than clusters */

namespace {
/* V, the variant: 2, the epilogue through shared memory and TMA stores (else rung 14's
 * direct stores); 16, tiles in row order (else rung 14's grouped order); 32, blocks
 * alone (else clusters of CL sharing A).  A worker of the plan p is a cluster; parts
 * and count are stream-K's workspace (unused when p shares no tile). */
template <int TILE, int V>
__global__ void __launch_bounds__(384, 1)
tf32_persistent(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                const __grid_constant__ CUtensorMap tmC, float *__restrict__ C, int M, int N, int K,
                const sk_plan p, float4 *__restrict__ parts, int *__restrict__ count)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using Q = cfg<TILE>;
    constexpr bool TSTORE = V & 2, LINEAR = V & 16;
    constexpr int CLU = V & 32 ? 1 : CL;
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[Q::STAGES], empty[Q::STAGES];
    __shared__ int last_in[2];   /* per consumer warpgroup: the last of a shared tile's runs */
    unsigned char *smem = smem_raw + (-__cvta_generic_to_shared(smem_raw) & 1023);
    const int wg = threadIdx.x / 128, cid = blockIdx.x / CLU;
    auto bar = [](uint64_t *b) { return (uint32_t)__cvta_generic_to_shared(b); };
    uint32_t rank = 0;
    if (CLU > 1) asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    /* tile t of the plan is a cluster-tile: CLU tiles of C side by side along N */
    auto origin = [&](int t, int &row0, int &col0) {
        int cx = t % p.tx, cy = t / p.tx;
        if (!LINEAR) grouped_block(t, p.tx, p.ty, GROUP_ROWS / TILE, cx, cy);
        row0 = cy * TILE, col0 = (cx * CLU + rank) * BN;
    };

    if (threadIdx.x == 0) {
        for (int s = 0; s < Q::STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar(&empty[s])), "n"(8 * CLU));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();

    int t, k0, k1;
    if (wg == 0) {   /* producer: slice `it` since the start goes to stage it % STAGES */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        uint32_t it = 0;
        for (sk_walk u(p, cid); threadIdx.x == 0 && u.next(p, t, k0, k1);) {
            int row0, col0;
            origin(t, row0, col0);
            for (int kb = k0; kb < k1; kb++, it++) {
                const uint32_t s = it % Q::STAGES;
                if (it >= Q::STAGES) mbar_wait(bar(&empty[s]), (it / Q::STAGES - 1) & 1);
                unsigned char *st = smem + s * Q::STAGE;
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                             :: "r"(bar(&full[s])), "r"(Q::STAGE) : "memory");
                if (CLU > 1)
                    tma_load_mc(st + rank * (Q::A_BYTES / CLU), &tmA, bar(&full[s]), kb * BK,
                                row0 + rank * (TILE / CLU), (1 << CLU) - 1);
                else
                    tma_load(st, &tmA, bar(&full[s]), kb * BK, row0);
                for (int q = 0; q < BN / 32; q++)
                    tma_load(st + Q::A_BYTES + q * 4096, &tmB, bar(&full[s]), col0 + 32 * q, kb * BK);
            }
        }
    } else {   /* consumers: rung 14's, with the slice count running on across pieces */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const struct wgmma_consumer W(threadIdx.x);
        const int tid = threadIdx.x % 128;
        const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
        float acc[TILE / 2];
        for (int i = 0; i < TILE / 2; i++) acc[i] = 0.f;
        uint32_t it0 = 0;   /* slices consumed before this piece */
        int KT = 0;         /* this piece's */
        auto load = [&](uint32_t (&f)[16], uint32_t it) {
            mbar_wait(bar(&full[it % Q::STAGES]), (it / Q::STAGES) & 1);
            W.load(f, smem + it % Q::STAGES * Q::STAGE + Q::A_BYTES);
        };
        auto release = [&](uint32_t it) {
            if (W.lane == 0)
                for (int r = 0; r < CLU; r++) mbar_arrive_in(bar(&empty[it % Q::STAGES]), r);
        };
        auto step = [&](const uint32_t (&f)[16], uint32_t (&next)[16], int kb) {
            const uint32_t it = it0 + kb;
            const uint64_t desc = wgmma_desc(base + it % Q::STAGES * Q::STAGE);
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
            wgmma_keep<TILE>(acc, f, desc, kb);
#pragma unroll
            for (int j = 1; j < 4; j++) wgmma<TILE>(acc, f + 4 * j, desc + 2 * j);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
            if (kb > 0) release(it - 1);
            if (kb + 1 < KT) load(next, it + 1);
        };
        /* Stream-K: this warpgroup's part of tile t in the slot of worker o (2 a CTA and
         * warpgroup: the tile its run starts in, and the one it ends in), float4 q of thread
         * tid at q * 128 + tid, so that a warp's stores are 512 contiguous bytes */
        auto slot = [&](int o, int t) {
            const int end = t == sk_begin(p, o) / p.I ? 0 : 1;
            return parts + (((size_t)(o * CLU + rank) * 2 + end) * 2 + W.c) * (TILE / 8) * 128 + tid;
        };
        /* A piece of a shared tile: its part into the workspace, counted in on the tile's
         * counter; the last to arrive adds the parts in worker order (the same bits whoever
         * is last) and goes on to store the tile, the others do not */
        auto last_of_shared = [&](int t) {
            const int first = sk_block_of(p, (long long)t * p.I), final = sk_block_of(p, (long long)(t + 1) * p.I - 1);
            int *n = count + ((size_t)t * CLU + rank) * 2 + W.c;
            float4 *mine = slot(cid, t);
#pragma unroll
            for (int q = 0; q < TILE / 8; q++)
                mine[q * 128] = make_float4(acc[4 * q], acc[4 * q + 1], acc[4 * q + 2], acc[4 * q + 3]);
            __threadfence();   /* the part is visible GPU-wide before the count says so */
            asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
            if (tid == 0) last_in[W.c] = atomicAdd(n, 1) == final - first;
            asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
            if (!last_in[W.c]) return false;
            __threadfence();
#pragma unroll
            for (int i = 0; i < TILE / 2; i++) acc[i] = 0.f;
#pragma unroll 1
            for (int o = first; o <= final; o++) {
                const float4 *part = slot(o, t);
#pragma unroll
                for (int q = 0; q < TILE / 8; q++) {
                    const float4 v = __ldcg(part + q * 128);
                    acc[4 * q] += v.x, acc[4 * q + 1] += v.y, acc[4 * q + 2] += v.z, acc[4 * q + 3] += v.w;
                }
            }
            if (tid == 0) *n = 0;   /* ready for the next launch */
            return true;
        };
        for (sk_walk u(p, cid); u.next(p, t, k0, k1);) {
            int row0, col0;
            origin(t, row0, col0);
            KT = k1 - k0;
            uint32_t f0[16], f1[16];
            load(f0, it0);
            for (int kb = 0; kb < KT; kb += 2) {
                step(f0, f1, kb);
                if (kb + 1 < KT) step(f1, f0, kb + 1);
            }
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            release(it0 + KT - 1);
            it0 += KT;
#pragma unroll
            for (int i = 0; i < TILE / 2; i++) asm volatile("" : "+f"(acc[i]) :: "memory");   /* no hoisting */
            if ((k0 > 0 || k1 < p.I) && !last_of_shared(t)) continue;
            if constexpr (!TSTORE) {
                W.store<TILE>(acc, C, M, N, row0, col0);
                continue;
            }
            /* 32 rows of the warpgroup's 64 columns at a time, as two 128B-swizzled 32 x 32
             * boxes in one of its two 8 KiB buffers: a buffer's stores drain while the other
             * is written, and the last two under the next tile's mainloop */
            unsigned char *eb = smem + Q::STAGES * Q::STAGE + W.c * 16384;
            const int cc = 16 * (W.g >> 2) + 4 * W.w + (W.g & 3);   /* this thread's box column */
#pragma unroll
            for (int q = 0; q < TILE / 32; q++) {
                unsigned char *buf = eb + (q & 1) * 8192;
                if (tid == 0) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
                asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
#pragma unroll
                for (int i = 16 * q; i < 16 * q + 16; i++) {   /* row 8(i/4) + 2t + i%2, box (i/2)%2 */
                    const int r = 8 * ((i >> 2) & 3) + 2 * W.t + (i & 1);
                    *(float *)(buf + ((i >> 1) & 1) * 4096 + r * 128 + (((cc >> 2) ^ (r & 7)) << 4) +
                               (cc & 3) * 4) = acc[i];
                }
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
                asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
                if (tid == 0) {
                    for (int h = 0; h < 2; h++)
                        tma_store(&tmC, buf + h * 4096, col0 + 64 * W.c + 32 * h, row0 + 32 * q);
                    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
                }
            }
        }
        if (TSTORE && tid == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    cluster_sync();   /* no block leaves while its peer may still signal its barriers */
#else
    (void)M, (void)N, (void)K, (void)C, (void)p, (void)parts, (void)count;
    __trap();
#endif
}
}   // namespace

/* The schedule (bit 4) is the host's plan alone: one kernel serves it */
template <int TILE, int V>
static const char *launch(const struct gpu_launch *L)
{
    constexpr bool TSTORE = V & 2, SK = V & 4;
    constexpr int CLU = V & 32 ? 1 : CL;
    if (wgmma_direct(L)) return wgmma_launch<TILE, false>(L, L->C, 1);
    if constexpr (TSTORE)   /* TMA cannot store rows that are not 16-byte aligned */
        if (L->N % 4 || (uintptr_t)L->C % 16) return launch<TILE, V & ~2>(L);
    auto kernel = tf32_persistent<TILE, V & (2 | 16 | 32)>;
    const size_t smem = cfg<TILE>::SMEM + (TSTORE ? EPI_SMEM : 0);
    cudaLaunchAttribute cluster;
    cudaLaunchConfig_t lc = wgmma_config(dim3(CLU), smem, (cudaStream_t)L->stream, &cluster, CLU);
    int fit = 0;
    cudaError_t e = allow_shared(kernel, smem);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveClusters(&fit, kernel, &lc);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (fit < 1) return "tf32_persistent_tma: no cluster of its blocks fits on this GPU";
    /* the workers are the clusters the GPU holds at once, or one a tile when C has fewer */
    sk_plan p = sk_plan_for(L->M, L->N, L->K, TILE, BN * CLU, BK, fit, P_MIN_SLICES, P_SHARE, true);
    if (!SK) p.sk = 0, p.W = 0, p.G = p.D = std::min(fit, p.T);
    /* two part slots a block and consumer warpgroup, then a counter a shared tile's */
    const size_t parts = p.sk ? (size_t)p.G * CLU * 2 * 2 * 128 * (TILE / 2) * sizeof(float) : 0,
                 need = parts + (size_t)p.sk * CLU * 2 * sizeof(int);
    lc.gridDim = dim3(CLU * p.D);
    const char *err = L->describe ? describe_kernel(L->describe, kernel, 384, smem, lc.gridDim) : NULL;
    if (!err) err = sk_check(L, p, need);
    if (err || L->describe) return err;

    wgmma_maps m;
    err = wgmma_maps_make<TILE>(L, &m, TSTORE, CLU);
    if (!err) {
        e = cudaLaunchKernelEx(&lc, kernel, m.A, m.B, m.C, L->C, L->M, L->N, L->K, p,
                               (float4 *)L->workspace, (int *)((char *)L->workspace + parts));
        if (e == cudaSuccess) e = cudaGetLastError();
        if (e != cudaSuccess) err = cudaGetErrorString(e);
    }
    return wgmma_maps_free(&m, (cudaStream_t)L->stream, err);
}
#endif

/* rung 14's tiles, TILE x 128 of C a block; wpt, the variant (above): 1 persistent, 3
 * and the TMA-store epilogue, 7 and the stream-K tail; 23 is 7 in row order, 39 is 7
 * without clusters */
#define CONFIGS(X)                                                                 \
    X(128, 1, 128, 128, 32, 2, WGMMA_SMEM(128), (launch<128, 1>))                   \
    X(256, 1, 256, 128, 64, 2, WGMMA_SMEM(256), (launch<256, 1>))                   \
    X(128, 3, 128, 128, 32, 2, WGMMA_SMEM(128) + EPI_SMEM, (launch<128, 3>))        \
    X(256, 3, 256, 128, 64, 2, WGMMA_SMEM(256) + EPI_SMEM, (launch<256, 3>))        \
    X(128, 7, 128, 128, 32, 2, WGMMA_SMEM(128) + EPI_SMEM, (launch<128, 7>))        \
    X(256, 7, 256, 128, 64, 2, WGMMA_SMEM(256) + EPI_SMEM, (launch<256, 7>))        \
    X(128, 23, 128, 128, 32, 2, WGMMA_SMEM(128) + EPI_SMEM, (launch<128, 23>))      \
    X(256, 23, 256, 128, 64, 2, WGMMA_SMEM(256) + EPI_SMEM, (launch<256, 23>))      \
    X(128, 39, 128, 128, 32, 2, WGMMA_SMEM(128) + EPI_SMEM, (launch<128, 39>))      \
    X(256, 39, 256, 128, 64, 2, WGMMA_SMEM(256) + EPI_SMEM, (launch<256, 39>))
RUNG_CONFIGS(tf32_persistent_tma, CONFIGS)
