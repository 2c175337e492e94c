/* The dispatch rule (kernels/gpu/22_dispatch.cu): which rung and configuration
 * one call gets, from the shape and the GPU's SM count alone, as a library's
 * heuristics would choose.  Plain C, so that it is the same in builds without
 * CUDA and can be tested there. */
#ifndef KERNELS_DISPATCH_H
#define KERNELS_DISPATCH_H

#ifdef __cplusplus
extern "C" {
#endif

struct dispatch_pick {
    const char *rung;   /* a registry name: one of the rungs 22_dispatch.cu launches */
    int tile, wpt;      /* its configuration; K is split by the rung's own rule */
};

/* tf32: the TF32 row (else FP32); sms: the GPU's streaming multiprocessors;
 * smem_optin: the shared memory a block may have there, bytes. */
struct dispatch_pick dispatch_rule(int tf32, int M, int N, int K, int sms, long smem_optin);

#ifdef __cplusplus
}
#endif
#endif
