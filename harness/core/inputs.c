/* Seeded inputs: see inputs.h. */
#include "inputs.h"

#include <stddef.h>

uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 24 random bits -> a float in [-1, 1), exactly representable. */
static float uniform_pm1(uint64_t *s)
{
    return (float)(int32_t)((splitmix64(s) >> 40) - (1u << 23)) * (1.0f / (float)(1u << 23));
}

void inputs_fill(float *A, float *B, int M, int N, int K, uint64_t seed)
{
    uint64_t s = seed;
    s ^= (uint64_t)M * 0x100000001B3ull;
    s = splitmix64(&s) ^ (uint64_t)N;
    s = splitmix64(&s) ^ (uint64_t)K;
    for (size_t i = 0; i < (size_t)M * K; i++) A[i] = uniform_pm1(&s);
    for (size_t i = 0; i < (size_t)K * N; i++) B[i] = uniform_pm1(&s);
}
