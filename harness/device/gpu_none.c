/* Device services for builds without nvcc: there is no GPU code in the binary,
 * so every service reports why, and gpu_open hands back no device.  Only
 * gpu_bytes_needed works, from the same formula as gpu.cu (gpu.h).  (The GPU
 * rungs' launchers are not built here; the registry leaves them NULL.) */
#include <string.h>

#include "gpu.h"

static const char *const no_cuda = "built without CUDA: nvcc was not found when this binary was built";

const char *gpu_open(struct gpu **g, struct gpu_info *info)
{
    *g = NULL;
    if (info)
        memset(info, 0, sizeof *info);
    return no_cuda;
}

void gpu_close(struct gpu *g)
{
    (void)g;
}

void gpu_set_interrupt(struct gpu *g, volatile sig_atomic_t *stop)
{
    (void)g, (void)stop;
}

const char *gpu_mem_info(struct gpu *g, size_t *free_bytes, size_t *total_bytes)
{
    (void)g;
    *free_bytes = *total_bytes = 0;
    return no_cuda;
}

size_t gpu_bytes_needed(int M, int N, int K, long long l2_bytes)
{
    return gpu_bytes_formula(M, N, K, l2_bytes);
}

const char *gpu_set_inputs(struct gpu *g, const float *A, const float *B, int M, int N, int K)
{
    (void)g, (void)A, (void)B, (void)M, (void)N, (void)K;
    return no_cuda;
}

const char *gpu_poison_output(struct gpu *g)
{
    (void)g;
    return no_cuda;
}

const char *gpu_run_once(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split)
{
    (void)g, (void)fn, (void)tile, (void)wpt, (void)split;
    return no_cuda;
}

const char *gpu_timing_prepare(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                               gpu_launch_fn ref, double min_sample_ms, struct gpu_timing *out)
{
    (void)g, (void)fn, (void)tile, (void)wpt, (void)split, (void)ref, (void)min_sample_ms;
    *out = (struct gpu_timing){"", 0, 0};
    return no_cuda;
}

const char *gpu_kernel_timer_on(struct gpu *g)
{
    (void)g;
    return no_cuda;
}

const char *gpu_timing_sample(struct gpu *g, int which, double *ms, struct gpu_kernels *k)
{
    (void)g, (void)which, (void)ms, (void)k;
    return no_cuda;
}

const char *gpu_kernels_resolve(struct gpu *g, struct gpu_kernels *a, struct gpu_kernels *b, int n)
{
    (void)g, (void)a, (void)b, (void)n;
    return no_cuda;
}

const char *gpu_rerun_poisoned(struct gpu *g, int which)
{
    (void)g, (void)which;
    return no_cuda;
}

void gpu_timing_release(struct gpu *g)
{
    (void)g;
}

const char *gpu_sm_clock_mhz(struct gpu *g, double *mhz)
{
    (void)g, (void)mhz;
    return no_cuda;
}

const char *gpu_spin(struct gpu *g, double ms)
{
    (void)g, (void)ms;
    return no_cuda;
}

const char *gpu_pci_bus_id(struct gpu *g, char *buf, size_t len)
{
    (void)g;
    if (len) buf[0] = '\0';
    return no_cuda;
}

const char *gpu_compare(struct gpu *g, int which, struct err_stats *out)
{
    (void)g, (void)which, (void)out;
    return no_cuda;
}

const char *gpu_copy_output(struct gpu *g, float *host_C)
{
    (void)g, (void)host_C;
    return no_cuda;
}

const char *gpu_copy_bandwidth_gbs(struct gpu *g, size_t bytes, double *gbs)
{
    (void)g, (void)bytes, (void)gbs;
    return no_cuda;
}

const char *gpu_host_alloc(struct gpu *g, void **p, size_t bytes, int pinned)
{
    (void)g, (void)bytes, (void)pinned;
    *p = NULL;
    return no_cuda;
}

void gpu_host_free(void *p, int pinned)
{
    (void)p, (void)pinned;
}

const char *gpu_time_round_trip(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                                const float *hA, const float *hB, float *hC, double *h2d_ms,
                                double *kernel_ms, double *d2h_ms)
{
    (void)g, (void)fn, (void)tile, (void)wpt, (void)split, (void)hA, (void)hB, (void)hC;
    *h2d_ms = *kernel_ms = *d2h_ms = 0;
    return no_cuda;
}

const char *gpu_dispatch_candidates(struct gpu *g, int tf32, int M, int N, int K,
                                    struct dispatch_choice *out, int cap, int *count, int *pick)
{
    (void)g, (void)tf32, (void)M, (void)N, (void)K, (void)out, (void)cap;
    *count = 0, *pick = -1;
    return no_cuda;
}

const char *gpu_describe(struct gpu *g, gpu_launch_fn fn, int tile, int wpt, int split,
                         struct kernel_resources *out)
{
    (void)g, (void)fn, (void)tile, (void)wpt, (void)split;
    *out = (struct kernel_resources){0};
    return no_cuda;
}
