/* quadratic.h: the quadratic bowl f(x) = 1/2 sum_i a_i x_i^2 (a_i > 0, its curvatures; the
 * largest is the gradient's Lipschitz constant L) and its gradient flow x' = -grad f(x) =
 * -a_i x_i, a linear problem with eigenvalues -a_i. Gradient descent with step h,
 * x_k+1 = x_k - h grad f(x_k), is forward Euler on that flow: it converges when every
 * |1 - h a_i| < 1, that is h < 2 / L (lecture: "gradient descent as forward Euler"). */
#ifndef IVPLAB_QUADRATIC_H
#define IVPLAB_QUADRATIC_H
#include "problem/ivp.h"

#define QUADRATIC_MAX_DIM 8

typedef struct quadratic {
    size_t dim;                     /* number of unknowns */
    double a[QUADRATIC_MAX_DIM];    /* curvatures d^2 f / dx_i^2, 1/s (as a flow) */
} quadratic;

/* The gradient flow of q (q must outlive the ivp). Linear, with its Jacobian diag(-a). */
ivp quadratic_flow(quadratic *q);
/* f(x) = 1/2 sum a_i x_i^2. */
double quadratic_value(double t, const double *x, void *params);

#endif
