/* oscillator.h: the damped harmonic oscillator u'' = -omega0^2 u - 2 sigma0 u' as the
 * first-order system y' = A y, y = (u, u'), and its exact solution. */
#ifndef IVPLAB_OSCILLATOR_H
#define IVPLAB_OSCILLATOR_H
#include "problem/ivp.h"

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

#endif
