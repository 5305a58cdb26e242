/* newton.h: Newton iteration for implicit steps, x = c + a F(t, x), on GSL's LU.
 * Uses the problem's Jacobian when it has one, finite differences otherwise, and
 * factors I - a J once (and reuses it) when the problem says F is linear. A problem that
 * declares a narrow band (ivp.band, 4 band < dim) is solved on GSL's band LU instead, its
 * Jacobian built from 2 band + 1 grouped F evaluations, so memory and work grow with dim,
 * not dim^2 and dim^3. */
#ifndef IVPLAB_NEWTON_H
#define IVPLAB_NEWTON_H
#include "problem/ivp.h"

#define NEWTON_MAX_HISTORY 64

typedef struct newton_report {
    int iterations;                          /* Newton iterations of the last solve */
    double residual[NEWTON_MAX_HISTORY];     /* max-norm of G(x) before iteration i */
    double update[NEWTON_MAX_HISTORY];       /* max-norm of the correction of iteration i */
} newton_report;

/* Solve G(x) = x - c - a F(t, x) = 0 for x; y holds the initial guess and gets the answer.
 * c may alias y. Returns 0, or -1 when Newton does not converge (w->error says the time,
 * the iterations and the residual). */
int newton_implicit_step(const ivp *p, double t, double a, const double *c, double *y, workspace *w);

/* Tolerance (relative update, default 1e-12) and iteration limit (default 30) of w's solver. */
void newton_configure(workspace *w, double rel_tol, int max_iter);
/* What the last solve in w did (NULL before the first). */
const newton_report *newton_last(const workspace *w);
/* Whether w's solver took the band path (false before the first solve). */
bool newton_is_banded(const workspace *w);

/* Most unknowns s n of a fully implicit step's coupled system: its dense matrix is (s n)^2
 * doubles (1200: 11.5 MB) and each factorization (2/3)(s n)^3 flops. */
#define NEWTON_COUPLED_MAX 1200

/* The s stages of a fully implicit Runge-Kutta step (a: s x s, row-major, cn: the nodes c_i), solved
 * together: Z_i = h sum_j a_ij F(t + c_j h, y + Z_j), s n unknowns, by simplified Newton (the
 * Jacobian at (t + c_1 h, y), I - h A (x) J factored once a step with GSL's dense LU, and kept over
 * steps for the same linear problem and h). Counts F evaluations, Jacobians, factorizations and
 * iterations like newton_implicit_step. On success k_i = F(t + c_i h, y + Z_i) is in w->k[i]; -1 with
 * w->error (the time, the iterations, the residual; or s n above NEWTON_COUPLED_MAX). */
int newton_coupled_stages(const ivp *p, double t, double h, int s, const double *a, const double *cn, const double *y,
                          workspace *w);

#endif
