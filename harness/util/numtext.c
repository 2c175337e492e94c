/* Numbers as text: see numtext.h.
 *
 * %.Pg (P = 6 or 9) of a finite, non-zero v: P significant digits d
 * (10^(P-1) <= d < 10^P) and a decimal exponent X with |v| ~ d * 10^(X-P+1),
 * printed in fixed notation when -4 <= X < P, else as d.ddd...e+XX, trailing
 * zeros dropped.  The digits come from one correctly rounded double operation,
 * s = |v| * 10^(P-1-X) (or a division by 10^(X-P+1)), with the power of ten
 * exact (10^k for k <= 22): s is within half an ulp of the exact value, at most
 * 6e-8 where s < 10^9.  So rounding s to an integer gives printf's digits
 * unless s lies within 10^-6 of a half; then, and for exponents beyond the
 * exact powers, printf itself is asked.  NaN, infinities and zeros are written
 * as glibc writes them. */
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

static size_t fallback(char *buf, double v, int prec)
{
    const int n = snprintf(buf, NUMTEXT_MAX, "%.*g", prec, v);
    return n > 0 ? (size_t)n : 0;
}

/* %.<prec>g, 1 <= prec <= 9 */
static size_t numtext_g(char *buf, double v, int prec)
{
    char *p = buf;
    if (signbit(v)) *p++ = '-';
    if (isnan(v) || isinf(v) || v == 0) {
        strcpy(p, isnan(v) ? "nan" : isinf(v) ? "inf" : "0");
        return (size_t)(p - buf) + strlen(p);
    }
    const double a = fabs(v), lo = P10[prec - 1], hi = P10[prec];
    const int xlo = prec - 23, xhi = prec + 21;   /* |prec - 1 - x| <= 22 */
    int x = (int)floor(log10(a));
    if (x < xlo || x > xhi) return fallback(buf, v, prec);   /* the power would not be exact */
    double s = scaled(a, prec - 1 - x);
    if (s < lo && x > xlo) s = scaled(a, prec - 1 - --x);        /* log10 one too high */
    else if (s >= hi && x < xhi) s = scaled(a, prec - 1 - ++x);  /* one too low */
    if (s < lo || s >= hi) return fallback(buf, v, prec);
    const double whole = floor(s), frac = s - whole;
    if (fabs(frac - 0.5) < 1e-6) return fallback(buf, v, prec);   /* too near a tie to tell */
    unsigned d = (unsigned)whole + (frac > 0.5);
    if (d == (unsigned)hi) d = (unsigned)lo, x++;
    char dig[9];
    for (int i = prec - 1; i >= 0; i--, d /= 10) dig[i] = (char)('0' + d % 10);
    int last = prec - 1;   /* the last digit kept: trailing zeros go */
    while (last > 0 && dig[last] == '0') last--;
    if (x >= -4 && x < prec) {
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

size_t numtext_g9(char *buf, double v)
{
    return numtext_g(buf, v, 9);
}

size_t numtext_g6(char *buf, double v)
{
    return numtext_g(buf, v, 6);
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
