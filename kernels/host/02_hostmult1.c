/* Rung 02, host with __restrict (seed 004's `hostmult1`).
 *
 * Adds over rung 01: the promise that C, A and B do not overlap.  The compiler
 * may then keep C[i][j] in a register for the whole k loop and store it once,
 * as if the code used a local sum.  Whether it does so depends on the
 * optimisation level, which is why this rung is measured at -O1, -O2 and -O3.
 * The arithmetic and the order of the additions are the same as rung 01's. */
#include "matmul.h"

void HOST_RUNG(hostmult1)(float *__restrict C, const float *__restrict A,
                          const float *__restrict B, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            C[(long)i * N + j] = 0.0f;
            for (int k = 0; k < K; k++)
                C[(long)i * N + j] += A[(long)i * K + k] * B[(long)k * N + j];
        }
}
