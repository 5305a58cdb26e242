#include "oscillator/pendulum.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_elljac.h>
#include <gsl/gsl_sf_ellint.h>
#include <math.h>

static int rhs(double t, const double *y, double *f, void *params)
{
    (void)t;
    const pendulum *p = params;
    f[0] = y[1];
    f[1] = -p->omega0 * p->omega0 * sin(y[0]);
    return 0;
}

static int jac(double t, const double *y, double *J, void *params)
{
    (void)t;
    const pendulum *p = params;
    J[0] = 0.0;
    J[1] = 1.0;
    J[2] = -p->omega0 * p->omega0 * cos(y[0]);
    J[3] = 0.0;
    return 0;
}

double pendulum_energy(double t, const double *y, void *params)
{
    (void)t;
    const pendulum *p = params;
    return 0.5 * y[1] * y[1] + p->omega0 * p->omega0 * (1.0 - cos(y[0]));
}

ivp pendulum_ivp(pendulum *p)
{
    ivp q = {.dim = 2, .rhs = rhs, .jac = jac, .energy = pendulum_energy, .params = p,
             .linear = false, .second_order = true};
    return q;
}

int pendulum_exact_from_rest(const pendulum *p, double theta0, double t, double y[2])
{
    /* sin(theta/2) = k sn(K - omega0 t | k^2), k = sin(theta0/2); so theta = 2 asin(k sn) and,
     * with cos(theta/2) = dn, theta' = -2 k omega0 cn */
    double k = sin(0.5 * theta0), sn, cn, dn;
    gsl_sf_result K;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_sf_ellint_Kcomp_e(fabs(k), GSL_PREC_DOUBLE, &K);
    if (rc == GSL_SUCCESS)
        rc = gsl_sf_elljac_e(K.val - p->omega0 * t, k * k, &sn, &cn, &dn);
    gsl_set_error_handler(old);
    if (rc != GSL_SUCCESS)
        return -1;
    y[0] = 2.0 * asin(k * sn);
    y[1] = -2.0 * k * p->omega0 * cn;
    return 0;
}

double pendulum_period(const pendulum *p, double theta0)
{
    gsl_sf_result K;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_sf_ellint_Kcomp_e(fabs(sin(0.5 * theta0)), GSL_PREC_DOUBLE, &K);
    gsl_set_error_handler(old);
    return rc == GSL_SUCCESS ? 4.0 * K.val / p->omega0 : NAN;
}
