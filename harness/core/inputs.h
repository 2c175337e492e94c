/* Inputs: A and B of a shape, uniform in [-1, 1), from a seed.  The stream is a
 * function of (seed, M, N, K) alone, so any point can be re-run on its own and
 * every rung at a shape sees the same operands.  Never zeros. */
#ifndef HARNESS_INPUTS_H
#define HARNESS_INPUTS_H

#include <stdint.h>

void inputs_fill(float *A, float *B, int M, int N, int K, uint64_t seed);

/* splitmix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator whose
 * outputs pass BigCrush; plenty for operands and for drawing shapes.  Advances
 * *state and returns the next output. */
uint64_t splitmix64(uint64_t *state);

#endif
