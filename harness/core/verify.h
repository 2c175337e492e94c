/* Verification: every measured point is compared with a float64 reference
 * before its samples count.
 *
 * Error statistics are gathered the same way on the host (verify_compare) and on
 * the device (gpu_compare): over all M*N elements c of the result and r of the
 * float64 reference,
 *     rel_err     = ||c - r||_F / ||r||_F
 *     max_rel_err = max |c - r| / max |r|
 * and a point passes only when both are within the tolerance and no element of
 * c is NaN or Inf.  The norm-wise error alone would let one wrong element
 * through (in a 1000 x 1000 product it moves ||c - r||_F by a millionth of
 * its own error); the largest difference catches it.
 *
 * Tolerance (stated and recorded per point): with u_acc the unit roundoff of the
 * accumulation (2^-24 for FP32) and u_in that of the operands as the kernel reads
 * them (0 for FP32, 2^-11 for TF32 tensor cores),
 *     tol = 8 * (u_in + u_acc * sqrt(K)).
 * A sum of K rounded terms of random sign has relative error about
 * u_acc * sqrt(K); rounding the operands to TF32 adds about u_in whatever K is.
 * The factor 8 is the margin. */
#ifndef HARNESS_VERIFY_H
#define HARNESS_VERIFY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum disposition {
    DISP_PASSED = 0,     /* verified, then measured */
    DISP_INCORRECT,      /* ran, but the result failed verification */
    DISP_SKIPPED,        /* not run: the reason is recorded */
    DISP_FAILED,         /* could not run: launch or runtime error, recorded */
    DISP__COUNT
};

const char *disposition_name(enum disposition d);

enum precision { PREC_FP32 = 0, PREC_TF32 };

struct err_stats {
    double sum_sq_diff;      /* sum (c - r)^2 over finite c */
    double sum_sq_ref;       /* sum r^2 */
    double max_abs_diff;     /* max |c - r| over finite c */
    double max_abs_ref;      /* max |r| */
    uint64_t nonfinite;      /* count of NaN/Inf in c */
};

struct verdict {
    enum disposition disposition;   /* PASSED or INCORRECT */
    double rel_err, max_rel_err, tolerance;
    uint64_t nonfinite;
};

double verify_tolerance(enum precision p, int K);

/* PASSED when there is no non-finite element and both rel_err and max_rel_err
 * are <= tolerance. */
struct verdict verify_judge(const struct err_stats *s, double tolerance);

/* Float64 reference on the host: R = A * B, exact products of the float inputs
 * summed in double. */
void verify_reference_fp64(double *R, const float *A, const float *B, int M, int N, int K);

/* Error statistics of float C against double R, n elements. */
void verify_compare(struct err_stats *s, const float *C, const double *R, long long n);

/* Fill n floats with NaN. */
void verify_poison(float *C, long long n);

#ifdef __cplusplus
}
#endif
#endif
