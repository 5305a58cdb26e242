/* pendulum.h: the nonlinear pendulum theta'' = -omega0^2 sin(theta), y = (theta, theta'):
 * the nonlinear oscillator the convergence lesson checks the orders on (linear problems can
 * hide order problems). Released from rest it has a closed form in Jacobi's elliptic functions
 * (GSL's), the convergence lesson's reference. */
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

/* The state at t of the pendulum released from rest at theta0 (|theta0| < pi): 0, or -1 when
 * GSL cannot evaluate it. */
int pendulum_exact_from_rest(const pendulum *p, double theta0, double t, double y[2]);
/* Its period 4 K(sin(theta0/2)) / omega0, s (NAN when GSL cannot evaluate it). */
double pendulum_period(const pendulum *p, double theta0);

#endif
