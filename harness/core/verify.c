/* Verification against float64: see verify.h for the criterion and tolerance. */
#include "verify.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const DISPOSITION_NAMES[DISP__COUNT] = {
    [DISP_PASSED] = "passed",
    [DISP_INCORRECT] = "incorrect",
    [DISP_SKIPPED] = "skipped",
    [DISP_FAILED] = "failed",
};

const char *disposition_name(enum disposition d)
{
    return (d >= 0 && d < DISP__COUNT) ? DISPOSITION_NAMES[d] : "unknown";
}

double verify_tolerance(enum precision p, int K)
{
    const double u_acc = ldexp(1.0, -24);                       /* FP32 unit roundoff */
    const double u_in = (p == PREC_TF32) ? ldexp(1.0, -11) : 0.0; /* TF32: 10-bit mantissa */
    return 8.0 * (u_in + u_acc * sqrt((double)K));
}

struct verdict verify_judge(const struct err_stats *s, double tolerance)
{
    struct verdict v = {.tolerance = tolerance, .nonfinite = s->nonfinite};
    /* A zero reference (impossible with inputs in [-1,1] drawn at random, but
     * keep the arithmetic honest) makes any non-zero difference infinite. */
    v.rel_err = s->sum_sq_ref > 0 ? sqrt(s->sum_sq_diff / s->sum_sq_ref)
                                  : (s->sum_sq_diff > 0 ? INFINITY : 0.0);
    v.max_rel_err = s->max_abs_ref > 0 ? s->max_abs_diff / s->max_abs_ref
                                       : (s->max_abs_diff > 0 ? INFINITY : 0.0);
    if (s->nonfinite > 0) {
        v.rel_err = v.max_rel_err = NAN;
        v.disposition = DISP_INCORRECT;
    } else {
        /* Written so that a NaN error can never pass. */
        v.disposition = (v.rel_err <= tolerance && v.max_rel_err <= tolerance) ? DISP_PASSED
                                                                               : DISP_INCORRECT;
    }
    return v;
}

void verify_reference_fp64(double *R, const float *A, const float *B, int M, int N, int K)
{
    /* i-k-j order: the inner loop runs along a row of B and of R (contiguous). */
    for (int i = 0; i < M; i++) {
        double *r = R + (size_t)i * N;
        for (int j = 0; j < N; j++) r[j] = 0.0;
        for (int k = 0; k < K; k++) {
            const double a = A[(size_t)i * K + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; j++) r[j] += a * (double)b[j];
        }
    }
}

void verify_compare(struct err_stats *s, const float *C, const double *R, long long n)
{
    memset(s, 0, sizeof *s);
    for (long long i = 0; i < n; i++) {
        const double r = R[i];
        s->sum_sq_ref += r * r;
        if (fabs(r) > s->max_abs_ref) s->max_abs_ref = fabs(r);
        if (!isfinite(C[i])) {
            s->nonfinite++;
            continue;
        }
        const double d = (double)C[i] - r;
        s->sum_sq_diff += d * d;
        if (fabs(d) > s->max_abs_diff) s->max_abs_diff = fabs(d);
    }
}

void verify_poison(float *C, long long n)
{
    for (long long i = 0; i < n; i++) C[i] = NAN;
}
