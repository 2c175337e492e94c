/* Split-K, shared by the rungs that divide K among the blocks of one tile of C
 * (15 on the FP32 pipeline, 17 on wgmma): which slices of K a part takes, how
 * many parts the rule gives, and the second pass that adds the parts up.
 *
 * Part z of S writes its partial product, an M x N matrix, at workspace + z M N;
 * the second pass adds the S partials of each element in an order fixed by S
 * alone and writes C, so the same inputs give the same bits on every run: no
 * floating-point atomics, no dependence on which block finishes first.
 *
 * And the one-launch form that rungs 16 (stream-K) and 21 (the last wave cut)
 * share: each part stored from its block's registers, counted in on its
 * tile's counter, and added up in a fixed order by the last to arrive; with
 * rung 21's plan of which tiles are cut. */
#ifndef KERNELS_GPU_SPLIT_K_CUH
#define KERNELS_GPU_SPLIT_K_CUH

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "launch.cuh"
#include "matmul.h"
#include "rung_config.h"
#include "warp_tile.cuh"

/* The first slice of part z of S over `slices` slices (parts differ by one at most). */
__host__ __device__ inline int split_begin(int z, int S, int slices)
{
    return (int)((long long)z * slices / S);
}

/* The parts of K a launch uses: `asked` (the `splits` axis; 0 for the rule),
 * given the tiles of C that are cut, the blocks the GPU holds at once, the
 * 32-deep slices of K and the bytes one part of all those tiles takes.  The
 * rule fills the GPU once: as many parts as make tiles x parts reach the
 * resident blocks (rounded down, so that no second, partial wave starts), no
 * part under `floor` slices (each rung says its own, and why), and the parts
 * within the workspace limit.  Asked for, a split is taken as it is, down to
 * one part per slice.  Returns 0 with *why when the parts would exceed the limit. */
static inline int split_count(int asked, long long tiles, long long resident, int slices, int floor,
                              long long part_bytes, const char **why)
{
    const long long most = (long long)(GPU_WORKSPACE_MAX_BYTES / (size_t)part_bytes);
    long long S = asked;
    if (asked == 0) {
        S = resident / (tiles > 0 ? tiles : 1);
        if (S > slices / floor) S = slices / floor;
        if (S > most) S = most;
        if (S > RUNG_MAX_SPLIT) S = RUNG_MAX_SPLIT;
    }
    if (S > slices) S = slices;
    if (S < 1) S = 1;
    if (S > 1 && S > most) {
        *why = "split: the partial products exceed the workspace limit (GPU_WORKSPACE_MAX_BYTES)";
        return 0;
    }
    return (int)S;
}

/* The same where every tile of C is cut (rungs 15, 17, 18): a part is an M x N
 * partial product. */
static inline int split_parts(int asked, long long tiles, long long resident, int slices,
                              int floor, int M, int N, const char **why)
{
    return split_count(asked, tiles, resident, slices, floor, (long long)M * N * (long long)sizeof(float), why);
}

/* Split-K for the last wave alone (rung 21): C's T tiles of bm x bn, counted in
 * launch order; those of the last wave (`tail` = T less the whole waves of
 * `resident` blocks before it, 1 to resident tiles) are cut into S parts of K,
 * and the `whole` = T - tail before them go a block each over all of K.  Block
 * b < whole computes tile b; block whole + S u + z part z of tile whole + u.  A
 * launch of whole + tail S blocks then runs its whole waves as rung 12 does and
 * ends with a wave of parts S times shorter, where rung 12 ends with `tail`
 * blocks, one an SM or two, on a GPU that holds `resident`.  split_count's rule (asked
 * 0): S = resident / tail, the parts that fill the last wave, rounded down (so
 * a last wave over half full is not cut: S = 1), no part under `floor` slices
 * of K; asked for, S is taken as it is (the last wave's tiles in S parts).  No
 * S whose parts exceed the workspace limit (why says so). */
struct tail_plan {
    int tx, ty, T, I;   /* tiles across, down, in all; slices of K */
    int whole, S;       /* tiles run whole; parts of each of the T - whole after them */
};
static inline tail_plan tail_plan_for(int M, int N, int K, int bm, int bn, int slice, long long resident,
                                      int asked, int floor, const char **why)
{
    tail_plan p;
    p.tx = (N + bn - 1) / bn, p.ty = (M + bm - 1) / bm, p.T = p.tx * p.ty, p.I = (K + slice - 1) / slice;
    resident = resident > 0 ? resident : 1;
    const long long tail = p.T - resident * ((p.T - 1) / resident);
    *why = NULL;
    const int S = split_count(asked, tail, resident, p.I, floor, tail * bm * bn * (long long)sizeof(float), why);
    p.S = S ? S : (asked < p.I ? asked : p.I);   /* refused (*why): the split asked for */
    p.whole = p.S > 1 ? (int)(p.T - tail) : p.T;
    return p;
}

/* A tail plan's launch: its grid (the whole waves' tiles, then S blocks a cut
 * tile) and its workspace, a part of bm x bn floats a block of the cut tiles,
 * then a counter a cut tile (`need` bytes; the counters from `counters` on). */
struct tail_space {
    dim3 grid;
    size_t need, counters;
};
static inline tail_space tail_space_of(const tail_plan &p, int bm, int bn)
{
    const long long cut = p.S > 1 ? p.T - p.whole : 0;
    tail_space s;
    s.counters = (size_t)cut * p.S * bm * bn * sizeof(float);
    s.need = s.counters + (size_t)cut * sizeof(int);
    s.grid = dim3((unsigned)(p.whole + cut * p.S));
    return s;
}

/* A thread's TM x TN accumulators as TM TN / 4 float4s at `slot` (a part of a
 * tile that other blocks add up), and added back from one, in that order. */
template <int TM, int TN>
__device__ __forceinline__ void part_store(float4 *__restrict__ slot, const float (&acc)[TM][TN])
{
#pragma unroll
    for (int m = 0; m < TM; m++)
#pragma unroll
        for (int h = 0; h < TN / 4; h++)
            slot[TN / 4 * m + h] = make_float4(acc[m][4 * h], acc[m][4 * h + 1], acc[m][4 * h + 2], acc[m][4 * h + 3]);
}
template <int TM, int TN>
__device__ __forceinline__ void part_add(float (&acc)[TM][TN], const float4 *__restrict__ slot)
{
#pragma unroll
    for (int m = 0; m < TM; m++)
#pragma unroll
        for (int h = 0; h < TN / 4; h++) {
            const float4 v = __ldcg(slot + TN / 4 * m + h);
            acc[m][4 * h] += v.x, acc[m][4 * h + 1] += v.y;
            acc[m][4 * h + 2] += v.z, acc[m][4 * h + 3] += v.w;
        }
}

/* The same for a part stored as a tile of C's layout (store_quarters into a
 * BT-wide tile at (tr, tc)): eight lanes read a 128-byte row, coalesced. */
template <int TM>
__device__ __forceinline__ void part_add_quarters(float (&acc)[TM][8], const float *__restrict__ tile, int tr,
                                                  int tc, int BT)
{
#pragma unroll
    for (int m = 0; m < TM; m++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const float4 v =
                __ldcg(reinterpret_cast<const float4 *>(&tile[(size_t)(tr + (m % 4) + (m / 4) * 16) * BT + tc + h * 32]));
            acc[m][4 * h] += v.x, acc[m][4 * h + 1] += v.y;
            acc[m][4 * h + 2] += v.z, acc[m][4 * h + 3] += v.w;
        }
}

/* threadIdx.x and blockIdx.x, read anew where they are used (volatile reads the
 * compiler cannot hoist): read once, what follows from them stays live across
 * the pipeline, beyond the 128 registers that two blocks of 128 x 128 a SM allow
 * (rung 12 uses all of them), and spills (rung 16), or moves the registers of
 * the pipeline's FFMAs (rung 21, NOTES). */
__device__ __forceinline__ int fresh_tid()
{
    int v;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));
    return v;
}
__device__ __forceinline__ int fresh_ctaid()
{
    int v;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(v));
    return v;
}

/* After a block has stored its part of a tile (part_store): count it in on the
 * tile's counter, and say whether it is the last of the tile's `parts` to
 * arrive (`last`, a __shared__ int, tells every thread).  The last then adds the
 * parts, seeing all of them, and sets the counter back to 0 for the next
 * launch (last_done).  No block waits for another. */
__device__ __forceinline__ bool last_to_arrive(int *count, int parts, int tid, int &last)
{
    __threadfence();   /* the part is visible GPU-wide before the count says so */
    __syncthreads();
    if (tid == 0) last = atomicAdd(count, 1) == parts - 1;
    __syncthreads();
    if (last) __threadfence();
    return last;
}
__device__ __forceinline__ void last_done(int *count, int tid)
{
    if (tid == 0) *count = 0;
}

/* What a `describe` call reports of a launch whose blocks share tiles along K
 * (the most parts a tile, and `need`, the bytes of its parts and counters), or,
 * before a launch, whether the workspace holds them; NULL when it may go on. */
static inline const char *parts_check(const struct gpu_launch *L, int most_parts, size_t need)
{
    if (L->describe) {
        L->describe->k_splits = most_parts;
        L->describe->workspace_bytes = need;
        return NULL;
    }
    if (need > GPU_WORKSPACE_MAX_BYTES) return "split: the parts exceed the workspace limit";
    if (need && (!L->workspace || L->workspace_bytes < need))
        return "split: the workspace given is smaller than the parts and counters";
    return NULL;
}

/* Block b's tile of C (in launch order) and its slices [k0, k1) of K. */
__host__ __device__ inline void tail_unit(const tail_plan &p, int b, int &t, int &k0, int &k1)
{
    if (b < p.whole) {
        t = b, k0 = 0, k1 = p.I;
        return;
    }
    const int u = b - p.whole, z = u % p.S;
    t = p.whole + u / p.S, k0 = split_begin(z, p.S, p.I), k1 = split_begin(z + 1, p.S, p.I);
}

/* C = the sum of the S partials at P, in the order z = 0, 1, ..., S-1 (n = M N
 * elements).  Local to each file that includes it (so each rung launches its
 * own build of it: the sm_90a rungs' copy would not run on other GPUs). */
namespace {
template <bool VEC>
__global__ void __launch_bounds__(256) split_k_reduce(float *__restrict__ C,
                                                      const float *__restrict__ P, size_t n,
                                                      int S)
{
    const size_t step = (size_t)gridDim.x * blockDim.x;
    const size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if constexpr (VEC) {   /* n % 4 == 0, C 16-byte aligned: four elements a thread at a time */
        const float4 *P4 = reinterpret_cast<const float4 *>(P);
        for (size_t i = first; i < n / 4; i += step) {
            float4 s = __ldcs(P4 + i);
            for (int z = 1; z < S; z++) {
                const float4 p = __ldcs(P4 + z * (n / 4) + i);
                s.x += p.x, s.y += p.y, s.z += p.z, s.w += p.w;
            }
            reinterpret_cast<float4 *>(C)[i] = s;
        }
    } else {
        for (size_t i = first; i < n; i += step) {
            float s = __ldcs(P + i);
            for (int z = 1; z < S; z++) s += __ldcs(P + z * n + i);
            C[i] = s;
        }
    }
}

/* The same for a short C and many parts, where one thread an element leaves
 * the GPU nearly idle and each thread's S loads one after another set the time
 * (1 x 1536 outputs of 33 parts: 2 blocks, 7.4 us under ncu on an H100, for
 * 0.2 MB).  Here REDUCE_GROUPS threads share an element: group g adds parts
 * split_begin(g) .. split_begin(g + 1) - 1 in order, then the group sums are
 * added in the order g = 0, 1, ...: still an order fixed by S. */
constexpr int REDUCE_LANES = 32, REDUCE_GROUPS = 8;
__global__ void __launch_bounds__(REDUCE_LANES * REDUCE_GROUPS)
split_k_reduce_grouped(float *__restrict__ C, const float *__restrict__ P, size_t n, int S)
{
    __shared__ float sums[REDUCE_GROUPS][REDUCE_LANES];
    const size_t i = blockIdx.x * (size_t)REDUCE_LANES + threadIdx.x;
    const int g = threadIdx.y, z1 = split_begin(g + 1, REDUCE_GROUPS, S);
    float s = 0.0f;
    if (i < n) {
#pragma unroll 4
        for (int z = split_begin(g, REDUCE_GROUPS, S); z < z1; z++) s += __ldcs(P + z * n + i);
    }
    sums[g][threadIdx.x] = s;
    __syncthreads();
    if (g == 0 && i < n) {
        for (int h = 1; h < REDUCE_GROUPS; h++) s += sums[h][threadIdx.x];
        C[i] = s;
    }
}
}   // namespace

/* Enqueue the second pass: C (M x N) from the S partials in L->workspace.  The
 * grouped pass where one thread an element (four with 16-byte loads) would
 * not give every SM a block of 256 threads and there are parts to share. */
static inline const char *split_k_finish(const struct gpu_launch *L, int S, int sms)
{
    const size_t n = (size_t)L->M * L->N;
    const bool vec = n % 4 == 0 && (size_t)L->C % 16 == 0;
    const size_t items = vec ? n / 4 : n, blocks = (items + 255) / 256, cap = (size_t)sms * 8;
    cudaStream_t st = (cudaStream_t)L->stream;
    if (blocks < (size_t)sms && S >= 2 * REDUCE_GROUPS) {
        const dim3 grid((unsigned)((n + REDUCE_LANES - 1) / REDUCE_LANES));
        split_k_reduce_grouped<<<grid, dim3(REDUCE_LANES, REDUCE_GROUPS), 0, st>>>(
            L->C, (const float *)L->workspace, n, S);
    } else {
        const dim3 grid((unsigned)(blocks < cap ? blocks : cap));
        if (vec) split_k_reduce<true><<<grid, 256, 0, st>>>(L->C, (const float *)L->workspace, n, S);
        else split_k_reduce<false><<<grid, 256, 0, st>>>(L->C, (const float *)L->workspace, n, S);
    }
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

/* Launch (or describe) `kernel`, whose blocks (grid.x, .y, .z) compute S parts
 * of K as kernel(P, A, B, M, N, K, S) into P (C itself when S = 1, else the
 * workspace's partials), then the second pass: what rungs 15 and 18 share. */
template <typename... Params>
static const char *split_k_launch(const struct gpu_launch *L, void (*kernel)(Params...), dim3 grid,
                                  int threads, size_t smem, int S, int sms)
{
    const size_t partials = S > 1 ? (size_t)S * L->M * L->N * sizeof(float) : 0;
    if (L->describe) {
        const char *why = describe_kernel(L->describe, kernel, threads, smem, grid);
        L->describe->k_splits = S;
        L->describe->workspace_bytes = partials;
        return why;
    }
    if (S > 1 && (!L->workspace || L->workspace_bytes < partials))
        return "split: the workspace given is smaller than the partial products";
    float *P = S > 1 ? (float *)L->workspace : L->C;
    kernel<<<grid, threads, smem, (cudaStream_t)L->stream>>>(P, L->A, L->B, L->M, L->N, L->K, S);
    const cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return cudaGetErrorString(e);
    return S > 1 ? split_k_finish(L, S, sms) : NULL;
}

#endif /* __CUDACC__ */
#endif
