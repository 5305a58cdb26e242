/* test_format: base/util.h's format_g against printf's "%.*g" at the precisions the lessons'
 * tables use (6 and 7, and 1, 15 at the ends of its range): the same characters for values at
 * the edges of its shortcut (powers of ten, the %e/%f switches, rounding up to the next power,
 * decimal ties, zero, signs, infinities, NaN, denormals) and for a million pseudo-random ones
 * (random bit patterns, random mantissas over 40 decades, decimal ties at every scale). */
#include "check.h"
#include "base/util.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long differ(double x, int prec, long *n)
{
    char a[64], b[64];
    int la = format_g(a, x, prec), lb = snprintf(b, sizeof b, "%.*g", prec, x);
    (*n)++;
    if (la == lb && strcmp(a, b) == 0)
        return 0;
    printf("  %a at %d: format_g '%s', printf '%s'\n", x, prec, a, b);
    return 1;
}

/* the n-th pseudo-random value (xorshift64), of four kinds in turn */
static double value(uint64_t *s, long i)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    double u = (double)(*s >> 11) / 9007199254740992.0, x;
    switch (i % 4) {
    case 0:
        memcpy(&x, s, sizeof x);
        return isfinite(x) ? x : u;
    case 1:
        return (u - 0.5) * pow(10, (int)(*s % 40) - 20);
    case 2:
        return (double)((int64_t)(*s % 2000001) - 1000000) / pow(10, (int)((*s >> 40) % 12));
    default:
        return round(u * 1e7) * pow(10, (int)(*s % 30) - 15);
    }
}

int main(void)
{
    const double edge[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-15, 9.99999e-16, 1e15, 999999999999999.0,
                           1e-4, 9.9999995e-5, 9.999995e-5, 0.0001000005, 999999.5, 999999.4999,
                           9999995.0, 123456.5, 1234565.0, 2.5e-7, 100000.0, 1e6, 1e7, 0.1, 0.3,
                           1.0 / 3.0, 2.0 / 3.0, -2.60029e-07, 20.0, 55.5137, DBL_MIN, 5e-324,
                           DBL_MAX, INFINITY, -INFINITY, NAN, -NAN};
    const int precs[] = {1, 6, 7, 15};
    long bad = 0, n = 0;
    for (size_t k = 0; k < sizeof edge / sizeof edge[0]; k++)
        for (int p = 0; p < 4; p++)
            bad += differ(edge[k], precs[p], &n);
    check(bad == 0, "format_g: %ld of %ld edge cases as printf writes them", n - bad, n);
    uint64_t s = 88172645463325252ull;
    bad = 0, n = 0;
    for (long i = 0; i < 500000 && bad < 10; i++) {
        double x = value(&s, i);
        bad += differ(x, 6, &n) + differ(x, 7, &n);
    }
    check(bad == 0, "format_g: %ld of %ld pseudo-random values as printf writes them", n - bad, n);
    return check_done();
}
