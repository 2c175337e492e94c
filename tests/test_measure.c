/* The sampling rule and sample statistics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "core/sampling.h"

static void stats_of_known_samples(void **state)
{
    (void)state;
    const double ms[] = {4, 1, 3, 2};
    struct sample_stats s = sample_stats_of(ms, 4);
    assert_int_equal(s.n, 4);
    assert_true(s.min == 1 && s.max == 4 && s.median == 2.5 && s.mean == 2.5);
    assert_true(fabs(s.stddev - sqrt(5.0 / 3.0)) < 1e-12);
    assert_true(ms[0] == 4);   /* not reordered */
    const double one[] = {7};
    s = sample_stats_of(one, 1);
    assert_true(s.median == 7 && s.stddev == 0);
}

static void rule_needs_min_samples_and_time(void **state)
{
    (void)state;
    struct sampling_rule r = {.min_samples = 5, .max_samples = 100, .min_time_ms = 10,
                              .timeout_ms = 1000, .target_rel_stddev = 0.005,
                              .long_point_ms = 1e9};
    struct sample_acc a = {0};
    for (int i = 0; i < 4; i++) sample_acc_add(&a, 1.0);
    assert_int_equal(sampling_should_stop(&r, &a, 0), STOP_NONE);      /* < min_samples */
    for (int i = 4; i < 9; i++) sample_acc_add(&a, 1.0);
    assert_int_equal(sampling_should_stop(&r, &a, 0), STOP_NONE);      /* < min_time */
    sample_acc_add(&a, 1.0);
    assert_int_equal(sampling_should_stop(&r, &a, 0), STOP_CONVERGED);
    struct sample_acc noisy = {0};
    for (int i = 0; i < 20; i++) sample_acc_add(&noisy, (i % 2) ? 1.0 : 2.0);
    assert_int_equal(sampling_should_stop(&r, &noisy, 10), STOP_NONE);
    assert_int_equal(sampling_should_stop(&r, &noisy, 1000), STOP_TIMEOUT);
    for (int i = 20; i < 100; i++) sample_acc_add(&noisy, (i % 2) ? 1.0 : 2.0);
    assert_int_equal(sampling_should_stop(&r, &noisy, 10), STOP_MAX_SAMPLES);
}

/* The running spread equals the two-pass one (no cancellation at 100 000 samples
 * of a large mean). */
static void running_spread_matches_two_pass(void **state)
{
    (void)state;
    enum { N = 100000 };
    static double ms[N];
    struct sample_acc a = {0};
    for (int i = 0; i < N; i++) {
        ms[i] = 1000.0 + 0.001 * ((i * 7919) % 1000);
        sample_acc_add(&a, ms[i]);
    }
    struct sample_stats s = sample_stats_of(ms, N);
    assert_true(fabs(a.mean - s.mean) < 1e-9 * s.mean);
    assert_true(fabs(sqrt(a.m2 / (N - 1)) - s.stddev) < 1e-6 * s.stddev);
}

static void long_point_stops_early(void **state)
{
    (void)state;
    struct sampling_rule r = sampling_default_host();
    struct sample_acc a = {0}, b = {0};
    sample_acc_add(&a, r.long_point_ms + 1);
    assert_int_equal(sampling_should_stop(&r, &a, 0), STOP_LONG_POINT);
    sample_acc_add(&b, r.long_point_ms - 1);
    assert_int_equal(sampling_should_stop(&r, &b, 0), STOP_NONE);
    assert_string_equal(stop_rule_name(STOP_LONG_POINT), "long_point");
}

static void defaults_are_sane(void **state)
{
    (void)state;
    struct sampling_rule g = sampling_default_gpu(), h = sampling_default_host();
    assert_true(g.min_samples >= 10 && h.min_samples >= 3);
    assert_true(g.target_rel_stddev == 0.005);
    assert_true(h.long_point_ms == 10000.0);
}

/* Student's t at 97.5%: the table's ends and the large-sample limit. */
static void t_quantiles_and_intervals(void **state)
{
    (void)state;
    assert_true(fabs(t_quantile_975(1) - 12.706) < 1e-3);
    assert_true(fabs(t_quantile_975(9) - 2.262) < 1e-3);
    assert_true(fabs(t_quantile_975(60) - 2.000) < 3e-3);
    assert_true(fabs(t_quantile_975(100000) - 1.960) < 1e-3);
    assert_true(isinf(t_quantile_975(0)));
    /* 1, 2, 3: mean 2, s = 1, half-width t(2) / sqrt(3) */
    struct sample_acc a = {0};
    assert_true(isinf(sample_ci95(&a)));
    for (int i = 1; i <= 3; i++) sample_acc_add(&a, i);
    assert_true(fabs(sample_ci95(&a) - 4.303 / sqrt(3.0)) < 1e-3);
}

/* Paired sampling converges only once the ratio's interval is narrow enough;
 * a sample of several launches counts all of them towards min_time_ms. */
static void paired_rule_and_launches(void **state)
{
    (void)state;
    struct sampling_rule r = sampling_default_gpu();
    struct sample_acc a = {0}, ratio = {0};
    for (int i = 0; i < 10; i++) {
        sample_acc_add_launches(&a, 1.0, 6);   /* 10 samples of 6 ms */
        sample_acc_add(&ratio, i % 2 ? 0.5 : 0.6);   /* a ratio that wanders 20% */
    }
    assert_true(fabs(a.total - 60.0) < 1e-9);
    assert_int_equal(sampling_should_stop(&r, &a, 1.0), STOP_CONVERGED);
    assert_int_equal(sampling_should_stop_paired(&r, &a, &ratio, 1.0), STOP_NONE);
    assert_int_equal(sampling_should_stop_paired(&r, &a, &ratio, r.timeout_ms), STOP_TIMEOUT);
    struct sample_acc steady = {0};
    for (int i = 0; i < 10; i++) sample_acc_add(&steady, 0.5);
    assert_int_equal(sampling_should_stop_paired(&r, &a, &steady, 1.0), STOP_CONVERGED);
    /* the clock: within 1%, not beyond, and never with an unknown value */
    assert_true(clock_settled(1980, 1965));
    assert_false(clock_settled(1980, 1900));
    assert_false(clock_settled(NAN, 1980));
    assert_true(r.capped_sample_ms > r.min_sample_ms && r.warmup_max_ms > r.warmup_min_ms);
    assert_true(r.shape_warmup_ms >= r.warmup_min_ms && r.warmup_window_ms <= r.warmup_min_ms);
}

/* A paired point within 10% of its reference samples on to the parity
 * timeout while its interval is wide; one far from it stops at the timeout. */
static void points_near_parity_sample_longer(void **state)
{
    (void)state;
    struct sampling_rule r = sampling_default_gpu();
    r.parity_timeout_ms = 8 * r.timeout_ms;
    struct sample_acc a = {0}, near = {0}, far = {0};
    for (int i = 0; i < 10; i++) {
        sample_acc_add_launches(&a, 1.0, 6);
        sample_acc_add(&near, i % 2 ? 0.95 : 1.05);   /* mean 1.00, +-5% */
        sample_acc_add(&far, i % 2 ? 0.475 : 0.525);  /* mean 0.50, +-5% */
    }
    assert_int_equal(sampling_should_stop_paired(&r, &a, &near, r.timeout_ms), STOP_NONE);
    assert_int_equal(sampling_should_stop_paired(&r, &a, &near, r.parity_timeout_ms),
                     STOP_TIMEOUT);
    assert_int_equal(sampling_should_stop_paired(&r, &a, &far, r.timeout_ms), STOP_TIMEOUT);
    /* the minimum samples still come first, and a narrow interval still stops */
    struct sample_acc few = {0};
    for (int i = 0; i < 3; i++) sample_acc_add_launches(&few, 1.0, 6);
    assert_int_equal(sampling_should_stop_paired(&r, &few, &near, r.parity_timeout_ms), STOP_NONE);
    struct sample_acc level = {0};
    for (int i = 0; i < 10; i++) sample_acc_add(&level, 1.0 + (i % 2 ? 1e-4 : -1e-4));
    assert_int_equal(sampling_should_stop_paired(&r, &a, &level, 1.0), STOP_CONVERGED);
    /* off (the default): the parity timeout never extends the timeout */
    r.parity_timeout_ms = 0;
    assert_int_equal(sampling_should_stop_paired(&r, &a, &near, r.timeout_ms), STOP_TIMEOUT);
}

const struct CMUnitTest measure_tests[] = {
    cmocka_unit_test(stats_of_known_samples),
    cmocka_unit_test(rule_needs_min_samples_and_time),
    cmocka_unit_test(running_spread_matches_two_pass),
    cmocka_unit_test(long_point_stops_early),
    cmocka_unit_test(defaults_are_sane),
    cmocka_unit_test(t_quantiles_and_intervals),
    cmocka_unit_test(paired_rule_and_launches),
    cmocka_unit_test(points_near_parity_sample_longer),
};
const size_t measure_tests_count = sizeof measure_tests / sizeof measure_tests[0];
