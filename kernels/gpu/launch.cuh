/* How every hand-written rung starts its kernel: launch it and check the
 * launch, or, when the harness asks (L->describe), report the resources of the
 * very instantiation it would launch instead. */
#ifndef KERNELS_GPU_LAUNCH_CUH
#define KERNELS_GPU_LAUNCH_CUH

#include <cuda_runtime.h>

#include "matmul.h"

/* Fill *r with what `kernel` uses at `threads` per block and `smem` bytes of
 * dynamic shared memory (raising the kernel's limit first where it needs more
 * than the default 48 KiB), launched as `grid` blocks that each compute their
 * tile of C over all of K (a rung that divides K sets k_splits and its
 * workspace after). */
template <typename... Params>
static const char *describe_kernel(struct kernel_resources *r, void (*kernel)(Params...),
                                   int threads, size_t smem, dim3 grid)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernel);
    int blocks = 0;
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    *r = (struct kernel_resources){1, a.numRegs, (int)(a.sharedSizeBytes + smem),
                                   (int)a.localSizeBytes, threads, blocks,
                                   (int)(grid.x * grid.y * grid.z), 1, 0, ""};
    return NULL;
}

/* Allow `kernel` more than 48 KiB of dynamic shared memory. */
template <typename... Params>
static cudaError_t allow_shared(void (*kernel)(Params...), size_t smem)
{
    return smem > 48 * 1024 ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   (int)smem)
                            : cudaSuccess;
}

/* The GPU's SM count and how many blocks of `kernel` it holds at once, having
 * first allowed the kernel its `smem` (the occupancy query counts what the
 * kernel is allowed, so asking before would give 0 and a different split). */
template <typename... Params>
static const char *resident_blocks(void (*kernel)(Params...), int threads, size_t smem, int *sms,
                                   long long *resident)
{
    int dev = 0, per_sm = 0;
    cudaError_t e = allow_shared(kernel, smem);
    if (e == cudaSuccess) e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    *resident = (long long)*sms * per_sm;
    return NULL;
}

template <typename... Params>
static const char *launch_or_describe(const struct gpu_launch *L, void (*kernel)(Params...),
                                      dim3 grid, dim3 block, size_t smem = 0)
{
    cudaError_t e = allow_shared(kernel, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (L->describe)
        return describe_kernel(L->describe, kernel, (int)(block.x * block.y * block.z), smem, grid);
    kernel<<<grid, block, smem, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K);
    e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

#endif
