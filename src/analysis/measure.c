#include "analysis/measure.h"
#include "base/util.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>

double measure_loglog_slope(const double *x, const double *y, size_t n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++) {
        double a = log(x[i]), b = log(y[i]);
        sx += a;
        sy += b;
        sxx += a * a;
        sxy += a * b;
    }
    return ((double)n * sxy - sx * sy) / ((double)n * sxx - sx * sx);
}

void measure_pairwise_slopes(const double *x, const double *y, size_t n, double *s)
{
    for (size_t i = 0; i + 1 < n; i++)
        s[i] = log(y[i + 1] / y[i]) / log(x[i + 1] / x[i]);
}

osc_fidelity measure_oscillator_fidelity(const method *m, double omega0, double sigma0, double h)
{
    double omega1 = sqrt(omega0 * omega0 - sigma0 * sigma0);
    double complex lambda = -sigma0 + I * omega1;
    double complex z = method_R(m, h * lambda);
    double complex L = clog(z) / h;       /* the numerical eigenvalue */
    osc_fidelity f;
    f.gain = cabs(z);
    f.grows = f.gain > 1.0;
    f.cents = 1200.0 * log2(cimag(L) / omega1);
    f.t60_ratio = sigma0 / -creal(L);
    f.t60 = f.gain < 1.0 ? measure_t60(-creal(L)) : INFINITY;
    return f;
}

double measure_t60(double sigma)
{
    return 6.0 * log(10.0) / sigma;
}

/* Do the pairwise slopes of points a .. b (b - a + 1 >= 3) agree within agree, all falling? */
static bool slopes_agree(const double *h, const double *err, size_t a, size_t b, double agree)
{
    double lo = INFINITY, hi = -INFINITY, s[1];
    for (size_t i = a; i < b; i++) {
        measure_pairwise_slopes(h + i, err + i, 2, s);
        lo = fmin(lo, s[0]);
        hi = fmax(hi, s[0]);
    }
    return lo >= MEASURE_MIN_ORDER && hi - lo <= agree;
}

double measure_asymptotic_order(const double *h, const double *err, size_t n, double floor,
                                size_t npts, double agree, size_t *first, size_t *count,
                                const char **status)
{
    /* the longest run of points above the floor whose pairwise slopes agree (ties: the smaller h)
     */
    size_t best_a = 0, best_len = 0, above = 0;
    for (size_t i = 0; i < n; i++)
        above += isfinite(err[i]) && err[i] > floor;
    for (size_t b = n; b-- > 0;) {
        size_t a = b;
        while (a > 0 && isfinite(err[a - 1]) && err[a - 1] > floor && isfinite(err[b]) &&
               err[b] > floor && slopes_agree(h, err, a - 1, b, agree))
            a--;
        /* agreement needs at least three slopes (two can agree by chance on a bend) */
        if (b - a + 1 >= MEASURE_MIN_POINTS && b - a + 1 > best_len) {
            best_a = a;
            best_len = b - a + 1;
        }
    }
    *first = *count = 0;
    if (best_len < MEASURE_MIN_POINTS) {
        *status = above >= MEASURE_MIN_POINTS ? "not asymptotic" : "reference floor";
        return NAN;
    }
    size_t k = best_len < npts ? best_len : npts;
    *first = best_a + best_len - k;
    *count = k;
    *status = NULL;
    return measure_loglog_slope(h + *first, err + *first, k);
}

size_t measure_ringing(const double *t, const double *u, size_t n, double *sigma, double *omega)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, first = 0, last = 0;
    size_t np = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (!(u[i] > u[i - 1] && u[i] >= u[i + 1] && u[i] > 0))
            continue;
        /* parabola through (-1, a), (0, b), (1, c): vertex offset and height */
        double a = u[i - 1], b = u[i], c = u[i + 1], den = a - 2 * b + c;
        double off = den != 0 ? 0.5 * (a - c) / den : 0.0;
        double peak = b - 0.25 * (a - c) * off, dt = t[i + 1] - t[i];
        double tp = t[i] + off * dt, lp = log(peak);
        if (np == 0)
            first = tp;
        last = tp;
        sx += tp; sy += lp; sxx += tp * tp; sxy += tp * lp;
        np++;
    }
    if (np < 3) {
        *sigma = *omega = NAN;
        return np;
    }
    *sigma = -((double)np * sxy - sx * sy) / ((double)np * sxx - sx * sx);
    *omega = 2.0 * M_PI * (double)(np - 1) / (last - first);
    return np;
}

/* r[L..L+3] (those up to L1) of measure_fundamental from y = x - mean: each lag's sum in its own
 * order, as one lag alone would sum it, the four side by side in the lanes of a vector (one sum
 * waits on its additions; four do not). AVX2 where the machine has it, SSE2 elsewhere: the same
 * operations, the same bits. */
AVX2_CLONES static void
autocorr4(const double *y, size_t n, double r0, long L, long L1, double *r)
{
    f64x4 v = {0, 0, 0, 0};
    long nl = L1 - L + 1 < 4 ? L1 - L + 1 : 4;
    size_t i = 0;
    if (nl == 4)                        /* while all four lags have samples */
        for (; i + L + 3 < n; i++)
            v += y[i] * F64X4_AT(y + i + L);
    double s[4] = {v[0], v[1], v[2], v[3]};
    for (long k = 0; k < nl; k++) {     /* the rest of each */
        for (size_t j = i; j + L + k < n; j++)
            s[k] += y[j] * y[j + L + k];
        r[L + k] = s[k] / (r0 * (double)(n - L - k) / n);
    }
}

double measure_fundamental(const double *x, size_t n, double fs, double f_lo, double f_hi)
{
    if (n < 16 || !(f_lo > 0) || !(f_hi > f_lo))
        return 0.0;
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i] / n;
    long lo = (long)floor(fs / f_hi), hi = (long)ceil(fs / f_lo);
    if (hi > (long)n / 2)
        hi = (long)n / 2;
    if (lo < 2 || hi <= lo + 2)
        return 0.0;
    double *r = xcalloc((size_t)hi + 2, sizeof(double)), r0 = 0, e = 0;
    for (size_t i = 0; i < n; i++) {
        r0 += (x[i] - mean) * (x[i] - mean);
        e += x[i] * x[i];
    }
    if (!(r0 > 1e-20 * e)) {     /* constant but for the round-off of the mean */
        free(r);
        return 0.0;
    }
    long L1 = hi + 1 < (long)n - 1 ? hi + 1 : (long)n - 1;
    double *y = xcalloc(n, sizeof(double));
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] - mean;
    for (long L = lo - 1; L <= L1; L += 4)
        autocorr4(y, n, r0, L, L1, r);
    free(y);
    double best = -1, f = 0.0;
    for (long L = lo; L <= hi; L++)
        best = fmax(best, r[L]);
    for (long L = lo; L <= hi; L++)
        if (r[L] >= r[L - 1] && r[L] >= r[L + 1] && r[L] >= 0.9 * best && best > 0.3) {
            double d = r[L - 1] - 2 * r[L] + r[L + 1];
            double off = d != 0 ? 0.5 * (r[L - 1] - r[L + 1]) / d : 0.0;
            f = fs / (L + off);
            break;
        }
    free(r);
    return f;
}

double measure_loop_area(const double *x, const double *y, size_t n)
{
    double a = 0;
    for (size_t k = 1; k < n; k++)
        a += 0.5 * (x[k - 1] * y[k] - x[k] * y[k - 1]);
    return a;
}
