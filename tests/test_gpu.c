/* Tests of the GPU rungs and the device services (gpu.h).
 *
 * Each test gets an opened device from its setup; where none can be opened
 * (no GPU, or a build without CUDA) the test is reported skipped with the
 * reason.  Inputs come from a fixed-seed generator, so a failure repeats. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/gpu.h"
#include "util.h"
#include "core/registry.h"
#include "matmul.h"
#include "core/verify.h"
#include "core/inputs.h"   /* splitmix64 */
#include "dispatch.h"

/* ---- fixture ------------------------------------------------------------- */

struct fixture {
    struct gpu *g;
    struct gpu_info info;
    char why[512];      /* gpu_open's message when it failed */
};

static int gpu_setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    const char *err = gpu_open(&f->g, &f->info);
    if (err)
        snprintf(f->why, sizeof f->why, "%s", err);
    *state = f;
    return 0;
}

static int gpu_teardown(void **state)
{
    struct fixture *f = *state;
    gpu_close(f->g);
    free(f);
    return 0;
}

static struct gpu *device_or_skip(void **state)
{
    struct fixture *f = *state;
    if (!f->g) {
        print_message("skipped: %s\n", f->why);
        skip();
    }
    return f->g;
}

/* ---- inputs ---------------------------------------------------------------- */

/* Uniform in [-1, 1): 24 random bits, so every value is exact in float. */
static void fill_uniform(float *x, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((double)(splitmix64(&seed) >> 40) * 0x1p-23 - 1.0);
}

/* Random A (M x K) and B (K x N), made current on the device. */
static void set_random_inputs(struct gpu *g, int M, int N, int K, uint64_t seed, float **A_out,
                              float **B_out)
{
    float *A = malloc((size_t)M * K * sizeof *A), *B = malloc((size_t)K * N * sizeof *B);
    assert_non_null(A);
    assert_non_null(B);
    fill_uniform(A, (size_t)M * K, seed);
    fill_uniform(B, (size_t)K * N, seed ^ 0x5EED5EED5EED5EEDull);
    const char *err = gpu_set_inputs(g, A, B, M, N, K);
    if (err) {
        free(A);
        free(B);
        fail_msg("gpu_set_inputs(%dx%dx%d): %s", M, N, K, err);
    }
    if (A_out)
        *A_out = A;
    else
        free(A);
    if (B_out)
        *B_out = B;
    else
        free(B);
}

/* ---- the rungs and their parameters ---------------------------------------- */

struct config {
    const char *name;
    gpu_launch_fn fn;
    int tile, wpt, split;
    enum precision prec;
};

/* The splits tried of a rung that divides K: its rule, and 2 and 7 parts. */
static const int SPLITS[] = {0, 2, 7};

/* Every registered GPU rung at every configuration its kernel file declares (at
 * each of SPLITS where it takes the splits axis): a new rung in the registry is
 * tested here without touching this file. */
static int all_configs(struct config *c, int cap)
{
    int n = 0;
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        if (v->device != DEV_GPU) continue;
        for (const struct rung_config *k = v->configs; k && k->tile >= 0; k++)
            for (size_t s = 0; s < (k->max_split ? sizeof SPLITS / sizeof SPLITS[0] : 1); s++) {
                assert_true(n < cap);
                c[n++] = (struct config){v->name, v->gpu, k->tile, k->wpt, SPLITS[s], v->precision};
            }
    }
    return n;
}

/* The launcher of a registered GPU rung. */
static gpu_launch_fn launcher(const char *rung)
{
    const struct variant *v = registry_find(rung);
    assert_non_null(v);
    assert_non_null(v->gpu);
    return v->gpu;
}

/* Is `path` an executable we can run (a test-only binary of GPU builds)? */
static int have_binary(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* ---- tests ----------------------------------------------------------------- */

/* Every rung, every tile/WPT, on shapes that are neither square nor multiples
 * of any tile, passes verification against the device's float64 reference. */
static void test_every_rung_is_correct_on_odd_shapes(void **state)
{
    struct gpu *g = device_or_skip(state);
    static const int shapes[][3] = {{1, 1, 1},       {17, 33, 65},     {65, 17, 33},
                                    {100, 129, 31},  {257, 255, 253},  {1000, 999, 1001},
                                    {3, 1029, 2053}, {1031, 7, 2049}};
    struct config cfg[256];
    const int n_cfg = all_configs(cfg, (int)(sizeof cfg / sizeof cfg[0]));
    size_t gpu_rungs = 0;   /* every GPU rung contributes at least one configuration */
    for (size_t i = 0; i < registry_count(); i++) gpu_rungs += registry_at(i)->device == DEV_GPU;
    assert_true(gpu_rungs > 0 && (size_t)n_cfg >= gpu_rungs);
    int failures = 0;

    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        set_random_inputs(g, M, N, K, 1000 + s, NULL, NULL);
        for (int c = 0; c < n_cfg; c++) {
            struct err_stats st;
            const char *err = gpu_poison_output(g);
            if (!err)
                err = gpu_run_once(g, cfg[c].fn, cfg[c].tile, cfg[c].wpt, cfg[c].split);
            if (!err)
                err = gpu_compare(g, 0, &st);
            if (err) {
                print_message("%s tile %d wpt %d split %d at %dx%dx%d: %s\n", cfg[c].name,
                              cfg[c].tile, cfg[c].wpt, cfg[c].split, M, N, K, err);
                failures++;
                continue;
            }
            const struct verdict v = verify_judge(&st, verify_tolerance(cfg[c].prec, K));
            if (v.disposition != DISP_PASSED || st.nonfinite != 0) {
                print_message("%s tile %d wpt %d split %d at %dx%dx%d: %s, rel_err %.3g "
                              "(tolerance %.3g), %llu non-finite\n",
                              cfg[c].name, cfg[c].tile, cfg[c].wpt, cfg[c].split, M, N, K,
                              disposition_name(v.disposition), v.rel_err, v.tolerance,
                              (unsigned long long)st.nonfinite);
                failures++;
            }
        }
    }
    assert_int_equal(failures, 0);
}

/* Every hand-written rung gives bitwise the same C on every run, and the right
 * one, at the shapes where dividing K among blocks has its edges: K smaller than
 * the split, K = 1, a single tile, more tiles than a persistent grid holds, more
 * rows than a launch-order group (2048), long K under a small C, fewer tiles than
 * a persistent grid with too short a K to share them.  The rungs that
 * divide K (split-K, stream-K) must do so at some of them. */
static void decomposition_is_deterministic_at_its_edges(void **state)
{
    struct gpu *g = device_or_skip(state);
    static const struct {
        int M, N, K, split;
    } cases[] = {{64, 64, 40, 8},       {70, 33, 1, 4},       {20, 30, 5000, 0},
                 {100, 90, 20000, 0},   {2500, 2500, 96, 0},  {2100, 300, 700, 3},
                 {16, 4096, 4096, 0},   {128, 128, 65536, 0}, {1000, 1000, 3000, 0},
                 {2000, 2000, 100, 0}};
    int failures = 0, shared = 0;
    for (size_t s = 0; s < sizeof cases / sizeof cases[0]; s++) {
        const int M = cases[s].M, N = cases[s].N, K = cases[s].K;
        set_random_inputs(g, M, N, K, 7000 + s, NULL, NULL);
        float *c1 = malloc((size_t)M * N * sizeof *c1), *c2 = malloc((size_t)M * N * sizeof *c2);
        assert_true(c1 && c2);
        for (size_t i = 0; i < registry_count(); i++) {
            const struct variant *v = registry_at(i);
            if (v->device != DEV_GPU || registry_is_reference(v)) continue;
            const int split = (registry_axes(v) & AXIS_SPLIT) ? cases[s].split : 0;
            for (const struct rung_config *k = v->configs; k->tile >= 0; k++) {
                struct kernel_resources kr;
                struct err_stats st;
                const char *err = gpu_describe(g, v->gpu, k->tile, k->wpt, split, &kr);
                for (int run = 0; run < 2 && !err; run++) {
                    err = gpu_poison_output(g);
                    if (!err) err = gpu_run_once(g, v->gpu, k->tile, k->wpt, split);
                    if (!err) err = gpu_copy_output(g, run ? c2 : c1);
                }
                if (!err) err = gpu_compare(g, 0, &st);
                if (err) {
                    print_message("%s %d/%d split %d at %dx%dx%d: %s\n", v->name, k->tile, k->wpt,
                                  split, M, N, K, err);
                    failures++;
                    continue;
                }
                const struct verdict vd = verify_judge(&st, verify_tolerance(v->precision, K));
                const int same = memcmp(c1, c2, (size_t)M * N * sizeof *c1) == 0;
                shared += kr.k_splits > 1;
                if (vd.disposition != DISP_PASSED || !same) {
                    print_message("%s %d/%d split %d at %dx%dx%d (K in %d parts, %d blocks): %s, "
                                  "rel_err %.3g; two runs %s\n", v->name, k->tile, k->wpt, split,
                                  M, N, K, kr.k_splits, kr.grid_blocks,
                                  disposition_name(vd.disposition), vd.rel_err,
                                  same ? "bitwise equal" : "DIFFER");
                    failures++;
                }
            }
        }
        free(c1);
        free(c2);
    }
    assert_int_equal(failures, 0);
    assert_true(shared > 0);   /* K was divided somewhere */
}

/* Kernels that are wrong by a little, produce a NaN or leave outputs unwritten
 * (tests/faulty_kernels.cu, in build/tests/mmladder-faulty only) are recorded
 * as incorrect, make the run exit 2, and are left out of `export --passed`,
 * the only rows the figures and the paper read; a correct rung in the same run
 * passes. */
static void wrong_kernels_are_caught(void **state)
{
    (void)device_or_skip(state);
    const char *bin = "build/tests/mmladder-faulty";
    if (!have_binary(bin)) {
        print_message("skipped: %s is not built (make test builds it)\n", bin);
        skip();
    }
    char dir[256], exp[300], h5[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(exp, sizeof exp, "%s/faulty.ini", dir);
    snprintf(h5, sizeof h5, "%s/faulty.h5", dir);
    test_write_file(exp, "[experiment]\nname = faulty\nseed = 5\n"
                         "[sampling]\ngpu_min_samples = 2\ngpu_min_time_ms = 1\ngpu_timeout_ms = 20\n"
                         "[bad]\nvariants = test_one_off test_nan test_unwritten "
                         "test_stale_counter gpu_naive\n"
                         "sizes = 64 1000\nshapes = 17x33x65\n");
    char *out, *err;
    char *run_argv[] = {(char *)bin, "run", exp, "-o", h5, NULL};
    int rc = test_run(run_argv, &out, &err);
    print_message("%s", err);
    assert_int_equal(rc, 2);
    free(out); free(err);

    char *exp_argv[] = {(char *)bin, "export", h5, NULL};
    assert_int_equal(test_run(exp_argv, &out, &err), 0);
    int incorrect = 0, passed = 0, stale = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strstr(line, "\ttest_") && strstr(line, "\tincorrect\t")) incorrect++;
        if (strstr(line, "\tgpu_naive\t") && strstr(line, "\tpassed\t")) passed++;
        /* right on its first run, wrong once C is poisoned before a launch
         * from the workspace as the samples left it (export writes a blank
         * inside a field as '_') */
        if (strstr(line, "\ttest_stale_counter\t") && strstr(line, "\tincorrect\t") &&
            strstr(line, "\tafter_sampling,_on_a_poisoned_C:"))
            stale++;
    }
    assert_int_equal(incorrect, 4 * 3);   /* four kernels at three shapes */
    assert_int_equal(stale, 3);
    assert_int_equal(passed, 3);
    free(out); free(err);

    char *passed_argv[] = {(char *)bin, "export", h5, "--passed", NULL};
    assert_int_equal(test_run(passed_argv, &out, &err), 0);
    assert_null(strstr(out, "test_"));
    assert_non_null(strstr(out, "gpu_naive"));
    free(out); free(err);
    test_rmtree(dir);
}

/* The sanitizer's error count from one run of build/tests/sanitize-one, or -1. */
static long sanitizer_errors(const char *tool, const char *variant, const char *tile,
                             const char *wpt, const char *shape)
{
    char *argv[] = {"/bin/sh", "-c",
                    "exec compute-sanitizer --tool \"$0\" build/tests/sanitize-one \"$1\" \"$2\" "
                    "\"$3\" \"$4\"",
                    (char *)tool, (char *)variant, (char *)tile, (char *)wpt, (char *)shape, NULL};
    char *out, *err;
    test_run(argv, &out, &err);
    /* memcheck, initcheck, synccheck: "ERROR SUMMARY: N errors"; racecheck:
     * "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)" */
    long n = -1;
    const char *p = strstr(out, "ERROR SUMMARY: ");
    if (p) n = strtol(p + 15, NULL, 10);
    else if ((p = strstr(out, "RACECHECK SUMMARY: ")) && (p = strchr(p, '(')))
        n = strtol(p + 1, NULL, 10);
    else if (strstr(out, "Error: Race reported"))   /* reported, summary cut short */
        n = 1;
    if (n != 0) print_message("%s %s %s: %s%s", tool, variant, shape, out, err);
    free(out); free(err);
    return n;
}

/* compute-sanitizer's racecheck finds the race of seed 002's exercise (the
 * tiled kernel without __syncthreads) and none in the tiled rung itself;
 * memcheck finds nothing in a rung at an odd shape.  (The full table over every
 * kernel, tool and shape is `make sanitize`.) */
static void racecheck_catches_the_missing_barrier(void **state)
{
    (void)device_or_skip(state);
    if (!have_binary("build/tests/sanitize-one")) {
        print_message("skipped: build/tests/sanitize-one is not built (make test builds it)\n");
        skip();
    }
    if (system("command -v compute-sanitizer >/dev/null 2>&1") != 0) {
        print_message("skipped: compute-sanitizer is not on PATH (it comes with the CUDA toolkit)\n");
        skip();
    }
    assert_true(sanitizer_errors("racecheck", "test_racy_tiled", "16", "0", "64x64x64") > 0);
    assert_int_equal(sanitizer_errors("racecheck", "gpu_tiled", "16", "0", "64x64x64"), 0);
    assert_int_equal(sanitizer_errors("memcheck", "gpu_async_copy", "128", "64", "17x33x65"), 0);
}

static int close_rel(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b)) + 1e-300;
}

/* The device reference (DGEMM on float64 copies) and the host one give the
 * same statistics for the same C: both are exact to about 1e-16. */
static void check_references_agree(struct gpu *g, int M, int N, int K, uint64_t seed)
{
    float *A, *B;
    set_random_inputs(g, M, N, K, seed, &A, &B);
    const size_t mn = (size_t)M * N;
    float *C = malloc(mn * sizeof *C);
    double *R = malloc(mn * sizeof *R);
    assert_non_null(C);
    assert_non_null(R);

    struct err_stats dev, host;
    const char *err = gpu_run_once(g, launcher("cublas_fp32"), 0, 0, 0);
    if (!err)
        err = gpu_copy_output(g, C);
    if (!err)
        err = gpu_compare(g, 0, &dev);
    if (err) {
        free(A), free(B), free(C), free(R);
        fail_msg("%dx%dx%d: %s", M, N, K, err);
    }
    verify_reference_fp64(R, A, B, M, N, K);
    verify_compare(&host, C, R, (long long)mn);
    free(A), free(B), free(C), free(R);

    const double tol = verify_tolerance(PREC_FP32, K);
    const struct verdict vh = verify_judge(&host, tol), vd = verify_judge(&dev, tol);
    print_message("%dx%dx%d: rel_err host %.9g, device %.9g (tolerance %.3g)\n", M, N, K,
                  vh.rel_err, vd.rel_err, tol);
    assert_int_equal(vh.disposition, DISP_PASSED);
    assert_int_equal(vd.disposition, DISP_PASSED);
    assert_int_equal(host.nonfinite, 0);
    assert_int_equal(dev.nonfinite, 0);
    assert_true(close_rel(dev.sum_sq_ref, host.sum_sq_ref, 1e-12));
    assert_true(close_rel(dev.max_abs_ref, host.max_abs_ref, 1e-12));
    assert_true(close_rel(vd.rel_err, vh.rel_err, 1e-6));
    assert_true(close_rel(vd.max_rel_err, vh.max_rel_err, 1e-6));
}

static void test_device_reference_matches_host_reference(void **state)
{
    struct gpu *g = device_or_skip(state);
    check_references_agree(g, 37, 53, 29, 7);
    check_references_agree(g, 300, 200, 100, 8);
}

/* A C that no kernel overwrote is all NaN and must fail, whatever the norms. */
static void test_poisoned_output_fails(void **state)
{
    struct gpu *g = device_or_skip(state);
    const int M = 31, N = 17, K = 9;
    set_random_inputs(g, M, N, K, 3, NULL, NULL);
    struct err_stats st;
    assert_null(gpu_poison_output(g));
    assert_null(gpu_compare(g, 0, &st));
    assert_int_equal(st.nonfinite, (uint64_t)M * N);
    assert_true(st.sum_sq_diff == 0.0);
    const struct verdict v = verify_judge(&st, verify_tolerance(PREC_FP32, K));
    assert_int_equal(v.disposition, DISP_INCORRECT);
}

/* Tiles and WPTs outside the instantiated set are refused with a message, and
 * the device stays usable afterwards. */
static void test_unsupported_tile_or_wpt_is_refused(void **state)
{
    struct gpu *g = device_or_skip(state);
    static const struct {
        const char *name;
        int tile, wpt;
    } bad[] = {
        {"gpu_tiled", 12, 0},     {"gpu_tiled", 64, 0},     {"gpu_tiled_unrolled", 12, 0},
        {"gpu_tiled_wpt", 16, 3}, {"gpu_tiled_wpt", 8, 16}, {"gpu_tiled_wpt", 12, 4},
        {"gpu_tiled_wpt", 32, 0},
    };
    set_random_inputs(g, 40, 40, 40, 4, NULL, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *err = gpu_run_once(g, launcher(bad[i].name), bad[i].tile, bad[i].wpt, 0);
        print_message("%s tile %d wpt %d: %s\n", bad[i].name, bad[i].tile, bad[i].wpt,
                      err ? err : "(accepted)");
        assert_non_null(err);
    }
    struct err_stats st;
    assert_null(gpu_poison_output(g));
    assert_null(gpu_run_once(g, launcher("gpu_tiled_wpt"), 16, 4, 0));
    assert_null(gpu_compare(g, 0, &st));
    assert_int_equal(verify_judge(&st, verify_tolerance(PREC_FP32, 40)).disposition, DISP_PASSED);
}

/* The clock, a timed launch and the copy bandwidth give plausible numbers. */
static void test_measurements_are_plausible(void **state)
{
    struct gpu *g = device_or_skip(state);
    const struct gpu_info *info = &((struct fixture *)*state)->info;
    assert_true(info->name[0] != '\0');
    assert_true(info->sm_count > 0);
    assert_true(info->l2_bytes > 0);
    assert_true(info->mem_bandwidth_gbs > 0.0);

    /* Timed samples: a whole number of rotations over input sets that exceed
     * twice the L2, at least 0.5 ms each, as a graph; the rung and its reference
     * (into its own output) both still verify after them. */
    set_random_inputs(g, 256, 256, 256, 5, NULL, NULL);
    assert_null(gpu_run_once(g, launcher("gpu_tiled_unrolled"), 16, 0, 0));
    struct gpu_timing tm;
    assert_null(gpu_timing_prepare(g, launcher("gpu_tiled_unrolled"), 16, 0, 0, launcher("cublas_fp32"),
                                   0.5, &tm));
    print_message("256^3: %s, %d launches per sample over %d input sets\n", tm.method, tm.launches,
                  tm.input_sets);
    assert_int_equal(tm.input_sets, gpu_input_sets(256, 256, 256, info->l2_bytes));
    assert_true(tm.input_sets > 1 && tm.launches >= tm.input_sets && tm.launches % tm.input_sets == 0);
    assert_string_equal(tm.method, "graph");
    double ms = 0.0, ref_ms = 0.0;
    struct gpu_kernels k;
    assert_null(gpu_timing_sample(g, 0, &ms, &k));
    assert_true(isnan(k.ms) && k.name[0] == '\0');   /* the second timer is off */
    assert_non_null(gpu_kernels_resolve(g, &k, NULL, 1));   /* and has nothing to give */
    assert_null(gpu_timing_sample(g, 1, &ref_ms, NULL));
    assert_true(ms > 0.0 && ref_ms > 0.0 && ms * tm.launches >= 0.4);
    struct err_stats st;
    assert_null(gpu_compare(g, 0, &st));
    assert_true(verify_judge(&st, verify_tolerance(PREC_FP32, 256)).disposition == DISP_PASSED);
    assert_null(gpu_compare(g, 1, &st));
    assert_true(verify_judge(&st, verify_tolerance(PREC_FP32, 256)).disposition == DISP_PASSED);
    assert_non_null(gpu_timing_sample(g, 2, &ms, NULL));   /* not prepared */

    /* The second timer: CUPTI's records of the kernels alone lie inside the
     * event pair (no launch gap in them) and name what ran, cuBLAS's pick too. */
    assert_null(gpu_kernel_timer_on(g));
    /* As a run uses it: on before the launches are prepared (the first launch
     * of a graph captured before took 0.1 ms more a launch, H200), and a
     * sample of warm-up. */
    assert_null(gpu_timing_prepare(g, launcher("gpu_tiled_unrolled"), 16, 0, 0, launcher("cublas_fp32"),
                                   0.5, &tm));
    struct gpu_kernels kr0, kr1;
    assert_null(gpu_timing_sample(g, 0, &ms, &kr0));
    assert_null(gpu_timing_sample(g, 1, &ref_ms, &kr1));
    assert_null(gpu_timing_sample(g, 0, &ms, &kr0));
    assert_null(gpu_timing_sample(g, 1, &ref_ms, &kr1));
    assert_null(gpu_kernels_resolve(g, &kr0, &kr1, 1));
    assert_non_null(gpu_kernels_resolve(g, &kr1, NULL, 1));   /* its records are gone */
    print_message("256^3: events %.4f / %.4f ms, kernels %.4f / %.4f ms (%s; %s)\n", ms, ref_ms,
                  kr0.ms, kr1.ms, kr0.name, kr1.name);
    assert_true(kr0.ms > 0.0 && kr0.ms <= ms && kr1.ms > 0.0 && kr1.ms <= ref_ms);
    assert_true(kr0.ms > 0.5 * ms && kr1.ms > 0.5 * ref_ms);
    assert_true(kr0.per_launch == 1.0 && kr1.per_launch >= 1.0);
    assert_true(kr0.copies_per_launch == 0.0);
    assert_non_null(strstr(kr0.name, "gputiled"));
    assert_true(kr1.name[0] != '\0');

    /* The check after sampling: C poisoned, one more launch, C right again. */
    assert_null(gpu_rerun_poisoned(g, 0));
    assert_null(gpu_compare(g, 0, &st));
    assert_true(verify_judge(&st, verify_tolerance(PREC_FP32, 256)).disposition == DISP_PASSED);
    assert_null(gpu_rerun_poisoned(g, 1));
    assert_null(gpu_compare(g, 1, &st));
    assert_true(verify_judge(&st, verify_tolerance(PREC_FP32, 256)).disposition == DISP_PASSED);
    assert_non_null(gpu_rerun_poisoned(g, 2));   /* not prepared */

    /* Rung 14 copies an operand whose rows TMA cannot address (K = 1025: rows
     * of 4100 bytes) into a padded buffer before its kernel where the product
     * is compute-bound, as here (wgmma_tile.cuh): the second timer counts that
     * copy as part of the launch, as the events do. */
    set_random_inputs(g, 1024, 1024, 1025, 7, NULL, NULL);
    assert_null(gpu_timing_prepare(g, launcher("tf32_wgmma_tma"), 256, 0, 0, launcher("cublas_tf32"),
                                   0.5, &tm));
    assert_null(gpu_timing_sample(g, 0, &ms, &kr0));
    assert_null(gpu_timing_sample(g, 1, &ref_ms, &kr1));
    assert_null(gpu_kernels_resolve(g, &kr0, &kr1, 1));
    print_message("1024x1024x1025: events %.4f ms, kernels and copies %.4f ms, %.0f copies a launch\n",
                  ms, kr0.ms, kr0.copies_per_launch);
    assert_true(kr0.copies_per_launch >= 1.0 && kr0.per_launch >= 1.0);
    assert_true(kr0.ms > 0.0 && kr0.ms <= ms);
    assert_null(gpu_compare(g, 0, &st));
    assert_true(verify_judge(&st, verify_tolerance(PREC_TF32, 1025)).disposition == DISP_PASSED);

    /* Resources of the instantiation a launcher would pick; nothing is launched. */
    struct kernel_resources kr;
    assert_null(gpu_describe(g, launcher("gpu_double_buffered"), 128, 64, 0, &kr));
    print_message("gpu_double_buffered 128/64: %d registers, %d B shared, %d B local, %d threads, "
                  "%d blocks/SM\n", kr.registers, kr.shared_bytes, kr.local_bytes, kr.threads,
                  kr.blocks_per_sm);
    assert_true(kr.known && kr.registers > 0 && kr.shared_bytes == 16384 && kr.threads == 256);
    assert_true(kr.blocks_per_sm >= 1);
    /* dynamic shared memory counts: three 32-deep slices of A (pitch 132) and B */
    assert_null(gpu_describe(g, launcher("gpu_async_copy"), 128, 64, 0, &kr));
    assert_true(kr.known && kr.shared_bytes == 3 * 32 * (2 * 128 + 4) * 4 && kr.threads == 256);
    assert_null(gpu_describe(g, launcher("tf32_wgmma_tma"), 256, 0, 0, &kr));
    print_message("tf32_wgmma_tma 256: %d registers, %d B shared, %d threads, %d blocks/SM\n",
                  kr.registers, kr.shared_bytes, kr.threads, kr.blocks_per_sm);
    assert_true(kr.known && kr.threads == 384 && kr.blocks_per_sm == 1);
    assert_null(gpu_describe(g, launcher("gpu_tiled"), 16, 0, 0, &kr));
    assert_true(kr.known && kr.threads == 256 && kr.shared_bytes == 2048);
    assert_null(gpu_describe(g, launcher("cublas_fp32"), 0, 0, 0, &kr));
    assert_false(kr.known);

    double gbs = 0.0;
    assert_null(gpu_copy_bandwidth_gbs(g, (size_t)64 << 20, &gbs));
    print_message("device-to-device copy %.0f GB/s (datasheet %.0f GB/s)\n", gbs,
                  info->mem_bandwidth_gbs);
    assert_true(gbs > 0.0);

    size_t free_bytes = 0, total_bytes = 0;
    assert_null(gpu_mem_info(g, &free_bytes, &total_bytes));
    assert_true(free_bytes > 0 && free_bytes <= total_bytes);
}

/* The memory estimate counts every buffer; needs no device.  Input sets: at
 * most GPU_MAX_INPUT_SETS, at least 2, matrices on 256-byte boundaries. */
static void test_bytes_needed_counts_every_buffer(void **state)
{
    (void)state;
    const int M = 1000, N = 2000, K = 3000;
    const long long l2 = 50LL << 20;
    /* A and B are 12 and 24 MB (multiples of 256 bytes): 1 + ceil(100 MiB / 36 MB)
     * = 4 input sets; then C and the reference's C, R, the float64 A and B, and
     * the most workspace a rung may ask for. */
    assert_int_equal(gpu_input_sets(M, N, K, l2), 4);
    const size_t sets = 4 * ((size_t)M * K + (size_t)K * N) * 4;
    const size_t expected = sets + 2 * (size_t)M * N * 4 + (size_t)M * N * 8 +
                            ((size_t)M * K + (size_t)K * N) * 8 + GPU_BLAS_WORKSPACE_BYTES +
                            GPU_SCRATCH_BYTES + GPU_WORKSPACE_MAX_BYTES;
    assert_int_equal(gpu_bytes_needed(M, N, K, l2), expected);
    assert_int_equal(gpu_input_sets(8, 8, 8, l2), GPU_MAX_INPUT_SETS);
    assert_int_equal(gpu_input_sets(16384, 16384, 16384, l2), 2);
    assert_int_equal(gpu_matrix_stride(17 * 65), 4608);   /* 4420 bytes, rounded up */
}

/* The dispatch rows weigh and pick as the model was fitted: at every shape of
 * the tuning corpus v2 and each precision, every candidate measured there is
 * weighed, with the plan its run recorded (its launcher's describe gives the
 * same grid, blocks an SM and parts of K here) and the time
 * scripts/fit-dispatch.py --plans predicts from it; among those candidates the
 * pick is the script's.  Candidates the runs did not measure at a shape (rung
 * 20 at the narrow part) are weighed here too, and counted.  Only on a GPU of
 * the runs' SM count and compute capability 9.0: elsewhere plans differ. */
static void dispatch_weighs_and_picks_as_fitted(void **state)
{
    const struct fixture *fx = *state;
    struct gpu *g = device_or_skip(state);
    char files[TUNING2_PARTS][512];
    test_tuning2_files(files);
    char *out = test_fit_dispatch(files, "--plans", NULL);
    int sms = 0;
    if (sscanf(out, "# gpu_sm_count %d", &sms) != 1) fail_msg("--plans: no SM count: %.80s", out);
    if (fx->info.sm_count != sms || fx->info.cc_major != 9 || fx->info.cc_minor != 0) {
        print_message("skipped: the tuning runs' GPU has %d SMs and compute capability 9.0; "
                      "this one %d SMs, %d.%d\n", sms, fx->info.sm_count, fx->info.cc_major,
                      fx->info.cc_minor);
        free(out);
        skip();
    }
    enum { ROOM = 128 };
    struct dispatch_choice all[ROOM];
    int count = 0, pick = -1, key[4] = {0, 0, 0, -1}, lines = 0, sets = 0, extra = 0, moved = 0;
    int matched[ROOM];
    const struct dispatch_choice *script_pick = NULL, *common_pick = NULL;
    char *save = NULL;
    strtok_r(out, "\n", &save);   /* the SM count, then the header */
    strtok_r(NULL, "\n", &save);
    for (char *line = strtok_r(NULL, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
        int M = 0, N = 0, K = 0, tile = 0, wpt = 0, bm, bn, grid, per_sm, parts, launches, is_pick;
        char prec[8] = "", rung[64] = "";
        double ms = 0;
        if (line && sscanf(line, "%d\t%d\t%d\t%7s\t%63s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%lf\t%d", &M,
                           &N, &K, prec, rung, &tile, &wpt, &bm, &bn, &grid, &per_sm, &parts,
                           &launches, &ms, &is_pick) != 15)
            fail_msg("--plans: line unread: %s", line);
        const int tf32 = !strcmp(prec, "tf32");
        if (!line || M != key[0] || N != key[1] || K != key[2] || tf32 != key[3]) {
            if (key[3] >= 0) {   /* the shape before: its pick among the common candidates */
                assert_non_null(script_pick);
                if (common_pick != script_pick)
                    fail_msg("%dx%dx%d %s: the script picks %s %d/%d, the dispatch %s %d/%d",
                             key[0], key[1], key[2], key[3] ? "tf32" : "fp32",
                             script_pick->cand->rung, script_pick->cand->tile,
                             script_pick->cand->wpt, common_pick->cand->rung,
                             common_pick->cand->tile, common_pick->cand->wpt);
                for (int i = 0; i < count; i++) extra += !matched[i];
                moved += &all[pick] != common_pick;
            }
            if (!line) break;
            const char *err = gpu_dispatch_candidates(g, tf32, M, N, K, all, ROOM, &count, &pick);
            if (err) fail_msg("%s", err);
            memset(matched, 0, sizeof matched);
            key[0] = M, key[1] = N, key[2] = K, key[3] = tf32;
            script_pick = common_pick = NULL;
            sets++;
        }
        int i = 0;
        while (i < count && (strcmp(all[i].cand->rung, rung) || all[i].cand->tile != tile ||
                             all[i].cand->wpt != wpt))
            i++;
        if (i == count)
            fail_msg("%dx%dx%d %s: %s %d/%d, measured there, is not weighed", M, N, K, prec, rung,
                     tile, wpt);
        const struct dispatch_plan *p = &all[i].plan;
        if (p->block_rows != bm || p->block_cols != bn || p->grid_blocks != grid ||
            p->blocks_per_sm != per_sm || p->k_splits != parts || p->launches != launches)
            fail_msg("%dx%dx%d %s %s %d/%d: planned %dx%d, %d blocks, %d an SM, %d parts, %d "
                     "launches; the run recorded %dx%d, %d, %d, %d, %d", M, N, K, prec, rung, tile,
                     wpt, p->block_rows, p->block_cols, p->grid_blocks, p->blocks_per_sm,
                     p->k_splits, p->launches, bm, bn, grid, per_sm, parts, launches);
        if (fabs(all[i].ms - ms) > 1e-12 * ms)
            fail_msg("%dx%dx%d %s %s %d/%d: predicted %.17g ms, the script %.17g", M, N, K, prec,
                     rung, tile, wpt, all[i].ms, ms);
        matched[i] = 1;
        if (is_pick) script_pick = &all[i];
        if (!common_pick || all[i].ms < common_pick->ms ||
            (all[i].ms == common_pick->ms && &all[i] < common_pick))
            common_pick = &all[i];
        lines++;
    }
    print_message("%d candidates at %d shapes and precisions, each as the script plans and "
                  "predicts it; %d weighed that the runs did not measure, moving %d picks\n",
                  lines, sets, extra, moved);
    assert_true(sets > 1000 && lines > 10 * sets);
    free(out);
}

const struct CMUnitTest gpu_tests[] = {
    cmocka_unit_test_setup_teardown(test_every_rung_is_correct_on_odd_shapes, gpu_setup,
                                    gpu_teardown),
    cmocka_unit_test_setup_teardown(test_device_reference_matches_host_reference, gpu_setup,
                                    gpu_teardown),
    cmocka_unit_test_setup_teardown(test_poisoned_output_fails, gpu_setup, gpu_teardown),
    cmocka_unit_test_setup_teardown(test_unsupported_tile_or_wpt_is_refused, gpu_setup,
                                    gpu_teardown),
    cmocka_unit_test_setup_teardown(test_measurements_are_plausible, gpu_setup, gpu_teardown),
    cmocka_unit_test_setup_teardown(decomposition_is_deterministic_at_its_edges, gpu_setup,
                                    gpu_teardown),
    cmocka_unit_test(test_bytes_needed_counts_every_buffer),
    cmocka_unit_test_setup_teardown(wrong_kernels_are_caught, gpu_setup, gpu_teardown),
    cmocka_unit_test_setup_teardown(racecheck_catches_the_missing_barrier, gpu_setup, gpu_teardown),
    cmocka_unit_test_setup_teardown(dispatch_weighs_and_picks_as_fitted, gpu_setup, gpu_teardown),
};
const size_t gpu_tests_count = sizeof gpu_tests / sizeof gpu_tests[0];
