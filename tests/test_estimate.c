/* The plan's estimate (host points beside GPU points, parity and warm-ups,
 * tiles and input sets), corpora drawn from their seeds, points of PTX-compiled
 * code, and every shipped experiment planned without a warning. */
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

/* The estimate: GPU points one after another, each shape's set-up once however
 * many sweeps visit it, host points beside them; a slow rung's samples are not
 * multiplied by the launches its fast reference needs. */
static void estimate_runs_host_points_beside_gpu_points(void **state)
{
    (void)state;
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[a]\nvariants = gpu_naive_global\nsizes = 4096 256\n"
                                 "[b]\nvariants = gpu_naive\nsizes = 256 4096\n"
                                 "[h]\nvariants = host_naive\nsizes = 256\nopt_levels = 1 2\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    struct plan_estimate est;
    plan_estimate(&p, e, &est);
    double gpu = 0, host = 0;
    for (size_t i = 0; i < p.n; i++)
        *(p.points[i].v->device == DEV_HOST ? &host : &gpu) += point_estimate_s(&p.points[i], e);
    assert_true(fabs(est.host_s - host) < 1e-9 && host > 0);
    const double per_shape = PLAN_SHAPE_MS / 1e3 +
                             (e->gpu_rule.shape_warmup_ms - e->gpu_rule.warmup_min_ms) / 1e3;
    const double inputs = (2.0 * 4096 * 4096 + 2.0 * 256 * 256) * PLAN_INPUT_NS_PER_ELEM * 1e-9;
    if (MM_HAVE_CUDA) assert_true(fabs(est.gpu_s - (gpu + 2 * per_shape + inputs)) < 1e-9);
    assert_true(est.total_s == (est.gpu_s > est.host_s ? est.gpu_s : est.host_s));
    /* gpu_naive_global at 4096^3 (about 90 ms a launch at its nominal rate),
     * paired with cuBLAS (about 3 ms): ten samples of one launch each and ten
     * of the reference, not ten of as many launches as cuBLAS needs */
    const struct point *slow = &p.points[0];
    assert_int_equal(slow->M, 4096);
    const double one = point_flops(slow) / (slow->v->nominal_gflops * 1e9);
    const double t = point_estimate_s(slow, e);
    /* (a build without CUDA has skipped the GPU points: they take no time) */
    if (MM_HAVE_CUDA)
        assert_true(t > e->gpu_rule.min_samples * one && t < 2 * e->gpu_rule.min_samples * one);
    else
        assert_true(t == 0 && est.gpu_s == 0);
    plan_free(&p);
    plan_done(e);
}

/* What the run's own rows showed the estimate lacked: a TF32 pair expected
 * near parity under the power cap samples until the parity timeout; longer
 * launches warm up longer. */
static void estimate_counts_parity_and_warmups(void **state)
{
    (void)state;
    if (!MM_HAVE_CUDA) skip();   /* without CUDA every GPU point is skipped already */
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[sampling]\ngpu_parity_timeout_ms = 4000\n"
                                 "[w]\nvariants = tf32_wgmma_tma\nsizes = 4096\ntiles = 128\n"
                                 "[a]\nvariants = tf32_wgmma_tma\nsizes = 4096\ntiles = 128\n"
                                 "pairing = none\n"
                                 "[f]\nvariants = gpu_async_copy\nsizes = 4096\ntiles = 128\n"
                                 "wpts = 64\n"
                                 "[s]\nvariants = gpu_naive_global\nsizes = 512 4096\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 5);
    const double paired = point_estimate_s(&p.points[0], e), alone = point_estimate_s(&p.points[1], e);
    const double fp32 = point_estimate_s(&p.points[2], e);
    assert_true(paired >= 4.0);                  /* the parity timeout */
    assert_true(alone < 1.0 && fp32 < 1.0);      /* no pair, or FP32: no parity wait */
    /* gpu_naive_global: about 0.09 ms a launch at 512, 90 ms at 4096; the
     * warm-up runs it beside its reference, a pair of samples at a time, each
     * at least min_sample_ms */
    const double ms = e->gpu_rule.min_sample_ms;
    const double w512 = PLAN_WARM_MS * pow(2 * ms, PLAN_WARM_POWER);
    const double w4096 = PLAN_WARM_MS * pow(point_flops(&p.points[4]) /
                                            (p.points[4].v->nominal_gflops * 1e6) + ms,
                                            PLAN_WARM_POWER);
    assert_true(w4096 > 2 * w512);
    assert_true(point_estimate_s(&p.points[3], e) < point_estimate_s(&p.points[4], e) / 5);
    assert_true(point_estimate_s(&p.points[4], e) > e->gpu_rule.min_samples * 0.09 + w4096 / 1e3);
    plan_free(&p);
    plan_done(e);
}

/* A kernel's time is its waves of tiles, not its FLOPs at the nominal rate: at
 * a small C a tile larger than C costs a whole tile; and a launch shorter than
 * a sample is repeated over every input set, so a slow rung samples longer. */
static void estimate_counts_tiles_and_input_sets(void **state)
{
    (void)state;
    if (!MM_HAVE_CUDA) skip();   /* without CUDA every GPU point is skipped already */
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[sampling]\ngpu_min_sample_ms = 1\n"
                                 "[s]\nvariants = gpu_async_copy\nshapes = 64x64x4096\n"
                                 "tiles = 64 256\nwpts = 64\n");
    struct plan p;
    char err[512];
    assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.points[1].cfg->block_rows * p.points[1].cfg->block_cols, 128 * 256);
    /* 64 x 64 x 4096 at the nominal rate: 0.75 us, under the launch's own
     * cost; a 128 x 256 tile does eight times the work of a 64 x 64 one, in
     * one block on one SM: ~0.8 ms, sampled over ~100 input sets */
    const double small = point_estimate_s(&p.points[0], e), big = point_estimate_s(&p.points[1], e);
    assert_true(big > 1.5 * small);
    assert_true(big > e->gpu_rule.min_samples * 100 * 0.15e-3);
    plan_free(&p);
    plan_done(e);
}

/* A corpus: the same shapes from the same seed, others from another, each in
 * its range and FLOP window, none repeating a listed shape; log-uniform, so
 * the dimensions' logarithms spread evenly; a window no draw reaches is an
 * error at the corpus line. */
static void corpus_draws_the_same_shapes_from_a_seed(void **state)
{
    (void)state;
    char text[512];
    struct plan p[3];
    char err[512];
    for (int k = 0; k < 3; k++) {
        snprintf(text, sizeof text,
                 "[experiment]\nname = t\nseed = 1\n[c]\nvariants = host_naive\n"
                 "opt_levels = 1\nsizes = 64\ncorpus = loguniform 400\ncorpus_seed = %d\n"
                 "corpus_range = 1 4096\ncorpus_flops = 1e5 1e10\n", k == 2 ? 8 : 7);
        struct experiment *e = plan_parse(text);
        assert_int_equal(plan_from_experiment(e, 1, "", &p[k], err, sizeof err), 0);
        plan_done(e);
        assert_int_equal(p[k].n, 401);
    }
    int same = 1, differ = 0, low = 0;
    for (size_t i = 0; i < 401; i++) {
        const struct point *a = &p[0].points[i], *b = &p[1].points[i], *c = &p[2].points[i];
        same &= a->M == b->M && a->N == b->N && a->K == b->K;
        differ += a->M != c->M || a->N != c->N || a->K != c->K;
        const double flops = point_flops(a);
        if (i == 0) {
            assert_true(a->M == 64 && a->N == 64 && a->K == 64 && a->line == 7);
            continue;
        }
        assert_int_equal(a->line, 8);
        assert_true(a->M >= 1 && a->M <= 4096 && a->N >= 1 && a->N <= 4096 && a->K <= 4096);
        assert_true(flops >= 1e5 && flops <= 1e10);
        assert_false(a->M == 64 && a->N == 64 && a->K == 64);
        for (size_t j = 1; j < i; j++) {
            const struct point *o = &p[0].points[j];
            assert_false(o->M == a->M && o->N == a->N && o->K == a->K);
        }
        low += a->K <= 64;   /* log-uniform over 1..4096: K <= 64 about half the time */
    }
    assert_true(same);
    assert_true(differ > 390);
    assert_true(low > 120 && low < 280);
    for (int k = 0; k < 3; k++) plan_free(&p[k]);

    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n[c]\nvariants = host_naive\n"
                                 "opt_levels = 1\ncorpus = loguniform 5\ncorpus_seed = 1\n"
                                 "corpus_range = 1 2\ncorpus_flops = 100 200\n");
    struct plan q;
    assert_int_equal(plan_from_experiment(e, 1, "", &q, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.ini:7: sweep [c]: corpus: no new shape of 1..2"));
    plan_done(e);
}

/* The listed corpora: Llama 3's 480 layer shapes (2 models x 4 projections x
 * 4 tensor-parallel splits x 15 token counts) and DeepBench's 166 GEMM sizes,
 * each with two shapes it must hold; the tuning and held-out halves disjoint
 * and together the whole; a range keeping only the shapes within it. */
static void listed_corpora_halves_cover_them(void **state)
{
    (void)state;
    static const char *const parts[3] = {"all", "tuning", "heldout"};
    static const struct {
        const char *name;
        size_t n;
        int must[2][3];
    } corpora[] = {{"llama3", 480, {{1, 6144, 4096}, {16384, 8192, 28672 / 8}}},
                   {"deepbench", 166, {{35, 8457, 1760}, {512, 8, 500000}}}};
    char text[512], err[512];
    for (size_t c = 0; c < 2; c++) {
        struct plan p[3];
        for (int k = 0; k < 3; k++) {
            snprintf(text, sizeof text,
                     "[experiment]\nname = t\nseed = 1\n[c]\nvariants = host_naive\n"
                     "opt_levels = 1\ncorpus = %s %s\ncorpus_seed = 9\n", corpora[c].name,
                     parts[k]);
            struct experiment *e = plan_parse(text);
            assert_int_equal(plan_from_experiment(e, 1, "", &p[k], err, sizeof err), 0);
            plan_done(e);
        }
        assert_int_equal(p[0].n, corpora[c].n);
        assert_int_equal(p[1].n + p[2].n, corpora[c].n);
        assert_true(p[1].n > corpora[c].n / 3 && p[2].n > corpora[c].n / 3);
        int must[2] = {0, 0};
        for (size_t i = 0; i < p[0].n; i++) {
            const struct point *a = &p[0].points[i];
            for (int m = 0; m < 2; m++)
                must[m] += a->M == corpora[c].must[m][0] && a->N == corpora[c].must[m][1] &&
                           a->K == corpora[c].must[m][2];
            int in = 0;
            for (int k = 1; k < 3; k++)
                for (size_t j = 0; j < p[k].n; j++)
                    in += p[k].points[j].M == a->M && p[k].points[j].N == a->N &&
                          p[k].points[j].K == a->K;
            assert_int_equal(in, 1);   /* in exactly one half */
        }
        assert_true(must[0] == 1 && must[1] == 1);
        for (int k = 0; k < 3; k++) plan_free(&p[k]);
    }

    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n[c]\nvariants = host_naive\n"
                                 "opt_levels = 1\ncorpus = llama3 all\ncorpus_seed = 9\n"
                                 "corpus_range = 1 8192\n");
    struct plan q;
    assert_int_equal(plan_from_experiment(e, 1, "", &q, err, sizeof err), 0);
    assert_true(q.n > 0 && q.n < 480);
    for (size_t i = 0; i < q.n; i++)
        assert_true(q.points[i].M <= 8192 && q.points[i].N <= 8192 && q.points[i].K <= 8192);
    plan_free(&q);
    plan_done(e);
}

/* A binary with no machine code for the GPU runs our kernels from PTX, which
 * the driver compiles at each kernel's first launch: the plan marks those
 * first points (not cuBLAS's, not the sm_90a rung's, which has its own image,
 * and each configuration once), and the estimate counts the compilation. */
static void points_compiled_from_ptx_are_marked_once(void **state)
{
    (void)state;
    if (!MM_HAVE_CUDA) skip();   /* without CUDA every GPU point is skipped already */
    struct experiment *e = plan_parse("[experiment]\nname = t\nseed = 1\n"
                                 "[g]\nvariants = gpu_tiled cublas_fp32 tf32_wgmma_tma\n"
                                 "sizes = 64 128\ntiles = 8 16 128\n");
    const struct {
        const char *flags;
        int first;                 /* points marked */
    } builds[] = {
        {"-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80", 0},
        {"-gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80", 2},
    };
    for (size_t b = 0; b < 2; b++) {
        struct plan p;
        char err[512];
        assert_int_equal(plan_from_experiment(e, 1, "", &p, err, sizeof err), 0);
        const struct gpu_caps h100 = {"H100", 90, 227 * 1024, builds[b].flags};
        plan_apply_gpu(&p, &h100);
        int first = 0;
        for (size_t i = 0; i < p.n; i++) {
            const struct point *pt = &p.points[i];
            if (!pt->jit_first) continue;
            first++;
            assert_string_equal(pt->v->name, "gpu_tiled");
            assert_int_equal(pt->M, 64);
            struct point same = *pt;
            same.jit_first = 0;
            assert_true(point_estimate_s(pt, e) - point_estimate_s(&same, e) > PLAN_JIT_MS / 2e3);
        }
        assert_int_equal(first, builds[b].first);
        plan_free(&p);
    }
    plan_done(e);
}

static void shipped_experiments_plan_cleanly(void **state)
{
    (void)state;
    const char *const *files = TEST_SHIPPED_EXPERIMENTS;
    for (size_t i = 0; files[i]; i++) {
        struct experiment *e = calloc(1, sizeof *e);
        char err[512];
        if (experiment_load(files[i], e, err, sizeof err) != 0) fail_msg("%s", err);
        struct plan p;
        if (plan_from_experiment(e, 1, "", &p, err, sizeof err) != 0) fail_msg("%s", err);
        /* Every file has points that run, here or on a GPU: in a build without
         * CUDA the GPU points are skipped for want of this machine, not by design. */
        size_t would_run = 0;
        for (size_t k = 0; k < p.n; k++) {
            would_run += !p.points[k].skip || p.points[k].skip_env;
            if (p.points[k].skip && !p.points[k].skip_env)   /* by design: unbuilt pairs only */
                assert_non_null(strstr(p.points[k].skip_reason, "not a configuration of"));
        }
        if (would_run == 0) fail_msg("%s: no point would run on any machine", files[i]);
        plan_free(&p);
        plan_done(e);
    }
}

/* Python that imports scripts/fit-dispatch.py as f (run with -B: no bytecode
 * is written beside it, and the clone stays as cloned). */
#define IMPORT_FIT                                                                              \
    "import importlib.util as u\n"                                                               \
    "s = u.spec_from_file_location('fit', 'scripts/fit-dispatch.py'); f = u.module_from_spec(s)\n" \
    "s.loader.exec_module(f)\n"

/* scripts/fit-dispatch.py's non-negative least squares on planted systems: an
 * exact one it recovers, and one whose unconstrained solution has a negative
 * constant, which it must hold at zero where the residual's gradient says so
 * (Kuhn-Tucker: no zero constant whose increase would lower the error). */
static void dispatch_fit_solves_planted_nonnegative_systems(void **state)
{
    (void)state;
    static const char code[] =
        IMPORT_FIT
        "X = [[1, 0, 2], [0, 1, 1], [1, 1, 0], [2, 1, 1], [1, 3, 1]]\n"
        "c = f.nnls(X, [2 * r[0] + 0 * r[1] + 3 * r[2] for r in X])\n"
        "print('exact', ' '.join('%.9f' % v for v in c))\n"
        "Y = [[1, 1], [1, 2], [1, 3], [1, 4]]\n"
        "y = [4, 3, 2, 1]\n"   /* least squares: 5 - x, the slope negative */
        "c = f.nnls(Y, y)\n"
        "g = [sum(r[i] * (sum(a * b for a, b in zip(r, c)) - t) for r, t in zip(Y, y)) for i in range(2)]\n"
        "print('clamped', '%.9f %.9f' % tuple(c), 'kkt', all(v >= -1e-9 for v in g))\n";
    char *argv[] = {"python3", "-B", "-c", (char *)code, NULL};
    char *out = NULL, *err = NULL;
    const int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("python3 exited %d: %s", rc, err);
    assert_non_null(strstr(out, "exact 2.000000000 0.000000000 3.000000000\n"));
    /* the best non-negative fit of 4 3 2 1 by a + b x: b = 0, a = their mean */
    assert_non_null(strstr(out, "clamped 2.500000000 0.000000000 kkt True\n"));
    free(out);
    free(err);
}

/* The model fitted on the shipped tuning corpus v2: every part named, each
 * precision judged under the folds asked for and with each part left out. */
static void dispatch_fit_judges_the_tuning_corpus(void **state)
{
    (void)state;
    char files[TUNING2_PARTS][512];
    test_tuning2_files(files);
    char *out = test_fit_dispatch(files, "--folds", "2");
    for (int p = 0; p < 2; p++) {
        const char *prec = p ? "tf32" : "fp32";
        char want[600];
        snprintf(want, sizeof want, "%s, 2-fold: ", prec);
        const char *at = strstr(out, want);
        if (!at) fail_msg("no '%s' line: %s", want, out);
        double median = 0, p90 = 0, within = -1;
        const char *r = strstr(at, "regret median");
        if (!r || sscanf(r, "regret median %lf, p90 %lf, within 10%% %lf", &median,
                   &p90, &within) != 3)
            fail_msg("%s's line unread: %.200s", prec, at);
        /* a regret is the pick's time over the fastest's: never under 1 */
        assert_true(median >= 1.0 && p90 >= median && within >= 0 && within <= 100);
        for (int i = 0; i < TUNING2_PARTS; i++) {
            snprintf(want, sizeof want, "%s, without %s", prec, strrchr(files[i], '/') + 1);
            if (!strstr(out, want)) fail_msg("no line '%s'", want);
        }
    }
    free(out);
}

/* kernels/dispatch_model_table.c is what scripts/fit-dispatch.py --emit-c fits
 * from the shipped tuning corpus v2, byte for byte: constants edited by hand,
 * or runs replaced without fitting again, fail here. */
static void dispatch_model_table_is_fitted_from_the_tuning_runs(void **state)
{
    (void)state;
    char files[TUNING2_PARTS][512];
    test_tuning2_files(files);
    char *out = test_fit_dispatch(files, "--emit-c", NULL);
    char *table = test_read_file("kernels/dispatch_model_table.c", NULL);
    assert_non_null(table);
    assert_string_equal(table, out);
    /* one candidate a configuration and alignment, each with its constants */
    assert_true(dispatch_model_count > 0);
    for (int i = 0; i < dispatch_model_count; i++)
        for (int t = 0; t < DISPATCH_TERMS; t++) assert_true(dispatch_model[i].c[t] >= 0);
    free(table);
    free(out);
}

/* The model's terms in C are the script's to the last bit, at plans of every
 * kind: a tile cut in K (a second pass, and a last part that adds), a grid
 * under one wave and over several, a rung without a block tile (0 x 0). */
static void dispatch_model_terms_are_the_scripts(void **state)
{
    (void)state;
    static const struct {
        int M, N, K;
        struct dispatch_plan p;
    } at[] = {
        {2999, 3001, 2997, {128, 128, 768, 2, 5, 1}},
        {1000, 1000, 3000, {64, 128, 384, 3, 3, 1}},
        {9000, 33, 7000, {256, 16, 216, 2, 2, 2}},
        {3337, 4, 1564, {0, 0, 27, 8, 3, 2}},
        {16384, 16384, 16384, {256, 128, 4096, 1, 1, 1}},
        {1, 1, 1, {16, 128, 1, 1, 1, 1}},
    };
    enum { N_AT = sizeof at / sizeof at[0] };
    char code[4096];
    int n = snprintf(code, sizeof code,
                     IMPORT_FIT
                     "for shape, plan in [");
    for (int i = 0; i < N_AT; i++)
        n += snprintf(code + n, sizeof code - (size_t)n, "((%d, %d, %d), (%d, %d, %d, %d, %d, %d)), ",
                      at[i].M, at[i].N, at[i].K, at[i].p.block_rows, at[i].p.block_cols,
                      at[i].p.grid_blocks, at[i].p.blocks_per_sm, at[i].p.k_splits, at[i].p.launches);
    snprintf(code + n, sizeof code - (size_t)n,
             "]:\n    print(' '.join('%%.17g' %% v for v in f.features(shape, plan, 132)))\n");
    char *argv[] = {"python3", "-B", "-c", code, NULL};
    char *out = NULL, *err = NULL;
    const int rc = test_run(argv, &out, &err);
    if (rc != 0) fail_msg("python3 exited %d: %s", rc, err);
    char *line = out;
    for (int i = 0; i < N_AT; i++) {
        double f[DISPATCH_TERMS];
        dispatch_model_features(at[i].M, at[i].N, at[i].K, &at[i].p, 132, f);
        for (int t = 0; t < DISPATCH_TERMS; t++) {
            char *end = NULL;
            const double want = strtod(line, &end);
            if (end == line) fail_msg("plan %d: the script printed too few terms: %s", i, out);
            if (f[t] != want) fail_msg("plan %d, term %d: C %.17g, the script %.17g", i, t, f[t], want);
            line = end;
        }
        /* the time: the constants times the terms, in their order */
        const struct dispatch_candidate *c = &dispatch_model[i % dispatch_model_count];
        double t = 0;
        for (int k = 0; k < DISPATCH_TERMS; k++) t += c->c[k] * f[k];
        assert_true(dispatch_model_time(c, at[i].M, at[i].N, at[i].K, &at[i].p, 132) == t);
    }
    free(out);
    free(err);
}

const struct CMUnitTest estimate_tests[] = {
    cmocka_unit_test(estimate_runs_host_points_beside_gpu_points),
    cmocka_unit_test(estimate_counts_parity_and_warmups),
    cmocka_unit_test(estimate_counts_tiles_and_input_sets),
    cmocka_unit_test(corpus_draws_the_same_shapes_from_a_seed),
    cmocka_unit_test(listed_corpora_halves_cover_them),
    cmocka_unit_test(points_compiled_from_ptx_are_marked_once),
    cmocka_unit_test(shipped_experiments_plan_cleanly),
    cmocka_unit_test(dispatch_fit_solves_planted_nonnegative_systems),
    cmocka_unit_test(dispatch_fit_judges_the_tuning_corpus),
    cmocka_unit_test(dispatch_model_table_is_fitted_from_the_tuning_runs),
    cmocka_unit_test(dispatch_model_terms_are_the_scripts),
};
const size_t estimate_tests_count = sizeof estimate_tests / sizeof estimate_tests[0];
