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
 * 16-byte row strides and bases, so when K % 4, N % 4 or a pointer is off we
 * copy A and/or B into padded scratch first (stream-ordered, in the time).
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

/* Dynamic shared memory, the same for both tiles: 6 stages of a 128-row slice of A
 * or 4 of a 256-row one, each with a 32 x 128 slice of B, plus 1 KiB of slack to
 * align the stages to 1024 bytes. */
#define WGMMA_SMEM (6 * (128 * 32 * 4 + 32 * 128 * 4) + 1024)

#ifdef __CUDACC__
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <stdint.h>

#include "block_order.cuh"
#include "launch.cuh"
#include "matmul.h"

#define BK 32                      /* floats per slice: one 128-byte swizzle row */
#define BN 128                     /* C columns per block: 2 consumers x 64 */
#define CL 2                       /* blocks per cluster, along N: they share the A slice */

template <int TILE> struct cfg {
    static constexpr int STAGES = TILE == 256 ? 4 : 6;
    static constexpr int A_BYTES = TILE * BK * 4, B_BYTES = BK * BN * 4;
    static constexpr int STAGE = A_BYTES + B_BYTES;
    static constexpr size_t SMEM = (size_t)STAGES * STAGE + 1024;   /* + alignment slack */
    static_assert(SMEM == WGMMA_SMEM, "WGMMA_SMEM above is the kernel's shared memory");
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ static inline void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
                    " selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    while (!done);
}
__device__ static inline void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release; barrier.cluster.wait.acquire;" ::: "memory");
}
/* Arrive on the mbarrier at shared address `bar` in the cluster's CTA `rank`. */
__device__ static inline void mbar_arrive_in(uint32_t bar, uint32_t rank)
{
    asm volatile("{ .reg .b32 r; mapa.shared::cluster.u32 r, %0, %1;"
                 " mbarrier.arrive.shared::cluster.b64 _, [r]; }"
                 :: "r"(bar), "r"(rank) : "memory");
}
/* Box at (c0, c1) of `map` -> dst, completing on the mbarrier `bar` (same offsets in every
 * CTA of `mask` when it multicasts). */
__device__ static inline void tma_load(void *dst, const CUtensorMap *map, uint32_t bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];"
                 :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"((uint64_t)map), "r"(c0), "r"(c1),
                    "r"(bar) : "memory");
}
__device__ static inline void tma_load_mc(void *dst, const CUtensorMap *map, uint32_t bar, int c0, int c1,
                                          uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"((uint64_t)map), "r"(c0), "r"(c1),
                    "r"(bar), "h"(mask) : "memory");
}
#define F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), \
              "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define F64(i) F8(i), F8(i + 8), F8(i + 16), F8(i + 24), F8(i + 32), F8(i + 40), F8(i + 48), F8(i + 56)
#define R0_63 "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21," \
    "%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,"  \
    "%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define R64_127 "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82," \
    "%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,"  \
    "%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,"      \
    "%121,%122,%123,%124,%125,%126,%127"

/* D (64 x TILE, f32) += A (64 x 8, registers) * B (8 x TILE, shared, K-major, descriptor). */
template <int TILE>
__device__ static inline void wgmma(float (&d)[TILE / 2], const uint32_t *a, uint64_t desc)
{
    if constexpr (TILE == 256)
        asm volatile("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" R0_63 "," R64_127 "},"
                     " {%128,%129,%130,%131}, %132, 1, 1, 1;"
                     : F64(0), F64(64) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
    else
        asm volatile("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" R0_63 "},"
                     " {%64,%65,%66,%67}, %68, 1, 1, 1;"
                     : F64(0) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
#endif

template <int TILE>
__global__ void __launch_bounds__(384, 1)
tf32_wgmma_tma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
               float *__restrict__ C, int M, int N, int K)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using P = cfg<TILE>;
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[P::STAGES], empty[P::STAGES];
    /* 128-byte swizzle repeats every 1024 bytes: align the stages to that. */
    unsigned char *smem = smem_raw + (-__cvta_generic_to_shared(smem_raw) & 1023);
    const int wg = threadIdx.x / 128, KT = (K + BK - 1) / BK;
    auto bar = [](uint64_t *b) { return (uint32_t)__cvta_generic_to_shared(b); };

    uint32_t rank;   /* in the cluster of CL blocks side by side along N */
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    /* Clusters in launch order walk down groups of G block rows, column by column, so that
     * a wave (66 clusters) covers 2048 rows x 1-2 thousand columns of C and shares its A
     * and B panels in L2. */
    const int ncl = gridDim.x / CL;
    int cx, cy;
    grouped_block(blockIdx.x / CL + ncl * blockIdx.y, ncl, gridDim.y, GROUP_ROWS / TILE, cx, cy);
    const int row0 = cy * TILE, col0 = (cx * CL + rank) * BN;

    if (threadIdx.x == 0) {
        for (int s = 0; s < P::STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar(&full[s])));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar(&empty[s])), "n"(8 * CL));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();   /* every block's barriers exist before anyone signals them */

    if (wg == 0) {   /* producer: one thread keeps every stage it may fill in flight */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        for (int kb = 0; kb < KT && threadIdx.x == 0; kb++) {
            const int s = kb % P::STAGES;
            /* stage s is free once the 8 consumer warps of every block in the cluster are done */
            if (kb >= P::STAGES) mbar_wait(bar(&empty[s]), (kb / P::STAGES - 1) & 1);
            unsigned char *st = smem + s * P::STAGE;
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(bar(&full[s])), "r"(P::STAGE) : "memory");
            /* A: the cluster shares the TILE x 32 slice, each block fetches 1/CL for all */
            tma_load_mc(st + rank * (P::A_BYTES / CL), &tmA, bar(&full[s]), kb * BK,
                        row0 + rank * (TILE / CL), (1 << CL) - 1);
            for (int q = 0; q < BN / 32; q++)                                /* B: 32 x 128 */
                tma_load(st + P::A_BYTES + q * 4096, &tmB, bar(&full[s]), col0 + 32 * q, kb * BK);
        }
    } else {   /* consumers */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const int c = wg - 1, w = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
        /* Fragment row r = 16w + 8h + g reads C column nmap = 32h + 16(g/4) + 4w + g%4 of this
         * warpgroup's 64.  The B tile is 4 swizzled 32x32 blocks: element (k, n) sits at byte
         * (n/32)*4096 + k*128 + (((n%32)/4 ^ k%8) * 16) + (n%4)*4.  For register v (h = v%2,
         * k = 8j + t + 4(v/2)) that is off[v] + 1024j, and the 32 lanes hit 32 distinct banks. */
        uint32_t off[4];
        for (int v = 0; v < 4; v++) {
            const int h = v & 1, k = t + 4 * (v >> 1);
            off[v] = (2 * c + h) * 4096 + k * 128 + (((4 * (g >> 2) + w) ^ k) << 4) + (g & 3) * 4;
        }
        float acc[TILE / 2];
        for (int i = 0; i < TILE / 2; i++) acc[i] = 0.f;

        /* Slice kb's fragments are loaded while slice kb-1's wgmmas run: two register sets,
         * alternating by unrolling the slice loop by 2, so that no instruction writes the
         * registers of a wgmma still in flight (else ptxas serializes them, C7513). */
        const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
        /* B^T fragments of slice kb's 4 k-steps (the hardware truncates them to TF32) */
        auto load = [&](uint32_t (&f)[16], int kb) {
            const int s = kb % P::STAGES;
            mbar_wait(bar(&full[s]), (kb / P::STAGES) & 1);
            const unsigned char *st = smem + s * P::STAGE + P::A_BYTES;
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int v = 0; v < 4; v++) f[4 * j + v] = *(const uint32_t *)(st + off[v] + 1024 * j);
        };
        auto step = [&](const uint32_t (&f)[16], uint32_t (&next)[16], int kb) {
            /* A tile: TILE rows of 128 swizzled bytes; 8-row groups 1024 B apart (SBO),
             * LBO unused under swizzle; k-step j starts 32 bytes further along the row. */
            const uint64_t desc = (uint64_t)(((base + kb % P::STAGES * P::STAGE) & 0x3FFFF) >> 4) |
                                  (1ull << 16) | (64ull << 32) | (1ull << 62);
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int j = 0; j < 4; j++) wgmma<TILE>(acc, f + 4 * j, desc + 2 * j);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            /* slice kb-1 is done: free its stage and (in load) its register set */
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
            if (kb > 0 && lane == 0)
                for (int r = 0; r < CL; r++) mbar_arrive_in(bar(&empty[(kb - 1) % P::STAGES]), r);
            if (kb + 1 < KT) load(next, kb + 1);
        };
        uint32_t f0[16], f1[16];
        load(f0, 0);
        for (int kb = 0; kb < KT; kb += 2) {
            step(f0, f1, kb);
            if (kb + 1 < KT) step(f1, f0, kb + 1);
        }
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");   /* last stage: no refill */
#pragma unroll
        for (int i = 0; i < TILE / 2; i++) asm volatile("" : "+f"(acc[i]) :: "memory");   /* no hoisting */

        /* acc[i] is C^T row 16w + g + 8((i/2)%2), column 8(i/4) + 2t + i%2 */
        const int n = col0 + 64 * c + 16 * (g >> 2) + 4 * w + (g & 3);
#pragma unroll
        for (int i = 0; i < TILE / 2; i++) {
            const int m = row0 + 8 * (i >> 2) + 2 * t + (i & 1), nn = n + 32 * ((i >> 1) & 1);
            if (m < M && nn < N) C[(size_t)m * N + nn] = acc[i];
        }
    }
    cluster_sync();   /* no block leaves while its peers may still signal its barriers */
#else
    (void)M, (void)N, (void)K, (void)C;
    __trap();
#endif
}

/* A 2D row-major FP32 tensor map: rows x cols with leading dimension ld (floats),
 * boxes of 32 columns x box_rows rows, 128-byte swizzle, out of range reads 0. */
static const char *encode(void *fn, CUtensorMap *map, const float *base, int rows, int cols, int ld,
                          int box_rows)
{
    const cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, stride[1] = {(cuuint64_t)ld * 4};
    const cuuint32_t box[2] = {32, (cuuint32_t)box_rows}, one[2] = {1, 1};
    CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
        map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dim, stride, box, one,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? NULL : "cuTensorMapEncodeTiled failed";
}

/* TMA wants 16-byte aligned bases and row strides: else copy into a padded buffer. */
static const char *padded(const float *src, int rows, int cols, float **dst, int *ld, cudaStream_t st)
{
    *dst = NULL, *ld = cols;
    if (cols % 4 == 0 && (uintptr_t)src % 16 == 0) return NULL;
    *ld = (cols + 3) & ~3;
    cudaError_t e = cudaMallocAsync((void **)dst, (size_t)rows * *ld * 4, st);
    if (e != cudaSuccess) *dst = NULL;
    else
        e = cudaMemcpy2DAsync(*dst, (size_t)*ld * 4, src, (size_t)cols * 4, (size_t)cols * 4, rows,
                              cudaMemcpyDeviceToDevice, st);
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

template <int TILE>
static const char *launch(const struct gpu_launch *L)
{
    auto kernel = tf32_wgmma_tma<TILE>;
    const size_t smem = cfg<TILE>::SMEM;
    cudaError_t e = allow_shared(kernel, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (L->describe) return describe_kernel(L->describe, kernel, 384, smem);

    /* The driver's tensor-map encoder, fetched per call (cheap) so we need not link libcuda. */
    void *fn = NULL;
    cudaDriverEntryPointQueryResult q;
    e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (q != cudaDriverEntryPointSuccess || !fn) return "cuTensorMapEncodeTiled not available";

    cudaStream_t st = (cudaStream_t)L->stream;
    float *Ap = NULL, *Bp = NULL;
    int lda, ldb;
    CUtensorMap tmA, tmB;
    const char *err = padded(L->A, L->M, L->K, &Ap, &lda, st);
    if (!err) err = padded(L->B, L->K, L->N, &Bp, &ldb, st);
    if (!err) err = encode(fn, &tmA, Ap ? Ap : L->A, L->M, L->K, lda, TILE / CL);
    if (!err) err = encode(fn, &tmB, Bp ? Bp : L->B, L->K, L->N, ldb, BK);
    if (!err) {
        cudaLaunchAttribute cluster;
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = CL, cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
        cudaLaunchConfig_t lc = {};
        lc.gridDim = dim3((L->N + BN * CL - 1) / (BN * CL) * CL, (L->M + TILE - 1) / TILE);
        lc.blockDim = dim3(384), lc.dynamicSmemBytes = smem, lc.stream = st;
        lc.attrs = &cluster, lc.numAttrs = 1;
        e = cudaLaunchKernelEx(&lc, kernel, tmA, tmB, L->C, L->M, L->N, L->K);
        if (e == cudaSuccess) e = cudaGetLastError();
        if (e != cudaSuccess) err = cudaGetErrorString(e);
    }
    if (Ap && (e = cudaFreeAsync(Ap, st)) != cudaSuccess && !err) err = cudaGetErrorString(e);
    if (Bp && (e = cudaFreeAsync(Bp, st)) != cudaSuccess && !err) err = cudaGetErrorString(e);
    return err;
}

#endif

/* a TILE x 128 tile of C per block (TILE = 128 or 256 rows); each consumer
 * thread holds two of its columns over TILE / 4 rows (C^T's m64 accumulators) */
#define CONFIGS(X)                                 \
    X(128, 0, 128, 128, 32, 2, WGMMA_SMEM, (launch<128>))      \
    X(256, 0, 256, 128, 64, 2, WGMMA_SMEM, (launch<256>))
RUNG_CONFIGS(tf32_wgmma_tma, CONFIGS)
