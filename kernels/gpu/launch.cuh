/* How every hand-written rung starts its kernel: launch it and check the
 * launch, or, when the harness asks (L->describe), report the resources of the
 * very instantiation it would launch instead. */
#ifndef KERNELS_GPU_LAUNCH_CUH
#define KERNELS_GPU_LAUNCH_CUH

#include <cuda_runtime.h>

#include "matmul.h"

template <typename... Params>
static const char *launch_or_describe(const struct gpu_launch *L, void (*kernel)(Params...),
                                      dim3 grid, dim3 block)
{
    if (L->describe) {
        struct kernel_resources *r = L->describe;
        cudaFuncAttributes a;
        cudaError_t e = cudaFuncGetAttributes(&a, kernel);
        const int threads = (int)(block.x * block.y * block.z);
        int blocks = 0;
        if (e == cudaSuccess)
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0);
        if (e != cudaSuccess) return cudaGetErrorString(e);
        *r = (struct kernel_resources){1, a.numRegs, (int)a.sharedSizeBytes, (int)a.localSizeBytes,
                                       threads, blocks};
        return NULL;
    }
    kernel<<<grid, block, 0, (cudaStream_t)L->stream>>>(L->C, L->A, L->B, L->M, L->N, L->K);
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? NULL : cudaGetErrorString(e);
}

#endif
