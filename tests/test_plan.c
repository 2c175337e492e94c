/* The registry and the plan: expansion, skip reasons, errors with file:line. */
#define _POSIX_C_SOURCE 200809L   /* opendir */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>

#include "experiment/experiment.h"
#include "dispatch.h"
#include "measure/plan.h"
#include "measure/shard.h"
#include "util.h"
#include "core/registry.h"
#include "plan_parts.h"

struct experiment *plan_parse(const char *text)
{
    struct experiment *e = calloc(1, sizeof *e);
    char err[512];
    if (experiment_parse("t.ini", text, e, err, sizeof err) != 0) fail_msg("parse: %s", err);
    return e;
}

void plan_done(struct experiment *e)
{
    experiment_free(e);
    free(e);
}

/* The ladder's order: the seeds' rungs first, as the seeds number them, then the
 * rungs past them, then the dispatch rows (which call those), then the cuBLAS
 * reference lines; every entry named once, saying what it adds.  (A new rung is
 * its file and its registry line: this test names only the seeds'.) */
static void registry_is_the_ladder_in_order(void **state)
{
    (void)state;
    const char *seeds[] = {"host_naive", "host_restrict", "gpu_naive_global", "gpu_naive",
                           "gpu_tiled", "gpu_tiled_unrolled", "gpu_tiled_wpt"};
    const size_t n_seeds = sizeof seeds / sizeof seeds[0];
    assert_true(registry_count() > n_seeds + 2);
    int stage = 0;   /* 0 seeds, 1 past them, 2 dispatch rows, 3 references */
    for (size_t i = 0; i < registry_count(); i++) {
        const struct variant *v = registry_at(i);
        if (i < n_seeds) assert_string_equal(v->name, seeds[i]);
        const int s = i < n_seeds ? 0 : registry_is_reference(v) ? 3 : v->dispatch ? 2 : 1;
        assert_true(s >= stage);
        stage = s;
        assert_non_null(v->adds);
        assert_ptr_equal(registry_find(v->name), v);
        assert_int_equal(registry_number(v), (int)i + 1);
    }
    assert_int_equal(stage, 3);
    assert_string_equal(registry_at(registry_count() - 2)->name, "cublas_fp32");
    assert_string_equal(registry_at(registry_count() - 1)->name, "cublas_tf32");
    assert_null(registry_find("gpu_magic"));
}

static void registry_reasons(void **state)
{
    (void)state;
    char why[256];
    const struct variant *w = registry_find("gpu_tiled_wpt");
    const struct rung_config *cfg;
    assert_true(registry_supports(w, 32, 8, 0, 0, &cfg, why, sizeof why));
    /* the kernel file's geometry: a 32 x 32 tile, 8 outputs of a column per thread */
    assert_true(cfg->block_rows == 32 && cfg->block_cols == 32 && cfg->thread_rows == 8 &&
                cfg->thread_cols == 1);
    assert_false(registry_supports(w, 8, 16, 0, 0, &cfg, why, sizeof why));
    assert_null(cfg);
    assert_non_null(strstr(why, "tile 8 / WPT 16: not a configuration of gpu_tiled_wpt (it has "
                                "8/1 8/2 8/4 8/8 16/1"));
    assert_false(registry_supports(w, 64, 1, 0, 0, NULL, why, sizeof why));
    assert_non_null(strstr(why, "tile 64 / WPT 1: not a configuration"));
    const struct variant *h = registry_find("host_naive");
    assert_false(registry_supports(h, 0, 0, 0, 0, NULL, why, sizeof why));
    assert_non_null(strstr(why, "-O0 not built"));
    /* the axes follow the configurations */
    assert_int_equal(registry_axes(w), AXIS_TILE | AXIS_WPT);
    assert_int_equal(registry_axes(registry_find("tf32_wgmma_tma")), AXIS_TILE);
    assert_int_equal(registry_axes(registry_find("cublas_fp32")), 0);
    assert_int_equal(registry_axes(h), AXIS_OPT);
    /* split-K takes the splits axis: 0 (its rule) to RUNG_MAX_SPLIT; no other rung does */
    const struct variant *sk = registry_find("gpu_splitk");
    assert_int_equal(registry_axes(sk), AXIS_TILE | AXIS_WPT | AXIS_SPLIT);
    assert_true(registry_supports(sk, 64, 64, 0, 0, &cfg, why, sizeof why));
    assert_true(registry_supports(sk, 64, 64, RUNG_MAX_SPLIT, 0, &cfg, why, sizeof why));
    assert_false(registry_supports(sk, 64, 64, RUNG_MAX_SPLIT + 1, 0, &cfg, why, sizeof why));
    assert_non_null(strstr(why, "divides K into 1 to 256 parts (0: by its rule)"));
    assert_false(registry_supports(registry_find("gpu_async_copy"), 64, 64, 4, 0, &cfg, why, sizeof why));
    assert_non_null(strstr(why, "split 4: gpu_async_copy does not divide K (expected 0)"));
    assert_int_equal(registry_axes(registry_find("gpu_streamk")), AXIS_TILE | AXIS_WPT);
}

/* What four GPUs would run of the paper matrix, from their descriptions alone
 * (compute capability, shared memory a block may opt in to) and the default
 * build (SASS for sm_90, PTX for compute_80): every rung and configuration on
 * an H100; on an A100 and a B200 all but the sm_90a rungs, through the PTX; on an
 * RTX 4090 also not the configurations needing more than its 99 KiB of shared
 * memory; on a T4 (7.5) nothing, for want of code for it. */
static void gpus_plan_what_they_can_run(void **state)
{
    (void)state;
    const char *flags = "-O3 -gencode arch=compute_90,code=sm_90 "
                        "-gencode arch=compute_80,code=compute_80";
    int sm90a = 0;   /* the configurations of the rungs that declare sm_90a alone */
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        for (const struct rung_config *c = v->configs; v->only_cc && c->tile >= 0; c++) sm90a++;
    }
    assert_true(sm90a >= 2 + 5 + 1);   /* rungs 14 and 17 and the TF32 dispatch row at least */
    const struct {
        struct gpu_caps d;
        int refused;              /* GPU configurations of the ladder refused */
        const char *rung, *reason;   /* one refusal and its words */
    } gpus[] = {
        {{"H100", 90, 227 * 1024, flags}, 0, NULL, NULL},
        {{"A100", 80, 163 * 1024, flags}, sm90a, "tf32_wgmma_tma", "needs sm_90a (built for it alone: wgmma, TMA); this GPU is sm_80"},
        {{"B200", 100, 227 * 1024, flags}, sm90a, "tf32_wgmma_tma", "this GPU is sm_100"},
        {{"RTX 4090", 89, 99 * 1024, flags}, sm90a + 2 + 2 + 1, "tf32_mma_sync", "needs 105 KiB of shared memory per block; this GPU offers 99 KiB"},
        {{"T4", 75, 64 * 1024, flags}, -1, "gpu_tiled", "this binary holds no code for sm_75 (built: sm_90 compute_80; make ARCH=75 builds it)"},
    };
    size_t all = 0;
    for (size_t k = 0; k < registry_count(); k++) {
        const struct variant *v = registry_at(k);
        for (const struct rung_config *c = v->configs; v->device == DEV_GPU && c->tile >= 0; c++) all++;
    }
    for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
        int refused = 0, seen = 0;
        char why[160];
        for (size_t k = 0; k < registry_count(); k++) {
            const struct variant *v = registry_at(k);
            for (const struct rung_config *c = v->configs; v->device == DEV_GPU && c->tile >= 0; c++) {
                if (!plan_gpu_refuses(v, c, &gpus[g].d, why, sizeof why)) continue;
                refused++;
                if (gpus[g].rung && !strcmp(v->name, gpus[g].rung)) {
                    if (!strstr(why, gpus[g].reason)) fail_msg("%s, %s: '%s'", gpus[g].d.name, v->name, why);
                    seen = 1;
                }
            }
        }
        if (gpus[g].refused >= 0 && refused != gpus[g].refused)
            fail_msg("%s: %d configurations refused, expected %d", gpus[g].d.name, refused, gpus[g].refused);
        if (gpus[g].refused < 0 && (size_t)refused != all)
            fail_msg("%s: %d of %zu configurations refused, expected all", gpus[g].d.name, refused, all);
        assert_int_equal(seen, gpus[g].rung != NULL);
    }
    /* which rung-12 tile the 4090 keeps: 128 x 128 (97.5 KiB) yes, 128 x 256 no */
    const struct variant *ac = registry_find("gpu_async_copy");
    char why[160];
    assert_false(plan_gpu_refuses(ac, rung_config_find(ac->configs, 128, 128), &gpus[3].d, why, sizeof why));
    assert_true(plan_gpu_refuses(ac, rung_config_find(ac->configs, 256, 128), &gpus[3].d, why, sizeof why));
    /* in a plan: skipped by design, with the reason; host points untouched */
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = tf32_wgmma_tma host_naive\nsizes = 64\n"
                                 "tiles = 128 256\nopt_levels = 2\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    /* (a build without CUDA has skipped them already, for want of the code) */
    assert_int_equal(plan_apply_gpu(&p, &gpus[1].d), MM_HAVE_CUDA ? 2 : 0);
    for (size_t i = 0; i < p.n; i++) {
        const struct point *pt = &p.points[i];
        assert_int_equal(pt->skip, pt->v->device == DEV_GPU);
        assert_int_equal(pt->skip_env, !MM_HAVE_CUDA && pt->v->device == DEV_GPU);
        if (pt->skip && MM_HAVE_CUDA) assert_non_null(strstr(pt->skip_reason, "needs sm_90a"));
    }
    plan_free(&p);
    experiment_free(e);
    free(e);
    char t[256];
    plan_targets(flags, t, sizeof t);
    assert_non_null(strstr(t, "sm_90 compute_80"));
    plan_targets("", t, sizeof t);
    assert_string_equal(t, "none (built without CUDA)");
}

static void expansion_uses_only_each_variants_axes(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_naive gpu_tiled gpu_tiled_wpt host_naive\n"
                                 "sizes = 64 100\nshapes = 10x20x30\n"
                                 "tiles = 8 16 32\nwpts = 1 2 4 8 16 32\nopt_levels = 1 3\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    /* per shape: naive 1 + tiled 3 + wpt 3*6 + host 2 = 24; three shapes */
    assert_int_equal(p.n, 3 * 24);
    size_t skipped = 0;
    for (size_t i = 0; i < p.n; i++) {
        const struct point *pt = &p.points[i];
        if (!strcmp(pt->v->name, "gpu_naive")) assert_true(pt->tile == 0 && pt->wpt == 0);
        if (!strcmp(pt->v->name, "gpu_tiled")) assert_int_equal(pt->wpt, 0);
        if (!strcmp(pt->v->name, "host_naive")) assert_true(pt->opt_level == 1 || pt->opt_level == 3);
        if (pt->skip_env) {
            assert_false(MM_HAVE_CUDA);   /* GPU code not built: every GPU point */
            assert_int_equal(pt->v->device, DEV_GPU);
        } else if (pt->skip) {
            skipped++;
            assert_true(pt->tile % pt->wpt != 0);
        }
    }
    /* WPT not dividing TS: TS 8 with 16, 32; TS 16 with 32 -> 3 per shape (they are
     * checked before the build: the same in builds without CUDA) */
    assert_int_equal(skipped, 3 * 3);
    /* ordered by shape first */
    assert_int_equal(p.points[0].M, 64);
    assert_int_equal(p.points[p.n - 1].M, 10);
    plan_free(&p);
    plan_done(e);
}

/* The splits axis multiplies the points of the rungs that take it, and no other;
 * a rung that takes it needs it in the sweep. */
static void split_axis_applies_to_decomposition_rungs(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_async_copy gpu_splitk cublas_fp32\n"
                                 "shapes = 16x4096x4096\ntiles = 64\nwpts = 64\n"
                                 "splits = 0 4 300\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 1 + 3 + 1);
    int splits = 0, refused = 0;
    for (size_t i = 0; i < p.n; i++) {
        const struct point *pt = &p.points[i];
        if (strcmp(pt->v->name, "gpu_splitk")) {
            assert_int_equal(pt->split, 0);
            continue;
        }
        splits += pt->split;
        if (pt->split == 300) {
            refused++;
            assert_true(pt->skip && !pt->skip_env);
            assert_non_null(strstr(pt->skip_reason, "split 300: gpu_splitk divides K into 1 to 256"));
        }
    }
    assert_int_equal(splits, 304);
    assert_int_equal(refused, 1);
    plan_free(&p);
    plan_done(e);
    e = plan_parse("[experiment]\nname = t\nseed = 1\n"
              "[g]\nvariants = gpu_splitk\nsizes = 64\ntiles = 64\nwpts = 64\n");
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "variant 'gpu_splitk' needs 'splits' (expected e.g. splits = 0 4 16)"));
    plan_done(e);
}

#if MM_HAVE_CUDA
/* tests/stream_k_plan.cu: NULL, or what is wrong with the plan of this shape */
const char *stream_k_plan_check(int M, int N, int K, int bm, int bn, long long resident, int min_slices,
                                int share, int aligned);
const char *tail_plan_check(int M, int N, int K, int bm, int bn, long long resident, int asked, int floor);

/* The shapes both plan tests walk: sizes on either side of the tiles' edges,
 * K of a slice to thousands. */
static const int sizes[] = {1, 17, 100, 255, 256, 257, 640, 1000, 1920, 2304, 2999, 4352, 8192};
static const int depths[] = {1, 32, 40, 100, 255, 256, 700, 2997, 8192, 65536};
#endif

/* The stream-K plans of rungs 16 and 20 (kernels/gpu/stream_k.cuh), walked as
 * their kernels walk them, at sizes on either side of their tiles' edges, K of
 * a slice to thousands, on the workers of an H100 (66 clusters of rung 20, 132
 * and 264 blocks) and of a small GPU: every slice computed once, the shared
 * tiles' pieces where the fix-up looks for them, no run under its floor, and
 * the aligned plan's runs within their tiles (stream_k_plan_check says which
 * of these fails, and where). */
static void stream_k_plans_compute_every_slice_once(void **state)
{
    (void)state;
#if !MM_HAVE_CUDA
    print_message("skipped: the stream-K plan is CUDA C++, built with nvcc only\n");
    skip();
#else
    static const int tiles[][2] = {{256, 256}, {128, 256}, {128, 128}, {64, 64}};
    static const long long workers[] = {66, 132, 264, 7};
    int plans = 0;
    for (size_t m = 0; m < sizeof sizes / sizeof *sizes; m++)
        for (size_t n = 0; n < sizeof sizes / sizeof *sizes; n++)
            for (size_t k = 0; k < sizeof depths / sizeof *depths; k++)
                for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
                    for (size_t w = 0; w < sizeof workers / sizeof *workers; w++)
                        for (int aligned = 0; aligned < 2; aligned++, plans++) {
                            const char *why = stream_k_plan_check(sizes[m], sizes[n], depths[k], tiles[t][0],
                                                                  tiles[t][1], workers[w], aligned ? 8 : 4, 8,
                                                                  aligned);
                            if (why) fail_msg("%s", why);
                        }
    assert_int_equal(plans, 13 * 13 * 10 * 4 * 4 * 2);
#endif
}

/* Rung 21's plan of the last wave (kernels/gpu/split_k.cuh), block by block as
 * its kernel takes it, at the same sizes and depths, its five tiles, on the
 * blocks of an H100 (264 of 128 x 128, 396 of the others) and of a small GPU,
 * by its rule and asked for 1 to 300 parts: every slice computed once, the
 * parts of a tile where its last block reads them, only the last wave cut, and
 * by the rule no more parts than that wave holds (tail_plan_check says which
 * of these fails, and where). */
static void tail_plans_compute_every_slice_once(void **state)
{
    (void)state;
#if !MM_HAVE_CUDA
    print_message("skipped: rung 21's plan is CUDA C++, built with nvcc only\n");
    skip();
#else
    static const int tiles[][2] = {{128, 128}, {64, 128}, {32, 128}, {128, 64}, {128, 32}};
    static const long long blocks[] = {264, 396, 7};
    static const int asked[] = {0, 1, 2, 5, 300};
    int plans = 0;
    for (size_t m = 0; m < sizeof sizes / sizeof *sizes; m++)
        for (size_t n = 0; n < sizeof sizes / sizeof *sizes; n++)
            for (size_t k = 0; k < sizeof depths / sizeof *depths; k++)
                for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
                    for (size_t w = 0; w < sizeof blocks / sizeof *blocks; w++)
                        for (size_t a = 0; a < sizeof asked / sizeof *asked; a++, plans++) {
                            const char *why = tail_plan_check(sizes[m], sizes[n], depths[k], tiles[t][0],
                                                              tiles[t][1], blocks[w], asked[a], 4);
                            if (why) fail_msg("%s", why);
                        }
    assert_int_equal(plans, 13 * 13 * 10 * 5 * 3 * 5);
#endif
}

/* The dispatch model's candidates are configurations their rungs have, of the
 * precision the table says, and a dispatch weighs one only where its rung
 * would run it: the row's precision (an FP32 row never a TF32 rung), the
 * shape's alignment, a configuration the GPU gives its shared memory, within
 * its limits (a GEMV-like one only where C is as narrow as it is for); at
 * every shape some candidate is left, aligned or not. */
static void dispatch_model_weighs_what_exists(void **state)
{
    enum { H100_OPTIN = 227 * 1024, A100_OPTIN = 163 * 1024, SM89_OPTIN = 99 * 1024 };
    (void)state;
    char why[256];
    int gemv = 0, narrow = 0;
    for (int i = 0; i < dispatch_model_count; i++) {
        const struct dispatch_candidate *c = &dispatch_model[i];
        const struct variant *v = registry_find(c->rung);
        const struct rung_config *cfg = NULL;
        assert_non_null(v);
        assert_false(v->dispatch);
        if (!registry_supports(v, c->tile, c->wpt, 0, 0, &cfg, why, sizeof why))
            fail_msg("%s %d/%d: %s", c->rung, c->tile, c->wpt, why);
        assert_int_equal(c->tf32, v->precision == PREC_TF32);
        gemv += cfg->for_cols > 0;
        narrow += cfg->smem_bytes > A100_OPTIN;
    }
    assert_true(gemv > 0 && narrow > 0);   /* the cases below are in the table */
    static const int shapes[][3] = {{1, 1, 1},        {16, 4096, 4096},  {4096, 16, 4096},
                                    {96, 96, 96},     {128, 128, 65536}, {1024, 1024, 1024},
                                    {1023, 1025, 1027}, {8192, 8192, 8192}, {512, 768, 3072},
                                    {1000000, 3, 5},  {4096, 3, 4096},   {2000, 900, 3000},
                                    {100, 101, 103},  {9, 7, 100000},    {14012, 15884, 2}};
    static const long optins[] = {H100_OPTIN, A100_OPTIN, SM89_OPTIN};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (size_t o = 0; o < sizeof optins / sizeof optins[0]; o++)
            for (int tf32 = 0; tf32 < 2; tf32++) {
                const int M = shapes[i][0], N = shapes[i][1], K = shapes[i][2];
                int weighed = 0;
                for (int j = 0; j < dispatch_model_count; j++) {
                    const struct dispatch_candidate *c = &dispatch_model[j];
                    const struct rung_config *cfg =
                        rung_config_find(registry_find(c->rung)->configs, c->tile, c->wpt);
                    const int fits = registry_config_fits(cfg, M, N, K, why, sizeof why) &&
                                     cfg->smem_bytes <= optins[o];
                    const int admitted = dispatch_model_admits(c, tf32, M, N, K, cfg, optins[o]);
                    assert_int_equal(admitted, fits && (tf32 || !c->tf32) &&
                                                   c->aligned == (N % 4 == 0 && K % 4 == 0));
                    weighed += admitted;
                }
                if (!weighed) fail_msg("%dx%dx%d, %s, %ld bytes: no candidate", M, N, K,
                                       tf32 ? "TF32" : "FP32", optins[o]);
            }
    assert_true(registry_find("dispatch_fp32")->dispatch && !registry_find("gpu_splitk")->dispatch);
}

/* Each experiment file the repository ships (each .ini in experiments/),
 * loaded and expanded (a broken one fails the test), given to fn; returns
 * how many. */
static int each_shipped_plan(void (*fn)(const char *path, const struct experiment *e,
                                        struct plan *p))
{
    DIR *d = opendir("experiments");
    assert_non_null(d);
    int files = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        const size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".ini") != 0) continue;
        char path[512], err[1024] = "";
        snprintf(path, sizeof path, "experiments/%s", de->d_name);
        struct experiment *e = calloc(1, sizeof *e);
        assert_non_null(e);
        if (experiment_load(path, e, err, sizeof err) != 0) fail_msg("%s: %s", path, err);
        struct plan p;
        if (plan_from_experiment(e, 1, "", &p, err, sizeof err) != 0) fail_msg("%s: %s", path, err);
        fn(path, e, &p);
        plan_free(&p);
        plan_done(e);
        files++;
    }
    closedir(d);
    return files;
}

static void has_points(const char *path, const struct experiment *e, struct plan *p)
{
    (void)e;
    if (p->n == 0) fail_msg("%s: no points", path);
}

/* Every experiment file the repository ships loads and expands to a plan: a
 * broken one fails here, not on a GPU host. */
static void every_shipped_experiment_plans(void **state)
{
    (void)state;
    assert_true(each_shipped_plan(has_points) >= 10);
}

/* The shapes of the shipped tuning files and of the held-out ones, each once,
 * as collected by each_shipped_plan (at most SHAPES_MAX each). */
enum { SHAPES_MAX = 4096 };
static struct {
    int tuning[SHAPES_MAX][3], heldout[SHAPES_MAX][3];
    char heldout_of[SHAPES_MAX][64];
    int n_tuning, n_heldout;
} ini_shapes;

static void collect_ini_shapes(const char *path, const struct experiment *e, struct plan *p)
{
    (void)e;
    const char *base = strrchr(path, '/') + 1;
    const int tuning = !strncmp(base, "tuning-", 7), heldout = !strncmp(base, "heldout", 7);
    for (size_t i = 0; i < p->n && (tuning || heldout); i++) {
        int *n = tuning ? &ini_shapes.n_tuning : &ini_shapes.n_heldout;
        int (*at)[3] = tuning ? ini_shapes.tuning : ini_shapes.heldout;
        const int shape[3] = {p->points[i].M, p->points[i].N, p->points[i].K};
        int seen = 0;
        for (int j = *n - 1; j >= 0 && !seen; j--) seen = !memcmp(at[j], shape, sizeof shape);
        if (seen) continue;
        assert_true(*n < SHAPES_MAX);
        memcpy(at[*n], shape, sizeof shape);
        if (heldout) snprintf(ini_shapes.heldout_of[*n], 64, "%s", base);
        (*n)++;
    }
}

/* No rule made from the tuning corpus has seen a held-out shape: no shape of
 * experiments/heldout*.ini is one of experiments/tuning-*.ini's. */
static void held_out_shapes_are_not_tuned_on(void **state)
{
    (void)state;
    memset(&ini_shapes, 0, sizeof ini_shapes);
    each_shipped_plan(collect_ini_shapes);
    assert_true(ini_shapes.n_tuning > 800 && ini_shapes.n_heldout > 500);
    for (int i = 0; i < ini_shapes.n_heldout; i++)
        for (int j = 0; j < ini_shapes.n_tuning; j++)
            if (!memcmp(ini_shapes.heldout[i], ini_shapes.tuning[j], sizeof(int[3])))
                fail_msg("%s: %dx%dx%d is a tuning shape", ini_shapes.heldout_of[i],
                         ini_shapes.heldout[i][0], ini_shapes.heldout[i][1],
                         ini_shapes.heldout[i][2]);
}

/* A plan's GPU and host estimate by shard, as shard_assign cut it. */
static void shard_loads(const struct plan *p, const struct experiment *e, const int *owner, int n,
                        double *gpu, double *host)
{
    for (int k = 0; k < n; k++) gpu[k] = host[k] = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct point *pt = &p->points[i];
        struct point q = *pt;
        q.skip = q.skip_env = q.jit_first = 0;
        const double w = pt->skip && !pt->skip_env ? 0 : point_estimate_s(&q, e);
        (pt->v->device == DEV_HOST ? host : gpu)[owner[i]] += w;
        if (pt->v->device != DEV_HOST && (!i || pt->M != p->points[i - 1].M ||
                                          pt->N != p->points[i - 1].N || pt->K != p->points[i - 1].K ||
                                          pt->sweep != p->points[i - 1].sweep))
            gpu[owner[i]] += plan_shape_setup_s(pt->M, pt->N, pt->K, e);
    }
}

/* Cut into 1..5 and 16 shards, a shipped plan's shards hold every point once,
 * in plan order, with the whole plan's hash; a sweep's shape is never split
 * (its GPU points stay together, and so do its host points); the cut is the
 * same each time; no shard's estimate exceeds an even share by more than the
 * heaviest group (greedy's bound); and with host_shard every host point is in
 * that shard. */
static void shards_cover_the_plan_once(const char *path, const struct experiment *e,
                                       struct plan *p)
{
    const int counts[] = {1, 2, 3, 4, 5, 16};
    int *owner = malloc((p->n + 1) * sizeof *owner), *again = malloc((p->n + 1) * sizeof *again);
    assert_true(owner && again);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        const int n = counts[c];
        for (int host_shard = -1; host_shard <= (n > 1 ? 1 : -1); host_shard += 2) {
            assert_int_equal(shard_assign(p, e, n, host_shard, owner), 0);
            assert_int_equal(shard_assign(p, e, n, host_shard, again), 0);
            assert_memory_equal(owner, again, p->n * sizeof *owner);
            double gpu[16], host[16], whole_gpu = 0, whole_host = 0, biggest = 0;
            shard_loads(p, e, owner, n, gpu, host);
            for (int k = 0; k < n; k++) whole_gpu += gpu[k], whole_host += host[k];
            for (size_t i = 0; i < p->n; i++) {
                assert_true(owner[i] >= 0 && owner[i] < n);
                if (host_shard >= 0 && p->points[i].v->device == DEV_HOST)
                    assert_int_equal(owner[i], host_shard);
                if (i && p->points[i].sweep == p->points[i - 1].sweep &&
                    p->points[i].M == p->points[i - 1].M && p->points[i].N == p->points[i - 1].N &&
                    p->points[i].K == p->points[i - 1].K)
                    for (size_t j = i; j-- > 0 && p->points[j].M == p->points[i].M &&
                                       p->points[j].N == p->points[i].N &&
                                       p->points[j].K == p->points[i].K &&
                                       p->points[j].sweep == p->points[i].sweep;)
                        if (p->points[j].v->device == p->points[i].v->device) {
                            if (owner[j] != owner[i]) fail_msg("%s: a shape split over shards", path);
                            break;
                        }
            }
            /* greedy's bound, with the heaviest group bounded by the heaviest shard */
            for (int k = 0; k < n; k++) biggest = fmax(biggest, fmax(gpu[k], 0));
            for (int k = 0; k < n; k++) {
                if (gpu[k] > whole_gpu / n + biggest * (n > 1) + 1e-9 && n > 1)
                    fail_msg("%s: shard %d of %d has %.1f s of %.1f", path, k, n, gpu[k], whole_gpu);
                (void)whole_host;
            }
            size_t seen = 0;
            for (int k = 0; k < n; k++) {
                struct plan q = *p;
                q.points = malloc((p->n + 1) * sizeof *q.points);
                assert_non_null(q.points);
                memcpy(q.points, p->points, p->n * sizeof *q.points);
                char why[200];
                assert_int_equal(shard_keep(&q, e, k, n, host_shard, why, sizeof why), 0);
                assert_true(q.whole == p->n && q.hash == p->hash && q.shard == k && q.shards == n);
                for (size_t i = 0; i < q.n; i++) {
                    assert_int_equal(owner[q.points[i].index], k);
                    if (i) assert_true(q.points[i].index > q.points[i - 1].index);
                }
                seen += q.n;
                free(q.points);
            }
            assert_int_equal(seen, p->n);
        }
    }
    free(owner);
    free(again);
}

static void shards_of_shipped_plans(void **state)
{
    (void)state;
    assert_true(each_shipped_plan(shards_cover_the_plan_once) >= 10);
}

/* Two shards of the same two-shape plan; host points with or without a shard
 * of their own; K/N read, bad ones refused with what was expected; the hash
 * tells plans apart. */
static void shard_arguments_and_hash(void **state)
{
    (void)state;
    int k = -1, n = -1;
    char why[200];
    assert_int_equal(shard_parse("0/1", &k, &n, why, sizeof why), 0);
    assert_true(k == 0 && n == 1);
    assert_int_equal(shard_parse("3/4", &k, &n, why, sizeof why), 0);
    assert_true(k == 3 && n == 4);
    const char *bad[] = {"", "1", "4/4", "-1/2", "1/0", "1/", "/2", "1/2x", "0/1025", "a/b",
                         "99999999999999999999/2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(shard_parse(bad[i], &k, &n, why, sizeof why), -1);
        assert_non_null(strstr(why, "expected K/N"));
    }
    struct experiment *a = plan_parse("[experiment]\nname = a\nseed = 1\n[s]\n"
                                 "variants = host_naive gpu_naive\nopt_levels = 1\nshapes = 64x64x64 32x32x32\n");
    struct experiment *b = plan_parse("[experiment]\nname = b\nseed = 1\n[s]\n"
                                 "variants = host_naive gpu_naive\nopt_levels = 1\nshapes = 64x64x64 32x32x33\n");
    struct plan pa, pb;
    char err[512];
    if (plan_from_experiment(a, 0, "no GPU", &pa, err, sizeof err) != 0 ||
        plan_from_experiment(b, 0, "no GPU", &pb, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_true(pa.hash != pb.hash);
    assert_int_equal(shard_keep(&pa, a, 2, 2, -1, why, sizeof why), -1);
    assert_int_equal(shard_keep(&pa, a, 1, 2, -1, why, sizeof why), 0);
    assert_int_equal(pa.n, 2);   /* one shape's host point and GPU point: the lighter shape */
    assert_int_equal(pa.points[0].M, 32);
    plan_free(&pa);
    plan_free(&pb);
    plan_done(a);
    plan_done(b);
}

/* A configuration made for outputs of a few rows or columns (gpu_gemv's) is
 * planned only at the shapes it is for; elsewhere its points are skipped, by
 * design, saying why. */
static void configs_for_few_rows_skip_other_shapes(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_gemv\n"
                                 "shapes = 4x1000x100 1000x8x100 100x100x100\nconfigs = all\n"
                                 "splits = 0\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 6);
    int planned = 0;
    for (size_t i = 0; i < p.n; i++) {
        const struct point *pt = &p.points[i];
        const int rows = pt->tile == 256, fits = rows ? pt->M <= 8 : pt->N <= 8;
        if (fits) {
            assert_false(pt->skip && !pt->skip_env);
            planned++;
            continue;
        }
        assert_true(pt->skip && !pt->skip_env);
        assert_non_null(strstr(pt->skip_reason, rows ? "is for outputs of at most 8 rows (M = "
                                                     : "is for outputs of at most 8 columns (N = "));
    }
    assert_int_equal(planned, 2);
    plan_free(&p);
    plan_done(e);
}

/* configs = all: each rung at exactly the configurations it declares, nothing
 * skipped for a pair it lacks. */
static void all_configs_takes_each_rungs_own(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_warptiled tf32_wgmma_tma gpu_splitk cublas_fp32\n"
                                 "shapes = 100x200x300\nconfigs = all\nsplits = 0 4\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    size_t want = 1;   /* cuBLAS */
    const char *rungs[] = {"gpu_warptiled", "tf32_wgmma_tma", "gpu_splitk"};
    for (size_t r = 0; r < 3; r++) {
        const struct variant *v = registry_find(rungs[r]);
        size_t n = 0;
        for (const struct rung_config *c = v->configs; c->tile >= 0; c++) n++;
        want += n * ((registry_axes(v) & AXIS_SPLIT) ? 2 : 1);
    }
    assert_int_equal(p.n, want);
    for (size_t i = 0; i < p.n; i++) {
        const struct point *pt = &p.points[i];
        assert_false(pt->skip && !pt->skip_env);
        if (pt->v->device == DEV_GPU && pt->v->configs[0].block_rows)
            assert_non_null(rung_config_find(pt->v->configs, pt->tile, pt->wpt));
    }
    plan_free(&p);
    plan_done(e);
}

static void no_gpu_skips_gpu_points_with_reason(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_naive host_restrict\nsizes = 8\n"
                                 "opt_levels = 2\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 0, "no GPU: test", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 2);
    assert_true(p.points[0].skip && p.points[0].skip_env);
    if (MM_HAVE_CUDA) assert_string_equal(p.points[0].skip_reason, "no GPU: test");
    assert_false(p.points[1].skip);
    assert_int_equal(plan_count_runnable(&p), 1);
    plan_free(&p);
    plan_done(e);
}

static void host_memory_axis_applies_to_gpu_rungs_only(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_naive host_naive\nsizes = 8\n"
                                 "opt_levels = 2\nhost_memory = pinned pageable\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.points[0].host_memory, HOST_MEMORY_PINNED);
    assert_int_equal(p.points[1].host_memory, HOST_MEMORY_PAGEABLE);
    assert_int_equal(p.points[2].host_memory, HOST_MEMORY_NONE);
    plan_free(&p);
    plan_done(e);
}

static void unknown_variant_names_file_and_line(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n\n"
                                 "[g]\nsizes = 8\nvariants = gpu_naive gpu_warp_magic\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.ini:7:"));
    assert_non_null(strstr(err, "'gpu_warp_magic'"));
    assert_non_null(strstr(err, "gpu_tiled_wpt"));   /* lists what is known */
    plan_done(e);
}

static void variant_missing_its_axis_is_an_error(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_tiled\nsizes = 8\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.ini:4:"));
    assert_non_null(strstr(err, "needs 'tiles'"));
    plan_done(e);
}

const struct CMUnitTest plan_tests[] = {
    cmocka_unit_test(registry_is_the_ladder_in_order),
    cmocka_unit_test(registry_reasons),
    cmocka_unit_test(gpus_plan_what_they_can_run),
    cmocka_unit_test(expansion_uses_only_each_variants_axes),
    cmocka_unit_test(split_axis_applies_to_decomposition_rungs),
    cmocka_unit_test(all_configs_takes_each_rungs_own),
    cmocka_unit_test(stream_k_plans_compute_every_slice_once),
    cmocka_unit_test(tail_plans_compute_every_slice_once),
    cmocka_unit_test(dispatch_model_weighs_what_exists),
    cmocka_unit_test(held_out_shapes_are_not_tuned_on),
    cmocka_unit_test(every_shipped_experiment_plans),
    cmocka_unit_test(configs_for_few_rows_skip_other_shapes),
    cmocka_unit_test(no_gpu_skips_gpu_points_with_reason),
    cmocka_unit_test(host_memory_axis_applies_to_gpu_rungs_only),
    cmocka_unit_test(unknown_variant_names_file_and_line),
    cmocka_unit_test(variant_missing_its_axis_is_an_error),
    cmocka_unit_test(shards_of_shipped_plans),
    cmocka_unit_test(shard_arguments_and_hash),
};
const size_t plan_tests_count = sizeof plan_tests / sizeof plan_tests[0];
