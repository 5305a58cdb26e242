/* method.h: a time-stepping method is data (after GSL odeiv2's step types).
 * The same table entry steps a problem and draws its own stability region. */
#ifndef IVPLAB_METHOD_H
#define IVPLAB_METHOD_H
#include "ivp.h"
#include <complex.h>
#include <stdbool.h>

/* Butcher tableau of an explicit Runge-Kutta method: a is stages x stages, row-major,
 * strictly lower triangular (every arrow points right or down). */
typedef struct rk_tableau {
    int stages;             /* s */
    const double *a;        /* s*s coefficients a_ij */
    const double *b;        /* s weights */
    const double *c;        /* s nodes, c_i = sum_j a_ij */
} rk_tableau;

typedef struct method {
    const char *name;       /* what --method takes and --tsv prints: "rk4" */
    const char *label;      /* what a legend shows: "RK4" */
    int order;              /* global order of accuracy */
    int stages;             /* F evaluations per step (explicit methods) */
    bool implicit;          /* needs a Newton solve per step */
    double complex (*R)(double complex z);   /* amplification factor on y' = lambda y, z = h lambda */
    /* One step from (t, y) to t + h, in place. 0 on success; nonzero with w->error set. */
    int (*step)(const ivp *p, double t, double h, double *y, workspace *w);
    const rk_tableau *tableau;               /* explicit RK methods: their tableau, else NULL */
    bool needs_uv;          /* steps only y = (u, v) halves with u' = v (leapfrog); R is then the
                               amplification on the undamped oscillator, see method/leapfrog.c */
} method;

extern const method method_euler, method_backward_euler, method_trapezoid, method_heun, method_rk4;
extern const method method_leapfrog;

/* Every fixed-step method, in lecture order, NULL-terminated. */
extern const method *const method_all[];

/* The method called name, or NULL. */
const method *method_find(const char *name);
/* "euler|backward-euler|..." for help texts and error messages. */
const char *method_names(void);

/* One explicit Runge-Kutta step driven by a tableau: what the explicit methods call. */
int rk_explicit_step(const rk_tableau *tab, const ivp *p, double t, double h, double *y, workspace *w);

#endif
