/* sanitize-one: one GPU kernel (a rung of the ladder, or a test-only kernel of
 * tests/faulty_kernels.cu) run once at one shape with nothing else on the GPU,
 * for compute-sanitizer (scripts/sanitize.sh runs it under each tool).
 *
 *     usage: sanitize-one VARIANT TILE WPT MxNxK [SPLIT]
 *
 * (SPLIT, for the rungs that divide K among blocks: parts of K per tile, 0 for
 * the rung's rule, the default.)  The launch gets the workspace it asks for,
 * zeroed, as the harness gives it.
 * The inputs are the harness's (inputs_fill), C starts as NaN, and the result
 * is checked against the float64 host reference with the harness's criterion.
 * No cuBLAS call is made (the float64 reference is computed on the host), so
 * every kernel the sanitizer sees is the variant's own.  Prints one line; exit
 * status 0 passed, 2 incorrect, 1 bad usage or a CUDA error. */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/inputs.h"
#include "core/registry.h"
#include "core/verify.h"

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return 1;
    fprintf(stderr, "sanitize-one: %s: %s\n", what, cudaGetErrorString(e));
    return 0;
}

int main(int argc, char **argv)
{
    int M, N, K;
    char *end;
    if ((argc != 5 && argc != 6) || sscanf(argv[4], "%dx%dx%d", &M, &N, &K) != 3 || M < 1 ||
        N < 1 || K < 1) {
        fprintf(stderr, "usage: sanitize-one VARIANT TILE WPT MxNxK [SPLIT]\n");
        return 1;
    }
    const struct variant *v = registry_find(argv[1]);
    const long tile = strtol(argv[2], &end, 10), wpt = strtol(argv[3], &end, 10);
    const long split = argc == 6 ? strtol(argv[5], &end, 10) : 0;
    char why[256];
    if (!v || v->device != DEV_GPU || !v->gpu) {
        fprintf(stderr, "sanitize-one: '%s' is not a GPU variant of this build\n", argv[1]);
        return 1;
    }
    if (!registry_supports(v, (int)tile, (int)wpt, (int)split, 0, NULL, why, sizeof why)) {
        fprintf(stderr, "sanitize-one: %s: %s\n", argv[1], why);
        return 1;
    }
    const size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    float *A = malloc(mk * sizeof *A), *B = malloc(kn * sizeof *B), *C = malloc(mn * sizeof *C);
    double *R = malloc(mn * sizeof *R);
    float *dA = NULL, *dB = NULL, *dC = NULL;
    void *ws = NULL;
    cudaStream_t stream = NULL;
    int rc = 1;
    if (!A || !B || !C || !R) {
        fprintf(stderr, "sanitize-one: out of host memory\n");
        goto out;
    }
    inputs_fill(A, B, M, N, K, 20261122);
    verify_reference_fp64(R, A, B, M, N, K);
    if (!cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate") ||
        !cuda_ok(cudaMalloc((void **)&dA, mk * sizeof *A), "cudaMalloc(A)") ||
        !cuda_ok(cudaMalloc((void **)&dB, kn * sizeof *B), "cudaMalloc(B)") ||
        !cuda_ok(cudaMalloc((void **)&dC, mn * sizeof *C), "cudaMalloc(C)") ||
        !cuda_ok(cudaMemcpy(dA, A, mk * sizeof *A, cudaMemcpyHostToDevice), "cudaMemcpy(A)") ||
        !cuda_ok(cudaMemcpy(dB, B, kn * sizeof *B, cudaMemcpyHostToDevice), "cudaMemcpy(B)") ||
        !cuda_ok(cudaMemset(dC, 0xFF, mn * sizeof *C), "cudaMemset(C, NaN)"))
        goto out;
    struct kernel_resources kr = {0};
    struct gpu_launch L = {.C = dC, .A = dA, .B = dB, .M = M, .N = N, .K = K, .tile = (int)tile,
                           .wpt = (int)wpt, .split = (int)split, .stream = stream,
                           .describe = &kr};
    const char *err = v->gpu(&L);   /* what it needs: the workspace */
    if (err) {
        fprintf(stderr, "sanitize-one: %s describe: %s\n", argv[1], err);
        goto out;
    }
    if (kr.workspace_bytes &&
        (!cuda_ok(cudaMalloc(&ws, kr.workspace_bytes), "cudaMalloc(workspace)") ||
         !cuda_ok(cudaMemset(ws, 0, kr.workspace_bytes), "cudaMemset(workspace)")))
        goto out;
    L.workspace = ws;
    L.workspace_bytes = kr.workspace_bytes;
    L.describe = NULL;
    err = v->gpu(&L);
    if (err) {
        fprintf(stderr, "sanitize-one: %s launch: %s\n", argv[1], err);
        goto out;
    }
    if (!cuda_ok(cudaStreamSynchronize(stream), "running the kernel") ||
        !cuda_ok(cudaMemcpy(C, dC, mn * sizeof *C, cudaMemcpyDeviceToHost), "cudaMemcpy(C)"))
        goto out;
    struct err_stats st;
    verify_compare(&st, C, R, (long long)mn);
    const struct verdict vd = verify_judge(&st, verify_tolerance(v->precision, K));
    printf("%s tile %ld wpt %ld split %ld %dx%dx%d: %s, rel_err %.3g, max_rel_err %.3g, "
           "tolerance %.3g\n", argv[1], tile, wpt, split, M, N, K,
           disposition_name(vd.disposition), vd.rel_err,
           vd.max_rel_err, vd.tolerance);
    rc = vd.disposition == DISP_PASSED ? 0 : 2;
out:
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    cudaFree(ws);
    if (stream) cudaStreamDestroy(stream);
    free(A); free(B); free(C); free(R);
    return rc;
}
