/* test_numfmt.c: numfmt_g writes exactly what printf's "%.Pg" writes: random doubles over every
 * scale and sign, values on and next to decimal rounding ties, powers of ten and their
 * neighbours, exact binary ties (odd / 2^k: printf rounds them to even), zeros, NaN and
 * infinities, at every precision 1 to 17; and numfmt_g_precision
 * reads "%.Pg" and nothing else. numfmt_f likewise against "%.Pf". */
#include "check.h"
#include "io/numfmt.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Whether numfmt_g(v, prec) is printf's; the first difference is shown. */
static long bad;

static void same(double v, int prec)
{
    char a[64], b[64];
    int na = numfmt_g(a, sizeof a, v, prec), nb = snprintf(b, sizeof b, "%.*g", prec, v);
    if ((na != nb || strcmp(a, b) != 0) && bad++ == 0)
        printf("first difference: %.17g at %%.%dg: \"%s\" against printf's \"%s\"\n", v, prec, a, b);
}

/* The same for numfmt_f and printf's "%.Pf". */
static long bad_f;

static void same_f(double v, int prec)
{
    char a[64], b[400];
    int na = numfmt_f(a, sizeof a, v, prec), nb = snprintf(b, sizeof b, "%.*f", prec, v);
    if ((na != nb || strcmp(a, b) != 0) && bad_f++ == 0)
        printf("first difference: %.17g at %%.%df: \"%s\" against printf's \"%s\"\n", v, prec,
               a, b);
}

/* numfmt_f at every precision 0 to 17: random doubles from 1e-22 to 1e20 (past the fast range
 * both ways), decimal ties d.dd5 and their neighbours, exact binary ties (printf rounds them to
 * even), small integers, zeros (and values rounding to "-0.0000"), NaN and infinities. */
static void f_checks(void)
{
    long n = 0;
    for (int i = 0; i < 400000; i++, n++) {
        double v = ldexp(1.0 + (double)(next() >> 11) / 9007199254740992.0,
                         (int)(next() % 140) - 72);
        same_f(next() & 1 ? -v : v, (int)(next() % 18));
    }
    for (int p = 0; p <= 15; p++)
        for (int i = 0; i < 20000; i++, n += 3) {
            double v = ((double)(next() % 100000000) + 0.5) * pow(10.0, -p - 1 - (int)(next() % 8));
            same_f(v, p), same_f(nextafter(v, 0.0), p), same_f(nextafter(v, INFINITY), p);
        }
    for (int i = 0; i < 20000; i++)
        for (int p = 0; p <= 10; p++, n += 3) {
            same_f((double)(2 * (next() % 5000000) + 1) / (double)(1 << (1 + next() % 12)), p);
            same_f(-((double)(next() % 10000000) + 0.5), p);
            same_f((double)(next() % 1000), p);
        }
    const double special[] = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, -1e-5, 1e-310, -400.0,
                              2.60205999132796, 0.00005, 999999.99995, 1e17, 1e18, 123456789012.5};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        for (int p = 0; p <= 17; p++, n++)
            same_f(special[i], p);
    check(bad_f == 0, "numfmt_f against printf's %%.Pf: %ld of %ld values differ", bad_f, n);
    check(numfmt_f_precision("%.4f") == 4 && numfmt_f_precision("%.0f") == 0
              && numfmt_f_precision("%.12f") == 12 && numfmt_f_precision("%f") == -1
              && numfmt_f_precision("%.4g") == -1 && numfmt_f_precision("%.123f") == -1,
          "numfmt_f_precision reads %%.4f, %%.0f, %%.12f; -1 for %%f, %%.4g, %%.123f");
}

/* numfmt_row against fprintf, cell by cell: %.Pg and other formats mixed, a cell longer than
 * what is left of its line buffer (%.6f of 1e300), and a line of 300 cells (several buffers' worth). */
static void row_checks(void)
{
    enum { NC = 300 };
    double v[NC];
    const char *fmt[NC];
    const char *kinds[] = {"%.9g", "%.6f", "%.12g", "%g", "%.3e"};
    for (int j = 0; j < NC; j++)
        v[j] = ldexp((double)(next() >> 11), (int)(next() % 120) - 90) * (next() & 1 ? -1 : 1),
        fmt[j] = kinds[j % 5];
    for (int j = 1; j < NC; j += 5)
        v[j] = 1e300;   /* "%.6f": 308 characters, some where the line has less room left */
    char *got, *want;
    size_t ng, nw;
    FILE *a = open_memstream(&got, &ng), *b = open_memstream(&want, &nw);
    for (int n = 1; n <= NC; n += NC - 1) {     /* a row of 1, then of all 300 */
        numfmt_row(a, v, (size_t)n, fmt);
        for (int j = 0; j < n; j++) {
            fprintf(b, fmt[j], v[j]);
            fputc(j + 1 < n ? '\t' : '\n', b);
        }
    }
    fclose(a), fclose(b);
    check(ng == nw && memcmp(got, want, nw) == 0, "numfmt_row writes what fprintf writes cell by "
          "cell: rows of 1 and %d cells, formats %%.9g %%.6f %%.12g %%g %%.3e, 308-character cells "
          "(%zu and %zu bytes)", NC, ng, nw);
    free(got), free(want);
}

int main(void)
{
    long n = 0;
    for (int i = 0; i < 400000; i++, n++) {   /* any scale: uniform exponent, random significand */
        double v = ldexp(1.0 + (double)(next() >> 11) / 9007199254740992.0, (int)(next() % 200) - 100);
        same(next() & 1 ? -v : v, 1 + (int)(next() % 17));
    }
    for (int p = 1; p <= 15; p++)            /* decimal ties d.dd5 10^e and their neighbours */
        for (int i = 0; i < 20000; i++, n += 3) {
            double v = ((double)(next() % 100000000) + 0.5) * pow(10.0, (int)(next() % 40) - 25);
            same(v, p), same(nextafter(v, 0.0), p), same(nextafter(v, INFINITY), p);
        }
    for (int i = 0; i < 20000; i++)            /* exact binary ties: odd / 2^k, m + 1/2 */
        for (int p = 1; p <= 10; p++, n += 2) {
            same((double)(2 * (next() % 5000000) + 1) / (double)(1 << (1 + next() % 12)), p);
            same((double)(next() % 10000000) + 0.5, p);
        }
    for (int e = -30; e <= 30; e++)           /* powers of ten and their neighbours */
        for (int p = 1; p <= 17; p++, n += 3) {
            double v = pow(10.0, e);
            same(v, p), same(nextafter(v, 0.0), p), same(nextafter(v, INFINITY), p);
        }
    const double special[] = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, 1e-310, 4.4408920985e-14,
                              150.0, 0.014715, 1e300, 9.9999999999995e-5, 0.00001, 123456789012.5};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        for (int p = 1; p <= 17; p++, n++)
            same(special[i], p);
    check(bad == 0, "numfmt_g against printf's %%.Pg: %ld of %ld values differ", bad, n);
    check(numfmt_g_precision("%.12g") == 12 && numfmt_g_precision("%.6g") == 6,
          "numfmt_g_precision reads %%.12g and %%.6g");
    check(numfmt_g_precision("%.6f") == 0 && numfmt_g_precision("%g") == 0
              && numfmt_g_precision("%.1x2g") == 0 && numfmt_g_precision("%.123g") == 0,
          "numfmt_g_precision: 0 for %%.6f, %%g and other formats");
    check(numfmt_g_precision("%.") == 0 && numfmt_g_precision("%.5") == 0
              && numfmt_g_precision("%.g") == 0 && numfmt_g_precision("%.12gx") == 0
              && numfmt_g_precision("%") == 0 && numfmt_g_precision("") == 0
              && numfmt_g_precision("%.9g") == 9 && numfmt_f_precision("%.4fx") == -1
              && numfmt_f_precision("%.f") == -1 && numfmt_f_precision("%.07f") == 7,
          "the formats' parser: 0 (-1) for %%., %%.5, %%.g, %%.12gx, %%, '', %%.4fx, %%.f; "
          "%%.9g 9, %%.07f 7");
    f_checks();
    row_checks();
    return check_done();
}
