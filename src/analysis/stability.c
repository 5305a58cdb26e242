#include "analysis/stability.h"
#include <math.h>

double complex stability_z(const method *m, double h, double complex lambda)
{
    return m->needs_uv ? I * h * cabs(lambda) * (cimag(lambda) < 0 ? -1.0 : 1.0) : h * lambda;
}

bool stability_stable(const method *m, double complex z)
{
    double a = cabs(method_R(m, z));
    return isfinite(a) && a <= 1.0 + STABILITY_TOL;
}

double stability_bound(const method *m, double complex dir)
{
    double lo = 0.0, hi = -1.0;
    long n = lround(STABILITY_SCAN_MAX / STABILITY_SCAN_STEP);
    for (long k = 1; k <= n; k++) {
        double x = k * STABILITY_SCAN_STEP;
        if (!stability_stable(m, x * dir)) {
            hi = x;
            break;
        }
        lo = x;
    }
    if (hi < 0) {
        /* stable out to the scan's end: a few far points decide between infinite and bounded */
        for (double x = 2 * STABILITY_SCAN_MAX; x <= 1e8 && hi < 0; x *= 10) {
            if (!stability_stable(m, x * dir))
                hi = x;         /* stable to the scan's end, unstable further out: bisect */
            else
                lo = x;
        }
        if (hi < 0)
            return INFINITY;
    }
    if (lo == 0.0)
        return 0.0;
    /* relative to the bound (absolute below 1): above ~8192 doubles are further apart than 1e-12 */
    int it = 0;
    for (; it < STABILITY_BISECT_MAX && hi - lo > STABILITY_BISECT_RTOL * fmax(1.0, hi); it++) {
        double mid = 0.5 * (lo + hi);
        if (stability_stable(m, mid * dir))
            lo = mid;
        else
            hi = mid;
    }
    return it < STABILITY_BISECT_MAX ? lo : NAN;
}

double stability_phase_error(const method *m, double complex z)
{
    double d = remainder(carg(method_R(m, z)) - cimag(z), 2.0 * M_PI);   /* in [-pi, pi] */
    return d == -M_PI ? M_PI : d;
}

bool stability_region_bounded(const method *m, double radius)
{
    for (int k = 0; k < 720; k++)
        if (stability_stable(m, radius * cexp(I * M_PI * k / 360.0)))
            return false;
    return true;
}

int stability_grid(const method *m, FILE *f, double x0, double x1, int nx, double y0, double y1,
                   int ny)
{
    for (int i = 0; i < nx; i++) {
        double x = x0 + (x1 - x0) * i / (nx - 1);
        for (int j = 0; j < ny; j++) {
            double y = y0 + (y1 - y0) * j / (ny - 1);
            double a = cabs(method_R(m, x + I * y));
            fprintf(f, "%.6g\t%.6g\t%.9g\t%d\n", x, y, isfinite(a) ? a : 1e300,
                    stability_stable(m, x + I * y));
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

stability_partial stability_partial_of(const method *m, double h, double alpha, double omega)
{
    double complex z = h * (-alpha + I * omega);
    stability_partial p;
    p.omega = omega + stability_phase_error(m, z) / h;
    p.decay = -log(cabs(method_R(m, z))) / h;
    p.cents = 1200.0 * log2(p.omega / omega);
    p.t60_ratio = p.decay == 0 ? INFINITY : alpha / p.decay;
    return p;
}

/* Which criterion the partial at f Hz fails, or NULL when it passes both. */
static const char *bandwidth_fails(const method *m, double h, double alpha, double f,
                                   double cents_max, double ratio_tol)
{
    stability_partial p = stability_partial_of(m, h, alpha, 2.0 * M_PI * f);
    if (!(fabs(p.cents) <= cents_max))
        return "pitch";
    if (!(fabs(p.t60_ratio - 1.0) <= ratio_tol))
        return "T60";
    return NULL;
}

double stability_bandwidth(const method *m, double h, double alpha, double f_max, double cents_max,
                           double ratio_tol, const char **limit)
{
    *limit = "none";
    if (m->needs_uv)
        return NAN;
    double lo = 1.0, hi = 0.0;
    if ((*limit = bandwidth_fails(m, h, alpha, lo, cents_max, ratio_tol)) != NULL)
        return 0.0;
    *limit = "none";
    for (double f = lo * 1.01; hi == 0.0; f *= 1.01) {
        if (f >= f_max) {
            if (!bandwidth_fails(m, h, alpha, f_max, cents_max, ratio_tol))
                return f_max;
            f = f_max;
        }
        if (bandwidth_fails(m, h, alpha, f, cents_max, ratio_tol))
            hi = f;
        else
            lo = f;
    }
    for (int it = 0; it < 100 && hi - lo > 1e-9 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (bandwidth_fails(m, h, alpha, mid, cents_max, ratio_tol))
            hi = mid;
        else
            lo = mid;
    }
    *limit = bandwidth_fails(m, h, alpha, hi, cents_max, ratio_tol);
    return lo;
}
