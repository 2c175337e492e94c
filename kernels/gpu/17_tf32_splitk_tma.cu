/* Rung 17, past the seeds: split-K over rung 14's wgmma + TMA pipeline (TF32).
 *
 * Adds over rung 14 what rung 15 adds over rung 12: the S parts of K of a tile
 * go to S blocks (gridDim.z; clusters stay pairs along N), each writing its
 * partial tile into the workspace, and split_k.cuh's second pass adds them in
 * a fixed order.  `splits` = 0 takes split_k.cuh's rule: one block of 384
 * threads and ~190 KiB of shared memory per SM, so parts until the tiles fill
 * the 132 SMs once.  And tiles of fewer rows (the `tile` axis: 16, 32 or 64 rows
 * of C, wgmma's N), for outputs of a few rows as in decoding, where rung 14's
 * 128 rows compute 8x the useful work and, more to the point, stream each slice
 * of B past a mostly empty tile: with fewer rows a stage is smaller (a 32 x 128
 * slice of B and a TILE x 32 slice of A), so more stages (up to 9) are in
 * flight to cover DRAM's latency.
 *
 * Prediction (H100): 128 x 128 x 65536 at tile 128, S = 66 by the rule (2
 * blocks of the pair along N x 66 = 132): rung 14 keeps 2 SMs busy at 3.2
 * TFLOP/s (4.8% of cuBLAS TF32); here 132, bound by reading A and B (64 MB)
 * once at ~2.5-3 TB/s: 22-26 us, 80-100% of cuBLAS's 32 us.  16 x 4096 x 4096
 * at tile 16: 32 tiles x 4 parts, bound by reading B (64 MB): ~25 us, about
 * cuBLAS's 29 us; rung 14 (128 rows, 32 blocks) takes 47 us. */
#include "rung_config.h"
#include "wgmma_tile.cuh"

#ifdef __CUDACC__
/* The rule's floor (split_k.cuh): a part takes at least 8 slices (256 of K).
 * Each part pays a producer warpgroup, its barriers and a cluster's start: in a
 * development sweep (H100) 256^3 ran at 92% of cuBLAS TF32 in one part and 84%
 * in two of 4 slices, while 512^3 gained from two parts of 8 (96% against 93%). */
constexpr int SPLITK_FLOOR = 8;

template <int TILE>
static const char *launch(const struct gpu_launch *L)
{
    int sms = 0;
    long long resident = 0;
    const char *why = resident_blocks(tf32_wgmma_tma<TILE, true, false>, 384, cfg<TILE>::SMEM, &sms, &resident);
    if (why) return why;
    const dim3 one = wgmma_grid<TILE>(L, 1);
    const int S = split_parts(L->split, (long long)one.x * one.y, resident, (L->K + BK - 1) / BK,
                              SPLITK_FLOOR, L->M, L->N, &why);
    if (!S) return why;
    const size_t parts = S > 1 ? (size_t)S * L->M * L->N * sizeof(float) : 0;
    if (L->describe) {
        why = wgmma_launch<TILE, true>(L, NULL, S);
        L->describe->k_splits = S;
        L->describe->workspace_bytes = parts;
        return why;
    }
    if (S > 1 && (!L->workspace || L->workspace_bytes < parts))
        return "split: the workspace given is smaller than the partial products";
    why = wgmma_launch<TILE, true>(L, S > 1 ? (float *)L->workspace : L->C, S);
    return why || S == 1 ? why : split_k_finish(L, S, sms);
}
#endif

/* a TILE x 128 tile of C per block, TILE = 16, 32, 64, 128 or 256 rows (each
 * consumer thread: two columns over TILE / 4 rows), each with K in 1 to
 * RUNG_MAX_SPLIT parts, or by the rule */
#define CONFIGS(X)                                                  \
    X(16, 0, 16, 128, 4, 2, WGMMA_SMEM(16), (launch<16>))           \
    X(32, 0, 32, 128, 8, 2, WGMMA_SMEM(32), (launch<32>))           \
    X(64, 0, 64, 128, 16, 2, WGMMA_SMEM(64), (launch<64>))          \
    X(128, 0, 128, 128, 32, 2, WGMMA_SMEM(128), (launch<128>))      \
    X(256, 0, 256, 128, 64, 2, WGMMA_SMEM(256), (launch<256>))
RUNG_CONFIGS_SPLIT(tf32_splitk_tma, CONFIGS)
