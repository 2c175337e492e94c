/* Host rungs, the float64 reference, the verdict and the inputs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/inputs.h"
#include "core/registry.h"
#include "core/verify.h"

static void reference_on_known_product(void **state)
{
    (void)state;
    /* [1 2 3; 4 5 6] * [7 8; 9 10; 11 12] = [58 64; 139 154] */
    const float A[] = {1, 2, 3, 4, 5, 6}, B[] = {7, 8, 9, 10, 11, 12};
    double R[4];
    verify_reference_fp64(R, A, B, 2, 2, 3);
    assert_true(R[0] == 58 && R[1] == 64 && R[2] == 139 && R[3] == 154);
}

/* Every host rung at every built -O level against float64, at shapes that are
 * square nowhere and multiples of nothing. */
static void host_rungs_match_fp64(void **state)
{
    (void)state;
    const int shapes[][3] = {{1, 1, 1}, {17, 33, 65}, {65, 17, 33}, {100, 129, 31}, {3, 250, 7}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
        float *C = malloc(sizeof(float) * M * N);
        double *R = malloc(sizeof(double) * M * N);
        inputs_fill(A, B, M, N, K, 42 + s);
        verify_reference_fp64(R, A, B, M, N, K);
        int checked = 0;
        for (size_t i = 0; i < registry_count(); i++) {
            const struct variant *v = registry_at(i);
            if (v->device != DEV_HOST) continue;
            for (int o = 1; o <= 3; o++) {
                verify_poison(C, (long long)M * N);
                v->host[o](C, A, B, M, N, K);
                struct err_stats st;
                verify_compare(&st, C, R, (long long)M * N);
                struct verdict vd = verify_judge(&st, verify_tolerance(PREC_FP32, K));
                if (vd.disposition != DISP_PASSED)
                    fail_msg("%s -O%d at %dx%dx%d: rel_err %g, nonfinite %llu", v->name, o, M,
                             N, K, vd.rel_err, (unsigned long long)vd.nonfinite);
                checked++;
            }
        }
        assert_int_equal(checked, 6);
        free(A); free(B); free(C); free(R);
    }
}

static void verdict_rejects_nan_and_error(void **state)
{
    (void)state;
    const int n = 64;
    float C[64];
    double R[64];
    for (int i = 0; i < n; i++) R[i] = C[i] = (float)(i - 30) / 7.0f;
    struct err_stats st;
    verify_compare(&st, C, R, n);
    assert_int_equal(verify_judge(&st, 1e-6).disposition, DISP_PASSED);

    C[5] = NAN;   /* one unwritten output */
    verify_compare(&st, C, R, n);
    struct verdict v = verify_judge(&st, 1e30);
    assert_int_equal(v.disposition, DISP_INCORRECT);
    assert_int_equal(v.nonfinite, 1);

    C[5] = INFINITY;
    verify_compare(&st, C, R, n);
    assert_int_equal(verify_judge(&st, 1e30).disposition, DISP_INCORRECT);

    C[5] = (float)R[5] * 1.01f;   /* one element 1% off */
    verify_compare(&st, C, R, n);
    assert_int_equal(verify_judge(&st, 1e-5).disposition, DISP_INCORRECT);

    verify_poison(C, n);
    verify_compare(&st, C, R, n);
    assert_int_equal(st.nonfinite, n);
}

/* One element a little off in a large product: the norm-wise error stays far
 * inside the tolerance, the largest difference does not. */
static void verdict_catches_one_element_off(void **state)
{
    (void)state;
    const int M = 300, N = 300, K = 1000;
    const long long n = (long long)M * N;
    double *R = malloc(n * sizeof *R);
    float *C = malloc(n * sizeof *C);
    assert_non_null(R);
    assert_non_null(C);
    uint64_t x = 12345;
    for (long long i = 0; i < n; i++) {   /* entries of a product of size K: about sqrt(K)/3 */
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        R[i] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 20.0;
        C[i] = (float)R[i];
    }
    const double tol = verify_tolerance(PREC_FP32, K);
    struct err_stats st;
    verify_compare(&st, C, R, n);
    assert_int_equal(verify_judge(&st, tol).disposition, DISP_PASSED);
    C[n / 2] += 0.01f;   /* one output off by 0.01 */
    verify_compare(&st, C, R, n);
    const struct verdict v = verify_judge(&st, tol);
    print_message("one element off: rel_err %.3g, max_rel_err %.3g, tolerance %.3g\n", v.rel_err,
                  v.max_rel_err, tol);
    assert_true(v.rel_err < tol);
    assert_int_equal(v.disposition, DISP_INCORRECT);
    free(R);
    free(C);
}

static void tolerance_grows_with_k(void **state)
{
    (void)state;
    assert_true(fabs(verify_tolerance(PREC_FP32, 4) - 8 * 2 * ldexp(1, -24)) < 1e-20);
    assert_true(verify_tolerance(PREC_FP32, 8192) < 1e-4);
    assert_true(verify_tolerance(PREC_TF32, 1) > 3.9e-3);
}

static void inputs_are_seeded_and_spread(void **state)
{
    (void)state;
    enum { M = 31, N = 47, K = 29 };
    static float A1[M * K], B1[K * N], A2[M * K], B2[K * N];
    inputs_fill(A1, B1, M, N, K, 7);
    inputs_fill(A2, B2, M, N, K, 7);
    assert_memory_equal(A1, A2, sizeof A1);
    assert_memory_equal(B1, B2, sizeof B1);
    inputs_fill(A2, B2, M, N, K, 8);
    assert_memory_not_equal(A1, A2, sizeof A1);
    int neg = 0, zero = 0;
    for (int i = 0; i < M * K; i++) {
        assert_true(A1[i] >= -1.0f && A1[i] < 1.0f);
        neg += A1[i] < 0;
        zero += A1[i] == 0;
    }
    assert_in_range(neg, M * K / 3, 2 * M * K / 3);
    assert_true(zero < 3);
}

const struct CMUnitTest host_tests[] = {
    cmocka_unit_test(reference_on_known_product),
    cmocka_unit_test(host_rungs_match_fp64),
    cmocka_unit_test(verdict_rejects_nan_and_error),
    cmocka_unit_test(verdict_catches_one_element_off),
    cmocka_unit_test(tolerance_grows_with_k),
    cmocka_unit_test(inputs_are_seeded_and_spread),
};
const size_t host_tests_count = sizeof host_tests / sizeof host_tests[0];
