/* The sampling rule and sample statistics. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "measure.h"

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
    double ms[100];
    for (int i = 0; i < 100; i++) ms[i] = 1.0;
    assert_int_equal(sampling_should_stop(&r, ms, 4, 0), STOP_NONE);      /* < min_samples */
    assert_int_equal(sampling_should_stop(&r, ms, 9, 0), STOP_NONE);      /* < min_time */
    assert_int_equal(sampling_should_stop(&r, ms, 10, 0), STOP_CONVERGED);
    for (int i = 0; i < 100; i++) ms[i] = (i % 2) ? 1.0 : 2.0;             /* noisy */
    assert_int_equal(sampling_should_stop(&r, ms, 20, 10), STOP_NONE);
    assert_int_equal(sampling_should_stop(&r, ms, 20, 1000), STOP_TIMEOUT);
    assert_int_equal(sampling_should_stop(&r, ms, 100, 10), STOP_MAX_SAMPLES);
}

static void long_point_stops_early(void **state)
{
    (void)state;
    struct sampling_rule r = sampling_default_host();
    double ms[] = {r.long_point_ms + 1};
    assert_int_equal(sampling_should_stop(&r, ms, 1, 0), STOP_LONG_POINT);
    ms[0] = r.long_point_ms - 1;
    assert_int_equal(sampling_should_stop(&r, ms, 1, 0), STOP_NONE);
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

const struct CMUnitTest measure_tests[] = {
    cmocka_unit_test(stats_of_known_samples),
    cmocka_unit_test(rule_needs_min_samples_and_time),
    cmocka_unit_test(long_point_stops_early),
    cmocka_unit_test(defaults_are_sane),
};
const size_t measure_tests_count = sizeof measure_tests / sizeof measure_tests[0];
