/* method.h: a time-stepping method is data with a self (after GSL odeiv2's step types: static
 * const data whose functions take the data first). The same object steps a problem and draws its
 * own stability region. A Runge-Kutta method is its Butcher tableau and the one Runge-Kutta step
 * (rk.c); a method that is not Runge-Kutta (leapfrog) brings its own step and R. */
#ifndef IVPLAB_METHOD_H
#define IVPLAB_METHOD_H
#include "problem/ivp.h"
#include <complex.h>
#include <stdbool.h>

/* Butcher tableau of a Runge-Kutta method: a is stages x stages, row-major, lower triangular:
 * strictly (every arrow points right or down: explicit) or with entries on the diagonal
 * (diagonally implicit, DIRK: each stage one Newton solve of its own). */
typedef struct rk_tableau {
    int stages;             /* s */
    const double *a;        /* s*s coefficients a_ij */
    const double *b;        /* s weights */
    const double *c;        /* s nodes, c_i = sum_j a_ij */
    const double *bhat;     /* s embedded weights of a pair (the error estimate's), NULL if none */
} rk_tableau;

typedef struct method method;
struct method {
    const char *name;       /* what --method takes and --tsv prints: "rk4" */
    const char *label;      /* what a legend shows: "RK4" */
    int order;              /* global order of accuracy */
    int stages;             /* F evaluations per step (explicit methods) */
    bool implicit;          /* needs a Newton solve per step */
    /* amplification factor on y' = lambda y, z = h lambda */
    double complex (*R)(const method *m, double complex z);
    /* One step from (t, y) to t + h, in place. 0 on success; nonzero with w->error set. */
    int (*step)(const method *m, const ivp *p, double t, double h, double *y, workspace *w);
    const rk_tableau *tableau;  /* Runge-Kutta methods: their tableau, else NULL */
    bool needs_uv;          /* steps only y = (u, v) halves with u' = v (leapfrog); R is then the
                               amplification on the undamped oscillator, see method/leapfrog.c */
    const char *file;       /* the tableau file the method was read from, NULL for a built-in one */
};

/* The two entry points: what every caller uses to step and to ask for R(z). */
static inline int method_step(const method *m, const ivp *p, double t, double h, double *y,
                              workspace *w)
{
    return m->step(m, p, t, h, y, w);
}
static inline double complex method_R(const method *m, double complex z) { return m->R(m, z); }

extern const method method_euler, method_backward_euler, method_trapezoid, method_heun, method_rk4;
extern const method method_leapfrog;

/* Every built-in fixed-step method in lecture order, NULL-terminated (list.c); a program's
 * method set (method/set.h) starts from it. */
extern const method *const method_builtin[];

/* The shared Runge-Kutta step and R(z) of a method with a tableau: one step driven by m->tableau
 * (explicit, or implicit through Newton), and R(z) = 1 + z b^T (I - zA)^{-1} 1 from it. */
int rk_method_step(const method *m, const ivp *p, double t, double h, double *y, workspace *w);
double complex rk_method_R(const method *m, double complex z);

/* One Runge-Kutta step driven by a tableau (explicit, or implicit through Newton). */
int rk_step(const rk_tableau *tab, const ivp *p, double t, double h, double *y, workspace *w);
/* The stages alone: k_i = F(t + c_i h, Y_i) into w->k[i]. k0_known: w->k[0] already holds
 * F(t, y) (an explicit first stage reused after a rejected step, or first-same-as-last). */
int rk_stages(const rk_tableau *tab, const ivp *p, double t, double h, const double *y,
              workspace *w, bool k0_known);

#endif
