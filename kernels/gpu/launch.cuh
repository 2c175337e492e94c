/* How every hand-written rung starts its kernel: launch it and check the
 * launch, or, when the harness asks (L->describe), report the resources of the
 * very instantiation it would launch instead. */
#ifndef KERNELS_GPU_LAUNCH_CUH
#define KERNELS_GPU_LAUNCH_CUH

#include <cuda_runtime.h>

#include "matmul.h"

/* Fill *r with what `kernel` uses at `threads` per block and `smem` bytes of
 * dynamic shared memory (raising the kernel's limit first where it needs more
 * than the default 48 KiB). */
template <typename... Params>
static const char *describe_kernel(struct kernel_resources *r, void (*kernel)(Params...),
                                   int threads, size_t smem)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, kernel);
    int blocks = 0;
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    *r = (struct kernel_resources){1, a.numRegs, (int)(a.sharedSizeBytes + smem),
                                   (int)a.localSizeBytes, threads, blocks};
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

template <typename... Params>
static const char *launch_or_describe(const struct gpu_launch *L, void (*kernel)(Params...),
                                      dim3 grid, dim3 block, size_t smem = 0)
{
    cudaError_t e = allow_shared(kernel, smem);
    if (e != cudaSuccess) return cudaGetErrorString(e);
    if (L->describe) return describe_kernel(L->describe, kernel, (int)(block.x * block.y * block.z), smem);
    kernel<<<grid, block, smem, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K);
    e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

#endif
