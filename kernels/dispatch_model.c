/* The dispatch model's terms and time: see dispatch.h.  The same arithmetic,
 * in the same order, as scripts/fit-dispatch.py's features(), so that a time
 * here is the script's to the last bits (a test holds the two together). */
#include "dispatch.h"

#include <math.h>

static long long ceil_div(long long a, long long b) { return (a + b - 1) / b; }

void dispatch_model_features(int M, int N, int K, const struct dispatch_plan *p, int sms,
                             double f[DISPATCH_TERMS])
{
    const long long bm = p->block_rows, bn = p->block_cols;
    const long long grid = p->grid_blocks > 1 ? p->grid_blocks : 1;
    const long long slots = (long long)(p->blocks_per_sm > 1 ? p->blocks_per_sm : 1) * sms;
    const long long S = p->k_splits > 1 ? p->k_splits : 1;
    const long long cells = bm && bn ? ceil_div(M, bm) * bm * (ceil_div(N, bn) * bn) : (long long)M * N;
    const double W = (double)cells * 2.0 * K / (double)grid;
    const double waves = (double)grid / (double)slots, full = floor(waves), frac = waves - full;
    const long long up = (long long)ceil(waves);
    const long long a_reads = (long long)M * K * (bn ? ceil_div(N, bn) : 1);
    const long long b_reads = (long long)K * N * (bm ? ceil_div(M, bm) : 1);
    f[0] = (double)p->launches;
    f[1] = W * full;
    f[2] = W * (frac > 0);
    f[3] = W * frac;
    f[4] = 4.0 * (double)(a_reads + b_reads);
    f[5] = 4.0 * M * N * (double)S;
    f[6] = (double)(up * K) / (double)S / 32.0;
    f[7] = (double)up;
    f[8] = 1e-3;
    f[9] = S > 1 ? 4.0 * (double)S * (double)bm * (double)bn : 0.0;
}

double dispatch_model_time(const struct dispatch_candidate *c, int M, int N, int K,
                           const struct dispatch_plan *p, int sms)
{
    double f[DISPATCH_TERMS], t = 0.0;
    dispatch_model_features(M, N, K, p, sms, f);
    for (int i = 0; i < DISPATCH_TERMS; i++) t += c->c[i] * f[i];
    return t;
}

const char *const dispatch_term_names[DISPATCH_TERMS] = {
    "launches",   "whole waves",   "a last wave", "the last wave's fill", "bytes of A and B",
    "bytes of C x parts", "waves x slices", "waves", "constant", "bytes a cut tile's parts add"};

int dispatch_model_admits(const struct dispatch_candidate *c, int tf32, int M, int N, int K,
                          const struct rung_config *cfg, long smem_optin)
{
    const int aligned = N % 4 == 0 && K % 4 == 0;
    return cfg && (tf32 || !c->tf32) && c->aligned == aligned && cfg->smem_bytes <= smem_optin &&
           rung_config_fits(cfg, M, N, K);
}
