/* Numbers as text: see numtext.h.
 *
 * %.9g of a finite, non-zero v: nine significant digits d (10^8 <= d < 10^9)
 * and a decimal exponent X with |v| ~ d * 10^(X-8), printed in fixed notation
 * when -4 <= X < 9, else as d.ddddddddde+XX, trailing zeros dropped.  The digits
 * come from one correctly rounded double operation, s = |v| * 10^(8-X) (or a
 * division by 10^(X-8)), with the power of ten exact (10^k for k <= 22): s is
 * within half an ulp of the exact value, at most 6e-8 where s < 10^9.  So
 * rounding s to an integer gives printf's digits unless s lies within 10^-6 of
 * a half; then, and for exponents beyond the exact powers, printf itself is
 * asked.  NaN, infinities and zeros are written as glibc writes them. */
#include "numtext.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double P10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* |v| scaled by 10^k (|k| <= 22), one rounding. */
static double scaled(double a, int k)
{
    return k >= 0 ? a * P10[k] : a / P10[-k];
}

static size_t fallback(char *buf, double v)
{
    const int n = snprintf(buf, NUMTEXT_MAX, "%.9g", v);
    return n > 0 ? (size_t)n : 0;
}

/* The digits of d (0 < d < 10^9) as exactly nine characters. */
static void nine_digits(char *out, unsigned d)
{
    for (int i = 8; i >= 0; i--, d /= 10) out[i] = (char)('0' + d % 10);
}

size_t numtext_g9(char *buf, double v)
{
    char *p = buf;
    if (signbit(v)) *p++ = '-';
    if (isnan(v) || isinf(v) || v == 0) {
        strcpy(p, isnan(v) ? "nan" : isinf(v) ? "inf" : "0");
        return (size_t)(p - buf) + strlen(p);
    }
    const double a = fabs(v);
    int x = (int)floor(log10(a));
    if (x < -14 || x > 29) return fallback(buf, v);   /* 10^(8-x) would not be exact */
    double s = scaled(a, 8 - x);
    if (s < 1e8 && x > -14) s = scaled(a, 8 - --x);  /* log10 one too high */
    else if (s >= 1e9 && x < 29) s = scaled(a, 8 - ++x);  /* one too low */
    if (s < 1e8 || s >= 1e9) return fallback(buf, v);
    const double whole = floor(s), frac = s - whole;
    if (fabs(frac - 0.5) < 1e-6) return fallback(buf, v);   /* too near a tie to tell */
    unsigned d = (unsigned)whole + (frac > 0.5);
    if (d == 1000000000u) d = 100000000u, x++;
    char dig[9];
    nine_digits(dig, d);
    int last = 8;   /* the last digit kept: trailing zeros go */
    while (last > 0 && dig[last] == '0') last--;
    if (x >= -4 && x < 9) {
        if (x < 0) {
            memcpy(p, "0.0000", (size_t)(1 - x));   /* "0." and -x-1 zeros */
            p += 1 - x;
            memcpy(p, dig, (size_t)last + 1);
            p += last + 1;
        } else {
            memcpy(p, dig, (size_t)x + 1);
            p += x + 1;
            if (last > x) {
                *p++ = '.';
                memcpy(p, dig + x + 1, (size_t)(last - x));
                p += last - x;
            }
        }
    } else {
        *p++ = dig[0];
        if (last > 0) {
            *p++ = '.';
            memcpy(p, dig + 1, (size_t)last);
            p += last;
        }
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        const int e = x < 0 ? -x : x;
        *p++ = (char)('0' + e / 10);
        *p++ = (char)('0' + e % 10);
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t numtext_int(char *buf, long long v)
{
    char tmp[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do tmp[n++] = (char)('0' + u % 10), u /= 10;
    while (u);
    char *p = buf;
    if (v < 0) *p++ = '-';
    while (n) *p++ = tmp[--n];
    *p = '\0';
    return (size_t)(p - buf);
}
