/* GPU telemetry: windows over a fake source's scripted readings, the ring's
 * limit, failures, and NVML's absence. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/sampling.h"
#include "device/telemetry.h"

enum { FAKE_READINGS = 30, FAKE_SLOW_FROM = 20 };
#define PERIOD_MS 0.5
#define T0 1000.0   /* the fake's reading i is at T0 + i * PERIOD_MS */

/* Reading i: 1980 MHz for the first 20, then 1500 MHz with sw_power_cap; power
 * 100 + i W, instant power 200 + i / 4 W (a value that stays for 4 readings, as
 * a field refreshed more slowly than it is read); temperature 60 + i % 7 C.
 * Read number `fail_at` fails. */
struct fake {
    int i, fail_at, closed;
    int real_time;   /* times from now_ms() instead of the script */
};

static int fake_read(void *ctx, struct telemetry_reading *r, char *why, size_t len)
{
    struct fake *f = ctx;
    if (f->i == f->fail_at) {
        snprintf(why, len, "fake_read: reading %d failed", f->i);
        return -1;
    }
    const int slow = f->i >= FAKE_SLOW_FROM;
    *r = (struct telemetry_reading){.t_ms = f->real_time ? now_ms() : T0 + f->i * PERIOD_MS,
                                    .clock_mhz = slow ? 1500 : 1980, .power_w = 100 + f->i,
                                    .power_instant_w = 200 + f->i / 4,
                                    .temp_c = 60 + f->i % 7, .reasons = slow ? TELEMETRY_SW_POWER_CAP : 0};
    f->i++;
    return 0;
}

static void fake_close(void *ctx) { ((struct fake *)ctx)->closed = 1; }

static struct telemetry *start_fake(struct fake *f, size_t capacity)
{
    char why[256] = "";
    struct telemetry_source src = {.read = fake_read, .close = fake_close, .ctx = f, .name = "test",
                                   .max_clock_mhz = NAN, .capacity = capacity};
    struct telemetry *t = telemetry_start_source(src, PERIOD_MS, why, sizeof why);
    if (!t) fail_msg("telemetry_start_source: %s", why);
    return t;
}

/* Wait (2 s at most) until the sampler has stopped at the fake's failing read. */
static void wait_stopped(struct telemetry *t)
{
    const double give_up = now_ms() + 2000;
    while (!telemetry_error(t) && now_ms() < give_up) telemetry_sync(t, now_ms());
    assert_non_null(telemetry_error(t));
}

/* The fake's FAKE_READINGS readings, then its scripted failure. */
static struct telemetry *start_scripted(struct fake *f, size_t capacity)
{
    *f = (struct fake){.fail_at = FAKE_READINGS};
    struct telemetry *t = start_fake(f, capacity);
    wait_stopped(t);
    return t;
}

/* For the tests of windows: the fake's whole script in a ring that holds it. */
struct scripted {
    struct fake f;
    struct telemetry *t;
};

static int scripted_setup(void **state)
{
    struct scripted *sc = calloc(1, sizeof *sc);
    if (!sc) return -1;
    sc->t = start_scripted(&sc->f, 0);
    *state = sc;
    return 0;
}

static int scripted_teardown(void **state)
{
    struct scripted *sc = *state;
    telemetry_stop(sc->t);
    int closed = sc->f.closed;
    free(sc);
    return closed ? 0 : -1;
}

/* The readings in [T0 + a, T0 + b] summarised into *s; returns s->n. */
static int window(struct telemetry *t, double a, double b, struct telemetry_summary *s)
{
    telemetry_window(t, T0 + a, T0 + b, s);
    return s->n;
}

static void window_summarises_readings(void **state)
{
    struct telemetry *t = ((struct scripted *)*state)->t;
    struct telemetry_summary s;
    assert_int_equal(window(t, 0, (FAKE_READINGS - 1) * PERIOD_MS, &s), FAKE_READINGS);
    assert_true(s.clock_min == 1500 && s.clock_max == 1980);
    assert_true(fabs(s.clock_mean - (20 * 1980.0 + 10 * 1500.0) / 30) < 1e-9);
    assert_true(fabs(s.power_mean - 114.5) < 1e-9 && s.power_max == 129);
    assert_true(s.temp_max == 66);
    assert_true(s.reasons == TELEMETRY_SW_POWER_CAP);
    /* The first 20 alone: full clock, no reason. */
    assert_int_equal(window(t, -0.1, 19 * PERIOD_MS, &s), 20);
    assert_true(s.clock_min == 1980 && s.clock_mean == 1980 && s.reasons == 0);
    assert_string_equal(telemetry_source_name(t), "test");
    assert_true(isnan(telemetry_max_clock_mhz(t)));
}

/* How often each power reading changes: the average every reading, the instant
 * every 4; fewer than 4 changes in the window say nothing. */
static void refresh_is_the_period_values_change_at(void **state)
{
    struct telemetry *t = ((struct scripted *)*state)->t;
    const double end = T0 + (FAKE_READINGS - 1) * PERIOD_MS;
    assert_true(fabs(telemetry_refresh_ms(t, T0, end, TELEMETRY_POWER) - PERIOD_MS) < 1e-9);
    assert_true(fabs(telemetry_refresh_ms(t, T0, end, TELEMETRY_INSTANT) - 4 * PERIOD_MS) < 1e-9);
    assert_true(isnan(telemetry_refresh_ms(t, T0, T0 + 10 * PERIOD_MS, TELEMETRY_INSTANT)));
    assert_true(isnan(telemetry_refresh_ms(t, end, T0, TELEMETRY_POWER)));
    /* The first new value from a time on: the instant power takes one at
     * readings 4, 8, ...; the average at every reading. */
    assert_true(telemetry_first_change_ms(t, T0 + 0.1, end, TELEMETRY_INSTANT) == T0 + 4 * PERIOD_MS);
    assert_true(telemetry_first_change_ms(t, T0 + 4 * PERIOD_MS, end, TELEMETRY_INSTANT) ==
                T0 + 4 * PERIOD_MS);
    assert_true(telemetry_first_change_ms(t, T0 + 4.1 * PERIOD_MS, end, TELEMETRY_INSTANT) ==
                T0 + 8 * PERIOD_MS);
    assert_true(telemetry_first_change_ms(t, T0 + 4.1 * PERIOD_MS, end, TELEMETRY_POWER) ==
                T0 + 5 * PERIOD_MS);
    assert_true(telemetry_first_change_ms(t, T0, end, TELEMETRY_POWER) == T0 + PERIOD_MS);
    assert_true(isnan(telemetry_first_change_ms(t, T0 + 4.1 * PERIOD_MS, T0 + 7.9 * PERIOD_MS,
                                                TELEMETRY_INSTANT)));   /* not yet */
    assert_true(isnan(telemetry_first_change_ms(t, end, T0, TELEMETRY_INSTANT)));
    assert_true(isnan(telemetry_first_change_ms(NULL, T0, end, TELEMETRY_INSTANT)));
    struct telemetry_summary s;
    assert_int_equal(window(t, 0, 7 * PERIOD_MS, &s), 8);
    assert_true(s.instant_mean == 200.5 && s.instant_max == 201);
    assert_true(isnan(telemetry_power_limit_w(t)) || telemetry_power_limit_w(t) == 0);
}

static void short_window_gets_nearest_reading(void **state)
{
    struct telemetry *t = ((struct scripted *)*state)->t;
    struct telemetry_summary s;
    /* Between readings 4 (T0 + 2.0) and 5 (T0 + 2.5): 4 is nearer. */
    assert_int_equal(window(t, 2.1, 2.2, &s), 1);
    assert_true(s.power_mean == 104 && s.clock_min == 1980 && s.clock_max == 1980);
    /* Nearer the later one. */
    assert_int_equal(window(t, 2.3, 2.4, &s), 1);
    assert_true(s.power_mean == 105);
    /* Past the last reading (T0 + 14.5) by less than 2 periods. */
    assert_int_equal(window(t, 15.2, 15.3, &s), 1);
    assert_true(s.power_max == 129 && s.reasons == TELEMETRY_SW_POWER_CAP);
}

static void window_far_from_readings_is_empty(void **state)
{
    struct telemetry *t = ((struct scripted *)*state)->t;
    struct telemetry_summary s;
    assert_int_equal(window(t, 100, 101, &s), 0);
    assert_true(isnan(s.clock_min) && isnan(s.clock_mean) && isnan(s.clock_max));
    assert_true(isnan(s.power_mean) && isnan(s.power_max) && isnan(s.temp_max) && s.reasons == 0);
    assert_int_equal(window(t, -10, -5, &s), 0);
    assert_int_equal(window(t, 5, 1, &s), 0);   /* backwards */
}

static void readings_older_than_ring_are_gone(void **state)
{
    (void)state;
    struct fake f;
    struct telemetry *t = start_scripted(&f, 8);   /* keeps readings 22..29 */
    struct telemetry_summary s;
    assert_int_equal(window(t, 0, (FAKE_READINGS - 1) * PERIOD_MS, &s), 8);
    assert_true(s.clock_max == 1500 && s.power_mean == 125.5);
    assert_int_equal(window(t, 0, 5, &s), 0);   /* readings 0..10 */
    /* Just before reading 22, whose predecessor is gone: nothing, not 22. */
    assert_int_equal(window(t, 10.8, 10.9, &s), 0);
    telemetry_stop(t);
}

static void sync_waits_for_a_newer_reading(void **state)
{
    (void)state;
    struct fake f = {.fail_at = -1, .real_time = 1};
    struct telemetry *t = start_fake(&f, 0);
    const double t0 = now_ms();
    telemetry_sync(t, t0);
    struct telemetry_summary s;
    telemetry_window(t, t0, now_ms(), &s);
    assert_true(s.n >= 1);
    assert_null(telemetry_error(t));
    telemetry_stop(t);
    assert_int_equal(f.closed, 1);
}

static void reasons_text_names_bits(void **state)
{
    (void)state;
    char buf[128];
    assert_string_equal(telemetry_reasons_text(0, buf, sizeof buf), "none");
    assert_string_equal(telemetry_reasons_text(0xC, buf, sizeof buf), "sw_power_cap+hw_slowdown");
    assert_string_equal(telemetry_reasons_text(0x1, buf, sizeof buf), "gpu_idle");
    assert_string_equal(telemetry_reasons_text(TELEMETRY_THROTTLE_REASONS, buf, sizeof buf),
                        "sw_power_cap+hw_slowdown+sw_thermal_slowdown+hw_thermal_slowdown+"
                        "hw_power_brake_slowdown");
    assert_string_equal(telemetry_reasons_text(0x104 | 0x3000, buf, sizeof buf),
                        "sw_power_cap+display_clock_setting+0x3000");
    assert_string_equal(telemetry_reasons_text(0x10000, buf, sizeof buf), "0x10000");
    char tiny[6];
    assert_string_equal(telemetry_reasons_text(0xC, tiny, sizeof tiny), "sw_po");
}

static void failing_read_stops_and_says_why(void **state)
{
    (void)state;
    /* At the first read: no telemetry, the source closed, the reason given. */
    struct fake f = {.fail_at = 0};
    char why[256] = "";
    struct telemetry_source src = {.read = fake_read, .close = fake_close, .ctx = &f, .name = "test"};
    assert_null(telemetry_start_source(src, PERIOD_MS, why, sizeof why));
    assert_non_null(strstr(why, "fake_read: reading 0 failed"));
    assert_int_equal(f.closed, 1);
    /* No period: refused before any read, the source closed. */
    f = (struct fake){.fail_at = -1};
    assert_null(telemetry_start_source(src, 0, why, sizeof why));
    assert_non_null(strstr(why, "period"));
    assert_true(f.closed == 1 && f.i == 0);
    /* Later: sampling stops, the readings before stay, the error says why. */
    f = (struct fake){.fail_at = 5};
    struct telemetry *t = start_fake(&f, 0);
    wait_stopped(t);
    assert_non_null(strstr(telemetry_error(t), "fake_read: reading 5 failed"));
    struct telemetry_summary s;
    assert_int_equal(window(t, 0, 100, &s), 5);
    telemetry_sync(t, T0 + 100);   /* returns at once: sampling has stopped */
    telemetry_stop(t);
    assert_int_equal(f.closed, 1);
    assert_int_equal(f.i, 5);
}

static void null_telemetry_is_fine(void **state)
{
    (void)state;
    telemetry_stop(NULL);
    assert_null(telemetry_error(NULL));
    assert_true(isnan(telemetry_max_clock_mhz(NULL)));
    assert_string_equal(telemetry_source_name(NULL), "");
    struct telemetry_summary s;
    telemetry_window(NULL, 0, 1, &s);
    assert_true(s.n == 0 && isnan(s.clock_mean));
}

/* Without libnvidia-ml (this machine, most CI): NULL, and the reason names
 * NVML.  With it (a GPU host): it opens, or the reason names the bus id. */
static void nvml_start_says_why(void **state)
{
    (void)state;
    const char *bus = "00000000:00:00.0";
    char why[256] = "";
    struct telemetry *t = telemetry_start(bus, 10, why, sizeof why);
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        assert_null(t);
        assert_non_null(strstr(why, "NVML not found: "));
        assert_non_null(strstr(why, "libnvidia-ml.so.1"));
        return;
    }
    dlclose(lib);
    if (t) {
        assert_non_null(strstr(telemetry_source_name(t), "NVML"));
        telemetry_stop(t);
    } else {
        assert_non_null(strstr(why, bus));
    }
}

const struct CMUnitTest telemetry_tests[] = {
    cmocka_unit_test_setup_teardown(window_summarises_readings, scripted_setup, scripted_teardown),
    cmocka_unit_test_setup_teardown(short_window_gets_nearest_reading, scripted_setup, scripted_teardown),
    cmocka_unit_test_setup_teardown(window_far_from_readings_is_empty, scripted_setup, scripted_teardown),
    cmocka_unit_test_setup_teardown(refresh_is_the_period_values_change_at, scripted_setup,
                                    scripted_teardown),
    cmocka_unit_test(readings_older_than_ring_are_gone),
    cmocka_unit_test(sync_waits_for_a_newer_reading),
    cmocka_unit_test(reasons_text_names_bits),
    cmocka_unit_test(failing_read_stops_and_says_why),
    cmocka_unit_test(null_telemetry_is_fine),
    cmocka_unit_test(nvml_start_says_why),
};
const size_t telemetry_tests_count = sizeof telemetry_tests / sizeof telemetry_tests[0];
