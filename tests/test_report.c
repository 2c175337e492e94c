/* What people read, as text: the number formatting of the exports and the
 * derived views (harness/util/numtext.c) writes exactly what printf writes. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/numtext.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* A value of one of seven kinds: any bit pattern (NaNs, infinities,
 * subnormals and huge exponents included), log-uniform over 10^-20..10^20 of
 * either sign, whole numbers, short decimals, values that sit on a tie of the
 * ninth digit and of the sixth, and the doubles next to powers of ten. */
static double value_of_kind(uint64_t r, int kind)
{
    double v;
    switch (kind) {
    case 0:
        memcpy(&v, &r, sizeof v);
        return v;
    case 1:
        return pow(10, (double)(r % 4000) / 100.0 - 20) * ((r >> 40) & 1 ? -1 : 1);
    case 2:
        return (double)(int64_t)(r % 2000000000) - 1e9;
    case 3:
        return (double)(r % 100000000) / pow(10, (double)((r >> 32) % 12));
    case 4:
        return ((double)(r % 1000000000) + 0.5) * pow(10, (double)((int)((r >> 32) % 30) - 15));
    case 5:
        return ((double)(r % 1000000) + 0.5) * pow(10, (double)((int)((r >> 32) % 30) - 15));
    default:
        v = pow(10, (double)((int)(r % 40) - 15));
        return nextafter(v, (r >> 8) & 1 ? 0 : INFINITY);
    }
}

/* numtext_g9 or numtext_g6 against snprintf's "%.9g" or "%.6g" */
static void g_is_printf(int prec, size_t (*g)(char *, double))
{
    uint64_t s = 88172645463325252ull;
    char want[64], got[NUMTEXT_MAX];
    size_t differ = 0;
    for (int i = 0; i < 3000000; i++) {
        const double v = value_of_kind(next(&s), i % 7);
        const int n = snprintf(want, sizeof want, "%.*g", prec, v);
        const size_t len = g(got, v);
        if (len != (size_t)n || strcmp(want, got) != 0) {
            if (differ++ < 5) print_message("%.17g: printf '%s', numtext '%s'\n", v, want, got);
        }
    }
    const double odd[] = {NAN,         -NAN,        INFINITY, -INFINITY, 0.0,  -0.0, 5e-324,
                          1e-5,        1e-4,        123456789.5, 999999999.5, 1e9, 1e29, 1e30,
                          0.1,         1.5,         -2.5e-7,  123456.5,  999999.5, 1e6, 1e27,
                          1e28,        9.999995e-5, 0.00099999949, 2.675, 33.3335};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        snprintf(want, sizeof want, "%.*g", prec, odd[i]);
        g(got, odd[i]);
        if (strcmp(want, got) != 0 && differ++ < 10)
            print_message("%.17g: printf '%s', numtext '%s'\n", odd[i], want, got);
    }
    assert_int_equal(differ, 0);
}

static void g9_is_printf(void **state)
{
    (void)state;
    g_is_printf(9, numtext_g9);
}

static void g6_is_printf(void **state)
{
    (void)state;
    g_is_printf(6, numtext_g6);
}

static void int_is_printf(void **state)
{
    (void)state;
    const long long v[] = {0, 1, -1, 9, 10, -10, 2147483647, -2147483647 - 1, 9223372036854775807LL,
                           -9223372036854775807LL - 1};
    char want[64], got[NUMTEXT_MAX];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        const int n = snprintf(want, sizeof want, "%lld", v[i]);
        assert_int_equal(numtext_int(got, v[i]), n);
        assert_string_equal(got, want);
    }
}

const struct CMUnitTest report_tests[] = {
    cmocka_unit_test(g9_is_printf),
    cmocka_unit_test(g6_is_printf),
    cmocka_unit_test(int_is_printf),
};
const size_t report_tests_count = sizeof report_tests / sizeof report_tests[0];
