/* pendulum.h: the nonlinear pendulum theta'' = -omega0^2 sin(theta), y = (theta, theta'):
 * the nonlinear oscillator the convergence lesson checks the orders on (linear problems can
 * hide order problems). No closed form: the reference is CVODE at a tight tolerance. */
#ifndef IVPLAB_PENDULUM_H
#define IVPLAB_PENDULUM_H
#include "problem/ivp.h"

typedef struct pendulum {
    double omega0;          /* small-swing angular frequency sqrt(g/L), rad/s */
} pendulum;

/* The problem (nonlinear, with its Jacobian and energy; second_order). p must outlive it. */
ivp pendulum_ivp(pendulum *p);
/* Energy per unit m L^2: theta'^2/2 + omega0^2 (1 - cos theta), 1/s^2. */
double pendulum_energy(double t, const double *y, void *params);

#endif
