/* Rung 01, host naive (seed 004's `hostmult0`): the textbook triple loop.
 *
 * The bottom of the ladder.  C[i][j] is zeroed and then accumulated in place,
 * K read-modify-writes per output.  A, B and C may alias as far as the compiler
 * knows, so it must store C[i][j] back after every step of the k loop at every
 * optimisation level.  The k loop walks B down a column, N floats apart: at
 * N = 1024 each step touches a new cache line and the same few cache sets. */
#include "matmul.h"

void HOST_RUNG(hostmult0)(float *C, const float *A, const float *B, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            C[(long)i * N + j] = 0.0f;
            for (int k = 0; k < K; k++)
                C[(long)i * N + j] += A[(long)i * K + k] * B[(long)k * N + j];
        }
}
