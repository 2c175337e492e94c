/* Derived views of results files (derive.h): the cells of a view's line and
 * the columns that name a rung at a shape, as every view prints them (at the
 * bottom of views/: it calls no view). */
#include "derive.h"
#include "derive_parts.h"
#include "util/util.h"

#include <math.h>
#include <string.h>

void derive_cell_int(FILE *out, long long v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do *--p = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) *--p = '-';
    *--p = '\t';
    fwrite(p, 1, (size_t)(buf + sizeof buf - p), out);
}

void derive_cell_num(FILE *out, double x)
{
    /* an integer under 10^6 prints as "%.6g" prints it: its digits (-0.0
     * excepted: "-0") */
    if (isfinite(x) && fabs(x) < 1e6 && x == (double)(long long)x && !(x == 0 && signbit(x)))
        derive_cell_int(out, (long long)x);
    else if (!isfinite(x))
        fputs("\t-", out);
    else {
        char b[NUMTEXT_MAX + 1] = "\t";   /* what "\t%.6g" writes */
        fwrite(b, 1, 1 + numtext_g6(b + 1, x), out);
    }
}

void derive_cell_str(FILE *out, const char *s)
{
    fputc('\t', out);
    if (!s || !*s) {
        fputc('-', out);
        return;
    }
    const size_t plain = strcspn(s, "\t\n");
    fwrite(s, 1, plain, out);
    for (s += plain; *s; s++) fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

void derive_row_head(FILE *out)
{
    fputs("number\trung\tdevice\tprecision\tM\tN\tK\tn\tshape", out);
}

void derive_row_cells(FILE *out, const struct variant *v, struct shape s)
{
    fprintf(out, "%d", registry_number(v));
    str(out, v->name);
    str(out, v->device == DEV_GPU ? "gpu" : "host");
    str(out, v->precision == PREC_TF32 ? "tf32" : "fp32");
    char label[48];
    shape_label(s, label, sizeof label);
    derive_cell_int(out, s.M);
    derive_cell_int(out, s.N);
    derive_cell_int(out, s.K);
    derive_cell_int(out, shape_square(s));
    str(out, label);
}
