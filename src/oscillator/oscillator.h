/* oscillator.h: the damped harmonic oscillator u'' = -omega0^2 u - 2 sigma0 u' as the
 * first-order system y' = A y, y = (u, u'), and its exact solution. */
#ifndef IVPLAB_OSCILLATOR_H
#define IVPLAB_OSCILLATOR_H
#include "problem/ivp.h"
#include <complex.h>

typedef struct oscillator {
    double omega0;          /* lossless angular frequency, rad/s */
    double sigma0;          /* decay rate of the envelope, 1/s */
} oscillator;

/* The problem y' = A y for o (o must outlive the ivp). Linear, with its Jacobian A. */
ivp oscillator_ivp(oscillator *o);
/* Exact y(t) from y0 = (u0, v0) at t = 0, for any damping (under, critical, over). */
void oscillator_exact(const oscillator *o, const double y0[2], double t, double y[2]);
/* Energy per unit mass H = u'^2/2 + omega0^2 u^2/2, J/kg. */
double oscillator_energy(double t, const double *y, void *params);

/* The roots s+ and s- of s^2 + 2 sigma0 s + omega0^2 = 0 in units of omega0, at the damping ratio
 * r = sigma0/omega0: -r +- sqrt(r^2 - 1) (the root locus; a complex pair on the unit circle for
 * r < 1, one double root -1 at r = 1, two real roots with s+ s- = 1 beyond). */
void oscillator_roots(double ratio, double complex *sp, double complex *sm);
/* The eigenvalues lambda of A, 1/s: omega0 times the roots at sigma0/omega0. */
void oscillator_eigenvalues(const oscillator *o, double complex lam[2]);

#endif
