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
 * The `wpt` axis numbers the variant: 1, persistent alone (the epilogue is
 * rung 14's direct, guarded stores); 3, and each consumer warpgroup writes its
 * tile 32 rows at a time into one of two 8 KiB buffers of shared memory, from
 * which one thread stores it by TMA, so that the stores run on under the next
 * buffer's writes and the next tile's mainloop.  Products TMA cannot read
 * without 4-byte copies (wgmma_direct) run rung 14's kernel; C that TMA cannot
 * store (N % 4, a base off 16 bytes) gets variant 1's stores.
 *
 * Prediction (H100): where K is long the store is a few per cent of a tile's
 * time, so 4096^3 and 8192^3 stay within 1% of rung 14 (355 and 365 TFLOP/s).
 * Where K is short the store is most of it: 8192 x 4096 x 128 (4 slices a
 * tile) moves 128 MiB of C for 8.6 GFLOP, bound at ~183 TFLOP/s by the 3.0
 * TB/s copy rate; rung 14 reaches 79-108.  With the next tile's loads under
 * this tile's store, expect +15-25% (an earlier persistent form of rung 17
 * gained that with 128-row tiles, but lost 10% at 8192^3, unexplained).
 * Variant 3 at 8192 x 4096 x 128: 130-160 TFLOP/s, 70-85% of that bound, as
 * the stores stream at the copy rate; the squares +0-1%.
 *
 * Outcome (development runs on H100s, NOTES.md): 256-row tiles within -5% to
 * +3% of rung 14 at 4096^3 and 8192^3, no gain at 8192 x 4096 x 128 (108-109
 * both), and 8% less at 2999^3 (2.18 waves); 128-row tiles +35-45% at 8192 x
 * 4096 x 128 (113-116 TFLOP/s, above rung 14's best) but 11-17% under rung 14
 * at the squares, a loss that the same kernel launched one tile a cluster
 * shares: the code, not the persistence (the same logic compiled another way
 * moves rung 14 itself by -23% to +6%). */
#include "rung_config.h"
#include "wgmma_tile.cuh"

/* the TMA-store epilogue's buffers: two of 32 x 64 floats per consumer warpgroup */
#define EPI_SMEM (2 * 2 * 32 * 64 * 4)

#ifdef __CUDACC__
#include <algorithm>

namespace {
/* TSTORE: the epilogue through shared memory and TMA stores (variant 3), else rung 14's
 * direct stores (variant 1) */
template <int TILE, bool TSTORE>
__global__ void __launch_bounds__(384, 1)
tf32_persistent(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                const __grid_constant__ CUtensorMap tmC, float *__restrict__ C, int M, int N, int K)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using Q = cfg<TILE>;
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[Q::STAGES], empty[Q::STAGES];
    unsigned char *smem = smem_raw + (-__cvta_generic_to_shared(smem_raw) & 1023);
    const int wg = threadIdx.x / 128, KT = (K + BK - 1) / BK;
    /* T cluster-tiles (CL tiles side by side along N), tx x ty of them */
    const int tx = (N + BN * CL - 1) / (BN * CL), ty = (M + TILE - 1) / TILE, T = tx * ty;
    const int G = gridDim.x / CL, cid = blockIdx.x / CL;
    auto bar = [](uint64_t *b) { return (uint32_t)__cvta_generic_to_shared(b); };
    uint32_t rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    auto origin = [&](int t, int &row0, int &col0) {
        int cx, cy;
        grouped_block(t, tx, ty, GROUP_ROWS / TILE, cx, cy);
        row0 = cy * TILE, col0 = (cx * CL + rank) * BN;
    };

    if (threadIdx.x == 0) {
        for (int s = 0; s < Q::STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar(&empty[s])), "n"(8 * CL));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();

    if (wg == 0) {   /* producer: slice `it` since the start goes to stage it % STAGES */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        uint32_t it = 0;
        for (int t = cid; t < T && threadIdx.x == 0; t += G) {
            int row0, col0;
            origin(t, row0, col0);
            for (int kb = 0; kb < KT; kb++, it++) {
                const uint32_t s = it % Q::STAGES;
                if (it >= Q::STAGES) mbar_wait(bar(&empty[s]), (it / Q::STAGES - 1) & 1);
                unsigned char *st = smem + s * Q::STAGE;
                asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                             :: "r"(bar(&full[s])), "r"(Q::STAGE) : "memory");
                tma_load_mc(st + rank * (Q::A_BYTES / CL), &tmA, bar(&full[s]), kb * BK,
                            row0 + rank * (TILE / CL), (1 << CL) - 1);
                for (int q = 0; q < BN / 32; q++)
                    tma_load(st + Q::A_BYTES + q * 4096, &tmB, bar(&full[s]), col0 + 32 * q, kb * BK);
            }
        }
    } else {   /* consumers: rung 14's, with the slice count running on across tiles */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const struct wgmma_consumer W(threadIdx.x);
        const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
        float acc[TILE / 2];
        for (int i = 0; i < TILE / 2; i++) acc[i] = 0.f;
        uint32_t it0 = 0;   /* slices consumed before this tile */
        auto load = [&](uint32_t (&f)[16], uint32_t it) {
            mbar_wait(bar(&full[it % Q::STAGES]), (it / Q::STAGES) & 1);
            W.load(f, smem + it % Q::STAGES * Q::STAGE + Q::A_BYTES);
        };
        auto release = [&](uint32_t it) {
            if (W.lane == 0)
                for (int r = 0; r < CL; r++) mbar_arrive_in(bar(&empty[it % Q::STAGES]), r);
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
        for (int t = cid; t < T; t += G) {
            int row0, col0;
            origin(t, row0, col0);
            uint32_t f0[16], f1[16];
            load(f0, it0);
            for (int kb = 0; kb < KT; kb += 2) {
                step(f0, f1, kb);
                if (kb + 1 < KT) step(f1, f0, kb + 1);
            }
            asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
            release(it0 + KT - 1);
            it0 += KT;
            if constexpr (!TSTORE) {
                W.store<TILE>(acc, C, M, N, row0, col0);
                continue;
            }
            /* 32 rows of the warpgroup's 64 columns at a time, as two 128B-swizzled 32 x 32
             * boxes in one of its two 8 KiB buffers: a buffer's stores drain while the other
             * is written, and the last two under the next tile's mainloop */
            unsigned char *eb = smem + Q::STAGES * Q::STAGE + W.c * 16384;
            const int cc = 16 * (W.g >> 2) + 4 * W.w + (W.g & 3);   /* this thread's box column */
            const bool lead = threadIdx.x % 128 == 0;
#pragma unroll
            for (int q = 0; q < TILE / 32; q++) {
                unsigned char *buf = eb + (q & 1) * 8192;
                if (lead) asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
                asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
#pragma unroll
                for (int i = 16 * q; i < 16 * q + 16; i++) {   /* row 8(i/4) + 2t + i%2, box (i/2)%2 */
                    const int r = 8 * ((i >> 2) & 3) + 2 * W.t + (i & 1);
                    *(float *)(buf + ((i >> 1) & 1) * 4096 + r * 128 + (((cc >> 2) ^ (r & 7)) << 4) +
                               (cc & 3) * 4) = acc[i];
                }
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
                asm volatile("bar.sync %0, 128;" :: "r"(1 + W.c) : "memory");
                if (lead) {
                    for (int h = 0; h < 2; h++)
                        tma_store(&tmC, buf + h * 4096, col0 + 64 * W.c + 32 * h, row0 + 32 * q);
                    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
                }
            }
        }
        if (TSTORE && threadIdx.x % 128 == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
    cluster_sync();   /* no block leaves while its peer may still signal its barriers */
#else
    (void)M, (void)N, (void)K, (void)C;
    __trap();
#endif
}
}   // namespace

template <int TILE, bool TSTORE>
static const char *launch(const struct gpu_launch *L)
{
    if (wgmma_direct(L)) return wgmma_launch<TILE, false>(L, L->C, 1);
    if constexpr (TSTORE)   /* TMA cannot store rows that are not 16-byte aligned */
        if (L->N % 4 || (uintptr_t)L->C % 16) return launch<TILE, false>(L);
    auto kernel = tf32_persistent<TILE, TSTORE>;
    const size_t smem = cfg<TILE>::SMEM + (TSTORE ? EPI_SMEM : 0);
    cudaStream_t st = (cudaStream_t)L->stream;
    cudaLaunchAttribute cluster;
    const cudaLaunchConfig_t lc = wgmma_config(dim3(CL), smem, st, &cluster);
    int fit = 0;
    cudaError_t e = allow_shared(kernel, smem);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveClusters(&fit, kernel, &lc);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (fit < 1) return "tf32_persistent_tma: no cluster of 2 blocks fits on this GPU";
    const dim3 tiles = wgmma_grid<TILE>(L, 1);
    const dim3 grid(CL * (unsigned)std::min<long long>(fit, (long long)tiles.x / CL * tiles.y));
    if (L->describe) return describe_kernel(L->describe, kernel, 384, smem, grid);

    wgmma_maps m;
    const char *err = wgmma_maps_make<TILE>(L, &m, TSTORE);
    if (!err) err = wgmma_start(kernel, grid, smem, st, m.A, m.B, m.C, L->C, L->M, L->N, L->K);
    return wgmma_maps_free(&m, st, err);
}
#endif

/* rung 14's tiles, TILE x 128 of C a block; wpt, the variant: 1 persistent, 3 and the TMA-store
 * epilogue */
#define CONFIGS(X)                                                                 \
    X(128, 1, 128, 128, 32, 2, WGMMA_SMEM(128), (launch<128, false>))                  \
    X(256, 1, 256, 128, 64, 2, WGMMA_SMEM(256), (launch<256, false>))                  \
    X(128, 3, 128, 128, 32, 2, WGMMA_SMEM(128) + EPI_SMEM, (launch<128, true>))        \
    X(256, 3, 256, 128, 64, 2, WGMMA_SMEM(256) + EPI_SMEM, (launch<256, true>))
RUNG_CONFIGS(tf32_persistent_tma, CONFIGS)
