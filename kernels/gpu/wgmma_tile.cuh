/* Rung 14's wgmma + TMA pipeline, shared with the rung that splits its K (17):
 * one block computes a TILE x 128 tile of C (TILE rows of C are wgmma's N: 16
 * to 256) over a range of 32-deep slices of K, part blockIdx.z of gridDim.z,
 * into P + z M N.  Rung 14 runs one part (P = C); its comment says how the
 * pipeline works.  Built for sm_90a alone (files named *_tma.cu). */
#ifndef KERNELS_GPU_WGMMA_TILE_CUH
#define KERNELS_GPU_WGMMA_TILE_CUH

/* Dynamic shared memory of a TILE-row tile: as many stages of a TILE x 32 slice
 * of A and a 32 x 128 slice of B as fit in 192 KiB (6 at TILE 128, 4 at 256),
 * plus 1 KiB of slack to align the stages to 1024 bytes. */
#define WGMMA_STAGE(T) ((T) * 32 * 4 + 32 * 128 * 4)
#define WGMMA_SMEM(T) ((6 * WGMMA_STAGE(128)) / WGMMA_STAGE(T) * WGMMA_STAGE(T) + 1024)

#ifdef __CUDACC__
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <stdint.h>

#include "block_order.cuh"
#include "split_k.cuh"
#include "launch.cuh"
#include "matmul.h"

#define BK 32                      /* floats per slice: one 128-byte swizzle row */
#define BN 128                     /* C columns per block: 2 consumers x 64 */
#define CL 2                       /* blocks per cluster, along N: they share the A slice */

template <int TILE> struct cfg {
    static constexpr int A_BYTES = TILE * BK * 4, B_BYTES = BK * BN * 4;
    static constexpr int STAGE = A_BYTES + B_BYTES;
    static constexpr int STAGES = 6 * WGMMA_STAGE(128) / STAGE;
    static constexpr size_t SMEM = (size_t)STAGES * STAGE + 1024;   /* + alignment slack */
    static_assert(STAGE == WGMMA_STAGE(TILE) && SMEM == WGMMA_SMEM(TILE),
                  "WGMMA_SMEM above is the kernel's shared memory");
    static_assert(TILE % 16 == 0 && TILE >= 16 && TILE <= 256, "wgmma's N: 16 to 256 rows");
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
/* The box of `map` at (c0, c1) <- shared src, in this thread's bulk group (boxes past
 * the tensor's edge are clipped). */
__device__ static inline void tma_store(const CUtensorMap *map, const void *src, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];"
                 :: "l"((uint64_t)map), "r"((uint32_t)__cvta_generic_to_shared(src)), "r"(c0), "r"(c1)
                 : "memory");
}
/* Four bytes from global src to shared dst by cp.async, or four zeros when !in
 * (a copy of 0 bytes reads nothing, but src must still be a valid address). */
__device__ static inline void copy4(unsigned char *dst, const float *src, bool in)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;"
                 :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(__cvta_generic_to_global(src)),
                    "r"(in ? 4 : 0) : "memory");
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

#define R0_7 "%0,%1,%2,%3,%4,%5,%6,%7"
#define R0_15 R0_7 ",%8,%9,%10,%11,%12,%13,%14,%15"
#define R0_31 R0_15 ",%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define A_DESC(a, d) "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(d)

/* D (64 x TILE, f32) += A (64 x 8, registers) * B (8 x TILE, shared, K-major, descriptor). */
template <int TILE>
__device__ static inline void wgmma(float (&d)[TILE / 2], const uint32_t *a, uint64_t desc)
{
    if constexpr (TILE == 256)
        asm volatile("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" R0_63 "," R64_127 "},"
                     " {%128,%129,%130,%131}, %132, 1, 1, 1;"
                     : F64(0), F64(64) : A_DESC(a, desc));
    else if constexpr (TILE == 128)
        asm volatile("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" R0_63 "},"
                     " {%64,%65,%66,%67}, %68, 1, 1, 1;"
                     : F64(0) : A_DESC(a, desc));
    else if constexpr (TILE == 64)
        asm volatile("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {" R0_31 "},"
                     " {%32,%33,%34,%35}, %36, 1, 1, 1;"
                     : F8(0), F8(8), F8(16), F8(24) : A_DESC(a, desc));
    else if constexpr (TILE == 32)
        asm volatile("wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {" R0_15 "},"
                     " {%16,%17,%18,%19}, %20, 1, 1, 1;"
                     : F8(0), F8(8) : A_DESC(a, desc));
    else
        asm volatile("wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {" R0_7 "},"
                     " {%8,%9,%10,%11}, %12, 1, 1, 1;"
                     : F8(0) : A_DESC(a, desc));
}

/* The same for TILE 128 or 256 with a scale-d operand: D = (keep ? D : 0) + A B, so that
 * a tile's first k-step starts its accumulators, where an instruction zeroing them
 * between two tiles' wgmmas would make ptxas serialize every wgmma (C7515). */
template <int TILE>
__device__ static inline void wgmma_keep(float (&d)[TILE / 2], const uint32_t *a, uint64_t desc, int keep)
{
    static_assert(TILE == 128 || TILE == 256, "wgmma_keep: 128 or 256 rows");
    if constexpr (TILE == 256)
        asm volatile("{ .reg .pred p; setp.ne.b32 p, %133, 0;"
                     " wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" R0_63 "," R64_127 "},"
                     " {%128,%129,%130,%131}, %132, p, 1, 1; }"
                     : F64(0), F64(64) : A_DESC(a, desc), "r"(keep));
    else
        asm volatile("{ .reg .pred p; setp.ne.b32 p, %69, 0;"
                     " wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {" R0_63 "},"
                     " {%64,%65,%66,%67}, %68, p, 1, 1; }"
                     : F64(0) : A_DESC(a, desc), "r"(keep));
}

/* The shared A tile of the stage at shared address `addr` as wgmma's B operand: TILE
 * rows of 128 swizzled bytes, 8-row groups 1024 B apart (SBO), LBO unused under the
 * swizzle; k-step j starts 32 bytes further along the row (add 2j). */
__device__ static inline uint64_t wgmma_desc(uint32_t addr)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

/* A consumer thread (threads 128 to 383): warpgroup c owns the block's C columns
 * 64c to 64c + 63, warp w of it, lane = 4g + t.  Rung 20 uses it; rung 14's
 * kernel below keeps the same lines inline, because through this struct ptxas
 * compiles it differently and it ran 2-23% slower with 256-row tiles (NOTES.md,
 * rung 20). */
struct wgmma_consumer {
    int c, w, lane, g, t;
    uint32_t off[4];
    /* Fragment row r = 16w + 8h + g reads C column nmap = 32h + 16(g/4) + 4w + g%4 of this
     * warpgroup's 64.  The B tile is 4 swizzled 32x32 blocks: element (k, n) sits at byte
     * (n/32)*4096 + k*128 + (((n%32)/4 ^ k%8) * 16) + (n%4)*4.  For register v (h = v%2,
     * k = 8j + t + 4(v/2)) that is off[v] + 1024j, and the 32 lanes hit 32 distinct banks. */
    __device__ explicit wgmma_consumer(int tid)
        : c(tid / 128 - 1), w(tid / 32 % 4), lane(tid % 32), g(lane / 4), t(lane % 4)
    {
        for (int v = 0; v < 4; v++) {
            const int h = v & 1, k = t + 4 * (v >> 1);
            off[v] = (2 * c + h) * 4096 + k * 128 + (((4 * (g >> 2) + w) ^ k) << 4) + (g & 3) * 4;
        }
    }
    /* B^T fragments of a slice's 4 k-steps from its B tile (the hardware truncates them to TF32) */
    __device__ void load(uint32_t (&f)[16], const unsigned char *b) const
    {
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int v = 0; v < 4; v++) f[4 * j + v] = *(const uint32_t *)(b + off[v] + 1024 * j);
    }
    /* The tile at (row0, col0) into C, guarded: acc[i] is C^T row 16w + g + 8((i/2)%2),
     * column 8(i/4) + 2t + i%2 */
    template <int TILE>
    __device__ void store(float (&acc)[TILE / 2], float *__restrict__ C, int M, int N, int row0,
                          int col0) const
    {
#pragma unroll
        for (int i = 0; i < TILE / 2; i++) asm volatile("" : "+f"(acc[i]) :: "memory");   /* no hoisting */
        const int n = col0 + 64 * c + 16 * (g >> 2) + 4 * w + (g & 3);
#pragma unroll
        for (int i = 0; i < TILE / 2; i++) {
            const int m = row0 + 8 * (i >> 2) + 2 * t + (i & 1), nn = n + 32 * ((i >> 1) & 1);
            if (m < M && nn < N) C[(size_t)m * N + nn] = acc[i];
        }
    }
};
#endif

/* Part blockIdx.z of gridDim.z of the TILE x 128 tile of C at (x, y): slices
 * [kb0, kb1) of K (split_k.cuh), into P + z M N; without SPLIT, all of K into P
 * (rung 14's kernel as it was, instruction for instruction: with the part's
 * range computed for it, ptxas's choices changed and it ran 1-2% slower).
 * DIRECT: A and B come from their pointers by 4-byte cp.async, for rows TMA
 * cannot address (K or N not a multiple of 4, or a base off 16 bytes): the
 * producer warpgroup's 128 threads write each stage in the very layout TMA's
 * swizzle gives, each block its whole A slice (no multicast), and the stage's
 * full barrier counts their 128 arrivals instead of TMA's bytes.
 * Local to each file that includes it. */
namespace {
template <int TILE, bool SPLIT, bool DIRECT>
__global__ void __launch_bounds__(384, 1)
tf32_wgmma_tma(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
               const float *__restrict__ A, const float *__restrict__ B,
               float *__restrict__ P, int M, int N, int K)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using Q = cfg<TILE>;
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[Q::STAGES], empty[Q::STAGES];
    /* 128-byte swizzle repeats every 1024 bytes: align the stages to that. */
    unsigned char *smem = smem_raw + (-__cvta_generic_to_shared(smem_raw) & 1023);
    const int wg = threadIdx.x / 128, slices = (K + BK - 1) / BK;
    /* this part's slices: kb0 + 0 .. kb0 + KT - 1; stages and phases count from 0 */
    const int kb0 = SPLIT ? split_begin(blockIdx.z, gridDim.z, slices) : 0;
    const int KT = SPLIT ? split_begin(blockIdx.z + 1, gridDim.z, slices) - kb0 : slices;
    float *__restrict__ C = SPLIT ? P + (size_t)blockIdx.z * M * N : P;
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
        for (int s = 0; s < Q::STAGES; s++) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar(&full[s])), "n"(DIRECT ? 128 : 1));
            asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar(&empty[s])), "n"(8 * CL));
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();   /* every block's barriers exist before anyone signals them */

    if (wg == 0) {   /* producer: keeps every stage it may fill in flight */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        /* DIRECT: thread p of 128, plain loops (unrolled, or skipping blocks past N's last
         * column, the same copies ran 1.3-1.9x slower on an H100: not explained) */
        const int p = threadIdx.x, k = p % 32, n = col0 + p;
        for (int kb = 0; DIRECT && kb < KT; kb++) {
            const int s = kb % Q::STAGES, k0 = (kb0 + kb) * BK;
            if (kb >= Q::STAGES) mbar_wait(bar(&empty[s]), (kb / Q::STAGES - 1) & 1);
            unsigned char *st = smem + s * Q::STAGE;
            /* A: column k of rows p/32, p/32 + 4, ...: a warp copies 128 bytes of a row */
            const float *a = A + (size_t)(row0 + p / 32) * K + k0 + k;
            for (int r = p / 32; r < TILE; r += 4, a += 4 * (size_t)K) {
                const bool in = row0 + r < M && k0 + k < K;
                copy4(st + r * 128 + (((k >> 2) ^ (r & 7)) << 4) + (k & 3) * 4, in ? a : A, in);
            }
            /* B: column p of its 32 rows, into the 4 swizzled 32 x 32 blocks */
            const float *b = B + (size_t)k0 * N + n;
            unsigned char *d = st + Q::A_BYTES + (p >> 5) * 4096 + (p & 3) * 4;
            for (int kk = 0; kk < BK; kk++, b += N) {
                const bool in = n < N && k0 + kk < K;
                copy4(d + kk * 128 + ((((p & 31) >> 2) ^ (kk & 7)) << 4), in ? b : B, in);
            }
            asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(bar(&full[s]))
                         : "memory");
        }
        for (int kb = 0; !DIRECT && kb < KT && threadIdx.x == 0; kb++) {
            const int s = kb % Q::STAGES;
            /* stage s is free once the 8 consumer warps of every block in the cluster are done */
            if (kb >= Q::STAGES) mbar_wait(bar(&empty[s]), (kb / Q::STAGES - 1) & 1);
            unsigned char *st = smem + s * Q::STAGE;
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                         :: "r"(bar(&full[s])), "r"(Q::STAGE) : "memory");
            /* A: the cluster shares the TILE x 32 slice, each block fetches 1/CL for all */
            tma_load_mc(st + rank * (Q::A_BYTES / CL), &tmA, bar(&full[s]), (kb0 + kb) * BK,
                        row0 + rank * (TILE / CL), (1 << CL) - 1);
            for (int q = 0; q < BN / 32; q++)                                /* B: 32 x 128 */
                tma_load(st + Q::A_BYTES + q * 4096, &tmB, bar(&full[s]), col0 + 32 * q,
                         (kb0 + kb) * BK);
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
            const int s = kb % Q::STAGES;
            mbar_wait(bar(&full[s]), (kb / Q::STAGES) & 1);
            /* cp.async wrote the A tile through the generic proxy; wgmma reads it through the async one */
            if (DIRECT) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            const unsigned char *st = smem + s * Q::STAGE + Q::A_BYTES;
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int v = 0; v < 4; v++) f[4 * j + v] = *(const uint32_t *)(st + off[v] + 1024 * j);
        };
        auto step = [&](const uint32_t (&f)[16], uint32_t (&next)[16], int kb) {
            /* A tile: TILE rows of 128 swizzled bytes; 8-row groups 1024 B apart (SBO),
             * LBO unused under swizzle; k-step j starts 32 bytes further along the row. */
            const uint64_t desc = (uint64_t)(((base + kb % Q::STAGES * Q::STAGE) & 0x3FFFF) >> 4) |
                                  (1ull << 16) | (64ull << 32) | (1ull << 62);
            asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
            for (int j = 0; j < 4; j++) wgmma<TILE>(acc, f + 4 * j, desc + 2 * j);
            asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
            /* slice kb-1 is done: free its stage and (in load) its register set */
            asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
            if (kb > 0 && lane == 0)
                for (int r = 0; r < CL; r++) mbar_arrive_in(bar(&empty[(kb - 1) % Q::STAGES]), r);
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
    (void)A, (void)B, (void)M, (void)N, (void)K, (void)P;
    __trap();
#endif
}
}   // namespace

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

/* TMA wants 16-byte aligned bases and row strides (K and N multiples of 4).
 * When they are not, either copy A and/or B into padded scratch first or let
 * the kernel load both itself (DIRECT): whichever costs less by the roofline.
 * A product that is memory-bound (under WGMMA_BALANCE flops per byte of A, B
 * and C: the H100's dense TF32 peak over its DRAM bandwidth is ~150, the
 * H200's ~100) would move its operands two to three times over to pad them,
 * while the direct loads add no DRAM traffic; a compute-bound one pays a few
 * per cent for the copy, but its tensor cores would wait on the producer's
 * 4-byte copies.  (One H100, the best configuration of rungs 14 and 17 as %
 * of cuBLAS TF32, paired and standalone estimates, padded -> direct:
 * 35x8457x4096 35 -> 56, 52x3297x7326 33 -> 98-102, 199x849x8263 57 -> 79-82,
 * 68x13446x3858 40 -> 71-72, 6043x35x6790 29 -> 34; but 4096x4097x4096
 * 189-192 -> 65-66.) */
#define WGMMA_BALANCE 128.0
static bool wgmma_direct(const struct gpu_launch *L)
{
    if (L->K % 4 == 0 && L->N % 4 == 0 && (uintptr_t)L->A % 16 == 0 && (uintptr_t)L->B % 16 == 0)
        return false;
    const double M = L->M, N = L->N, K = L->K;
    return 2 * M * N * K < WGMMA_BALANCE * 4 * (M * K + K * N + M * N);
}

/* Copy src (rows x cols, row-major) into padded scratch *dst with a row stride
 * *ld of whole 16 bytes, stream-ordered (in the time); NULL when src needs none. */
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

/* The grid of S parts of every tile of C: clusters of CL blocks along N. */
template <int TILE> static dim3 wgmma_grid(const struct gpu_launch *L, int S)
{
    return dim3((L->N + BN * CL - 1) / (BN * CL) * CL, (L->M + TILE - 1) / TILE, S);
}

/* The tensor maps of A and B for TILE-row tiles, through padded copies where
 * TMA cannot address an operand (wgmma_maps_free frees them, stream-ordered). */
struct wgmma_maps {
    CUtensorMap A, B, C;
    float *Ap, *Bp;
};
/* with_c: also C's, in boxes of 32 x 32 (TMA stores: N % 4 = 0 and C 16-byte aligned);
 * cl: the blocks of a cluster, each loading 1/cl of the A slice */
template <int TILE>
static const char *wgmma_maps_make(const struct gpu_launch *L, wgmma_maps *m, bool with_c = false, int cl = CL)
{
    *m = {};
    /* The driver's tensor-map encoder, fetched per call (cheap) so we need not link libcuda. */
    void *fn = NULL;
    cudaDriverEntryPointQueryResult q;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (q != cudaDriverEntryPointSuccess || !fn) return "cuTensorMapEncodeTiled not available";
    cudaStream_t st = (cudaStream_t)L->stream;
    int lda, ldb;
    const char *err = padded(L->A, L->M, L->K, &m->Ap, &lda, st);
    if (!err) err = padded(L->B, L->K, L->N, &m->Bp, &ldb, st);
    if (!err) err = encode(fn, &m->A, m->Ap ? m->Ap : L->A, L->M, L->K, lda, TILE / cl);
    if (!err) err = encode(fn, &m->B, m->Bp ? m->Bp : L->B, L->K, L->N, ldb, BK);
    if (!err && with_c) err = encode(fn, &m->C, L->C, L->M, L->N, L->N, 32);
    return err;
}
/* Free m's copies after the work queued on the stream; `err`, or the first error. */
static const char *wgmma_maps_free(wgmma_maps *m, cudaStream_t st, const char *err)
{
    cudaError_t e;
    if (m->Ap && (e = cudaFreeAsync(m->Ap, st)) != cudaSuccess && !err) err = cudaGetErrorString(e);
    if (m->Bp && (e = cudaFreeAsync(m->Bp, st)) != cudaSuccess && !err) err = cudaGetErrorString(e);
    return err;
}

/* The launch of a grid of 384-thread blocks in clusters of cl along x, with
 * `smem` bytes of dynamic shared memory each. */
static cudaLaunchConfig_t wgmma_config(dim3 grid, size_t smem, cudaStream_t st, cudaLaunchAttribute *cluster,
                                       unsigned cl = CL)
{
    cluster->id = cudaLaunchAttributeClusterDimension;
    cluster->val.clusterDim.x = cl, cluster->val.clusterDim.y = cluster->val.clusterDim.z = 1;
    cudaLaunchConfig_t lc = {};
    lc.gridDim = grid;
    lc.blockDim = dim3(384), lc.dynamicSmemBytes = smem, lc.stream = st;
    lc.attrs = cluster, lc.numAttrs = 1;
    return lc;
}
template <typename... Params, typename... Args>
static const char *wgmma_start(void (*kernel)(Params...), dim3 grid, size_t smem, cudaStream_t st,
                               Args... args)
{
    cudaLaunchAttribute cluster;
    const cudaLaunchConfig_t lc = wgmma_config(grid, smem, st, &cluster);
    cudaError_t e = cudaLaunchKernelEx(&lc, kernel, args...);
    if (e == cudaSuccess) e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

/* wgmma_launch below, by TMA (with padded copies where needed) or DIRECT. */
template <int TILE, bool SPLIT, bool DIRECT>
static const char *wgmma_launch_as(const struct gpu_launch *L, float *P, int S)
{
    auto kernel = tf32_wgmma_tma<TILE, SPLIT, DIRECT>;
    const size_t smem = cfg<TILE>::SMEM;
    cudaError_t e = allow_shared(kernel, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    const dim3 grid = wgmma_grid<TILE>(L, S);
    if (L->describe) return describe_kernel(L->describe, kernel, 384, smem, grid);

    cudaStream_t st = (cudaStream_t)L->stream;
    wgmma_maps m = {};
    const char *err = DIRECT ? NULL : wgmma_maps_make<TILE>(L, &m);
    if (!err) err = wgmma_start(kernel, grid, smem, st, m.A, m.B, L->A, L->B, P, L->M, L->N, L->K);
    return wgmma_maps_free(&m, st, err);
}

/* Launch (or describe) S parts of every TILE-row tile of C, into P (C itself
 * when S = 1, else S partial products for split_k_finish); SPLIT: the kernel
 * that takes parts (any S), else the one of all of K (S = 1). */
template <int TILE, bool SPLIT>
static const char *wgmma_launch(const struct gpu_launch *L, float *P, int S)
{
    return wgmma_direct(L) ? wgmma_launch_as<TILE, SPLIT, true>(L, P, S)
                           : wgmma_launch_as<TILE, SPLIT, false>(L, P, S);
}

#endif /* __CUDACC__ */
#endif
