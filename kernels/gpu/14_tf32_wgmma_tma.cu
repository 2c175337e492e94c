/* Rung 14, past the seeds: Hopper wgmma + TMA (TF32).
 *
 * Adds over rung 13 (TF32 mma.sync fed by cp.async): there every warp issues
 * its own cp.async copies and then loads both operands of every warp-level
 * 16x8x8 MMA from shared memory into registers.  Here the Tensor Memory
 * Accelerator copies whole tiles global -> shared with no thread involvement
 * (one thread issues a descriptor-driven copy that completes on an mbarrier),
 * and warpgroup-wide 64xNx8 MMAs (wgmma) read an operand straight from shared
 * memory, asynchronously.
 *
 * The catch: for .tf32, wgmma wants both shared operands K-major, and our B
 * (K x N row-major) is N-major.  Rather than transpose B into scratch (~10% at
 * 4096^3), we compute the transposed product C^T = B^T A^T:
 *  - wgmma "A" (64 x 8, its M = C's columns) comes from registers: each
 *    consumer warp loads its B^T fragment from the shared B tile, 4 LDS a k-step;
 *  - wgmma "B" (8 x TILE, its N = C's rows) is the shared A tile, K-major as TMA
 *    wrote it, read through a matrix descriptor;
 *  - the accumulator holds C^T and is stored transposed (guarded) into C.
 * Both tiles use TMA's 128-byte swizzle (box inner extent 32 floats): the A tile
 * because the descriptor says so, the B tile so that the fragment LDS are free
 * of bank conflicts (fragment row r reads C column nmap(r), chosen so 32 lanes
 * hit 32 banks; the epilogue applies the same map).
 *
 * Block tile: TILE (128 or 256: the `tile` axis) rows of C x 128 columns, K in
 * slices of 32.  384 threads: warpgroup 0 is the producer (one thread issues
 * TMA; setmaxnreg gives registers away), warpgroups 1 and 2 own 64 columns each
 * and issue m64n{TILE}k8 wgmmas.  Shared stages: 4 x 48 KiB at TILE 256,
 * 6 x 32 KiB at TILE 128, each with a full (bytes landed) and an empty
 * (consumers done) mbarrier.  Each consumer keeps one slice's wgmmas in flight
 * while it loads the next slice's fragments (two register sets, see the loop),
 * and frees a stage once the wgmmas that read it are done.  Blocks run in
 * clusters of CL = 2 along N: the pair shares its A slice, each block fetching
 * half and multicasting it to both, so a stage is free only when the consumers
 * of both blocks release it.  Clusters are numbered down groups of 2048 rows of
 * C, so that the blocks resident at once share their A and B panels in L2.  TMA
 * zero-fills out-of-range boxes, so edges need only the store guard; it needs
 * 16-byte row strides and bases, so when K % 4, N % 4 or a pointer is off, a
 * compute-bound product copies A and/or B into padded scratch first
 * (stream-ordered, in the time), and a memory-bound one has the producer
 * warpgroup load both with 4-byte cp.async instead (wgmma_tile.cuh).
 *
 * Prediction (H100 SXM, 4096^3, TILE 256): dense TF32 peak is 2048 flop/clk/SM
 * (~495 TFLOP/s).  Per slice a block does 2*256*128*32 = 2.1 Mflop, 1024 clk
 * at peak, while its shared memory takes 48 KiB of TMA writes, 8 x 8 KiB of
 * wgmma operand reads and 16 KiB of fragment LDS: 128 B/clk, all the SM has.
 * L2 delivers 32 KiB per block per slice (48 without the multicast): 5 TB/s at
 * 330 TFLOP/s.  With the fragment loads hidden behind the previous slice's
 * wgmmas the tensor cores wait only on shared memory; the epilogue is not
 * overlapped (~2-3%).  Expect ~300-330 TFLOP/s (80-90% of cuBLAS TF32), ~1.5x
 * a rung 13 whose LDS of both operands alone need 128 B/clk at peak.  TILE 128
 * moves 1.5x the bytes per flop, so expect it 15-25% slower.
 *
 * Outcome (H100 80GB HBM3, cuBLAS TF32 364-370 TFLOP/s at 4096^3): TILE 256
 * reaches 355 TFLOP/s at 4096^3 and 365 at 8192^3 (96% of cuBLAS), above the
 * prediction; TILE 128 294 and 304, 17% slower as predicted.  The steps (TILE
 * 256, 4096^3 / 8192^3): draining each slice's wgmmas before loading the next
 * fragments, and releasing stages with a cluster-scope arrive (a MEMBAR.GPU per
 * warp and slice), 158 / 157; the two register sets plus a CTA-scope arrive
 * 349 / 354; the grouped block order 355-357 / 365-370 (TILE 128 at 8192^3:
 * 190 -> 304: by our count B was streamed from DRAM once per wave).  Without
 * the multicast (CL 1) 321 / 334; clusters of 4, 311 / 349.  4095^3 reaches
 * 242: 0.18 ms over 4096^3 for the padded copies of A and B and their scratch
 * (which the default pool likely unmaps at every synchronization). */
#include "rung_config.h"
#include "wgmma_tile.cuh"   /* the pipeline itself, shared with rung 17 */

#ifdef __CUDACC__
template <int TILE>
static const char *launch(const struct gpu_launch *L)
{
    return wgmma_launch<TILE, false>(L, L->C, 1);
}
#endif

/* a TILE x 128 tile of C per block (TILE = 128 or 256 rows); each consumer
 * thread holds two of its columns over TILE / 4 rows (C^T's m64 accumulators) */
#define CONFIGS(X)                                 \
    X(128, 0, 128, 128, 32, 2, WGMMA_SMEM(128), (launch<128>))      \
    X(256, 0, 256, 128, 64, 2, WGMMA_SMEM(256), (launch<256>))
RUNG_CONFIGS(tf32_wgmma_tma, CONFIGS)
