/* numfmt.c: "%.Pg" and "%.Pf" from the digits of one long double product (see numfmt.h). */
#include "io/numfmt.h"
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { MAX_EXP = 27, MAX_PREC = 15 };   /* 10^27 = 2^27 5^27 and 5^27 < 2^64: exact */

/* 10^k, k = 0 .. MAX_EXP: each literal exact in a 64-bit significand. */
static const long double p10[MAX_EXP + 1] = {
    1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
    1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L,
    1e27L};

/* The product s = |v| 10^k (0 <= s < 10^18) rounded to the nearest integer into *m; false where
 * it is too near a tie for the product to decide (it errs by at most s 2^-64). The floor through
 * llrintl (exact in a long long): floorl and a cast would each switch the x87 rounding mode
 * twice, most of a cell's time. */
static bool round_product(long double s, unsigned long long *m)
{
    long long r = llrintl(s);
    if ((long double)r > s)
        r--;
    long double fr = s - (long double)r;
    if (fabsl(fr - 0.5L) <= s * 0x1p-60L)
        return false;
    *m = (unsigned long long)r + (fr > 0.5L);
    return true;
}

/* The prec significant digits of a > 0 (finite) into d, and the decimal exponent X of the first
 * (a = 0.d[0]d[1]... 10^(X+1), rounded to nearest, ties to even as printf does). false where the
 * long double product cannot decide the rounding (or the scale is out of the exact range). */
static bool digits(double a, int prec, char *d, int *X)
{
    int e2;                                     /* 2^(e2-1) <= a < 2^e2: log10 a from e2, */
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int biased = (int)(bits >> 52) & 0x7ff;     /* a > 0: the sign bit is 0 */
    if (biased > 0)
        e2 = biased - 1022;                     /* normal: frexp's exponent, without the call */
    else
        frexp(a, &e2);
    int k = prec - 1 - (int)floor((e2 - 1) * 0.30102999566398120);  /* one off at most */
    for (int tries = 0; tries < 3; tries++) {
        if (k > MAX_EXP || k < -MAX_EXP)
            return false;
        long double s = k >= 0 ? (long double)a * p10[k] : (long double)a / p10[-k];
        if (s >= p10[prec]) {
            k--;
            continue;
        }
        if (s < p10[prec - 1]) {
            k++;
            continue;
        }
        unsigned long long m;
        if (!round_product(s, &m))
            return false;
        if ((long double)m == p10[prec])          /* 9.99.. rounded up to 10.0.. */
            m /= 10, k--;
        for (int i = prec - 1; i >= 0; i--, m /= 10)
            d[i] = (char)('0' + (int)(m % 10));
        *X = prec - 1 - k;
        return true;
    }
    return false;
}

int numfmt_g(char *buf, size_t len, double v, int prec)
{
    char d[MAX_PREC + 1];
    int X;
    if (len < 32)
        return snprintf(buf, len, "%.*g", prec, v);
    if (v == 0.0 || !isfinite(v)) {            /* printf's words for these, sign and all */
        const char *w = v == 0.0 ? "0" : isnan(v) ? "nan" : "inf";
        int n = 0, k = (int)strlen(w);
        if (signbit(v))
            buf[n++] = '-';
        memcpy(buf + n, w, (size_t)k + 1);
        return n + k;
    }
    if (LDBL_MANT_DIG < 64 || prec < 1 || prec > MAX_PREC || !digits(fabs(v), prec, d, &X))
        return snprintf(buf, len, "%.*g", prec, v);
    int nd = prec, n = 0;
    while (nd > 1 && d[nd - 1] == '0')        /* %g drops trailing zeros */
        nd--;
    if (v < 0)
        buf[n++] = '-';
    if (X < -4 || X >= prec) {                 /* d.ddde+XX */
        buf[n++] = d[0];
        if (nd > 1) {
            buf[n++] = '.';
            memcpy(buf + n, d + 1, (size_t)nd - 1);
            n += nd - 1;
        }
        buf[n++] = 'e';
        buf[n++] = X < 0 ? '-' : '+';
        int e = X < 0 ? -X : X;             /* at least two digits, as printf */
        if (e >= 100)
            buf[n++] = (char)('0' + e / 100);
        buf[n++] = (char)('0' + e / 10 % 10);
        buf[n++] = (char)('0' + e % 10);
        buf[n] = '\0';
        return n;
    }
    if (X < 0) {                               /* 0.000ddd */
        buf[n++] = '0';
        buf[n++] = '.';
        for (int i = 0; i < -X - 1; i++)
            buf[n++] = '0';
        memcpy(buf + n, d, (size_t)nd);
        n += nd;
    } else {                                   /* ddd.ddd */
        memcpy(buf + n, d, (size_t)X + 1);
        n += X + 1;
        if (nd > X + 1) {
            buf[n++] = '.';
            memcpy(buf + n, d + X + 1, (size_t)(nd - X - 1));
            n += nd - X - 1;
        }
    }
    buf[n] = '\0';
    return n;
}

int numfmt_f(char *buf, size_t len, double v, int prec)
{
    if (len < 32 || LDBL_MANT_DIG < 64 || prec < 0 || prec > MAX_PREC || !isfinite(v))
        return snprintf(buf, len, "%.*f", prec, v);
    long double s = (long double)fabs(v) * p10[prec];   /* errs by at most s 2^-64 */
    unsigned long long m;
    if (s >= 1e18L || !round_product(s, &m))
        return snprintf(buf, len, "%.*f", prec, v);
    char d[24];                                 /* the digits of m, last first: at least prec + 1 */
    int nd = 0, n = 0;
    do
        d[nd++] = (char)('0' + (int)(m % 10)), m /= 10;
    while (m || nd <= prec);
    if (signbit(v))                             /* printf's "-0.0000" too */
        buf[n++] = '-';
    for (int i = nd - 1; i >= prec; i--)
        buf[n++] = d[i];
    if (prec > 0)
        buf[n++] = '.';
    for (int i = prec - 1; i >= 0; i--)
        buf[n++] = d[i];
    buf[n] = '\0';
    return n;
}

/* fmt as "%.P" then conv (P one or two digits): P; -1 for any other format. In one pass, no
 * strlen: numfmt_row reads a cell's format for every cell. */
static int precision_of(const char *fmt, char conv)
{
    if (fmt[0] != '%' || fmt[1] != '.')
        return -1;
    int p = 0, i = 2;
    for (; i < 4 && fmt[i] >= '0' && fmt[i] <= '9'; i++)
        p = 10 * p + (fmt[i] - '0');
    return i > 2 && fmt[i] == conv && fmt[i + 1] == '\0' ? p : -1;
}

int numfmt_g_precision(const char *fmt)
{
    int p = precision_of(fmt, 'g');
    return p > 0 ? p : 0;
}

int numfmt_f_precision(const char *fmt)
{
    return precision_of(fmt, 'f');
}

void numfmt_row(FILE *f, const double *v, size_t n, const char *const *fmt)
{
    char line[1024];
    size_t len = 0;
    for (size_t j = 0; j < n; j++) {
        if (sizeof line - len < 64) {           /* room for a "%.Pg" cell and its tab */
            fwrite(line, 1, len, f);
            len = 0;
        }
        int p = numfmt_g_precision(fmt[j]), pf = p ? -1 : numfmt_f_precision(fmt[j]);
        int room = (int)(sizeof line - len) - 1;
        int k = p ? numfmt_g(line + len, sizeof line - len, v[j], p)
              : pf >= 0 ? numfmt_f(line + len, sizeof line - len, v[j], pf)
                        : snprintf(line + len, sizeof line - len, fmt[j], v[j]);
        if (k < 0 || k >= room) {               /* a cell longer than the line: on its own */
            fwrite(line, 1, len, f);
            len = 0;
            fprintf(f, fmt[j], v[j]);
        } else {
            len += (size_t)k;
        }
        line[len++] = j + 1 < n ? '\t' : '\n';
    }
    fwrite(line, 1, len, f);
}
