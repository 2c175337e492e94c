/* cuBLAS -- the reference lines the ladder is measured against (not a rung).
 *
 * cublas_fp32: cublasGemmEx with CUBLAS_COMPUTE_32F, strict single precision
 * on the FP32 cores (no tensor cores: the handle keeps CUBLAS_DEFAULT_MATH, and
 * TF32 or emulated math would have to be asked for).  This is the honest 100%
 * line for the hand-written FP32 rungs.
 * cublas_tf32: the same call with CUBLAS_COMPUTE_32F_FAST_TF32, which lets
 * cuBLAS round the operands to TF32 and use tensor cores -- a different
 * precision (checked with the TF32 tolerance), shown as what the hardware can
 * do when FP32 inputs are allowed to lose 13 mantissa bits.
 *
 * cuBLAS is column-major.  A row-major matrix is its column-major transpose,
 * so row-major C = A*B is computed as column-major C^T = B^T * A^T: m = N,
 * n = M, k = K, with B first (ld N), A second (ld K) and C (ld N); no
 * transposition is needed. */
#include "rung_config.h"

#ifdef __CUDACC__
#include <cublas_v2.h>

#include "matmul.h"

static const char *gemm(const struct gpu_launch *L, cublasComputeType_t compute)
{
    if (L->describe) {   /* cuBLAS picks its kernels itself: nothing to report */
        *L->describe = (struct kernel_resources){0};
        return NULL;
    }
    const float one = 1.0f, zero = 0.0f;
    const cublasStatus_t s = cublasGemmEx(
        (cublasHandle_t)L->blas, CUBLAS_OP_N, CUBLAS_OP_N, L->N, L->M, L->K, &one,
        L->B, CUDA_R_32F, L->N, L->A, CUDA_R_32F, L->K, &zero, L->C, CUDA_R_32F, L->N,
        compute, CUBLAS_GEMM_DEFAULT);
    return s == CUBLAS_STATUS_SUCCESS ? NULL : cublasGetStatusString(s);
}

static const char *fp32(const struct gpu_launch *L) { return gemm(L, CUBLAS_COMPUTE_32F); }
static const char *tf32(const struct gpu_launch *L) { return gemm(L, CUBLAS_COMPUTE_32F_FAST_TF32); }
#endif

/* cuBLAS chooses its kernels and their tiles itself: nothing to declare */
#define FP32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, fp32)
#define TF32_CONFIGS(X) X(0, 0, 0, 0, 0, 0, 0, tf32)
RUNG_CONFIGS(cublas_fp32, FP32_CONFIGS)
RUNG_CONFIGS(cublas_tf32, TF32_CONFIGS)
