/* method.h: a time-stepping method is data (after GSL odeiv2's step types).
 * The same table entry steps a problem and draws its own stability region. */
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

typedef struct method {
    const char *name;       /* what --method takes and --tsv prints: "rk4" */
    const char *label;      /* what a legend shows: "RK4" */
    int order;              /* global order of accuracy */
    int stages;             /* F evaluations per step (explicit methods) */
    bool implicit;          /* needs a Newton solve per step */
    double complex (*R)(double complex z);   /* amplification factor on y' = lambda y, z = h lambda */
    /* One step from (t, y) to t + h, in place. 0 on success; nonzero with w->error set. */
    int (*step)(const ivp *p, double t, double h, double *y, workspace *w);
    const rk_tableau *tableau;               /* Runge-Kutta methods: their tableau, else NULL */
    bool needs_uv;          /* steps only y = (u, v) halves with u' = v (leapfrog); R is then the
                               amplification on the undamped oscillator, see method/leapfrog.c */
} method;

extern const method method_euler, method_backward_euler, method_trapezoid, method_heun, method_rk4;
extern const method method_leapfrog;

/* Most methods a program holds: the built-in ones and the tableau files it was given. */
#define METHOD_MAX 20

/* Every fixed-step method, in lecture order, then the tableau files the program loaded
 * (method/tableau.h), NULL-terminated. Loops over it pick up a student's method unchanged. */
extern const method *method_all[METHOD_MAX + 1];

/* The method called name, or NULL. */
const method *method_find(const char *name);
/* "euler|backward-euler|..." for help texts and error messages. */
const char *method_names(void);
/* Append m to method_all. 0, or -1 with the reason in err (the name is taken, the table full). */
int method_register(const method *m, char *err, size_t errlen);

/* One Runge-Kutta step driven by a tableau (explicit, or diagonally implicit through Newton):
 * what every tableau method calls. */
int rk_step(const rk_tableau *tab, const ivp *p, double t, double h, double *y, workspace *w);
/* The stages alone: k_i = F(t + c_i h, Y_i) into w->k[i]. k0_known: w->k[0] already holds
 * F(t, y) (an explicit first stage reused after a rejected step, or first-same-as-last). */
int rk_stages(const rk_tableau *tab, const ivp *p, double t, double h, const double *y, workspace *w, bool k0_known);

#endif
