/* spring2.h: two masses and three springs, wall - k1 - m1 - k2 - m2 - k3 - wall, the lecture's
 * stiff network M u'' = -K u. State y = (u1, u2, u1', u2'): displacements, then velocities
 * (the (u, v) halves leapfrog needs). Its exact solution is modal: K phi = omega^2 M phi from
 * GSL's generalized symmetric eigensolver. */
#ifndef IVPLAB_SPRING2_H
#define IVPLAB_SPRING2_H
#include "base/budget.h"
#include "drive/cvode.h"
#include "io/params.h"
#include "problem/ivp.h"

typedef struct spring2 {
    double m1, m2;          /* masses, kg (m1 the heavy one) */
    double k1, k2, k3;      /* springs wall-m1, m1-m2, m2-wall, N/m */
} spring2;

typedef struct spring2_modes {
    double omega[2];        /* angular frequencies, slow then fast, rad/s */
    double phi[2][2];       /* phi[i] = mode i's shape (u1, u2), mass-normalised: phi^T M phi = 1,
                               m/sqrt(kg) per unit */
} spring2_modes;

/* The problem y' = A y (linear, with its Jacobian, energy, second_order). s must outlive it. */
ivp spring2_ivp(spring2 *s);
/* The two modes (GSL gensymmv). 0, or -1 when M or K is not positive definite. */
int spring2_modes_of(const spring2 *s, spring2_modes *md);
/* Exact y(t) from y0 by superposing the modes. */
void spring2_exact(const spring2 *s, const spring2_modes *md, const double y0[4], double t,
                   double y[4]);
/* Amplitude of mode i in the state y, as the displacement it gives the mass `mass` (0 or 1), m:
 * |phi_i[mass]| sqrt(q_i^2 + (q_i'/omega_i)^2), q_i = phi_i^T M u. Constant in the exact motion. */
double spring2_mode_amplitude(const spring2 *s, const spring2_modes *md, const double y[4], int i,
                              int mass);
/* Modal coordinate q_i = phi_i^T M u and its rate, of the state y. */
void spring2_modal(const spring2 *s, const spring2_modes *md, const double y[4], int i, double *q,
                   double *qdot);
/* Energy 1/2 u'^T M u' + 1/2 u^T K u, J. */
double spring2_energy(double t, const double *y, void *params);

/* An adaptive solver's run on the network (bin/stiff --method): what it cost and how it stepped. */
typedef struct spring2_adaptive {
    cvode_stats st; /* steps, F evaluations, Jacobians, linear setups, rejections, seconds */
    double median_h;        /* median accepted step, s (NAN: none) */
    double max_err_u1;      /* largest |u1 - exact u1| over the accepted steps, m */
} spring2_adaptive;
/* Solve from y0 over [0, T] with solver "cvode-bdf", "cvode-adams" or "gsl-NAME"
 * (drive/gsl_pairs.h) at rtol and atol, at most max_steps steps (0: the solver's default), each
 * step's error watched and its length kept (thinned to at most 2^20: 8 MB), meter ticked once a
 * step (NULL: none). 0, or -1 with the solver's reason in err. */
int spring2_adaptive_run(spring2 *s, const spring2_modes *md, const double y0[4], double T,
                         const char *solver, double rtol, double atol, long max_steps,
                         progress *meter, spring2_adaptive *out, char *err, size_t errlen);
/* The steps of that run over [0, T], estimated by a pilot of at most n steps: its steps, when it
 * reached T, else its steps times T over the time it reached (INFINITY when none). */
double spring2_adaptive_pilot(spring2 *s, const spring2_modes *md, const double y0[4], double T,
                              const char *solver, double rtol, double atol, long n);

/* Read lessons/params/spring2.ini (or path, if not NULL) into s, the pull of the heavy mass (m)
 * and the run length (s). 0, or -1 with one line in err. */
int spring2_load_params(spring2 *s, double *pull, double *T, const char *path, char *err,
                        size_t errlen);
/* The keys of spring2.ini, each declared once (io/params.h) and bound to s, pull and T: bin/stiff
 * takes them as flags (FLAG_TABLE). */
#define SPRING2_NKEYS 7
typedef struct spring2_keys {
    param_spec all[SPRING2_NKEYS + 1];
} spring2_keys;
void spring2_keys_bind(spring2 *s, double *pull, double *T, spring2_keys *k);

#endif
